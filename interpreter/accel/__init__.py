"""The optional compiled tier: the engine's hot modules built as C extension modules in place
(``python -m interpreter.accel build``), beside the pure-Python ones they replace.

Python imports an extension module before a ``.py`` of the same name, so a built module is the
one loaded, and deleting it (``python -m interpreter.accel clean``) gives the pure tier back.
The pure-Python engine stays the reference: the compiled one is the same source, compiled.
"""
from __future__ import annotations

import importlib
import importlib.machinery
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent   # interpreter/

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


def built(module: str) -> list[Path]:
    """The extension files built for ``module`` beside its source (none in the pure tier)."""
    src = source_of(module)
    return [p for p in src.parent.glob(src.stem + ".*")
            if any(p.name == src.stem + suffix for suffix in importlib.machinery.EXTENSION_SUFFIXES)]


def loaded() -> dict[str, bool]:
    """Each of MODULES -> whether the module this process runs is a compiled extension."""
    out = {}
    for module in MODULES:
        found = importlib.import_module(f"{__package__.rsplit('.', 1)[0]}.{module}")
        out[module] = isinstance(getattr(found, "__loader__", None), importlib.machinery.ExtensionFileLoader)
    return out


def stale() -> list[str]:
    """The modules whose source changed after they were built: the built module still runs
    (Python loads it first), so an edit does not take effect until the next build."""
    return [m for m in MODULES for p in built(m) if p.stat().st_mtime < source_of(m).stat().st_mtime]


def tier() -> str:
    """"compiled" when every module of the tier runs compiled, "pure" when none does, else
    "partly compiled (N of M)" (a build that stopped half-way, or a module left out); with a
    warning when a built module is older than its source."""
    flags = loaded()
    if all(flags.values()):
        name = "compiled"
    elif not any(flags.values()):
        return "pure"
    else:
        name = f"partly compiled ({sum(flags.values())} of {len(flags)} modules)"
    old = stale()
    return name + (f", stale: {', '.join(old)} changed since the build (python -m interpreter.accel build)"
                   if old else "")
