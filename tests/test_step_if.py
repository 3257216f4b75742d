"""A step-level if (docs/reference.md "if (steps under a condition)"): an if in a flow list
whose then or else holds steps is a step; the condition is asked once when it starts."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.errors import RulesetError

from test_flowgen import lockstep
from helpers import load_text

GAME = """
game: step_if
players: {min: 2, max: 2}
components:
  cards: {attributes: {rank: 1..6}}
zones:
  deck: {owner: none, visible: none, start: [cards]}
  hand: {owner: player, visible: owner}
counters:
  points: {owner: player}
vars:
  bid: int
flow:
  - turns:
      steps:
        - if: "me == 0"
          then:
            - choose: {options: "[1, 2, 3]", as: bid, prompt: bid}
            - if: "bid > 1"
              then:
                - choose: {options: "[10, 20]", as: bid, prompt: raise}
          else: [{gain: {counter: points, amount: 5}}]
        - gain: {counter: points}
%s
scoring:
  categories: {points: points, bid: "bid if me == 0 else 0"}
"""


def line_of(path, text) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def load(tmp_path, extra="", name="game.yaml"):
    return load_text(tmp_path, GAME % extra, name)


def test_then_runs_steps_and_else_runs_effects(tmp_path):
    rules = load(tmp_path)
    S = rules.new_game(2, seed=1)
    assert (S.current_player(), S.prompt(), S.legal_actions()) == (0, "bid", ["1", "2", "3"])
    S.apply("3")                                      # bid > 1: the nested if asks again
    assert (S.prompt(), S.legal_actions()) == ("raise", ["10", "20"])
    S.apply("20")
    assert S.is_terminal()                            # seat 1 took the else: effects, no decision
    assert S.v["bid"] == 20 and S.c["points"] == [1, 6]


def test_a_false_condition_without_steps_to_run_skips_to_the_next_step(tmp_path):
    rules = load(tmp_path)
    S = rules.new_game(2, seed=1)
    S.apply("1")                                      # bid == 1: the nested if has no else
    assert S.is_terminal() and S.c["points"] == [1, 6]


def test_compiled_and_reference_flows_agree(tmp_path):
    rules = load(tmp_path)
    for seed in range(4):
        lockstep(rules, 2, seed)


def test_an_if_of_effects_only_stays_an_effect(tmp_path):
    rules = load(tmp_path)
    kinds = [s.kind for s in rules.steps]
    assert kinds.count("if") == 2                     # the two holding steps; the else's gain is inline


def test_a_step_where_only_effects_run_is_an_error_that_says_so(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text((GAME % "").replace("        - gain: {counter: points}\n",
                                        "        - choose: {options: '[1]', as: bid, then: [{choose: {options: '[2]', as: bid}}]}\n"))
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    assert "'choose' is a step, and only effects can run here" in info.value.message
    assert info.value.loc.line == line_of(path, "then: [{choose")


@pytest.mark.parametrize("change,message", [
    ('- if: "me == 0"', None),
    ('- if: "me + 1"', "expected a condition (true/false), got int"),
])
def test_the_condition_is_type_checked_and_located(tmp_path, change, message):
    path = tmp_path / "t.yaml"
    path.write_text((GAME % "").replace('- if: "me == 0"', change))
    if message is None:
        interpreter.load(path)
        return
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    assert message in info.value.message and info.value.loc.line == line_of(path, change)


def test_unknown_keys_of_a_step_if_are_named(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text((GAME % "").replace("          else: [{gain", "          otherwise: [{gain"))
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    d = info.value.diagnostics[0]
    assert d.message == "unknown key 'otherwise'" and d.hint == "accepted keys: if, then, else"
