"""Variable effects: set variables (and counters) to values, or a variable to a random element
of a list (chance).

    - set: {trump: "card.suit", round: "round + 1"}
    - set: {coins: 0, "score[leader]": "score[leader] * 2"}   # counters: NAME, NAME[owner], owner.NAME
    - random: {var: first_player, from: players}
"""
from __future__ import annotations

from ..expr.runtime import stored_source
from ..expr.types import INT, can_grow, elem, fits, holds_growing
from ..expr.names import var_ref, var_write
from .base import effect_kind
from .contract import Key
from .cards import declared, owner_key


@effect_kind("set", "set variables to the values of expressions", seat_noted=True)
def e_set(fx, em, spec, path, locals, has_me):
    if not isinstance(spec, dict) or not spec:
        fx.ctx.error("set takes a mapping of variable: expression", path, "effect")
        return
    for var, text in spec.items():
        if var not in fx.ctx.names.vars and _names_counter(fx, var):
            _set_counter(fx, em, var, text, (*path, var), locals, has_me)
            continue
        fx.ctx.compiler.used.add(var)
        if var not in fx.ctx.names.vars:
            fx.ctx.unknown("variable or counter", var, [*fx.ctx.names.vars, *fx.ctx.names.counters], (*path, var),
                           key=True)
            continue
        src, typ = fx.expr(text, (*path, var), locals, has_me)
        want = fx.ctx.names.vars[var]
        if not fits(typ, want):
            fx.ctx.error(f"variable '{var}' is declared {want}, got {typ}", (*path, var), "type")
        em.line(var_write(var, stored_source(src, holds_growing(typ)) if can_grow(typ) else src))
        fx.access.write("v", var)
        fx.event(em, f"{{'ev': 'set', 'var': {var!r}, 'value': {var_ref(var)}}}")


def _names_counter(fx, key) -> bool:
    """Whether a key of set: names a counter: NAME, NAME[owner] or owner.NAME."""
    head = str(key).split("[", 1)[0]
    known = fx.ctx.names.counters.keys() | fx.ctx.names.keyed.keys()   # (a family: tokens[k])
    return head in known or head.rsplit(".", 1)[-1] in known


def _set_counter(fx, em, key, text, path, locals, has_me):
    """``set: {coins: 0}``: a counter to a value (a whole number), logged as a set_counter event."""
    dst, name, owner = fx.target_owner(key, path, locals, has_me, "counter", any_owner=True, em=em)
    if name is None:
        return
    src, _ = fx.expr(text, path, locals, has_me, INT)
    em.line(f"{dst} = {stored_source(src)}")
    fx.event(em, f"{{'ev': 'set_counter', 'counter': {name!r}, {owner_key('', owner)}'who': me, 'value': {dst}}}")


@effect_kind("random", "set a variable to a random element of a list (chance)",
             keys=(Key("var", "variable name", "the variable set", required=True),
                   Key("from", "expression: list", "the elements, one drawn at random (none: empty)", required=True)), seat_noted=True)
def e_random(fx, em, spec, path, locals, has_me):
    var = declared(fx, spec["var"], (*path, "var"), "variable", fx.ctx.names.vars)
    if var is None:
        return
    src, typ = fx.expr(spec["from"], (*path, "from"), locals, has_me, "list")
    if not fits(elem(typ), fx.ctx.names.vars[var]):
        fx.ctx.error(f"variable '{var}' is declared {fx.ctx.names.vars[var]}, got an element of {typ}",
                     (*path, "from"), "type")
    t = em.fresh()
    em.line(f"{t} = {src}")
    drawn = f"{t}[_below(S, len({t}))]"
    if can_grow(elem(typ)):   # (checked and copied as set stores a value: a list of lists its own copy)
        drawn = stored_source(drawn, holds_growing(elem(typ)))
    em.line(var_write(var, f"{drawn} if {t} else None"))
    fx.access.write("v", var)
    fx.event(em, f"{{'ev': 'random', 'var': {var!r}, 'value': {var_ref(var)}}}")
