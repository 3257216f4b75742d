"""The four seed games' parameters are declared options (type, bounds, doc): a value out of range
given with --set is refused before the game (exit 2, naming the parameter and its bounds), and the
combinations the rules cannot play (a deal larger than the deck, a track longer than its tables...)
are refused by their ``requires:`` entry, at its place in the ruleset, while the defaults of every
player count and variant start."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.errors import Refused, RulesetError, UsageError

from helpers import ONE_DECISION, tiny_ruleset

SEEDS = ("diamonds", "diams", "mister_diamond", "diamonds_club")

# (game, players, variant, --set value, what the error says)
OUT_OF_RANGE = [
    ("diamonds", 4, None, "rounds=-3", "parameter 'rounds' must be between 1 and 20, got -3"),
    ("diamonds", 4, None, "rounds=21", "parameter 'rounds' must be between 1 and 20, got 21"),
    ("diamonds", 3, None, "hand_size=31", "parameter 'hand_size' must be between 0 and 30, got 31"),
    ("diamonds", 2, "two_player", "plays_per_trick=0", "parameter 'plays_per_trick' must be between 1 and 30, got 0"),
    ("diamonds", 4, "teams", "start_showroom=-1", "parameter 'start_showroom' must be at least 0, got -1"),
    ("diamonds", 4, None, "hand_size=2.5", "parameter 'hand_size' expects int, got 2.5"),
    ("diams", 3, None, "rounds=0", "parameter 'rounds' must be between 1 and 10, got 0"),
    ("diams", 3, None, "market_size=0", "parameter 'market_size' must be between 1 and 53, got 0"),
    ("diams", 3, None, "hand_limit=0", "parameter 'hand_limit' must be between 1 and 53, got 0"),
    ("diams", 3, "closing_last", "closing_last=3", "parameter 'closing_last' expects bool, got 3"),
    ("diams", 3, None, "purity_bonus=-5", "parameter 'purity_bonus' must be at least 0, got -5"),
    ("mister_diamond", 3, None, "skill=5", "parameter 'skill' must be between 0 and 1, got 5"),
    ("mister_diamond", 3, None, "fakes=42", "parameter 'fakes' must be between 0 and 41, got 42"),
    ("mister_diamond", 3, None, "face_up=0", "parameter 'face_up' must be between 1 and 15, got 0"),
    ("mister_diamond", 4, None, "target=0", "parameter 'target' must be between 1000 and 23000, got 0"),
    # MD-1, MD-2: a position has up to 6 neighbours, so a smaller divisor makes a chance above 1, 0 none at all
    ("mister_diamond", 3, None, "max_neighbours=5", "parameter 'max_neighbours' must be at least 6, got 5"),
    ("mister_diamond", 3, None, "max_neighbours=0", "parameter 'max_neighbours' must be at least 6, got 0"),
    ("diamonds_club", 2, None, "market_rows=0", "parameter 'market_rows' must be between 1 and 12, got 0"),
    ("diamonds_club", 2, None, "start_gems=-1", "parameter 'start_gems' must be at least 0, got -1"),
    ("diamonds_club", 3, "cost_by_coins", "building_vp=-4", "parameter 'building_vp' must be at least 0, got -4"),
    ("diamonds_club", 3, "cost_by_coins", "cost_by_coins=yes", "parameter 'cost_by_coins' expects bool, got 'yes'"),
]


def _args(game, players, variant, sets):
    args = ["play", game, "--players", players, "--quiet"]
    for s in sets:
        args += ["--set", s]
    return args + (["--variant", variant] if variant else [])


@pytest.mark.parametrize("game,players,variant,value,message", OUT_OF_RANGE,
                         ids=[f"{g}-{v.partition('=')[0]}" for g, _, _, v, _ in OUT_OF_RANGE])
def test_a_value_out_of_range_is_refused_naming_the_parameter(cli, game, players, variant, value, message):
    code, out, err = cli(*_args(game, players, variant, [value]))
    assert code == 2 and message in err and out == "", err
    assert "Traceback" not in err and "internal error" not in err


# (game, players, variant, --set values refused, what the requirement says, values just met)
IMPOSSIBLE = [
    ("diamonds", 6, None, ["hand_size=11"], "the deck of 60 cards is too small to deal hand_size cards",
     ["hand_size=10"]),
    ("diamonds", 2, "two_player", ["hand_size=31"], "must be between 0 and 30", ["hand_size=30"]),
    ("diamonds", 3, None, ["pass_options=[]"], "pass_options must offer the start player", ["pass_options=[4]"]),
    ("diamonds", 3, None, ["pass_options=[0, 2]"], "pass_options must offer the start player", ["pass_options=[1, 2]"]),
    # more cards than a hand holds; with no cards dealt (hand_size 0, the DI-2 scenarios) any number passes none
    ("diamonds", 3, None, ["pass_options=[15]"], "at most hand_size", ["pass_options=[15]", "hand_size=15"]),
    ("diamonds", 4, "teams", ["pass_options=[1, 11]"], "at most hand_size", ["pass_options=[1, 10]"]),
    ("diamonds", 3, None, ["pass_options=[4]", "hand_size=3"], "at most hand_size", ["pass_options=[4]", "hand_size=0"]),
    ("diams", 5, None, ["deal=7"], "the draw pile is too small", ["deal=6"]),
    ("diams", 3, None, ["bottom_part=40"], "the draw pile is too small", ["bottom_part=40", "market_size=1"]),
    ("diams", 5, "closing_last", ["deal=10"], "the draw pile is too small", ["deal=9"]),
    ("diams", 3, None, ["collection_points=[[1]]"], "collection_points needs a row for each collection size",
     ["collection_points=" + str([[0] * 10] * 6)]),
    ("diams", 5, None, ["rank_tokens=[4, 3, 2, 1]"], "rank_tokens needs the tokens of every rank",
     ["rank_tokens=[5, 4, 3, 2, 1]"]),
    ("diamonds_club", 2, None, ["track_last=5"], "each need a value for every space of the development tracks",
     ["track_last=3"]),
    ("diamonds_club", 2, None, ["money_vp=[0, 0, 1]"], "each need a value for every space of the development tracks",
     ["money_vp=[0, 0, 1]", "track_last=2"]),
    ("diamonds_club", 4, None, ["hat_last=3"], "the start player track is too short", ["hat_last=4"]),
    ("diamonds_club", 4, None, ["boards=[red, red, white, blue]"], "a different player board",
     ["boards=[blue, bronze, white, red]"]),
    ("diamonds_club", 2, "cost_by_coins", ["boards=[red, green]"], "a different player board", ["boards=[red, blue]"]),
    # the seats use the first boards: each name once, each a board, enough for the players
    ("diamonds_club", 2, None, ['boards=["red", "red", "white"]'], "a different player board",
     ["boards=[red, white, blue]"]),
    ("diamonds_club", 2, None, ["boards=[red, white, purple]"], "a different player board", ["boards=[red, white]"]),
    ("diamonds_club", 3, None, ["boards=[red, white]"], "a different player board", ["boards=[red, white, bronze]"]),
    ("diamonds_club", 2, None, ["tracks=[forest, tech, gold]"], "tracks must name development tracks",
     ["tracks=[money, forest]"]),
    ("diamonds_club", 3, None, ["tracks=[forest, forest]"], "tracks must name development tracks", ["tracks=[forest]"]),
]


@pytest.mark.parametrize("game,players,variant,refused,message,met", IMPOSSIBLE,
                         ids=[f"{g}-{'+'.join(s.partition('=')[0] for s in r)}-{i}"
                              for i, (g, _, _, r, _, _) in enumerate(IMPOSSIBLE)])
def test_an_impossible_combination_is_refused_before_the_game(cli, game, players, variant, refused, message, met):
    code, out, err = cli(*_args(game, players, variant, refused))
    assert code == 2 and message in err and out == "", err
    assert "Traceback" not in err and "internal error" not in err
    if "error[requires]" in err:      # located at its requirement, the values read in the hint
        assert f"rulesets/{game}.yaml:" in err and " refuses this game: " in err and "hint: it requires" in err
    rules = interpreter.load(game, variant=variant)
    S = rules.new_game(players, seed=1, options={"params": dict(s.split("=", 1) for s in met)})
    assert not S.is_terminal()


@pytest.mark.parametrize("game", SEEDS)
def test_the_defaults_start_for_every_player_count_and_variant(game):
    base = interpreter.load(game)
    for variant in (None, *(base.data.get("variants") or {})):
        rules = interpreter.load(game, variant=variant)
        for n in rules.player_counts:
            S = rules.new_game(n, seed=3)
            assert not S.is_terminal(), (game, variant, n)


def test_a_variant_keeps_the_declaration_of_the_parameter_it_changes():
    two = interpreter.load("diamonds", variant="two_player")
    assert two.params_decl["plays_per_trick"]["default"] == 2 and two.new_game(2, 1).p["plays_per_trick"] == 2
    with pytest.raises(interpreter.UsageError, match="'plays_per_trick' must be between 1 and 30"):
        two.new_game(2, 1, options={"params": {"plays_per_trick": 31}})
    teams = interpreter.load("diamonds", variant="teams")
    assert teams.new_game(4, 1).p["start_showroom"] == 6
    assert interpreter.load("diams", variant="closing_last").new_game(3, 1).p["closing_last"] is True
    assert interpreter.load("diamonds_club", variant="cost_by_coins").new_game(3, 1).p["cost_by_coins"] is True


def test_new_game_refuses_an_impossible_combination_with_its_message():
    with pytest.raises(Refused, match="the deck of 60 cards is too small"):
        interpreter.load("diamonds").new_game(6, 1, options={"params": {"hand_size": 11}})
    with pytest.raises(Refused, match="the start player track is too short"):
        interpreter.load("diamonds_club").new_game(3, 1, options={"params": {"hat_last": 2}})


def test_explain_lists_the_options_with_their_bounds_and_docs(cli):
    code, out, _ = cli("explain", "diamonds")
    assert code == 0
    assert "| hand_size | 10 | int, 0..30 | cards dealt to each player every round, from the 60-card deck |" in out
    assert "| rounds | 6 | 4 | 5 | 6 | int, 1..20 | rounds in a game" in out     # by player count, bounded
    assert "the deck of 60 cards is too small to deal hand_size cards to each player" in out
    code, out, _ = cli("explain", "mister_diamond")
    assert "| skill | 0.8 | num, 0..1 |" in out and "| target | 10000 | 10000 | 7000 | 7000 | 7000 | int, 1000..23000 |" in out


def test_a_file_extending_a_seed_game_keeps_a_declaration_by_a_value_or_its_default(tmp_path):
    """docs/reference.md, Parameters: an overlay's `{default: V}` merges into the declaration,
    and a bare value is the parameter's value for every player count: either way the
    declaration keeps its type, bounds and doc (the bounds still hold, and an out-of-bounds
    value is located in the overlay)."""
    kept, bare, bad = tmp_path / "kept.yaml", tmp_path / "bare.yaml", tmp_path / "bad.yaml"
    kept.write_text("extends: diamonds\nparams: {hand_size: {default: 8}}\n", encoding="utf-8")
    bare.write_text("extends: diamonds\nparams: {hand_size: 8, rounds: 2}\n", encoding="utf-8")
    bad.write_text("extends: diamonds\nparams:\n  rounds: 21\n", encoding="utf-8")
    for path in (kept, bare):
        rules = interpreter.load("diamonds", variant=str(path))
        assert rules.new_game(4, 1).p["hand_size"] == 8 and rules.params_decl["hand_size"]["max"] == 30
        with pytest.raises(interpreter.UsageError, match="'hand_size' must be between 0 and 30"):
            rules.new_game(3, 1, options={"params": {"hand_size": 31}})
    rules = interpreter.load("diamonds", variant=str(bare))
    assert [rules.new_game(n, 1).p["rounds"] for n in (3, 4, 5, 6)] == [2, 2, 2, 2]   # (by_players gone)
    assert rules.params_decl["rounds"]["min"] == 1 and "by_players" not in rules.params_decl["rounds"]
    with pytest.raises(RulesetError) as e:
        interpreter.load("diamonds", variant=str(bad))
    assert "'rounds' must be between 1 and 20, got 21" in str(e.value) and "bad.yaml:3:11" in str(e.value)


def _diagnostics(path) -> list:
    with pytest.raises(RulesetError) as e:
        interpreter.load(str(path))
    return e.value.diagnostics


def test_a_bare_value_of_the_wrong_type_is_one_error_at_the_overlay(tmp_path):
    """A bare value that does not fit the declaration is reported once, at the overlay's value:
    not again at the base's min:/max: as if the base's declaration were wrong, with or without a
    type: in it (without one, the type of the value it replaces)."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: diamonds\nparams:\n  hand_size: ten\n", encoding="utf-8")
    [d] = _diagnostics(bad)
    assert d.message == "parameter 'hand_size' expects int, got 'ten'" and (d.loc.path, d.loc.line, d.loc.col) == (
        str(bad), 3, 14)
    (tmp_path / "base.yaml").write_text(tiny_ruleset("params:\n  n: {default: 3, min: 1, max: 9}\n" + ONE_DECISION),
                                        encoding="utf-8")
    for value, message in (("abc", "parameter 'n' expects int, got 'abc'"),
                           ("2.5", "parameter 'n' expects int, got 2.5"),
                           ("12", "parameter 'n' must be between 1 and 9, got 12")):
        bad.write_text(f"extends: base.yaml\nparams:\n  n: {value}\n", encoding="utf-8")
        [d] = _diagnostics(bad)
        assert d.message == message and (d.loc.path, d.loc.line, d.loc.col) == (str(bad), 3, 6)
    bad.write_text("extends: base.yaml\nparams:\n  n: 7\n", encoding="utf-8")
    assert interpreter.load(str(bad)).new_game(2, 1).p["n"] == 7


