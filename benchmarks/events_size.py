#!/usr/bin/env python3
"""The events a recorded game keeps, against their bounds (engine/events.py, docs/security.md).

    python benchmarks/events_size.py [--seeds N]
    python benchmarks/events_size.py --memory SHAPE
    python benchmarks/events_size.py --recall SHAPE [--moves N]

The first form plays each bundled ruleset at its largest player count with random agents
(seeds 0 to N-1, 3 by default), recording its events as a log does, and prints the most events
and the largest size (``Events.size``) between two decisions and over a game. The second plays
one seat of a ruleset made to fill the bounds (``SHAPES``: sets of an 81,920-character text,
of ASCII or of emoji, of a list of 10,000 empty lists, moves of 22,000 cards of short labels,
moves of two cards, gains) as a live game in
``rulebook serve`` keeps it, until a bound stops it, and prints the events kept, the error and
the process's largest resident size. The third works out one seat's OpenSpiel perfect recall
(adapters/recall.py) of the first N moves (20 by default) of such a game, option 0 each time,
and prints the characters the seat keeps and the largest resident size.
"""
from __future__ import annotations

import argparse
import resource
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import interpreter  # noqa: E402
from interpreter.play import agents  # noqa: E402
from interpreter.play.agents import choose  # noqa: E402
from interpreter.play.logs import gamelog  # noqa: E402

_HEAD = "game: g\nplayers: {min: 1, max: 1}\nlimits: {steps: 5000000}\n"
_LOOP = "  - repeat: 100000\n    steps:\n      - choose: {who: 0, options: \"[1, 2]\", as: x}\n"
_CARDS = ("components:\n  c: {attributes: {a: 1..A, b: 1..B}, label: \"{a}-{b}\"}\nzones:\n"
          "  deck: {owner: none, visible: all, start: [c]}\n  pile: {owner: none, visible: all}\n")
_MOVES = "          - move: {from: deck, to: pile}\n          - move: {from: pile, to: deck}\n"
SHAPES = {
    "text": (_HEAD + "vars:\n  s: {type: str, start: \"'abcdefghij'\"}\nflow:\n  - repeat: 13\n    steps:\n"
             "      - set: {s: \"s + s\"}\n" + _LOOP + "      - repeat: 120\n        steps:\n"
             "          - set: {s: \"s\"}\n"),
    "cards": _HEAD + _CARDS.replace("A", "22").replace("B", "1000") + "flow:\n" + _LOOP
    + "      - repeat: 1\n        steps:\n" + _MOVES,
    "two": _HEAD + _CARDS.replace("A", "2").replace("B", "1") + "flow:\n" + _LOOP
    + "      - repeat: 10000\n        steps:\n" + _MOVES,
    "empty": (_HEAD + "vars:\n  L: {type: \"list[list[int]]\", start: \"map(1..10000, to: [])\"}\nflow:\n" + _LOOP
              + "      - repeat: 40\n        steps:\n          - set: {L: \"L\"}\n"),
    "gains": (_HEAD + "counters:\n  c: 0\nflow:\n" + _LOOP + "      - repeat: 20000\n        steps:\n"
              "          - gain: {counter: c}\n"),
}
SHAPES["emoji"] = SHAPES["text"].replace("abcdefghij", "\U0001F600" * 10).replace("120", "10")   # (12 a character)
# lists nested 8 deep (each list kept counts), and lists of one short text each
SHAPES["deep"] = SHAPES["empty"].replace("list[list[int]]", "list[" * 8 + "int" + "]" * 8).replace(
    "map(1..10000, to: [])", "map(1..1428, to: [[[[[[]]]]]])")
SHAPES["strs"] = SHAPES["empty"].replace("list[list[int]]", "list[list[str]]").replace(
    "map(1..10000, to: [])", "map(1..5000, to: [text(it * 1000000000000000)])")


def bundled(seeds: int) -> None:
    overall = [0, 0, 0, 0]
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        rules = interpreter.load(path)
        n = max(rules.player_counts)
        most = [0, 0, 0, 0]   # events and size between two decisions, events and size in a game
        for seed in range(seeds):
            S = rules.new_game(n, seed, record=True)
            seats = agents.make_agents("random", n, seed)
            kept = S.ev.kept()
            most[:2] = max(most[0], kept[0]), max(most[1], kept[1])
            k = 0
            while not S.is_terminal():
                k += 1
                line, error = gamelog.logged_decision(rules, S, choose(seats[S.current_player()], S, S.current_player()),
                                                      k, before=kept)
                if error is not None:
                    raise error
                most[:2] = max(most[0], len(S.ev)), max(most[1], S.ev.size)
                kept = S.ev.kept()
            most[2:] = max(most[2], kept[0]), max(most[3], kept[1])
        print(f"{path.stem:16} a decision: {most[0]:5} events, size {most[1]:7,} | a game: {most[2]:6} events, "
              f"size {most[3]:9,}")
        overall = [max(a, b) for a, b in zip(overall, most)]
    print(f"{'largest':16} a decision: {overall[0]:5} events, size {overall[1]:7,} | a game: {overall[2]:6} events, "
          f"size {overall[3]:9,}")


def memory(shape: str) -> None:
    from interpreter.web.games import LiveGame
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.yaml"
        path.write_text(SHAPES[shape])
        live = LiveGame(interpreter.load(path), 1, 0, "random")
    kept = sum(len(line.get("events") or ()) for line in live.positions.lines)
    print(f"{shape}: {len(live.positions)} positions, {kept:,} events kept; {live.error[:110]}")
    print(f"largest resident size: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10} MB")


def recall(shape: str, moves: int) -> None:
    from interpreter.adapters.common import Table
    from interpreter.adapters.recall import Recall

    class History:   # (the moves the recall replays: option 0 each time)
        def __init__(self):
            self.moves = [0] * moves

        def replay(self, S, k, apply):
            return apply(S, self.moves[k])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.yaml"
        path.write_text(SHAPES[shape])
        table = Table(str(path), 1)
    r = Recall(table, table.new_game(0))
    r.advance(table, History())
    print(f"{shape}: {moves} moves recalled, seat 0 keeps {sum(map(len, r.seen[0])):,} characters")
    print(f"largest resident size: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--memory", choices=sorted(SHAPES))
    ap.add_argument("--recall", choices=sorted(SHAPES))
    ap.add_argument("--moves", type=int, default=20)
    args = ap.parse_args()
    if args.recall:
        recall(args.recall, args.moves)
    else:
        memory(args.memory) if args.memory else bundled(args.seeds)


if __name__ == "__main__":
    main()
