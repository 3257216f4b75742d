#!/usr/bin/env python3
"""The card classics of tests/test_classics_cards.py at scale: Crazy Eights against OpenSpiel,
Love Letter and 6 nimmt! against their referees (tests/oracles/card_referees.py), and the speed of
Crazy Eights in both engines.

    python benchmarks/classics_cards.py [--games 200] [--seconds 3] [--json]

1. **proof**: ``--games`` seeded random games of every case, each checked decision by decision
   as the suite checks 30 (10 for a referee): an AssertionError names the game that differs;
2. **speed**: decisions a second of random play of Crazy Eights (OpenSpiel's default
   parameters), Rulebook and OpenSpiel's C++ game through pyspiel, measured as
   benchmarks/classics.py measures the other twins.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

try:
    import pyspiel
except ImportError:
    sys.exit("benchmarks/classics_cards.py needs OpenSpiel (the `rl` extra: pip install open_spiel)")

import interpreter  # noqa: E402
import test_classics_cards as cards  # noqa: E402
from classics import openspiel_speed, rulebook_speed  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="seeded games per case")
    ap.add_argument("--seconds", type=float, default=3.0, help="time spent measuring each engine")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    proofs = []
    for twin in cards.TWINS:
        rules = interpreter.load(interpreter.ruleset_path(twin.ruleset))
        for n in twin.players:
            game = pyspiel.load_game(twin.openspiel, twin.os_params(n))
            results = [cards.replay(twin, n, seed, rules, game) for seed in range(1, args.games + 1)]
            proofs.append({"game": cards.case_id(twin, n), "against": "OpenSpiel", "games": args.games,
                           "decisions": sum(d for d, _ in results)})
    for name, (make, deck, table, counts) in cards.REFEREES.items():
        for n in counts:
            results = [cards.referee_replay(name, n, seed, make(n), deck, table) for seed in range(1, args.games + 1)]
            proofs.append({"game": f"{name}-{n}p", "against": "the referee", "games": args.games,
                           "decisions": sum(d for d, _ in results)})
    twin = cards.CRAZY_EIGHTS
    rules = interpreter.load(interpreter.ruleset_path(twin.ruleset))
    game = pyspiel.load_game(twin.openspiel, twin.os_params(5))
    rb_d, rb_s = rulebook_speed(rules, 5, twin.params, args.seconds)
    os_d, os_s = openspiel_speed(game, args.seconds)
    speed = {"game": "crazy_eights", "players": 5, "rulebook_decisions_per_s": round(rb_d / rb_s),
             "openspiel_decisions_per_s": round(os_d / os_s), "ratio": round((os_d / os_s) / (rb_d / rb_s), 1)}
    if args.json:
        print(json.dumps({"proofs": proofs, "speed": [speed]}, indent=1))
        return 0
    for p in proofs:
        print(f"proof  {p['game']:<70} {p['games']} games, {p['decisions']} decisions: the same as {p['against']}")
    print(f"\nCrazy Eights, 5 players: Rulebook {speed['rulebook_decisions_per_s']:,} decisions/s, "
          f"OpenSpiel {speed['openspiel_decisions_per_s']:,} decisions/s ({speed['ratio']}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
