"""The ruleset's module: each step's run and resolve written by its kind's generator
(building/flowgen.py ``FlowSource``), the game loop and a decision taken, assembled into one
module (building/listing.py), compiled and executed once; or, ``plain``, the reference the
lockstep tests compare it with."""
from __future__ import annotations

import linecache

from ..engine import loop
from ..engine.effectlines import EffectLines
from ..errors import tag_origin
from ..expr.runtime import RUNTIME_ERRORS
from ..loading.kept import compiled
from ..mechanics.base import Step
from .decision import apply_index_source
from .flowgen import FlowSource, unmarked
from .gameloop import advance_source, asks_again, loop_lines
from .listing import graft, module
from .rulelines import by_rule, relocated


def compile_flow(rules, plain: bool = False, names: bool = False, lists=None) -> tuple:
    """(the run and the resolve function of each step, by index; the game loop
    ``advance(S, changed=True)``; a decision taken, ``apply_index(S, i)``; the generated source of the flow; the text executed: the
    ruleset's whole module, listing.py, or the plain flow alone). ``plain``: the reference (FlowSource):
    each step kind's generator with its specialisations off, or the step's own ``run`` and
    ``resolve`` methods for a kind that still has them, and the loop with every branch kept.
    ``names``: one more item, what the source calls each F<n> and K<n> (building/listing.py).
    ``lists``: the ruleset's compiled effect lists, whose lines locate a runtime error in a
    declared effect with those of the module's effects written in place (``rules.effect_lines``)."""
    g = FlowSource(rules.steps, rules.max_steps, rules.auto_forced, plain, len(rules.card_labels))
    g.rules = rules
    sources = []
    for step in rules.steps:
        src = step.flow_source(g) if not plain or _generated_only(step, "run") else None
        if src is None:
            g.ns[f"R{step.index}"] = step.run
        else:
            sources.append(src)
        if "resolve" in step.__dict__ or (plain and not _generated_only(step, "resolve")):
            src = None   # (coverage wraps resolve)
        else:
            src = step.resolve_source(g)
        if src is None:
            g.ns[f"Q{step.index}"] = step.resolve
        else:
            if g.runs_on and getattr(step, "asks_again", False) and "enter" not in step.__dict__:
                src += "\n" + asks_again(rules, step)
            sources.append(src)
    sources += [advance_source(rules, g, plain), apply_index_source(loop_lines(rules, g, plain))]
    g.ns.update(_located=loop.located, _over_budget=loop.over_budget, _forced=loop.forced, _relocated=relocated,
                _RUNTIME_ERRORS=RUNTIME_ERRORS, _tag_origin=tag_origin, _rules=rules, _checked_index=loop.checked_index)
    # (the effect lists written in place: where each one's heading is, from the flow's first line)
    source, marks = unmarked("\n\n".join(sources) + "\n")
    text, functions, first = (source, {}, 1) if plain else module(rules, g.named(), source)
    filename = f"<{'flow' if plain else 'module'} {rules.name}{' ' + rules.variant if rules.variant else ''}>"
    # tracebacks and profilers show the generated lines (as Jinja2 does for its templates)
    lines = text.splitlines(True)
    linecache.cache[filename] = (len(text), None, lines, filename)
    exec(compiled(text, filename, "exec"), g.ns)  # noqa: S102 - generated from the checked rules
    if not plain:   # each function named by its rule's line (a profile then says which runs)
        if lists is not None:   # (the builder's compile; a listing's of a built ruleset leaves its own)
            rules.effect_lines = EffectLines(tuple(lists), g.ns, tuple((first + line, g.written[k]) for line, k in marks),
                                             frozenset(map(id, functions.values())))
        graft(functions, g.ns, lambda fn, loc: by_rule(fn, loc, text, lines))
        for step in rules.steps:
            for prefix in ("R", "Q", "W"):
                code = getattr(g.ns.get(f"{prefix}{step.index}"), "__code__", None)
                if code is not None and code.co_filename == filename:   # (generated here, not a method)
                    by_rule(g.ns[f"{prefix}{step.index}"], step.loc, text, lines)
    runs = g.ns["RUNS"] = tuple(g.ns[f"R{s.index}"] for s in rules.steps)
    resolves = g.ns["RESOLVES"] = tuple(g.ns[f"Q{s.index}"] for s in rules.steps)
    out = (runs, resolves, g.ns["advance"], g.ns["apply_index"], source, text)
    return (*out, g.named()) if names else out


def _generated_only(step, method: str) -> bool:
    """Whether ``step``'s kind defines ``run`` (or ``resolve``) only by its generator: no method
    of its own to be the reference (the base class's raises)."""
    return getattr(type(step), method) is getattr(Step, method)
