#!/usr/bin/env python3
"""What reading a forged log takes: the largest resident size of ``rulebook replay`` (or of the
viewer opening it) on logs made of a real header and lines of many small values
(play/logs/gamelog.py ``values``, MAX_LINE_VALUES and MAX_LOG_VALUES; docs/security.md).

    python benchmarks/forged_logs.py [--mb N] [--shape SHAPE ...] [--game GAME]
    python benchmarks/forged_logs.py --bundled SEEDS

Each shape is a log of about N megabytes (30 by default), a tic-tac-toe game's header and then:
``lists``, one line of empty lists (``[],`` 3 bytes each); ``texts``, one line of two-letter
texts; ``deep``, one line of lists nested 62 deep; ``lines``, lines of 100,000 empty lists each;
``blank``, lines of two spaces; ``records``, a log redacted for seat 0 whose decision lines hold
500,000 empty records each (``{},``), opened as the viewer opens it (its timeline keeps every line);
``decisions``, such a log of the shortest decision lines a reader takes (each field, no event).
Each is read in a process of its own; printed: the shape, the log's size, the process's largest
resident size, its time, and the first line of what it said. The second form prints the most
values a line and a log of each bundled game hold (its largest player count, random agents).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import interpreter  # noqa: E402
from interpreter.play import agents  # noqa: E402
from interpreter.play.logs import gamelog  # noqa: E402

NEST = "[" * 62 + "]" * 62


def _events(items: str) -> str:
    return '{"type": "events", "events": [' + items + "]}\n"


def _write(f, shape: str, size: int) -> None:
    """The forged lines of ``shape``, about ``size`` bytes, written a part at a time (this
    process stays small: its children's largest resident size starts from its own)."""
    if shape in ("lists", "texts", "deep"):   # one line
        item = {"lists": "[]", "texts": '"ab"', "deep": NEST}[shape]
        part = ",".join([item] * ((1 << 20) // (len(item) + 1)))
        f.write('{"type": "events", "events": [' + part)
        for _ in range((size >> 20) - 1):
            f.write("," + part)
        f.write("]}\n")
        return
    if shape in ("records", "decisions"):   # decision lines, numbered
        events = ",".join(["{}"] * 500_000) if shape == "records" else ""
        n = written = 0
        while True:
            n += 1
            line = f'{{"type": "decision", "n": {n}, "seat": 0, "prompt": "", "action": "", "events": [{events}]}}\n'
            if written + len(line) > size:
                return
            written += f.write(line)
    line = {"lines": _events(",".join(["[]"] * 100_000)), "blank": "  \n" * 100_000}[shape]
    for _ in range(size // len(line)):
        f.write(line)


def _header(folder: Path, shape: str, game: str = "tic_tac_toe") -> str:
    log = folder / "real.jsonl"
    rules = interpreter.load(game)
    n = rules.min_players
    gamelog.play_game(rules, n, 1, agents.make_agents("random", n, 1), log=log, force=True)
    head = json.loads(log.read_text().splitlines()[0])
    if shape in ("records", "decisions"):   # (a log redacted for seat 0: read line by line, every line kept)
        head = {**head, "redacted_for": 0, "replayable": False}
        del head["seed"]
    return json.dumps(head) + "\n"


def measure(shape: str, mb: int, folder: Path, game: str = "tic_tac_toe") -> None:
    path = folder / f"{shape}.jsonl"
    with open(path, "w") as f:
        f.write(_header(folder, shape, game))
        _write(f, shape, mb << 20)
    if shape in ("records", "decisions"):
        argv = [sys.executable, "-c", "import sys; from interpreter.web.timeline import open_log\n"
                "try:\n    open_log(sys.argv[1])\nexcept Exception as e:\n    print(e, file=sys.stderr); sys.exit(1)",
                str(path)]
    else:
        argv = [sys.executable, "-m", "interpreter", "replay", str(path)]
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    said = child.stdout.read().decode(errors="replace") if child.stdout else ""
    _, _, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - start
    first = said.strip().splitlines()[0] if said.strip() else ""
    print(f"{shape:8} {path.stat().st_size / (1 << 20):6.0f} MB  largest resident size {usage.ru_maxrss >> 10:6} MB"
          f"  {took:5.1f} s  {first.replace(str(folder) + os.sep, '')[:150]}")


def bundled(seeds: int) -> None:
    """The most values a line and a log of each bundled ruleset hold, at its largest player
    count, seeds 0 to ``seeds`` - 1, random agents."""
    overall = [0, 0]
    with tempfile.TemporaryDirectory() as folder:
        for path in sorted((ROOT / "rulesets").glob("*.yaml")):
            rules = interpreter.load(path)
            n, most = max(rules.player_counts), [0, 0]
            for seed in range(seeds):
                log = Path(folder) / f"{path.stem}{seed}.jsonl"
                gamelog.play_game(rules, n, seed, agents.make_agents("random", n, seed), log=log)
                counts = [gamelog.values(line) for line in log.read_bytes().splitlines()]
                most = [max(most[0], max(counts)), max(most[1], sum(counts))]
            print(f"{path.stem:16} values: a line {most[0]:7,}, a log {most[1]:9,}")
            overall = [max(a, b) for a, b in zip(overall, most)]
    print(f"{'largest':16} values: a line {overall[0]:7,}, a log {overall[1]:9,}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mb", type=int, default=30, help="megabytes of each forged log (default 30)")
    p.add_argument("--shape", nargs="*", default=["lists", "texts", "deep", "lines", "blank", "records", "decisions"],
                   choices=["lists", "texts", "deep", "lines", "blank", "records", "decisions"])
    p.add_argument("--game", default="tic_tac_toe", help="the bundled game whose header the logs have "
                   "(default tic_tac_toe; diamonds_club declares the largest step budget, 3,000,000)")
    p.add_argument("--bundled", type=int, metavar="SEEDS", help="the values of the bundled games' logs instead")
    args = p.parse_args()
    if args.bundled:
        return bundled(args.bundled)
    bounds = [f"{name} {getattr(gamelog, name):,}" for name in ("MAX_LINE_VALUES", "MAX_LOG_VALUES") if hasattr(gamelog, name)]
    print(", ".join(bounds) or "no bound of the values a log holds")
    with tempfile.TemporaryDirectory() as folder:
        for shape in args.shape:
            measure(shape, args.mb, Path(folder), args.game)


if __name__ == "__main__":
    main()
