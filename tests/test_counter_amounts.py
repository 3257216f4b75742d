"""What a counter is given is a whole number, as its saved state holds it (mechanics/counters.py
``may_be_fraction``): an advance's ``by:`` and ``max:``, a grid's ``cost:`` and a pay's ``any:``
that may have a fraction (of type num: ``5 / 2``, a card attribute of ``[1, 2.5]``) are errors at
load, located at the key; one of type any (or made of one) is checked where it runs, so that a
fraction, ``true`` or a string stops the game there, in the module as in the plain reference,
and no counter holds 2.5 (which a saved state refuses) nor pays ``true`` as 1."""
from __future__ import annotations

import json

import pytest

import interpreter
from helpers import load_text, tiny_ruleset
from interpreter.engine.saved import state_from_json
from test_budget_counted import played_alike

GAME = tiny_ruleset("""counters:
  coins: {owner: player, start: 5}
  gems: {owner: player, start: 5}
  pos: {owner: player, start: 0}
  paid: {owner: card, start: 0}
vars:
  loose: any
flow:
  - choose: {who: 0, options: "[1, 2]", as: picked}
  - set: {loose: "%s"}
  - %s
  - choose: {who: 0, options: "[1, 2]", as: picked}
scoring: {categories: {p: "coins[me] + pos[me]"}}
""", seen="all")

ADVANCE_BY = 'advance: {counter: "pos[0]", by: "%s"}'
ADVANCE_MAX = 'advance: {counter: "pos[0]", by: 3, max: "%s"}'
GRID = 'grid: {who: 0, zone: deck, rows: 2, cost: "%s", pay: coins, mark: paid, as: spot, pass: false}'
PAY_ANY = 'pay: {who: 0, costs: {coins: 1}, any: "%s", from: [coins, gems]}'


def outcome(tmp_path, loose: str, item: str) -> tuple:
    return played_alike(load_text(tmp_path, GAME % (loose, item)))


@pytest.mark.parametrize("item, key", [(ADVANCE_BY, "by:"), (ADVANCE_MAX, "max:"), (GRID, "cost"), (PAY_ANY, "cost")],
                         ids=["advance-by", "advance-max", "grid-cost", "pay-any"])
def test_an_amount_that_may_have_a_fraction_is_an_error_at_load_located_at_its_key(tmp_path, item, key):
    # (before: the counter held 2.5, and the saved state of the game did not load again)
    text = GAME % ("0", item % "5 / 2")
    col = text.splitlines()[16].index('"5 / 2"') + 1
    with pytest.raises(interpreter.RulesetError, match=rf"g.yaml:17:{col}: error\[type\]: a counter holds whole "
                                                      rf"numbers, and this {key} may have a fraction: divide with //"):
        load_text(tmp_path, text)


def test_a_grid_cost_of_a_card_attribute_with_fractions_is_an_error_at_load(tmp_path):
    text = GAME.replace("rank: 1..5", "rank: 1..5, price: [1, 2.5]") % ("0", GRID % "price")
    with pytest.raises(interpreter.RulesetError, match=r"g.yaml:17:\d+: error\[type\]: a counter holds whole numbers, "
                                                      r"and this cost may have a fraction"):
        load_text(tmp_path, text)


@pytest.mark.parametrize("item", [ADVANCE_BY, ADVANCE_MAX, PAY_ANY], ids=["advance-by", "advance-max", "pay-any"])
@pytest.mark.parametrize("loose, got", [("2.5", "2.5"), ("0.5", "0.5"), ("true", "True"), ("'seven'", "'seven'")])
def test_an_amount_of_type_any_is_checked_a_whole_number_where_it_runs(tmp_path, item, loose, got):
    out = outcome(tmp_path, loose, item % "loose")
    counter, where = ("coins", "in pay") if item == PAY_ANY else ("pos", "in effects")
    assert out[2] == "GameError" and f"g.yaml:17:5: error[runtime]: {where}: counter '{counter}' holds whole " \
        f"numbers: expected a whole number, got {got}" in out[3].splitlines()[0]


def test_a_pay_any_with_no_counter_to_pay_from_names_what_it_checks(tmp_path):
    # (before: "counter 'any' holds whole numbers", a counter the ruleset has not)
    out = outcome(tmp_path, "'two'", 'pay: {who: 0, costs: {}, any: "loose"}')
    assert out[2] == "GameError" and out[3].splitlines()[0].endswith(
        "g.yaml:17:5: error[runtime]: in pay: a pay's any: counts units, whole numbers: expected a whole number, "
        "got 'two'")


@pytest.mark.parametrize("item, pos, left", [(ADVANCE_BY, 2, 20), (ADVANCE_MAX, 2, 20), (PAY_ANY, 0, 17)],
                         ids=["advance-by", "advance-max", "pay-any"])
def test_a_whole_amount_of_type_any_runs_as_a_number_does_and_reloads(tmp_path, item, pos, left):
    out = outcome(tmp_path, "2", item % "loose")
    counters = json.loads(out[3])["counters"]
    assert out[2] is None and counters["pos"][0] == pos and sum(counters["coins"] + counters["gems"]) == left
    rules = interpreter.load(tmp_path / "g.yaml")
    assert state_from_json(rules, out[3]).to_json() == out[3]


@pytest.mark.parametrize("attributes, cost", [("", "loose"), (", price: [2.5, x]", "price")],
                         ids=["variable", "card-attribute"])
def test_a_grid_cost_of_type_any_is_checked_a_whole_number_where_it_is_priced(tmp_path, attributes, cost):
    # a cost of type any (a variable's, or a card attribute of [2.5, x]: one the kept prices of
    # mechanics/grid_prices.py would price, reading the space alone) is priced in full, each price
    # checked (grid.py _whole_price): the seat is not offered a space at 2.5 coins
    rules = load_text(tmp_path, GAME.replace("rank: 1..5", "rank: 1..5" + attributes) % ("2.5", GRID % cost))
    out = played_alike(rules)
    assert out[2] == "GameError" and out[3].splitlines()[0].endswith(
        "g.yaml:17:5: error[runtime]: in grid: counter 'coins' holds whole numbers: expected a whole number, got 2.5")


GRID_WHERE = GRID.replace("pay:", 'where: "loose == %s", pay:')


@pytest.mark.parametrize("passed", ["2", "3"], ids=["filter-passes", "filter-excludes"])
def test_a_grid_cost_that_is_none_plays_as_one_priced_in_full(tmp_path, passed):
    # a cost that is none (first() of an empty list): the kept prices (a cost reading a parameter
    # alone) priced it, and so failed, where the rest of the filter excluded its space, which a
    # grid priced in full (its cost reads a variable too) never prices: the seat passes there
    got = []
    for cost in ("first(params.E)", "first(params.E) if loose < 10 else 0"):
        text = GAME.replace("counters:", "params:\n  E: [2]\ncounters:", 1) % ("2", GRID_WHERE % (cost, passed))
        rules = load_text(tmp_path, text)
        out = played_alike(rules, options={"params": {"E": []}})
        got.append(out[:3] + ((json.loads(out[3]) | {"hash": None}) if out[2] is None else out[3].splitlines()[0],))
    assert got[0] == got[1]
    assert got[0][2] is None if passed == "3" else "in grid: '<=' cannot compare none with int" in got[0][3]
