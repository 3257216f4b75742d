#!/usr/bin/env python3
"""The interpreter against a plain hand-written Python program of the same game.

    python benchmarks/versus_handwritten.py [--game G] [--games 400] [--repeat 3] [--instructions [--hardware]]
    python benchmarks/versus_handwritten.py --game diamonds_club --by-prompt --games 3

``tests/oracles/diamonds_handwritten.py`` plays Diamonds (the same rulings, 4 players,
uniformly random legal play) with no rules engine: the speed to chase;
``diams_handwritten.py``, ``diamonds_club_handwritten.py`` and ``mister_diamond_handwritten.py``
play Diam's, Diamonds Club and Mister Diamond the same way, asking the ruleset's decisions with
the same options (tests/test_diams_lockstep.py, tests/test_diamonds_club_lockstep.py and
tests/test_mister_diamond_lockstep.py replay the engine's games with them). Both run in this
process, alternating, ``--repeat`` times (median of each), so that the machine's load falls on
both alike; the ratio of the two times per game is the figure. ``--instructions`` counts
machine instructions per game of both under valgrind instead (deterministic; see
instructions.py), and per decision. Both sides choose alike: game ``g`` takes each option at random
from its own ``random.Random(seed + g)`` (``interpreted``, as the programs' ``choose`` does), and
its chance from the seed ``seed + g``; where a program asks the same decisions with the same
options as the ruleset (Mister Diamond: every game), the two sides play the very same games and
the ratio a game compares like with like. Where they differ (the other three number or order
some options their own way), each side plays its own random games and a game's length differs
a little between them (the decisions a game are printed, side by side). With ``--hardware``, also cachegrind's simulated cache misses and
mispredicted branches a game (up to 200 games): where the wall-time ratio departs from the
instructions' one. ``--by-prompt`` counts Python opcodes (deterministic, no valgrind) per
decision of each prompt, on each side: the work a decision's answer sets going, up to the next
question (the start of a game apart), so the table shows which kinds of decision carry the
interpreter's extra work. Each side plays its own random games (the shares, not the games,
are compared), and an opcode of the interpreter is on average a little dearer than one of
the hand-written program (more of its work is in C calls): the instructions' ratio is the
overall figure. The Diamonds program names no prompts: its decisions are one row.
"""
from __future__ import annotations

import argparse
import collections
import importlib
import json
import random
import shutil
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ORACLES = ROOT / "tests" / "oracles"   # the hand-written programs the lockstep tests replay against
sys.path[:0] = [str(ROOT), str(HERE), str(ORACLES)]

import interpreter  # noqa: E402
from interpreter.play.simulation.workers import settle  # noqa: E402


GAMES = {"diamonds": "Diamonds", "diams": "Diam's", "diamonds_club": "Diamonds Club",   # with a hand-written program
         "mister_diamond": "Mister Diamond"}


def interpreted(rules, games: int, seed: int) -> dict:
    """Random games of the interpreter chosen as the hand-written programs choose: game ``g``
    from the seed ``seed + g``, each option drawn by its own ``random.Random(seed + g)``."""
    start = time.perf_counter()
    decisions = 0
    for g in range(games):
        S, rnd = rules.new_game(4, seed=seed + g), random.Random(seed + g)
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
            decisions += 1
    return {"seconds": time.perf_counter() - start, "decisions": decisions}


def handwritten(game_name: str, games: int, seed: int) -> dict:
    Game = importlib.import_module(f"{game_name}_handwritten").Game
    start = time.perf_counter()
    decisions = 0
    for g in range(games):
        game = Game(4, seed + g)
        game.play()
        decisions += game.decisions
    return {"seconds": time.perf_counter() - start, "decisions": decisions}


