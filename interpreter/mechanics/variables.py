"""Variable effects: set variables (and counters) to values, or a variable to a random element
of a list (chance).

    - set: {trump: "card.suit", round: "round + 1"}
    - set: {coins: 0, "score[leader]": "score[leader] * 2"}   # counters: NAME, NAME[owner], owner.NAME
    - random: {var: first_player, from: players}
"""
from __future__ import annotations

from ..engine.values import as_declared
from ..expr.runtime import list_bound, stored_source
from ..expr.types import ANY, INT, NONE, can_grow, elem, fits, holds_growing, is_list, joined, unproven, walked
from ..expr.names import var_ref, var_write
from ..expr.nesting import in_all
from ..expr.walks import CHECK_WORK
from .base import effect_kind
from .contract import Key
from .cards import declared, owner_key
from .counters import may_be_fraction, whole


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
        given = fx.ctx.expr(text, (*path, var), locals, has_me)
        src, typ, want = given.source, given.type, fx.ctx.names.vars[var]
        if not fits(typ, want):
            fx.ctx.error(f"variable '{var}' is declared {want}, got {typ}", (*path, var), "type")
        kept = walked(typ, given.proven)   # (made of a value of type any: walked, whatever its static type)
        bounded = stored_source(src, holds_growing(kept)) if can_grow(kept) else src
        em.line(var_write(var, stored(fx, var, bounded, given.proven, given.elements[:2])))
        fx.access.write("v", var)
        fx.event(em, f"{{'ev': 'set', 'var': {var!r}, 'value': {var_ref(var)}}}")


def checked(ctx, var: str, typ: str) -> bool:
    """Whether a value proven of type ``typ`` (expr/nesting.py ``proven``: its static type, or
    what a join with ``[]`` proves) stored in variable ``var`` is checked against the variable's
    declared type where it is stored (``typed``): where the load does not prove it of that type
    (expr/types.py ``unproven``: a value of type any, a list of any where a list of int is declared).
    A variable of type any stores it unchecked, and notes its type (``ctx.any_stored``: the types
    it was stored so join): a later ``as:`` may not narrow the variable to a type it is not proven
    of then (building/declarations.py ``declare_var``)."""
    want = ctx.names.vars.get(var, ANY)   # (a name refused: no variable, nothing to check)
    if want == ANY and var in ctx.names.vars:
        ctx.any_stored[var] = joined([ctx.any_stored.get(var, NONE), typ])
    return unproven(typ, want)


def typed(var: str, src: str) -> str:
    """The source of value ``src`` checked as variable ``var``'s (``checked``): itself, or the runtime
    error of a value not of its declared type, located where it is stored (engine/values.py
    ``as_declared``, which the code that writes it puts in its namespace as ``_typed``)."""
    return f"_typed(S, {var!r}, {src})"


def stored(fx, var: str, src: str, typ: str, lengths: tuple) -> str:
    """``src``, a value proven of type ``typ`` an effect stores in variable ``var``, checked where
    ``checked`` says: the check counted in the work of the effect (``charge_check``, of a list
    of ``lengths``)."""
    if not checked(fx.ctx, var, typ):
        return src
    charge_check(fx.ctx, fx.ctx.names.vars[var], lengths)
    fx.ctx.names.namespace["_typed"] = as_declared
    return typed(var, src)


def charge_check(ctx, want: str, lengths: tuple) -> None:
    """Count in the work of what is being compiled the check of a value against type ``want``
    (engine/values.py ``check_value``): for a list type, each element it may walk
    (``walks.CHECK_WORK``), as deep as the type goes, of a list of at most ``lengths[0]``
    elements, any list in it ``lengths[1]`` (``nesting.in_all``: what a list variable may hold
    where it does not say); a scalar's is a test, nothing to count."""
    if is_list(want):
        bound = list_bound(ctx.names.max_list)
        ctx.compiler.spent += min(bound, in_all(lengths[0], lengths[1], want) or bound) * CHECK_WORK


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
    given = fx.ctx.expr(text, path, locals, has_me, INT)
    may_be_fraction(fx.ctx, given, path, "value")   # (a fraction: an error at load)
    em.line(f"{dst} = {whole(fx, name, stored_source(given.source), given.proven, written=True)}")
    fx.event(em, f"{{'ev': 'set_counter', 'counter': {name!r}, {owner_key('', owner)}'who': me, 'value': {dst}}}")


@effect_kind("random", "set a variable to a random element of a list (chance)",
             keys=(Key("var", "variable name", "the variable set", required=True),
                   Key("from", "expression: list", "the elements, one drawn at random (none: empty)", required=True)), seat_noted=True)
def e_random(fx, em, spec, path, locals, has_me):
    var = declared(fx, spec["var"], (*path, "var"), "variable", fx.ctx.names.vars)
    if var is None:
        return
    given = fx.ctx.expr(spec["from"], (*path, "from"), locals, has_me, "list")
    src, typ = given.source, given.type
    if not fits(elem(typ), fx.ctx.names.vars[var]):
        fx.ctx.error(f"variable '{var}' is declared {fx.ctx.names.vars[var]}, got an element of {typ}",
                     (*path, "from"), "type")
    t = em.fresh()
    em.line(f"{t} = {src}")
    drawn = f"{t}[_below(S, len({t}))]"
    kept = walked(elem(typ), elem(given.proven))
    if can_grow(kept):   # (checked and copied as set stores a value: a list of lists its own copy)
        drawn = stored_source(drawn, holds_growing(kept))
    drawn = stored(fx, var, drawn, elem(given.proven), given.elements[1:2] * 2)   # (an element: checked as set checks it)
    em.line(var_write(var, f"{drawn} if {t} else None"))
    fx.access.write("v", var)
    fx.event(em, f"{{'ev': 'random', 'var': {var!r}, 'value': {var_ref(var)}}}")
