#!/usr/bin/env python3
"""Machine instructions of a new game alone (``Ruleset.new_game``: its checks, its start, its
setup, up to its first question), counted by valgrind as instructions.py counts a game.

    python benchmarks/new_game.py --ruleset rulesets/mister_diamond.yaml --players 4 --games 20

Two children under cachegrind, each loading the ruleset and starting one game first (seed
1000: the first game of its players, parameters and options keeps their start, docs/architecture.md
"The State"); then one starts ``--games`` more (seeds 0, 1, ...), the other none: the difference
divided by the games is a new game's cost. ``--first`` counts the first game alone instead (the
first child starts one game, the second none). ``--no-gc``: the garbage collector off in both
children (its passes fall at other games from one build to the next, a few percent either way
on Diamonds Club: compare two builds with it).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from instructions import instructions_of  # noqa: E402  (the same child settings)
from playouts import arguments  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import sys
sys.path[:0] = [{root!r}]
import interpreter
rules = interpreter.load(interpreter.ruleset_path({ruleset!r}), variant={variant!r})
from interpreter.play.simulation.workers import settle
settle()
{nogc}options = {options}
for seed in range({before}):
    rules.new_game({players}, seed=1000 + seed, options=options)
for seed in range({games}):
    rules.new_game({players}, seed=seed, options=options)
print(0)
"""


def main(argv=None) -> int:
    ap = arguments(__doc__.splitlines()[0], 20)
    ap.add_argument("--first", action="store_true", help="count the first game of the process alone")
    ap.add_argument("--options", type=json.loads, default=None,
                    help='new_game\'s options, as JSON: \'{"params": {}}\' (as rulebook simulate and the RL adapters give them)')
    ap.add_argument("--no-gc", action="store_true", help="the garbage collector off in the children (steadier figures)")
    args = ap.parse_args(argv)
    before, games = (0, 1) if args.first else (1, args.games)

    def count(n: int) -> int:
        code = CHILD.format(root=str(ROOT), ruleset=args.ruleset, variant=args.variant, players=args.players,
                            before=before, games=n, options=repr(args.options),
                            nogc="import gc\ngc.disable()\n" if args.no_gc else "")
        return instructions_of(code)[0]

    each = (count(games) - count(0)) / games
    result = {"ruleset": args.ruleset, "players": args.players, "games": games, "first": args.first, "options": args.options,
              "instructions_per_new_game": round(each)}
    print(json.dumps(result) if args.json else
          f"{Path(args.ruleset).stem}, {args.players} players: {each / 1e3:,.1f} k instructions "
          f"{'the first new game' if args.first else f'a new game ({games} after a first)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
