#!/usr/bin/env python3
"""What the compiled tier's per-ruleset part gains: a ruleset's generated module compiled by
Cython (interpreter/accel/rulesets.py), its first compile timed, and instructions a game with
and without it under valgrind (as versus_handwritten.py --instructions counts them).

    python benchmarks/compiled_tier.py --game diamonds [--games 10] [--optimize 1] [--lines 1000] [--dialect python]

The first compile's CPU time is given in two parts: this process's (the profile of random
play that picks the hot functions, the module written again for the compiler, Cython,
setuptools) and the C compiler's. ``--dialect python`` compiles the module as it runs, its
state's slots read by Cython's generic attribute lookup, instead of the C dialect the loader
compiles (expr/cdialect.py ``dialect``: each slot read at its offset, accel/slots.h).

The compile goes to a fresh temporary cache folder, so it is a first compile; the engine's own
modules run as this checkout has them (pure, or built by ``python -m interpreter.accel build``:
``python -m interpreter.accel status`` says which). Needs valgrind, Cython and a C compiler.
"""
from __future__ import annotations

import argparse
import ast
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

COMPILED = ("from interpreter.accel import rulesets\nrulesets.OPTIMIZE = {optimize!r}\nrulesets.LINES = {lines!r}\n"
            "from interpreter.building import written_for_c\nfrom interpreter.loading.resources import find_ruleset\n"
            "from interpreter.loading.variants import load_data\n"
            "written = lambda: written_for_c(load_data(find_ruleset({game!r}), None))\n"
            "assert rulesets.use_compiled(rules, {written})\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="diamonds")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--optimize", choices=("0", "1", "2", "3"), default=None,
                    help="the C compiler's optimisation level for the module (-O0 ... -O3; default: the loader's)")
    ap.add_argument("--lines", type=int, default=None,
                    help="the most lines of hot functions compiled (0: every function; default: the loader's)")
    ap.add_argument("--dialect", choices=("c", "python"), default="c",
                    help="the module's text compiled: written for C (the loader's), or as it runs")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from interpreter.accel import rulesets
    from interpreter.accel.build import BuildError
    if args.optimize is not None:
        rulesets.OPTIMIZE = f"-O{args.optimize}"
    args.optimize = rulesets.OPTIMIZE
    if args.lines is not None:
        rulesets.LINES = args.lines or None
    with tempfile.TemporaryDirectory(prefix="rulebook-cache-") as cache:
        os.environ["XDG_CACHE_HOME"] = cache   # (the children below inherit it: the module compiled here)
        os.environ.pop("RULEBOOK_NO_CACHE", None)
        from interpreter.building import written_for_c
        from interpreter.loading.resources import find_ruleset
        from interpreter.loading.variants import load_data
        rules = interpreter.load(interpreter.ruleset_path(args.game))
        written = None if args.dialect == "python" else \
            (lambda: written_for_c(load_data(find_ruleset(args.game), None)))
        before = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        try:
            module = rulesets.compiled_module(rules, written)
        except BuildError as e:
            print(f"compiled_tier: {e}", file=sys.stderr)
            return 1
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        own, cc = (a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime for a, b in zip(after, before))
        free = set(module.__free__)
        compiled = sorted(n for n, v in vars(module).items() if callable(v) and n not in free and not n.startswith("__"))
        counts = {}
        asked = COMPILED.format(optimize=args.optimize, lines=rulesets.LINES, game=args.game,
                                written="None" if written is None else "written")
        for kind, extra in (("python", ""), ("compiled", asked)):
            code = {n: _child("interpreter", args.game, n, args.seed).replace("settle()\n", "settle()\n" + extra)
                    for n in (args.games, 0)}
            (full, out), (empty, _) = (instructions_of(code[n]) for n in (args.games, 0))
            counts[kind] = (full - empty) / args.games
    functions = sum(1 for node in ast.parse(rules.module_source).body if isinstance(node, ast.FunctionDef))
    result = {"game": args.game, "dialect": args.dialect, "optimize": args.optimize, "lines_budget": rulesets.LINES,
              "lines": len(rules.module_source.splitlines()), "functions": functions, "compiled": compiled,
              "first_compile_s": round(wall, 1), "first_compile_cpu_s": round(own + cc, 1),
              "python_cython_cpu_s": round(own, 1), "c_compiler_cpu_s": round(cc, 1),
              "python_instructions_per_game": round(counts["python"]),
              "compiled_instructions_per_game": round(counts["compiled"]),
              "ratio": round(counts["compiled"] / counts["python"], 3), "games": args.games}
    print(json.dumps(result) if args.json else
          f"{GAMES[args.game]}: {len(compiled)} of the module's {functions} functions ({result['lines']} lines) compiled"
          f" ({args.optimize}, at most {rulesets.LINES or 'all'} lines, {args.dialect} dialect) in {wall:.1f} s: {own + cc:.1f} s of CPU, {own:.1f} s the profile,"
          f" Cython and setuptools, {cc:.1f} s the C compiler; "
          f"{counts['python'] / 1e6:.2f} M instructions a game as Python, {counts['compiled'] / 1e6:.2f} M "
          f"compiled ({result['ratio']:.3f}x, {args.games} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
