#!/usr/bin/env python3
"""The measurements behind what a list walk and combos()' search are weighed (docs/reference.md
"Limits", expr/walks.py, mechanics/market.py), in the cost model's operations: one is an
operation of a filter's body (``count(s where it > 3)`` over 10,000 values, its charge divided
into its time).

    python benchmarks/walk_costs.py              # each walk: operations per element, both compiles
    python benchmarks/walk_costs.py --combos     # combos()' searches: time per operation counted
    python benchmarks/walk_costs.py --diams 200  # the most work a search counted in 200 Diam's games

A constant is sound where each walk's operations per element stay under it, and the search's
weights where its time per operation counted stays under an operation's.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import interpreter  # noqa: E402
from interpreter.expr import Compiler  # noqa: E402
from interpreter.mechanics import market  # noqa: E402

N = 10_000   # (the list variable s, as long as the cost model weighs it)
M = 5_000    # (the range groups() walks: of a list variable, 10,000 elements, it is refused, 1,600,000 operations)
WALKS = [("max(s)", N), ("min(s)", N), ("sum(s)", N), ("sum(s, by: it)", N), ("max(s, by: it)", N),
         ("count(distinct(s))", N), ("count(1..params.n)", N), ("(1 if -1 in s else 0)", N), ("(1 if s == t else 0)", N),
         ("(1 if any(map(s, to: it < 0)) else 0)", N), ("highest(s, by: it)", N), ("count(top(s, by: it))", N),
         ("count(groups(1..params.m, by: it))", M)]
RULES = f"""game: w
players: {{min: 2, max: 2}}
components:
  cards: {{attributes: {{rank: 1..5}}, label: "{{rank}}"}}
zones:
  deck: {{start: [cards]}}
params:
  n: {{type: int, default: {N}, min: 1, max: {N}}}
  m: {{type: int, default: {M}, min: 1, max: {M}}}
vars:
  s: {{type: "list[int]", start: []}}
  t: {{type: "list[int]", start: []}}
  x: {{type: int, start: 0}}
flow:
  - set: {{x: "0"}}
scoring: {{categories: {{p: x}}}}
"""


def best_time(fn, reps: int = 10) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - start) / reps)
    return best


def walks() -> None:
    folder = Path(tempfile.mkdtemp())
    (folder / "w.yaml").write_text(RULES)
    rules = interpreter.load(str(folder / "w.yaml"))
    S = rules.new_game(2)
    rnd = random.Random(1)
    S.v["s"] = [rnd.randrange(10 ** 6) for _ in range(N)]
    S.v["t"] = list(S.v["s"])

    def run(text: str, plain: bool) -> tuple[float, int]:
        c = Compiler(rules.names, plain=plain)
        f = c.compile(text, has_me=True)
        return best_time(lambda: f(S, 0, None)), c.cost

    seconds, cost = run("count(s where it > 3)", True)
    op = seconds / cost
    print(f"an operation: {op * 1e9:.2f} ns (count(s where it > 3) over {N:,} values, charged {cost:,})")
    for text, elements in WALKS:
        for plain in (True, False):
            seconds, cost = run(text, plain)
            print(f"{text:42} {'plain' if plain else 'fast '}  {seconds / op / elements:7.2f} operations an element, "
                  f"charged {cost / elements:7.2f} (work / charge {seconds / op / cost:.2f})")


class _Labels:
    def __init__(self, labels):
        self.rules = type("Rules", (), {"card_labels": labels})


def combos_cases() -> dict:
    """name -> a call of combos()' search on a list chosen to make it work."""
    rnd = random.Random(5)
    cases = {}
    for n, top, total in ((60, 30, 300), (60, 30, 60), (30, 100, 1_000), (200, 500, 5_000), (400, 400, 20_000)):
        values = [rnd.randrange(1, top + 1) for _ in range(n)]
        S = _Labels([f"c{i}" for i in range(n)])
        cases[f"{n} cards of 1..{top}, total {total:,}"] = (lambda S=S, v=values, n=n, t=total:
                                                         market._combos(S, list(range(n)), v.__getitem__, t, True))
    for n, groups, total in ((2_000, 40, 1_999), (20_000, 400, 19_999)):
        S = _Labels([f"g{i % groups}" for i in range(n)])
        cases[f"{n:,} cards by 1 in {groups} groups, total {total:,}"] = (
            lambda S=S, n=n, t=total: market._combos(S, list(range(n)), lambda x: 1, t, True))
    values = [rnd.randrange(1, 31) + 0.5 for _ in range(40)]
    S = _Labels([f"f{i}" for i in range(40)])
    cases["40 cards of fractions, total 300.5"] = lambda: market._combos(S, list(range(40)), values.__getitem__, 300.5, True)
    return cases


def combos() -> None:
    """Each search's time over the work it counted: under an operation's (about 5 ns, the walks' run)."""
    market.MAX_SEARCH_WORK = 1 << 60
    for name, call in combos_cases().items():
        seconds = best_time(call, 1)
        print(f"{name:44} counted {market.searched:>14,}  {seconds * 1e3:9.2f} ms  "
              f"{seconds * 1e9 / max(1, market.searched):5.2f} ns an operation counted")


def diams(games: int) -> None:
    rules = interpreter.load(str(ROOT / "rulesets" / "diams.yaml"))
    most, calls = 0, 0
    whole, general = market._combos_whole, market._combos

    def seen(fn):
        def run(*args):
            nonlocal most, calls
            out = fn(*args)
            most, calls = max(most, market.searched), calls + 1
            return out
        return run

    market._combos_whole, market._combos = seen(whole), seen(general)
    try:
        for seed in range(games):
            S = rules.new_game(4, seed=seed)
            rnd = random.Random(seed)
            while not S.is_terminal():
                S.apply_index(rnd.randrange(len(S.legal_actions())))
    finally:
        market._combos_whole, market._combos = whole, general
    print(f"{games} random games of Diam's (4 players): {calls:,} searches, the largest counted {most:,} operations "
          f"(MAX_SEARCH_WORK: {market.MAX_SEARCH_WORK:,})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--combos", action="store_true", help="combos()' searches: time per operation counted")
    ap.add_argument("--diams", type=int, metavar="GAMES", help="the most work a search counted in random Diam's games")
    args = ap.parse_args(argv)
    if args.diams:
        diams(args.diams)
    elif args.combos:
        combos()
    else:
        walks()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
