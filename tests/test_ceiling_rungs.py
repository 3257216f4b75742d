"""The rungs of benchmarks/ceiling/mister_diamond_rungs.py play the engine's games of Mister
Diamond: from the same seed, at every decision each rung asks the engine's seat the engine's
options (card ids, in the same order), the same option is taken on both, and the game ends at the
same decision with the same scores and winners. Rung 0 (the plain program) is checked on the games
benchmarks/ceiling.py counts it on: its choices drawn from the engine's stream, the same number of
decisions and the same scores and winners."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import interpreter
from helpers import module_from_file

ROOT = Path(__file__).resolve().parent.parent
rungs = module_from_file("mister_diamond_rungs", ROOT / "benchmarks" / "ceiling" / "mister_diamond_rungs.py")
RULES = interpreter.load(interpreter.ruleset_path("mister_diamond"))
SKILLS = [0.0, 0.3, 0.5, 0.8, 0.95, 1.0]


def _lockstep(rung: type, players: int, seed: int, skill=None, exact: bool = True) -> int:
    """The decisions of a game, checked to be the engine's; ``exact``: the options a tuple as the
    engine hands them over (else any sequence: a variant that hands over its list)."""
    S = RULES.new_game(players, seed=seed, options={"skill": skill} if skill else None)
    R = rung(players, seed, skill)
    rnd = random.Random(seed)
    decisions = 0
    while not S.over:
        assert not R.over, (seed, decisions)
        assert (R.dec if exact else (R.dec[0], tuple(R.dec[1]))) == S.dec, (seed, decisions, R.dec, S.dec)
        assert not exact or type(R.dec[1]) is tuple
        i = rnd.randrange(len(S.dec[1]))
        S.apply_index(i)
        R.apply_index(i)
        decisions += 1
    assert R.over and R.dec is None, (seed, decisions)
    assert (list(R.scores()), list(R.winners())) == (list(S.scores()), list(S.winners())), seed
    return decisions


@pytest.mark.parametrize("rung", [1, 2, 3])
def test_each_rung_plays_the_engines_games(rung):
    cls = rungs.RUNGS[rung]
    for players in (2, 4, 6):
        for seed in range(6):
            _lockstep(cls, players, 100 * players + seed)
    for seed in range(3):   # a skill per seat (MD-2): clumsy seats end their turns sooner
        _lockstep(cls, 6, 900 + seed, SKILLS)


def test_rung_0_plays_the_games_the_benchmark_counts():
    games, seed = 6, 5
    rnd = random.Random(seed)
    engine = []
    for g in range(games):
        S = RULES.new_game(4, seed=seed + g)
        n = 0
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
            n += 1
        engine.append((n, list(S.scores()), list(S.winners())))
    rnd = random.Random(seed)
    mine = []
    for g in range(games):
        game = rungs.Game(4, seed + g)
        game.rng = rnd
        game.play()
        mine.append((game.decisions, game.points, game.winners()))
    assert mine == engine
    assert rungs.play_rung0(games, seed) == sum(n for n, _, _ in engine)


def test_a_variant_takes_out_a_feature_and_plays_the_same_games():
    """benchmarks/ceiling.py counts a rung without one feature: the same game, less work."""
    for drop in (("steps",), ("sh", "ev", "kn")):
        cls = rungs.variant(3, drop)
        assert cls is not rungs.Rung3
        assert _lockstep(cls, 4, 7) == _lockstep(rungs.Rung3, 4, 7)
    source = Path(rungs.__file__).read_text()
    assert source.count("# [steps]") >= 4   # (the marks the variants take out)
    R = rungs.variant(3, ("steps",))(4, 7)
    R.apply_index(0)
    assert R.steps == 2 * rungs.N_SPOTS + rungs.FAKES + 2 * rungs.FACE_UP   # only the setup's count left


def test_every_part_the_benchmark_counts_plays_the_same_games():
    """Each rung benchmarks/ceiling.py counts without one feature is the same game."""
    ceiling = module_from_file("ceiling_benchmark", ROOT / "benchmarks" / "ceiling.py")
    assert len(ceiling.PARTS) >= 10
    for rung, _what, drop, replace in ceiling.PARTS:
        if rung == 0:   # (its shuffles drawn by engine/rng.py: the same board and tiles)
            assert drop == ("shuffle",)
            dice, engine = rungs.hw.SplitMix64(5), rungs.hw.SplitMix64(5)
            mine, theirs = list(range(42)), list(range(42))
            dice.shuffle(mine)
            rungs._engine_shuffle(engine, theirs)
            assert (mine, dice.state) == (theirs, engine.state) and mine != list(range(42))
            continue
        cls = rungs.variant(rung, drop, replace)
        for seed in (3, 11):
            _lockstep(cls, 4, seed, exact=not any("tuple(" in old for old, _ in replace))


@pytest.mark.parametrize("add", [("frames",), ("trips",), ("frames", "trips")])
def test_rung_3_with_the_interpreters_protocol_plays_the_same_games(add):
    """Rung 3 with the interpreter's frames or trip counts added (benchmarks/ceiling.py ADDS)
    plays the engine's games; with the trips, its step count is the engine's to within 2%: the
    lines added do what the module does (the end condition's charge, 17 on every step's trip, is
    written into each trip's count; where the module counts it on a step run in place is not)."""
    cls = rungs.variant(3, add=add)
    assert cls is not rungs.Rung3
    for seed in range(4):
        _lockstep(cls, 4, seed)
    if "trips" in add:
        for seed in range(4):
            S, R = RULES.new_game(4, seed=seed), cls(4, seed)
            rnd = random.Random(seed)
            while not S.over:
                i = rnd.randrange(len(S.dec[1]))
                S.apply_index(i)
                R.apply_index(i)
            assert abs(R.steps - S.steps) <= 0.02 * S.steps, (seed, R.steps, S.steps)
    if "frames" in add:
        R = cls(4, 0)
        assert R.stack[-1] == (1,) and R.stack[-2][0] == 17   # (asking the target: the module's frames)


def test_an_added_feature_must_be_in_the_file():
    with pytest.raises(ValueError, match="no line marked"):
        rungs.variant(3, add=("nothing",))
