"""A seat or a count the flow keeps, made of a value of type any, held to a whole number.

A turns' ``from:`` and ``rounds:``, a repeat's and a pass's count and ``left()``'s and
``right()``'s arguments are whole numbers when their type is known (checked at load); of type
any (or made of one), a fraction or a truth is a located runtime error where it is computed,
at the step that computes it, in the generated module and its plain reference alike: no seat
0.5 asked a decision, no 1.5 laps kept in a frame, so every state a game reaches reloads. A
whole number goes on as a typed one does. A tricks' ``leader:`` is a seat as a step's ``who:`` is.
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
    assert "g.yaml:14:5: error[runtime]: in turns: " in message.splitlines()[0]   # (the turns: not the steps entering it)
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
        # (located at the repeat, as its count's error was before it was checked, not at the flow's steps)
        assert want is None or f"g.yaml:14:5: error[runtime]: in repeat: {want}" in got[3].splitlines()[0]


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


TRICKS = """
game: own
players: {min: 2, max: 2}
vars:
  loose: {type: any, start: "%s"}
components:
  chip: {attributes: {n: 1..12, s: 1..2}, label: "c{n}_{s}"}
zones:
  deck: {visible: none, start: [chip]}
  hand: {owner: player, visible: owner}
  table: {}
  won: {owner: player}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 3}
flow:
  - %s
scoring:
  categories: {n: "count(won[me])"}
"""
PASS = 'pass: {from: hand, to: "left(me)", count: "loose"}'
LEAD = 'tricks: {players: players, hand: hand, table: table, collect: won, follow: s, rank: n, leader: "loose"}'


@pytest.mark.parametrize("step, loose, want", [
    (PASS, "1.0", "in pass: 'count' needs whole numbers, got float"), (PASS, "true", "in pass: 'count' needs whole numbers, got bool"),
    (LEAD, "true", "in tricks: there is no player True"), (LEAD, "1.0", "in tricks: there is no player 1.0"),
    (LEAD, "-1", "in tricks: there is no player -1"), (PASS, "2", None), (LEAD, "1", None),
], ids=["count-1.0", "count-true", "leader-true", "leader-1.0", "leader--1", "count-2", "leader-1"])
def test_a_pass_count_and_a_trick_leader_of_type_any_are_a_count_and_a_seat(tmp_path, step, loose, want):
    """A pass's count: and a tricks' leader: of type any are held as a repeat's count and a step's
    who: are: before, count 1.0 or true and leader -1 or true were kept in the step's frame (a
    state that did not reload) and leader 1.0 failed on a message naming no key. A located error
    at the step, in the module and the reference alike; a whole number, a seat, plays on and
    reloads (seat 1 leads, two cards each given)."""
    r = load_text(tmp_path, TRICKS % (loose, step))
    for rules in (r, reference(r)):
        if want is not None:
            with pytest.raises(interpreter.GameError, match=rf"g\.yaml:17:5: error\[runtime\]: {want}"):
                rules.new_game(2, seed=0)
            continue
        S = rules.new_game(2, seed=0)
        assert S.stack[-1][-1] == 2 if step == PASS else S.dec[0] == 1
        r.state_from_json(S.to_json())
