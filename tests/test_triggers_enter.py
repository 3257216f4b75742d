"""``on_enter`` triggers whose ``if:`` reads only the entering card are decided per card at load
(mechanics/triggers.py ``live``): a move, a deal or a pick of cards that fire none of them does
not call ``entered`` at all, and the games are the reference's."""
from __future__ import annotations

import sys

import pytest

from interpreter.accel import loaded
from test_flowgen import lockstep
from test_mechanics import load

ENTERING = """
triggers:
  fives:
    on_enter: pile
    if: "card.rank == 5"
    do: [{set: {x: "x + 1"}}]
  dealt_fives:
    on_enter: hand
    if: "card.rank == 5"
    do: [{set: {x: "x + 10"}}]
flow:
  - repeat: 3
    steps:
      - move: {from: deck, to: pile, count: 1}                    # an effect's move
      - deal: {from: deck, to: hand, count: 1}                    # a deal, card by card
      - pick: {who: 0, from: hand, to: pile, count: 1}            # a pick's card
"""


@pytest.mark.skipif(loaded()["mechanics.triggers"],
                    reason="watches mechanics/triggers.py's Python calls: the compiled tier runs it as C")
def test_only_a_card_that_may_fire_a_hook_is_told_to_its_zone(tmp_path):
    rules = load(tmp_path, ENTERING)
    assert rules.triggers.live["pile"] == rules.triggers.live["hand"] != frozenset()
    entered = rules.triggers.entered.__func__.__code__
    total_calls = total_fired = 0
    calls: list = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is entered:
            calls.append(frame.f_locals["cards"])

    for seed in range(12):
        calls.clear()
        sys.setprofile(profile)
        try:
            S = rules.new_game(2, seed=seed)
            while not S.is_terminal():
                S.apply_index(0)
        finally:
            sys.setprofile(None)
        assert all(len(cards) == 1 for cards in calls)           # each move here is of one card
        fired = S.v["x"] // 10 + S.v["x"] % 10
        assert len(calls) == fired                                # each call a card that fired
        total_calls, total_fired = total_calls + len(calls), total_fired + fired
        lockstep(rules, 2, seed)
    assert total_fired > 0



GATHERED = """
triggers:
  fives:
    on_enter: pile
    if: "card.rank == 5"
    do: [{set: {x: "x + 1"}}]
  any:
    on_enter: pile
    do: [{set: {x: "x + 100"}}]
flow:
  - repeat: 2
    steps:
      - deal: {from: deck, to: hand, count: 2}
      - pick: {who: 0, from: hand, to: pile, count: 1}
      - gather: {from: hand, to: pile}          # every hand's cards enter pile
      - gather: {from: pile, to: deck}
"""


def test_a_gather_fires_the_enter_triggers_of_the_zone_its_cards_enter(tmp_path):
    """docs/reference.md: an on_enter trigger runs when a card enters its zone, by a gather too,
    each card gathered as a move of it would (before, a gather fired none)."""
    rules = load(tmp_path, GATHERED)
    fives_seen = 0
    for seed in range(8):
        S = rules.new_game(2, seed=seed, record=True)
        while not S.is_terminal():
            S.apply_index(0)
        entered = [e["cards"] for e in S.ev if e.get("to") == "pile" and e.get("ev") in ("gather", "pick")]
        cards = [c for cs in entered for c in cs]
        assert [len(cs) for cs in entered] == [1, 3, 1, 3]   # a round: one picked, three gathered
        fives = sum(1 for c in cards if rules.card_labels[c].startswith("5"))
        assert S.v["x"] == 100 * len(cards) + fives
        fives_seen += fives
        lockstep(rules, 2, seed)
    assert fives_seen > 0