def by_prompt(game: str, games: int, seed: int) -> dict:
    """prompt -> {"decisions": [interpreter, hand-written] a game, "opcodes": [each] a decision},
    each side's opcodes counted by opcodes.py's tracer and given to the prompt last asked."""
    from opcodes import counter
    rules = interpreter.load(interpreter.ruleset_path(game))
    Game = importlib.import_module(f"{game}_handwritten").Game
    now = [0, "(start)"]                       # the side playing, the prompt being answered
    made: collections.Counter = collections.Counter()

    class Counted(Game):
        def choose(self, options, *rest):   # (prompt, seat: as the program passes them)
            now[1] = rest[0] if rest and rest[0] else "(any)"
            made[1, now[1]] += 1
            return Game.choose(self, options, *rest)

    def interpreted(g):
        S, rnd = rules.new_game(4, seed + g), random.Random(seed + g)
        steps = rules.steps
        while not S.over:
            now[1] = steps[S.stack[-1][0]].prompt   # (State.prompt, inline: this frame is not counted)
            made[0, now[1]] += 1
            S.apply_index(rnd.randrange(len(S.dec[1])))

    def reference(g):
        Counted(4, seed + g).play()

    # the harness's own frames are not counted; the random choices, on both sides, are
    counts, tracer = counter(lambda: (now[0], now[1]),
                             skip={interpreted.__code__, reference.__code__, Counted.choose.__code__})
    for g in range(games):
        for side, play in enumerate((interpreted, reference)):
            now[:] = side, "(start)"
            sys.settrace(tracer)
            try:
                play(g)
            finally:
                sys.settrace(None)
    out = {}
    for prompt in sorted({p for _, p in counts}, key=lambda p: -counts[0, p]):
        out[prompt] = {"decisions": [made[k, prompt] / games for k in (0, 1)],
                       "opcodes": [counts[k, prompt] / (games if prompt == "(start)" else max(1, made[k, prompt]))
                                   for k in (0, 1)]}
    out["(a game)"] = {"decisions": [sum(n for (k, _), n in made.items() if k == side) / games for side in (0, 1)],
                       "opcodes": [sum(n for (k, _), n in counts.items() if k == side) / games for side in (0, 1)]}
    return out


def _prompt_rows(table: dict, name: str, games: int) -> str:
    whole = table["(a game)"]["opcodes"][0]
    width = max(10, *map(len, table))
    rows = [f"{name}, 4 players, Python opcodes, interpreter / hand-written ({games} games each; "
            "the rows (start) and (a game): opcodes a game)",
            f"{'prompt':{width}s} {'decisions a game':>18s} {'opcodes a decision':>20s} {'ratio':>6s} {'share':>6s}"]
    for prompt, row in table.items():
        (da, db), (oa, ob) = row["decisions"], row["opcodes"]
        a_game = oa if prompt in ("(start)", "(a game)") else oa * da
        ratio = f"{oa / ob:5.2f}x" if oa and ob else "     -"
        rows.append(f"{prompt:{width}s} {da:8.1f} {db:9.1f} {oa:10.0f} {ob:9.0f} {ratio} {a_game / whole:6.0%}")
    return "\n".join(rows)


