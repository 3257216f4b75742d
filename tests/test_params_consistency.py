"""A parameter's values are checked alike whether it declares a type or not: an undeclared list
holds elements of one type (its type is a list of them, as a declared ``type: list``'s is), and
an undeclared declaration's values keep within its ``min:``/``max:`` and ``choices:``. Its
``choices:`` are values it may take: each of its type, within its ``min:`` and ``max:``. Each
error is located at the value written."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.errors import RulesetError

from helpers import tiny_ruleset, write_ruleset

# the parameter's declaration is line 8, two spaces in: "  n: " then what each test writes
REST = 'params:\n  n: %s\nvars:\n  x: {type: int, start: 0}\nflow:\n  - set: {x: "x + count([params.n])"}\n'
GAME, GAME_2_3 = tiny_ruleset(REST), tiny_ruleset(REST, players=(2, 3))   # (games of 2, or of 2 and 3 players)


def error(tmp_path, decl: str, game: str = GAME):
    """The one error loading the game with n declared as ``decl`` gives."""
    with pytest.raises(RulesetError) as e:
        interpreter.load(str(write_ruleset(tmp_path, game % decl)))
    [d] = e.value.diagnostics
    return d


def at(decl: str, text: str) -> tuple:
    """(line, column) of ``text`` in the declaration written."""
    return 8, len("  n: ") + decl.index(text) + 1


@pytest.mark.parametrize("decl, message, bad", [
    ("[1, 'a']", "parameter 'n' is a list of int, got 'a' in it", "'a'"),
    ("{default: [[1], ['a']]}", "parameter 'n': n[1][0] is an int, got 'a'", "['a']"),
    ("{value: [{a: 1}, {a: x}]}", "parameter 'n': n[1]['a'] is an int, got 'x'", "{a: x}"),
    ("{by_players: {'2': [1, true]}}", "parameter 'n' is a list of int, got True in it", "true"),
])
def test_an_undeclared_list_mixing_types_is_an_error_at_its_element(tmp_path, decl, message, bad):
    d = error(tmp_path, decl)
    assert d.message == message and (d.loc.line, d.loc.col) == at(decl, bad), d
    assert d.hint == "a list's elements are of one type"


@pytest.mark.parametrize("decl, message, bad", [
    ("{by_players: {'2': 1}, default: a}", "parameter 'n' is int for other player counts, got 'a'", "a}"),
    ("{by_players: {'2': [1]}, default: ['a']}", "parameter 'n' is list[int] for other player counts, got ['a']", "['a']"),
])
def test_an_undeclared_parameter_of_two_types_for_two_player_counts_is_an_error(tmp_path, decl, message, bad):
    # (it loaded as of any type: params.n + 1 stopped the game of the count that had text)
    d = error(tmp_path, decl, GAME_2_3)
    assert d.message == message and (d.loc.line, d.loc.col) == at(decl, bad) and "one type" in d.hint, d
    for fine, typ in (("{by_players: {'2': 1}, default: 2.5}", "num"), ("{by_players: {'2': []}, default: [1]}", "list[int]"),
                      ("{by_players: {'2': 1, '3': 2}, default: a}", "int")):   # (a default no game reads)
        assert interpreter.load(str(write_ruleset(tmp_path, GAME_2_3 % fine))).names.params["n"] == typ


@pytest.mark.parametrize("decl, typ", [("[1, 2.5]", "list[num]"), ("[[], [1]]", "list[list[int]]"), ("[]", "list[any]"),
                                       ("{value: {a: 1, b: x}}", "map[any]")])
def test_an_undeclared_list_of_one_type_loads_as_a_list_of_it(tmp_path, decl, typ):
    assert interpreter.load(str(write_ruleset(tmp_path, GAME % decl))).names.params["n"] == typ


@pytest.mark.parametrize("decl, message, bad", [
    ("{type: int, default: 1, choices: [1, 'x']}", "choices: parameter 'n' expects int, got 'x'", "'x'"),
    ("{type: str, default: a, choices: [a, 2]}", "choices: parameter 'n' expects str, got 2", "2]"),
    ("{default: 1, choices: [1, '2']}", "choices: parameter 'n' expects int, got '2'", "'2'"),
    ("{type: list, default: [], choices: [[], [1, 'a']]}", "parameter 'n' is a list of int, got 'a' in it", "'a'"),
    ("{type: int, default: 2, min: 1, max: 3, choices: [2, 5]}", "choices: parameter 'n' must be between 1 and 3, got 5",
     "5]"),
    ("{type: num, default: 1, min: 0, choices: [1, 2.5, -1]}", "choices: parameter 'n' must be at least 0, got -1", "-1"),
])
def test_a_choice_of_another_type_or_out_of_bounds_is_an_error_at_it(tmp_path, decl, message, bad):
    d = error(tmp_path, decl)
    assert d.message == message and (d.loc.line, d.loc.col) == at(decl, bad), d


@pytest.mark.parametrize("decl, message, bad", [
    ("{default: 5, choices: [1, 2]}", "parameter 'n' is one of 1, 2, got 5", "5"),
    ("{default: 5, max: 3}", "parameter 'n' must be at most 3, got 5", "5"),
    ("{by_players: {'2': 0}, default: 1, min: 1}", "parameter 'n' must be at least 1, got 0", "0}"),
])
def test_an_undeclared_value_outside_its_bounds_or_choices_is_an_error_at_it(tmp_path, decl, message, bad):
    # (a declared type's values were checked so; an undeclared one's loaded and ran)
    d = error(tmp_path, decl)
    assert d.message == message and (d.loc.line, d.loc.col) == at(decl, bad), d


def test_choices_that_fit_load_and_bound_an_override(tmp_path):
    decl = "{type: int, default: 2, min: 1, max: 3, choices: [1, 2, 3]}"
    rules = interpreter.load(str(write_ruleset(tmp_path, GAME % decl)))
    assert rules.names.params["n"] == "int" and rules.names.param_spans["n"] == (1, 3)
