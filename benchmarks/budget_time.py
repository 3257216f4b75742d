#!/usr/bin/env python3
"""How long the step budget lets a game run: rulesets whose every step costs as much as one
unit of ``limits.steps`` may (a step's own expressions up to ``STEP_WORK_UNIT`` = 100
operations count one: a filter over a range of 25 to 30, arithmetic of about 90 operations, a
filter over a zone's cards) or one unit each of a cheaper kind (a ``for_each`` pass, a card
moved, a declared effect called, a trigger fired, a unit a ``pay`` pays without asking), each played
until its budget stops it.

    python benchmarks/budget_time.py [--units N] [--recorded]

Prints the CPU time of a unit of each shape (N units run: 300,000 by default) and what the
largest budget, ``MAX_STEP_BUDGET`` units of the costliest shape, takes (docs/security.md).
``--recorded``: each game records its events, as a log or a live game does (N: 30,000 by
default, so that no shape makes more than ``MAX_EVENTS`` before its budget stops it).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import interpreter  # noqa: E402
from interpreter.errors import BudgetExceeded  # noqa: E402
from interpreter.expr.limits import MAX_STEP_BUDGET  # noqa: E402

HEAD = "game: shape\nplayers: {min: 1, max: 1}\nlimits: {steps: %d}\nvars:\n  x: {type: int, start: 0}\n"
LOOP = "flow:\n  - repeat: 1000000000\n    steps:\n"
ARITH = " + ".join(f"(x * {i} // 7 % 5)" for i in range(1, 16))
SHAPES = {
    "filter of a range of 25": LOOP + '      - set: {x: "count(1..25 where it > 3)"}\n',
    "filter of a range of 30": LOOP + '      - set: {x: "count(1..30 where it > 3)"}\n',
    "arithmetic, 90 operations": LOOP + f'      - set: {{x: "{ARITH}"}}\n',
    "filter of a zone of 25 cards": "components:\n  card: {attributes: {n: 1..25}, label: \"c{n}\"}\n"
                                    "zones:\n  a: {start: [card]}\n" + LOOP
                                    + '      - set: {x: "count(a where n > 3)"}\n',
    "for_each pass": LOOP + '      - for_each: {in: "1..10000", as: i, do: [{set: {x: "x + i"}}]}\n',
    "card moved": "components:\n  card: {attributes: {n: 1..2}, label: \"c{n}\"}\nzones:\n  a: {start: [card]}\n"
                  "  b: {}\n" + LOOP + "      - move: {from: a, to: b, count: 1}\n"
                  "      - move: {from: b, to: a, count: 1}\n",
    "declared effect called": "counters:\n  c: 0\neffects:\n  e1:\n    do: [{gain: {counter: c}}]\n" + LOOP
                              + "      - e1: {}\n",
    "unit paid": "counters:\n  gold: {owner: player, start: 1000000000000}\n"
                 + LOOP + "      - pay: {who: 0, costs: {gold: 1000000000000}}\n",
    "unit paid with a joker": "counters:\n" + "".join(f"  {c}: {{owner: player, start: {n}}}\n" for c, n in (
        ("a", 10 ** 12), ("b", 0), ("c", 0), ("d", 0), ("j", 0))) + LOOP
        + "      - pay: {who: 0, costs: {a: 100000000000, b: 0, c: 0, d: 0}, any: 1000, from: [a, b, c, d, j], joker: j}\n",
    "trigger fired": "counters:\n  c: 0\n  d: 0\ntriggers:\n  t:\n    when: \"c > 0\"\n"
                     "    do: [{set: {c: 0}}, {gain: {counter: d}}]\n" + LOOP + "      - gain: {counter: c}\n",
}


def unit_time(body: str, units: int, folder: Path, recorded: bool = False) -> float:
    """The CPU seconds of one unit of the budget, a game of this shape stopped by its budget
    (``recorded``: recording its events)."""
    path = folder / "shape.yaml"
    path.write_text(HEAD % units + body)
    rules = interpreter.load(str(path))
    start = time.process_time()
    try:
        rules.new_game(1, 0, record=recorded)
    except BudgetExceeded:
        return (time.process_time() - start) / units
    raise SystemExit(f"{body!r}: the game ended before its budget")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--units", type=int, default=None, help="units of the budget each shape runs "
                    "(300,000; 30,000 --recorded)")
    ap.add_argument("--recorded", action="store_true", help="record each game's events (a log, a live game)")
    args = ap.parse_args(argv)
    units = args.units or (30_000 if args.recorded else 300_000)
    with tempfile.TemporaryDirectory() as tmp:
        times = {name: unit_time(body, units, Path(tmp), args.recorded) for name, body in SHAPES.items()}
    for name, t in sorted(times.items(), key=lambda kv: -kv[1]):
        print(f"{name:>30}: {t * 1e6:.2f} us a unit")
    worst = max(times.values())
    how = " recorded" if args.recorded else ""
    print(f"the largest budget{how}, {MAX_STEP_BUDGET:,} units of the costliest: {worst * MAX_STEP_BUDGET:.1f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
