"""A variable holds a value of the language, which never changes: a list stored from a zone
(``set``, a variable's ``start``, a ``random`` draw from a list of lists) is the variable's own
copy, not the zone's list that the moves after it change in place (expr/runtime.py ``_stored``,
``owned``)."""
from __future__ import annotations

import pytest

from helpers import load_text, tiny_ruleset
from test_flowgen import lockstep, reference

GAME = tiny_ruleset("""  hand: {owner: player, visible: all}
vars:
  seen: {type: "list[card]", start: "deck"}
  snap: "list[card]"
  both: any
  drawn: any
  x: int
flow:
  - set: {snap: "deck", both: "[[deck], [deck]]"}
  - random: {var: drawn, from: "[deck, deck]"}
  - move: {from: deck, to: "hand[0]", count: 2}
  - choose: {who: 0, options: "[1, 2]", as: x}
""", card="card", attributes="n: 1..6", label="c{n}", seen="all")


@pytest.mark.parametrize("plain", [False, True])
def test_a_list_stored_from_a_zone_keeps_its_cards_when_the_zone_changes(tmp_path, plain):
    rules = load_text(tmp_path, GAME)
    S = (reference(rules) if plain else rules).new_game(2, seed=1)
    deck = S.z["deck"]
    assert len(deck) == 4
    assert len(S.v["seen"]) == len(S.v["snap"]) == len(S.v["drawn"]) == 6
    assert [len(S.v["both"][0][0]), len(S.v["both"][1][0])] == [6, 6]
    assert all(v is not deck for v in (S.v["seen"], S.v["snap"], S.v["drawn"], S.v["both"][0][0], S.v["both"][1][0]))
    clone = S.clone()
    S.apply_index(0)
    assert clone.v["snap"] == S.v["snap"] and len(clone.v["snap"]) == 6


def test_the_same_games_as_the_reference(tmp_path):
    rules = load_text(tmp_path, GAME)
    for seed in range(3):
        assert lockstep(rules, 2, seed) > 0
