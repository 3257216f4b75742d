"""The ``tune`` command: search a ruleset's parameters for the variant that plays best.

    rulebook tune PATH --players N [--param NAME=RANGE ...] [--objective NAME[:T][*W] ...]
                  [--agents A] [--trials K] [--games G] [--confirm C] [--seed S] [--out DIR]
                  [--workers W] [--backend ray [--address A]] [--no-prune] [--open] [--json]

docs/tuning.md explains the search, the objectives and the report.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..building import load
from ..errors import UsageError
from ..loading.resources import ruleset_path
from ..play.simulation.batch import Batch, check_batch
from ..play.simulation.summary import compare
from ..play.simulation.workers import default_workers, settled
from ..play.tuning import objectives as obj
from ..play.tuning.written import write as write_outputs
from ..play.tuning.space import space
from ..play.tuning.study import Settings, Tuner, check_resume
from .batches import ProgressBar, check_games, check_workers
from .designer import open_report, write_report


def add_tune(p) -> None:
    p.add_argument("path", metavar="PATH", help="a ruleset file, or a bundled ruleset's name (see: rulebook list)")
    p.add_argument("--players", "-p", type=int, required=True, help="number of players")
    p.add_argument("--param", dest="params", action="append", default=[], metavar="NAME=RANGE",
                   help="a parameter to search: NAME=LO..HI (whole or real numbers, LO..HI:STEP), NAME=A|B|C, "
                        "or MAP.KEY=... (repeatable; default: every parameter declaring min and max or choices)")
    p.add_argument("--objective", dest="objectives", action="append", default=[], metavar="NAME[:T][*W]",
                   help=f"what to minimise, repeatable and added with weights: {', '.join(obj.LOSSES)} "
                        "(default balance; docs/tuning.md)")
    p.add_argument("--agents", "-a", default="random", help="agents per seat, as for simulate (default random)")
    p.add_argument("--trials", "-k", type=int, default=20, help="trials in the study (default 20)")
    p.add_argument("--games", "-g", type=int, default=100, help="games per trial, on common seeds (default 100)")
    p.add_argument("--confirm", type=int, help="games of the confirmation on fresh seeds (default: --games)")
    p.add_argument("--seed", "-s", type=int, default=0, help="batch seed of the trials and of the search (default 0)")
    p.add_argument("--workers", "-w", type=int, help=f"worker processes (default: the CPU count, {default_workers()} here)")
    p.add_argument("--backend", choices=("local", "ray"), default="local", help="local processes or a Ray cluster")
    p.add_argument("--address", metavar="ADDR", help="with --backend ray: the cluster to join")
    p.add_argument("--no-prune", dest="prune", action="store_false", help="play every trial to its end")
    p.add_argument("--out", "-o", metavar="DIR",
                   help="write best.yaml, summary.json and report.html there; the study (study.db) resumes from it")
    p.add_argument("--open", action="store_true", help="open report.html in a web browser when the study ends")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")


def _check(args) -> None:
    for name in ("players", "trials"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name} must be at least 1, got {getattr(args, name)}")
    check_games(args.games)
    if args.confirm is not None:
        check_games(args.confirm, "--confirm", least=2)
    check_workers(args.workers, args.backend)


def cmd_tune(args) -> int:
    _check(args)
    objectives = obj.parse(args.objectives)
    needs = obj.needs(objectives)
    rules = load(ruleset_path(args.path), coverage="coverage" in needs)
    check_batch(rules, Batch(args.path, args.players, args.seed, agents=args.agents))
    dims = space(rules, args.players, args.params)
    settings = Settings(args.path, args.players, dims, objectives, agents=args.agents, trials=args.trials,
                        games=args.games, seed=args.seed, confirm=args.confirm,
                        workers=args.workers or default_workers(), backend=args.backend, address=args.address,
                        prune=args.prune)
    out = Path(args.out) if args.out else None
    if out is not None:
        check_resume(out, settings.config(rules))
    with settled(), ProgressBar(not args.json) as bar:
        tuner = Tuner(rules, settings, out, progress=bar.task("trials", args.trials))
        tuner.check_space()
        result = tuner.run()
    written = []
    if out is not None:
        bundled = None if Path(args.path).suffix in (".yaml", ".yml") or Path(args.path).is_file() else args.path
        written = write_outputs(out, rules, rules.params_decl, result, bundled)
        written.append(confirmation_page(out / "confirmation", rules, args, tuner.confirmed))
        if args.open:
            open_report(written[2])
    if args.json:
        print(json.dumps(result))
        return 0
    c = result["confirmation"]
    print(f"{rules.name}: best of {result['trials']} trials ({result['pruned']} pruned): trial "
          f"{result['best']['number']}, loss {result['best']['loss']:.4f}")
    for k, v in result["best"]["params"].items():
        print(f"  {k} = {json.dumps(v)}   (base: {json.dumps(result['base'].get(k))})")
    diff = c["difference"]
    print(f"confirmed on {c['games']} fresh games: best {c['best']['loss']:.4f}, base {c['base']['loss']:.4f}"
          + (f", difference {diff['diff']:.4f} (95% CI {diff['ci'][0]:.4f} to {diff['ci'][1]:.4f})" if diff else ""))
    print("the best variant beats the base game" if c["beats_base"]
          else "no variant was shown better than the base game")
    if written:
        print("wrote " + ", ".join(str(p) for p in written))
    return 0


def confirmation_page(folder: Path, rules, args, records: dict) -> Path:
    """The designer's page (the one simulate and compare write) of the confirmation: the base game
    and the best variant on the same fresh seeds, side by side with their paired differences."""
    folder.mkdir(parents=True, exist_ok=True)
    compared = compare(records, args.players)
    games = len(records["best"])
    title = (f"{rules.title}: the base game and the best variant on {games} fresh games each, "
             f"{args.players} players, agents {args.agents}")
    return write_report(folder, title, compared["summaries"], records, {}, compared=compared)
