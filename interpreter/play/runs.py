"""A batch run: play games 0..G-1 from a backend, keep their records in ``--out`` (games.jsonl,
resuming an interrupted run; run.json says which batch a folder holds), then summarise
(summary.json) and plot them.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable, Iterable

from ..errors import UsageError
from ..loading.jsondata import JSONInputError, loads as json_loads
from .batch import Batch, load_batch_rules
from . import anomalies, coverage
from .plots import plots
from .summary import summarise
from .workers import run_local, run_ray, workers_used


def read_records(path: Path) -> list[dict]:
    """The complete records of a games.jsonl: a torn last line from an interruption, or a
    record that does not hold a game's result (a line edited or damaged), is dropped, and
    its game is played again."""
    out = []
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            rec = json_loads(line)
        except JSONInputError:
            continue
        if _complete(rec):
            out.append(rec)
    return out


def _whole(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _complete(rec) -> bool:
    """A game's record as play_one writes it: its index and seed, then an error, or the scores
    (numbers), the winners (seats) and the number of decisions."""
    if not (isinstance(rec, dict) and _whole(rec.get("index")) and rec["index"] >= 0 and _whole(rec.get("seed"))):
        return False
    if isinstance(rec.get("error"), str):
        return True
    scores, winners = rec.get("scores"), rec.get("winners")
    return (isinstance(scores, list) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in scores)
            and isinstance(winners, list) and all(_whole(w) and 0 <= w < len(scores) for w in winners)
            and _whole(rec.get("decisions")))


def _folder(out: Path, holds: str) -> None:
    """Refuse an --out that names a file (the OS would only say 'File exists')."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file: --out names a folder ({holds})")


def prepare_out(out: Path, batch: Batch) -> dict[int, dict]:
    """Create the folder or resume it: the records already there (by index). A folder holding
    another batch (ruleset, seed, players, ...) is refused rather than mixed."""
    _folder(out, "it will hold run.json, games.jsonl, summary.json and the plots")
    out.mkdir(parents=True, exist_ok=True)
    conf_path = out / "run.json"
    conf = batch.config()
    if conf_path.exists():
        try:
            old = json.loads(conf_path.read_text(encoding="utf-8"))
        except ValueError:
            old = None
        if old != json.loads(json.dumps(conf)):
            diff = sorted(k for k in set(conf) | set(old or {}) if (old or {}).get(k) != json.loads(json.dumps(conf)).get(k))
            raise UsageError(f"--out {out} holds another batch (differs in: {', '.join(diff) or 'run.json'}); "
                             "use a new folder")
    elif read_records(out / "games.jsonl"):
        raise UsageError(f"--out {out} has a games.jsonl but no run.json: cannot tell which batch it holds; "
                         "use a new folder")
    elif any(out.iterdir()):   # never write into a folder that is not a previous run
        raise UsageError(f"--out {out} is not empty and holds no run.json (it is not a previous run): "
                         "use a new or empty folder")
    else:
        conf_path.write_text(json.dumps(conf, indent=2) + "\n", encoding="utf-8")
    games = out / "games.jsonl"
    done = {r["index"]: r for r in read_records(games)}
    # rewrite without any torn line, so appended records start on a line of their own
    with open(games, "w", encoding="utf-8") as f:
        for i in sorted(done):
            f.write(json.dumps(done[i]) + "\n")
    return done


def simulate(batch: Batch, games: int, workers: int = 1, backend: str = "local", address: str | None = None,
             out: Path | None = None, rules=None, progress: Callable[[int, int], None] | None = None,
             plot: bool = True) -> dict:
    """Play games 0..games-1 of the batch (skipping those already in ``out``); returns
    {"records": [...], "summary": {...}, "resumed": k}."""
    if rules is None:
        rules = load_batch_rules(batch)
    done: dict[int, dict] = prepare_out(out, batch) if out is not None else {}
    done = {i: r for i, r in done.items() if i < games}
    todo = [i for i in range(games) if i not in done]
    started = time.perf_counter()
    if backend == "local":
        source: Iterable[dict] = run_local(batch, todo, workers, rules)
    elif backend == "ray":
        source = run_ray(batch, todo, address)
    else:
        raise UsageError(f"unknown backend {backend!r} (local or ray)")
    records = dict(done)
    sink = open(out / "games.jsonl", "a", encoding="utf-8") if out is not None else None
    try:
        if progress:
            progress(len(records), games)
        for rec in source:
            records[rec["index"]] = rec
            if sink:
                sink.write(json.dumps(rec) + "\n")
                sink.flush()
            if progress:
                progress(len(records), games)
    finally:
        if sink:
            sink.close()
    seconds = time.perf_counter() - started
    ordered = [records[i] for i in range(games)]
    summary = summarise(ordered, batch.players, rules.team_members(batch.players))
    summary.update(ruleset=rules.name, variant=batch.variant, seed=batch.seed, agents=batch.agents,
                   params=dict(batch.params), resumed=len(done))
    covered = coverage.report(rules, ordered) if rules.probes is not None else None
    summary["anomalies"] = anomalies.find(rules, summary, ordered, covered)
    written = []
    if out is not None:
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        written = [out / "run.json", out / "games.jsonl", out / "summary.json"]
        if covered is not None:
            (out / "coverage.json").write_text(json.dumps(covered, indent=2) + "\n", encoding="utf-8")
            written.append(out / "coverage.json")
        if plot:
            written += plots(summary, ordered, out)
    # throughput: the games played now (not those read back), workers' start-up included
    used = workers_used(workers, len(todo)) if backend == "local" and todo else None
    timing = {"played": len(todo), "seconds": round(seconds, 3), "workers": used,
              "games_per_s": round(len(todo) / seconds, 1) if todo and seconds > 0 else None}
    return {"records": ordered, "summary": summary, "resumed": len(done), "timing": timing, "coverage": covered,
            "written": written}