def test_a_bare_map_over_a_map_parameter_is_its_new_value_checked_as_set_checks_it(tmp_path):
    """A mapping with none of a declaration's keys, over a map parameter, is the map's new value
    (not keys merged into the declaration: "unknown key 'C'"), checked like --set: the keys of
    the map it replaces, put in that map's order; another shape (a map with other keys, a
    number, a list) is an error at the overlay, not one at run time at the base's rule."""
    names = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    new = tmp_path / "new.yaml"
    new.write_text("extends: euchre\nparams:\n  suit_name: {S: spades, H: hearts, D: diamonds, C: clubs}\n",
                   encoding="utf-8")
    rules = interpreter.load(str(new))
    value = rules.new_game(4, 1).p["suit_name"]
    assert value == names and list(value) == ["C", "D", "H", "S"]                 # the base's order
    assert rules.new_game(4, 1, options={"params": {"suit_name": dict(names, S="pikes")}}).p["suit_name"]["S"] == "pikes"
    assert interpreter.load("euchre", variant=str(new)).new_game(4, 1).p["suit_name"] == names   # as a variant file
    for value, message in (("{C: clubs}", "parameter 'suit_name' is a map with the keys C, D, H, S, got C"),
                           ("3", "parameter 'suit_name' expects map, got 3"),
                           ("[C, D]", "parameter 'suit_name' expects map, got ['C', 'D']"),
                           ("{C: 1, D: 2, H: 3, S: 4}", "parameter 'suit_name': suit_name['C'] is a str, got 1")):
        new.write_text(f"extends: euchre\nparams:\n  suit_name: {value}\n", encoding="utf-8")
        [d] = _diagnostics(new)
        assert d.message == message and (d.loc.path, d.loc.line, d.loc.col) == (str(new), 3, 14), d
    # a mapping with a declaration's keys still merges into the declaration
    new.write_text("extends: euchre\nparams:\n  suit_name: {doc: the suits' names}\n", encoding="utf-8")
    rules = interpreter.load(str(new))
    assert rules.params_decl["suit_name"]["doc"] == "the suits' names" and rules.new_game(4, 1).p["suit_name"]["C"] == "Clubs"


