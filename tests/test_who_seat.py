"""A step's ``who:`` is a seat or none: a whole number that is none of the seats (``-1``, ``9``) is
the located runtime error ``there is no player``, for every step kind that reads one (base.py
``checked_seat``, by way of ``Step.asker``), in the generated module and its plain reference
alike. Before, a grid's or an attempt's ``who: "-1"`` asked seat -1 (a state that did not
reload) and a pay's charged seat 1, Python's negative indexing."""
from __future__ import annotations

import pytest

from helpers import load_text
from test_attempt_actor import text
from test_budget_counted import played_alike
from test_counter_amounts import GAME
from test_flowgen import reference


@pytest.mark.parametrize("item", [
    'grid: {who: "%s", zone: deck, rows: 2, cost: 1, pay: coins, as: spot, pass: false}',
    'pay: {who: "%s", costs: {coins: 1}}', 'choose: {who: "%s", options: "[1, 2]", as: picked}',
], ids=["grid", "pay", "choose"])
@pytest.mark.parametrize("who", ["-1", "2"])
def test_a_who_that_is_no_seat_is_a_located_error(tmp_path, item, who):
    decisions, _, kind, message = played_alike(load_text(tmp_path, GAME % ("0", item % who)))[:4]
    kind_of = item.split(":")[0]
    assert (decisions, kind) == (0, "GameError")   # (asked once the first choice is made)
    assert f"g.yaml:17:5: error[runtime]: in {kind_of}: there is no player {who} (players are 0 to 1)" in message


def test_an_attempt_by_no_seat_is_a_located_error(tmp_path):
    """An attempt's who: -1 asked seat -1 the outcome (the table tells it)."""
    r = load_text(tmp_path, text('- attempt: {who: "-1", actor: thrower, outcomes: {hit: {steps: [{gain: {counter: points}}]}}}'))
    for rules in (r, reference(r)):
        with pytest.raises(Exception, match=r"g\.yaml:\d+:\d+: error\[runtime\]: in attempt: there is no player -1"):
            rules.new_game(3, seed=0, options={"resolve": "ask"})
