"""Batches of games with statistics: ``rulebook simulate`` and ``rulebook compare``.

Game ``i`` of a batch with seed ``S`` is played with seed ``rng.derive(S, i)`` by agents
seeded the same way as ``rulebook play`` seeds them, so a batch's records do not depend on
the number of workers, their order or the backend, and any game of a batch can be replayed
alone: ``rulebook play PATH --seed <its seed>`` plays exactly that game.

The work is split in three layers:

- ``play_one(rules, batch, index)`` plays one game and returns its record (a plain dict):
  index, seed, scores, winners, decisions, rounds, first (the seat of the first decision),
  margin, lead_changes, and ``error`` instead of the results when the game failed;
- ``run_batch(batch, ...)`` yields the records of a batch from a backend: in-process
  (``workers=1``), a ``multiprocessing`` pool (each worker loads the ruleset once, in its
  initializer, from the path: compiled rulesets are never pickled) or a Ray cluster;
- ``summarise(records, players)`` and ``compare(...)`` turn records into statistics
  (``stats.py``). Definitions (shared wins, rounds, margin, lead changes) are in
  docs/simulation.md.

``simulate(batch, games, ...)`` ties them together with ``--out`` (games.jsonl, resuming an
interrupted run, summary.json and the plots).
"""
from __future__ import annotations

import gc
import json
import math
import os
import re
import sys
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..engine import rng
from . import stats
from ..errors import GameError, RulebookError, UsageError

ALPHA = 0.05
LOOP_KINDS = ("repeat", "while", "until", "turns", "for_each")


# ---------------------------------------------------------------------- the batch
@dataclass(frozen=True)
class Batch:
    """Everything a worker needs to play any game of a batch: plain, picklable data.

    ``path`` is the ruleset as given (a file or a bundled name): each worker loads it itself;
    ``hash`` is the content hash the driver loaded, checked by each worker (a cluster node
    with another copy of the ruleset fails loudly instead of mixing results)."""
    path: str
    players: int
    seed: int = 0
    variant: str | None = None
    agents: str = "random"
    params: dict = field(default_factory=dict)
    skill: tuple | None = None
    lead_changes: bool = False
    hash: str | None = None

    def options(self) -> dict:
        out: dict = {"params": dict(self.params)}
        if self.skill is not None:
            out["skill"] = list(self.skill)
        return out

    def config(self) -> dict:
        """What identifies the games of this batch (run.json; a resumed run must match it)."""
        d = asdict(self)
        d["skill"] = list(self.skill) if self.skill is not None else None
        return d


def load_batch_rules(batch: Batch):
    import interpreter
    rules = interpreter.load(interpreter.ruleset_path(batch.path), variant=batch.variant)
    if batch.hash is not None and rules.hash != batch.hash:
        raise RulebookError(f"the ruleset {batch.path} loaded here has hash {rules.hash[:12]}, the batch was "
                            f"started with {batch.hash[:12]}: every worker needs the same ruleset file")
    return rules


