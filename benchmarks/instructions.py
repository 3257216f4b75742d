#!/usr/bin/env python3
"""Machine instructions per random game, counted by valgrind: a figure that does not move
with the machine's load, to compare two versions of the engine.

    python benchmarks/instructions.py --ruleset rulesets/diams.yaml --players 4 --games 20

Wall-clock benchmarks (playouts.py) on a shared machine vary by ±40% from one run to the
next; the number of instructions executed does not (same games, same seeds, hash seed fixed).
It runs the games of playouts.py under ``valgrind --tool=cachegrind --cache-sim=no`` twice,
with N games and with none, and prints the difference divided by N (loading the ruleset and
starting the interpreter cancel out). ``--simulate`` counts the games of ``rulebook simulate``
instead (``simulate.play_one``: random agents, a record per game). Fewer instructions is faster; the ratio between two
counts is a good estimate of the ratio between their speeds. Needs valgrind (Debian package
``valgrind``); runs about 50 times slower than the games themselves.

Every counted child (here, and in the benchmarks that count with ``instructions_of``) finds
the same cache folder: one of this benchmark's own (unless ``XDG_CACHE_HOME`` names one, as
loading.py's and compiled_tier.py's do), which no other process writes, named by the checkout
(not at random: a random name moved a count by up to 2%, a fixed one by under 0.5%), and in which the same code has run
once, uncounted, just before. In the user's own folder, shared with every other
rulebook process, the list of rulesets that passed the schema (read whole at each load) grows
between two children, some 1.8 k instructions a load for each line, and is cut to its last
lines past 4,000, which may drop the ruleset's own (its check paid again, some 200 M): either
moves the difference of two children, so a figure a decision (Diamonds' encoder in play read
31.1 k alone, 28.5 k after the other children of ``rl.py --floor``). And the first child in
an empty folder would pay for the grammar's tables and the schema's check.
"""
from __future__ import annotations

