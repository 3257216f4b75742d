import json
import pickle

import pytest

from interpreter.errors import (BudgetExceeded, Diagnostic, GameError, Location, ReplayError,
                                RulebookError, RulesetError, UsageError, did_you_mean, digits, figure,
                                register_source, source_line, unknown_name_message)


@pytest.fixture(autouse=True)
def source():
    register_source("t.yaml", "game: demo\nscore: \"vault * 2 + cuont\"\n\tx: 1\n")


def test_location_str():
    assert str(Location("a/b.yaml", 3, 14)) == "a/b.yaml:3:14"


def test_source_line_lookup():
    assert source_line("t.yaml", 1) == "game: demo"
    assert source_line("t.yaml", 99) is None
    assert source_line("unknown.yaml", 1) is None


def test_format_with_caret_and_hint():
    d = Diagnostic("unknown name 'cuont'", Location("t.yaml", 2, 21), "unknown-name",
                   hint="did you mean 'count'?", span=5)
    assert d.format() == (
        "t.yaml:2:21: error[unknown-name]: unknown name 'cuont'\n"
        '    score: "vault * 2 + cuont"\n'
        "                        ^^^^^\n"
        "  hint: did you mean 'count'?")


def test_format_keeps_tabs_so_caret_aligns():
    d = Diagnostic("bad", Location("t.yaml", 3, 2), "schema")
    assert d.format().splitlines()[1:] == ["    \tx: 1", "    \t^"]


def test_format_writes_a_files_control_characters_escaped_with_the_caret_under_its_column():
    # a source line, message, hint or path from a file reached the terminal raw: an escape
    # sequence in a ruleset cleared the screen; escaped, the caret is counted on the text shown
    register_source("e\x1b.yaml", "a\x1b[2J\tb: \x07x")
    d = Diagnostic("unknown key 'b\x1b'", Location("e\x1b.yaml", 1, 10), "unknown-key", hint="h\x07", span=2)
    out = d.format()
    assert "\x1b" not in out and "\x07" not in out, out
    head, quoted, caret, hint = out.split("\n")
    assert head == "e\\x1b.yaml:1:10: error[unknown-key]: unknown key 'b\\x1b'" and hint == "  hint: h\\x07"
    assert quoted == "    a\\x1b[2J\tb: \\x07x" and caret == "    " + " " * 8 + "\t" + "   ^^^^^"
    assert quoted[len(caret) - 5:] == "\\x07x"   # (the caret under the escaped text)


def test_format_caret_clamped_to_line_end():
    d = Diagnostic("bad", Location("t.yaml", 1, 7), "type", span=50)
    assert d.format().splitlines()[2] == "          ^^^^"


def test_format_without_known_source_omits_the_quote():
    d = Diagnostic("oops", Location("nowhere.yaml", 4, 2), "type", severity="warning")
    assert d.format() == "nowhere.yaml:4:2: warning[type]: oops"


def test_format_without_location():
    assert Diagnostic("no such file", code="io", hint="check the path").format() == (
        "error[io]: no such file\n  hint: check the path")


def test_to_dict_is_json_ready():
    d = Diagnostic("m", Location("t.yaml", 1, 2), "limit", hint="h")
    assert json.loads(json.dumps(d.to_dict())) == {
        "path": "t.yaml", "line": 1, "col": 2, "severity": "error",
        "code": "limit", "message": "m", "hint": "h"}
    assert Diagnostic("m").to_dict()["line"] is None


def test_error_from_message():
    err = RulesetError("bad thing", Location("t.yaml", 1, 1), code="schema", hint="fix it")
    assert err.diagnostics == [Diagnostic("bad thing", Location("t.yaml", 1, 1), "schema", hint="fix it")]
    assert str(err).startswith("t.yaml:1:1: error[schema]: bad thing\n    game: demo\n    ^")
    assert err.loc == Location("t.yaml", 1, 1) and err.message == "bad thing"


def test_error_from_diagnostics_joins_all():
    diags = [Diagnostic("one", code="a"), Diagnostic("two", code="b")]
    err = RulesetError(diags)
    assert err.diagnostics == diags
    assert str(err) == "error[a]: one\nerror[b]: two"


def test_default_codes_and_hierarchy():
    assert RulesetError("x").diagnostics[0].code == "ruleset"
    assert UsageError("x").diagnostics[0].code == "usage"
    assert issubclass(BudgetExceeded, GameError) and issubclass(GameError, RulebookError)
    assert issubclass(ReplayError, RulebookError) and not issubclass(ReplayError, GameError)
    assert (RulesetError.exit_code, UsageError.exit_code) == (1, 2)


