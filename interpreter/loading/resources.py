"""Where the grammars, schemas and rulesets live, in a checkout and when installed."""
from __future__ import annotations

from pathlib import Path

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
