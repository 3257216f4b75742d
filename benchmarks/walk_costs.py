#!/usr/bin/env python3
"""The measurements behind what a list walk and combos()' search are weighed (docs/reference.md
"Limits", expr/walks.py, mechanics/market.py), in the cost model's operations: one is an
operation of a filter's body (``count(s where it > 3)`` over 10,000 values, its charge divided
into its time).

    python benchmarks/walk_costs.py              # each walk: operations per element, both compiles
    python benchmarks/walk_costs.py --combos     # combos()' searches: time per operation counted
    python benchmarks/walk_costs.py --diams 200  # the most work a search counted in 200 Diam's games
    python benchmarks/walk_costs.py --nested     # distinct(), 'in' and groups()' keys over lists of lists: per element inside
    python benchmarks/walk_costs.py --text       # strings joined, compared, searched, written: per character
    python benchmarks/walk_costs.py --flat       # distinct() and 'in' over flat lists, a set looked in from a loop

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
from interpreter.expr import Compiler, compiler  # noqa: E402
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
  ss: {{type: "list[list[int]]", start: []}}
  ls: {{type: "list[str]", start: []}}
  u: {{type: str, start: "''"}}
  v: {{type: str, start: "''"}}
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
    S, run, op = _setup()
    for text, elements in WALKS:
        for plain in (True, False):
            seconds, cost = run(text, plain)
            print(f"{text:42} {'plain' if plain else 'fast '}  {seconds / op / elements:7.2f} operations an element, "
                  f"charged {cost / elements:7.2f} (work / charge {seconds / op / cost:.2f})")


def _setup():
    """A game of the walks' ruleset (s and t 10,000 values), a runner of an expression (its best
    time and its charge) and an operation's time."""
    folder = Path(tempfile.mkdtemp())
    (folder / "w.yaml").write_text(RULES)
    rules = interpreter.load(str(folder / "w.yaml"))
    S = rules.new_game(2)
    rnd = random.Random(1)
    S.v["s"] = [rnd.randrange(10 ** 6) for _ in range(N)]
    S.v["t"] = list(S.v["s"])

    def run(text: str, plain: bool) -> tuple[float, int]:
        compiler.MAX_COST = 10 ** 12   # (what a walk of a list variable is charged, where it is refused)
        c = Compiler(rules.names, plain=plain)
        f = c.compile(text, has_me=True)
        return best_time(lambda: f(S, 0, None), 3), c.cost

    seconds, cost = run("count(s where it > 3)", True)
    op = seconds / cost
    print(f"an operation: {op * 1e9:.2f} ns (count(s where it > 3) over {N:,} values, charged {cost:,})")
    return S, run, op


def _report(S, run, op, cases) -> None:
    """Each (expression, what it reads, setting up the game's values) in both compiles."""
    for text, units, what, setup in cases:
        setup(S)
        for plain in (True, False):
            seconds, cost = run(text, plain)
            print(f"{text:46} {what:26} {'plain' if plain else 'fast '}  {seconds / op / units:7.3f} operations "
                  f"each (work / charge {seconds / op / cost:.2f})")


def nested() -> None:
    """distinct() of lists (each copied and hashed, a key made for each list), a list looked
    for among lists equal to it but for their last element, and groups() by keys that are lists
    (each written out), lists of 1 to 9,999 (operations per element inside, or per list for lists of 1)."""
    S, run, op = _setup()
    rnd, cases = random.Random(2), []
    for width in (1, 10, 100, 1_000, 9_999):
        count = N // (width + 1)   # (the lists and what they hold, 10,000 in all: a list variable's bound)

        def lists(S, width=width, count=count, same=False):
            row = [rnd.randrange(10 ** 6) for _ in range(width)]
            S.v["ss"] = [list(row) if same else [rnd.randrange(10 ** 6) for _ in range(width)] for _ in range(count)]
            S.v["s"] = row[:-1] + [-1]

        cases += [("count(distinct(ss))", count * width, f"{count:,} lists of {width:,}", lists),
                  ("count(distinct(ss))", count * width, f"{count:,} equal lists of {width:,}",
                   lambda S, f=lists: f(S, same=True)),
                  ("(1 if s in ss else 0)", count * width, f"{count:,} near lists of {width:,}",
                   lambda S, f=lists: f(S, same=True)),
                  ("count(groups(ss, by: it))", count * width, f"{count:,} keys, lists of {width:,}", lists)]
    _report(S, run, op, cases)


