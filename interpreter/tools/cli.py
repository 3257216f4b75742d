"""The ``rulebook`` command line (``python -m interpreter`` is the same).

    rulebook validate PATH... [--json] [--strict] [--playouts N [--players P] [--seed S] [--set NAME=VALUE ...]]
    rulebook play PATH --players N [--seed S] [--variant V] [--agents a,b,...] [--set NAME=VALUE ...]
                  [--skill X,Y,...] [--resolve random|ask] [--log F.jsonl [--log-for SEAT]] [--json] [--quiet]
    rulebook replay F.jsonl [--ruleset PATH]
    rulebook test PATH...
    rulebook explain PATH [--variant V]
    rulebook diff PATH VARIANT [--json]
    rulebook view LOG.jsonl [--host H] [--port P]
    rulebook serve PATH --players N [--seed S] [--variant V] [--agents human,random,...] [--log F.jsonl]
                   [--host H] [--port P]
    rulebook simulate PATH --players N --games G [--seed S] [--workers W] [--out DIR [--open]] [--json] ...
    rulebook compare PATH --variants base,V1,... --players N --games G [--seed S] [--json] ...

Exit codes: 0 success, 1 invalid ruleset or failed check, 2 usage error, 130 interrupted,
141 the reader of the output went away (a closed pipe).
User errors never show a Python traceback: a RulebookError prints its located diagnostics.

Each subcommand is one entry in ``COMMANDS`` (name, help, a function adding its arguments,
a function running it and returning the exit code). New commands (``simulate``,
``compare``) are added there.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import batches, tune, web
from .validate import add_validate, cmd_validate
from .args import game_seed, parse_sets, seed_told_on_error
from ..building import load
from ..errors import GameError, RulebookError, UsageError, did_you_mean, printable
from ..play.display.narrate import decided_text
from ..loading.resources import find_ruleset, resource_dir
from ..lsp import add_lsp, cmd_lsp


def _out(text: str = "") -> None:
    print(text, file=sys.stdout)


def _err(text: str) -> None:
    print(text, file=sys.stderr)


# ---------------------------------------------------------------------- play
def add_play(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="PATH", help="a ruleset file, or a bundled ruleset's name (see: rulebook list)")
    p.add_argument("--players", "-p", type=int, required=True, help="number of players")
    p.add_argument("--seed", "-s", type=int, default=None,
                   help="game seed (default: a fresh random one, printed in the summary and --json, after the error "
                        "of a game stopped by one, and kept in the --log header; a small seed is guessable by "
                        "a seat: docs/security.md)")
    p.add_argument("--variant", "-V", help="a variant declared under variants:, or an overlay file")
    p.add_argument("--agents", "-a", default="random",
                   help="comma-separated agents per seat, or one for all: random, first, greedy, rollouts, ismcts, mcts, human; parameters as ismcts:iterations=200 (default random; docs/agents.md)")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter (repeatable); VALUE is read as JSON if it parses")
    p.add_argument("--skill", metavar="X,Y,...",
                   help="per-seat skill in [0, 1] for dexterity attempts: one number per seat, or one for all "
                        "(default: the ruleset's params.skill)")
    p.add_argument("--resolve", choices=("random", "ask"), default=None,
                   help="dexterity attempts: rolled from the seed (random, the default) or asked, for a game "
                        "played with the physical components (ask: the human seat acting, else the person at "
                        "the terminal)")
    p.add_argument("--log", metavar="F.jsonl", help="write the game log (JSON Lines)")
    p.add_argument("--log-for", type=int, metavar="SEAT", help="write the log as SEAT may see it (redacted)")
    p.add_argument("--force", action="store_true", help="with --log: replace the file if it exists")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors (and --json output)")


def cmd_play(args) -> int:
    from ..play.agents import HumanAgent, TableReporter, make_agents
    from ..play.display.foresee import foreseen
    from ..play.logs.gamelog import play_game
    if args.log_for is not None and not args.log:
        raise UsageError("--log-for needs --log F.jsonl")
    rules = load(args.path, args.variant)
    seed = game_seed(args.seed)   # a drawn one is in the summary, --json and the --log header
    options = {"params": parse_sets(args.sets)}
    if args.skill is not None:
        options["skill"] = args.skill        # checked (count, range) by new_game below
    if args.resolve is not None:
        options["resolve"] = args.resolve
    with seed_told_on_error(args.seed, seed, _replay_command(args, seed)):   # (a drawn seed, else lost)
        # check the player count (and the parameters) before asking agents anything
        rules.new_game(args.players, seed, options)
        agents: list[Any] = make_agents(args.agents, args.players, seed)   # or TableReporters (below)
        for a in agents:
            if isinstance(a, HumanAgent):
                a.foreseen = foreseen   # ? says what each option would do
        if args.resolve == "ask" and not any(isinstance(a, HumanAgent) for a in agents):
            # the table is asked what happened; the agents choose the rest (with --json, the
            # questions go to stderr so that stdout stays one JSON object)
            # (seat None: the moves told as to no seat; agents.py types HumanAgent's seat int only)
            person = HumanAgent(seat=None, stdout=sys.stderr if args.json else None)
            agents = [TableReporter(a, person) for a in agents]
            agents[0].hear = person.hear   # told the moves once (as seat 0 sees them: no hidden card shown)
            agents[0].seated = person.seated
        try:
            result = play_game(rules, args.players, seed, agents, options, log=args.log, log_for=args.log_for,
                               force=args.force)
        except GameError as e:   # a person at the terminal reads it as a seat does (its summary)
            if e.summary is None or not any(hasattr(a, "hear") for a in agents):
                raise
            raise as_a_seat_reads(e, args.log if args.log_for is None else None) from None
    if args.json:
        keys = ("ruleset", "variant", "players", "seed", "scores", "winners", "decisions", "breakdown",
                "params", "overrides", "options", "agents", "decided")
        _out(json.dumps({k: result[k] for k in keys}))
    elif not args.quiet:
        print_result(rules, result)
    return 0


def _replay_command(args, seed: int) -> str:
    """The ``rulebook play`` that plays this game again with ``seed`` (its agents, parameters and
    options; not its log)."""
    from ..play.checks.playouts import play_command
    more = ["--agents", args.agents] if args.agents != "random" else []
    more += ["--skill", args.skill] if args.skill is not None else []
    more += ["--resolve", args.resolve] if args.resolve is not None else []
    return play_command(args.path, args.players, seed, args.variant, args.sets, more)


def as_a_seat_reads(e: GameError, log: str | None) -> GameError:
    """A runtime error of the rules as the terminal of a seat shows it: its summary (the message
    may name another seat's hidden card), located, and where its full message is (``log``: the
    full log written, if any)."""
    where = (f"its full message, which may name what a seat does not see, is in the log {log}" if log else
             "its full message may name what a seat does not see: only a full log keeps it (--log F.jsonl, "
             "without --log-for)")
    shown = GameError(e.summary or e.message, loc=e.loc, code=e.diagnostics[0].code, hint=where, calls=e.calls)
    shown.summary = e.summary
    return shown


def print_result(rules, result: dict) -> None:
    variant = f", variant {result['variant']}" if result["variant"] else ""
    _out(f"{rules.title} ({result['ruleset']}{variant}): {result['players']} players, seed {result['seed']}, "
         f"agents {','.join(result['agents'])}")
    _out(f"{result['decisions']} decisions")
    cats = list(dict.fromkeys(k for row in result["breakdown"] for k in row))
    head = ["seat"] + cats + ["total", ""]
    rows = []
    for seat, (row, score) in enumerate(zip(result["breakdown"], result["scores"])):
        rows.append([str(seat)] + [str(row.get(c, "")) for c in cats] + [str(score),
                                                                         "winner" if seat in result["winners"] else ""])
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
        for r in [head] + rows:
            _out("  ".join(c.rjust(w) if i < len(head) - 1 else c for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        return
    table = Table()
    for i, h in enumerate(head):
        table.add_column(h, justify="right" if 0 < i < len(head) - 1 else "left")
    for r in rows:
        table.add_row(*r, style="bold" if r[-1] else None)
    Console(file=sys.stdout, highlight=False).print(table)
    note = decided_text(result.get("decided") or {})
    if note:
        _out(note)


# ---------------------------------------------------------------------- replay
def add_replay(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", metavar="F.jsonl", help="a log written by play --log")
    p.add_argument("--ruleset", metavar="PATH", help="the ruleset to use instead of the one the header names")


def cmd_replay(args) -> int:
    from ..play.logs.replay import replay
    r = replay(args.log, ruleset=args.ruleset)
    if "error" in r:
        said = f"replay ok: {r['decisions']} decisions, then the logged error again: {r['error']}"
    elif "agent_failed" in r:   # (the log's word alone: an agent is not re-run)
        f = r["agent_failed"]
        said = (f"replay ok: {r['decisions']} decisions; then the log says seat {f['seat']}'s agent '{f['agent']}' "
                f"failed at decision {f['decision']}: not re-played (an agent's failure is not the rules', and cannot "
                f"be run again); its message, unchecked: {f['message']}")
    elif r.get("stopped"):
        w = r["waiting"]
        said = (f"replay ok: {r['decisions']} decisions of a game stopped before its end "
                f"(seat {w['seat']} was to decide '{w['prompt']}')")
    else:
        said = f"replay ok: {r['decisions']} decisions, scores {r['scores']}"
    _out(printable(said))   # (a log's text, and its ruleset's: never a control character to the terminal)
    return 0


# ---------------------------------------------------------------------- test
def add_test(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="scenario files, or folders searched for them (default: the bundled scenarios)")


def _is_scenario_file(path: Path) -> bool:
    """A scenario file has a top-level scenarios: key (a folder also holds rulesets: skip them)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return any(line.startswith("scenarios:") for line in f)
    except OSError:
        return False


