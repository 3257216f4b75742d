"""Where the grammars, schemas and rulesets live, in a checkout and when installed."""
from __future__ import annotations

import os
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


RULESET_FILES = (".yaml", ".yml")   # the names of ruleset files: all a scenario file may name


def bundled_named(name: str) -> Path | None:
    """The bundled ruleset a bare name names (``hearts``: no folder, no ``.yaml``), or None: a
    name that could be a path is never looked up here, nor against the working folder."""
    if "/" in name or "\\" in name or "\0" in name or name.endswith(RULESET_FILES):
        return None
    path = resource_dir("rulesets") / f"{name}.yaml"
    return resolved(path) if is_file(path) else None


def resolved(path: Path) -> Path | None:
    """``path`` made absolute with its links followed, or None where it cannot be (a loop of
    links, a NUL byte): such a name names no file."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def exists(path: Path) -> bool:
    """Whether a file or a folder is at ``path``; False where that cannot be told (a name too
    long for the system, a folder this user may not read, a NUL byte): a name that a ruleset or
    a scenario file gives is then one not found, a located error, never the system's."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False where that cannot be told (as ``exists``)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def within(path: Path, folders) -> bool:
    """Whether ``path`` (resolved) is one of ``folders`` (resolved) or lies below one: the one
    test of a file that a ruleset or a scenario file names (``extends:``, a scenario file's
    ``ruleset:``), which may be read only there (docs/security.md)."""
    return any(path == f or f in path.parents for f in folders)


def ruleset_path(name) -> Path:
    """The path itself if it exists, else the bundled ruleset of that name (its file name
    without .yaml), else the path unchanged (whoever opens it reports it missing)."""
    p = Path(name)
    if exists(p):
        return p
    candidate = resource_dir("rulesets") / f"{name}.yaml"
    return candidate if exists(candidate) else p


def find_ruleset(name) -> Path:
    """A ruleset path, or the bundled ruleset of that name; a bare name that is neither is a
    usage error with a did-you-mean."""
    found = ruleset_path(name)
    text = str(name)
    if not exists(found) and "/" not in text and not text.endswith(RULESET_FILES):
        bundled = bundled_rulesets()
        close = did_you_mean(text, bundled)
        raise UsageError(f"no ruleset file or bundled ruleset named '{text}' (bundled: {', '.join(bundled)})",
                         hint=f"did you mean '{close}'?" if close else None)
    return found


def cache_file(name: str) -> str | None:
    """A file of this user's cache folder for ``name`` (``$XDG_CACHE_HOME/rulebook``, else
    ``~/.cache/rulebook``), or None when there is none to use: ``RULEBOOK_NO_CACHE`` is set, the
    folder cannot be made or written, or it is not this user's alone (another user who could
    write in it could put a file there that is loaded as this user's)."""
    if os.environ.get("RULEBOOK_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    try:
        folder = Path(base if os.path.isabs(base) else Path.home() / ".cache") / "rulebook"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.stat()
        mine = not hasattr(os, "getuid") or (st.st_uid == os.getuid() and not st.st_mode & 0o022)
        if not mine or not os.access(folder, os.W_OK):
            return None
    except (OSError, RuntimeError):   # (RuntimeError: no home folder)
        return None
    return str(folder / name)
