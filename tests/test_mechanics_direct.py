"""Mechanisms stated one by one on rulesets written for them: what `reset:` counts as a use of
a counter, and when a grid's positions can be listed in advance (the adapters' action space)."""
from __future__ import annotations

import pytest

from interpreter.adapters.actions import ActionSpaceError, action_space
from helpers import load_text
from test_club_mechanics import GRID
from test_mechanics import BASE, load

RESET = BASE.replace("  points: {owner: player, start: 0}\n",
                     "  points: {owner: player, start: 0}\n  gems: {owner: none, keys: [red, blue], start: 2}\n")


@pytest.mark.parametrize("reset", ["[points, gems]", "points\n  - reset: gems"])
def test_a_counter_or_family_reset_is_used(tmp_path, reset):
    r = load(tmp_path, f"flow:\n  - reset: {reset}\n", base=RESET)
    unused = [w.message for w in r.warnings if "never used" in w.message]
    assert "variable 'x' is declared but never used" in unused          # (the check runs)
    assert not [m for m in unused if "'points'" in m or "'gems'" in m], unused


@pytest.mark.parametrize("rows, columns", [("2", 6), ("1", 12), ("5", 3)])
def test_a_grid_of_a_known_number_of_rows_has_its_positions_in_the_action_space(tmp_path, rows, columns):
    """The 12 spaces the market can hold, laid in R rows: ceil(12 / R) columns, each position
    with each space, then pass."""
    labels = action_space(load_text(tmp_path, GRID.replace("rows: 2", f"rows: {rows}")), 2).labels
    r = int(rows)
    assert labels[-1] == "pass" and len(labels) == columns * r * 12 + 1
    assert {label.split(":")[0] for label in labels[:-1]} == {f"c{c}r{k}" for c in range(1, columns + 1)
                                                              for k in range(1, r + 1)}


@pytest.mark.parametrize("rows, params", [
    ("'got[0] + 1'", ""),                      # a counter: any number
    ("params.r", "{type: int, default: 2, choices: [0, 2]}"),   # a grid of 0 rows is no grid
])
def test_a_grid_whose_rows_cannot_be_listed_has_no_action_space(tmp_path, rows, params):
    text = GRID.replace("rows: 2", f"rows: {rows}")
    if params:
        text = text.replace("params: {by_coins: false}", f"params: {{by_coins: false, r: {params}}}")
    with pytest.raises(ActionSpaceError, match="the options of this grid cannot be listed in advance"):
        action_space(load_text(tmp_path, text), 2)
