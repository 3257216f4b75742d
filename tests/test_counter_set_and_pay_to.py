"""`set` on counters, and where paid units go (`pay ... to:`)."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.errors import RulesetError
from interpreter.play.logs.redact import Redactor
from helpers import load_text, play_first

GAME = """
game: counters
players: {min: 2, max: 2}
counters:
  gold: {owner: player, start: 3}
  joker: {owner: player, start: 1}
  bank: {owner: none, start: 0}
  score: {owner: player, start: 5}
  secret: {owner: player, start: 0, visible: owner}
vars:
  thief: {type: player, start: 1}
flow:
  - turns:
      steps:
        - pay: {costs: {gold: 2}, any: 1, from: [gold, joker], joker: joker%s}
        - set: {score: "score + bank", "score[thief]": "score[thief] * 2", secret: 7}
scoring:
  categories: {score: score}
"""


def load(tmp_path, pay_to=", to: bank"):
    return load_text(tmp_path, GAME % pay_to, "g.yaml")


def play(rules):
    S = rules.new_game(2, seed=1, record=True)
    play_first(S)   # gold for every unit
    return S


def test_paid_units_go_to_the_supply_and_set_writes_counters(tmp_path):
    S = play(load(tmp_path))
    assert S.c["gold"] == [0, 0] and S.c["bank"] == 6
    # seat 0: score 5 + bank 3 = 8, then score[thief=1] 5 * 2 = 10; seat 1: 10 + bank 6 = 16, then * 2
    assert S.c["score"] == [8, 32] and S.c["secret"] == [7, 7]
    sets = [e for e in S.ev if e["ev"] == "set_counter"]
    assert sets[:2] == [{"ev": "set_counter", "counter": "score", "owner": 0, "who": 0, "value": 8},
                        {"ev": "set_counter", "counter": "score", "owner": 1, "who": 0, "value": 10}]
    assert all(e["to"] == "bank" for e in S.ev if e["ev"] == "pay")


def test_without_to_paid_units_leave_the_game(tmp_path):
    S = play(load(tmp_path, ""))
    assert S.c["bank"] == 0 and S.c["gold"] == [0, 0] and S.c["score"] == [5, 20]
    assert all("to" not in e for e in S.ev if e["ev"] == "pay")


def test_a_per_counter_destination(tmp_path):
    S = play(load(tmp_path, ", to: {joker: bank}"))
    assert S.c["bank"] == 0 and S.c["joker"] == [1, 1]   # gold paid everything: nothing went to the bank


def test_a_hidden_counter_s_new_value_is_not_told(tmp_path):
    # a change of a counter instance the seat cannot see is not told at all (play/logs/redact.py):
    # that it changed could tell of the hidden branch that changed it
    S = play(load(tmp_path))
    red = Redactor(S.rules, 1)
    mine = [red.event(e) for e in S.ev if e["ev"] == "set_counter" and e["counter"] == "secret"]
    assert mine[0] is None
    assert mine[1]["value"] == 7   # seat 1's own


@pytest.mark.parametrize("change,message", [
    (", to: score", "paid units go to a supply: counter 'score' must be owned by none"),
    (", to: {silver: bank}", "unknown paying counter 'silver'"),
    (", to: vault", "unknown counter 'vault'"),
])
def test_a_bad_destination_is_a_located_error(tmp_path, change, message):
    with pytest.raises(RulesetError) as info:
        load(tmp_path, change)
    assert message in info.value.message


def test_set_on_an_unknown_name_suggests_variables_and_counters(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text((GAME % "").replace("secret: 7}", "secrte: 7}"))
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    d = info.value.diagnostics[0]
    assert d.message == "unknown variable or counter 'secrte'" and d.hint == "did you mean 'secret'?"


def test_set_of_a_counter_is_a_whole_number(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text((GAME % "").replace("secret: 7}", "secret: \"'x'\"}"))
    with pytest.raises(RulesetError):
        interpreter.load(path)


def test_a_supply_paid_into_past_64_bits_is_a_located_error(tmp_path):
    """A paid unit added to a supply at 2^63 - 1 (as a gain's result is held: mechanics/counters.py
    bounded): the runtime error of a whole number beyond 64 bits, located at the pay, not a state
    that does not reload."""
    text = (GAME % ", to: bank").replace("bank: {owner: none, start: 0}", "bank: {owner: none, start: 9223372036854775807}")
    rules = load_text(tmp_path, text.replace('"score + bank"', "score"), "g.yaml")   # (the pay alone adds to it)
    with pytest.raises(interpreter.GameError, match=r"g\.yaml:\d+:\d+: .*a whole number beyond 64 bits") as e:
        play(rules)
    assert "- pay:" in str(e.value)
