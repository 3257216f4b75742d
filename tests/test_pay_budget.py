"""A pay counts each unit it pays without asking against the step budget (mechanics/pay.py
``Pay.run``), so a huge cost stops the game on its budget, in the generated module and in the
plain reference alike, and a saved pay frame holds at most the budget's units left."""
from __future__ import annotations

import json

import pytest

from fuzzing.lockstep import reference
from helpers import load_text
from interpreter.errors import GameError

PAY = """
game: payhang
players: {{min: 1, max: 1}}
limits: {{steps: 1000}}
counters:
  gold: {{owner: player, start: {start}}}
vars:
  x: {{type: str}}
flow:
  - turns:
      steps:
        - pay: {{costs: {{gold: {cost}}}}}
        - choose: {{options: "['end']", as: x}}
"""


@pytest.mark.parametrize("cost", [5000, 10 ** 12])
def test_a_cost_paid_unit_by_unit_stops_on_the_budget(tmp_path, cost):
    """Before: 5,000 units paid in one step and the choice asked; 10^12 never returned."""
    rules = load_text(tmp_path, PAY.format(start=cost, cost=cost))
    for r in (rules, reference(rules)):
        with pytest.raises(GameError, match=r"exceeded its step budget of 1,000 steps") as info:
            r.new_game(1, seed=1)
        assert info.value.diagnostics[0].code == "limit"


def test_a_cost_within_the_budget_is_paid_and_counted(tmp_path):
    rules = load_text(tmp_path, PAY.format(start=500, cost=300))
    S, R = rules.new_game(1, seed=1), reference(rules).new_game(1, seed=1)
    assert S.counter("gold")[0] == R.counter("gold")[0] == 200
    assert S.steps == R.steps >= 300


def test_a_saved_pay_frame_holds_at_most_the_budgets_units(tmp_path):
    """Units left above the budget could never be paid within it: refused, naming the slot."""
    rules = load_text(tmp_path, PAY.format(start=5, cost=2))
    d = json.loads(rules.new_game(1, seed=1).to_json())
    assert rules.steps[d["stack"][-1][0]].kind == "choose"
    pay = next(s.index for s in rules.steps if s.kind == "pay")
    d["stack"][-1] = [pay, 0, [10 ** 12], 0]
    with pytest.raises(GameError, match=r"stack\[\d+\]\[2\], units left to pay \(step \d+, pay\): expected a whole "
                                        r"number \(0 to 1000\), got 1000000000000"):
        rules.state_from_json(json.dumps(d))
