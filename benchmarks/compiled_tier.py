#!/usr/bin/env python3
"""What the compiled tier's per-ruleset part gains: a ruleset's generated module compiled by
Cython (interpreter/accel/rulesets.py), its first compile timed, and instructions a game with
and without it under valgrind (as versus_handwritten.py --instructions counts them).

    python benchmarks/compiled_tier.py --game diamonds [--games 10]

The compile goes to a fresh temporary cache folder, so it is a first compile; the engine's own
modules run as this checkout has them (pure, or built by ``python -m interpreter.accel build``:
``python -m interpreter.accel status`` says which). Needs valgrind, Cython and a C compiler.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

import interpreter  # noqa: E402
from instructions import instructions_of  # noqa: E402
from versus_handwritten import GAMES, _child  # noqa: E402

COMPILED = ("from interpreter.accel import rulesets\nrulesets.OPTIMIZE = {optimize!r}\n"
            "assert rulesets.use_compiled(rules)\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="diamonds")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--optimize", choices=("0", "1", "2", "3"), default="2",
                    help="the C compiler's optimisation level for the module (-O0 ... -O3)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from interpreter.accel import rulesets
    from interpreter.accel.rulesets import use_compiled
    args.optimize = rulesets.OPTIMIZE = f"-O{args.optimize}"
    with tempfile.TemporaryDirectory(prefix="rulebook-cache-") as cache:
        os.environ["XDG_CACHE_HOME"] = cache   # (the children below inherit it: the module compiled here)
        os.environ.pop("RULEBOOK_NO_CACHE", None)
        rules = interpreter.load(interpreter.ruleset_path(args.game))
        before = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        if not use_compiled(rules):
            return 1
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = sum(a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime for a, b in zip(after, before))
        counts = {}
        for kind, extra in (("python", ""), ("compiled", COMPILED.format(optimize=args.optimize))):
            code = {n: _child("interpreter", args.game, n, args.seed).replace("settle()\n", "settle()\n" + extra)
                    for n in (args.games, 0)}
            (full, out), (empty, _) = (instructions_of(code[n]) for n in (args.games, 0))
            counts[kind] = (full - empty) / args.games
    result = {"game": args.game, "optimize": args.optimize, "lines": len(rules.module_source.splitlines()), "first_compile_s": round(wall, 1),
              "first_compile_cpu_s": round(cpu, 1), "python_instructions_per_game": round(counts["python"]),
              "compiled_instructions_per_game": round(counts["compiled"]),
              "ratio": round(counts["compiled"] / counts["python"], 3), "games": args.games}
    print(json.dumps(result) if args.json else
          f"{GAMES[args.game]}: module of {result['lines']} lines compiled ({args.optimize}) in {wall:.1f} s ({cpu:.1f} s of CPU); "
          f"{counts['python'] / 1e6:.2f} M instructions a game as Python, {counts['compiled'] / 1e6:.2f} M "
          f"compiled ({result['ratio']:.3f}x, {args.games} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
