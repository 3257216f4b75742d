"""The protocol between the game loop and the steps it runs (docs/architecture.md, "The compiled
flow"): what a step run at once from another counts against the budget, and where an attempt's
outcome runs. The compiled flow and the plain reference (compile_flow(plain=True)) must agree."""
from __future__ import annotations

import pytest

from interpreter.errors import BudgetExceeded, GameError
from test_flowgen import reference
from test_mechanics import load

# each pass: the loop's step, an attempt (charged for its chance), its outcome's steps run at once
ROLLS = """
limits: {steps: STEPS}
flow:
  - repeat: 6
    steps:
      - attempt:
          who: 0
          as: result
          outcomes:
            hit: {chance: "count(deck where count(deck where rank > it.rank) > 3) / 20", steps: [{set: {x: "x + 1"}}]}
            miss: {chance: rest, steps: [{set: {x: "x + 100"}}]}
"""


def test_steps_run_at_once_count_as_the_reference_loop_counts_them(tmp_path):
    rules = load(tmp_path, ROLLS.replace("STEPS", "100000"))
    assert any(s.charge for s in rules.steps if s.kind == "attempt")   # (a charge beyond one)
    a, b = rules.new_game(2, seed=3), reference(rules).new_game(2, seed=3)
    assert a.is_terminal() and b.is_terminal() and a.v["x"] == b.v["x"] > 0
    assert a.steps == b.steps
    took = a.steps   # the budget stops the game past it, not at it, both ways
    for r in (load(tmp_path, ROLLS.replace("STEPS", str(took)), name="enough.yaml"),):
        assert r.new_game(2, seed=3).is_terminal() and reference(r).new_game(2, seed=3).is_terminal()
    short = load(tmp_path, ROLLS.replace("STEPS", str(took - 1)), name="short.yaml")
    for r in (short, reference(short)):
        with pytest.raises(BudgetExceeded, match=f"step budget of {took - 1:,} steps"):
            r.new_game(2, seed=3)


def test_the_budget_stops_a_flow_that_runs_its_outcomes_at_once_for_ever(tmp_path):
    rules = load(tmp_path, """
    limits: {steps: 3000}
    flow:
      - while: "x >= 0"
        steps:
          - attempt:
              who: 1
              outcomes:
                hit: {chance: rest, steps: [{set: {x: "x + 1"}}]}
    """)
    for r in (rules, reference(rules)):
        with pytest.raises(BudgetExceeded, match="step budget of 3,000 steps"):
            r.new_game(2)


def test_an_attempt_s_outcome_takes_its_frame(tmp_path):
    """The attempt is done once its outcome's steps start: a question they ask has no attempt
    frame beneath it, and the steps' end goes on with what follows the attempt."""
    rules = load(tmp_path, """
    flow:
      - attempt:
          who: 0
          as: result
          outcomes:
            hit: {chance: rest, steps: [{choose: {who: 0, options: "[1, 2]", as: x}}]}
      - choose: {who: 1, options: "[3, 4]", as: x}
    """)
    attempt = next(s.index for s in rules.steps if s.kind == "attempt")
    for r in (rules, reference(rules)):
        S = r.new_game(2)
        assert S.dec == (0, (1, 2)) and attempt not in [f[0] for f in S.stack]
        S.apply("2")
        assert S.dec == (1, (3, 4)) and S.v["x"] == 2


def test_an_error_entering_a_step_is_located_as_the_reference_locates_it(tmp_path):
    """A step whose frame is made by an expression (a repeat's count) is entered by the steps
    list holding it, in the compiled flow as in the reference: an error there names the list."""
    rules = load(tmp_path, """
    flow:
      - while: "x >= 0"
        steps:
          - repeat: "10 // x"
            steps: [{set: {x: "x - 1"}}]
    """)
    errors = []
    for r in (rules, reference(rules)):
        with pytest.raises(GameError, match="division by zero") as e:
            r.new_game(2)
        errors.append((e.value.message, e.value.loc.line, e.value.loc.col))
    assert errors[0] == errors[1]
