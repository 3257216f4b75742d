"""Does skill matter? Simulated 2-player Mister Diamond games, a skilled seat against a clumsy one.

    python benchmarks/skill.py [--games 300] [--high 0.95] [--low 0.2] [--seed 0]

Both seats play at random (uniform over the legal actions, from a seeded Python RNG), so the
only difference between them is the skill behind their touch chance (ruling MD-2). The
skilled player sits in seat 0 in even games and seat 1 in odd games, so the first player's
advantage cancels out. A shared victory counts half for each.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402

RULESET = Path(__file__).resolve().parent.parent / "rulesets" / "mister_diamond.yaml"


def play(rules, seed: int, skill: list[float]) -> list[int]:
    """One game with random agents; returns the winners."""
    S = rules.new_game(2, seed, {"skill": skill})
    pick = random.Random(seed)
    while not S.is_terminal():
        S.apply_index(pick.randrange(len(S.dec[1])))
    return S.winners()


def measure(games: int = 300, high: float = 0.95, low: float = 0.2, seed: int = 0) -> dict:
    rules = interpreter.load(RULESET)
    wins = {"high": 0.0, "low": 0.0}
    for g in range(games):
        skilled = g % 2                       # the skilled player's seat this game
        skill = [low, low]
        skill[skilled] = high
        winners = play(rules, seed + g, skill)
        for w in winners:
            wins["high" if w == skilled else "low"] += 1 / len(winners)
    return {"games": games, "high": high, "low": low, "high_wins": wins["high"], "low_wins": wins["low"],
            "high_rate": wins["high"] / games}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--high", type=float, default=0.95)
    ap.add_argument("--low", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t = time.perf_counter()
    r = measure(args.games, args.high, args.low, args.seed)
    dt = time.perf_counter() - t
    print(f"{r['games']} two-player games, random agents, seeds {args.seed}..{args.seed + r['games'] - 1}")
    print(f"skill {r['high']}: {r['high_wins']:g} wins ({r['high_rate']:.1%})   "
          f"skill {r['low']}: {r['low_wins']:g} wins ({1 - r['high_rate']:.1%})   [{dt:.1f} s]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
