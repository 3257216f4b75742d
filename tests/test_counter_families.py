"""Counter families (counters: {NAME: {keys: [...]}}): one counter per key, read as gems[k],
gems[p][k], p.gems[k], the whole family as gems; every effect, pay, reset and the checks
work with them (docs/reference.md "Counters and variables")."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.errors import RulesetError
from interpreter.expr import Compiler
from interpreter.expr.parser import ExprError
from interpreter.expr.runtime import ExprRuntimeError
from helpers import load_text

GAME = """
game: gems
players: {min: 2, max: 3}
params:
  colours: [red, green, blue]
counters:
  gems: {owner: player, keys: params.colours, start: 1, visible: owner}
  bank: {owner: none, keys: [red, green, blue], start: 4}
vars:
  c: str
flow:
  - turns:
      rounds: 2
      steps:
        - choose: {options: "params.colours where bank[it] > 0", as: c, prompt: take}
        - transfer: {from: "bank[c]", to: "gems[c]", amount: 1}
        - if: "gems['red'] > 2"
          then: [{reset: [gems]}, {set: {"gems['blue']": 9}}]
        - if: "gems['green'] > 0"
          then: [{pay: {costs: {gems.green: 1}, to: bank.green}}]
%s
scoring:
  categories: {gems: "sum(gems)", red: "gems['red']", blue: "me.gems['blue']", green: "gems[me]['green']"}
