#!/usr/bin/env python3
"""Where a random game's time goes: Python opcodes executed per decision, by function.

    python benchmarks/opcodes.py --ruleset rulesets/diamonds.yaml --players 4 --games 3 [--top 25]
    python benchmarks/opcodes.py --ruleset rulesets/diamonds.yaml --agent "ismcts:iterations=50,depth=20"

Counts every opcode of every Python function (``sys.settrace`` with ``f_trace_opcodes``)
while random games are played as playouts.py plays them, and prints the total and the
functions that execute the most, per decision. Compiled rules are named after their text
(``<flow diamonds>:R11``, ``<expr count(hand) > 0>``, ``<effects ...>``), so the list says which
rule costs what. Deterministic, about 100 times slower than the games; an opcode is not a
fixed cost (a call or a big-integer product costs many instructions), so check a change with
instructions.py too.

With ``--agent``, the decisions counted are the agent's instead, from the state agent_cost.py
starts from (seed 3, ``--skip`` random decisions in, knowledge kept): where a search's time
goes.
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


def counter(where=None, skip=()):
    """(the counts by function, a tracer that adds every opcode executed to them); with
    ``where``, a function whose answer at each opcode is the key instead (versus_handwritten.py
    --by-prompt: the prompt being answered); the functions whose code is in ``skip`` (a
    harness's own) are not counted, what they call is."""
    counts: collections.Counter = collections.Counter()

    def tracer(frame, event, arg):
        if frame.f_code in skip:
            return None
        frame.f_trace_opcodes, frame.f_trace_lines = True, False
        if where is not None:
            return by_where
        code = frame.f_code
        key = f"{Path(code.co_filename).name}:{code.co_firstlineno}:{code.co_name}"

        def local(frame, event, arg):
            if event == "opcode":
                counts[key] += 1
            return local
        return local

    def by_where(frame, event, arg):
        if event == "opcode":
            counts[where()] += 1
        return by_where
    return counts, tracer


def count(rules, players: int, games: int, seed: int) -> tuple[collections.Counter, int]:
    counts, tracer = counter()
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


def count_agent(rules, players: int, agent: str, skip: int, decisions: int) -> tuple[collections.Counter, int]:
    """The opcodes of an agent's decisions (each seat its own, seeded as agent_cost.py seeds them)."""
    from interpreter.play.agents import choose, make_agents
    S = rules.new_game(players, 3, knowledge=True)
    rnd = random.Random(3)
    for _ in range(skip):
        S.apply_index(rnd.randrange(len(S.dec[1])))
    agents = make_agents(agent, players, 11)
    counts, tracer = counter()
    made = 0
    for _ in range(decisions):
        if S.over:
            break
        p = S.current_player()
        sys.settrace(tracer)
        try:
            a = choose(agents[p], S, p)
        finally:
            sys.settrace(None)
        S.apply(a) if isinstance(a, str) else S.apply_index(a)
        made += 1
    return counts, made


def main(argv=None) -> int:
    ap = arguments(__doc__.splitlines()[0], 3)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--agent", help='count this agent\'s decisions instead ("ismcts:iterations=50,depth=20")')
    ap.add_argument("--skip", type=int, default=25, help="with --agent: random decisions played first")
    ap.add_argument("--decisions", type=int, default=4, help="with --agent: the agent's decisions counted")
    args = ap.parse_args(argv)
    rules = interpreter.load(interpreter.ruleset_path(args.ruleset), variant=args.variant)
    if args.agent:
        counts, decisions = count_agent(rules, args.players, args.agent, args.skip, args.decisions)
        per = max(1, decisions)
        print(f"{rules.name}, {args.players} players, {args.agent}: {sum(counts.values()) / per:.0f} "
              f"opcodes a decision ({decisions} decisions from decision {args.skip})")
    else:
        counts, decisions = count(rules, args.players, args.games, args.seed)
        per = max(1, decisions)
        print(f"{rules.name}, {args.players} players: {sum(counts.values()) / per:.0f} opcodes/decision "
              f"({decisions / args.games:.1f} decisions/game, {args.games} games)")
    for key, n in counts.most_common(args.top):
        print(f"{n / per:9.1f}  {key.splitlines()[0][:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
