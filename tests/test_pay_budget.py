"""A pay counts each unit it pays without asking against the step budget (mechanics/pay.py
``Pay.run``), so a huge cost stops the game on its budget, in the generated module and in the
plain reference alike; a pay owing more units than the budget stops as it starts, so a pay's
frame holds at most the budget's units left, all that a saved one may hold."""
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


def test_a_cost_paid_unit_by_unit_stops_on_the_budget(tmp_path):
    """Before: 800 units paid in one step and the choice asked."""
    rules = load_text(tmp_path, PAY.format(start=800, cost=800))
    for r in (rules, reference(rules)):
        with pytest.raises(GameError, match=r"exceeded its step budget of 1,000 steps") as info:
            r.new_game(1, seed=1)
        assert info.value.diagnostics[0].code == "limit"


ASKED = PAY.replace("gold: {{owner: player, start: {start}}}",
                    "gold: {{owner: player, start: {start}}}\n  joker: {{owner: player, start: {start}}}")
ASKED = ASKED.replace("costs: {{gold: {cost}}}", "costs: {{gold: {cost}}}, any: {any}, from: [gold, joker], joker: joker")


@pytest.mark.parametrize("asked, cost, any_", [(False, 5000, 0), (False, 10 ** 12, 0), (True, 1001, 0),
                                              (True, 3000, 0), (True, 600, 401)])
def test_a_pay_owing_more_units_than_the_budget_stops_as_it_starts(tmp_path, asked, cost, any_):
    """Each unit counts a step at least (an answer, or two paid without asking): a pay owing more
    than the budget, its costs and `any` units together, could never be paid, and stops as it
    starts, located at the pay, in the module and the reference alike. Before: 10^12 units paid
    without asking ran to the budget, and units asked one by one left a frame no saved state
    could hold (units left 3,000 of a budget of 1,000)."""
    rules = load_text(tmp_path, (ASKED if asked else PAY).format(start=2 * cost, cost=cost, any=any_))
    for r in (rules, reference(rules)):
        with pytest.raises(GameError, match=rf"g.yaml:{13 if asked else 12}:11: error\[limit\]: player 0 owes {cost + any_:,} units "
                                            r"here, more than the step budget of 1,000 steps could ever pay") as info:
            r.new_game(1, seed=1)
        assert info.value.summary == "a pay owes more units than the step budget could ever pay"   # (no value)


def test_a_pay_asking_each_unit_saves_and_reloads_at_the_budgets_units(tmp_path):
    """Every state play reaches reloads: a pay asking each unit of a cost as large as the budget
    allows, saved at its first question, reloads and plays on as the original does."""
    rules = load_text(tmp_path, ASKED.format(start=2000, cost=999, any=1))
    S = rules.new_game(1, seed=1)
    assert S.stack[-1][1:4] == [0, [999], 1] and S.legal_actions() == ["gold", "joker"]
    loaded = rules.state_from_json(S.to_json())
    for state in (S, loaded):
        state.apply("joker")
    assert loaded.to_json() == S.to_json()


def test_a_cost_within_the_budget_is_paid_and_counted(tmp_path):
    rules = load_text(tmp_path, PAY.format(start=500, cost=300))
    S, R = rules.new_game(1, seed=1), reference(rules).new_game(1, seed=1)
    assert S.counter("gold")[0] == R.counter("gold")[0] == 200
    assert S.steps == R.steps >= 300


def test_a_saved_pay_frame_holds_at_most_the_budgets_units(tmp_path):
    """Units left above the budget could never be paid within it: refused, naming the slot."""
    rules = load_text(tmp_path, ASKED.format(start=20, cost=10, any=0))   # (a pay asking each unit: its frame on top)
    d = json.loads(rules.new_game(1, seed=1).to_json())
    assert rules.steps[d["stack"][-1][0]].kind == "pay"
    d["stack"][-1][2] = [10 ** 12]
    with pytest.raises(GameError, match=r"stack\[\d+\]\[2\], units left to pay \(step \d+, pay\): expected a whole "
                                        r"number \(0 to 1000\), got 1000000000000"):
        rules.state_from_json(json.dumps(d))
