"""Tracks: a piece moving along numbered spaces, as a counter with a last space, optionally
stacking with other pieces on the same space.

    - advance: {counter: level, by: 2, max: 4}                 # a step past the last space is lost
    - advance: {counter: pos, by: 1, max: 10, stack: height}   # pieces stack: the one moved lies on top

``advance`` adds ``by`` (never below the current space) and stops at ``max``. With
``stack:``, a counter of the same owners records the stacking order: a piece that moves
gets a height above every other piece (1 + the highest), so on a shared space the higher
height is on top; order players by ``pos * BIG + height`` (``turns: {sort_by: ...}``).
What a space gives is data: a parameter list indexed by the counter
(``params.bonus[level]``). The event records the spaces actually moved.
"""
from __future__ import annotations

from .base import effect_kind
from .contract import Key
from .counters import amount_of, bounded
from .cards import owner_key
from ..expr.names import counter_ref


BY = Key("by", "expression: int", "spaces to move (never backwards)", default=1)
LAST = Key("max", "expression: int", "the last space")


@effect_kind("advance", "move a piece along a track: add to a counter up to a last space; optionally stack",
             keys=(Key("counter", "counter", "the piece's position", required=True),
                   BY, LAST,
                   Key("stack", "counter", "the order of arrival on a space (same owners as counter)")), seat_noted=True)
def e_advance(fx, em, spec, path, locals, has_me):
    dst, name, owner = fx.target_owner(spec["counter"], (*path, "counter"), locals, has_me, "counter", em=em)
    by = amount_of(fx, spec, path, locals, has_me, name, BY, "by:")   # (whole numbers, as the counter holds)
    old, new = em.fresh("_o"), em.fresh("_n")
    em.line(f"{old} = {dst}")
    top = amount_of(fx, spec, path, locals, has_me, name, LAST, "max:") if "max" in spec else None
    # (the new space held to 64 bits, as a gain's value is, with max: too: a by: and a max: of
    # 2^64 moved the piece there; never below its old space)
    bounded(em, dst, f"{old} + max(0, {by})" if top is None else f"max({old}, min({old} + max(0, {by}), {top}))", name=new)
    if "stack" in spec:
        sname = spec["stack"]
        counters = fx.ctx.names.counters
        if not fx.ctx.known("counter", sname, counters, (*path, "stack")):
            return
        fx.ctx.compiler.used.add(sname)
        if name is not None and counters.get(sname) != counters.get(name):
            fx.ctx.error(f"stack counter '{sname}' must have the same owners as '{name}'", (*path, "stack"), "type")
            return
        if counters[sname] == "none" or owner is None:
            fx.ctx.error("stack: needs counters owned by each player or team", (*path, "stack"), "type")
            return
        key, by_team = owner
        em.line(f"if {new} != {old}:")
        em.depth += 1
        bounded(em, f"{fx.writable(sname, False)}[{key}]", f"1 + max({counter_ref(sname)})")
        em.depth -= 1
    fx.event(em, f"{{'ev': 'advance', 'counter': {name!r}, {owner_key('', owner)}'who': me, 'from': {old}, "
                 f"'to': {new}}}")
