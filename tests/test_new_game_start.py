"""A game's start kept (engine/start.py): ``new_game`` fills a ruleset's zones, counters and
variables once per number of players, parameters and options, and gives each game a copy of that
start (engine/layout.py ``fresh``). On every bundled ruleset, with events recorded or knowledge
kept, with parameters and options given, a game from the kept start is the game filled afresh
(the path new_game takes where no start is kept): the same state, events and play; games from
one start share no list with it or with each other, and none writes it."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

import interpreter
from fuzzing.clones import Frozen
from helpers import ONE_DECISION, load_text, tiny_ruleset
from interpreter.engine import ruleset as ruleset_module
from interpreter.engine.start import Kept, own_values
from interpreter.engine.state import State
from interpreter.errors import GameError, UsageError

ROOT = Path(__file__).resolve().parent.parent
PATHS = sorted(str(p) for p in ROOT.glob("rulesets/*.yaml"))
MODES = [{}, {"record": True}, {"knowledge": True}, {"record": True, "knowledge": True}]


def _options(rules, players: int) -> list:
    """No options; a parameter given its own value (the start kept by the options' text); an
    option of the engine's (skill, one number for every seat)."""
    out: list = [None, {"skill": 0.75}]
    if rules.params_decl:
        name, value = next(iter(rules.resolve_params(players, {}).items()))
        out.append({"params": {name: value}})
    return out


def _trace(S, seed: int, decisions: int = 40) -> list:
    """The state and its events at the start, then after each of a random game's decisions."""
    out = [S.to_json(), json.dumps(S.ev, sort_keys=True, default=str)]
    rnd = random.Random(seed)
    for _ in range(decisions):
        if S.over:
            break
        if S.ev is not None:
            S.ev = []
        S.apply_index(rnd.randrange(len(S.dec[1])))
        out += [S.to_json(), json.dumps(S.ev, sort_keys=True, default=str)]
    return out


def _games(rules) -> list:
    out = []
    for players in rules.player_counts[:3]:
        for seed in (0, 5):
            for mode in MODES:
                for options in _options(rules, players):
                    S = rules.new_game(players, seed=seed, options=options, **mode)
                    out.append(((players, seed, tuple(mode), repr(options)), _trace(S, seed)))
    return out


@pytest.mark.parametrize("path", PATHS, ids=[Path(p).stem for p in PATHS])
def test_a_game_from_the_kept_start_is_the_game_filled_afresh(path, monkeypatch):
    rules = interpreter.load(path)
    kept = _games(rules)
    starts = rules._starts
    assert starts and all(isinstance(start, State) for start in starts.values()), "no start kept"
    assert len(starts) == len({key for key in starts if not isinstance(key, int)}) + len(rules.player_counts[:3])
    monkeypatch.setattr(ruleset_module, "KEEP_STARTS", False)   # each game filled by itself
    starts.clear()
    afresh = _games(rules)
    assert all(isinstance(start, tuple) for start in starts.values())
    for (case, a), (_, b) in zip(kept, afresh):
        assert a == b, f"{Path(path).stem} {case}: a game from the kept start differs"
    starts.clear()


def _lists(S) -> dict:
    """id -> list or dict for every list and dict a state's tables hold (zones, counters, the
    record, the views) and its parameters' and options' dicts."""
    out = {id(S.p): S.p, id(S.o): S.o}
    for a in S.rules.layout.of.values():
        out.update(_walk(getattr(S, a)))
    return out


def _walk(value) -> dict:
    """id -> each list and dict in ``value``, at any depth."""
    out, todo = {}, [value]
    while todo:
        v = todo.pop()
        if isinstance(v, (list, dict)):
            out[id(v)] = v
            todo += v.values() if isinstance(v, dict) else v
    return out


def _freeze(S) -> None:
    """Every list of the start's tables made one that refuses any change."""
    layout = S.rules.layout
    for name, shape in S.rules.zone_shapes:
        a = layout.zones[name]
        table = getattr(S, a)
        if shape == 0:
            setattr(S, a, Frozen(table))
        elif shape == 1:
            setattr(S, a, Frozen(Frozen(part) for part in table))
    for name in S.rules.owned_counters:
        a = layout.counters[name]
        setattr(S, a, Frozen(getattr(S, a)))
    if layout.recorded:
        S.at = Frozen(S.at)
    if layout.views:
        S.vw = Frozen(Frozen(view) for view in S.vw)


@pytest.mark.parametrize("path", PATHS, ids=[Path(p).stem for p in PATHS])
def test_games_from_one_start_share_no_list_and_never_write_it(path):
    rules = interpreter.load(path)
    players = rules.player_counts[-1]
    first = rules.new_game(players, seed=1)
    start = rules._starts[players]
    assert isinstance(start, State)
    second = rules.new_game(players, seed=1)
    assert second.to_json() == first.to_json()
    mine, yours, its = _lists(first), _lists(second), _lists(start)
    assert not set(mine) & set(yours) and not set(mine) & set(its) and not set(yours) & set(its)

    # one game's lists changed in place: the other game, and the next game, are as they were
    before = second.to_json()
    for value in mine.values():
        if isinstance(value, list):
            value.append(0)
        else:
            value["x"] = 1
    assert second.to_json() == before
    assert rules.new_game(players, seed=1).to_json() == before

    # no game from it writes the start (a frozen list raises at once) and each plays as before
    _freeze(start)
    for seed in range(3):
        S, T = rules.new_game(players, seed=seed), rules.new_game(players, seed=seed)
        rnd = random.Random(seed)
        for _ in range(200):
            if S.over:
                break
            i = rnd.randrange(len(S.dec[1]))
            S.apply_index(i)
            T.apply_index(i)
        assert S.to_json() == T.to_json()
    rules._starts.clear()


def _kept(rules) -> int:
    """The starts a ruleset keeps (each under the key of its checked values, and of the options
    as given)."""
    return len({id(start) for start in rules._starts.values()})


def test_a_variable_started_as_a_zone_holds_the_zone_s_cards_as_the_game_starts(tmp_path):
    # a variable's start value is its own copy (expr/runtime.py owned), the deck's cards before
    # the setup shuffles it, in each game; the start is kept, each game's variable its own list
    rules = load_text(tmp_path, tiny_ruleset("setup:\n  - shuffle: deck\n" + ONE_DECISION.replace(
        "vars:\n  x: int\n", "vars:\n  x: int\n  dealt: {type: \"list[card]\", start: \"deck\"}\n")))
    games = [rules.new_game(2, seed=seed) for seed in (1, 2, 3)]
    for S in games:
        assert S.v["dealt"] is not S.z["deck"] and S.v["dealt"] == sorted(S.z["deck"]) != S.z["deck"]
    assert not isinstance(rules._starts[2], tuple)
    assert games[0].v["dealt"] is not games[1].v["dealt"]
    assert games[0].z["deck"] != games[1].z["deck"]


def test_a_start_holds_its_own_copy_of_the_values_given():
    rules = interpreter.load("diamonds")
    given = [1, 2]
    S = rules.new_game(4, seed=1, options={"params": {"pass_options": given}})
    given.append(3)   # (the caller's list, changed after the game started)
    T = rules.new_game(4, seed=1, options={"params": {"pass_options": [1, 2]}})
    assert S.p["pass_options"] == T.p["pass_options"] == [1, 2]
    assert _kept(rules) == 1
    # a value given as text (--set) is the value it reads as; another value, another start
    assert rules.new_game(4, seed=1, options={"params": {"pass_options": "[1, 2]"}}).to_json() == S.to_json()
    assert _kept(rules) == 1
    rules.new_game(4, seed=1, options={"params": {"pass_options": [2, 1]}})
    assert _kept(rules) == 2


def test_the_arguments_are_checked_at_every_game_and_the_starts_bounded():
    rules = interpreter.load("mister_diamond")
    rules.new_game(4, seed=1)
    for args, kw, message in [((True,), {}, "whole number, not True"), ((4.0,), {}, "whole number, not 4.0"),
                              ((9,), {}, "not 9"), ((4,), {"seed": True}, "a seed is a whole number"),
                              ((4,), {"seed": 2 ** 63}, "within 64 bits"), ((4,), {"seed": "1"}, "not '1'"),
                              ((4,), {"options": {"params": {"fakes": "many"}}}, "expects int"),
                              ((4,), {"options": {"colour": 1}}, "unknown game option 'colour'"),
                              ((4,), {"options": []}, "game options are a mapping")]:
        with pytest.raises(UsageError, match=message):
            rules.new_game(*args, **kw)
    assert rules.new_game(4, seed=-(2 ** 63 - 1)).seed == -(2 ** 63 - 1)
    for fakes in range(1, 30):
        rules.new_game(4, seed=1, options={"params": {"fakes": fakes}})
    assert 0 < len(rules._starts) <= 16


def test_a_copy_of_a_ruleset_starts_its_own_games():
    # (tests/test_flowgen.py's reference is a copy with the reference loop: its games must be its own)
    rules = interpreter.load("mister_diamond")
    rules.new_game(4, seed=1)
    other = copy.copy(rules)
    assert other._starts == {} and rules._starts
    S = other.new_game(4, seed=1)
    assert S.rules is other and other._starts[4].rules is other and rules._starts[4].rules is rules


def test_a_value_given_of_no_plain_type_starts_its_game_filled_afresh():
    class Ratio(float):   # (a float of another class, as numpy's: kept by no start)
        pass
    rules = interpreter.load("mister_diamond")
    S = rules.new_game(4, seed=2, options={"params": {"skill": Ratio(0.5)}})
    assert type(S.p["skill"]) is Ratio and not rules._starts
    T = rules.new_game(4, seed=2, options={"params": {"skill": 0.5}})
    assert S.to_json() == T.to_json() and _kept(rules) == 1


def test_options_given_again_find_their_start_and_changed_options_are_checked_again():
    rules = interpreter.load("mister_diamond")
    given = {"params": {"fakes": 14}, "skill": "0.5,0.6,0.7,0.8"}
    S = rules.new_game(4, seed=1, options=given)
    assert rules._starts.get(repr((4, given))) is rules._starts[repr((4, S.p, S.o))]   # (the checked values' start)
    assert rules.new_game(4, seed=1, options=given).to_json() == S.to_json()
    given["params"]["fakes"] = 15   # (the caller's dict changed: another key, checked again)
    assert rules.new_game(4, seed=1, options=given).p["fakes"] == 15
    given["params"]["fakes"] = "many"
    with pytest.raises(UsageError, match="expects int"):
        rules.new_game(4, seed=1, options=given)
    looped: list = []
    looped.append(looped)
    with pytest.raises(UsageError, match="holds itself"):
        rules.new_game(4, seed=1, options={"params": {"fakes": looped}})
    with pytest.raises(UsageError, match="whole number, not True"):   # (players checked before any start is found)
        rules.new_game(True, seed=1, options={"params": {"fakes": 14}, "skill": "0.5,0.6,0.7,0.8"})


def test_the_starts_stay_few_however_the_same_options_are_written():
    rules = interpreter.load("mister_diamond")
    games = {rules.new_game(4, seed=1, options={"params": {"fakes": " " * k + "14"}}).to_json()
             for k in range(40)}   # (one checked value, forty texts of it)
    assert 0 < len(rules._starts) <= 17 and len(games) == 1


def test_a_game_s_seats_parameters_options_and_variables_are_its_own(tmp_path):
    """What a game holds of its start (the seats, the teams, the parameters and options with the
    lists in them, a variable's list) is its own: a holder changing one game's in place changes
    neither the next game of the same arguments nor the start they are copied from."""
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    given = {"params": {"fakes": 14}, "skill": 0.5}
    A = rules.new_game(4, seed=3, options=copy.deepcopy(given))
    A.players.append(4)
    A.teams.append(4)
    A.o["skill"][0] = 0.0
    A.to_dict()["params"]["fakes"] = 1
    B = rules.new_game(4, seed=3, options=copy.deepcopy(given))
    assert B.players == [0, 1, 2, 3] and B.teams == [0, 1, 2, 3] and B.o["skill"] == [0.5] * 4
    assert B.p["fakes"] == 14
    listed = load_text(tmp_path, tiny_ruleset(ONE_DECISION.replace(
        "vars:\n  x: int\n", "vars:\n  x: int\n  l: {type: \"list[int]\", start: \"[1, 2]\"}\n")))
    C = listed.new_game(2, seed=1)
    C.v["l"].append(99)
    assert listed.new_game(2, seed=1).v["l"] == [1, 2]


def test_an_option_python_cannot_write_is_refused_as_any_other():
    """An integer of more digits than Python writes out (repr refuses it) is no key of a kept
    start: the checks refuse it with a clear error, as they always did."""
    rules = interpreter.load(interpreter.ruleset_path("goofspiel"))
    with pytest.raises(UsageError):
        rules.new_game(2, options={"params": {"num_cards": 10 ** 5000}})
    with pytest.raises(UsageError, match="unknown game option 'bogus'"):
        rules.new_game(2, options={"bogus": 10 ** 5000})


def test_a_kept_start_s_values_are_copied_as_own_values_copies_them():
    """A start's parameters and options (engine/start.py Kept) give each game the copy
    ``own_values`` makes, by copiers chosen once from each value's shape: equal, a plain dict,
    the same key objects, and no list or mapping shared with the start or another game (a dict
    inside a list stays shared, as ``owned`` leaves it)."""
    table = {"n": 1, "x": 0.5, "text": "a", "none": None, "empty": [], "flat": [1, 2, "b"], "rows": [[1], [2, 3], []],
             "mixed": [1, [2, [3]], "c"], "deep": [[[1]], [2]], "map": {"a": [1], "b": {"c": [[2]]}}, "maps": [{"d": 1}]}
    kept = Kept(table)
    games = [kept.own(), kept.own()]
    for mine, other in (games, games[::-1]):
        assert mine == own_values(table) == table and type(mine) is dict
        assert all(a is b for a, b in zip(mine, table))
        held = _walk(mine)
        shared = set(held) & (set(_walk(table)) | set(_walk(other)))
        assert all(held[i] == {"d": 1} for i in shared)
    assert Kept({"n": 1}).copies == () and kept.own() is not kept.own()


def test_a_game_from_a_start_holds_its_start_s_values_as_the_start_filled_them():
    """A game's copy of its start writes a variable with no start value as none and a shared
    zone with no start components as a new empty list (engine/layout.py fresh): as the start
    holds them, whatever a holder did to an earlier game's."""
    rules = interpreter.load("mister_diamond")
    first = rules.new_game(4, seed=1)
    start = rules._starts[4]
    assert start.z_known_fakes == [] and start.v_spot is None and isinstance(start.p, Kept)
    first.z_known_fakes.append(0)
    second = rules.new_game(4, seed=1)
    assert second.z_known_fakes == [] and second.z_known_fakes is not start.z_known_fakes
    assert second.v_spot is None and type(second.p) is dict and second.p == start.p


def test_a_game_starts_unchecked_only_where_its_start_says_the_end_is_not_reached(tmp_path):
    """Where the setup cannot change what the end conditions read and no when-trigger keeps what
    it saw, a start is kept only if every end condition says no of it, and its games take their
    first step with no check (engine/ruleset.py ``_calm``): a start whose end holds, or whose
    condition fails, is not kept, and each of its games is checked as it starts, as before."""
    end = 'end_when:\n  - "num_players == 2"\n'
    rules = load_text(tmp_path, tiny_ruleset(ONE_DECISION + end, players=(2, 3)))
    assert rules._calm
    for _ in range(2):
        S, T = rules.new_game(2, seed=1), rules.new_game(3, seed=1)
        assert S.over and S.dec is None and not T.over and T.dec is not None
    assert 2 not in rules._starts and isinstance(rules._starts[3], State)
    # (a setup that writes what the condition reads: every game checked as it starts)
    written = load_text(tmp_path, tiny_ruleset("setup:\n  - set: {x: 1}\n" + ONE_DECISION + 'end_when:\n  - "x == 1"\n'),
                        name="w.yaml")
    assert not written._calm and all(written.new_game(2, seed=s).over for s in (1, 1, 2))
    assert isinstance(written._starts[2], State)
    failing = load_text(tmp_path, tiny_ruleset(ONE_DECISION + 'end_when:\n  - "1 // (num_players - 2) == 0"\n',
                                               players=(2, 3)), name="f.yaml")
    for _ in range(2):
        with pytest.raises(GameError, match="end_when"):
            failing.new_game(2, seed=1)
    assert 2 not in failing._starts and not failing.new_game(3, seed=1).over


def test_a_game_over_at_its_start_holds_its_own_parameters(tmp_path):
    """A start whose end condition holds is not kept (its games each checked as they start): its
    games still get their own parameters, never the ruleset's declared values, so a caller
    writing one game's parameters changes no other game and no kept start."""
    rules = load_text(tmp_path, tiny_ruleset("params:\n  L: [1, 2]\n" + ONE_DECISION +
                                             'end_when:\n  - "num_players == 2 and count(params.L) > 0"\n',
                                             players=(2, 3)))
    rules.new_game(3, seed=1)
    over = rules.new_game(2, seed=1)
    assert over.over and over.p["L"] == [1, 2] and over.p["L"] is not rules.params_decl["L"]
    over.to_dict()["params"]["L"].append(99)
    assert rules.new_game(3, seed=1).p["L"] == [1, 2] and rules.new_game(2, seed=1).p["L"] == [1, 2]
    assert rules.params_decl["L"] == [1, 2]
