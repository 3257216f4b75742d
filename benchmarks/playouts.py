#!/usr/bin/env python3
"""Random playouts in-process: games per second and microseconds per decision.

    python benchmarks/playouts.py --ruleset rulesets/diamonds.yaml --players 4 --games 2000 --seed 1 [--json]

Each game is played by uniformly random legal actions (a seeded random.Random), so the
figure measures the engine: the flow, legal actions and effects, plus one random choice
per decision.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402
from interpreter.play.simulation.workers import settle  # noqa: E402


def playouts(rules, players: int, games: int, seed: int) -> dict:
    rnd = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        S = rules.new_game(players, seed=seed + g)
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
            decisions += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "decisions": decisions, "seconds": round(elapsed, 3),
            "games_per_s": round(games / elapsed, 1),
            "us_per_decision": round(elapsed / max(1, decisions) * 1e6, 2),
            "decisions_per_game": round(decisions / games, 1)}


def arguments(description: str, games: int) -> argparse.ArgumentParser:
    """The options of a benchmark of random games (this one and instructions.py)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--ruleset", default="rulesets/diamonds.yaml")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=games)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant")
    ap.add_argument("--json", action="store_true")
    return ap


def report(result: dict, as_json: bool, sentence) -> None:
    """Print a benchmark's result: as one JSON object, or as the sentence ``sentence()`` says it in."""
    print(json.dumps(result) if as_json else sentence())


def main(argv=None) -> int:
    args = arguments(__doc__.splitlines()[0], 1000).parse_args(argv)
    rules = interpreter.load(interpreter.ruleset_path(args.ruleset), variant=args.variant)
    settle()   # as rulebook simulate does: the compiled ruleset out of full garbage collections
    playouts(rules, args.players, max(1, args.games // 20), args.seed)   # warm-up
    result = playouts(rules, args.players, args.games, args.seed)
    result.update(ruleset=rules.name, variant=rules.variant, players=args.players)
    report(result, args.json, lambda: f"{rules.name}{' (' + rules.variant + ')' if rules.variant else ''}, "
           f"{args.players} players: {result['games_per_s']} games/s, {result['us_per_decision']} us/decision "
           f"({result['decisions_per_game']} decisions/game, {result['games']} games in {result['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