def parse_skill(text: str | None, players: int) -> tuple | None:
    """--skill 0.9,0.6,... : one number per seat, or one for every seat."""
    if text is None:
        return None
    parts = [p.strip() for p in str(text).split(",")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise UsageError(f"--skill expects numbers separated by commas, got {text!r}") from None
    if any(math.isnan(v) or math.isinf(v) for v in values):
        raise UsageError(f"--skill values must be finite numbers, got {text!r}")
    if len(values) == 1:
        values = values * players
    if len(values) != players:
        raise UsageError(f"--skill gives {len(values)} values for {players} players "
                         "(give one for all seats, or one per seat)")
    return tuple(values)


def check_batch(rules, batch: Batch) -> None:
    """Refuse a batch that cannot start (player count, parameters, agents) before playing it."""
    from .agents import make_agents
    names = [n.strip() for n in str(batch.agents).split(",")]
    if "human" in names:
        raise UsageError("simulate plays without people: the 'human' agent cannot be used in a batch")
    make_agents(batch.agents, batch.players, batch.seed)
    try:
        rules.new_game(batch.players, rng.derive(batch.seed, 0), batch.options())
    except GameError:
        pass     # a game that fails is recorded as a failure, with its seed, and the batch goes on


# ---------------------------------------------------------------------- one game
def outer_repeat(rules) -> int | None:
    """The index of the flow's outermost ``repeat`` (not inside any other loop), if there is
    exactly one; its iterations are the game's rounds. None otherwise."""
    found = []
    todo = [rules.steps[rules.root]]
    while todo:
        step = todo.pop()
        kind = getattr(step, "kind", None)
        if kind == "repeat":
            found.append(step.index)
            continue
        if kind in LOOP_KINDS:
            continue
        todo.extend(step.children())
    return found[0] if len(found) == 1 else None


def _blind(agent) -> bool:
    """Agents that never look at their observation (so a batch need not compute it)."""
    from .agents import FirstAgent, RandomAgent
    blind = getattr(agent, "blind", None)
    return bool(blind) if blind is not None else type(agent) in (RandomAgent, FirstAgent)


def _team_best(scores, members, sign):
    """Each team's score (its best member's), in team order."""
    return [max(sign * scores[p] for p in team) for team in members]


def _leader(values):
    best = max(values)
    return values.index(best) if values.count(best) == 1 else None


def play_one(rules, batch: Batch, index: int, round_step: int | None = -1) -> dict:
    """Play game ``index`` of the batch; its record (``error`` set if the game failed)."""
    from .agents import FirstAgent, LazyLabels, RandomAgent, make_agents
    seed = rng.derive(batch.seed, index)
    rec: dict = {"index": index, "seed": seed}
    if round_step == -1:
        round_step = outer_repeat(rules)
    decisions = 0
    try:
        S = rules.new_game(batch.players, seed, batch.options())
        agents = make_agents(batch.agents, batch.players, seed)
        blind = [_blind(a) for a in agents]
        sign = -1 if getattr(rules.scoring, "lowest_wins", False) else 1
        members = S.members
        track = batch.lead_changes
        leader, changes = None, 0
        rounds = 0 if round_step is not None else None
        lazy = [getattr(a, "reads_labels", True) is False for a in agents]
        pick = [getattr(a, "pick", None) for a in agents]   # agents that need only the count of options
        checked = [type(a) not in (RandomAgent, FirstAgent) for a in agents]   # (ours pick in range)
        # the rounds' repeat frame: the outermost repeat is entered once, so once on the stack it
        # is the same list until it ends, and its count only grows
        frame = None
        first = S.current_player() if not S.over else None
        while not S.over:
            seat, options = S.dec
            if pick[seat] is not None:
                i = pick[seat](len(options))
            else:
                legal = LazyLabels(S) if lazy[seat] else S.legal_actions()
                i = agents[seat].act({} if blind[seat] else S.observation(seat), legal)
            if checked[seat] and (not (i.__class__ is int or isinstance(i, int) and not isinstance(i, bool))
                                  or not 0 <= i < len(options)):
                raise GameError(f"the agent of seat {seat} chose {i!r}, not an index 0..{len(options) - 1}")
            S.apply_index(i)
            decisions += 1
            if round_step is not None:
                if frame is None:
                    frame = next((f for f in S.stack if f[0] == round_step), None)
                if frame is not None and frame[1] > rounds:   # (once popped, it no longer changes)
                    rounds = frame[1]
            if track:
                now = _leader(_team_best(S.scores(), members, sign))
                if now is not None:
                    if leader is not None and now != leader:
                        changes += 1
                    leader = now
        scores = json.loads(json.dumps(S.scores()))
        teams = sorted(_team_best(scores, members, sign), reverse=True)
        margin = (teams[0] - teams[1]) if len(teams) > 1 else None
        rec.update(scores=scores, winners=list(S.winners()), decisions=decisions, rounds=rounds, first=first,
                   margin=margin,
                   margin_relative=margin / abs(teams[0]) if margin is not None and teams[0] else None,
                   lead_changes=changes if track else None)
    except Exception as e:   # noqa: BLE001 - any engine error is one failed game, not a failed batch
        message = e.message if isinstance(e, RulebookError) else str(e)
        rec.update(error=f"{type(e).__name__}: {message}", decisions=decisions)
    return rec


# ---------------------------------------------------------------------- backends
_WORKER: dict = {}


def settle() -> None:
    """Take everything alive now (the compiled ruleset: thousands of functions, tables, dicts)
    out of the garbage collector's full passes, which would walk it again and again during
    the games (2% of a game of the largest bundled ruleset). For a pool worker, for its life; the command line
    uses ``settled()``, which gives them back when the batch is over."""
    gc.collect()
    gc.freeze()


@contextmanager
def settled():
    settle()
    try:
        yield
    finally:
        gc.unfreeze()


def _init_worker(batch: Batch) -> None:
    if _WORKER.get("batch") == batch and "rules" in _WORKER:
        settle()
        return     # forked from a parent that had the ruleset compiled already (run_local)
    try:
        rules = load_batch_rules(batch)
    except Exception as e:   # noqa: BLE001 - an initializer that raises makes a Pool respawn it for ever
        message = e.message if isinstance(e, RulebookError) else f"{type(e).__name__}: {e}"
        _WORKER.clear()
        _WORKER.update(batch=batch, error=f"the worker could not load the ruleset: {message}")
        return
    _WORKER.clear()
    _WORKER.update(batch=batch, rules=rules, round_step=outer_repeat(rules))
    settle()


def _worker_play(index: int) -> dict:
    if "error" in _WORKER:   # every game of the batch fails with the reason, none hangs
        return {"index": index, "seed": rng.derive(_WORKER["batch"].seed, index), "error": _WORKER["error"],
                "decisions": 0}
    return play_one(_WORKER["rules"], _WORKER["batch"], index, _WORKER["round_step"])


def _worker_chunk(batch: Batch, indexes: list[int]) -> list[dict]:
    if _WORKER.get("batch") != batch:
        _init_worker(batch)
    return [_worker_play(i) for i in indexes]


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run_local(batch: Batch, indexes: list[int], workers: int, rules=None) -> Iterator[dict]:
    """Records of the given games, in completion order: in-process for one worker, else a Pool."""
    if not indexes:
        return
    workers = max(1, min(workers, len(indexes)))
    if workers == 1:
        if rules is None:
            rules = load_batch_rules(batch)
        step = outer_repeat(rules)
        for i in indexes:
            yield play_one(rules, batch, i, step)
        return
    import multiprocessing
    chunk = max(1, min(32, len(indexes) // (workers * 32)))   # small chunks: little idle time at the end
    context = multiprocessing.get_context()
    if rules is not None and context.get_start_method() == "fork":
        # forked workers inherit the compiled ruleset instead of each loading it again (a
        # second or so for a large ruleset: a fifth of a few hundred games' time on 2 cores)
        _WORKER.update(batch=batch, rules=rules, round_step=outer_repeat(rules))
    with context.Pool(workers, initializer=_init_worker, initargs=(batch,)) as pool:
        yield from pool.imap_unordered(_worker_play, indexes, chunksize=chunk)


def run_ray(batch: Batch, indexes: list[int], address: str | None = None) -> Iterator[dict]:
    """Records of the given games from Ray tasks (chunks of games; each worker process loads
    the ruleset once). Joins the cluster at ``address`` (or starts a local Ray) unless Ray is
    already initialised."""
    try:
        import ray
    except ImportError:
        raise UsageError("--backend ray needs Ray: pip install 'rulebook[ray]'") from None
    if not indexes:
        return
    if not ray.is_initialized():
        extra = {} if str(address or "").startswith("ray://") else {"include_dashboard": False}
        try:
            ray.init(address=address, log_to_driver=False, **extra)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise RulebookError(f"cannot {'join Ray at ' + address if address else 'start Ray'}: {e}") from None
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = max(1, min(64, math.ceil(len(indexes) / (cpus * 8))))
    task = ray.remote(_worker_chunk)
    pending = [task.remote(batch, indexes[k:k + size]) for k in range(0, len(indexes), size)]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield from ray.get(ref)


# ---------------------------------------------------------------------- statistics
def win_shares(rec: dict, players: int) -> list[float]:
    """A game's win per seat: 1/k to each of its k winners (0 to all when nobody won)."""
    winners = rec.get("winners") or []
    share = 1.0 / len(winners) if winners else 0.0
    return [share if p in winners else 0.0 for p in range(players)]


def summarise(records: list[dict], players: int) -> dict:
    """The statistics of a batch (see docs/simulation.md for every definition)."""
    records = sorted(records, key=lambda r: r["index"])
    ok = [r for r in records if "error" not in r]
    bad = [r for r in records if "error" in r]
    n = len(ok)
    wins = [0.0] * players
    outright = [0] * players
    shared = [0] * players
    for r in ok:
        for p, s in enumerate(win_shares(r, players)):
            wins[p] += s
        if len(r["winners"]) == 1:
            outright[r["winners"][0]] += 1
        elif len(r["winners"]) > 1:
            for p in r["winners"]:
                shared[p] += 1
    scores = [[r["scores"][p] for r in ok] for p in range(players)]
    per_seat = [stats.describe(s) for s in scores]
    firsts = [r for r in ok if r.get("first") is not None]
    first_share = sum(win_shares(r, players)[r["first"]] for r in firsts)
    test = stats.proportion_test(first_share, len(firsts), 1.0 / players) if players > 1 else None
    rounds = [r["rounds"] for r in ok if r.get("rounds") is not None]
    margins = [r["margin"] for r in ok if r.get("margin") is not None]
    relative = [r["margin_relative"] for r in ok if r.get("margin_relative") is not None]
    leads = [r["lead_changes"] for r in ok if r.get("lead_changes") is not None]
    decisions = [r["decisions"] for r in ok]
    return {
        "games": len(records), "completed": n, "failed": len(bad),
        "failed_seeds": [r["seed"] for r in bad],
        "failures": [{"index": r["index"], "seed": r["seed"], "error": r["error"]} for r in bad[:20]],
        "players": players,
        "win_rate": [w / n if n else None for w in wins],
        "win_rate_ci": [list(stats.wilson(w, n)) if n else None for w in wins],
        "wins": wins, "wins_outright": outright, "wins_shared": shared,
        "no_winner": sum(1 for r in ok if not r["winners"]),
        "score_mean": [d["mean"] for d in per_seat], "score_sd": [d["sd"] for d in per_seat],
        "scores": per_seat,
        "decisions_mean": stats.mean(decisions), "decisions": stats.describe(decisions),
        "rounds_mean": stats.mean(rounds), "rounds": stats.describe(rounds) if rounds else None,
        "first_player": {
            "games": len(firsts),
            "seats": [sum(1 for r in firsts if r["first"] == p) for p in range(players)],
            "win_rate": first_share / len(firsts) if firsts else None,
            "win_rate_ci": list(stats.wilson(first_share, len(firsts))) if firsts else None,
            "expected": 1.0 / players,
            "z": test["z"] if test else None, "p": test["p"] if test else None,
            "significant": bool(test and test["p"] < ALPHA),
        },
        "margin": stats.describe(margins) if margins else None,
        "margin_relative": stats.describe(relative) if relative else None,
        "lead_changes": stats.describe(leads) if leads else None,
    }


def compare(records_by_variant: dict[str, list[dict]], players: int) -> dict:
    """Differences of each variant against the first, paired by game index (common seeds).

    For each seat's win share, the number of decisions and the winning margin: the mean
    per-game difference (variant minus first), its 95% CI and the paired t-test's p-value."""
    names = list(records_by_variant)
    by_index = {v: {r["index"]: r for r in recs if "error" not in r} for v, recs in records_by_variant.items()}
    base = names[0]
    out = {"baseline": base, "summaries": {v: summarise(recs, players) for v, recs in records_by_variant.items()},
           "differences": {}}
    for v in names[1:]:
        common = sorted(set(by_index[base]) & set(by_index[v]))
        a = [by_index[base][i] for i in common]
        b = [by_index[v][i] for i in common]

        def test(fa: Callable[[dict], float | None], fb=None):
            fb = fb or fa
            pairs = [(fa(x), fb(y)) for x, y in zip(a, b)]
            diffs = [y - x for x, y in pairs if x is not None and y is not None]
            t = stats.paired_t(diffs)
            if t is None:
                return None
            return {"diff": t["mean"], "ci": t["ci"], "p": t["p"], "n": t["n"], "significant": t["p"] < ALPHA}

        out["differences"][v] = {
            "pairs": len(common),
            "win_rate": [test(lambda r, p=p: win_shares(r, players)[p]) for p in range(players)],
            "decisions": test(lambda r: r["decisions"]),
            "margin": test(lambda r: r.get("margin")),
            "margin_relative": test(lambda r: r.get("margin_relative")),
        }
    return out


# ---------------------------------------------------------------------- a run with --out
def read_records(path: Path) -> list[dict]:
    """The complete records of a games.jsonl (a torn last line from an interruption is dropped)."""
    out = []
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("index"), int) and "seed" in rec:
            out.append(rec)
    return out


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
    summary = summarise(ordered, batch.players)
    summary.update(ruleset=rules.name, variant=batch.variant, seed=batch.seed, agents=batch.agents,
                   params=dict(batch.params), resumed=len(done))
    if out is not None:
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        if plot:
            plots(summary, ordered, out)
    # throughput: the games played now (not those read back), workers' start-up included
    timing = {"played": len(todo), "seconds": round(seconds, 3), "workers": workers if backend == "local" else None,
              "games_per_s": round(len(todo) / seconds, 1) if todo and seconds > 0 else None}
    return {"records": ordered, "summary": summary, "resumed": len(done), "timing": timing}


# ---------------------------------------------------------------------- plots
def _pyplot():
    """matplotlib.pyplot drawing to files, or None without matplotlib (the ``plots`` extra)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def _win_rate_bars(summary: dict):
    """(win rate per seat, its 95% interval, the error bars below and above) of a summary."""
    rates = [r if r is not None else 0.0 for r in summary["win_rate"]]
    cis = [ci or [0.0, 0.0] for ci in summary["win_rate_ci"]]
    err = [[max(0.0, r - lo) for r, (lo, _) in zip(rates, cis)], [max(0.0, hi - r) for r, (_, hi) in zip(rates, cis)]]
    return rates, cis, err


def plots(summary: dict, records: list[dict], out: Path) -> list[Path]:
    """scores.png (score distribution per seat) and win_rate.png (win rate by seat with 95%
    CIs). Needs matplotlib (the ``plots`` extra); without it, no plots and no error."""
    plt = _pyplot()
    if plt is None:
        return []
    players = summary["players"]
    ok = [r for r in records if "error" not in r]
    title = _title(summary)
    written = []

    fig, ax = plt.subplots(figsize=(max(5.0, 1.3 * players + 2), 4.2), dpi=110)
    data = [[r["scores"][p] for r in ok] for p in range(players)]
    if ok:
        ax.boxplot(data, showmeans=True, meanprops={"marker": "D", "markerfacecolor": "white",
                                                    "markeredgecolor": "black", "markersize": 5})
        ax.set_xticks(range(1, players + 1), [f"seat {p}" for p in range(players)])
    ax.set_ylabel("final score")
    ax.set_xlabel("box: quartiles, line: median, white marker: mean, whiskers: 1.5 IQR, circles: outliers", fontsize=8)
    ax.set_title(f"Score per seat ({len(ok)} games)\n{title}", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path = out / "scores.png"
    fig.savefig(path)
    plt.close(fig)
    written.append(path)

    fig, ax = plt.subplots(figsize=(max(5.0, 1.3 * players + 2), 4.2), dpi=110)
    rates, cis, err = _win_rate_bars(summary)
    ax.bar(range(players), rates, color="#4C72B0", yerr=err, capsize=6, ecolor="black")
    ax.axhline(1.0 / players, color="#C44E52", linestyle="--", label=f"1/{players} (even)")
    for p, r in enumerate(rates):
        ax.annotate(f"{r:.3f}", (p, r), xytext=(8, 3), textcoords="offset points", fontsize=8)
    ax.set_xticks(range(players), [f"seat {p}" for p in range(players)])
    ax.set_ylabel("win rate (shared wins split)")
    ax.set_ylim(0, min(1.0, max(hi for _, hi in cis) * 1.15 + 0.02))
    ax.set_title(f"Win rate per seat, 95% Wilson CI ({summary['completed']} games)\n{title}", fontsize=10)
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path = out / "win_rate.png"
    fig.savefig(path)
    plt.close(fig)
    written.append(path)
    return written


def _title(summary: dict) -> str:
    bits = [summary.get("ruleset") or "", f"variant {summary['variant']}" if summary.get("variant") else "",
            f"{summary['players']} players", f"seed {summary.get('seed')}"]
    return ", ".join(b for b in bits if b)


# ---------------------------------------------------------------------- printing
def fmt(x, digits: int = 3) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        if x != 0 and abs(x) < 10 ** -digits:
            return f"{x:.1e}"
        return f"{x:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{x:.0f}"
    return str(x)


def _num(x) -> str:
    return "-" if x is None else f"{x:.3f}"


def _rate(x) -> str:
    return "-" if x is None else f"{x:.3f}"


def fmt_p(p) -> str:
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def print_summary(summary: dict, console) -> None:
    from rich.table import Table
    players = summary["players"]
    head = (f"{summary.get('ruleset') or ''}{' (variant ' + summary['variant'] + ')' if summary.get('variant') else ''}: "
            f"{summary['games']} games, {players} players, seed {summary.get('seed')}, agents {summary.get('agents')}")
    console.print(head)
    if summary.get("resumed"):
        console.print(f"resumed: {summary['resumed']} games were already played")
    table = Table(title="per seat: win rate (shared wins split), wins alone / shared, final score")
    for h in ("seat", "win rate", "95% CI", "alone", "shared", "score mean", "sd", "min", "p25", "median",
              "p75", "max"):
        table.add_column(h, justify="right")
    for p in range(players):
        s = summary["scores"][p]
        ci = summary["win_rate_ci"][p]
        table.add_row(str(p), _rate(summary["win_rate"][p]), f"{_rate(ci[0])}-{_rate(ci[1])}" if ci else "-",
                      str(summary["wins_outright"][p]), str(summary["wins_shared"][p]),
                      fmt(s["mean"], 2), fmt(s["sd"], 2), fmt(s["min"], 2), fmt(s["p25"], 2),
                      fmt(s["median"], 2), fmt(s["p75"], 2), fmt(s["max"], 2))
    console.print(table)
    game = Table(title="per game")
    for h in ("measure", "mean", "sd", "min", "median", "max"):
        game.add_column(h, justify="right" if h != "measure" else "left")
    for name, key in (("decisions", "decisions"), ("rounds", "rounds"), ("winning margin", "margin"),
                      ("margin / winner's score", "margin_relative"), ("lead changes", "lead_changes")):
        d = summary.get(key)
        if d:
            game.add_row(name, fmt(d["mean"], 2), fmt(d["sd"], 2), fmt(d["min"], 2), fmt(d["median"], 2),
                         fmt(d["max"], 2))
        else:
            game.add_row(name, "-", "-", "-", "-", "-")
    console.print(game)
    fp = summary["first_player"]
    if fp["games"]:
        ci = fp["win_rate_ci"]
        verdict = "significant at 0.05" if fp["significant"] else "not significant at 0.05"
        console.print(f"first player: win rate {_rate(fp['win_rate'])} (95% CI {_rate(ci[0])}-{_rate(ci[1])}) vs "
                      f"{_rate(fp['expected'])} expected; z = {fmt(fp['z'], 2)}, p = {fmt_p(fp['p'])} ({verdict})")
    if summary["no_winner"]:
        console.print(f"games without a winner: {summary['no_winner']}")
    if summary["failed"]:
        seeds = ", ".join(str(s) for s in summary["failed_seeds"][:10])
        more = " ..." if len(summary["failed_seeds"]) > 10 else ""
        console.print(f"[bold red]failed: {summary['failed']} games[/] (seeds {seeds}{more}); first error: "
                      f"{summary['failures'][0]['error']}", markup=True)


def print_compare(result: dict, console) -> None:
    from rich.table import Table
    base = result["baseline"]
    sums = result["summaries"]
    for v, d in result["differences"].items():
        table = Table(title=f"{v} vs {base} ({d['pairs']} paired games; * = significant at 0.05)")
        for h in ("measure", base, v, "difference", "95% CI", "p", ""):
            table.add_column(h, justify="left" if h == "measure" else "right")
        rows = [(f"win rate seat {p}", sums[base]["win_rate"][p], sums[v]["win_rate"][p], d["win_rate"][p])
                for p in range(sums[base]["players"])]
        rows.append(("decisions", sums[base]["decisions_mean"], sums[v]["decisions_mean"], d["decisions"]))
        for label, key in (("winning margin", "margin"), ("margin / winner's score", "margin_relative")):
            rows.append((label, (sums[base][key] or {}).get("mean"), (sums[v][key] or {}).get("mean"), d[key]))
        for name, a, b, t in rows:
            if t is None:
                table.add_row(name, _num(a), _num(b), "-", "-", "-", "")
                continue
            table.add_row(name, _num(a), _num(b), _num(t["diff"]), f"{_num(t['ci'][0])} to {_num(t['ci'][1])}",
                          fmt_p(t["p"]), "*" if t["significant"] else "")
        console.print(table)
    for v, s in sums.items():
        if s["failed"]:
            console.print(f"{v}: {s['failed']} failed games (seeds {', '.join(map(str, s['failed_seeds'][:10]))})")


# ---------------------------------------------------------------------- the commands
def _common_args(p) -> None:
    p.add_argument("path", metavar="PATH", help="a ruleset file, or a bundled ruleset's name (see: rulebook list)")
    p.add_argument("--players", "-p", type=int, required=True, help="number of players")
    p.add_argument("--games", "-g", type=int, required=True, help="number of games")
    p.add_argument("--seed", "-s", type=int, default=0, help="batch seed: game i plays seed derive(S, i) (default 0)")
    p.add_argument("--workers", "-w", type=int, help=f"worker processes (default: the CPU count, {default_workers()} here)")
    p.add_argument("--agents", "-a", default="random",
                   help="comma-separated agents per seat, or one for all: random, first (default random)")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter (repeatable); VALUE is read as JSON if it parses")
    p.add_argument("--skill", metavar="X,Y,...", help="per-seat skill (options['skill']): one number per seat, or one for all")
    p.add_argument("--lead-changes", action="store_true",
                   help="count lead changes (scores every position: about 1.8x slower, see docs/simulation.md)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes (default) or a Ray cluster")
    p.add_argument("--address", metavar="ADDR", help="with --backend ray: the cluster to join (e.g. auto, ray://host:10001)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object (no progress bar)")


def add_simulate(p) -> None:
    _common_args(p)
    p.add_argument("--variant", "-V", help="a variant declared under variants:, or an overlay file")
    p.add_argument("--out", "-o", metavar="DIR",
                   help="write games.jsonl, summary.json and plots there; an interrupted run resumes from it")


def add_compare(p) -> None:
    _common_args(p)
    p.add_argument("--variants", required=True, metavar="base,V1,...",
                   help="variants to compare, the first is the baseline; 'base' is the ruleset without a variant")
    p.add_argument("--out", "-o", metavar="DIR",
                   help="write each variant's games, summary and plots in DIR/VARIANT, and compare.json and "
                        "compare.png in DIR; an interrupted run resumes from it")


def _check_args(args) -> None:
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, got {args.games}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    if args.address and args.backend != "ray":
        raise UsageError("--address is for --backend ray")


def _make_batch(args, variant):
    from ..tools.cli import load_rules, parse_sets
    rules = load_rules(args.path, variant)
    sets = parse_sets(args.sets)
    if sets and args.players in rules.player_counts:   # typed as the parameters declare ("1" -> 1)
        checked = rules.resolve_params(args.players, sets)
        sets = {name: checked[name] for name in sets}
    batch = Batch(path=args.path, players=args.players, seed=args.seed, variant=variant, agents=args.agents,
                  params=sets, skill=parse_skill(args.skill, args.players),
                  lead_changes=args.lead_changes, hash=rules.hash)
    check_batch(rules, batch)
    return rules, batch


class _Progress:
    """A rich progress bar on stderr when it is a terminal (and not --json); otherwise nothing."""

    def __init__(self, enabled: bool):
        self.bar = None
        if not enabled:
            return
        from rich.console import Console
        console = Console(stderr=True)
        if not console.is_terminal:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=console, transient=True)

    def __enter__(self):
        if self.bar:
            self.bar.start()
        return self

    def __exit__(self, *exc):
        if self.bar:
            self.bar.stop()

    def task(self, name: str, total: int):
        if self.bar is None:
            return None
        tid = self.bar.add_task(name, total=total)
        return lambda done, total: self.bar.update(tid, completed=done, total=total)


def _console():
    from rich.console import Console
    console = Console(file=sys.stdout, highlight=False)
    if not console.is_terminal:       # piped to a file: do not squeeze the tables into 80 columns
        console = Console(file=sys.stdout, highlight=False, width=120)
    return console


def cmd_simulate(args) -> int:
    _check_args(args)
    rules, batch = _make_batch(args, args.variant)
    workers = args.workers or default_workers()
    with settled(), _Progress(not args.json) as bar:
        result = simulate(batch, args.games, workers=workers, backend=args.backend, address=args.address,
                          out=Path(args.out) if args.out else None, rules=rules,
                          progress=bar.task("simulating", args.games))
    summary = result["summary"]
    if args.json:
        print(json.dumps({**summary, "timing": result["timing"]}))
    else:
        print_summary(summary, _console())
        print(_throughput(result["timing"]))
        if args.out:
            print(f"wrote {Path(args.out) / 'games.jsonl'}, summary.json, scores.png, win_rate.png")
    return 0


def _throughput(timing: dict) -> str:
    if not timing["played"]:
        return "no game played (all were read back from --out)"
    on = f" on {timing['workers']} worker{'s' if timing['workers'] != 1 else ''}" if timing["workers"] else ""
    rate = f": {timing['games_per_s']} games/s" if timing["games_per_s"] else ""
    return f"played {timing['played']} games in {timing['seconds']} s{on}{rate}"


def cmd_compare(args) -> int:
    _check_args(args)
    names = [v.strip() for v in args.variants.split(",")]
    if len(names) < 2 or any(not v for v in names):
        raise UsageError(f"--variants needs at least two names separated by commas, got {args.variants!r}")
    if len(set(names)) != len(names):
        raise UsageError(f"--variants names a variant twice: {args.variants!r}")
    batches = {v: _make_batch(args, None if v == "base" else v) for v in names}
    workers = args.workers or default_workers()
    out = Path(args.out) if args.out else None
    if out is not None:
        _folder(out, "one subfolder per variant")
    records = {}
    with settled(), _Progress(not args.json) as bar:
        for v, (rules, batch) in batches.items():
            records[v] = simulate(batch, args.games, workers=workers, backend=args.backend, address=args.address,
                                  out=_variant_folder(out, v), rules=rules,
                                  progress=bar.task(v, args.games))["records"]
    result = compare(records, args.players)
    first_rules = batches[names[0]][0]
    result = {"ruleset": first_rules.name, "players": args.players, "games": args.games, "seed": args.seed,
              "variants": names, **result}
    for v, s in result["summaries"].items():
        s.update(ruleset=first_rules.name, variant=None if v == "base" else v, seed=args.seed, agents=args.agents)
    if out is not None:
        (out / "compare.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        compare_plot(result, out)
    if args.json:
        print(json.dumps(result))
    else:
        console = _console()
        console.print(f"{first_rules.name}: {args.games} games per variant on the same seeds (batch seed "
                      f"{args.seed}), {args.players} players, agents {args.agents}")
        print_compare(result, console)
        if out is not None:
            print(f"wrote {out / 'compare.json'}, compare.png and a folder per variant "
                  f"({', '.join(_variant_folder(out, v).name for v in names)})")
    return 0


def _variant_folder(out: Path | None, variant: str) -> Path | None:
    """Where compare --out keeps one variant's batch (a variant file's name without its folder)."""
    if out is None:
        return None
    name = Path(variant).stem if variant.endswith((".yaml", ".yml")) else variant
    return out / re.sub(r"[^\w.-]", "_", name)


def compare_plot(result: dict, out: Path) -> Path | None:
    """compare.png: each seat's win rate under each variant, with 95% CIs (needs matplotlib)."""
    plt = _pyplot()
    if plt is None:
        return None
    names, players = result["variants"], result["players"]
    width = 0.8 / len(names)
    fig, ax = plt.subplots(figsize=(max(5.5, 1.6 * players + 2), 4.4), dpi=110)
    top = 0.0
    for k, v in enumerate(names):
        rates, cis, err = _win_rate_bars(result["summaries"][v])
        xs = [p - 0.4 + width * (k + 0.5) for p in range(players)]
        ax.bar(xs, rates, width, yerr=err, capsize=4, label=v, ecolor="black")
        top = max(top, *(hi for _, hi in cis))
    ax.axhline(1.0 / players, color="#C44E52", linestyle="--", linewidth=1, label=f"1/{players} (even)")
    ax.set_xticks(range(players), [f"seat {p}" for p in range(players)])
    ax.set_ylabel("win rate (shared wins split)")
    ax.set_ylim(0, min(1.0, top * 1.15 + 0.02))
    ax.set_title(f"Win rate per seat and variant, 95% Wilson CI\n{result['ruleset']}, {result['players']} players, "
                 f"{result['games']} games per variant, seed {result['seed']}", fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path = out / "compare.png"
    fig.savefig(path)
    plt.close(fig)
    return path
