#!/usr/bin/env python3
"""What an agent's decisions cost, in machine instructions counted by valgrind
(benchmarks/instructions.py): the same agents deciding from the same state, so two versions
of the engine compare exactly.

    python benchmarks/agent_cost.py --ruleset diamonds --agent "ismcts:iterations=50,depth=20"

A game (4 players, seed 3) is played at random for ``--skip`` decisions, then the agents decide
``--decisions`` times in turn; the figure is the instructions a decision (a run that stops
before the decisions are made is subtracted: loading and the random start cancel out).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from instructions import instructions_of  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import random, sys
sys.path[:0] = [{root!r}]
import interpreter
from interpreter.play.agents import choose, make_agents
rules = interpreter.load(interpreter.ruleset_path({ruleset!r}))
S = rules.new_game({players}, 3, knowledge=True)
rnd = random.Random(3)
for _ in range({skip}):
    S.apply_index(rnd.randrange(len(S.dec[1])))
agents = make_agents({agent!r}, {players}, 11)
n = 0
for _ in range({decisions}):
    if S.over:
        break
    p = S.current_player()
    a = choose(agents[p], S, p)
    S.apply(a) if isinstance(a, str) else S.apply_index(a)
    n += 1
print(n)
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="diamonds")
    ap.add_argument("--agent", default="ismcts:iterations=50,depth=20")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--skip", type=int, default=25, help="random decisions played first")
    ap.add_argument("--decisions", type=int, default=4)
    args = ap.parse_args(argv)
    ruleset = str(Path(args.ruleset).resolve()) if Path(args.ruleset).exists() else args.ruleset
    run = {"root": str(ROOT), "ruleset": ruleset, "players": args.players, "skip": args.skip, "agent": args.agent}
    base, _ = instructions_of(CHILD.format(decisions=0, **run))
    total, out = instructions_of(CHILD.format(decisions=args.decisions, **run))
    made = int(out.split()[-1])
    print(f"{Path(ruleset).stem}, {args.agent}: {(total - base) / max(made, 1) / 1e6:.1f} M instructions a decision "
          f"({made} decisions from decision {args.skip})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
