#!/usr/bin/env python3
"""Batch throughput with 1 and 2 workers (the code path of ``rulebook simulate``).

    python benchmarks/parallel.py [--ruleset diamonds] [--players 4] [--games 2000] [--repeat 3] [--json]

For each worker count the same batch (seed 1, random agents) is played ``--repeat`` times
and the best run is kept (other processes on the machine only ever slow a run down). The
time includes starting the worker pool and loading the ruleset in each worker, as a user
of ``simulate`` pays them. Parallel efficiency = (games/s with 2 workers) / (2 x games/s
with 1 worker). It also checks that both runs produced identical records.

Other processes on the machine lower the 2-worker figure. As a control, each repeat also
times a pure-Python CPU loop in 1 process and then in 2 at once: its "efficiency" is what
the machine offers at that moment (about 100% on an idle machine). Measure when ``uptime``
shows a low load, or compare the two figures.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402
from interpreter.play.simulation.batch import Batch  # noqa: E402
from interpreter.play.simulation.runs import simulate  # noqa: E402
from playouts import report  # noqa: E402  (benchmarks/, the script's folder)
from interpreter.play.simulation.workers import settled  # noqa: E402


def _burn(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s


def control(n: int = 3_000_000) -> float:
    """The machine's parallel efficiency right now: a CPU loop twice in 1 process, then in 2."""
    import multiprocessing
    start = time.perf_counter()
    _burn(n)
    _burn(n)
    serial = time.perf_counter() - start
    with multiprocessing.get_context().Pool(2) as pool:
        start = time.perf_counter()
        pool.map(_burn, [n, n], chunksize=1)
        parallel = time.perf_counter() - start
    return serial / (2 * parallel)


def run(batch: Batch, games: int, workers: int, rules) -> tuple[float, list]:
    with settled():   # as `rulebook simulate` does (the ruleset out of full garbage collections)
        start = time.perf_counter()
        result = simulate(batch, games, workers=workers, rules=rules)
        return time.perf_counter() - start, result["records"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="diamonds")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rules = interpreter.load(interpreter.ruleset_path(args.ruleset))
    batch = Batch(path=args.ruleset, players=args.players, seed=args.seed, hash=rules.hash)
    simulate(batch, max(1, args.games // 20), workers=1, rules=rules)     # warm-up
    best, records, controls = {}, {}, []
    for _ in range(args.repeat):
        for w in (1, 2):
            seconds, recs = run(batch, args.games, w, rules)
            best[w] = min(best.get(w, seconds), seconds)
            records[w] = recs
        controls.append(control())
    rate = {w: args.games / s for w, s in best.items()}
    efficiency = rate[2] / (2 * rate[1])
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    result = {"ruleset": rules.name, "players": args.players, "games": args.games, "repeat": args.repeat,
              "games_per_s_1": round(rate[1], 1), "games_per_s_2": round(rate[2], 1),
              "efficiency": round(efficiency, 3), "control_efficiency": round(max(controls), 3),
              "cpus": os.cpu_count(), "load_1min": load,
              "identical": records[1] == records[2]}
    report(result, args.json, lambda: f"{rules.name}, {args.players} players, {args.games} games (best of "
           f"{args.repeat}): 1 worker {result['games_per_s_1']} games/s, 2 workers {result['games_per_s_2']} games/s, "
           f"parallel efficiency {efficiency:.0%} (control: a CPU loop gets {max(controls):.0%}; "
           f"{os.cpu_count()} CPUs, load {load:.2f} at the end); records identical: {result['identical']}")
    return 0 if result["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
