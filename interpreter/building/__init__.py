"""Stage 5, build: checked ruleset data -> a compiled, frozen Ruleset.

builder.py assembles the Ruleset and is the context every mechanic compiles against;
declarations.py checks the declared names; components.py builds the card table; effects.py
compiles effect lists; watch.py finds the effects that need no checks after them; seats.py
builds the steps run as a seat a variable holds (a branch's as:);
analysis.py checks the flow statically. Imports every stage below it.

``load(path, variant)`` is the whole pipeline up to here: the file (or a bundled ruleset's
name) is read with positions, checked against the schema, merged with its ``extends:`` base
and its variant, then every name is resolved and every expression, effect and step compiled.
"""
from __future__ import annotations

import os
from os import PathLike

from ..errors import UsageError
from ..loading.variants import load_data
from ..loading.resources import find_ruleset


def load(path, variant: str | None = None, coverage: bool = False, compiled: bool | None = None):
    """Load, check and compile a ruleset: a path, or the name of a bundled ruleset
    (``load("NAME")`` for a bundled ruleset), optionally with a variant (a name under ``variants:`` or a file).
    ``coverage``: compile coverage counters in (``rules.probes``, building/coverage.py).
    ``compiled``: run the flow from the ruleset's module compiled to C and cached (accel/rulesets.py;
    a first compile takes 4.5 to 8.5 s of CPU for a seed ruleset, docs/performance.md); None: when
    the environment has ``RULEBOOK_COMPILED=1``."""
    from .record import built   # (the mechanics register themselves when the builder loads)
    if not isinstance(path, (str, PathLike)) or not str(path).strip():
        raise UsageError(f"a ruleset is a file's path or a bundled ruleset's name, not {path!r}")
    if variant is not None and (not isinstance(variant, (str, PathLike)) or not str(variant).strip()):
        raise UsageError(f"a variant is the name of one under variants: or a file's path, not {variant!r}")
    loaded = load_data(find_ruleset(path), variant)
    rules = built(loaded, coverage).freeze()   # (with the zones it records: building/record.py)
    if compiled or (compiled is None and not coverage and os.environ.get("RULEBOOK_COMPILED") == "1"):
        from ..accel.rulesets import use_compiled
        # (when it cannot, the reason is shown once and the Python flow runs)
        use_compiled(rules, lambda: written_for_c(loaded, coverage))
    return rules


def written_for_c(loaded, coverage: bool = False) -> str:
    """The module of the ruleset ``loaded`` as the compiled tier compiles it: built again, its
    code written in the dialect whose reads of a state's slots compile to reads at their offsets
    (expr/cdialect.py C_SLOTS); the same functions at the same lines as the module that runs."""
    import builtins
    from ..expr.cdialect import C_SLOTS, dialect, dialect_helpers
    from .record import built
    with dialect(C_SLOTS):
        # the dialect's reads as Python, for code that runs while the ruleset is built: as the
        # namespace's builtins, which every exec gives it anyway (its own names are numbered
        # by their count: the module's text must not change but for the reads)
        return built(loaded, coverage, lambda builder: builder.names.namespace.update(
            __builtins__={**vars(builtins), **dialect_helpers()})).module_source
