"""Diamonds: the YAML scenarios (one pytest case each) plus whole-game properties.

The scenarios in rulesets/scenarios/diamonds.yaml prove each rule (DI-1 .. DI-10) on a scripted
situation. The checks below are awkward in YAML: random whole games for every player count
and variant (60 cards conserved, scores = showroom + 2 x safe, rounds per player count),
who sees a safe (DI-11, on the observations), determinism, a JSON round trip mid-game, clone
independence, and refused set-ups.
"""
from __future__ import annotations

import json
import random

import pytest

from interpreter.errors import UsageError
from interpreter.play.checks.scenarios import patch
from seedgames import SeedGame, cards_in_play

GAME = SeedGame("diamonds")
RULESET, rules = GAME.ruleset, GAME.rules
OUTCOMES = GAME.outcomes
ROUNDS = {2: 4, 3: 6, 4: 4, 5: 5, 6: 6}            # ruling DI-2
GAMES = [(None, 3), (None, 4), (None, 5), (None, 6), ("two_player", 2), ("teams", 4), ("teams", 6)]


# ---------------------------------------------------------------------- the scenarios
def test_scenario_file_is_substantial():
    assert len(OUTCOMES) >= 25
    assert len({o.name for o in OUTCOMES}) == len(OUTCOMES), "scenario names must be unique"


test_scenario = GAME.scenario_test()
# DI-11 (who sees a safe) is about observations, which a scenario cannot check: tested below
test_every_ruling_has_a_scenario = GAME.ruling_test("DI", 1, 11, elsewhere=("DI-11",))


def play_random(variant, players, seed, check=None):
    return GAME.play_random(players, seed, variant, check)


# ---------------------------------------------------------------------- whole games
@pytest.mark.parametrize("variant,players", GAMES, ids=[f"{v or 'base'}-{n}p" for v, n in GAMES])
def test_random_games_conserve_cards_and_score(variant, players):
    for seed in (1, 2):
        S = rules(variant).new_game(players, seed)
        rnd = random.Random(seed * 7919 + players)
        rounds = 0
        waiting = 0            # cards picked in the running pass wait inside the pass step's frame
        while not S.is_terminal():
            prompt = S.prompt()
            if prompt == "pass_count":
                rounds += 1
                assert all(len(h) == 10 for h in S.z["hand"]), "DI-2: 10 cards each"
                assert S.v["thief"] == (S.v["start_player"] + 1) % S.n, "DI-6"
            if prompt != "pass":
                waiting = 0
            assert len(cards_in_play(S)) + waiting == 60, f"cards lost or made at {prompt!r} (seed {seed})"
            for p in S.players:
                t = S.tm[p]
                assert S.scores()[p] == S.c["showroom"][t] + 2 * S.c["safe"][t], "DI-7"
                assert S.c["showroom"][t] >= 0 and S.c["safe"][t] >= 0
            S.apply(rnd.choice(S.legal_actions()))
            if prompt == "pass":
                waiting += 1
                if S.prompt() != "pass":   # all passed: delivered, hands are full again
                    assert all(len(h) == 10 for h in S.z["hand"])
        assert len(cards_in_play(S)) == 60
        assert rounds == ROUNDS[players], f"{rounds} rounds for {players} players (DI-2)"
        assert S.winners(), "a finished game has winners"
        best = max(S.scores())
        assert all(S.scores()[w] == best for w in S.winners())
        for p in S.players:
            assert S.scores()[p] == S.c["showroom"][S.tm[p]] + 2 * S.c["safe"][S.tm[p]]
        if variant == "teams":
            # partners share their counters, so they share their score
            for members in S.members:
                assert len({S.scores()[p] for p in members}) == 1


def test_two_player_round_is_five_tricks_of_four_cards():
    R = rules("two_player")
    S = R.new_game(2, 3, {"params": {"rounds": 1}})
    plays, order = 0, []
    while not S.is_terminal():
        if S.prompt() == "play":
            plays += 1
            order.append(S.current_player())
        S.apply(S.legal_actions()[0])
    assert plays == 20                                  # 10 cards each
    assert sum(S.c["tricks_won"]) == 5                   # DI-8: 5 tricks per round
    # within each trick the seats alternate: leader, other, leader, other
    for k in range(5):
        trick = order[4 * k: 4 * k + 4]
        assert trick[0] == trick[2] and trick[1] == trick[3] and trick[0] != trick[1]


def test_the_deck_is_reshuffled_every_round():
    R = rules()
    S = R.new_game(3, 11)
    first = [list(h) for h in S.z["hand"]]
    deck1 = list(S.z["deck"])
    while S.v["round"] == 1:
        S.apply(S.legal_actions()[0])
    assert S.prompt() == "pass_count"
    assert all(len(h) == 10 for h in S.z["hand"])
    assert [list(h) for h in S.z["hand"]] != first
    assert list(S.z["deck"]) != deck1


def test_start_player_is_random_over_seeds():
    R = rules()
    starts = {R.new_game(4, seed).v["start_player"] for seed in range(20)}
    assert len(starts) > 1


