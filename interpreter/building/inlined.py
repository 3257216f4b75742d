"""Declared effects written in place: where an effect list written in a step's function
(building/flowgen.py ``FlowSource.effects``) calls a declared effect (building/declared.py), the
effect's body is written there instead of the call, where it can be (``declared_in``), its
parameters bound to the call's arguments (``written_in``)."""
from __future__ import annotations

from ..expr.reuse import global_names

# The most statements of an effect list's or an expression's body written in place in a step's
# function (FlowSource.effects, assign); a longer one stays a function, called. 40, or no limit,
# ran the seed games in as many instructions, within the runs' noise, for modules up to 9%
# longer (docs/performance.md).
INLINE_LINES = 12
# Namespace entries replaced after the build (a scenario's rigged deal, coverage's counters):
# code reading one stays in the function that reads it from the namespace, never a copy.
LATE_BOUND = frozenset({"_shuffle", "_cov"})


def declared_in(g, fn) -> dict:
    """The declared effects that effect list ``fn``, written in place by ``g`` (FlowSource), has
    written where it calls them (name -> the effect's function; none in the plain reference):
    each called from one place in the ruleset or short (INLINE_LINES), binding no local of ``L``
    and no name ``fn`` binds (their locals as compiled apart), its globals put in the module's
    namespace."""
    out: dict = {}
    ours = {*fn.__code__.co_varnames, *fn.__code__.co_cellvars} - {"S", "me", "L"}   # (a comprehension's too)
    for name in () if g.plain else {name for _, _, name, _ in getattr(fn, "calls", ())}:
        effect = fn.__globals__.get(f"E_{name}")
        body, code = getattr(effect, "body", None), getattr(effect, "__code__", None)
        if body is None or code is None or getattr(effect, "binds_local", True) or not hasattr(effect, "access") \
                or len(getattr(effect, "sites", ())) != 1 and len(body[0]) > INLINE_LINES:
            continue
        theirs = {*code.co_varnames, *code.co_cellvars} - {"S", "me"}
        names = {k: effect.__globals__[k] for k in global_names(code) if k in effect.__globals__}
        if not ("L" in theirs or theirs & ours or LATE_BOUND & names.keys()) and g.bind(names):
            out[name] = effect
    return out


def written_in(effect, heading: str, pad: str, args: tuple, me: str | None) -> list:
    """Declared effect ``effect``'s body written where it is called (at ``pad``, under a comment
    saying where it comes from, ``heading``): its parameters bound to the arguments (``args``:
    (parameter, source) as written, evaluated in that order as the call's were), then its
    statements (``me``: the seat to bind in an event's branch)."""
    body = list(effect.body[0])
    for at, column in effect.events if me is not None and not effect.access.actor else ():
        body[at] = f"{body[at][:column]}me = {me}; {body[at][column:]}"
    return [f"{pad}# {heading}, written in place",
            *(f"{pad}{p} = {src}" for p, src in args), *(pad + line for line in body)]


def items_of(fn, at: int) -> tuple:
    """The effect items statement ``at`` of effect list ``fn``'s body comes from, the outermost
    first: ((its item's location, the declared effect it belongs to or None),); none for a
    statement of no item (or past the last)."""
    owners = getattr(fn, "owners", ())
    loc = owners[at] if at < len(owners) else None
    return () if loc is None else ((loc, getattr(fn, "effect", None)),)