def test_a_number_written_as_text_in_a_ruleset_is_text(tmp_path):
    """A ruleset's value is data, not a command line's text: "8" for an int parameter is refused
    at load (the base's declaration or an overlay's bare value), not read as 8 by the check and
    then added to a number at run time; --set hand_size=8 is still read."""
    bad = tmp_path / "bad.yaml"
    bad.write_text('extends: diamonds\nparams:\n  hand_size: "8"\n', encoding="utf-8")
    [d] = _diagnostics(bad)
    assert d.message == "parameter 'hand_size' expects int, got '8'" and (d.loc.line, d.loc.col) == (3, 14)
    base = tmp_path / "base.yaml"
    for decl, at in (('{type: int, default: "8"}', '"8"'), ('{type: num, value: "8.5"}', '"8.5"'),
                     ('{type: int, default: 5, by_players: {"2": "8"}}', '"8"')):   # (located at the value, an entry)
        base.write_text(tiny_ruleset(f"params:\n  n: {decl}\n" + ONE_DECISION), encoding="utf-8")
        [d] = _diagnostics(base)
        assert d.message == f"parameter 'n' expects {decl[7:10]}, got {at[1:-1]!r}", d
        assert (d.loc.path, d.loc.line, d.loc.col) == (str(base), 8, len("  n: ") + decl.index(at) + 1), d
        assert d.hint == "a number is written without quotes"
    base.write_text(tiny_ruleset('params:\n  n: {type: int, default: 8}\n' + ONE_DECISION), encoding="utf-8")
    bad.write_text('extends: base.yaml\nparams:\n  n: "9"\n', encoding="utf-8")   # (an overlay's: the hint too)
    [d] = _diagnostics(bad)
    assert d.message == "parameter 'n' expects int, got '9'" and d.hint == "a number is written without quotes"
    assert interpreter.load("diamonds").new_game(3, 1, options={"params": {"hand_size": "8"}}).p["hand_size"] == 8



