"""The optional compiled tier: the engine's hot modules built as C extension modules
(``python -m interpreter.accel build``) into ``interpreter/accel/built/``, out of the source
tree, with a manifest of the SHA-256 of each module's source as it was compiled.

A built module never shadows its source: the package's ``__init__`` installs ``Finder`` (only
when a manifest exists), which loads a module's extension only while its ``.py`` still has the
hash recorded; an edited module runs as edited, as Python, at once, and the tier says it is
stale. ``python -m interpreter.accel clean`` deletes the build. The pure-Python engine stays
the reference: the compiled one is the same source, compiled.
"""
from __future__ import annotations

import importlib
import importlib.machinery
import json
import sys
from importlib.util import spec_from_file_location
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent   # interpreter/
BUILT = Path(__file__).resolve().parent / "built"
MANIFEST = BUILT / "manifest.json"

# The static modules the tier compiles: where a profile of the seed games spends its time outside
# the generated code (docs/performance.md "The compiled tier" has the measurements behind the list).
MODULES = (
    "engine.loop", "engine.rng", "engine.state", "engine.ruleset",
    "expr.runtime",
    "mechanics.base", "mechanics.triggers", "mechanics.market", "mechanics.grid", "mechanics.grid_prices",
    "mechanics.cards", "mechanics.counters",
)


def source_of(module: str) -> Path:
    """The ``.py`` file of one of MODULES (``"engine.loop"``)."""
    return PACKAGE.joinpath(*module.split(".")).with_suffix(".py")


def source_hash(path: Path) -> str | None:
    """The SHA-256 of a source file's bytes (None when it cannot be read)."""
    import hashlib   # (here: ``import interpreter`` alone does not pay for it)
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def read_manifest(path: Path = MANIFEST) -> dict:
    """The built modules, ``{full name: {"file": name in built/, "sha256": of its source}}``
    (a support library, mypyc's, has no "sha256"); empty when there is none or it is damaged."""
    try:
        modules = json.loads(path.read_text())["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return modules if isinstance(modules, dict) else {}


def _module(name: str) -> str:
    return name[len(PACKAGE.name) + 1:]   # "interpreter.engine.loop" -> "engine.loop"


class Finder:
    """A ``sys.meta_path`` finder: the built extension of a module of the manifest whose source
    has the recorded hash; None otherwise, so that Python's own finders load the ``.py``."""

    def __init__(self, manifest: dict, folder: Path = BUILT):
        self.manifest = manifest
        self.folder = folder

    def find_spec(self, fullname, path=None, target=None):
        entry = self.manifest.get(fullname)
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            return None
        ext = self.folder / Path(entry["file"]).name
        if not ext.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) or not ext.is_file():
            return None   # (built for another Python, or deleted)
        if "sha256" in entry and entry["sha256"] != source_hash(source_of(_module(fullname))):
            return None   # the source changed since the build: it runs as written
        return spec_from_file_location(fullname, ext, loader=importlib.machinery.ExtensionFileLoader(fullname, str(ext)))


def install(manifest_path: Path = MANIFEST) -> Finder | None:
    """Put the tier's finder first on ``sys.meta_path``, or give the one there the manifest as it
    is now (after a build); None when there is no build."""
    manifest = read_manifest(manifest_path)
    for finder in sys.meta_path:
        if isinstance(finder, Finder):
            finder.manifest, finder.folder = manifest, manifest_path.parent
            return finder
    if not manifest:
        return None
    finder = Finder(manifest, manifest_path.parent)
    sys.meta_path.insert(0, finder)
    return finder


def built(module: str) -> Path | None:
    """The extension built for ``module`` (``"engine.loop"``), whether current or stale."""
    entry = read_manifest().get(f"{PACKAGE.name}.{module}")
    return BUILT / Path(entry["file"]).name if isinstance(entry, dict) and "file" in entry else None


def in_place() -> list[Path]:
    """Extension files beside the sources: an older layout of the tier, which Python would load
    before the ``.py`` whatever its edits (``clean`` removes them, and ``build`` does first)."""
    out = []
    for module in MODULES:
        src = source_of(module)
        out += [src.with_name(src.stem + s) for s in importlib.machinery.EXTENSION_SUFFIXES
                if src.with_name(src.stem + s).is_file()]
    return out


def loaded() -> dict[str, bool]:
    """Each of MODULES -> whether the module this process runs is a compiled extension."""
    out = {}
    for module in MODULES:
        found = importlib.import_module(f"{PACKAGE.name}.{module}")
        out[module] = isinstance(getattr(found, "__loader__", None), importlib.machinery.ExtensionFileLoader)
    return out


def stale() -> list[str]:
    """The modules built from a source that has changed since (they run as Python)."""
    manifest = read_manifest()
    return [m for m in MODULES if f"{PACKAGE.name}.{m}" in manifest
            and manifest[f"{PACKAGE.name}.{m}"].get("sha256") != source_hash(source_of(m))]


def tier() -> str:
    """"compiled tier" when every module of the tier runs compiled, "pure tier" when none does,
    else "partly compiled tier (N of M modules)"; then the stale modules, and in-place build files."""
    flags = loaded()
    if all(flags.values()):
        name = "compiled tier"
    elif not any(flags.values()):
        name = "pure tier"
    else:
        name = f"partly compiled tier ({sum(flags.values())} of {len(flags)} modules)"
    old = stale()
    if old:
        name += (f", stale: {', '.join(str(source_of(m).relative_to(PACKAGE)) for m in old)} changed since"
                 " the build, run as Python (python -m interpreter.accel build)")
    if in_place():
        name += ", in-place build files found (python -m interpreter.accel clean)"
    return name
