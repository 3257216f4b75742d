"""A tuning study: Optuna proposes parameter values, each trial plays a batch on common seeds.

Every trial plays games 0..G-1 of the same batch seed (common random numbers: two trials
differ by their parameters, not by their luck), in chunks; after each chunk the loss so far
is reported, and Optuna's median pruner stops a trial already worse than the median of the
trials before it at that point. The base game (the declared values) is the first trial when
it lies in the space. With ``out``, the study lives in ``out/study.db`` (SQLite): a second
run with the same settings resumes it and adds trials.

The best trial is then confirmed on fresh seeds, against the base game on the same fresh
seeds: its loss with a 95% bootstrap interval, the paired difference with its interval
(``beats_base`` only when the whole interval says the variant is better), and compare's
paired tests of each seat's win share.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from ...engine import rng
from ...errors import Refused, UsageError
from ..simulation.batch import Batch, check_batch
from ..simulation.runs import out_folder
from ..simulation.summary import compare, summarise
from ..simulation.workers import played
from . import objectives as obj
from .space import Dimension, overrides

CONFIRM_SEED = 1_000_003   # fresh seeds: the confirmation batch seed is derive(seed, this)
SAMPLER_SEEDS = 2 ** 32    # Optuna's sampler takes a seed below this: --seed S seeds it with S mod this


@dataclass
class Settings:
    path: str
    players: int
    dims: list[Dimension]
    objectives: list[obj.Objective]
    agents: str = "random"
    trials: int = 20
    games: int = 100
    seed: int = 0
    confirm: int | None = None      # games of the confirmation (default: games)
    workers: int = 1
    backend: str = "local"
    address: str | None = None
    chunks: int = 4                 # reports per trial (the pruner's steps)
    prune: bool = True

    def config(self, rules) -> dict:
        """What identifies a study (tune.json): a resumed study must match it."""
        return {"ruleset": rules.name, "hash": rules.hash, "path": self.path, "players": self.players,
                "space": {d.name: d.describe() for d in self.dims},
                "objectives": [str(o) for o in self.objectives], "agents": self.agents, "games": self.games,
                "seed": self.seed}


def _optuna():
    try:
        import optuna
    except ImportError:
        raise UsageError("rulebook tune needs Optuna: pip install 'rulebook[tune]' (or pip install optuna)") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def play(settings: Settings, batch: Batch, indexes: list[int], rules) -> list[dict]:
    """The records of the given games of a batch, in index order."""
    source = played(batch, indexes, settings.workers, settings.backend, settings.address, rules)
    return sorted(source, key=lambda r: r["index"])


class Tuner:
    """One study over one ruleset (``rules``: loaded as the batches load it)."""

    def __init__(self, rules, settings: Settings, out: Path | None = None,
                 progress: Callable[[int, int], None] | None = None):
        self.rules, self.s, self.out, self.progress = rules, settings, out, progress
        self.defaults = rules.resolve_params(settings.players, {})
        needs = obj.needs(settings.objectives)
        self.base_batch = Batch(settings.path, settings.players, settings.seed, agents=settings.agents,
                                lead_changes="lead_changes" in needs, coverage="coverage" in needs, hash=rules.hash)
        self.ctx = {"probes": [p.kind for p in rules.probes.items]} if rules.probes is not None else {}
        self.confirmed: dict[str, list[dict]] = {}   # the confirmation's records, base and best

    def check_space(self) -> None:
        """Refuse, before any game, a space whose ends or choices the ruleset refuses."""
        for d in self.s.dims:
            ends = d.choices if d.kind == "choice" else (
                (int(d.low), int(d.high)) if d.kind == "int" else (d.low, d.high))
            for v in ends:
                try:
                    self.rules.resolve_params(self.s.players, self.params_of(
                        {e.name: (v if e is d else _any_value(e)) for e in self.s.dims}))
                except UsageError as e:
                    raise UsageError(f"--param {d.name}: {d.describe()} holds a value the ruleset refuses: {e.message}") from None

    # -- one trial
    def params_of(self, values: dict) -> dict:
        return overrides(self.s.dims, values, self.defaults)

    def records(self, params: dict, seed: int, games: int, trial=None) -> list[dict]:
        """The games of a batch with these parameters; with an Optuna ``trial``, the loss is
        reported after each chunk and a hopeless trial pruned."""
        batch = replace(self.base_batch, params=params, seed=seed)
        check_batch(self.rules, batch)   # refuse values the ruleset refuses (requires: too), before playing
        chunks = max(1, min(self.s.chunks, games)) if trial is not None else 1
        bounds = [round(games * k / chunks) for k in range(chunks + 1)]
        out: list[dict] = []
        for step, (lo, hi) in enumerate(zip(bounds, bounds[1:])):
            out += play(self.s, batch, list(range(lo, hi)), self.rules)
            if trial is not None and hi < games:
                trial.report(self.loss(out), step)
                if self.s.prune and trial.should_prune():
                    raise _optuna().TrialPruned()
        return out

    def loss(self, records: list[dict]) -> float:
        return obj.loss(self.s.objectives, records, self.s.players, self.ctx)

    def objective(self, trial) -> float:
        values = {d.name: d.suggest(trial) for d in self.s.dims}
        params = self.params_of(values)
        same = self.played(trial, params)
        if same is not None:   # the same games again would give the same loss: reuse it
            trial.set_user_attr("repeat_of", same.number)
            for key in ("params", "parts", "failed", "summary"):
                trial.set_user_attr(key, same.user_attrs.get(key))
            return same.value
        try:
            records = self.records(params, self.s.seed, self.s.games, trial)
        except Refused as e:   # values a requirement refuses (requires:): no game to play, the trial pruned
            trial.set_user_attr("params", params)
            trial.set_user_attr("refused", e.message)
            raise _optuna().TrialPruned() from None
        parts = obj.parts(self.s.objectives, records, self.s.players, self.ctx)
        trial.set_user_attr("params", params)
        trial.set_user_attr("parts", parts)
        trial.set_user_attr("failed", sum(1 for r in records if "error" in r))
        trial.set_user_attr("summary", _brief(summarise(records, self.s.players)))
        value = self.loss(records)
        return value if math.isfinite(value) else 1e9

    @staticmethod
    def played(trial, params: dict):
        """An earlier complete trial of the study with these parameters (the sampler proposes a
        point again, more so in a small discrete space: common seeds make it the same games)."""
        for t in trial.study.get_trials(deepcopy=False, states=(_optuna().trial.TrialState.COMPLETE,)):
            if t.user_attrs.get("params") == params and t.value is not None:
                return t
        return None

    # -- the study
    def study(self):
        optuna = _optuna()
        storage = None
        if self.out is not None:
            self.out.mkdir(parents=True, exist_ok=True)
            storage = f"sqlite:///{(self.out / 'study.db').resolve()}"
        sampler = optuna.samplers.TPESampler(seed=self.s.seed % SAMPLER_SEEDS, n_startup_trials=min(8, max(2, self.s.trials // 3)))
        pruner = optuna.pruners.MedianPruner(n_startup_trials=4, n_warmup_steps=1) if self.s.prune \
            else optuna.pruners.NopPruner()
        return optuna.create_study(study_name="tune", storage=storage, sampler=sampler, pruner=pruner,
                                   direction="minimize", load_if_exists=True)

    def base_point(self) -> dict | None:
        """The base game's values as a point of the space, when it lies in it."""
        point: dict = {}
        for d in self.s.dims:
            v = self.defaults[d.param] if d.key is None else self.defaults[d.param][d.key]
            if d.kind == "choice":
                if v not in d.choices:
                    return None
                point[d.name] = d.choices.index(v)
            elif isinstance(v, bool) or not isinstance(v, (int, float)) or not d.low <= v <= d.high:
                return None
            else:
                point[d.name] = v
        return point

    def run(self) -> dict:
        study = self.study()
        done = len(study.trials)
        todo = max(0, self.s.trials - done)
        if done == 0 and (point := self.base_point()) is not None:
            study.enqueue_trial(point)
        for k in range(todo):
            study.optimize(self.objective, n_trials=1, catch=())
            if self.progress:
                self.progress(done + k + 1, self.s.trials)
        return self.finish(study, resumed=done)

    def finish(self, study, resumed: int) -> dict:
        optuna = _optuna()
        complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
        if not complete:
            refused = [t.user_attrs["refused"] for t in study.trials if t.user_attrs.get("refused")]
            raise UsageError("no trial completed: every one was pruned or failed"
                             + (f" ({len(refused)} refused by a requirement of the ruleset: {refused[-1]})" if refused else ""))
        best = min(complete, key=lambda t: (t.value, t.number))
        history = [{"number": t.number, "state": t.state.name.lower(), "loss": t.value,
                    "repeat_of": t.user_attrs.get("repeat_of"),
                    "values": {d.name: d.value_of(t.params) for d in self.s.dims if d.name in t.params},
                    "params": t.user_attrs.get("params"), "parts": t.user_attrs.get("parts"),
                    "failed": t.user_attrs.get("failed"), "summary": t.user_attrs.get("summary"),
                    "refused": t.user_attrs.get("refused")}
                   for t in study.trials]
        confirmation = self.confirm(best.user_attrs["params"])
        return {"ruleset": self.rules.name, "players": self.s.players, "agents": self.s.agents,
                "objectives": [str(o) for o in self.s.objectives], "space": {d.name: d.describe() for d in self.s.dims},
                "trials": len(study.trials), "completed": len(complete), "resumed": resumed,
                "pruned": sum(1 for t in study.trials if t.state == optuna.trial.TrialState.PRUNED),
                "games": self.s.games, "seed": self.s.seed,
                "best": {"number": best.number, "loss": best.value, "params": best.user_attrs["params"],
                         "parts": best.user_attrs.get("parts")},
                "base": self.defaults_of_space(), "confirmation": confirmation, "history": history}

    def defaults_of_space(self) -> dict:
        return {d.param: self.defaults[d.param] for d in self.s.dims}

    def confirm(self, params: dict) -> dict:
        """The best parameters and the base game on the same fresh seeds."""
        games = self.s.confirm or self.s.games
        seed = rng.derive(self.s.seed, CONFIRM_SEED)
        best = self.records(params, seed, games)
        base = self.records({}, seed, games)
        self.confirmed = {"base": base, "best": best}   # (the designer's page of both: tools/tune.py)
        s, players = self.s, self.s.players
        diff = obj.paired_difference(s.objectives, base, best, players, self.ctx, seed=seed)
        tests = compare({"base": base, "best": best}, players)["differences"]["best"]
        return {"seed": seed, "games": games,
                "best": {"loss": self.loss(best), "ci": obj.interval(s.objectives, best, players, self.ctx, seed=seed),
                         "parts": obj.parts(s.objectives, best, players, self.ctx),
                         "summary": _brief(summarise(best, players))},
                "base": {"loss": self.loss(base), "ci": obj.interval(s.objectives, base, players, self.ctx, seed=seed),
                         "parts": obj.parts(s.objectives, base, players, self.ctx),
                         "summary": _brief(summarise(base, players))},
                "difference": diff, "beats_base": bool(diff and diff["better"]),
                "win_rate_tests": tests["win_rate"]}