def test_a_bare_value_for_counts_the_base_gives_no_value_is_checked_against_its_values(tmp_path):
    """A variant playing player counts the base's by_players: does not cover: its bare value is
    checked against the declaration's bounds and the type of any of the base's values, one error
    at the overlay (not two at the base's min:/max: and one at the rule reading it)."""
    base = tiny_ruleset('vars:\n  x: {type: int, start: 0}\nparams:\n  n: {by_players: {"2": 1, "3": 2}, min: 0, max: 3}\n'
                        'flow:\n  - set: {x: "x + params.n"}\n', players=(2, 3))
    for value, message in (("abc", "parameter 'n' expects int, got 'abc'"),
                           ("9", "parameter 'n' must be between 0 and 3, got 9")):
        path = tmp_path / "v.yaml"
        path.write_text(base + f"variants:\n  four: {{players: {{min: 4, max: 4}}, params: {{n: {value}}}}}\n",
                        encoding="utf-8")
        with pytest.raises(RulesetError) as e:
            interpreter.load(str(path), variant="four")
        [d] = e.value.diagnostics
        assert d.message == message and (d.loc.line, d.loc.col) == (14, 49), d
    path.write_text(base + "variants:\n  four: {players: {min: 4, max: 4}, params: {n: 3}}\n", encoding="utf-8")
    assert interpreter.load(str(path), variant="four").new_game(4, 1).v["x"] == 3


