#!/usr/bin/env python3
"""Where a random game's time goes: Python opcodes executed per decision, by function.

    python benchmarks/opcodes.py --ruleset rulesets/diamonds.yaml --players 4 --games 3 [--top 25]

Counts every opcode of every Python function (``sys.settrace`` with ``f_trace_opcodes``)
while random games are played as playouts.py plays them, and prints the total and the
functions that execute the most, per decision. Compiled rules are named after their text
(``<flow diamonds>:R11``, ``<expr count(hand) > 0>``, ``<effects ...>``), so the list says which
rule costs what. Deterministic, about 100 times slower than the games; an opcode is not a
fixed cost (a call or a big-integer product costs many instructions), so check a change with
instructions.py too.
"""
from __future__ import annotations

import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import interpreter  # noqa: E402
from playouts import arguments  # noqa: E402


def count(rules, players: int, games: int, seed: int) -> tuple[collections.Counter, int]:
    counts: collections.Counter = collections.Counter()

    def tracer(frame, event, arg):
        frame.f_trace_opcodes, frame.f_trace_lines = True, False
        code = frame.f_code
        key = f"{Path(code.co_filename).name}:{code.co_firstlineno}:{code.co_name}"

        def local(frame, event, arg):
            if event == "opcode":
                counts[key] += 1
            return local
        return local

    rnd = random.Random(seed)
    decisions = 0
    sys.settrace(tracer)
    try:
        for g in range(games):
            S = rules.new_game(players, seed=seed + g)
            while not S.over:
                S.apply_index(rnd.randrange(len(S.dec[1])))
                decisions += 1
    finally:
        sys.settrace(None)
    return counts, decisions


def main(argv=None) -> int:
    ap = arguments(__doc__.splitlines()[0], 3)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    rules = interpreter.load(interpreter.ruleset_path(args.ruleset), variant=args.variant)
    counts, decisions = count(rules, args.players, args.games, args.seed)
    per = max(1, decisions)
    print(f"{rules.name}, {args.players} players: {sum(counts.values()) / per:.0f} opcodes/decision "
          f"({decisions / args.games:.1f} decisions/game, {args.games} games)")
    for key, n in counts.most_common(args.top):
        print(f"{n / per:9.1f}  {key.splitlines()[0][:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