# ---------------------------------------------------------------------- who sees what (DI-11)
def test_a_team_safe_is_seen_by_both_partners_and_by_no_opponent():
    """DI-11: seat 2 wins a diamond into team 0's safe (the scenario "teams of 4 - a diamond won
    by seat 2 lands in team 0's shared safe"); seats 0 and 2 see it, seats 1 and 3 and a
    spectator do not; the showrooms are public."""
    S = rules("teams").new_game(4, 1)
    patch(S, {"vars": {"start_player": 0, "thief": 1},
              "zones": {"hand": {0: ["5D", "1C"], 1: ["6D", "2C"], 2: ["9D", "3C"], 3: ["2D", "4C"]}}})
    for a in ["1", "1C", "2C", "3C", "4C", "5D", "6D", "9D", "2D"]:
        S.apply(a)
    assert list(S.c["safe"]) == [1, 0] and list(S.c["showroom"]) == [6, 6]
    for seat, seen in ((0, [1, None]), (2, [1, None]), (1, [None, 0]), (3, [None, 0]), (None, [None, None])):
        counters = S.observation(seat)["counters"]
        assert counters["safe"] == seen, (seat, counters["safe"])
        assert counters["showroom"] == [6, 6], seat


def test_a_safe_is_seen_by_its_owner_only():
    """DI-11 without teams: each seat sees its own safe, no other."""
    S = rules().new_game(3, 1)
    patch(S, {"counters": {"safe": [2, 1, 3]}})
    for seat in range(3):
        seen = S.observation(seat)["counters"]["safe"]
        assert seen == [S.c["safe"][p] if p == seat else None for p in range(3)], (seat, seen)
        assert S.observation(seat)["counters"]["showroom"] == [3, 3, 3]
    assert S.observation(None)["counters"]["safe"] == [None, None, None]


# ---------------------------------------------------------------------- state as data
def test_determinism_same_seed_same_actions():
    S1, actions = play_random(None, 4, 5)
    S2 = rules().new_game(4, 5)
    for a in actions:
        S2.apply(a)
    assert S1.to_json() == S2.to_json()
    assert S1 == S2 and S1.digest() == S2.digest()
    # and a different seed gives a different deal
    assert rules().new_game(4, 6).to_json() != rules().new_game(4, 5).to_json()


@pytest.mark.parametrize("variant,players", [(None, 3), ("two_player", 2), ("teams", 4)])
def test_json_round_trip_mid_game(variant, players):
    R = rules(variant)
    _, actions = play_random(variant, players, 9)
    S = R.new_game(players, 9)
    # stop in the middle of a pass (cards waiting in the pass step) and later mid-trick
    cut_points = []
    for i, a in enumerate(actions):
        if S.prompt() == "pass" and not cut_points:
            cut_points.append(i + 1)
        S.apply(a)
    cut_points.append(len(actions) // 2)
    for cut in cut_points:
        S = R.new_game(players, 9)
        for a in actions[:cut]:
            S.apply(a)
        text = S.to_json()
        json.loads(text)
        T = R.state_from_json(text)
        assert T.to_json() == text
        assert T.legal_actions() == S.legal_actions() and T.current_player() == S.current_player()
        for a in actions[cut:]:
            S.apply(a)
            T.apply(a)
            assert T.to_json() == S.to_json()
        assert T.is_terminal() and T.scores() == S.scores() and T.winners() == S.winners()


def test_clone_is_independent():
    R = rules()
    _, actions = play_random(None, 4, 13)
    S = R.new_game(4, 13)
    for a in actions[:len(actions) // 3]:
        S.apply(a)
    before = S.to_json()
    C = S.clone()
    assert C == S and C.to_json() == before
    # play the clone on and scribble on its zones, counters and variables
    for a in actions[len(actions) // 3: len(actions) // 3 + 25]:
        C.apply(a)
    C.own("showroom")[0] += 100   # (shared with S until written: State.own)
    C.own("hand")[1].clear()
    C.v["thief"] = 3
    assert S.to_json() == before
    # the original still plays on exactly as the recorded game
    for a in actions[len(actions) // 3:]:
        S.apply(a)
    assert S.is_terminal()


def test_clone_mid_pass_is_independent():
    R = rules()
    S = R.new_game(3, 2)
    S.apply("2")
    S.apply(S.legal_actions()[0])          # a card now waits inside the pass step
    before = S.to_json()
    C = S.clone()
    while C.prompt() == "pass":
        C.apply(C.legal_actions()[0])
    assert S.to_json() == before
    assert sum(len(h) for h in S.z["hand"]) == 29


# ---------------------------------------------------------------------- refused set-ups
def test_teams_refuse_five_players():
    with pytest.raises(UsageError, match="is for 4 or 6 players, not 5"):
        rules("teams").new_game(5, 1)


@pytest.mark.parametrize("variant,players", [(None, 2), (None, 7), ("two_player", 3), ("teams", 3)])
def test_player_counts_outside_the_rules_are_refused(variant, players):
    with pytest.raises(UsageError):
        rules(variant).new_game(players, 1)
