"""Costs of the generated code decided at build time: an effect loop's step budget is the
game's constant, as the flow's is (building/effects.py count_step; that the loop is stopped at
it: test_mechanics.py test_loops_inside_effects_count_against_the_step_budget)."""
from __future__ import annotations

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
