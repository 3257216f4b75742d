#!/usr/bin/env python3
"""State.clone() against copy.deepcopy of the same state, in microseconds per copy; and a clone
with one decision played on it (copy on write: the lists that decision writes are copied then),
against that decision alone.

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
    args = ap.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