def _any_value(d: Dimension):
    return d.choices[0] if d.kind == "choice" else (int(d.low) if d.kind == "int" else d.low)


def _brief(summary: dict) -> dict:
    """The figures of a batch's summary a study keeps per trial."""
    fp = summary["first_player"]
    return {"completed": summary["completed"], "failed": summary["failed"], "win_rate": summary["win_rate"],
            "win_rate_ci": summary["win_rate_ci"], "decisions_mean": summary["decisions_mean"],
            "rounds_mean": summary["rounds_mean"], "first_player_win_rate": fp["win_rate"],
            "first_player_ci": fp["win_rate_ci"]}


def check_resume(out: Path, config: dict) -> None:
    """``out/tune.json`` records the settings; a study resumed there must have the same ones."""
    out_folder(out, "it will hold tune.json, study.db, best.yaml, summary.json and report.html")
    path = out / "tune.json"
    if path.is_file():
        try:
            before = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            raise UsageError(f"{path} is not a study's settings (not JSON): use a new folder") from None
        if before != config:
            changed = sorted(k for k in set(before) | set(config) if before.get(k) != config.get(k))
            raise UsageError(f"--out {out} holds a study with other settings ({', '.join(changed)} differ): "
                             "use a new folder, or the same settings to resume it")
    elif out.is_dir() and any(out.iterdir()):
        raise UsageError(f"--out {out} is not empty and holds no study (tune.json): use a new or empty folder")
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
