"""A pass's target (``to:``) is a checked seat written in place in the step's resolve: no call
for the seat, and the same located error as ``_seat``'s for a value that is no seat."""
from __future__ import annotations

import pytest

from fuzzing.lockstep import run_lockstep
from fuzzing.rulesets import Case
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


# three cards each, two passed: the receiver reads the giver's hand size, which falls as cards leave
BY_HAND = tiny_ruleset("""
  hand: {owner: player, visible: owner}
flow:
  - deal: {from: deck, to: hand, count: 3}
  - pass: {from: hand, count: 2, to: "left(me) if count(hand) == 2 else right(me)"}
scoring: {categories: {n: "count(hand)"}}
""", players=(3, 3))


def test_a_pass_reads_its_receiver_once_a_giver_before_any_card_leaves(tmp_path):
    # read per card after it left, the first card went left (2 held) and the second right (1
    # held); read once, with the hand as the giver began (3), both go right
    rules = load_text(tmp_path, BY_HAND)
    S = rules.new_game(3, seed=0, record=True)
    step, told = rules.steps[S.stack[-1][0]], []
    while not S.is_terminal():
        told.append(step.asked(S, S.stack[-1])["to"])   # the receiver the giver is shown
        S.apply_index(0)
    passed = [(ev["who"], ev["for"]) for ev in S.ev if ev["ev"] == "pass"]
    received = [(ev["from_seat"], ev["to_owner"], len(ev["cards"])) for ev in S.ev if ev["ev"] == "receive"]
    assert passed == [(0, 2), (0, 2), (1, 0), (1, 0), (2, 1), (2, 1)] and told == [2, 2, 0, 0, 1, 1]
    assert sorted(received) == [(0, 2, 2), (1, 0, 2), (2, 1, 2)] and [len(h) for h in S.z["hand"]] == [3, 3, 3]
    # the plain reference agrees (states, options, events after every decision)
    for seed in (1, 2):
        assert run_lockstep(Case({"g.yaml": BY_HAND}, "g.yaml", seed=seed), tmp_path / str(seed)) == "played"
