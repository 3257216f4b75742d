"""The ``simulate`` and ``compare`` commands: arguments, progress bars, and what they print.

    rulebook simulate PATH --players N --games G [--seed S] [--workers W] [--out DIR] [--json] ...
    rulebook compare PATH --variants base,V1,... --players N --games G [--seed S] [--json] ...
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from ..building import load
from ..errors import UsageError, figure
from ..play.simulation.batch import Batch, check_batch, check_players
from ..play.simulation.plots import compare_plot
from ..play.simulation.runs import out_folder, simulate
from ..play.simulation.summary import compare
from ..play.simulation.workers import default_workers, settled
from .args import parse_sets, parse_skill
from .designer import open_report, write_report
from .report import print_compare, print_findings, print_summary


def _common_args(p) -> None:
    p.add_argument("path", metavar="PATH", help="a ruleset file, or a bundled ruleset's name (see: rulebook list)")
    p.add_argument("--players", "-p", type=int, required=True, help="number of players")
    p.add_argument("--games", "-g", type=int, required=True, help="number of games")
    p.add_argument("--seed", "-s", type=int, default=0, help="batch seed: game i plays seed derive(S, i) (default 0)")
    p.add_argument("--workers", "-w", type=int, help=f"worker processes (default: the CPU count, {default_workers()} here)")
    p.add_argument("--agents", "-a", default="random",
                   help="comma-separated agents per seat, or one for all: random, first, greedy, rollouts, ismcts, mcts (not human); parameters as ismcts:iterations=200 (default random; docs/agents.md)")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter (repeatable); VALUE is read as JSON if it parses")
    p.add_argument("--skill", metavar="X,Y,...", help="per-seat skill (options['skill']): one number per seat, or one for all")
    p.add_argument("--lead-changes", action="store_true",
                   help="count lead changes (scores every position: about 1.8x slower, see docs/simulation.md)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes (default) or a Ray cluster")
    p.add_argument("--address", metavar="ADDR", help="with --backend ray: the cluster to join (e.g. auto, ray://host:10001)")
    p.add_argument("--coverage", action="store_true",
                   help="count which rules fire (every effect list, branch, step, option and scoring category) "
                        "and report those that never did, draws that ran out and labels a zone never got")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object (no progress bar)")
    p.add_argument("--open", action="store_true", help="with --out: open the report (report.html) in the browser")


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


MAX_WORKERS_PER_CPU = 4   # more worker processes than this only take memory (each loads the ruleset)
MAX_GAMES = 1_000_000     # games of one batch: each one's record is kept for the summary (about 2 KB)


def check_games(games: int, option: str = "--games", least: int = 1) -> None:
    """``--games`` of simulate, compare and tune, and tune's ``--confirm``: at least ``least``,
    and at most MAX_GAMES (a typo of a few digits more would fill the memory with the games'
    indexes and records: a hundred thousand billion took 8 GB in 30 s before any game)."""
    if games < least:
        raise UsageError(f"{option} must be at least {least}{' games' if least > 1 else ''}, got {figure(games)}")
    if games > MAX_GAMES:
        raise UsageError(f"{option} {figure(games)} is more games than one batch plays: at most {MAX_GAMES:,} "
                         "(each game's record is kept for the summary; play more as batches of other --seed)")


def check_workers(workers: int | None, backend: str = "local") -> None:
    """``--workers`` of simulate, compare and tune: at least 1, and on this machine at most
    MAX_WORKERS_PER_CPU a CPU (a typo would fork thousands of processes)."""
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1, got {figure(workers)}")
    most = MAX_WORKERS_PER_CPU * default_workers()
    if workers is not None and workers > most and backend == "local":
        raise UsageError(f"--workers {figure(workers)} is more than {MAX_WORKERS_PER_CPU} per CPU here "
                         f"({default_workers()} CPUs): at most {most}")


def _check_args(args) -> None:
    if getattr(args, "out", None) is not None and not str(args.out).strip():
        raise UsageError("--out names a folder, not ''")
    check_games(args.games)
    check_workers(args.workers, args.backend)
    if args.address and args.backend != "ray":
        raise UsageError("--address is for --backend ray")
    if args.open and not args.out:
        raise UsageError("--open opens the report that --out DIR writes: give --out")


def _make_batch(args, variant):
    rules = load(args.path, variant)
    check_players(rules, args.players)   # (before --skill makes a value a seat)
    sets = parse_sets(args.sets)
    if sets and args.players in rules.player_counts:   # typed as the parameters declare ("1" -> 1)
        checked = rules.resolve_params(args.players, sets)
        sets = {name: checked[name] for name in sets}
    batch = Batch(path=args.path, players=args.players, seed=args.seed, variant=variant, agents=args.agents,
                  params=sets, skill=parse_skill(args.skill, args.players),
                  lead_changes=args.lead_changes, hash=rules.hash, coverage=args.coverage)
    if args.coverage:   # the same games, with the counters compiled in
        rules = load(args.path, variant, coverage=True)
    check_batch(rules, batch)
    return rules, batch


class ProgressBar:
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
    with settled(), ProgressBar(not args.json) as bar:
        result = simulate(batch, args.games, workers=workers, backend=args.backend, address=args.address,
                          out=Path(args.out) if args.out else None, rules=rules,
                          progress=bar.task("simulating", args.games))
    summary = result["summary"]
    if args.out:
        label = args.variant or "base"
        page = write_report(Path(args.out), _heading(rules, args), {label: summary}, {label: result["records"]},
                            {label: result["coverage"]} if result["coverage"] else {})
        result["written"] = [*result["written"], page]
        if args.open:
            open_report(page)
    if args.json:
        print(json.dumps({**summary, "timing": result["timing"], "coverage": result["coverage"]}))
    else:
        console = _console()
        print_summary(summary, console)
        print_findings(summary, result["coverage"], console)
        print(_throughput(result["timing"]))
        if args.out:
            print(wrote(result["written"]))
    return 0


def _heading(rules, args, variants: str = "") -> str:
    return (f"{rules.title}{variants}: {args.players} players, {args.games} games"
            f"{' per variant' if variants else ''}, agents {args.agents}, seed {args.seed}")


def wrote(paths) -> str:
    """Which files a run wrote, naming the plots only when they were drawn."""
    names = [p.name for p in paths]
    line = f"wrote {paths[0]}" + (f", {', '.join(names[1:])}" if len(names) > 1 else "") if paths else "wrote nothing"
    if not any(n.endswith(".png") for n in names):
        line += "; plots skipped: matplotlib is not installed (pip install '.[plots]' in Rulebook's folder)"
    return line


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
        out_folder(out, "one subfolder per variant")
        _compare_folder(out, names)
    records, coverage = {}, {}
    with settled(), ProgressBar(not args.json) as bar:
        for v, (rules, batch) in batches.items():
            run = simulate(batch, args.games, workers=workers, backend=args.backend, address=args.address,
                           out=None if out is None else _variant_folder(out, v), rules=rules,
                           progress=bar.task(v, args.games))
            records[v] = run["records"]
            if run["coverage"]:
                coverage[v] = run["coverage"]
    result = compare(records, args.players)
    first_rules = batches[names[0]][0]
    result = {"ruleset": first_rules.name, "players": args.players, "games": args.games, "seed": args.seed,
              "variants": names, **result}
    for v, s in result["summaries"].items():
        s.update(ruleset=first_rules.name, variant=None if v == "base" else v, seed=args.seed, agents=args.agents)
    if coverage:
        result["coverage"] = coverage
    if out is not None:
        (out / "compare.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        compare_plot(result, out)
        page = write_report(out, _heading(first_rules, args, f" ({', '.join(names)})"), result["summaries"], records,
                            coverage, compared=result)
        if args.open:
            open_report(page)
    if args.json:
        print(json.dumps(result))
    else:
        console = _console()
        console.print(f"{first_rules.name}: {args.games} games per variant on the same seeds (batch seed "
                      f"{args.seed}), {args.players} players, agents {args.agents}")
        print_compare(result, console)
        for v in names if coverage else ():   # each variant's anomalies and rules that never fired
            console.print(f"{v}:")
            print_findings(result["summaries"][v], coverage.get(v), console)
        if out is not None:
            print(f"wrote {out / 'compare.json'}, compare.png, report.html and a folder per variant "
                  f"({', '.join(_variant_folder(out, v).name for v in names)})")
    return 0


def _variant_folder(out: Path, variant: str) -> Path:
    """Where compare --out keeps one variant's batch (a variant file's name without its folder):
    letters, digits, _ - and inner dots only, so that no name (``..``) leads out of --out."""
    name = Path(variant).stem if variant.endswith((".yaml", ".yml")) else variant
    return out / (re.sub(r"[^\w.-]", "_", name).strip(".") or "_")


def _compare_folder(out: Path, names: list[str]) -> None:
    """compare --out writes compare.json, compare.png and one folder per variant: refuse two
    variants that would share a folder, and a folder that holds anything else."""
    folders = [_variant_folder(out, v).name for v in names]
    if len(set(folders)) != len(folders):
        twice = next(f for f in folders if folders.count(f) > 1)
        raise UsageError(f"two variants would share the folder {out / twice}: rename one of the files")
    if out.is_dir():
        ours = {"compare.json", "compare.png", "report.html", *folders}
        other = sorted(p.name for p in out.iterdir() if p.name not in ours)
        if other:
            raise UsageError(f"--out {out} holds {other[0]}, which compare did not write (it is not a "
                             "previous comparison): use a new or empty folder")