def cmd_test(args) -> int:
    from ..play.checks.scenarios import run_file
    files: list[Path] = []
    paths = args.paths or [str(resource_dir("rulesets") / "scenarios")]
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            files += sorted(f for f in p.rglob("*.yaml") if f.is_file() and _is_scenario_file(f))
        elif p.is_file():
            files.append(p)
        else:
            raise UsageError(f"no such scenario file or folder: {raw}")
    passed = failed = 0
    for path in files:
        try:
            outcomes = run_file(path)
        except RulebookError as e:
            _err(str(e))
            failed += 1
            continue
        except OSError as e:   # (each name a file gives is checked; whatever else fails, the next file runs)
            _err(f"{path}: error: {e.strerror or e}")
            failed += 1
            continue
        for o in outcomes:
            if o.ok:
                passed += 1
                continue
            failed += 1
            where = str(o.loc) if o.loc is not None else str(path)
            _out(f"{where}: FAIL {o.name}: {o.message}")
    _out(f"{passed} passed, {failed} failed")
    if not passed and not failed:   # a wrong folder must not look like a green run
        where = ", ".join(paths)
        raise UsageError(f"no scenario ran: {where} holds no scenario" + ("" if files else " file (*.yaml)"))
    return 1 if failed else 0


# ---------------------------------------------------------------------- explain
def add_explain(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="PATH", help="a ruleset file or a bundled name")
    p.add_argument("--variant", "-V", help="explain the ruleset with this variant applied")


