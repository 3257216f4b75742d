"""Mister Diamond: the scenario tests of rulesets/scenarios/mister_diamond.yaml (one case each),
the MD-2 touch chance measured on the real ruleset, and whole games as property tests."""
from __future__ import annotations

import math
import random

import pytest

from interpreter.engine import rng
from seedgames import SeedGame

GAME = SeedGame("mister_diamond")
RULESET, ROOT = GAME.ruleset, GAME.ruleset.parent.parent


@pytest.fixture(scope="module")
def rules():
    return GAME.rules()


def test_ruleset_loads_without_warnings(rules):
    assert rules.warnings == []
    assert (rules.min_players, rules.max_players) == (2, 6)


test_scenario = GAME.scenario_test()
test_every_ruling_has_a_scenario = GAME.ruling_test("MD", 1, 6)


@pytest.mark.parametrize("spot, skill, empty", [("d4", 0.8, 0), ("d4", 0.3, 0), ("d4", 0.5, 3),
                                                 ("d4", None, 0), ("a1", 0.0, 0), ("a1", 0.4, 1)])
def test_touch_chance_is_honoured(rules, spot, skill, empty):
    """MD-2: (1 - skill) * occupied_neighbours / 6, over 3,000 seeded attempts (4 standard errors).
    skill None: no option, so params.skill (0.8) is used. a1 has only 3 neighbours: the divisor
    is still 6, not the number of neighbours."""
    options = {} if skill is None else {"skill": [skill, skill]}
    S = rules.new_game(2, seed=1, options=options)
    target = rules.card_id(spot)
    nb = rules.namespace["_NB"][target]
    keep = set(nb[empty:]) | {target}
    # no hidden fake: the target and its kept neighbours are real; the emptied ones have no piece
    S.z["real_spots"] = S.z["real_spots"] + S.z["fake_spots"]
    S.z["fake_spots"] = []
    S.z["empty_spots"] = sorted(c for c in nb[:empty])
    S.z["real_spots"] = [c for c in S.z["real_spots"] if c not in S.z["empty_spots"]]
    assert target in S.z["real_spots"] and keep <= set(S.z["real_spots"])
    n, touches = 3000, 0
    for i in range(n):
        T = S.clone()
        T.rng = rng.seed_state(i)
        T.apply(spot)
        touches += T.v["result"] == "touch"
        assert T.v["result"] in ("touch", "clean")
    p = (1 - (0.8 if skill is None else skill)) * (len(nb) - empty) / 6
    se = math.sqrt(p * (1 - p) / n)
    assert abs(touches / n - p) < 4 * se, (touches, n, p)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_games_keep_every_piece_and_end(rules, players):
    for seed in range(4):
        S = rules.new_game(players, seed)
        pick = random.Random(seed)
        while not S.is_terminal():
            S.apply_index(pick.randrange(len(S.dec[1])))
            zones = S.z
            positions = zones["real_spots"] + zones["fake_spots"] + zones["known_fakes"] + zones["empty_spots"]
            assert sorted(positions) == list(range(42))
            assert len(zones["fake_spots"]) + len(zones["known_fakes"]) == 16
        tiles = S.z["deck"] + S.z["row"] + [t for w in S.z["won"] for t in w]
        assert sorted(tiles) == list(range(42, 58))
        scores = S.scores()
        assert scores == [sum(rules.attr_tables["value"][t] for t in w) for w in S.z["won"]]
        assert S.winners() == [p for p in range(players) if scores[p] == max(scores)]
        target = 10000 if players <= 3 else 7000
        assert max(scores) >= target or not S.z["deck"] or not S.z["real_spots"]


def test_observations_never_show_hidden_fakes(rules):
    S = rules.new_game(3, seed=2)
    pick = random.Random(2)
    for _ in range(40):
        if S.is_terminal():
            break
        for seat in range(3):
            obs = S.observation(seat)
            assert obs["zones"]["fake_spots"] == len(S.z["fake_spots"])
            assert obs["zones"]["real_spots"] == len(S.z["real_spots"])
            assert obs["zones"]["known_fakes"] == [rules.card_labels[c] for c in S.z["known_fakes"]]
        S.apply_index(pick.randrange(len(S.dec[1])))


@pytest.mark.parametrize("resolve", ["random", "ask"])
def test_hidden_fakes_change_no_observation_and_no_option_order(rules, resolve):
    """MD-1 ("no one knows which diamonds are real"): at every decision of whole games, a state
    whose hidden fake and hidden real are swapped looks the same to every seat: the same
    observation and the same legal actions, in the same order."""
    for seed in range(3):
        S = rules.new_game(3, seed=seed, options={"resolve": resolve})
        pick = random.Random(seed)
        while not S.is_terminal():
            fakes, reals = S.z["fake_spots"], S.z["real_spots"]
            for k in range(min(2, len(fakes), len(reals))):
                T = S.clone().own_all()
                T.z["fake_spots"][k], T.z["real_spots"][-1 - k] = T.z["real_spots"][-1 - k], T.z["fake_spots"][k]
                assert T.legal_actions() == S.legal_actions()
                for seat in range(3):
                    assert T.observation(seat) == S.observation(seat)
            if S.prompt() == "take":     # attempts are offered in board order, never fakes first
                assert S.legal_actions() == sorted(S.legal_actions())
            S.apply_index(pick.randrange(len(S.dec[1])))


def test_setup_is_random(rules):
    """Setup: the 16 fakes are placed at random (MD-1) and the tiles are shuffled."""
    fakes, rows = set(), set()
    for seed in range(10):
        S = rules.new_game(2, seed)
        fakes.add(frozenset(S.z["fake_spots"]))
        rows.add(tuple(S.z["row"]))
    assert len(fakes) == 10 and len(rows) >= 8


def test_skill_wins_games():
    """A weaker form of benchmarks/skill.py: 60 fixed seeds, the 0.95 seat wins more than the 0.2 one."""
    import sys
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from skill import measure
    finally:
        sys.path.pop(0)
    r = measure(games=60, high=0.95, low=0.2, seed=0)
    assert r["high_wins"] > 1.5 * r["low_wins"], r


def test_play_flags_skill_and_resolve(capsys, monkeypatch):
    import io
    import json
    from interpreter.tools.cli import main
    assert main(["play", str(RULESET), "--players", "2", "--seed", "3", "--skill", "0.9,0.3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == 2 and len(out["scores"]) == 2
    assert main(["play", str(RULESET), "--players", "2", "--skill", "0.9,0.3,0.5"]) == 2
    assert "expected 2 values" in capsys.readouterr().err
    assert main(["play", str(RULESET), "--players", "2", "--skill", "1.2"]) == 2
    assert "between 0 and 1" in capsys.readouterr().err
    # ask: the person at the terminal answers the outcome questions (on stderr with --json),
    # the random agents make the other decisions; the game still ends
    monkeypatch.setattr("sys.stdin", io.StringIO("clean\n" * 500))   # every piece taken cleanly
    assert main(["play", str(RULESET), "--players", "3", "--seed", "0", "--resolve", "ask", "--json"]) == 0
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["winners"]) >= 1 and "what happened?" in captured.err
