#!/usr/bin/env python3
"""How large a saved state is, and what loading one at the bound costs (engine/saved.py
``MAX_STATE_CHARS``, docs/security.md).

    python benchmarks/saved_states.py [--games N]      # the bundled games' largest states
    python benchmarks/saved_states.py --load orders    # a state at the bound, loaded
    python benchmarks/saved_states.py --load lists     # a text at the bound of empty lists, parsed
    python benchmarks/saved_states.py --load frames    # a stack at the bound of tiny frames, refused

``--games N``: the longest ``State.to_json()`` of N random games (seeds 0 to N - 1, random moves
seeded alike) of each bundled ruleset at its largest player count, after each decision.
``--load orders``: a game of 15 nested ``turns`` whose every order holds as many seats as the
bound lets the state hold (the frames a saved state's check walks longest), loaded; ``--load
lists``: a text of that size made of empty lists (what the JSON parser makes most objects of),
given to ``state_from_json`` (refused once parsed); ``--load frames``: the state of that game
with its smallest frame repeated under its stack as many times as the bound lets it (2 million
frames: a stack far deeper than the flow tree), refused. Each prints its seconds of CPU and the
process's peak memory (``ru_maxrss``); run one at a time.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import interpreter  # noqa: E402
from interpreter.engine.saved import MAX_STATE_CHARS  # noqa: E402
from interpreter.errors import GameError  # noqa: E402
from interpreter.loading.resources import bundled_rulesets  # noqa: E402


def largest(games: int) -> dict:
    """ruleset -> the most characters its saved state held after a decision."""
    out = {}
    for name in sorted(bundled_rulesets()):
        rules, most = interpreter.load(name), 0
        players = max(rules.player_counts)
        for seed in range(games):
            S, rnd = rules.new_game(players, seed), random.Random(seed)
            while not S.is_terminal():
                most = max(most, len(S.to_json()))
                S.apply_index(rnd.randrange(len(S.legal_actions())))
        out[name] = most
    return out


def nested(depth: int = 15) -> str:
    """A ruleset of ``depth`` nested turns around one choice."""
    lines = ["game: nested", "players: {min: 2, max: 2}", "vars:", "  x: {type: str}", "flow:"]
    pad = "  "
    for k in range(depth):
        lines += [f"{pad}- turns:", f"{pad}    as: p{k}", f"{pad}    steps:"]
        pad += "      "
    lines.append(f"{pad}- choose: {{options: \"['a', 'b']\", as: x}}")
    return "\n".join(lines) + "\n"


def loaded(kind: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "nested.yaml"
        path.write_text(nested())
        rules = interpreter.load(str(path))
    d = json.loads(rules.new_game(2, seed=1).to_json())
    if kind == "orders":
        frames = [f for f in d["stack"] if rules.steps[f[0]].kind == "turns"]
        room = MAX_STATE_CHARS - len(json.dumps(d)) - 1000
        for f in frames:
            f[1] = [0] * (room // len(frames) // 3)
        text = json.dumps(d)
    elif kind == "frames":
        tiny = min(d["stack"], key=lambda f: len(json.dumps(f)))
        d["stack"] = [tiny] * ((MAX_STATE_CHARS - len(json.dumps(d)) - 100) // (len(json.dumps(tiny)) + 2)) + d["stack"]
        text = json.dumps(d)
    else:
        text = "[" + ",".join(["[]"] * (MAX_STATE_CHARS // 3 - 1)) + "]"
    start = time.process_time()
    try:
        rules.state_from_json(text)
        said = "loaded"
    except GameError as e:
        said = f"refused: {e.message[:80]}"
    print(f"{kind}: {len(text):,} characters, {said}, {time.process_time() - start:.2f} s of CPU, peak "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--load", choices=("orders", "lists", "frames"))
    args = p.parse_args()
    if args.load:
        loaded(args.load)
        return
    for name, most in sorted(largest(args.games).items(), key=lambda kv: -kv[1]):
        print(f"{name:16} {most:>8,}")


if __name__ == "__main__":
    main()
