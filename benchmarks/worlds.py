#!/usr/bin/env python3
"""How the worlds a search samples play out: random games of each ruleset are played with
knowledge kept; at every ``--every``-th decision the seat to play is dealt a world
(``State.determinize``), and the world is played to its end with random choices.

    python benchmarks/worlds.py go_fish diams --players 2 4 --seeds 6
    python benchmarks/worlds.py go_fish --unchecked     # worlds not asked the invariants

Each world is counted once by how it ended: ``ends`` (the game's end), ``budget`` (its step
budget), ``error`` (a runtime error), ``dead-end`` (no decision and not over), ``cap`` (still
playing after ``--cap`` decisions); and apart: ``broken`` (a world that broke one of the ruleset's
invariants as it was dealt, engine/invariants.py) and ``kept flawed`` (a world kept though it
breaks one, after ``WORLD_TRIES`` deals: engine/knowledge.py).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402
from interpreter.engine import knowledge  # noqa: E402
from interpreter.engine.invariants import first_broken  # noqa: E402
from interpreter.errors import BudgetExceeded, GameError, UsageError  # noqa: E402


def played(rules, players: int, seed: int, every: int, cap: int, out: Counter) -> None:
    """One random game's worlds, counted into ``out``."""
    S = rules.new_game(players, seed, knowledge=True)
    rnd, k = random.Random(seed), 0
    while not S.is_terminal():
        if k % every == 0:
            flaws: list = []
            D = S.determinize(S.current_player(), random.Random(1000 * seed + k), flaws)
            out["worlds"] += 1
            out["broken"] += first_broken(D) is not None
            out["kept flawed"] += bool(flaws)
            out[_ending(D, random.Random(7 * seed + k), cap)] += 1
        S.apply_index(rnd.randrange(len(S.dec[1])))
        k += 1


def _ending(D, rnd, cap: int) -> str:
    """How the world ``D`` ends, played with random choices."""
    try:
        for _ in range(cap):
            if D.over:
                return "ends"
            if D.dec is None or not D.dec[1]:
                return "dead-end"
            D.apply_index(rnd.randrange(len(D.dec[1])))
    except BudgetExceeded:
        return "budget"
    except GameError:
        return "error"
    return "ends" if D.over else "cap"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="+")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4], help="player counts (those a ruleset refuses: skipped)")
    ap.add_argument("--seeds", type=int, default=6, help="games per player count (seeds 1..N)")
    ap.add_argument("--every", type=int, default=3, help="a world every N decisions")
    ap.add_argument("--cap", type=int, default=4000, help="decisions a world may play")
    ap.add_argument("--unchecked", action="store_true", help="worlds not asked the invariants")
    args = ap.parse_args(argv)
    if args.unchecked:
        knowledge.first_broken = lambda S, entries=None: None   # (every world kept as it is first dealt)
    for name in args.rulesets:
        rules = interpreter.load(interpreter.ruleset_path(name) if not Path(name).exists() else name)
        out: Counter = Counter()
        counts = []
        start = time.process_time()
        for players in args.players:
            try:
                rules.new_game(players, 0)
            except UsageError:
                continue
            counts.append(players)
            for seed in range(1, args.seeds + 1):
                played(rules, players, seed, args.every, args.cap, out)
        seconds = time.process_time() - start
        shown = ", ".join(f"{k} {out[k]}" for k in ("worlds", "ends", "budget", "error", "dead-end", "cap", "broken",
                                                      "kept flawed") if out[k] or k == "worlds")
        print(f"{Path(name).stem} ({'/'.join(map(str, counts))} players): {shown}; {seconds:.1f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
