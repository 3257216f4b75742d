#!/usr/bin/env python3
"""Long fuzz campaigns: mutated rulesets, random expressions against the reference compile, and
mutated rulesets played by their module and its plain reference in lockstep.

    python benchmarks/fuzz.py --rulesets 100000 --expressions 20000 --lockstep 5000 --flows 5000 --seed 1 [--jobs 2] [--out fuzz-failures/]
    python benchmarks/fuzz.py --replay fuzz-failures/ruleset-1-4711

A mutated ruleset must load and play 200 random decisions, or fail with a RulebookError
(tests/fuzzing/rulesets.py); an expression must give what the reference compile gives on
every state of the fixture world (tests/fuzzing/differential.py), and so must a branch's
conditions compiled together (one set of 1 to 4 conditions for every 4 expressions); a
lockstep case (one data mutation half the time, a small step budget two times in three) must
play alike in the ruleset's generated module and in its plain reference, errors and budget
stops included (tests/fuzzing/lockstep.py), and so must a small valid ruleset with a random flow
(tests/fuzzing/flows.py: the constructs the flow's generators specialise, nested). Each
case is a function of (seed, kind, index) and runs in a worker process under a time bound
(``--timeout``, 10 s of processor time): past it the case is a hang. A failing case is written to ``--out``
(the files of a ruleset, or the expression, with what went wrong) and ``--replay`` runs it
again. Prints the cases run, crashes, hangs, mismatches and cases/s; exit code 1 if any case
failed. docs/fuzzing.md describes the campaign.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from multiprocessing.connection import wait
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))   # the generators: tests/fuzzing/

from fuzzing.limits import Hang, time_limit  # noqa: E402
from fuzzing.flows import make_flow_case  # noqa: E402
from fuzzing.lockstep import Mismatch, make_lockstep_case, run_lockstep  # noqa: E402
from fuzzing.rulesets import make_case, run_case  # noqa: E402

FAILURES = ("crash", "hang", "mismatch")
# a worker that does not answer within 3 x --timeout + GRACE seconds of wall-clock time (stuck in
# C code, or waiting) is killed: the time bound inside a case counts processor time
GRACE = 10


# ---------------------------------------------------------------------- one case
class Runner:
    """Runs cases in one process: the fixture world is built on first use."""

    def __init__(self, seed: int, timeout: float):
        self.seed, self.timeout = seed, timeout
        self.tmp = Path(tempfile.mkdtemp(prefix="rulebook-fuzz-"))
        self._world = None

    @property
    def world(self):
        if self._world is None:
            from fuzzing.differential import World
            self._world = World()
        return self._world

    def run(self, kind: str, index: int) -> dict:
        start = time.perf_counter()
        try:
            with time_limit(self.timeout):
                result = getattr(self, kind)(random.Random(f"{self.seed}:{kind}:{index}"))
        except Hang:
            result = {"verdict": "hang", "detail": traceback.format_exc(limit=-12)}
        result.update(kind=kind, index=index, seconds=time.perf_counter() - start)
        return result

    def ruleset(self, rnd) -> dict:
        return self._played(make_case(rnd), lambda case, folder: run_case(case, folder))

    def lockstep(self, rnd, make=make_lockstep_case) -> dict:
        return self._played(make(rnd), lambda case, folder: run_lockstep(case, folder))

    def _played(self, case, run) -> dict:
        """The verdict of ``run`` on ``case``'s files, a mismatch's or a crash's with the case."""
        folder = self.tmp / "case"
        shutil.rmtree(folder, ignore_errors=True)
        try:
            return {"verdict": run(case, folder)}
        except Hang:
            raise
        except Mismatch as e:
            return {"verdict": "mismatch", "detail": str(e), "case": _case_data(case)}
        except BaseException:   # noqa: BLE001 - anything else is what the fuzzer looks for
            return {"verdict": "crash", "detail": traceback.format_exc(limit=-12), "case": _case_data(case)}

    def flow(self, rnd) -> dict:
        return self.lockstep(rnd, make_flow_case)

    def expression(self, rnd) -> dict:
        from fuzzing.expressions import ExprGen
        v = self.world.check(ExprGen(rnd, extra=True).expression())
        return {"verdict": v.kind, "detail": v.detail, "text": v.text, "raw": v.raw_errors[:3]}

    def branch(self, rnd) -> dict:
        from fuzzing.expressions import ExprGen
        gen = ExprGen(rnd, locals=False)
        texts = [gen.condition() for _ in range(rnd.randint(1, 4))]
        v = self.world.check_offers(texts)
        return {"verdict": v.kind, "detail": v.detail, "texts": texts}


def _case_data(case) -> dict:
    return {"files": case.files, "main": case.main, "variant": case.variant, "seed": case.seed,
            "mutations": case.mutations}


def _worker(conn, seed: int, timeout: float) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent stops the campaign
    runner = Runner(seed, timeout)
    try:
        while (job := conn.recv()) is not None:
            conn.send(runner.run(*job))
    finally:
        shutil.rmtree(runner.tmp, ignore_errors=True)


