#!/usr/bin/env python3
"""The interpreter against a plain hand-written Python program of the same game.

    python benchmarks/versus_handwritten.py [--game G] [--games 400] [--repeat 3] [--instructions [--hardware]]

``benchmarks/reference/diamonds_handwritten.py`` plays Diamonds (the same rulings, 4 players,
uniformly random legal play) with no rules engine: the speed to chase;
``diams_handwritten.py`` and ``diamonds_club_handwritten.py`` play Diam's and Diamonds Club the
same way, asking the ruleset's decisions with the same options (tests/test_diams_lockstep.py
and tests/test_diamonds_club_lockstep.py replay the engine's games with them). Both run in this
process, alternating, ``--repeat`` times (median of each), so that the machine's load falls on
both alike; the ratio of the two times per game is the figure. ``--instructions`` counts
machine instructions per game of both under valgrind instead (deterministic; see
instructions.py); with ``--hardware``, also cachegrind's simulated cache misses and
mispredicted branches a game (up to 200 games): where the wall-time ratio departs from the
instructions' one.
"""
from __future__ import annotations

import argparse
import importlib
import json
import shutil
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE), str(HERE / "reference")]

import interpreter  # noqa: E402
from interpreter.play.workers import settle  # noqa: E402
from playouts import playouts  # noqa: E402


GAMES = {"diamonds": "Diamonds", "diams": "Diam's", "diamonds_club": "Diamonds Club"}   # with a hand-written program


def handwritten(game_name: str, games: int, seed: int) -> dict:
    Game = importlib.import_module(f"{game_name}_handwritten").Game
    start = time.perf_counter()
    decisions = 0
    for g in range(games):
        game = Game(4, seed + g)
        game.play()
        decisions += game.decisions
    return {"seconds": time.perf_counter() - start, "decisions": decisions}


def wall(game: str, games: int, repeat: int, seed: int) -> dict:
    rules = interpreter.load(interpreter.ruleset_path(game))
    settle()
    playouts(rules, 4, max(1, games // 10), seed)   # warm-up, both
    handwritten(game, max(1, games // 10), seed)
    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(playouts(rules, 4, games, seed)["seconds"] / games)
        theirs.append(handwritten(game, games, seed)["seconds"] / games)
    a, b = statistics.median(ours), statistics.median(theirs)
    return {"interpreter_ms_per_game": round(a * 1e3, 3), "handwritten_ms_per_game": round(b * 1e3, 3),
            "ratio": round(a / b, 2), "games": games, "repeat": repeat}


CHILD = {
    "interpreter": ("import sys; sys.path[:0] = [{root!r}, {bench!r}]\n"
                    "import interpreter\nfrom playouts import playouts\n"
                    "from interpreter.play.workers import settle\n"
                    "rules = interpreter.load(interpreter.ruleset_path({game!r})); settle()\n"
                    "if {games}: playouts(rules, 4, {games}, {seed})\n"),
    "handwritten": ("import sys; sys.path[:0] = [{ref!r}]\n"
                    "from {game}_handwritten import Game\n"
                    "for g in range({games}): Game(4, {seed} + g).play()\n"),
}


def _child(kind: str, game: str, games: int, seed: int) -> str:
    """The code of a child process playing ``games`` games of one side."""
    return CHILD[kind].format(root=str(ROOT), bench=str(HERE), ref=str(HERE / "reference"), game=game,
                              games=games, seed=seed)


def instructions(kind: str, game: str, games: int, seed: int) -> float:
    from instructions import instructions_of   # (benchmarks/instructions.py: the same child settings)
    full, empty = (instructions_of(_child(kind, game, n, seed))[0] for n in (games, 0))
    return (full - empty) / games


def counters(kind: str, game: str, games: int, seed: int) -> dict:
    """cachegrind's counters a game (instructions, cache misses, mispredicted branches)."""
    from instructions import counters_of
    full, empty = (counters_of(_child(kind, game, n, seed))[0] for n in (games, 0))
    return {name: (full[name] - empty.get(name, 0)) / games for name in full}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="diamonds")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--instructions", action="store_true", help="count instructions under valgrind instead")
    ap.add_argument("--hardware", action="store_true",
                    help="also count cache misses and mispredicted branches under valgrind (with --instructions)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    name = GAMES[args.game]
    if args.instructions and shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    if args.instructions and args.hardware:
        games = min(args.games, 200)
        a, b = (counters(kind, args.game, games, args.seed) for kind in ("interpreter", "handwritten"))
        result = {"interpreter": {k: round(v) for k, v in a.items()},
                  "handwritten": {k: round(v) for k, v in b.items()}, "games": games,
                  "ratios": {k: round(a[k] / b[k], 2) for k in a if b.get(k)}}
        rows = [f"{k:12s} {a[k]:12,.0f} {b[k]:12,.0f} {a[k] / b[k]:6.2f}x" for k in a
                if min(a[k], b[k]) >= 100]   # (last-level misses: a few a game, noise)
        text = "\n".join([f"{name}, 4 players, a game ({games} games each): interpreter, hand-written, ratio", *rows])
    elif args.instructions:
        games = min(args.games, 10)
        a, b = (instructions(kind, args.game, games, args.seed) for kind in ("interpreter", "handwritten"))
        result = {"interpreter_instructions_per_game": round(a), "handwritten_instructions_per_game": round(b),
                  "ratio": round(a / b, 2), "games": games}
        text = (f"{name}, 4 players: interpreter {a / 1e6:.2f} M instructions/game, hand-written "
                f"{b / 1e6:.2f} M: {a / b:.2f}x ({games} games each)")
    else:
        result = wall(args.game, args.games, args.repeat, args.seed)
        text = (f"{name}, 4 players: interpreter {result['interpreter_ms_per_game']} ms/game, hand-written "
                f"{result['handwritten_ms_per_game']} ms/game: {result['ratio']}x "
                f"(median of {args.repeat}, {args.games} games each, alternating)")
    print(json.dumps(result) if args.json else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
