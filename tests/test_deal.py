"""The deal effect: dealt as slices of the source when nothing is told card by card (no
events, no knowledge kept, no trigger on the zone dealt to), it leaves every zone as the deal
one card at a time does (the path taken when a game is recorded)."""
from __future__ import annotations

import pytest

from helpers import load_text

DEAL = """
game: dealing
players: {min: 2, max: 4}
components:
  cards:
    attributes: {suit: [A, B, C], rank: 1..7}
zones:
  deck: {owner: none, visible: none, start: [cards]}
  hand: {owner: player, visible: owner}
  pile: {owner: team, visible: all}
  spare: {owner: player, visible: owner}
setup:
  - shuffle: deck
  - deal: %s
flow:
  - choose: {who: 0, options: "hand[0] + hand[1]", as: picked}
vars:
  picked: card
scoring:
  categories: {cards: "count(hand)"}
"""


@pytest.mark.parametrize("deal", [
    "{from: deck, to: hand, count: 3}",
    "{from: deck, to: hand, count: 0}",
    "{from: deck, to: hand, count: -2}",
    "{from: deck, to: hand, count: 9}",                               # the deck runs out mid-round
    "{from: deck, to: hand, count: 2, start: 1}",
    "{from: deck, to: hand, count: 2, players: '[1, 0, 1]'}",        # a seat twice: one card at a time
    "{from: deck, to: hand, count: 2, players: '[1]'}",
    "{from: deck, to: pile, count: 4}",                               # a zone per team
])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_deal_by_slices_leaves_the_zones_as_a_deal_card_by_card(tmp_path, deal, players):
    rules = load_text(tmp_path, DEAL % deal, "deal.yaml")
    for seed in range(3):
        fast = rules.new_game(players, seed=seed)
        told = rules.new_game(players, seed=seed, record=True)   # events: one card at a time
        assert fast.z == told.z
        assert sum(map(len, fast.z["hand"])) + sum(map(len, fast.z["pile"])) + len(fast.z["deck"]) == 21


BOUNCED = """
game: bounced
players: {min: 2, max: 2}
components:
  cards:
    attributes: {v: 1..6}
    label: "c{v}"
zones:
  deck: {owner: none, visible: none, start: [cards]}
  hand: {owner: player, visible: owner}
  aside: {owner: none, visible: all}
triggers:
  back_out:                  # a card dealt into a hand leaves it again at once
    on_enter: hand
    if: "card.v == 6"
    do:
      - move: {from: hand, to: aside, cards: "[card]"}
setup:
  - deal: {from: deck, to: hand, count: 3}
flow:
  - choose: {who: 0, options: "[1, 2]", as: x}
vars:
  x: int
scoring:
  categories: {cards: "count(hand)"}
"""


def test_a_card_dealt_is_told_before_what_its_zones_triggers_do_with_it(tmp_path):
    rules = load_text(tmp_path, BOUNCED, "bounced.yaml")
    S = rules.new_game(2, 0, record=True, knowledge=True)
    events = S.ev
    dealt = [k for k, ev in enumerate(events) if ev["ev"] == "deal" and 5 in ev["cards"]]   # (c6 is card 5)
    moved = [k for k, ev in enumerate(events) if ev["ev"] == "move" and ev.get("to") == "aside"]
    assert dealt and moved and dealt[0] < moved[0]      # in, then out: never out before in
    assert 5 in S.z["aside"] and all(5 not in h for h in S.z["hand"])
    assert sorted(c for ev in events if ev["ev"] == "deal" for c in ev["cards"]) == sorted(
        [c for h in S.z["hand"] for c in h] + S.z["aside"])   # every card dealt told once
    # what each seat knows of c6 is where the trigger put it (public), not the hand it passed through
    assert S.kn.get(5) in (None, 0b11), S.kn.get(5)


@pytest.mark.parametrize("players,local,sliced", [
    ("players", False, True),           # every seat in order: dealt as slices when nothing is told
    ("'players'", False, False),        # (a text, not the constant: no seat, a located error at run)
    ("players", True, False),           # a local named players shadows the constant
    ("[0, 1]", False, False),
])
def test_a_deal_to_every_seat_is_read_from_the_expression_not_its_code(tmp_path, players, local, sliced):
    from interpreter.mechanics.cards import _every_seat
    assert _every_seat(players, {"players": "list<player>"} if local else {}) == sliced