def test_error_pickles_with_its_locations():
    err = GameError("illegal action", Location("t.yaml", 2, 1), code="game")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is GameError and back.diagnostics == err.diagnostics and str(back) == str(err)


def test_did_you_mean():
    assert did_you_mean("fllow", ["flow", "phases", "scoring"]) == "flow"
    assert did_you_mean("zzz", ["flow", "phases"]) is None
    assert did_you_mean("x", []) is None


def test_unknown_name_message():
    assert unknown_name_message("zone", "hnad", ["hand", "taken"]) == ("unknown zone 'hnad'", "did you mean 'hand'?")
    assert unknown_name_message("zone", "qq", ["hand"]) == ("unknown zone 'qq'", None)


# ---------------------------------------------------------------------- the game API's inputs
def test_new_game_refuses_what_is_not_a_game_with_a_usage_error():
    import interpreter
    rules = interpreter.load(interpreter.ruleset_path("diams"))
    for args, words in [(("3",), "whole number"), ((True,), "whole number"), ((3, "x"), "seed"),
                        ((3, 1.5), "seed"), ((3, 0, {"nope": 1}), "unknown game option 'nope'"),
                        ((3, 0, {"params": [1]}), "maps parameter names"), ((3, 0, [1]), "mapping")]:
        with pytest.raises(UsageError, match=words):
            rules.new_game(*args)
    assert rules.new_game(3, 7, {"params": {"rounds": 1}}).p["rounds"] == 1


def test_state_from_json_refuses_what_is_not_a_state_of_this_ruleset():
    import interpreter
    rules = interpreter.load(interpreter.ruleset_path("diams"))
    S = rules.new_game(3, seed=1)
    assert rules.state_from_json(S.to_json()).to_json() == S.to_json()
    saved = json.loads(S.to_json())
    for text, words in [("{not json", "not JSON"), ("[1, 2]", "expected the JSON object"),
                        (json.dumps({"format": 1, "ruleset": "diams", "hash": rules.hash}), "not a saved state"),
                        (json.dumps({**saved, "hash": "0" * 64}), "another version"),
                        (json.dumps({**saved, "ruleset": "other"}), "belongs to ruleset 'other'")]:
        with pytest.raises(GameError, match=words):
            rules.state_from_json(text)


def test_observation_of_a_seat_that_does_not_exist_is_an_error():
    import interpreter
    S = interpreter.load(interpreter.ruleset_path("diams")).new_game(3, seed=1)
    for seat in (3, -1, "0", True):
        with pytest.raises(GameError) as info:
            S.observation(seat)
        assert info.value.message == f"no seat {seat!r} in a game of 3 players (seats 0..2, or None for a spectator)"
    public, mine = S.observation(None), S.observation(0)
    hands = S.z["hand"]
    assert public["zones"]["hand"] == [len(h) for h in hands]   # a spectator counts the cards of each hand
    assert mine["zones"]["hand"] == [[S.rules.card_labels[c] for c in hands[0]], len(hands[1]), len(hands[2])]
    assert all(hands) and mine["zones"]["hand"][0] != len(hands[0])   # its owner sees its own


@pytest.mark.parametrize("n, bound, written", [
    (12345, "", "12,345"), (10_000.5, "", "10,000.5"), (10 ** 15, "at least", "at least 1,000,000,000,000,000"),
    (-3, "at most", "at most -3"),
    (10 ** 5000, "", "more than 10^15"), (10 ** 5000, "at least", "more than 10^15"),
    (-10 ** 5000, "at most", "less than -10^15"), (10 ** 40, "at most", "at most about 10^40")],
    ids=lambda x: x if isinstance(x, str) else "n")   # (no id of 5,000 digits: Python writes none)
def test_a_figure_past_10_to_the_15_is_written_short(n, bound, written):
    """A number a ruleset makes can have more digits than Python writes (4,300: ValueError, an
    internal error in a message), and more than anyone reads: past 10^15 it is written as past it."""
    assert figure(n, bound) == written


@pytest.mark.parametrize("text, whole", [("5", True), ("-5", True), ("--5", False), ("-", False), ("", False),
                                         ("5-", False), ("-²", False), (" -5", False), (5, False)])
def test_a_whole_number_written_has_one_minus_at_most(text, whole):
    """digits(text, signed=True): what int() reads of a text from outside (a switch's case key, a
    scenario's seed, a viewer's position): '--5' passed the test of its digits after every minus
    and int() raised a ValueError, an internal error in place of a located one."""
    assert digits(text, signed=True) is whole
    if whole:
        assert int(text) == int(text.lstrip("-")) * (-1 if text[0] == "-" else 1)
