"""The compiled flow's shortcuts, as games see them: a sequence goes on past children done at
once without a trip through the game loop, however many there are, counted as the loop counts."""
from __future__ import annotations

import copy

from helpers import load_text
from interpreter.building.flowgen import compile_flow

MANY = """
game: many
players: {min: 2, max: 2}
vars:
  x: int
flow:
%s
  - choose: {who: 0, options: "[1, 2]", as: x, prompt: last}
"""


def test_a_sequence_of_many_children_done_at_once_runs_to_its_question(tmp_path):
    skipped = "\n".join('  - choose: {who: 0, options: "[]", as: x}' for _ in range(1500))   # nothing to choose
    rules = load_text(tmp_path, MANY % skipped)
    S = rules.new_game(2, seed=1)
    assert S.prompt() == "last" and S.legal_actions() == ["1", "2"]
    plain = copy.copy(rules)   # the reference: each step's plain function, one loop iteration each
    runs, resolves, advance, _ = compile_flow(rules, plain=True)
    for name, value in (("runs", runs), ("resolves", resolves), ("advance", advance)):
        object.__setattr__(plain, name, value)
    assert plain.new_game(2, seed=1).to_json() == S.to_json()   # the budget's count included
