"""Variable effects: set variables to values, or to a random element of a list (chance).

    - set: {trump: "card.suit", round: "round + 1"}
    - random: {var: first_player, from: players}
"""
from __future__ import annotations

from ..expr.runtime import stored_source
from ..expr.types import can_grow, fits
from .base import effect_kind


@effect_kind("set", "set variables to the values of expressions")
def e_set(fx, em, spec, path, locals, has_me):
    if not isinstance(spec, dict) or not spec:
        fx.ctx.error("set takes a mapping of variable: expression", path, "effect")
        return
    for var, text in spec.items():
        fx.ctx.compiler.used.add(var)
        if var not in fx.ctx.names.vars:
            fx.ctx.unknown("variable", var, fx.ctx.names.vars, (*path, var), key=True)
            continue
        src, typ = fx.expr(text, (*path, var), locals, has_me)
        want = fx.ctx.names.vars[var]
        if not fits(typ, want):
            fx.ctx.error(f"variable '{var}' is declared {want}, got {typ}", (*path, var), "type")
        em.line(f"S.v[{var!r}] = {stored_source(src) if can_grow(typ) else src}")
        fx.event(em, f"{{'ev': 'set', 'var': {var!r}, 'value': S.v[{var!r}]}}")


@effect_kind("random", "set a variable to a random element of a list (chance)")
def e_random(fx, em, spec, path, locals, has_me):
    spec = fx._spec(spec, path, ("var", "from"))
    if spec is None:
        return
    var = fx.name(spec["var"], (*path, "var"), "variable name")
    if var is None:
        return
    fx.ctx.compiler.used.add(var)
    if var not in fx.ctx.names.vars:
        fx.ctx.unknown("variable", var, fx.ctx.names.vars, (*path, "var"))
        return
    src, typ = fx.expr(spec["from"], (*path, "from"), locals, has_me, "list")
    t = em.fresh()
    em.line(f"{t} = {src}")
    em.line(f"S.v[{var!r}] = {t}[_below(S, len({t}))] if {t} else None")
    fx.event(em, f"{{'ev': 'random', 'var': {var!r}, 'value': S.v[{var!r}]}}")
