"""Diam's: the YAML scenarios (one pytest case each) plus whole-game properties.

The scenarios in rulesets/scenarios/diams.yaml prove each rule (DM-1 .. DM-10) on a scripted
situation. The checks below are awkward in YAML: random whole games for every player count
and the variant (54 cards conserved, tokens per round), where the closing card lies in the
pile, who sees a safe, determinism and refused player counts.
"""
from __future__ import annotations

import random

import pytest

from interpreter.errors import UsageError
from interpreter.play.checks.scenarios import patch
from seedgames import SeedGame, cards_in_play

GAME = SeedGame("diams")
RULESET, ROOT, rules = GAME.ruleset, GAME.ruleset.parent.parent, GAME.rules
OUTCOMES = GAME.outcomes
GAMES = [(None, 2), (None, 3), (None, 4), (None, 5), ("closing_last", 2), ("closing_last", 4)]


def test_scenario_file_is_substantial():
    assert len(OUTCOMES) >= 40
    assert len({o.name for o in OUTCOMES}) == len(OUTCOMES), "scenario names must be unique"


test_scenario = GAME.scenario_test()
# DM-3 (one pure card per quality) is component data: test_components_50_diamonds_one_pure_per_quality...
test_every_ruling_has_a_scenario = GAME.ruling_test("DM", 1, 11, elsewhere=("DM-3",))


@pytest.mark.parametrize("variant,players", GAMES, ids=[f"{v or 'base'}-{n}p" for v, n in GAMES])
def test_random_games_finish_and_conserve_cards(variant, players):
    r = rules(variant)
    for seed in (1, 2):
        S = r.new_game(players, seed)
        rnd = random.Random(seed)
        while not S.is_terminal():
            legal = S.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            S.apply(rnd.choice(legal))
            cards = cards_in_play(S)
            assert sorted(cards) == list(range(54))              # every card exactly once
            assert all(r.attr_tables["quality"][c] is not None for c in S.z["market"])
        rounds = S.v["round"]
        assert rounds == 3 or (players == 2 and rounds == 2 and max(S.c["round_wins"]) == 2)
        awards = [4, 3, 2, 1, 0][:players]
        assert max(awards) * rounds >= max(S.c["tokens"]) and sum(S.c["tokens"]) >= sum(awards[-1:]) * rounds
        assert S.scores() == S.c["tokens"] and S.winners()


def test_closing_card_lies_in_the_bottom_16_or_last_in_the_variant():
    for seed in range(30):
        S = rules().new_game(4, seed)
        pile = S.z["pile"]
        pos = [r for r, c in enumerate(pile) if rules().attr_tables["kind"][c] == "closing"]
        assert pos and pos[0] < 16                      # index 0 is the bottom of the pile
        S = rules("closing_last").new_game(4, seed)
        assert rules().attr_tables["kind"][S.z["pile"][0]] == "closing"


def test_components_50_diamonds_one_pure_per_quality_3_forced_sales_1_closing():
    r = rules()
    at = r.attr_tables
    cards = range(len(r.card_labels))
    assert len(cards) == 54
    diamonds = [c for c in cards if at["quality"][c] is not None]
    assert len(diamonds) == 50
    for q in range(1, 11):                                   # 10 series of 5; DM-3: exactly one pure
        series = [c for c in diamonds if at["quality"][c] == q]
        assert len(series) == 5 and sum(1 for c in series if at["pure"][c]) == 1
    sales = [c for c in cards if at["kind"][c] == "forced_sale"]
    assert sorted(at["power"][c] for c in sales) == ["piercer", "quick", "sleight"]   # DM-1: A, B, C
    assert sum(1 for c in cards if at["kind"][c] == "closing") == 1


# DM-2, copied from shared/RULINGS.md: points by quality (1..10) for 3, 4 and 5 cards.
DM2 = {3: [1, 2, 3, 4, 5, 6, 7, 3, 2, 1], 4: [2, 3, 4, 5, 6, 8, 9, 4, 3, 2], 5: [3, 4, 6, 7, 8, 10, 12, 5, 4, 3]}


