"""A turn that ``turns`` skips counts against the step budget as the turn's trip would (1 + the
step's charge): a lap in which every seat is skipped, repeated by `rounds:` or by an `until:`
that never holds, meets the budget and stops with its located error, where it ran on without a
count (a mutated Euchre with `rounds: 9223372036854775808` and every seat skipped once a bid was
made: a hang the fuzzer found, seed 99). The module and its plain reference count alike."""
from __future__ import annotations

import pytest

import interpreter
from helpers import load_text
from test_budget_counted import played
from test_flowgen import reference

GAME = """game: skipped
players: {{min: 2, max: 3}}
components:
  chips: {{attributes: {{n: 1..9}}}}
zones:
  pool: {{owner: none, visible: all, start: [chips]}}
vars:
  x: {{type: int, start: 0}}
limits: {{steps: {budget}}}
flow:
  - turns:
      {laps}
      skip: "{skip}"
      steps:
        - choose: {{options: "[1, 2]", as: x, prompt: pick}}
scoring:
  categories: {{x: x}}
"""
COSTLY = "x > 0 and count(pool where count(pool where n > it.n) >= 0) > 0"   # (a charge of some units)


@pytest.mark.parametrize("laps", ["rounds: 1000000000", 'until: "x > 5"'])
def test_every_seat_skipped_lap_after_lap_meets_the_budget(tmp_path, laps):
    rules = load_text(tmp_path, GAME.format(budget=2000, laps=laps, skip="x > 0"))
    for game in (rules, reference(rules)):
        S = game.new_game(2, seed=1)
        with pytest.raises(interpreter.GameError) as e:
            S.apply_index(0)   # x = 1: every seat skipped from now on
        assert type(e.value).__name__ == "BudgetExceeded"
        assert S.steps == 2001
        # (located at the running step, the turns, as docs/reference.md says of a game over budget)
        assert (e.value.loc.line, e.value.loc.col) == (11, 5), e.value.loc


def test_a_skipped_turn_counts_the_steps_charge(tmp_path):
    rules = load_text(tmp_path, GAME.format(budget=100000, laps="rounds: 1000000000", skip=COSTLY))
    turns = next(s for s in rules.steps if s.kind == "turns")
    assert turns.charge > 0
    S = rules.new_game(2, seed=1)
    before = S.steps
    with pytest.raises(interpreter.GameError):
        S.apply_index(0)
    assert 100000 < S.steps <= 100000 + 1 + turns.charge
    # (each skipped turn counted 1 + charge: the count reaches the budget in that many steps)
    assert (S.steps - before - 1 - turns.charge) % (1 + turns.charge) == 0


@pytest.mark.parametrize("budget", [5, 9, 14, 30, 61])
def test_the_module_and_its_reference_count_skipped_turns_alike(tmp_path, budget):
    (tmp_path / str(budget)).mkdir()
    rules = load_text(tmp_path / str(budget), GAME.format(budget=budget, laps="rounds: 7", skip="x == 2"))
    ref, kinds = reference(rules), set()
    for seed in range(4):
        got = played(rules, seed, players=2 + seed % 2)
        assert got == played(ref, seed, players=2 + seed % 2), (budget, seed)
        kinds.add(got[2])
    assert kinds <= {None, "BudgetExceeded"}
