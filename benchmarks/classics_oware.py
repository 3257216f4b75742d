#!/usr/bin/env python3
"""Oware (tests/test_classics_oware.py) at scale: the proof against OpenSpiel, how often each rule
fired, and the speed of both engines.

    python benchmarks/classics_oware.py [--games 200] [--seconds 3] [--json]

1. **proof**: ``--games`` seeded random games of every board of the suite (6 houses of 4 seeds,
   3 of 3, 2 of 2, 4 of 1), each replayed in OpenSpiel's ``oware`` as the suite replays 30: the
   same moves and returns (test_classics.replay), and the same board, stores and player to
   move at every decision (an AssertionError names the game that differs);
2. **rules**: how many times each rule fired in those games (a lap, each capture, the grand
   slam, must feed, each end, a draw), per board;
3. **speed**: decisions a second of random play on the published board, Rulebook and
   OpenSpiel's C++ game through pyspiel, measured as benchmarks/classics.py measures the others.
"""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

if importlib.util.find_spec("pyspiel") is None:
    sys.exit("benchmarks/classics_oware.py needs OpenSpiel (the `rl` extra: pip install open_spiel)")

import test_classics_oware as oware  # noqa: E402
from classics import arguments, proved, rates  # noqa: E402


def main() -> int:
    args = arguments(__doc__, "seeded games per board", 3.0, "time spent measuring each engine")
    proofs = []
    for twin in oware.TWINS:
        for case, results in proved(twin, args.games):
            counts = oware.rule_counts(twin, args.games)
            proofs.append({"game": case, "games": args.games, "decisions": sum(d for d, _ in results),
                           "rules": {r: counts[r] for r in oware.RULES}})
    speed = {"game": "oware", "players": 2, **rates(oware.TWINS[0], 2, args.seconds)}
    if args.json:
        print(json.dumps({"proofs": proofs, "speed": [speed]}, indent=1))
        return 0
    for p in proofs:
        print(f"proof  {p['game']:<52} {p['games']} games, {p['decisions']} decisions: the same as OpenSpiel")
        print("       " + ", ".join(f"{r} {n}" for r, n in p["rules"].items()))
    print(f"\nOware, 6 houses of 4: Rulebook {speed['rulebook_decisions_per_s']:,} decisions/s, "
          f"OpenSpiel {speed['openspiel_decisions_per_s']:,} decisions/s ({speed['ratio']}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
