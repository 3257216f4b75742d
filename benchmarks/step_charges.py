#!/usr/bin/env python3
"""What each step of the bundled rulesets counts against the step budget beyond one a run (its
``charge``: its own expressions' worst-case operations over 100, and, but on a sequence or an
effect list, those of the end conditions and when: triggers' conditions asked after it where
they cost more than 100 together: building/gameloop.py checks_charge; docs/reference.md "Limits").

    python benchmarks/step_charges.py [--all] [--json FILE] [--against FILE] [--games N]

Prints each ruleset's charged steps (``--all``: every step), the costliest first, and what share
of ``limits.steps`` one run of it counts; ``--json`` writes every step's charge to a file, and
``--against`` a file written so compares: the steps whose charge differs, before and after.
``--games N``: instead, what N random games (seeds 0 to N - 1, random moves seeded alike) at each
player count of each ruleset count against its budget (``S.steps``): the most, and its share.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import interpreter  # noqa: E402


def charges() -> dict:
    """ruleset -> [(step index, its path, its work, its charge, the budget)]."""
    out = {}
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        rules = interpreter.load(str(path))
        out[path.stem] = [(i, " ".join(map(str, getattr(s, "path", ()) or ())), getattr(s, "work", 0), s.charge,
                           rules.max_steps) for i, s in enumerate(rules.steps)]
    return out


def used(games: int) -> None:
    """The most steps random games of each bundled ruleset count (and at how many players)."""
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        rules, most = interpreter.load(str(path)), (0, 0)
        for players in range(rules.min_players, rules.max_players + 1):
            for seed in range(games):
                rnd, S = random.Random(seed), rules.new_game(players, seed=seed)
                while not S.is_terminal():
                    S.apply_index(rnd.randrange(len(S.dec[1])))
                most = max(most, (S.steps, players))
        print(f"{path.stem}: at most {most[0]:,} steps ({100 * most[0] / rules.max_steps:.1f}% of "
              f"{rules.max_steps:,}, {most[1]} players)", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--all", action="store_true", help="every step, not only the charged ones")
    ap.add_argument("--json", help="write every step's charge to this file")
    ap.add_argument("--against", help="a file --json wrote: print the steps whose charge differs")
    ap.add_argument("--games", type=int, help="the most steps N random games count, instead")
    args = ap.parse_args(argv)
    if args.games:
        used(args.games)
        return 0
    now = charges()
    if args.json:
        Path(args.json).write_text(json.dumps(now, indent=1), encoding="utf-8")
    if args.against:
        before = json.loads(Path(args.against).read_text(encoding="utf-8"))
        print("| ruleset | step | path | charge before | after |\n|---|---|---|---|---|")
        for game, steps in now.items():
            for (i, where, _, charge, _), old in zip(steps, before.get(game, [])):
                if old[3] != charge:
                    print(f"| {game} | {i} | {where} | {old[3]:,} | {charge:,} |")
        return 0
    for game, steps in now.items():
        shown = sorted((s for s in steps if args.all or s[3]), key=lambda s: -s[3])
        print(f"{game}: {len(steps)} steps, {sum(1 for s in steps if s[3])} charged")
        for i, where, work, charge, budget in shown:
            print(f"  {charge:>6,}  {100 * (1 + charge) / budget:6.3f}% of {budget:,}  step {i}: {where} "
                  f"(about {work:,} operations)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