def text() -> None:
    """Strings of 10 to 100,000 characters joined, compared when equal (not the same string),
    looked for (needles of the kinds the search is slowest on: of 98 characters, and of 99% of
    the text) and a number written (operations per character of the text, or per number)."""
    S, run, op = _setup()
    cases = []
    for width in (10, 1_000, 100_000):
        def strings(S, width=width):
            S.v["u"], S.v["v"] = "ab" * (width // 2), "".join(["ab"] * (width // 2))
            S.v["x"] = 0

        def needle(S, width=width, long=False):   # (a needle all but one character alike, as long as 99% of the text)
            S.v["u"], S.v["v"] = "a" * width, "a" * ((width * 99 // 100 if long else min(width, 98)) - 2) + "ba"

        cases += [("count(map(1..4, to: (u if it > 0 else v) + v) where it == v)", 4 * 2 * width, f"joins of {width:,}", strings),
                  ("count((1..4) where u == v)", 4 * width, f"comparisons of {width:,}", strings),
                  ("count((1..4) where u < v)", 4 * width, f"orders of {width:,}", strings),
                  ("count((1..4) where v in u)", 4 * width, f"searches in {width:,}", needle),
                  ("count((1..4) where v in u)", 4 * width, f"long needles in {width:,}",
                   lambda S, f=needle: f(S, long=True))]
    cases.append(("count(s where text(it) == u)", N, "numbers written", lambda S: S.v.update(u="x")))
    _report(S, run, op, cases)


def flat() -> None:
    """distinct() of 10,000 numbers or strings (each hashed into a dict) and x in L of them
    (each compared up to the end: none found), and a set of L built once and looked in for each
    element of a filter (the optimised compile's form: count(s where it in t))."""
    S, run, op = _setup()
    rnd = random.Random(3)

    def numbers(S):
        S.v["s"] = [rnd.randrange(10 ** 6) for _ in range(N)]
        S.v["t"] = [rnd.randrange(10 ** 6) for _ in range(N)]

    def strings(S):
        S.v["ls"] = [f"w{rnd.randrange(10 ** 9):012d}" for _ in range(N)]   # (13 characters, as the needle)

    def sets(S, f=numbers):
        f(S)
        S.v["x"] = 0

    cases = [("count(distinct(s))", N, "numbers", numbers), ("(1 if -1 in s else 0)", N, "numbers", numbers),
             ("count(distinct(ls))", N, "strings", strings), ("(1 if 'w99999999999x' in ls else 0)", N, "strings", strings)]
    _report(S, run, op, cases)
    for label, setup in (("numbers", sets),):
        setup(S)
        seconds, cost = run("count(s where it in t)", False)
        looked, _ = run("count(s where it > 3)", False)
        print(f"{'count(s where it in t)':46} {label:26} fast   {(seconds - looked) / op / N:7.3f} operations "
              f"an element of t (built once) and a lookup (work / charge {seconds / op / cost:.2f})")


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
    ap.add_argument("--nested", action="store_true", help="distinct() and 'in' over lists of lists")
    ap.add_argument("--text", action="store_true", help="strings joined, compared, searched and written")
    ap.add_argument("--flat", action="store_true", help="distinct() and 'in' over flat lists, a set looked in")
    args = ap.parse_args(argv)
    if args.nested:
        nested()
    elif args.text:
        text()
    elif args.flat:
        flat()
    elif args.diams:
        diams(args.diams)
    elif args.combos:
        combos()
    else:
        walks()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
