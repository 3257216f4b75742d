#!/usr/bin/env python3
"""Yacht (tests/test_classics_yacht.py) at scale against OpenSpiel's yacht, and its speed in both
engines.

    python benchmarks/classics_yacht.py [--games 200] [--seconds 3] [--json]

1. **proof**: ``--games`` seeded random games of every case of the suite, each checked decision
   by decision and die by die as the suite checks its few (an AssertionError names the game that
   differs);
2. **speed**: decisions a second of random play of Yacht (OpenSpiel's default parameters, 2
   players), Rulebook and OpenSpiel's C++ game through pyspiel, measured as
   benchmarks/classics.py measures the other twins (OpenSpiel's chance node of a roll lists every
   outcome, 6^5 = 7,776 for the first roll of a turn, through the binding).
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
    sys.exit("benchmarks/classics_yacht.py needs OpenSpiel (the `rl` extra: pip install open_spiel)")

import test_classics_yacht as yacht  # noqa: E402
from classics import arguments, proved, rates  # noqa: E402


def main() -> int:
    args = arguments(__doc__, "seeded games per case", 3.0, "time spent measuring each engine")
    proofs = []
    for twin, _ in yacht.TWINS:
        for case, results in proved(twin, args.games):
            proofs.append({"game": case, "games": args.games, "decisions": sum(d for d, _ in results)})
            if not args.json:
                p = proofs[-1]
                print(f"proof  {p['game']:<48} {p['games']} games, {p['decisions']} decisions: the same as OpenSpiel")
    speed = {"game": "yacht", "players": 2, **rates(yacht.yacht((2,)), 2, args.seconds)}
    if args.json:
        print(json.dumps({"proofs": proofs, "speed": [speed]}, indent=1))
        return 0
    print(f"\n{len(proofs)} cases, {sum(p['games'] for p in proofs):,} games, "
          f"{sum(p['decisions'] for p in proofs):,} decisions: the same in both")
    print(f"Yacht, 2 players: Rulebook {speed['rulebook_decisions_per_s']:,} decisions/s, "
          f"OpenSpiel {speed['openspiel_decisions_per_s']:,} decisions/s ({speed['ratio']}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