# ---------------------------------------------------------------------- the campaign
def jobs(rulesets: int, expressions: int, lockstep: int = 0, flows: int = 0):
    """The cases, kinds interleaved in proportion (a run stopped early has some of each)."""
    counts = {"ruleset": rulesets, "expression": expressions, "branch": expressions // 4, "lockstep": lockstep,
              "flow": flows}
    order = sorted(((i + 0.5) / n, kind, i) for kind, n in counts.items() for i in range(n))
    return [(kind, i) for _, kind, i in order]


class Pool:
    """Worker processes fed one case at a time; a worker silent past the time bound (stuck in
    C code, out of memory) is killed, its case counted as a hang, and replaced."""

    def __init__(self, n: int, seed: int, timeout: float):
        self.seed, self.timeout = seed, timeout
        self.ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        self.workers = [self._start() for _ in range(n)]

    def _start(self):
        parent, child = self.ctx.Pipe()
        p = self.ctx.Process(target=_worker, args=(child, self.seed, self.timeout), daemon=True)
        p.start()
        child.close()
        return {"proc": p, "conn": parent, "job": None, "since": 0.0}

    def run(self, todo: list, record) -> None:
        todo = list(reversed(todo))
        while todo or any(w["job"] for w in self.workers):
            for w in self.workers:
                if w["job"] is None and todo:
                    w["job"], w["since"] = todo.pop(), time.perf_counter()
                    w["conn"].send(w["job"])
            busy = [w for w in self.workers if w["job"] is not None]
            ready = wait([w["conn"] for w in busy], timeout=1.0)
            for w in busy:
                if w["conn"] in ready:
                    try:
                        result = w["conn"].recv()
                    except (EOFError, OSError):   # the worker died (killed for memory, a crash of C code)
                        result = self._lost(w, "crash", "the worker process died")
                    w["job"] = None
                    record(result)
                elif time.perf_counter() - w["since"] > 3 * self.timeout + GRACE:
                    record(self._lost(w, "hang", f"no answer after {3 * self.timeout + GRACE} s: killed"))

    def _lost(self, w, verdict, detail) -> dict:
        kind, index = w["job"]
        w["proc"].kill()
        w["proc"].join()
        w.update(self._start())
        return {"kind": kind, "index": index, "verdict": verdict, "detail": detail,
                "seconds": time.perf_counter() - w["since"]}

    def close(self) -> None:
        for w in self.workers:
            try:
                w["conn"].send(None)
            except (BrokenPipeError, OSError):
                pass
        for w in self.workers:
            w["proc"].join(timeout=5)
            if w["proc"].is_alive():
                w["proc"].kill()


MAKERS = {"ruleset": make_case, "lockstep": make_lockstep_case, "flow": make_flow_case}   # kinds of files


def save_failure(out: Path, seed: int, result: dict) -> Path:
    """Write a failing case where it can be replayed: a folder with the ruleset's files, or a
    JSON file with the expression."""
    out.mkdir(parents=True, exist_ok=True)
    name = f"{result['kind']}-{seed}-{result['index']}"
    if result["kind"] in MAKERS:
        make = MAKERS[result["kind"]]
        case = result.get("case") or _case_data(make(random.Random(f"{seed}:{result['kind']}:{result['index']}")))
        folder = out / name
        folder.mkdir(exist_ok=True)
        for file, text in case["files"].items():
            (folder / file).write_text(text, encoding="utf-8")
        target = folder
        info = {k: case[k] for k in ("main", "variant", "seed", "mutations")}
        (folder / "case.json").write_text(json.dumps({**info, **_summary(result, seed)}, indent=1), encoding="utf-8")
    else:
        target = out / f"{name}.json"
        if "text" not in result and "texts" not in result:   # a hang or a dead worker: the case again
            rnd = random.Random(f"{seed}:{result['kind']}:{result['index']}")
            from fuzzing.expressions import ExprGen
            if result["kind"] == "expression":
                result["text"] = ExprGen(rnd, extra=True).expression()
            else:
                gen = ExprGen(rnd, locals=False)
                result["texts"] = [gen.condition() for _ in range(rnd.randint(1, 4))]
        keep = {k: result[k] for k in ("text", "texts") if k in result}
        target.write_text(json.dumps({**keep, **_summary(result, seed)}, indent=1), encoding="utf-8")
    return target


def _summary(result: dict, seed: int) -> dict:
    return {"kind": result["kind"], "campaign_seed": seed, "index": result["index"], "verdict": result["verdict"],
            "detail": result.get("detail", ""), "seconds": round(result["seconds"], 3)}