def cmd_explain(args) -> int:
    from .explain import explain
    sys.stdout.write(explain(load(args.path, args.variant)))
    return 0


# ---------------------------------------------------------------------- compile
def add_compile(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="PATH", help="a ruleset file or a bundled name")
    p.add_argument("--variant", "-V", help="with this variant applied")
    p.add_argument("-o", "--output", metavar="FILE", help="write the module to FILE (default: print it)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")


def cmd_compile(args) -> int:
    from ..building.listing import listing
    text = listing(load(args.path, args.variant))
    if args.output is None:
        sys.stdout.write(text)
        return 0
    out = Path(args.output)
    if out.exists() and not args.force:
        raise UsageError(f"-o {out}: the file exists; choose another name, or pass --force to replace it")
    try:
        out.write_text(text, encoding="utf-8")
    except (OSError, ValueError) as e:
        raise UsageError(f"-o {out}: cannot write it: {getattr(e, 'strerror', None) or e}") from None
    return 0


# ---------------------------------------------------------------------- diff
def add_diff(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="BASE", help="a ruleset file or a bundled name")
    p.add_argument("variant", metavar="VARIANT", help="a variant declared in BASE, or a variant file")
    p.add_argument("--json", action="store_true", help="print a list of {path, change, before, after}")


def cmd_diff(args) -> int:
    from .diff import diff, format_changes
    changes, description = diff(find_ruleset(args.path), args.variant)
    if args.json:
        _out(json.dumps([c.to_dict() for c in changes], indent=2))
    else:
        sys.stdout.write(format_changes(changes, f"{args.path} -> variant {args.variant}", description))
    return 0