"""


def load(tmp_path, extra=""):
    return load_text(tmp_path, GAME % extra, "g.yaml")


@pytest.fixture
def rules(tmp_path):
    return load(tmp_path)


def test_each_key_is_a_counter_and_every_form_reads_it(rules):
    S = rules.new_game(2, seed=1)
    assert {k: v for k, v in S.c.items()} == {
        "gems.red": [1, 1], "gems.green": [1, 1], "gems.blue": [1, 1], "bank.red": 4, "bank.green": 4, "bank.blue": 4}
    S.c["gems.blue"] = [5, 7]
    c = Compiler(rules.names)
    values = {t: c.compile(t, has_me=True).fn(S, 1, None) for t in
              ("gems", "gems['blue']", "gems[0]", "gems[0]['blue']", "(0).gems['blue']", "sum(gems)",
               "bank", "bank['red']", "gems[c]")
              if t != "gems[c]"}
    assert values == {"gems": [1, 1, 7], "gems['blue']": 7, "gems[0]": [1, 1, 5], "gems[0]['blue']": 5,
                      "(0).gems['blue']": 5, "sum(gems)": 9, "bank": [4, 4, 4], "bank['red']": 4}


def test_keys_lists_a_family_s_keys_and_iterates_over_it(rules):
    S = rules.new_game(2, seed=1)
    S.c["gems.green"] = [4, 0]
    c = Compiler(rules.names)
    assert c.compile("keys(gems)", has_me=True).fn(S, 0, None) == ["red", "green", "blue"]
    assert c.compile("map(keys(gems), to: gems[it] * 10)", has_me=True).fn(S, 0, None) == [10, 40, 10]
    assert c.compile("first(keys(gems) where gems[it] > 1)", has_me=True).fn(S, 0, None) == "green"
    with pytest.raises(ExprError, match=r"^keys\(\) takes a counter family \(counters: \{NAME: \{keys: \[\.\.\.\]\}\}\) "
                       r"or a map parameter"):
        c.compile("keys(params.colours)", has_me=True)


def test_effects_pay_and_reset_change_the_family(rules):
    S = rules.new_game(2, seed=1, record=True)
    S.apply("red")                      # seat 0: bank.red -> gems.red (2), then pays a green to the bank
    assert S.c["gems.red"] == [2, 1] and S.c["bank.red"] == 3
    assert S.c["gems.green"] == [0, 1] and S.c["bank.green"] == 5
    S.apply("red")                      # seat 1 takes a red; seat 0's second turn: a third red resets
    S.apply("red")
    assert S.c["gems.red"][0] == 1 and S.c["gems.blue"][0] == 9   # reset to the start, then set
    events = [e for e in S.ev if e["ev"] in ("transfer", "set_counter", "pay")]
    assert {"ev": "transfer", "from": "bank.red", "to": "gems.red", "to_owner": 0, "who": 0, "amount": 1} in events


def test_a_computed_key_the_family_does_not_have_is_a_runtime_error(tmp_path):
    rules = load(tmp_path)
    S = rules.new_game(2, seed=1)
    S.v["c"] = "purple"
    c = Compiler(rules.names)
    with pytest.raises(ExprRuntimeError, match=r"^'purple' is not a key of gems \(its keys: red, green, blue\)$"):
        c.compile("gems[c]", has_me=True).fn(S, 0, None)


@pytest.mark.parametrize("text,message", [
    ("gems['rde']", "'rde' is not a key of gems (its keys: red, green, blue)"),
    ("gems[1.5]", "'gems[...]' needs a key (a str) or an owner"),
])
def test_a_wrong_key_is_a_located_load_error(tmp_path, text, message):
    with pytest.raises(RulesetError) as info:
        load(tmp_path, f"end_when: [\"{text} > 0\"]")
    assert message in info.value.message
    if "rde" in text:
        assert info.value.diagnostics[0].hint == "did you mean 'red'?"


def refused(tmp_path, old: str, new: str):
    """The error of loading GAME with ``old`` written as ``new`` (pytest's ExceptionInfo)."""
    path = tmp_path / "g.yaml"
    path.write_text((GAME % "").replace(old, new))
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    return info


def test_a_family_where_one_counter_is_needed_says_so(tmp_path):
    info = refused(tmp_path, 'to: "gems[c]"', "to: gems")
    assert "'gems' is a family of counters: name one, gems[KEY] (its keys: red, green, blue)" in info.value.message


def test_an_end_condition_on_a_family_counter_is_checked_after_a_computed_key_changes_it(tmp_path):
    """A check reading bank['green'] must run after transfer from bank[c] (a computed key: the
    engine cannot tell statically which counter changed)."""
    from test_flowgen import lockstep
    rules = load(tmp_path, "end_when: [\"bank['green'] < 4\"]")
    S = rules.new_game(2, seed=1)
    S.apply("green")
    assert S.is_terminal()          # the green taken ends the game at once
    for seed in range(3):
        lockstep(rules, 2, seed)


def test_the_hidden_family_is_hidden_in_observations(rules):
    S = rules.new_game(2, seed=1)
    seen = S.observation(1)["counters"]
    assert seen["gems.red"] == [None, 1] and seen["bank.red"] == 4


@pytest.mark.parametrize("keys,message", [
    ("params.nope", "unknown parameter 'nope'"),
    ("[red, red]", "keys names a key twice"),
    ("[1, 2]", "expected string"),            # the schema
    ("[a-b, c]", "keys is a list of names"),
])
def test_bad_keys_are_refused(tmp_path, keys, message):
    info = refused(tmp_path, "keys: [red, green, blue]", f"keys: {keys}")
    assert any(message in d.message for d in info.value.diagnostics)


def test_a_whole_family_where_an_effect_needs_one_counter_is_a_located_error(tmp_path):
    info = refused(tmp_path, 'to: "gems[c]"', 'to: "gems[0]"')
    assert "'gems[...]' here names one counter of the family: gems[KEY] or gems[p][KEY]" in info.value.message


def test_a_key_of_no_known_type_is_checked_when_read(tmp_path):
    """Found by benchmarks/fuzz.py (seed 12): a card attribute whose values are of mixed types
    used as a key compiled as an owner, and the effect's Python was refused (a crash); it is a
    key, checked when the effect runs."""
    rules = load_text(tmp_path, (GAME % "").replace("vars:\n  c: str", "vars:\n  c: any"), "g.yaml")
    S = rules.new_game(2, seed=1)
    S.apply("red")
    assert S.c["gems.red"][0] >= 1


def test_a_shared_family_read_inside_a_filter_over_players_is_the_shared_one(tmp_path):
    """Inside ``players where ...`` a bare name is first the element's own value; a family
    nobody owns (``bank``) is no player's, so it is the shared family, the same for every seat."""
    r = load(tmp_path, "invariants: ['count(players where sum(bank) == 12) == count(players)']\n")
    S = r.new_game(3, 1)
    assert all(inv(S, None, None) for inv, _, _ in r.invariants)
    S.c["bank.red"] = 0   # (4 + 4 + 4 at the start; now 8)
    assert not any(inv(S, None, None) for inv, _, _ in r.invariants)
