"""Effects stated one by one, each on a ruleset written for it: `random:` (a variable set to
an element of a list, by chance) and the errors of its spelling."""
from __future__ import annotations

import pytest

from interpreter.errors import RulesetError
from helpers import load_text

RANDOM = """
game: r
players: {min: 2, max: 3}
vars:
  pick: {type: int, start: 0}
  none_left: {type: int, start: 5}
flow:
  - random: %s
"""


def load(tmp_path, spec):
    return load_text(tmp_path, RANDOM % spec, "r.yaml")


def test_random_sets_the_variable_to_an_element_of_the_list_and_logs_it(tmp_path):
    rules = load(tmp_path, "{var: pick, from: '[10, 20, 30]'}\n  - random: {var: none_left, from: '[]'}")
    seen = set()
    for seed in range(40):
        S = rules.new_game(2, seed=seed, record=True)
        assert S.v["pick"] in (10, 20, 30) and S.v["none_left"] is None   # an empty list: none
        assert [e for e in S.ev if e["ev"] == "random"] == [
            {"ev": "random", "var": "pick", "value": S.v["pick"]}, {"ev": "random", "var": "none_left", "value": None}]
        seen.add(S.v["pick"])
    assert seen == {10, 20, 30}
    assert [rules.new_game(2, seed=s).v["pick"] for s in range(8)] == [rules.new_game(2, seed=s).v["pick"] for s in range(8)]


def test_a_variable_set_only_by_random_is_used(tmp_path):
    rules = load(tmp_path, "{var: pick, from: '[1, 2]'}")
    said = [w.message for w in rules.warnings]
    assert "variable 'pick' is declared but never used" not in said
    assert "variable 'none_left' is declared but never used" in said   # (the check does run)


@pytest.mark.parametrize("spec, message, line_col", [   # (line 8: the random step)
    ("{var: pick}", "missing required key 'from'", (8, 5)),
    ("{var: pick, from: '[1]', odds: 2}", "unknown key 'odds'", (8, 38)),
    ("{var: '1pick', from: '[1]'}", "expected a variable name (a plain name), got '1pick'", (8, 19)),
    ("{var: pik, from: '[1]'}", "unknown variable 'pik'", (8, 19)),
    ("plenty", "expected a mapping with var, from", (8, 13)),
])
def test_a_misspelt_random_is_one_located_error(tmp_path, spec, message, line_col):
    with pytest.raises(RulesetError) as info:
        load(tmp_path, spec)
    (d,) = [d for d in info.value.diagnostics if d.severity == "error"]
    assert d.message == message and (d.loc.line, d.loc.col) == line_col, (d.loc.line, d.loc.col)
