#!/usr/bin/env python3
"""State.clone() against copy.deepcopy of the same state, in microseconds per copy; and a clone
with one decision played on it (copy on write: the lists that decision writes are copied then),
against that decision alone.

    python benchmarks/clone.py --ruleset rulesets/diamonds_club.yaml [--instructions [--games 2]]

``--instructions``: machine instructions instead (valgrind, benchmarks/instructions.py), over the
states of random games in play order: a clone, and a clone with the game's next decision
played on it, per state (3 passes).

    python benchmarks/clone.py [--ruleset rulesets/diamonds.yaml] [--players 4]
"""
from __future__ import annotations

import argparse
import copy
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="rulesets/diamonds.yaml")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--instructions", action="store_true", help="count instructions under valgrind")
    ap.add_argument("--games", type=int, default=2, help="--instructions: random games whose states are cloned")
    args = ap.parse_args(argv)
    if args.instructions:
        return instructions(args)
    rules = interpreter.load(interpreter.ruleset_path(args.ruleset))
    S = rules.new_game(args.players, seed=1)
    for _ in range(30):          # somewhere in the middle of a round
        S.apply_index(0)
    data = {k: getattr(S, k) for k in ("z", "c", "v", "rng", "stack", "dec")}
    n = 20000
    t_clone = timeit.timeit(S.clone, number=n) / n * 1e6
    t_deep = timeit.timeit(lambda: copy.deepcopy(data), number=n // 10) / (n // 10) * 1e6
    print(f"clone: {t_clone:.2f} us, deepcopy of the same data: {t_deep:.2f} us, "
          f"speed-up {t_deep / t_clone:.1f}x")
    i = len(S.dec[1]) // 2
    played = timeit.timeit(lambda: S.clone().apply_index(i), number=n // 4) / (n // 4) * 1e6
    # the same decision on states nobody shares lists with (a fresh copy each, made untimed)
    copies = [S.clone().own_all() for _ in range(n // 4)]
    it = iter(copies)
    alone = timeit.timeit(lambda: next(it).apply_index(i), number=n // 4) / (n // 4) * 1e6
    print(f"a clone and one decision played on it: {played:.2f} us; the decision alone: {alone:.2f} us")
    return 0


CHILD = """
import random, sys
sys.path[:0] = [{root!r}]
import interpreter
rules = interpreter.load(interpreter.ruleset_path({ruleset!r}))
states = []
for seed in range({games}):
    S = rules.new_game({players}, seed)
    rnd = random.Random(seed)
    while not S.over:
        states.append((S.clone(), rnd.randrange(len(S.dec[1]))))
        S.apply_index(states[-1][1])
for _ in range({passes}):
    for s, k in states:
        {op}
print(len(states))
"""


def instructions(args) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from instructions import instructions_of
    root = str(Path(__file__).resolve().parent.parent)
    ruleset = str(Path(args.ruleset).resolve()) if Path(args.ruleset).exists() else args.ruleset

    def per_state(op: str) -> float:
        run = {"root": root, "ruleset": ruleset, "games": args.games, "players": args.players, "op": op}
        base, _ = instructions_of(CHILD.format(passes=0, **run))
        total, out = instructions_of(CHILD.format(passes=3, **run))
        return (total - base) / (3 * int(out.split()[-1]))
    clone, played = per_state("s.clone()"), per_state("s.clone().apply_index(k)")
    print(f"{Path(ruleset).stem}: clone {clone / 1000:.1f} k instructions, a clone and its next decision "
          f"{played / 1000:.1f} k ({args.games} games' states)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
