"""Costs of the generated code decided at build time: an effect loop's step budget is the
game's constant, as the flow's is (building/effects.py count_step; that the loop is stopped at
it: test_mechanics.py test_loops_inside_effects_count_against_the_step_budget); a value stored
in a variable is checked against the language's bounds unless the compiler bounds it
(expr/bounds.py)."""
from __future__ import annotations

import pytest

from interpreter.errors import GameError
from interpreter.expr.runtime import MAX_STORED
from helpers import load_text, tiny_ruleset

GAME = tiny_ruleset("""
vars:
  n: {type: int, start: 0}
limits: {steps: STEPS}
flow:
  - for_each: {in: "1..40", as: k, do: [{set: {n: "n + k"}}]}
""")


def test_an_effect_loop_compares_its_count_with_the_budget_written_in(tmp_path):
    rules = load_text(tmp_path, GAME.replace("STEPS", "777"))
    src = rules.module_source
    assert "> 777: _over_budget(S, " in src and "max_steps" not in src


# ---------------------------------------------------------------------- values stored unchecked
BOUNDED = tiny_ruleset("""
  pile: {}
vars:
  n: {type: int, start: 0}
  s: {type: str, start: "''"}
  l: {type: "list[card]", start: "[]"}
  lw: {type: "list[str]", start: "[]"}
counters:
  coins: {owner: player, start: 0}
define:
  few: "count(deck where rank > 2)"
flow:
  - set: {n: VALUE}
""", attributes="suit: [A, B], rank: 1..5, name: [ALONG]")


def _stored_set(tmp_path, var: str, value: str, name: str = "ab") -> bool:
    """Whether ``set: {var: value}`` is stored through ``_stored``'s checks."""
    text = BOUNDED.replace("{n: VALUE}", "{" + var + ": \"" + value + "\"}").replace("ALONG", name)
    src = load_text(tmp_path, text).module_source
    line = next(x for x in src.splitlines() if f"S.v_{var} = " in x)
    return "_stored(" in line


@pytest.mark.parametrize("var, value", [
    ("n", "count(deck)"),                         # no longer than a zone: the cards
    ("n", "few * 3 + count(players) - 1"),        # sums and products of such numbers
    ("n", "max(count(pile), 7) if n > 0 else count(deck) // 2"),
    ("l", "deck where rank > 2"),                 # a filter of a zone
    ("l", "(pile where rank > 2) + deck"),        # joins of them: two zones, 20 cards
    ("lw", "map(deck, to: suit)"),
    ("lw", "distinct(map(pile, to: suit)) + ['x']"),
    ("s", "first(deck).suit"),                    # a card's text attribute: its longest value
    ("s", "'a' + first(deck).suit"),
])
def test_a_value_the_compiler_bounds_is_stored_unchecked(tmp_path, var, value):
    assert not _stored_set(tmp_path, var, value)


@pytest.mark.parametrize("var, value", [
    ("n", "n * 2"),                               # a variable doubled: may pass 64 bits
    ("n", "coins[0] + 1"),                        # a counter plus one
    ("n", "count(deck) * 99999999999 * 99999999999"),   # a product past 64 bits
    ("l", "l + l"),                               # a list variable joined to itself
    ("s", "s + 'a'"),
    ("s", "first(deck).name"),                    # an attribute longer than a variable may hold
])
def test_a_value_that_may_pass_the_bounds_is_checked(tmp_path, var, value):
    assert _stored_set(tmp_path, var, value, name="x" * (MAX_STORED + 1))


def test_a_text_attribute_too_long_is_the_same_error_when_stored(tmp_path):
    text = BOUNDED.replace("{n: VALUE}", "{s: \"first(deck).name\"}").replace("ALONG", "x" * (MAX_STORED + 1))
    with pytest.raises(GameError, match="more than 100000"):
        load_text(tmp_path, text).new_game(players=2, seed=1)
