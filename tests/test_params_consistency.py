"""A parameter's values are checked alike whether it declares a type or not: an undeclared list
holds elements of one type (its type is a list of them, as a declared ``type: list``'s is), and
an undeclared declaration's values keep within its ``min:``/``max:`` and ``choices:``. Its
``choices:`` are values it may take: of one type, which an undeclared parameter's type joins
(1 and 1.5: a num), each a value an override may give it (of its type, within its ``min:`` and
``max:``, a map with the keys of the map it replaces). An override (``--set``, a variant's value,
a saved state's) holds lists of one type, as a ruleset's literal does. Each error is located at
the value written (a variant's, at the variant), one error for one fault."""
from __future__ import annotations

import json

import pytest
import yaml

import interpreter
from interpreter.errors import GameError, RulesetError, UsageError
from interpreter.tools.cli import main

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


# a variant of the game above, v1, giving n the value (or the declaration to merge) written: line
# 15, the value at column 17
VARIANT = "variants:\n  v1:\n    params: {n: %s}\n"


def load(tmp_path, text: str, variant: str | None = None):
    return interpreter.load(str(write_ruleset(tmp_path, text)), variant=variant)


@pytest.mark.parametrize("decl, typ", [
    ("{default: 1.5, choices: [1, 1.5, 2]}", "num"),
    ("{default: 1, choices: [1, 1.5, 2]}", "num"),
    ("{default: 2, min: 1, max: 3.5, choices: [1, 2, 3.5]}", "num"),
    ("{default: [1], choices: [[1], [2.5], []]}", "list[num]"),
])
def test_an_undeclared_parameters_type_joins_its_choices(tmp_path, decl, typ):
    # (it was its values' alone: a choice of 1.5 beside a default of 1 was refused, 'expects int')
    rules = load(tmp_path, GAME % decl)
    assert rules.names.params["n"] == typ
    for choice in yaml.safe_load(decl)["choices"]:
        assert rules.resolve_params(2, {"n": choice})["n"] == choice


def test_a_variants_value_among_choices_of_a_wider_type_loads(tmp_path):
    rules = load(tmp_path, GAME % "{default: 1.5, choices: [1, 1.5, 2]}" + VARIANT % "2", "v1")
    assert rules.names.params["n"] == "num" and rules.resolve_params(2, {})["n"] == 2
    assert rules.resolve_params(2, {"n": 1.5})["n"] == 1.5


@pytest.mark.parametrize("value, message, bad", [
    ("{default: a}", "parameter 'n' is one of 1, 2, got 'a'", "a}"),   # (merged into the declaration)
    ("2.5", "parameter 'n' expects int, got 2.5", "2.5"),               # (a bare value)
    ("3", "parameter 'n' is one of 1, 2, got 3", "3"),
])
def test_an_error_a_variants_value_causes_is_at_the_variant(tmp_path, value, message, bad):
    with pytest.raises(RulesetError) as e:
        load(tmp_path, GAME % "{default: 1, choices: [1, 2]}" + VARIANT % value, "v1")
    [d] = e.value.diagnostics
    assert d.message == message and (d.loc.line, d.loc.col) == (15, 17 + value.index(bad)), d


