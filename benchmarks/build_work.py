#!/usr/bin/env python3
"""What compiling an expression costs, fixed and per character: the measure MAX_BUILD_WORK's
floor for an expression (building/bounded.py EXPR_WORK) is chosen from.

    python benchmarks/build_work.py              # 3,000 short expressions, 100 long ones
    python benchmarks/build_work.py --short 6000 --long 120

Each kind is compiled in a new process (nothing kept from another load), as a ruleset's
``scoring.tiebreak`` list of distinct expressions: short ones (a number, 1 to 4 characters)
and long ones (the largest of a list of 200 distinct numbers, about 1,200 characters). The CPU
time and the memory each adds over a ruleset without the list give the cost of an expression
and of a character (two equations, two unknowns), and their ratio: how many characters one
expression's fixed cost is worth.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RULESET = """\
game: work
players: {min: 2, max: 2}
counters:
  points: {owner: player}
flow:
  - gain: {counter: "points[0]", amount: 1}
scoring:
  categories: {points: points}
"""

CHILD = """\
import json, resource, sys, time
import interpreter
t = time.process_time()
interpreter.load(sys.argv[1])
print(json.dumps([time.process_time() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss]))
"""


def texts(kind: str, n: int) -> list[str]:
    if kind == "short":
        return [str(i) for i in range(n)]
    return ["max([" + ", ".join(f"{i}{j:03}" for j in range(200)) + "])" for i in range(n)]   # 200 numbers of 4 to 6 digits


def measure(kind: str, n: int, folder: Path) -> tuple[float, int, int]:
    """(CPU seconds, largest resident KB, characters) of loading the ruleset with ``n`` expressions."""
    listed = texts(kind, n) if n else []
    path = folder / f"{kind}{n}.yaml"
    path.write_text(RULESET + ("  tiebreak: " + json.dumps(listed) + "\n" if listed else ""))
    out = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "RULEBOOK_NO_CACHE": "1", "PATH": ""})
    if out.returncode:
        sys.exit(f"{kind} {n}: {out.stderr.strip().splitlines()[-1][:300]}")
    cpu, rss = json.loads(out.stdout)
    return cpu, rss, sum(map(len, listed))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--short", type=int, default=3000, help="short expressions (default 3000)")
    ap.add_argument("--long", type=int, default=100, help="long expressions (default 100)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base_cpu, base_rss, _ = measure("short", 0, folder)
        s_cpu, s_rss, s_chars = measure("short", a.short, folder)
        l_cpu, l_rss, l_chars = measure("long", a.long, folder)
    # per expression: fixed + chars/expr * per_char, for each kind
    (ns, cs), (nl, cl) = (a.short, s_chars / a.short), (a.long, l_chars / a.long)
    ts, tl = (s_cpu - base_cpu) / ns, (l_cpu - base_cpu) / nl
    ms, ml = (s_rss - base_rss) / ns, (l_rss - base_rss) / nl
    per_char_t, per_char_m = (tl - ts) / (cl - cs), (ml - ms) / (cl - cs)
    fixed_t, fixed_m = ts - cs * per_char_t, ms - cs * per_char_m
    print(f"short: {a.short:,} expressions of {cs:.1f} characters: {ts * 1e3:.3f} ms and {ms:.1f} KB each")
    print(f"long: {a.long:,} expressions of {cl:.0f} characters: {tl * 1e3:.3f} ms and {ml:.1f} KB each")
    print(f"a character: {per_char_t * 1e6:.2f} us and {per_char_m * 1024:.0f} bytes; "
          f"an expression's fixed cost: {fixed_t * 1e3:.3f} ms and {fixed_m:.1f} KB")
    print(f"the fixed cost is worth {fixed_t / per_char_t:.0f} characters of time, "
          f"{fixed_m / per_char_m:.0f} of memory")


if __name__ == "__main__":
    main()