# ---------------------------------------------------------------------- the command table


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# ---------------------------------------------------------------------- list
# ---------------------------------------------------------------------- actions
def add_actions(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="PATH", help="a ruleset file, or a bundled ruleset's name")
    p.add_argument("--variant", "-V", help="a variant declared under variants:, or an overlay file")
    p.add_argument("--players", "-p", type=int, help="the player count (default: the smallest)")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter's value (repeatable), as the adapters' params= take it")
    p.add_argument("--json", action="store_true", help="print the table as JSON: [{id, label}, ...]")


def cmd_actions(args) -> int:
    """The fixed action space of a ruleset: every label its decisions can offer, with its id."""
    from ..adapters.actions import action_space
    rules = load(args.path, args.variant)
    players = args.players if args.players is not None else rules.min_players
    if players not in rules.player_counts:
        raise UsageError(f"{rules.name} is for {rules.players_text()} players, not {players}")
    space = action_space(rules, players, parse_sets(args.sets))
    if args.json:
        _out(json.dumps([{"id": i, "label": label} for i, label in enumerate(space.labels)]))
        return 0
    _out(f"{rules.name}{' (variant ' + args.variant + ')' if args.variant else ''}, {players} players: "
         f"{len(space)} actions")
    for i, label in enumerate(space.labels):
        _out(f"{i:>6}  {label}")
    return 0


