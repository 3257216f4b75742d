"""A pass's target (``to:``) is a checked seat written in place in the step's resolve: no call
for the seat, and the same located error as ``_seat``'s for a value that is no seat."""
from __future__ import annotations

import pytest

from interpreter.errors import GameError
from helpers import load_text, tiny_ruleset

GAME = tiny_ruleset("""
  hand: {owner: player, visible: owner}
vars:
  v: any
flow:
  - set: {v: "%s"}
  - deal: {from: deck, to: hand, count: 2}
  - pass: {from: hand, count: 1, to: v}
scoring: {categories: {n: "count(hand)"}}
""", players=(2, 3))


@pytest.mark.parametrize("value", ["true", "1.0", "'a'", "3", "-1"])
def test_a_pass_to_no_seat_is_a_located_runtime_error(tmp_path, value):
    rules = load_text(tmp_path, GAME % value)
    S = rules.new_game(3, seed=0)
    with pytest.raises(GameError, match=r"g.yaml:\d+:\d+.*there is no player .* \(players are 0 to 2\)"):
        S.apply_index(0)


def test_a_pass_to_a_seat_is_written_in_place(tmp_path):
    rules = load_text(tmp_path, GAME % "2")
    resolve = rules.module_source.split("def Q")[1]
    assert "written in place" in resolve and "_who.__class__ is not int" in resolve
    S = rules.new_game(3, seed=0)
    for _ in range(3):
        S.apply_index(0)
    assert [len(h) for h in S.z["hand"]] == [1, 1, 4] and S.is_terminal()   # (each gave one to seat 2)