LISTED = tiny_ruleset('vars:\n  x: {type: int, start: 0}\nparams:\n  n: {type: list, default: [1, 2]}\n'
                      'flow:\n  - set: {x: "x + sum(params.n)"}\n')


def test_a_list_parameter_is_a_list_of_its_elements_type(tmp_path, cli):
    """type: list is a list of what its default's elements are, as an undeclared list is: an
    overlay's value, a --set or a new game's option with other elements is refused at once (it
    was refused at run time, '+' cannot combine int and str)."""
    path = tmp_path / "g.yaml"
    path.write_text(LISTED + 'variants:\n  text: {params: {n: ["3"]}}\n  more: {params: {n: [3, 4, 5]}}\n',
                    encoding="utf-8")
    with pytest.raises(RulesetError) as e:
        interpreter.load(str(path), variant="text")
    [d] = e.value.diagnostics
    assert d.message == "parameter 'n' is a list of int, got '3' in it" and (d.loc.line, d.loc.col) == (14, 22), d
    assert interpreter.load(str(path), variant="more").new_game(2, 1).v["x"] == 12
    rules = interpreter.load(str(path))
    assert rules.names.params["n"] == "list[int]" and rules.new_game(2, 1, options={"params": {"n": [4]}}).v["x"] == 4
    for given in (["3"], '["3"]', [[1]]):
        with pytest.raises(UsageError, match="parameter 'n' is a list of int, got .* in it"):
            rules.new_game(2, 1, options={"params": {"n": given}})
    code, out, err = cli("play", str(path), "--players", "2", "--quiet", "--set", 'n=["3"]')
    assert code == 2 and "parameter 'n' is a list of int, got '3' in it" in err and "Traceback" not in err, err


@pytest.mark.parametrize("default, message, at", [
    ('[1, "2"]', "parameter 'n' is a list of int, got '2' in it", '"2"'),
    ('[[1], ["a"]]', "parameter 'n': n[1][0] is an int, got 'a'", '["a"]'),
    ('[{a: 1}, {a: x}]', "parameter 'n': n[1]['a'] is an int, got 'x'", "{a: x}"),
    ('[1, true]', "parameter 'n' is a list of int, got True in it", "true"),
])
def test_a_list_parameter_mixing_types_is_an_error_at_its_element(tmp_path, default, message, at):
    """A list declared type: list holds elements of one type, at every depth, as a list the
    language writes does ([1, 2.5] is a list of num, [[], [1]] a list of lists of int)."""
    path = tmp_path / "g.yaml"
    path.write_text(LISTED.replace("[1, 2]}", default + "}").replace("sum(params.n)", "count(params.n)"), encoding="utf-8")
    with pytest.raises(RulesetError) as e:
        interpreter.load(str(path))
    [d] = e.value.diagnostics
    col = len("  n: {type: list, default: ") + default.index(at) + 1   # (the element that does not fit)
    assert d.message == message and (d.loc.line, d.loc.col) == (10, col) and d.hint == "a list's elements are of one type", d
    for fine, typ in (("[1, 2.5]", "list[num]"), ("[[], [1]]", "list[list[int]]"), ("[]", "list[any]")):
        path.write_text(LISTED.replace("[1, 2]}", fine + "}").replace("sum(params.n)", "count(params.n)"), encoding="utf-8")
        assert interpreter.load(str(path)).names.params["n"] == typ