def add_list(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print a JSON list")


def cmd_list(args) -> int:
    """The bundled rulesets: name, title, players and variants."""
    rows: list[dict[str, Any]] = []
    for path in sorted(resource_dir("rulesets").glob("*.yaml")):
        try:
            rules = load(path)
        except RulebookError as e:
            rows.append({"name": path.stem, "error": e.message})
            continue
        rows.append({"name": path.stem, "title": rules.title, "players": [rules.min_players, rules.max_players],
                     "player_counts": rules.player_counts,
                     "variants": list((rules.data.get("variants") or {}).keys()), "path": str(path)})
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        if "error" in r:
            print(f"{r['name']:<16} (does not load: {r['error']})")
            continue
        lo, hi = r["players"]
        variants = f"  variants: {', '.join(r['variants'])}" if r["variants"] else ""
        count = f"{lo} players" if lo == hi else f"{lo}-{hi} players"
        print(f"{r['name']:<16} {r['title']} ({count}){variants}")
    return 0


COMMANDS: list[Command] = [
    Command("list", "the bundled rulesets, their player counts and variants", add_list, cmd_list),
    Command("validate", "check rulesets (and their variants); errors as path:line:col", add_validate, cmd_validate),
    Command("play", "play one game with agents and print the scores", add_play, cmd_play),
    Command("replay", "re-run a game log and verify it", add_replay, cmd_replay),
    Command("test", "run YAML scenario tests", add_test, cmd_test),
    Command("explain", "summarise a ruleset's rules in Markdown", add_explain, cmd_explain),
    Command("diff", "show what a variant changes, rule by rule", add_diff, cmd_diff),
    Command("compile", "write the Python a ruleset compiles to, each function headed by its rule", add_compile,
            cmd_compile),
    Command("view", "step through a game log in a web browser", web.add_view, web.cmd_view),
    Command("serve", "play a game in a web browser against agents", web.add_serve, web.cmd_serve),
    Command("actions", "the fixed action space: every action label with its id (for RL)", add_actions, cmd_actions),
    # Batches of games with statistics, and variants compared on the same seeds (play/simulation/workers.py).
    Command("simulate", "play a batch of games and summarise them with statistics", batches.add_simulate,
            batches.cmd_simulate),
    Command("compare", "compare variants on the same seeds, with significance tests", batches.add_compare,
            batches.cmd_compare),
    # A study over the declared parameters (play/tuning/): the variant that plays best, confirmed.
    Command("tune", "search a ruleset's parameters for the variant that plays best (Optuna)", tune.add_tune,
            tune.cmd_tune),
    Command("lsp", "a language server for editors, over stdio (docs/editor.md)", add_lsp, cmd_lsp),
]


class _Parser(argparse.ArgumentParser):
    """argparse with a did-you-mean for mistyped subcommands (still exit 2)."""

    def error(self, message):
        if "invalid choice" in message and COMMANDS:
            word = message.split("'")[1] if "'" in message else ""
            close = did_you_mean(word, [c.name for c in COMMANDS])
            if close:
                message += f" (did you mean '{close}'?)"
        super().error(message)


DISTRIBUTION = "rulebook-engine"   # the name pip installs (pyproject.toml); "rulebook" on the index is another project


class _Version(argparse.Action):
    """--version: the installed package's version, read only when asked (reading the package
    metadata costs a few hundredths of a second at every start otherwise)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit", **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version
        try:
            number = version(DISTRIBUTION)
        except PackageNotFoundError:   # run from a checkout that was never installed
            number = "(not installed)"
        from ..accel import tier   # which engine this process runs: compiled or pure (interpreter/accel)
        print(f"rulebook {number} ({tier()})")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulebook", description="Rulebook: a declarative rules engine for tabletop games.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for c in COMMANDS:
        p = sub.add_parser(c.name, help=c.help, description=c.help)
        c.add_arguments(p)
        p.set_defaults(run=c.run)
    return parser


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (the console script exits with it)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:      # argparse: --help / --version (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    try:
        return args.run(args)
    except RulebookError as e:
        _err("\n".join([str(e), *getattr(e, "__notes__", ())]))   # (a note: the seed of a game stopped, args.py)
        return e.exit_code
    except BrokenPipeError:   # the reader went away (rulebook ... | head): stop quietly
        _silence_stdout()
        return 141               # 128 + SIGPIPE, as a shell reports a killed pipeline member
    except OSError as e:
        name = f": {e.filename}" if getattr(e, "filename", None) else ""
        _err(f"rulebook: error: {e.strerror or e}{name}")
        return 1
    except KeyboardInterrupt:
        _err("rulebook: interrupted")
        return 130
    except Exception as e:  # noqa: BLE001 - the last line of defence: no tracebacks for users
        _err("\n".join([f"rulebook: internal error: {type(e).__name__}: {e} (please report this)",
                        *getattr(e, "__notes__", ())]))
        return 1