@pytest.mark.parametrize("value, message, literal", [
    ([1, "a"], "parameter 'n' is a list of int, got 'a' in it", "[1, a]"),
    ([[1], ["a"]], "parameter 'n': n[1][0] is an int, got 'a'", "[[1], [a]]"),
])
def test_an_override_mixing_types_is_refused_as_the_rulesets_literal_is(tmp_path, capsys, value, message, literal):
    # (a list parameter's type is a list of any where its value is []: the override was taken,
    # and the game stopped at the first '+' on its elements)
    assert error(tmp_path, "{type: list, default: %s}" % literal).message == message
    path = write_ruleset(tmp_path, GAME % "{type: list, default: []}")
    rules = interpreter.load(str(path))
    with pytest.raises(UsageError) as e:
        rules.new_game(2, seed=0, options={"params": {"n": value}})
    assert e.value.message == message
    saved = json.loads(rules.new_game(2, seed=0).to_json())
    with pytest.raises(GameError) as g:
        rules.state_from_json(json.dumps({**saved, "params": {"n": value}}))
    assert g.value.message.endswith(f"params, options: {message}"), g.value.message
    assert main(["play", str(path), "-p", "2", "--set", f"n={json.dumps(value)}"]) == 2
    assert message in capsys.readouterr().err
    with pytest.raises(RulesetError) as r:   # a variant's value, at the variant
        load(tmp_path, GAME % "{type: list, default: []}" + VARIANT % literal, "v1")
    [d] = r.value.diagnostics
    assert d.message == message and (d.loc.line, d.loc.col) == (15, 17), d


@pytest.mark.parametrize("decl, message, bad", [
    ("{default: [], choices: [[], [1], [a]]}", "choices: parameter 'n' is a list of int, got 'a' in it", "[a]"),
    ("{type: list, default: [], choices: [[1], [a]]}", "choices: parameter 'n' is a list of int, got 'a' in it", "[a]"),
    ("{default: null, choices: [null, 1, a]}", "choices: parameter 'n' expects int, got 'a'", "a]"),
    ("{default: {a: null}, choices: [{a: 1}, {a: x}]}", "choices: parameter 'n': n['a'] is an int, got 'x'", "{a: x}"),
])
def test_choices_of_two_types_are_an_error_at_the_first_that_does_not_fit(tmp_path, decl, message, bad):
    # (as values for two player counts are: these loaded, of the type any or a list of any)
    d = error(tmp_path, decl)
    assert d.message == message and (d.loc.line, d.loc.col) == at(decl, bad), d
    assert d.hint == "a parameter's choices are of one type"


def test_a_map_choice_no_game_can_be_given_is_an_error_at_it(tmp_path):
    # (it loaded, and --set refused it: a map has the keys of the map it replaces)
    decl = "{default: {a: 1}, choices: [{a: 1}, {a: 2, b: 3}]}"
    d = error(tmp_path, decl)
    assert d.message == "choices: parameter 'n' is a map with the keys a, got a, b", d
    assert (d.loc.line, d.loc.col) == at(decl, "{a: 2"), d
    # a choice that some game's map fits loads, and is given in those games
    rules = load(tmp_path, GAME_2_3 % "{by_players: {'2': {a: 1}}, default: {b: 2}, choices: [{a: 1}, {b: 2}, {a: 3}]}")
    assert rules.resolve_params(2, {"n": {"a": 3}})["n"] == {"a": 3}
    with pytest.raises(UsageError, match="is a map with the keys b, got a"):
        rules.resolve_params(3, {"n": {"a": 3}})


@pytest.mark.parametrize("decl, message, bad", [
    ("{default: [1, a], choices: [[1]]}", "parameter 'n' is a list of int, got 'a' in it", "a]"),   # (not 'is one of' first)
    ("{default: a, choices: [1, 2]}", "parameter 'n' is one of 1, 2, got 'a'", "a,"),   # (not 'choices: expects str')
    ("{type: str, default: x, min: 1}", "min: bounds a number parameter, and 'n' is not a number", "1}"),
    ("{default: true, choices: [1, 2]}", "parameter 'n' is one of 1, 2, got True", "true"),   # (true == 1 in Python)
    ("{default: 1, choices: []}", "choices: lists no value (a parameter with choices: takes one of them)", "[]"),
])
def test_one_fault_is_one_error(tmp_path, decl, message, bad):
    d = error(tmp_path, decl)   # (the one error)
    assert d.message == message and (d.loc.line, d.loc.col) == at(decl, bad), d


