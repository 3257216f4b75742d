"""The generated code named by the rules it comes from: each function's code, and the traceback
entry of an effect written in place, carry its rule's YAML line as their file name
(``<my_game.yaml:163>``), so that a traceback or a profile says which line of the ruleset runs,
as Jinja2 maps a template's generated lines back to the template."""
from __future__ import annotations

import linecache
import sys
from typing import Any

from ..engine.effectlines import MODULE
from ..loading.kept import compiled


def rule_name(loc) -> str:
    """The file name code of a rule at ``loc`` carries (``<my_game.yaml:163>``)."""
    return f"<{str(loc.path).rsplit('/', 1)[-1]}:{loc.line}>"


def relocated(e: Any, step, fn) -> None:   # (e: an exception, given the attribute located() reads)
    """At an error in an effect list written in place in a step's function (FlowSource.effects):
    locate it at ``step`` unless an inner rule did, as a call's handler does, and give the
    traceback's entry for the step's function the name of the effect's rule (its frame's code
    as ``by_rule`` names a function's, at the same generated line): a traceback names the YAML
    line of the rule that raised, as it did when the effect was a function called."""
    if getattr(e, "rulebook_step", None) is None:
        e.rulebook_step = step   # (what engine.loop.located reads)
    tb, loc = e.__traceback__, getattr(fn, "loc", None)
    if tb is None or loc is None:
        return
    code = compiled("\n" * (tb.tb_lineno - 1) + "raise _e", rule_name(loc), "exec")
    try:   # (a frame of that name raising at that line: the one way to make a traceback's entry)
        # (its globals name the module's: the entry stands for a line of it, engine/effectlines.py)
        exec(code.replace(co_name=tb.tb_frame.f_code.co_name), {"_e": e, MODULE: tb.tb_frame.f_globals})  # noqa: S102 - a fixed raise
    except BaseException:
        here = sys.exc_info()[2]   # (this frame's entry, then the one made, then the old ones)
        named = here.tb_next if here is not None else None
        if named is not None:
            named.tb_next = tb.tb_next   # (in place of the step function's entry)
            e.__traceback__ = named


def by_rule(fn, loc, source: str | None = None, lines: list | None = None):
    """Name ``fn``'s code by the rule it comes from (``<my_game.yaml:163>``), so that a profile or
    a traceback says which line of the ruleset is running, not which piece of generated text;
    ``source``: the text it was compiled from, shown by tracebacks (``lines``: its lines, split
    once for the many functions of one module). Returns ``fn``."""
    if loc is not None and hasattr(fn, "__code__"):
        name = rule_name(loc)
        if source is not None:   # (the same text under every name: linecache holds a reference)
            linecache.cache[name] = (len(source), None, lines or source.splitlines(True), name)
        fn.__code__ = _renamed(fn.__code__, name)
    return fn


def _renamed(code, name: str):
    """``code`` and the code it holds (a comprehension's, a lambda's) under the file name ``name``."""
    consts = tuple(_renamed(c, name) if hasattr(c, "co_filename") else c for c in code.co_consts)
    return code.replace(co_filename=name, co_consts=consts)
