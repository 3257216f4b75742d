"""Where the grammars, schemas and rulesets live, in a checkout and when installed."""
from __future__ import annotations

from pathlib import Path

from ..errors import UsageError, did_you_mean

KINDS = ("grammars", "schemas", "rulesets")


def resource_dir(kind: str) -> Path:
    """The directory of one kind of resource: `<repo root>/<kind>` in a checkout (or an
    editable install), else `interpreter/<kind>`, where a normal install puts the package data."""
    if kind not in KINDS:
        raise ValueError(f"unknown resource kind {kind!r}")
    package = Path(__file__).resolve().parent.parent   # interpreter/ (this file is interpreter/load/)
    root = package.parent
    # pyproject.toml marks a checkout: in site-packages, a stray top-level "schemas" dir from
    # some other distribution must not be picked up.
    if (root / "pyproject.toml").is_file() and (root / kind).is_dir():
        return root / kind
    return package / kind


def bundled_rulesets() -> list[str]:
    """The names of the rulesets shipped with the package (``rulebook list`` shows them)."""
    return sorted(p.stem for p in resource_dir("rulesets").glob("*.yaml"))


def ruleset_path(name) -> Path:
    """The path itself if it exists, else the bundled ruleset of that name (its file name
    without .yaml), else the path unchanged (whoever opens it reports it missing)."""
    p = Path(name)
    if p.exists():
        return p
    candidate = resource_dir("rulesets") / f"{name}.yaml"
    return candidate if candidate.exists() else p


def find_ruleset(name) -> Path:
    """A ruleset path, or the bundled ruleset of that name; a bare name that is neither is a
    usage error with a did-you-mean."""
    found = ruleset_path(name)
    text = str(name)
    if not found.exists() and "/" not in text and not text.endswith((".yaml", ".yml")):
        bundled = bundled_rulesets()
        close = did_you_mean(text, bundled)
        raise UsageError(f"no ruleset file or bundled ruleset named '{text}' (bundled: {', '.join(bundled)})",
                         hint=f"did you mean '{close}'?" if close else None)
    return found
