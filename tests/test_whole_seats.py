"""A seat or a count the flow keeps, made of a value of type any, held to a whole number.

A turns' ``from:`` and ``rounds:``, a repeat's count and ``left()``'s and ``right()``'s
arguments are whole numbers when their type is known (checked at load); of type any (or made of
one), a fraction or a truth is a located runtime error where it is computed, in the generated
module and its plain reference alike: no seat 0.5 asked a decision, no 1.5 laps kept in a
frame, so every state a game reaches reloads. A whole number goes on as a typed one does.
"""
from __future__ import annotations

import pytest

import interpreter
from helpers import chips_game, load_text
from test_budget_counted import played
from test_flowgen import reference

TURNS = """flow:
  - turns:
      %s
      steps:
        - choose: {options: "[1, 2]", as: x, prompt: first}
scoring:
  categories: {chips: "count(mine)"}
"""


def game(tmp_path, w: str, keys: str):
    keys = keys.replace("; ", "\n      ")   # (one key a line)
    text = chips_game("", game="seats", players=(3, 3)) + f'  w: {{start: "{w}"}}\n' + TURNS % keys
    return load_text(tmp_path, text)


def outcome(rules) -> tuple:
    """The game played (seed 0, three seats), by the module and by its plain reference: both the same."""
    got = played(rules, 0, players=3)
    assert got == played(reference(rules), 0, players=3)
    return got


@pytest.mark.parametrize("keys, name", [
    ('from: "left(w)"', "left"), ('from: "right(0, w)"', "right"), ("from: w", "from"),
    ('from: "w if x == none else 0"', "from"), ("rounds: w; from: 1", "rounds"),
])
@pytest.mark.parametrize("w", ["1.5", "true", "'a'"])
def test_a_seat_or_a_count_of_type_any_is_a_whole_number(tmp_path, keys, name, w):
    """1.5 (or true, or a text) as a first seat or a count of laps: a runtime error located in
    the ruleset, naming what needs whole numbers; before, seat 0.5 was asked a decision and the
    state written then did not reload."""
    decisions, _, kind, message, _ = outcome(game(tmp_path, w, keys))
    assert (decisions, kind) == (0, "GameError")
    assert "g.yaml:" in message.splitlines()[0]
    assert f"'{name}' needs whole numbers, got {'float' if w == '1.5' else 'bool' if w == 'true' else 'str'}" in message


@pytest.mark.parametrize("keys", ['from: "left(w)"', "from: w", 'rounds: w; from: "right(w, w)"'])
def test_a_whole_number_of_type_any_is_a_seat_and_a_count_as_a_typed_one(tmp_path, keys):
    """w = 4 of three seats: left(4) is seat 2, from: 4 goes round from seat 1 (as from: 4 typed
    does), rounds: 4 runs four laps; the state reloads after every decision."""
    rules = game(tmp_path, "4", keys)
    decisions, _, kind, state = outcome(rules)
    assert kind is None and decisions == (12 if "rounds" in keys else 3)
    rules.state_from_json(state)
    S = rules.new_game(3, seed=0)
    assert S.dec[0] == {'from: "left(w)"': 2, "from: w": 1}.get(keys, 0)   # (right(4, 4): (4 - 4) % 3)
    rules.state_from_json(S.to_json())


def test_a_repeat_of_type_any_counts_whole_passes(tmp_path):
    """repeat: w with w = 1.5 kept 1.5 passes in its frame (a state that did not reload): a
    located runtime error; w = 2 runs twice."""
    for w, want in (("1.5", "'repeat' needs whole numbers, got float"), ("2", None)):
        (tmp_path / w).mkdir()
        rules = load_text(tmp_path / w, chips_game("", game="passes", players=(3, 3)) + f'  w: {{start: "{w}"}}\n' + REPEAT % "w")
        got = outcome(rules)
        assert (got[2] is None and got[0] == 2) if want is None else (got[2] == "GameError" and want in got[3])


@pytest.mark.parametrize("keys", ['rounds: "x / 2"', '"3 / 2"'])
def test_a_count_that_may_have_a_fraction_is_refused_at_load(tmp_path, keys):
    """A count of type num (rounds: "x / 2") kept 1.5 laps too: an error at load, at the key."""
    body = TURNS % keys if keys.startswith("rounds") else REPEAT % keys
    with pytest.raises(interpreter.RulesetError, match=r"g\.yaml:\d+:\d+: error\[type\]: .*may have a fraction: divide with //"):
        load_text(tmp_path, chips_game("", game="halves", players=(3, 3)) + body)


REPEAT = """flow:
  - repeat: %s
    steps:
      - choose: {options: "[1, 2]", as: x, prompt: first, who: 0}
scoring:
  categories: {chips: "count(mine)"}
"""
