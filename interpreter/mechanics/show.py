"""The ``show`` effect: cards made known to one seat only, where they lie.

``show: {cards: LIST, to: PLAYER}`` (a look at another player's hand) changes no zone. The
seat it names knows those cards while they stay where they are: its observation lists them
under ``known`` (engine/observation.py), a determinization for it keeps them in place, and the
log's ``show`` event names them to that seat and to the seats that see their zone, a count to
the others (engine/sight.py ``moved_seers``). What a seat knows is the game's knowledge table
(engine/knowledge.py, ``S.kn``), which every move of cards keeps: a shown card that moves to
a zone the seat does not see is no longer known to it. A ruleset with a ``show`` keeps that
table in every game (``Ruleset.shows``); a search playout, which keeps none, shows nothing.
"""
from __future__ import annotations

from ..engine.knowledge import tell
from ..engine.sight import place_of
from ..expr.types import CARD, PLAYER, TEAM, list_of
from .base import effect_kind
from .contract import Key


def show(S, me, to, cards) -> None:
    """Cards ``cards`` shown to seat ``to`` (none: nobody; checked as a seat by the generated
    call) by ``me``: its knowledge, the events."""
    if to is None:
        return
    cards = list(dict.fromkeys(cards))
    tell(S, cards, 1 << to)
    if S.ev is not None:
        places: dict = {}   # (zone, owner) -> the cards shown there (none held aside by a step)
        for c in cards:
            place = place_of(S, c)
            if place is not None:
                places.setdefault(place, []).append(c)
        for (zone, owner), shown in places.items():
            where = {"from": zone} if owner is None else {"from": zone, "from_owner": owner}
            S.ev.append({"ev": "show", "who": me, "shown_to": to, **where, "cards": shown})


@effect_kind("show", "make cards known to one seat only, where they lie (a look at another player's hand)",
             keys=(Key("cards", "expression: list of cards", "the cards shown", required=True),
                   Key("to", "expression: player", "the one seat they are shown to (none: nobody)", required=True)))
def e_show(fx, em, spec, path, locals, has_me):
    cards, typ = fx.expr(spec["cards"], (*path, "cards"), locals, has_me, list_of(CARD))
    to, who = fx.expr(spec["to"], (*path, "to"), locals, has_me, PLAYER)
    if who == TEAM:
        fx.ctx.error("show is for one seat: to: a player, not a team (show each member in a for_each)",
                     (*path, "to"), "type")
    fx.ctx.shows = True
    fx.ctx.names.namespace["_show"] = show
    em.line(f"_show(S, {'me' if has_me else 'None'}, _seat(S, {to}), {cards})")
