#!/usr/bin/env python3
"""What asking an invariant costs besides its condition (engine/invariants.py ``INVARIANT_CALL``):
the time ``first_broken`` takes a condition of one operation (``true``, many of them), against
the time an operation of a costly condition takes (nested filters, their cost bound near
``MAX_COST``), both asked of a game's start as a determinized world is.

    python benchmarks/invariant_calls.py
    python benchmarks/invariant_calls.py --many 20000 --repeat 10
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402
from interpreter.engine.invariants import INVARIANT_CALL, first_broken  # noqa: E402

GAME = """game: invariant_calls
players: {{min: 2, max: 2}}
components:
  chip: {{attributes: {{n: 1..250}}, label: "c{{n}}"}}
zones:
  deck: {{visible: none, start: [chip]}}
  hand: {{owner: player, visible: owner}}
setup:
  - shuffle: deck
  - deal: {{from: deck, to: hand, count: 2}}
flow:
  - choose: {{who: 0, options: "[1, 2]", as: g, prompt: go}}
invariants:
{invariants}
scoring:
  categories:
    n: "0"
"""
COSTLY = "count(deck as a where count(deck as b where (b.n * a.n + count(hand[0])) % 7 == 3) != 17) != 17"


def asking(folder: Path, name: str, invariants: list[str], repeat: int) -> tuple[float, int, int]:
    """The least seconds one asking of ``invariants`` took over ``repeat``, how many, their bounds."""
    path = folder / name
    path.write_text(GAME.format(invariants="\n".join(f'  - "{text}"' for text in invariants)))
    rules = interpreter.load(path)
    S = rules.new_game(2, 0)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        first_broken(S)
        best = min(best, time.perf_counter() - start)
    return best, len(rules.invariants), sum(entry[0].work for entry in rules.invariants)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--many", type=int, default=10_000, help="invariants of one operation (true)")
    ap.add_argument("--repeat", type=int, default=20, help="askings timed (the least kept)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        many, count, _ = asking(Path(tmp), "many.yaml", ["true"] * args.many, args.repeat)
        costly, _, work = asking(Path(tmp), "costly.yaml", [COSTLY], args.repeat)
    call, operation = many / count, costly / work
    print(f"an invariant of one operation: {call * 1e9:.0f} ns ({count:,} of them: {many * 1e3:.1f} ms an asking)")
    print(f"an operation of a costly one: {operation * 1e9:.1f} ns ({work:,} by its bound: {costly * 1e3:.1f} ms)")
    print(f"a call weighs {call / operation:.1f} operations; INVARIANT_CALL = {INVARIANT_CALL}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