def replay(path: Path, timeout: float) -> int:
    """Run a saved failing case again in this process and say what it gives now."""
    runner = Runner(0, timeout)
    if path.is_dir():
        info = json.loads((path / "case.json").read_text(encoding="utf-8"))
        from fuzzing.rulesets import Case
        files = {p.name: p.read_text(encoding="utf-8") for p in path.glob("*.yaml")}
        case = Case(files, info["main"], info["variant"], info["seed"], info["mutations"])
        try:
            with time_limit(timeout):
                verdict = (run_lockstep if info.get("kind") in ("lockstep", "flow") else run_case)(case, runner.tmp / "case")
        except Hang:
            verdict = "hang"
        except Mismatch as e:
            verdict = f"mismatch: {e}"
        print(f"{path}: {verdict} (was {info['verdict']})")
        return 1 if verdict.split(":")[0] in FAILURES else 0
    info = json.loads(path.read_text(encoding="utf-8"))
    with time_limit(timeout):
        v = runner.world.check(info["text"]) if "text" in info else runner.world.check_offers(info["texts"])
    print(f"{path}: {v.kind} (was {info['verdict']})\n{v.detail}")
    return 1 if v.kind in FAILURES else 0


def report(counts: Counter, args, seconds: float) -> str:
    def part(kind, label):
        n = sum(c for (k, _), c in counts.items() if k == kind)
        verdicts = ", ".join(f"{c} {v}" for (k, v), c in sorted(counts.items()) if k == kind)
        return f"{n} {label} ({verdicts})" if n else f"0 {label}"
    total = sum(counts.values())
    failed = {f: sum(c for (_, v), c in counts.items() if v == f) for f in FAILURES}
    return (f"fuzz, seed {args.seed}, {args.jobs} jobs: {part('ruleset', 'mutated rulesets')}; "
            f"{part('expression', 'expressions')}; {part('branch', 'branch condition sets')}; "
            f"{part('lockstep', 'lockstep games')}; {part('flow', 'random flows')}{_loaded(counts)}\n"
            f"{failed['crash']} crashes, {failed['hang']} hangs, {failed['mismatch']} mismatches; "
            f"{total} cases in {seconds:.1f} s, {total / max(seconds, 1e-9):.1f} cases/s")


def _loaded(counts: Counter) -> str:
    """The share of random flows that load (the rest are refused by the loader)."""
    n = sum(c for (k, _), c in counts.items() if k == "flow")
    return f", {1 - counts[('flow', 'refused')] / n:.1%} loaded" if n else ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", type=int, default=1000, help="mutated rulesets to play")
    ap.add_argument("--expressions", type=int, default=2000, help="random expressions to check")
    ap.add_argument("--lockstep", type=int, default=0,
                    help="mutated rulesets played by their module and its plain reference in lockstep")
    ap.add_argument("--flows", type=int, default=0,
                    help="small rulesets with random flows played by their module and its plain reference in lockstep")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=max(1, multiprocessing.cpu_count()))
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds a case may take")
    ap.add_argument("--out", type=Path, default=Path("fuzz-failures"), help="where failing cases are written")
    ap.add_argument("--replay", type=Path, help="run one saved failing case again")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--progress", type=float, default=60.0, help="seconds between progress lines on stderr (0: none)")
    args = ap.parse_args(argv)
    if args.replay is not None:
        return replay(args.replay, args.timeout)
    counts: Counter = Counter()
    saved: list = []
    slowest = [0.0, None]
    total = args.rulesets + args.expressions + args.expressions // 4 + args.lockstep + args.flows
    shown = [time.perf_counter()]

    def record(result):
        counts[(result["kind"], result["verdict"])] += 1
        if args.progress and time.perf_counter() - shown[0] >= args.progress:   # a long campaign says where it is
            shown[0] = time.perf_counter()
            done = sum(counts.values())
            print(f"{done}/{total} cases, {len(saved)} failing, {done / (shown[0] - start):.1f} cases/s",
                  file=sys.stderr, flush=True)
        if result["seconds"] > slowest[0]:
            slowest[:] = [result["seconds"], f"{result['kind']} {result['index']}"]
        if result["verdict"] in FAILURES:
            path = save_failure(args.out, args.seed, result)
            saved.append(path)
            print(f"{result['verdict']}: {result['kind']} {result['index']} -> {path}", file=sys.stderr, flush=True)

    start = time.perf_counter()
    pool = Pool(args.jobs, args.seed, args.timeout)
    interrupted = False
    try:
        pool.run(jobs(args.rulesets, args.expressions, args.lockstep, args.flows), record)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        pool.close()
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"seed": args.seed, "jobs": args.jobs, "seconds": round(seconds, 1),
                          "counts": {f"{k}:{v}": c for (k, v), c in sorted(counts.items())},
                          "slowest": {"seconds": round(slowest[0], 2), "case": slowest[1]},
                          "failures": [str(p) for p in saved]}))
    else:
        print(report(counts, args, seconds) + f"; slowest case {slowest[0]:.2f} s ({slowest[1]})"
              + (" (interrupted)" if interrupted else ""))
        if saved:
            print(f"failing cases in {args.out}/: python benchmarks/fuzz.py --replay {saved[0]}")
    return 130 if interrupted else (1 if saved else 0)


if __name__ == "__main__":
    sys.exit(main())