import atexit
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from playouts import arguments, report  # noqa: E402  (the same options as playouts.py)

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import sys
sys.path[:0] = [{root!r}, {bench!r}]
import interpreter
from playouts import playouts   # the same games as playouts.py
rules = interpreter.load(interpreter.ruleset_path({ruleset!r}), variant={variant!r})
from interpreter.play.simulation.workers import settle
settle()                        # as rulebook simulate does
print(playouts(rules, {players}, {games}, {seed})["decisions"] if {games} else 0)
"""
# --simulate: the games of `rulebook simulate` (random agents, records and statistics kept)
SIMULATE = """
import sys
sys.path[:0] = [{root!r}]
import interpreter
from interpreter.play.simulation.batch import Batch, play_one
rules = interpreter.load(interpreter.ruleset_path({ruleset!r}), variant={variant!r})
from interpreter.play.simulation.workers import settle
settle()                        # as rulebook simulate does
batch = Batch(path={ruleset!r}, players={players}, seed={seed}, variant={variant!r}, hash=rules.hash)
print(sum(play_one(rules, batch, i)["decisions"] for i in range({games})))
"""


def count(args, games: int) -> tuple[int, int]:
    """(instructions, decisions) of a child process playing ``games`` games."""
    code = (SIMULATE if args.simulate else CHILD).format(root=str(ROOT), bench=str(ROOT / "benchmarks"), ruleset=args.ruleset, variant=args.variant, seed=args.seed,
                        games=games, players=args.players)
    instructions, out = instructions_of(code)
    return instructions, int(out.split()[-1])


def instructions_of(code: str, warm: bool = True) -> tuple[int, str]:
    """(instructions, its standard output) of ``python -c code`` under valgrind, hash seed fixed,
    run once uncounted first unless ``warm`` is false (the module docstring)."""
    counts, out = _cachegrind(code, "--cache-sim=no", warm=warm)
    return counts["I refs"], out


def per_game(code, games: int) -> tuple[float, float]:
    """(instructions a game, decisions a game) of ``code(n)``, the source of a child that plays n
    games and prints its decisions last: the child of ``games`` games less the one of none (the
    loading and the interpreter's start cancel out), divided by ``games``."""
    (full, out), (empty, _) = (instructions_of(code(n)) for n in (games, 0))
    return (full - empty) / games, int(out.split()[-1]) / games


# what cachegrind's summary names, as counters_of() gives them
_COUNTERS = {"I refs": r"I\s+refs", "I1 misses": r"I1\s+misses", "D1 misses": r"D1\s+misses",
             "LL misses": r"LL\s+misses", "branches": r"Branches", "mispredicts": r"Mispredicts"}


def counters_of(code: str, warm: bool = True) -> tuple[dict, str]:
    """(cachegrind's counters, standard output) of ``python -c code`` with its cache and branch
    simulations on: instructions, first-level instruction and data cache misses, last-level
    misses, branches and mispredicted branches (conditional and indirect together)."""
    return _cachegrind(code, "--cache-sim=yes", "--branch-sim=yes", warm=warm)


_OWN: list = []   # this benchmark's cache folder, made at its first child, and the lock held on it


def _own_cache() -> str:
    """The cache folder of the counted children: named by this checkout, not at random (its name
    is read, hashed and laid out in memory by every child: two random names moved one build's
    count by up to 2% of a game, where with a fixed one two runs differ by under 0.5%), emptied
    first, and locked while this process counts, so that another benchmark counting from the
    same checkout waits for it rather than writing in it."""
    if not _OWN:
        folder = Path(tempfile.gettempdir()) / f"rulebook-instructions-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}"
        lock = open(f"{folder}.lock", "w")   # noqa: SIM115 - held for the life of the process
        fcntl.flock(lock, fcntl.LOCK_EX)
        shutil.rmtree(folder, True)
        folder.mkdir()
        _OWN.extend((str(folder), lock))
        atexit.register(shutil.rmtree, str(folder), True)
    return _OWN[0]


def _cachegrind(code: str, *options: str, warm: bool = True) -> tuple[dict, str]:
    # hash seed fixed; idle BLAS threads spin; a child writing .pyc files would spare the next one
    # the compiling (the first child, the baseline, paying it), so neither writes them
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    if "XDG_CACHE_HOME" not in os.environ:   # (the module docstring: a folder no other process writes)
        env["XDG_CACHE_HOME"] = _own_cache()
    if warm:   # what the code writes in the cache folder on a first run, written before it is counted
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            raise SystemExit(f"the games failed:\n{done.stderr[-2000:]}")
    done = subprocess.run(["valgrind", "--tool=cachegrind", *options, "--cachegrind-out-file=/dev/null",
                           sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the games failed under valgrind:\n{done.stderr[-2000:]}")
    counts = {}
    for name, pattern in _COUNTERS.items():
        found = re.search(pattern + r":\s+([\d,]+)", done.stderr)
        if found is not None:
            counts[name] = int(found.group(1).replace(",", ""))
    if "I refs" not in counts:
        raise SystemExit("valgrind printed no instruction count")
    return counts, done.stdout


def main(argv=None) -> int:
    ap = arguments(__doc__.splitlines()[0], 20)
    ap.add_argument("--simulate", action="store_true",
                    help="count the games of `rulebook simulate` (one worker, random agents, records) instead")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    args.ruleset = str(Path(args.ruleset).resolve()) if Path(args.ruleset).exists() else args.ruleset
    base, _ = count(args, 0)
    total, decisions = count(args, args.games)
    per_game = (total - base) / args.games
    result = {"ruleset": Path(args.ruleset).stem, "players": args.players, "games": args.games,
              "path": "simulate" if args.simulate else "playouts",
              "instructions_per_game": round(per_game), "decisions_per_game": round(decisions / args.games, 1),
              "instructions_per_decision": round(per_game / max(1, decisions / args.games))}
    report(result, args.json, lambda: f"{result['ruleset']}{' (simulate)' if args.simulate else ''}, "
           f"{args.players} players: {per_game / 1e6:.1f} M instructions/game, "
           f"{result['instructions_per_decision'] / 1e3:.1f} k/decision "
           f"({result['decisions_per_game']} decisions/game, {args.games} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