def round_score_of_safe(safe0: list, safe1: list, others: list) -> list:
    """Seat 0 holds safe0 and ends with an empty hand; seat 1 holds safe1 and keeps a diamond."""
    S = rules().new_game(2, 7, {"params": {"rounds": 1}})
    x, y, z, m, a = (str(q) for q in others[:5])
    patch(S, {"zones": {"hand": {0: [x], 1: [y, z]}, "safe": {0: safe0, 1: safe1}, "market": [m],
                        "pile": [a, a, "closing"]}})
    for act in ["draw", "put_on_market", x, "put_on_market", y]:
        S.apply(act)
    assert S.is_terminal()
    return S.c["round_score"]


@pytest.mark.parametrize("q", range(1, 11))
def test_collection_points_follow_the_dm2_table(q):
    pures = ["9*", "10*"] if q <= 5 else ["1*", "2*"]        # seat 1 always has the most pure cards
    others = [k for k in range(1, 11) if k != q and f"{k}*" not in pures]
    for size in range(0, 6):
        safe0 = [str(q)] * min(size, 4) + ([f"{q}*"] if size == 5 else [])
        got = round_score_of_safe(safe0, pures, others)
        assert got[0] == (DM2[size][q - 1] if size >= 3 else 0), (q, size)   # DM-2: 2 or fewer score 0
        assert got[1] == 5 + 3                                # the purity bonus and the hand bonus


def test_first_player_is_random_then_moves_left_each_round():
    firsts = {rules().new_game(3, seed).v["first_player"] for seed in range(30)}
    assert firsts == {0, 1, 2}                                # DM-5: round 1's first player is random
    for seed in (1, 2, 3):
        S = rules().new_game(4, seed)
        rnd = random.Random(seed)
        seen = {1: S.v["first_player"]}
        while not S.is_terminal():
            S.apply(rnd.choice(S.legal_actions()))
            if S.v["round"] not in seen and not S.is_terminal():
                seen[S.v["round"]] = S.v["first_player"]
                assert S.current_player() == S.v["first_player"]
        assert seen[2] == (seen[1] + 1) % 4 and seen[3] == (seen[1] + 2) % 4


def test_closing_card_position_is_shuffled_within_the_bottom_16():
    positions = set()
    for seed in range(60):
        S = rules().new_game(2, seed)
        pos = [i for i, c in enumerate(S.z["pile"]) if rules().attr_tables["kind"][c] == "closing"][0]
        assert pos < 16
        positions.add(pos)
    assert len(positions) >= 10 and min(positions) <= 3      # not always at the same place


def test_the_safe_is_seen_by_its_owner_only():
    S = rules().new_game(2, 7)
    patch(S, {"zones": {"hand": {0: ["7", "7", "7"], 1: ["4"]}, "market": ["9"], "pile": ["2", "3"]}})
    for a in ["draw", "secure", "7", "7", "7", "7"]:
        S.apply(a)
    assert S.observation(0)["zones"]["safe"][0] == ["7", "7", "7"]
    assert S.observation(1)["zones"]["safe"][0] == 3            # only the number of cards
    assert S.observation(1)["zones"]["hand"][0] == 1 and S.observation(1)["zones"]["pile"] == 1
    assert isinstance(S.observation(1)["zones"]["market"], list)
    assert "_set_quality" not in S.observation(1)["vars"]       # the secured quality stays hidden


def test_same_seed_same_game_and_clone_independence():
    def play(seed):
        S = rules().new_game(3, seed)
        rnd = random.Random(5)
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
        return S
    assert play(4) == play(4) and play(4).digest() == play(4).digest()
    S = rules().new_game(3, 4)
    C = S.clone()
    C.apply_index(0)
    assert S.to_json() != C.to_json() and S.dec is not None


@pytest.mark.parametrize("players", [0, 1, 6])
def test_other_player_counts_are_refused(players):
    with pytest.raises(UsageError, match="2 to 5 players"):
        rules().new_game(players, 1)


def test_cli_refuses_with_exit_2_and_no_traceback():
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-m", "interpreter", "play", str(RULESET), "--players", "6"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode in (1, 2) and "Traceback" not in p.stderr and "2 to 5" in (p.stderr + p.stdout)
