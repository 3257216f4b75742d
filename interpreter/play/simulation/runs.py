"""A batch run: play games 0..G-1 from a backend, keep their records in ``--out`` (games.jsonl,
resuming an interrupted run; run.json says which batch a folder holds), then summarise
(summary.json) and plot them.
"""
from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Callable

from ...engine import rng
from ...errors import UsageError, digits
from ...loading.jsondata import JSONInputError, loads as json_loads
from .batch import Batch, load_batch_rules
from . import anomalies, rules_fired
from .plots import plots
from .summary import summarise
from .workers import played, workers_used


def read_records(path: Path, batch: Batch | None = None) -> list[dict]:
    """The sound records of a games.jsonl (of ``batch``, when given): a torn last line from an
    interruption, a record that does not hold a game's result as play_one writes it (a line
    edited or damaged), and every record of an index written more than once, are dropped, and
    their games are played again."""
    out: list[dict] = []
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            rec = json_loads(line)
        except JSONInputError:
            continue
        if _sound(rec, batch):
            out.append(rec)
    times = Counter(rec["index"] for rec in out)
    return [rec for rec in out if times[rec["index"]] == 1]


def _whole(x, low: int = 0, high: float = float("inf")) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and low <= x < high


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)   # (never NaN: json_loads refuses it)


def _sound(rec, batch: Batch | None) -> bool:
    """A game's record as play_one writes it: its index and the seed that game is played with,
    the number of decisions, then an error, or the results, each of its type and range."""
    if not (isinstance(rec, dict) and _whole(rec.get("index")) and _whole(rec.get("seed"))
            and _whole(rec.get("decisions"))):
        return False
    if batch is not None and rec["seed"] != rng.derive(batch.seed, rec["index"]):
        return False
    cov = rec.get("coverage")
    if cov is not None and not (isinstance(cov, dict) and isinstance(cov.get("p", {}), dict)
                                and all(digits(k) and _whole(n) for k, n in cov.get("p", {}).items())
                                and isinstance(cov.get("e", []), list)
                                and all(isinstance(e, str) for e in cov.get("e", []))):
        return False
    if "error" in rec:
        return isinstance(rec["error"], str)
    scores, winners = rec.get("scores"), rec.get("winners")
    if not (isinstance(scores, list) and scores and all(_number(v) for v in scores)
            and (batch is None or len(scores) == batch.players)):
        return False
    seats = len(scores)
    unranked = rec.get("unranked", [])
    return (isinstance(winners, list) and all(_whole(w, 0, seats) for w in winners) and len(set(winners)) == len(winners)
            and all(k in rec for k in ("rounds", "first", "margin", "margin_relative", "lead_changes"))
            and (rec["rounds"] is None or _whole(rec["rounds"]))
            and (rec["first"] is None or _whole(rec["first"], 0, seats))
            and all(rec[k] is None or _number(rec[k]) for k in ("margin", "margin_relative"))
            and (rec["lead_changes"] is None or _whole(rec["lead_changes"]))
            and isinstance(unranked, list) and all(_whole(u, 0, seats) for u in unranked))


def out_folder(out: Path, holds: str) -> None:
    """Refuse an --out that names a file (the OS would only say 'File exists')."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file: --out names a folder ({holds})")


def prepare_out(out: Path, batch: Batch) -> dict[int, dict]:
    """Create the folder or resume it: the records already there (by index). A folder holding
    another batch (ruleset, seed, players, ...) is refused rather than mixed."""
    out_folder(out, "it will hold run.json, games.jsonl, summary.json and the plots")
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
    done = {r["index"]: r for r in read_records(games, batch)}
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
    source = played(batch, todo, workers, backend, address, rules)
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
    covered = rules_fired.report(rules, ordered) if rules.probes is not None else None
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
