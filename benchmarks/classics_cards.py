#!/usr/bin/env python3
"""The card classics of tests/test_classics_cards.py and tests/test_classics_go_fish.py at scale:
Crazy Eights and Go Fish against OpenSpiel, Love Letter and 6 nimmt! against their referees
(tests/oracles/card_referees.py), and the speed of Crazy Eights and Go Fish in both engines.

    python benchmarks/classics_cards.py [--games 200] [--seconds 3] [--json]

1. **proof**: ``--games`` seeded random games of every case, each checked decision by decision
   as the suite checks 30 (10 for a referee): an AssertionError names the game that differs;
2. **speed**: decisions a second of random play of Crazy Eights (5 players) and Go Fish (2
   players), OpenSpiel's default parameters, Rulebook and OpenSpiel's C++ game through pyspiel,
   measured as benchmarks/classics.py measures the other twins.
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
    sys.exit("benchmarks/classics_cards.py needs OpenSpiel (the `rl` extra: pip install open_spiel)")

import test_classics_cards as cards  # noqa: E402
import test_classics_go_fish as go_fish  # noqa: E402
from classics import arguments, proved, rates  # noqa: E402


def main() -> int:
    args = arguments(__doc__, "seeded games per case", 3.0, "time spent measuring each engine")
    proofs = []
    for twin in cards.TWINS:
        for case, results in proved(twin, args.games):
            proofs.append({"game": case, "against": "OpenSpiel", "games": args.games,
                           "decisions": sum(d for d, _ in results)})
    for twin in go_fish.TWINS:   # (its games record their events: go_fish.Recording)
        for case, results in proved(twin, args.games, go_fish.Recording):
            proofs.append({"game": case, "against": "OpenSpiel", "games": args.games,
                           "decisions": sum(d for d, _ in results)})
    for name, (make, deck, table, counts) in cards.REFEREES.items():
        for n in counts:
            results = [cards.referee_replay(name, n, seed, make(n), deck, table) for seed in range(1, args.games + 1)]
            proofs.append({"game": f"{name}-{n}p", "against": "the referee", "games": args.games,
                           "decisions": sum(d for d, _ in results)})
    speeds = [{"game": "crazy_eights", "players": 5, **rates(cards.CRAZY_EIGHTS, 5, args.seconds)},
              {"game": "go_fish", "players": 2, **rates(go_fish.TWINS[0], 2, args.seconds)}]
    if args.json:
        print(json.dumps({"proofs": proofs, "speed": speeds}, indent=1))
        return 0
    for p in proofs:
        print(f"proof  {p['game']:<70} {p['games']} games, {p['decisions']} decisions: the same as {p['against']}")
    print()
    for speed in speeds:
        print(f"{speed['game']}, {speed['players']} players: Rulebook {speed['rulebook_decisions_per_s']:,} decisions/s, "
              f"OpenSpiel {speed['openspiel_decisions_per_s']:,} decisions/s ({speed['ratio']}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
