"""The optional compiled tier: the engine's hot modules built as C extension modules
(``python -m interpreter.accel build``) into ``interpreter/accel/built/``, out of the source
tree, with a manifest of the SHA-256 of the sources each module was compiled from.

A built module never shadows its source: the package's ``__init__`` installs ``Finder`` (only
when a manifest exists), which loads a module's extension only while its sources still have the
hash recorded; an edited module runs as edited, as Python, at once, and the tier says it is
stale. ``python -m interpreter.accel clean`` deletes the build. The pure-Python engine stays
the reference: a built module is the same source compiled, or (``C_SOURCES``) a Cython file of
this folder that gives the same results, built from and checked against its ``.py`` together.
"""
from __future__ import annotations

import importlib
import importlib.machinery
import sys
from importlib.util import spec_from_file_location
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent   # interpreter/
BUILT = Path(__file__).resolve().parent / "built"
MANIFEST = BUILT / "manifest.txt"

# The static modules the tier compiles: where a profile of the seed games spends its time outside
# the generated code (docs/performance.md "The compiled tier" has the measurements behind the list).
MODULES = (
    "engine.loop", "engine.rng", "engine.state", "engine.ruleset",
    "expr.runtime",
    "mechanics.base", "mechanics.triggers", "mechanics.market", "mechanics.grid", "mechanics.grid_prices",
    "mechanics.cards", "mechanics.counters", "mechanics.pay", "mechanics.pick",
)

# Modules built from a Cython file of this folder instead of their .py: C arithmetic where the
# .py's (a random stream's 64-bit words) is Python integers. The .py stays the reference: the
# build is loaded only while both files are the ones it was built from (tests/test_accel.py
# compares the two).
C_SOURCES = {"engine.rng": "rng.pyx"}


def source_of(module: str) -> Path:
    """The ``.py`` file of one of MODULES (``"engine.loop"``)."""
    return PACKAGE.joinpath(*module.split(".")).with_suffix(".py")


def sources_of(module: str) -> list[str]:
    """The files, relative to the package, that ``module``'s build is made from."""
    own = str(source_of(module).relative_to(PACKAGE))
    return [own, f"accel/{C_SOURCES[module]}"] if module in C_SOURCES else [own]


def digest(paths: list[str]) -> str | None:
    """The SHA-256 of files of the package (paths relative to it), each preceded by its length;
    None when one cannot be read or lies outside the package."""
    import hashlib   # (OpenSSL's: the engine imports it anyway, through lark; not `import interpreter` alone)
    h = hashlib.sha256()
    for rel in paths:
        if Path(rel).is_absolute() or ".." in Path(rel).parts:
            return None
        try:
            data = (PACKAGE / rel).read_bytes()
        except (OSError, ValueError):
            return None
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def read_manifest(path: Path = MANIFEST) -> dict:
    """The built modules, ``{full name: {"file": name in built/, "sha256": of its sources,
    "sources": [paths relative to the package]}}``; empty when there is none or it is damaged.

    The manifest is plain text, a line a module (``# ...`` lines and ``tool NAME`` aside):
    ``NAME FILE SHA256 SOURCE...``."""
    try:
        text = path.read_text()
    except (OSError, ValueError):
        return {}
    out = {}
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].startswith("#") or words[0] == "tool":
            continue
        if len(words) < 4 or len(words[2]) != 64:
            return {}   # (damaged: nothing of it is trusted)
        out[words[0]] = {"file": words[1], "sha256": words[2], "sources": words[3:]}
    return out


def write_manifest(modules: dict, tool: str, path: Path = MANIFEST) -> None:
    """Write ``modules`` (as read_manifest gives them) for the finder."""
    lines = ["# the compiled tier (python -m interpreter.accel build): a line a module,",
             "# NAME FILE SHA256-OF-THE-SOURCES SOURCE... (paths relative to the package)", f"tool {tool}"]
    lines += [" ".join([name, e["file"], e["sha256"], *e["sources"]]) for name, e in modules.items()]
    path.write_text("\n".join(lines) + "\n")


def _module(name: str) -> str:
    return name[len(PACKAGE.name) + 1:]   # "interpreter.engine.loop" -> "engine.loop"


class Finder:
    """A ``sys.meta_path`` finder: the built extension of a module of the manifest whose sources
    have the recorded hash; None otherwise, so that Python's own finders load the ``.py``. Every
    entry is checked, a support library's too (mypyc's: built from all the modules' sources)."""

    def __init__(self, manifest: dict, folder: Path = BUILT):
        self.manifest = manifest
        self.folder = folder

    def find_spec(self, fullname, path=None, target=None):
        entry = self.manifest.get(fullname)
        if entry is None:
            return None
        ext = self.folder / Path(entry["file"]).name
        if not ext.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) or not ext.is_file():
            return None   # (built for another Python, or deleted)
        if entry["sha256"] != digest(entry["sources"]):
            return None   # a source changed since the build: the module runs as written
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
    """The modules built from sources that have changed since (they run as Python)."""
    manifest = read_manifest()
    return [m for m in MODULES if f"{PACKAGE.name}.{m}" in manifest
            and manifest[f"{PACKAGE.name}.{m}"]["sha256"] != digest(manifest[f"{PACKAGE.name}.{m}"]["sources"])]


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
        manifest = read_manifest()   # (each module named by its own files the build was made from)
        own = [[f for f in sources_of(m) if f in manifest[f"{PACKAGE.name}.{m}"]["sources"]] for m in old]
        name += (f", stale: {', '.join(' or '.join(files) for files in own)} changed since"
                 " the build, run as Python (python -m interpreter.accel build)")
    if in_place():
        name += ", in-place build files found (python -m interpreter.accel clean)"
    return name
