"""The compiled tier's when-triggers (accel/rulesets.py, mechanics/triggers.py ``fire_charged``):
the generated game loop names a trigger's effects by their function, which the compiled module
replaces by its own, holding none of the attributes the build gave the Python one (``work``,
what a firing counts): the charge is read from the trigger's own record, so a trigger that
fires in a compiled game counts and runs as in the Python module."""
from __future__ import annotations

import types

import pytest

from helpers import load_text
from test_accel import _final_states, can_compile

FIRES = """
game: fires
players: {min: 2, max: 2}
components:
  chip: {attributes: {n: 1..6}, label: "c{n}"}
zones:
  deck: {visible: none, start: [chip]}
  hand: {owner: player, visible: owner}
vars:
  _j: {type: int, start: 0}
  fired: {type: int, start: 0}
triggers:
  dealt:
    when: "count(hand[0]) > 0"
    do: [{set: {_j: "_j + 2"}}, {set: {fired: "fired + 1"}}]
flow:
  - move: {from: deck, to: "hand[0]", count: 1}
  - choose: {who: 0, options: "[1, 2]", as: g, prompt: go}
  - move: {from: "hand[0]", to: deck, count: 1}
  - choose: {who: 1, options: "[1, 2]", as: h, prompt: again}
  - move: {from: deck, to: "hand[0]", count: 1}
  - choose: {who: 0, options: "[1, 2]", as: g, prompt: last}
scoring:
  categories:
    n: "fired"
"""


@pytest.mark.slow   # (a small compile)
@can_compile
def test_a_when_trigger_fires_in_a_compiled_game_as_in_the_python_one(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    monkeypatch.delenv("RULEBOOK_COMPILED", raising=False)
    python = load_text(tmp_path, FIRES)
    rules = load_text(tmp_path, FIRES, compiled=True)
    assert not isinstance(rules.advance, types.FunctionType)   # (the generated loop, compiled)
    S = rules.new_game(2, seed=1)   # the trigger fired in the setup's loop: counted, run
    assert (S.v["fired"], S.v["_j"], S.prompt()) == (1, 2, "go")
    steps = S.steps
    S.apply_index(0)
    S.apply_index(0)
    assert S.v["fired"] == 2 and S.steps > steps
    assert _final_states(rules, 4) == _final_states(python, 4)