@pytest.mark.parametrize("decl", [
    "{default: 1, choices: [null, 1]}", "{default: 1, min: 0, choices: [null, 1]}", "{type: int, default: 1, choices: [null, 1]}",
    "{default: null, choices: [null, 1]}", "{default: null, min: 0, choices: [null, 1]}", "{type: int, default: null, min: 0}",
    "{default: null, min: 0}"])
def test_a_null_loads_alike_bounded_or_not_and_is_given_where_a_value_or_a_choice_is_null(tmp_path, decl):
    # (with min:, a null choice was refused, 'expects a number', and without it loaded; --set n=null
    # was refused over a value 1 though a choice, and over a null default with min:)
    rules = load(tmp_path, GAME % decl)
    assert rules.names.params["n"] in ("int", "any")
    assert rules.resolve_params(2, {"n": None})["n"] is None and rules.resolve_params(2, {"n": 1})["n"] == 1
    with pytest.raises(UsageError, match="at least 0" if "min" in decl else "is one of"):
        rules.resolve_params(2, {"n": -1})


def test_a_null_is_given_only_over_a_null_where_no_choice_is_null(tmp_path):
    rules = load(tmp_path, GAME % "{by_players: {'2': null}, default: 1}")   # (a game of 2 players)
    assert rules.resolve_params(2, {"n": None})["n"] is None
    with pytest.raises(UsageError, match="parameter 'n' expects int, got None"):
        load(tmp_path, GAME % "{default: 1}").resolve_params(2, {"n": None})
    d = error(tmp_path, "{type: bool, default: true, choices: [true, null, 1]}")
    assert d.message == "choices: parameter 'n' expects bool, got 1", d


@pytest.mark.parametrize("decl, value, message, hint", [
    ("{by_players: {'3': false}, default: true}", "{default: 0}", "parameter 'n' is bool for other player counts, got 0",
     "a parameter has one type in every game"),
    ("{default: 1, max: 1}", "{default: []}", "parameter 'n' expects a number, got []", "its max: bounds a number"),
])
def test_a_variants_value_at_odds_with_the_rulesets_declaration_is_the_error(tmp_path, decl, value, message, hint):
    # (they were errors at the ruleset's by_players: entry for 3 players, 'is int ... got False',
    # and at its max:, 'max: bounds a number parameter'); a variant file's alike
    overlay = value.replace("{default: ", "")[:-1]
    with pytest.raises(RulesetError) as e:
        load(tmp_path, GAME_2_3 % decl + VARIANT % value, "v1")
    [d] = e.value.diagnostics
    assert (d.message, d.hint) == (message, hint) and (d.loc.line, d.loc.col) == (15, 17 + value.index(overlay)), d
    path = write_ruleset(tmp_path, GAME_2_3 % decl)
    file = write_ruleset(tmp_path, "extends: g.yaml\nparams:\n  n: %s\n" % value, "v.yaml")
    with pytest.raises(RulesetError) as e:
        interpreter.load(str(path), variant=str(file))
    [d] = e.value.diagnostics
    assert d.message == message and (d.loc.path, d.loc.line, d.loc.col) == (str(file), 3, 6 + value.index(overlay)), d
    assert interpreter.load(str(path)).names.params["n"] in ("bool", "int")   # (the ruleset alone loads)


@pytest.mark.parametrize("decl", ["{type: int, default: 1, by_players: {'²': 3}}", "{default: 1, by_players: {'2': 1, '²': 3}}"])
def test_a_by_players_key_of_digits_int_cannot_read_is_warned_of_as_no_player_count(tmp_path, decl):
    # (str.isdigit() takes '²', which int() refuses: a ValueError out of the load, as a traceback)
    rules = interpreter.load(str(write_ruleset(tmp_path, GAME_2_3 % decl)))
    [w] = [w for w in rules.warnings if w.code == "params"]
    assert w.message == "parameter 'n': no game of this ruleset has ² players (its games: 2 to 3)"
    assert (w.loc.line, w.loc.col) == at(decl, "'²'")
