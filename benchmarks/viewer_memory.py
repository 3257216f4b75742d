#!/usr/bin/env python3
"""Peak memory of ``rulebook view LOG`` before it serves: a generated ruleset of many cards and
decisions is played to a log, then the viewer's positions are built from it, keeping a state
every position (``--every 1``) or a checkpoint every 64 (the viewer's default,
web/games.py), each in a fresh process (peak RSS by resource.getrusage); then the time to answer
50 positions spread over the game, and 50 consecutive ones (the page stepping on).

    python benchmarks/viewer_memory.py [--cards 100000] [--decisions 3000]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RULESET = """game: big
players: {{min: 2, max: 2}}
components:
  card: {{attributes: {{n: 1..{cards}}}}}
zones:
  deck: {{start: [card]}}
  pile: {{}}
vars:
  x: {{type: int}}
limits: {{steps: {steps}}}
flow:
  - repeat: {rounds}
    steps:
      - choose: {{who: 0, options: "[1, 2]", as: x}}
      - choose: {{who: 1, options: "[1, 2]", as: x}}
      - move: {{from: deck, to: pile, count: 1}}
"""


def measure(log: str, every: int) -> dict:
    """In this process: build the viewer's positions of ``log`` keeping a state every ``every``."""
    from interpreter.play.logs.replay import replay
    from interpreter.web import games
    games.CHECKPOINT = every
    positions = games.Positions(every)
    t = time.perf_counter()
    replay(log, None, positions)
    built = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    view = games.GameView(positions.latest.rules, positions)
    n = len(positions)
    t = time.perf_counter()
    for at in range(0, n, max(1, n // 50)):
        view.view(at, 0)
    spread = time.perf_counter() - t
    t = time.perf_counter()
    for at in range(n // 2, min(n, n // 2 + 50)):
        view.view(at, 0)
    stepped = time.perf_counter() - t
    return {"positions": n, "states": len(positions.states), "built_s": built, "peak_mb": rss,
            "spread_ms": spread / 50 * 1000, "step_ms": stepped / 50 * 1000}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=100_000)
    ap.add_argument("--decisions", type=int, default=3000)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child[0], int(args.child[1]))))
        return 0
    import interpreter
    from interpreter.expr.limits import MAX_STEP_BUDGET
    from interpreter.play.agents import make_agents
    from interpreter.play.logs.gamelog import play_game
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.yaml"
        steps = min(MAX_STEP_BUDGET, max(500_000, 10 * args.decisions))   # (a long game's budget)
        path.write_text(RULESET.format(cards=args.cards, rounds=args.decisions // 2, steps=steps))
        log = str(Path(tmp) / "big.jsonl")
        play_game(interpreter.load(path), 2, 1, make_agents("random", 2, 1), log=log)
        print(f"a {path.stat().st_size}-byte ruleset of {args.cards:,} cards, {args.decisions:,} decisions")
        for every in (1, 64):
            out = subprocess.run([sys.executable, __file__, "--child", log, str(every)], check=True,
                                 capture_output=True, text=True, cwd=ROOT).stdout
            r = json.loads(out)
            print(f"a state every {every:>2} positions: {r['states']:>5} states kept, built in {r['built_s']:.1f} s, "
                  f"peak RSS {r['peak_mb']:.0f} MB; a position answered in {r['spread_ms']:.0f} ms "
                  f"(spread over the game), {r['step_ms']:.0f} ms (stepping on)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
