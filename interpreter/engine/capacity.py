"""A zone's capacity (``max:`` on a zone): the most cards one instance of it may hold.

``max:`` is a whole number, or an expression of what is fixed before a game starts (the
parameters, ``num_players``: building/capped.py refuses one that reads the state), evaluated
once for each game's values as it starts (``starts``: ``Ruleset.zone_max``, zone -> its compiled
value ``f(S, None, None)``, called; the values kept in the state, ``S.cap``: zone -> its max,
shared by the games of the same start and by clones, never written). It is enforced in three
places, each defined here once:

- while a game runs: every writer that puts cards into a zone (a move, deal, gather, pick, pass,
  a trick played or collected) checks the zone it filled, in the generated code ``guard`` writes
  (no line at all for a zone without ``max:``), or ``check`` in a step's own Python; a zone over
  its max stops the game with a runtime error naming the zone (located at the step or effect);
- when a game starts (``starts``): a max that is not a whole number of 0 or more, or a shared
  zone whose ``start:`` cards are more than its max, refuses the game, located at the ``max:``
  (a literal max under the start's cards is an error at load already);
- when a state is loaded (its maxes a new game's of its values: engine/saved.py) or patched
  (``overfull``): a zone holding more is refused.
"""
from __future__ import annotations

from ..errors import Refused
from ..expr.messages import describe
from ..expr.names import state_read
from ..expr.runtime import RUNTIME_ERRORS, ExprRuntimeError


def most(S, zone: str) -> int:
    """The most cards an instance of ``zone`` may hold in the game of ``S``."""
    return S.cap[zone]


def named(S, zone: str, owner) -> str:
    """The zone as an expression names it: ``pile``, ``hand[1]``, ``under[c7]``."""
    if owner is None:
        return zone
    if S.rules.zone_owner.get(zone) == "card":
        return f"{zone}[{S.rules.card_labels[owner]}]"
    return f"{zone}[{owner}]"


def over(S, zone: str, cards: list) -> None:
    """Stop the game: ``cards``, the list of an instance of ``zone``, holds more than its max (the
    generated guard's error, located at the step or effect that filled it). The instance is
    found by identity: its owner's expression, evaluated again, may read what the move changed."""
    table, owner = S.zone(zone), None
    if table is not cards:
        owner = next((k for k, part in (table.items() if isinstance(table, dict) else enumerate(table))
                      if part is cards), None)
    raise ExprRuntimeError(f"zone {named(S, zone, owner)} would hold {len(cards)} cards, more than its max: "
                           f"{most(S, zone)}", f"zone {zone} over its max")


def check(S, zone: str, cards: list) -> None:
    """``over`` when ``cards`` (an instance of ``zone``) holds more than its max (a step's Python,
    after it puts cards in)."""
    if len(cards) > most(S, zone):
        over(S, zone, cards)


def guard(cap, zone: str, held: str, pad: str = "", g=None) -> list:
    """Lines of generated code checking the list ``held`` (source) of ``zone`` against its max,
    ``cap`` (the builder's ``zone_max``: its number, written in; an expression's text: its
    value in the game, ``S.cap``, read; None: no max, and no line at all). ``g``: the
    FlowWriter of a step's own code, which names ``over`` there (an effect's code: ``_full``)."""
    if cap is None:
        return []
    full = "_full" if g is None else g.fn(over)
    limit = str(cap) if type(cap) is int else f"{state_read('cap')}[{zone!r}]"
    return [f"{pad}if len({held}) > {limit}: {full}(S, {zone!r}, {held})"]


def starts(rules, seats) -> dict:
    """Each zone's max in a game of ``seats`` (engine/requires.py ``Seats``): zone -> its value,
    what the game keeps (``S.cap``). Refused: a game whose zones' maxes are
    not whole numbers of 0 or more, or whose shared zone starts with more cards than its max."""
    out = {}
    for zone, fn in rules.zone_max.items():
        loc = rules.zone_max_locs.get(zone)
        try:
            cap = fn(seats, None, None)
        except RUNTIME_ERRORS as e:
            raise Refused(f"zone '{zone}': its max could not be evaluated: {describe(e)}", loc, "capacity") from None
        if type(cap) is not int or cap < 0:
            raise Refused(f"zone '{zone}': its max is {'none' if cap is None else repr(cap)}, not a whole number of 0 "
                          "or more", loc, "capacity")
        if rules.zone_owner[zone] == "none":
            started = sum(len(rules.cards.by_component[c]) for c in (rules.zone_decl[zone] or {}).get("start") or ())
            if started > cap:
                raise Refused(f"zone '{zone}' starts with {started} cards, more than its max: {cap}", loc, "capacity")
        out[zone] = cap
    return out


def overfull(S) -> str | None:
    """What a state (loaded, patched) holds beyond a zone's max: "zones.hand[1]: ...", or None."""
    for zone in S.rules.zone_max:
        cap, table = most(S, zone), S.zone(zone)
        parts = [(None, table)] if isinstance(table, list) and S.rules.zone_owner[zone] == "none" else \
            table.items() if isinstance(table, dict) else enumerate(table)
        for owner, cards in parts:
            if len(cards) > cap:
                return (f"zones.{named(S, zone, owner)}: {len(cards)} cards, more than the zone's max "
                        f"({cap})")
    return None
