"""Diamonds Club: every scenario of rulesets/scenarios/diamonds_club.yaml as a pytest case, and
random whole games for 2, 3 and 4 players and the cost_by_coins variant."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import interpreter
from interpreter.scenarios import run_file

ROOT = Path(__file__).resolve().parent.parent
RULESET = ROOT / "rulesets" / "diamonds_club.yaml"
RESULTS = run_file(ROOT / "rulesets" / "scenarios" / "diamonds_club.yaml")


@pytest.mark.parametrize("outcome", RESULTS, ids=[o.name for o in RESULTS])
def test_scenario(outcome):
    assert outcome.ok, outcome.message


def test_there_is_a_scenario_for_every_ruling():
    import yaml
    data = yaml.safe_load((ROOT / "rulesets" / "scenarios" / "diamonds_club.yaml").read_text())
    rules = " ".join(str(sc.get("rule", "")) for sc in data["scenarios"])
    for i in range(1, 12):
        assert f"DC-{i}" in rules or i == 2 and "DC-2" in rules, f"no scenario cites DC-{i}"


def play_random(rules, players, seed):
    rnd = random.Random(seed)
    S = rules.new_game(players, seed=seed)
    decisions = 0
    while not S.is_terminal():
        S.apply_index(rnd.randrange(len(S.legal_actions())))
        decisions += 1
        assert decisions < 5000
    return S


@pytest.mark.parametrize("players,variant", [(2, None), (3, None), (4, None), (3, "cost_by_coins")])
def test_random_games_finish_with_consistent_state(players, variant):
    rules = interpreter.load(RULESET, variant=variant)
    for seed in range(2):
        S = play_random(rules, players, seed)
        assert S.v["end_triggered"]
        # someone filled the 14 light-green spaces; nobody built on a dark space without that
        full = [p for p in S.players if not any(S.c["filled"][c] == 0 for c in S.z["park"][p]
                                                 if rules.cards.rows[c]["area"] == "light")]
        assert full
        for p in S.players:
            dark = sum(S.c["filled"][c] for c in S.z["park"][p] if rules.cards.rows[c]["area"] == "dark")
            assert dark == 0 or p in full
            placed = len(S.z["buildings"][p]) + len(S.z["forests"][p]) + len(S.z["animals"][p])
            assert placed == sum(S.c["filled"][c] for c in S.z["park"][p])
            assert min(S.c[g][p] for g in ("blue", "yellow", "green", "red", "diamond")) >= 0
        breakdown = S.breakdown()
        assert [sum(b.values()) for b in breakdown] == S.scores()
        assert set(breakdown[0]) == {"buildings", "forests", "animals", "bonus_cards", "tracks"}
        for w in S.winners():
            assert S.scores()[w] == max(S.scores()[p] for p in S.winners())
        # each bonus card is held at most once, by someone or still in the supply
        held = [c for p in S.players for c in S.z["bonus_won"][p]] + S.z["bonus_supply"]
        assert sorted(held) == sorted(rules.cards.by_component["bonus"])


def test_play_json_includes_the_breakdown(capsys):
    from interpreter.cli import main
    import json
    code = main(["play", str(RULESET), "--players", "2", "--seed", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert len(out["breakdown"]) == 2 and "forests" in out["breakdown"][0]
    assert out["scores"] == [sum(b.values()) for b in out["breakdown"]]
