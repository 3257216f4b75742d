"""A failed scenario expectation says what the values were, not just that it was false."""
from __future__ import annotations

import pytest

from interpreter.play.scenarios import run_file

CASES = [
    ("count(hand[0]) == 3", "expected count(hand[0]) == 3, but count(hand[0]) is 10"),
    ("count(deck) == 20 and count(hand[1]) > 11",           # the first part holds: the second is shown
     "expected count(deck) == 20 and count(hand[1]) > 11, but count(hand[1]) is 10"),
    ("first(hand[0]) in table", "expected first(hand[0]) in table, but first(hand[0]) is 4D and table is []"),
    ("count(deck) > count(hand[0]) * 3", "expected count(deck) > count(hand[0]) * 3, but count(deck) is 20 and "
                                         "count(hand[0]) * 3 is 30"),
    ("any(players, by: showroom > 3)", "expected any(players, by: showroom > 3), but it is false"),
    ("safe[0] == 0 and any(players, by: showroom > 3)",
     "expected safe[0] == 0 and any(players, by: showroom > 3), but any(players, by: showroom > 3) is false"),
]


@pytest.mark.parametrize("expect,message", CASES)
def test_a_false_expectation_shows_its_values(tmp_path, expect, message):
    path = tmp_path / "s.yaml"
    path.write_text(f"ruleset: diamonds\nscenarios:\n  - {{name: x, players: 4, seed: 1, expect: [{expect!r}]}}\n")
    [outcome] = run_file(path)
    assert not outcome.ok and outcome.message == message