def wall(game: str, games: int, repeat: int, seed: int) -> dict:
    rules = interpreter.load(interpreter.ruleset_path(game))
    settle()
    interpreted(rules, max(1, games // 10), seed)   # warm-up, both
    handwritten(game, max(1, games // 10), seed)
    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(interpreted(rules, games, seed)["seconds"] / games)
        theirs.append(handwritten(game, games, seed)["seconds"] / games)
    a, b = statistics.median(ours), statistics.median(theirs)
    return {"interpreter_ms_per_game": round(a * 1e3, 3), "handwritten_ms_per_game": round(b * 1e3, 3),
            "ratio": round(a / b, 2), "games": games, "repeat": repeat}


CHILD = {
    "interpreter": ("import sys; sys.path[:0] = [{root!r}, {bench!r}]\n"
                    "import interpreter\nfrom versus_handwritten import interpreted\n"
                    "from interpreter.play.simulation.workers import settle\n"
                    "rules = interpreter.load(interpreter.ruleset_path({game!r})); settle()\n"
                    "print(interpreted(rules, {games}, {seed})['decisions'] if {games} else 0)\n"),
    "handwritten": ("import sys; sys.path[:0] = [{ref!r}]\n"
                    "from {game}_handwritten import Game\n"
                    "decisions = 0\n"
                    "for g in range({games}):\n"
                    "    game = Game(4, {seed} + g); game.play(); decisions += game.decisions\n"
                    "print(decisions)\n"),
}


def _child(kind: str, game: str, games: int, seed: int) -> str:
    """The code of a child process playing ``games`` games of one side."""
    return CHILD[kind].format(root=str(ROOT), bench=str(HERE), ref=str(ORACLES), game=game,
                              games=games, seed=seed)


def instructions(kind: str, game: str, games: int, seed: int) -> tuple[float, float]:
    """(instructions a game, decisions a game) of one side (the same games on both sides where
    the program asks as the ruleset does: the module docstring)."""
    from instructions import per_game   # (benchmarks/instructions.py: the same child settings)
    return per_game(lambda n: _child(kind, game, n, seed), games)


def counters(kind: str, game: str, games: int, seed: int) -> dict:
    """cachegrind's counters a game (instructions, cache misses, mispredicted branches)."""
    from instructions import counters_of
    full, empty = (counters_of(_child(kind, game, n, seed))[0] for n in (games, 0))
    return {name: (full[name] - empty.get(name, 0)) / games for name in full}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="diamonds")
    ap.add_argument("--games", type=int, default=None,
                    help="games a side (400; under --instructions 10, and with --hardware at most 200)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--instructions", action="store_true", help="count instructions under valgrind instead")
    ap.add_argument("--hardware", action="store_true",
                    help="also count cache misses and mispredicted branches under valgrind (with --instructions)")
    ap.add_argument("--by-prompt", action="store_true",
                    help="Python opcodes a decision of each prompt, both sides (up to 20 games)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    name = GAMES[args.game]
    if args.by_prompt:
        games = min(args.games or 20, 20)
        result = by_prompt(args.game, games, args.seed)
        print(json.dumps(result) if args.json else _prompt_rows(result, name, games))
        return 0
    if args.instructions and shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    if args.instructions and args.hardware:
        games = min(args.games or 10, 200)
        a, b = (counters(kind, args.game, games, args.seed) for kind in ("interpreter", "handwritten"))
        result = {"interpreter": {k: round(v) for k, v in a.items()},
                  "handwritten": {k: round(v) for k, v in b.items()}, "games": games,
                  "ratios": {k: round(a[k] / b[k], 2) for k in a if b.get(k)}}
        rows = [f"{k:12s} {a[k]:12,.0f} {b[k]:12,.0f} {a[k] / b[k]:6.2f}x" for k in a
                if min(a[k], b[k]) >= 100]   # (last-level misses: a few a game, noise)
        text = "\n".join([f"{name}, 4 players, a game ({games} games each): interpreter, hand-written, ratio", *rows])
    elif args.instructions:
        games = args.games or 10
        (a, da), (b, db) = (instructions(kind, args.game, games, args.seed) for kind in ("interpreter", "handwritten"))
        result = {"interpreter_instructions_per_game": round(a), "handwritten_instructions_per_game": round(b),
                  "ratio": round(a / b, 2), "games": games, "decisions_per_game": [da, db],
                  "ratio_per_decision": round(a / da / (b / db), 2)}
        text = (f"{name}, 4 players: interpreter {a / 1e6:.2f} M instructions/game, hand-written "
                f"{b / 1e6:.2f} M: {a / b:.2f}x ({games} games each); a decision: "
                f"{a / da / 1e3:.1f} k ({da:.1f} a game), {b / db / 1e3:.1f} k ({db:.1f}): {a / da / (b / db):.2f}x")
    else:
        args.games = args.games or 400
        result = wall(args.game, args.games, args.repeat, args.seed)
        text = (f"{name}, 4 players: interpreter {result['interpreter_ms_per_game']} ms/game, hand-written "
                f"{result['handwritten_ms_per_game']} ms/game: {result['ratio']}x "
                f"(median of {args.repeat}, {args.games} games each, alternating)")
    print(json.dumps(result) if args.json else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
