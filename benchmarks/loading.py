#!/usr/bin/env python3
"""What `rulebook validate` costs on each seed ruleset, from a cold start: a new Python
process that imports the package, reads the expression grammar's tables, loads and compiles
the ruleset and each of its variants (what a user or an editor waits for).

    python benchmarks/loading.py                 # wall time: the best and the median of 5 runs
    python benchmarks/loading.py --instructions  # machine instructions under valgrind (one run)

Each run is a new process as an installed package runs it a second time: its modules'
bytecode compiled, the grammar's tables and the schema's passes in the cache folder, from a
first run that is not counted (in folders of the benchmark's own: ``PYTHONPYCACHEPREFIX``,
``XDG_CACHE_HOME``). ``--first`` counts runs with an empty cache folder instead, as the first
run after an install or an edit of the ruleset (the grammar's tables built, about 0.1 s; the
ruleset checked against the schema, jsonschema imported, about 0.15 s). Wall time moves with the machine's load (the best of several
runs is the least disturbed); instructions do not, and compare two versions of the engine.
``--in-process`` times ``interpreter.load`` of the ruleset alone inside one process, after a
first load (the files and expressions met before kept): what a batch or a server pays again.
``--compiled`` loads the ruleset's compiled module (``RULEBOOK_COMPILED=1``, or
``load(path, compiled=True)`` in process) from the cache folder, where the first, uncounted
load compiles it when it is not there (docs/performance.md "The compiled tier").
"""
from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

SEEDS = ("diamonds", "diams", "mister_diamond", "diamonds_club")
CHILD = "import sys; sys.argv = ['rulebook', 'validate', {path!r}]; from interpreter.tools.cli import main; sys.exit(main())"


def _path(name: str) -> str:
    return str(ROOT / "rulesets" / f"{name}.yaml")


_WARM: dict = {}   # the bytecode and cache folders of this run


def _folder() -> str:
    """A new folder of this run's, removed at its end."""
    path = tempfile.mkdtemp(prefix="rulebook-loading-")
    atexit.register(shutil.rmtree, path, True)
    return path


def _env(name: str, first: bool, compiled: bool = False) -> dict:
    """A child's environment: the bytecode, the grammar's tables and the schema's passes in
    folders of this run's, filled by a child validating ``name`` that is not counted (what a
    second `rulebook validate` of a ruleset finds); with ``first``, a new cache folder (the
    grammar's tables built, the ruleset checked against the schema)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "RULEBOOK_NO_CACHE", "RULEBOOK_COMPILED")}
    if compiled:
        env["RULEBOOK_COMPILED"] = "1"
    if not _WARM:
        _WARM.update(PYTHONPYCACHEPREFIX=_folder(), XDG_CACHE_HOME=_folder())
    env.update(PYTHONPATH=str(ROOT), **_WARM)
    _run(CHILD.format(path=_path(name)), env)
    if first:
        env["XDG_CACHE_HOME"] = _folder()
    return env


def _run(code: str, env: dict) -> None:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"validate failed:\n{done.stderr[-2000:]}")


def wall(name: str, runs: int, first: bool, compiled: bool = False) -> list[float]:
    """Seconds of each of ``runs`` cold `rulebook validate` runs."""
    out = []
    env = None
    for _ in range(runs):
        env = _env(name, first, compiled) if first or env is None else env
        started = time.perf_counter()
        _run(CHILD.format(path=_path(name)), env)
        out.append(time.perf_counter() - started)
    return out


def instructions(name: str, first: bool, compiled: bool = False) -> int:
    from instructions import instructions_of   # (benchmarks/instructions.py: valgrind, hash seed fixed)
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); " + CHILD.format(path=_path(name)).replace(
        "sys.exit(main())", "main()")
    saved, env = dict(os.environ), _env(name, first, compiled)   # (made from the environment before it is replaced)
    os.environ.clear()
    os.environ.update(env)
    try:
        return instructions_of(code, warm=False)[0]   # (warmed by _env's own child, or --first: cold)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def in_process(name: str, runs: int, compiled: bool = False) -> float:
    """The best seconds of ``interpreter.load`` of the ruleset after a first load (``compiled``:
    its module compiled by that load into a cache folder of this run's, not the user's)."""
    import interpreter
    if compiled:
        if "XDG_CACHE_HOME" not in _WARM:
            _WARM["XDG_CACHE_HOME"] = _folder()
        os.environ["XDG_CACHE_HOME"] = _WARM["XDG_CACHE_HOME"]
        os.environ.pop("RULEBOOK_NO_CACHE", None)
    interpreter.load(_path(name), compiled=compiled)
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        interpreter.load(_path(name), compiled=compiled)
        best = min(best, time.perf_counter() - started)
    return best


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", choices=SEEDS, help="one seed ruleset")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--instructions", action="store_true", help="count instructions under valgrind")
    p.add_argument("--in-process", action="store_true", help="time interpreter.load after a first load")
    p.add_argument("--first", action="store_true", help="the grammar's tables built in every run (a first run)")
    p.add_argument("--compiled", action="store_true", help="load the ruleset's compiled module, from the cache")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    rows = {}
    validate = "RULEBOOK_COMPILED=1 rulebook validate" if a.compiled else "rulebook validate"
    for name in ([a.only] if a.only else SEEDS):
        if a.instructions:
            rows[name] = {"instructions": instructions(name, a.first, a.compiled)}
            line = f"{name}: {validate}, {rows[name]['instructions'] / 1e6:.0f} M instructions"
        elif a.in_process:
            rows[name] = {"seconds": round(in_process(name, a.runs, a.compiled), 4)}
            line = f"{name}: interpreter.load{'(compiled=True)' * a.compiled} again, best of {a.runs}: " \
                   f"{rows[name]['seconds'] * 1e3:.0f} ms"
        else:
            times = wall(name, a.runs, a.first, a.compiled)
            rows[name] = {"best": round(min(times), 3), "median": round(statistics.median(times), 3)}
            line = f"{name}: {validate}, best {min(times):.2f} s, median {statistics.median(times):.2f} s ({a.runs} runs)"
        if not a.json:
            print(line, flush=True)
    if a.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
