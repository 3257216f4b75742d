#!/usr/bin/env python3
"""State.clone() against copy.deepcopy of the same state, in microseconds per copy.

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
    return 0


if __name__ == "__main__":
    sys.exit(main())
