"""Diamonds Club's chance, in the engine and in the hand-written program: who starts, and each
round's market (DC-2: N dark strips then N light ones, shuffled anew every round, each showing
a random face). The lockstep test hands the program the engine's start player and markets, so
the program's own draws are checked here, both sides against the rules' distribution: the
start player uniform, each column's strip and face uniform, and a new shuffle every round.
(Over 10000 games a side the game lengths agree too: docs/testing.md, "Chance against the
hand-written programs".)"""
from __future__ import annotations

from collections import Counter

import pytest

import interpreter
from seedgames import handwritten

REFERENCE = handwritten("diamonds_club")
SPACE_ID = {id(space): i for i, space in enumerate(REFERENCE.SPACES)}

RULES = interpreter.load(interpreter.ruleset_path("diamonds_club"))
SPACE_BASE = RULES.card_labels.index("S5")   # the first space card (strip 1, face A, space 1)

# the chi-square a uniform draw exceeds with chance 1e-4, by degrees of freedom (scipy's
# chi2.isf(1e-4, df)): the games are seeded, so a test either always passes or always fails
CHI2_LIMIT = {1: 15.14, 2: 18.42, 3: 21.11, 11: 37.37}


def columns(spaces: list[int], players: int) -> list[tuple[int, int]]:
    """The market's columns as (strip, face 0 or 1), from its spaces (indices in the faces
    table, column by column), checking that each column is one face's 6 spaces in order and
    that the N dark strips come first, then the N light ones, all different (DC-2)."""
    assert len(spaces) == 6 * 2 * players
    out = []
    for c in range(2 * players):
        column = spaces[6 * c: 6 * c + 6]
        assert column[0] % 6 == 0 and column == list(range(column[0], column[0] + 6)), column
        out.append((column[0] // 12 + 1, column[0] % 12 // 6))
    strips = [strip for strip, _ in out]
    assert all(s <= 6 for s in strips[:players]) and all(s > 6 for s in strips[players:]), strips
    assert len(set(strips)) == 2 * players
    return out


def engine_start(players: int, seed: int) -> tuple[int, list[tuple[int, int]]]:
    """The start player and round 1's market of an engine game (laid out before the first
    decision)."""
    S = RULES.new_game(players, seed=seed)
    return S.v["start_player"], columns([c - SPACE_BASE for c in S.z["market"]], players)


def program_start(players: int, seed: int, rounds: int = 1) -> tuple[int, list[list[tuple[int, int]]]]:
    """The start player and the markets of the program's first rounds, laid out by its own
    lay_out_market (one after another, as its rounds do)."""
    game = REFERENCE.Game(players, seed)
    markets = []
    for _ in range(rounds):
        game.lay_out_market()
        markets.append(columns([SPACE_ID[id(space)] for space in game.market], players))
    return game.start_player, markets


def chi2(counts: Counter, cells: list) -> float:
    """Pearson's chi-square of the counts against the uniform over the cells."""
    expected = sum(counts.values()) / len(cells)
    assert set(counts) <= set(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_market_is_n_dark_strips_then_n_light_ones_on_both_sides(players):
    for seed in range(20):
        engine_start(players, seed)
        program_start(players, seed, rounds=3)


@pytest.mark.parametrize("side", ["engine", "program"])
def test_the_start_player_and_the_market_are_drawn_uniformly(side):
    players, games = 4, 1200
    starts: Counter = Counter()
    by_column: list[Counter] = [Counter() for _ in range(2 * players)]
    for seed in range(games):
        if side == "engine":
            start, market = engine_start(players, seed)
        else:
            start, (market,) = program_start(players, seed)
        starts[start] += 1
        for c, strip_face in enumerate(market):
            by_column[c][strip_face] += 1
    assert chi2(starts, list(range(players))) < CHI2_LIMIT[players - 1], starts
    for c, counts in enumerate(by_column):
        strips = range(1, 7) if c < players else range(7, 13)
        cells = [(s, f) for s in strips for f in (0, 1)]   # 12 cells: 11 degrees of freedom
        assert chi2(counts, cells) < CHI2_LIMIT[11], (c, counts)


def test_the_program_shuffles_the_strips_anew_every_round():
    # a round's N of the 6 strips of a colour share on average N * N / 6 with the round before
    # when every round is a new shuffle (4 players: 2.67); a program laying out the strips in
    # turn without shuffling again would share 2
    players, games = 4, 1200
    shared = 0
    for seed in range(games):
        _, (first, second) = program_start(players, seed, rounds=2)
        for colour in (slice(0, players), slice(players, 2 * players)):
            shared += len({s for s, _ in first[colour]} & {s for s, _ in second[colour]})
    mean = shared / (2 * games)
    # the overlap's standard deviation is 0.60 (hypergeometric), the mean's 0.012 over 2400
    assert abs(mean - players * players / 6) < 0.06, mean
