"""``rulebook validate``: every ruleset and each of its variants loaded and checked, with
optional random playouts (problems, anomalies and rules that never fired); a variant whose
merged data equals the ruleset's or another variant's is not compiled again."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..building import load
from ..errors import Diagnostic, GameError, RulebookError, UsageError, called_from, printable
from ..loading.resources import find_ruleset
from ..loading.source import STOPPED
from ..adapters.actions import warnings_of
from .args import parse_sets
from ..loading.kept import holding
from ..loading.variants import Distinct, load_data
from ..engine.params import reached_entries


def _shown(text: str) -> str:
    """``text`` as a terminal may show it, line by line (errors.printable): a ruleset's names, a
    variant's, a playout's message may hold control characters (a ruleset is untrusted input)."""
    return "\n".join(map(printable, text.split("\n")))


def _out(text: str = "") -> None:
    print(_shown(text), file=sys.stdout)


def _err(text: str) -> None:
    print(_shown(text), file=sys.stderr)


def add_validate(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="ruleset files (or bundled names)")
    p.add_argument("--json", action="store_true", help="print a JSON report")
    p.add_argument("--playouts", type=int, default=0, metavar="N",
                   help="also play N random games per player count and report dead ends, endless games, "
                        "runtime errors and broken invariants, each with its seed")
    p.add_argument("--players", "-p", type=int, help="with --playouts: only this player count")
    p.add_argument("--seed", "-s", type=int, default=0, help="with --playouts: the first seed (default 0)")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="with --playouts: override a parameter in the random games (repeatable), so that "
                        "rules a parameter turns on are played too")
    p.add_argument("--strict", action="store_true", help="warnings fail the check too (exit 1)")


def cmd_validate(args) -> int:
    files: list = []
    reached: set = set()   # the by_players: entries some game of a ruleset checked reads
    for raw in args.paths:
        with holding():   # the variants' builds get back every tree and code object the ruleset's made
            _check(raw, files, reached, bool(args.playouts))
    _read_by_extensions(files, reached)
    if args.playouts < 0 or ((args.players is not None or getattr(args, "sets", None)) and not args.playouts):
        raise UsageError("--playouts takes a number of games; --players and --set need --playouts")
    if args.playouts:
        _playouts(files, args)
    strict = getattr(args, "strict", False)
    for f in files:
        f["warnings"] = _count_warnings(f)
        if strict and f["warnings"]:
            f["ok"] = False   # --strict: a warning fails the file
    bad = any(not f["ok"] for f in files)
    if args.json:
        _out(json.dumps({"ok": not bad, "strict": strict, "overrides": parse_sets(getattr(args, "sets", None) or []),
                         "files": [{**{k: v for k, v in f.items() if k != "rules"},
                                    "diagnostics": [d.to_dict() for d in f["diagnostics"]]} for f in files]},
                        indent=2))
        return 1 if bad else 0
    for f in files:
        name = f["path"] + (f" (variant {f['variant']})" if f["variant"] else "")
        for d in f["diagnostics"]:
            _err(d.format())
        played = f.get("playouts") or {}
        for counts, a in _grouped(played.get("anomalies", [])):
            where = f"{a['loc']}: " if a.get("loc") else f"{name}: "
            _err(f"{where}{a.get('severity', 'warning')}[{a['kind']}]: {counts_text(counts)} players: {a['message']}"
                 + (f"\n  hint: {a['hint']}" if a.get("hint") else ""))
        _never_fired(name, played)
        for p in played.get("problems", []):   # last, above the summary: what fails the file
            after = f"after {p['decisions']} decision{'s' if p['decisions'] != 1 else ''}"
            _err(f"{name}: {p['kind']}: {p['players']} players, seed {p['seed']}, {after}: "
                 f"{p['message']}" + (f"\n    at {p['loc']}" if p["loc"] else "")
                 + "".join(f"\n    {called_from(c)}" for c in p.get("calls", ())) + f"\n    replay: {p['replay']}")
        if f["ok"] and "same_as" in f:
            _out(f"{name}: ok (the same rules as " + (f"variant {f['same_as']})" if f["same_as"] else "the ruleset)"))
        else:
            _out(f"{name}: {_verdict(f, strict)}" + _playout_summary(f))
    if len(files) > 1:   # the last line speaks for everything checked
        failed = sum(1 for f in files if not f["ok"])
        warnings = sum(f["warnings"] for f in files)
        verdict = f"failed ({failed} of {len(files)})" if failed else "ok" + _plural(", {}", warnings, "warning")
        _out(f"{len(files)} checked: {verdict}")
    return 1 if bad else 0



def _check(raw: str, files: list, reached: set, keep: bool) -> None:
    """Load the ruleset ``raw`` and each of its variants, each an entry of ``files`` (``keep``:
    with its compiled rules, to be played)."""
    path = find_ruleset(raw)
    try:
        rules = load(path)
    except RulebookError as e:
        files.append({"path": raw, "variant": None, "ok": False, "diagnostics": e.diagnostics})
        return
    reached.update(reached_entries(rules.data, load_data(path).smap))
    files.append({"path": raw, "variant": None, "ok": True, "diagnostics": warnings_of(rules),
                  "rules": rules if keep else None})
    distinct = Distinct(rules.data)   # a variant that changes nothing is not compiled again
    for variant in (rules.data.get("variants") or {}):
        try:
            same, same_as = distinct.met(variant, load_data(path, variant).data)
            if same:
                files.append({"path": raw, "variant": variant, "ok": True, "diagnostics": [],
                              "same_as": same_as, "rules": None})
                continue
            vrules = load(path, variant=variant)
            files.append({"path": raw, "variant": variant, "ok": True, "diagnostics": warnings_of(vrules),
                          "rules": vrules if keep else None})
        except RulebookError as e:
            files.append({"path": raw, "variant": variant, "ok": False, "diagnostics": e.diagnostics})


def _read_by_extensions(files: list, reached: set) -> None:
    """A base's warning of a by_players: entry no game of it reads is none when a ruleset
    checked with it, one that extends it, has games that read it (base.yaml big.yaml)."""
    def read(d) -> bool:
        return (d.code == "params" and d.severity == "warning" and d.loc is not None
                and (str(Path(d.loc.path).resolve()), d.loc.line, d.loc.col) in reached)
    for f in files:
        f["diagnostics"] = [d for d in f["diagnostics"] if not read(d)]


def _plural(form: str, n: int, word: str) -> str:
    """``form`` with "N word(s)" in it, or "" when N is 0."""
    return form.format(f"{n} {word}{'s' if n != 1 else ''}") if n else ""


def _grouped(anomalies: list) -> list[tuple[list[int], dict]]:
    """The anomalies as printed: one that says the same at the same place for several player
    counts is one, with those counts (in the order first met)."""
    groups: dict = {}
    for a in anomalies:
        key = (a.get("loc"), a.get("severity", "warning"), a["kind"], a["message"], a.get("hint"))
        groups.setdefault(key, ([], a))[0].append(a["players"])
    return list(groups.values())


def counts_text(counts: list[int]) -> str:
    """Player counts in a line: '4', '2, 3, 5', '2-10', '2-4, 6' (a run of three or more as a range)."""
    runs: list[list[int]] = []
    for n in sorted(set(counts)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def _count_warnings(f: dict) -> int:
    """The warnings printed for a file: its diagnostics', its playouts' anomalies (those that
    are not errors; the same for several player counts is one) and the rules no random game fired."""
    played = f.get("playouts") or {}
    return (sum(1 for d in f["diagnostics"] if d.severity == "warning")
            + sum(1 for _, a in _grouped(played.get("anomalies", [])) if a.get("severity", "warning") == "warning")
            + (len(played.get("never_fired", [])) if played.get("coverage_games") else 0))


def _verdict(f: dict, strict: bool) -> str:
    """``ok``, ``ok, 18 warnings`` or ``failed: ...`` with what failed it."""
    if f["ok"]:
        return "ok" + _plural(", {}", f["warnings"], "warning")
    errors = sum(1 for d in f["diagnostics"] if d.severity == "error")
    played = f.get("playouts") or {}
    what = [_plural("{}", errors, "error")] if errors else []
    if errors and f["diagnostics"][-1].message == STOPPED:
        what = [f"{errors - 1} errors, and more not checked"]
    ran_out = sum(1 for _, a in _grouped(played.get("anomalies", [])) if a.get("severity") == "error")
    what += [_plural("{}", ran_out, "error")] if ran_out else []
    what += [_plural("{}", len(played.get("problems", [])), "playout problem")] if played.get("problems") else []
    if strict and f["warnings"]:
        what.append(_plural("{}", f["warnings"], "warning") + " (--strict)")
    return "failed: " + ", ".join(w for w in what if w)


NEVER_SHOWN = 8   # never-fired rules listed one by one; the rest in one line (--json has them all)


def _never_fired(name: str, played: dict) -> None:
    """The rules no random game fired, a few located lines and a count of the rest; nothing
    when no game ended (then every rule is unfired, and the problems say why)."""
    rows, games = played.get("never_fired", []), played.get("coverage_games", 0)
    if not games:
        return
    for row in rows[:NEVER_SHOWN]:
        where = f"{row['loc']}: " if row.get("loc") else f"{name}: "
        _err(f"{where}warning[never-fired]: {row['what']} never fired in {games} random games")
    if len(rows) > NEVER_SHOWN:
        _err(f"{name}: warning[never-fired]: and {len(rows) - NEVER_SHOWN} more rules never fired in {games} "
             f"random games (validate --json lists them all)")


def _playouts(files: list, args) -> None:
    """Play random games on every ruleset (and variant) that loaded; a problem fails the file."""
    from ..play.checks.playouts import playouts
    from ..play.simulation.workers import settled
    items = getattr(args, "sets", None) or []   # (in each replay command, as given)
    sets = parse_sets(items)
    options = {"params": sets} if sets else None
    for f in files:
        rules = f.get("rules")
        if rules is None:
            continue
        if args.players is not None and args.players not in rules.player_counts:
            if f["variant"] is None:
                raise UsageError(f"{rules.name} is for {rules.players_text()} players, not {args.players}")
            continue   # a variant for other player counts
        rules = load(find_ruleset(f["path"]), f["variant"], coverage=True)   # the same games, counted
        if sets:   # a name or a value the ruleset refuses is the command's mistake, not a refused count
            rules.resolve_params(args.players or rules.player_counts[0], sets)
        if args.players is not None:   # so is a game its requirements refuse (requires:), as play refuses it
            _refused_at_once(rules, args.players, args.seed, options)
        with settled():   # the compiled ruleset out of full garbage collections (play/simulation/workers.py)
            report = playouts(rules, args.playouts, [args.players] if args.players else None, args.seed, options)
        problems = [{**p.to_dict(), "replay": p.command(f["path"], f["variant"], items)} for p in report.problems]
        f["playouts"] = {"games": report.games, "decisions": report.decisions, "problems": problems,
                         "refused": {str(n): why for n, why in report.refused.items()},
                         **findings(rules, report.records)}
        if problems or any(a.get("severity") == "error" for a in f["playouts"]["anomalies"]):
            f["ok"] = False
        if report.refused and not report.games:   # nothing played: no check passed, the file fails
            why = next(iter(report.refused.values()))
            f["diagnostics"] = [*f["diagnostics"], Diagnostic(
                f"no random game played: every player count ({counts_text(list(report.refused))}) is refused: {why}",
                None, "requires")]
            f["ok"] = False


def _refused_at_once(rules, players: int, seed: int, options) -> None:
    """Raise the refusal (Refused) of the games a requirement of ``rules`` refuses; a game that
    starts with a runtime error is left to the playouts, which report it with its seed."""
    try:
        rules.new_game(players, seed, options)
    except GameError:
        pass


def findings(rules, records: dict) -> dict:
    """The anomalies of each player count's random games, and the rules that fired in none of
    them (over every player count played)."""
    from ..play.simulation import anomalies, rules_fired
    from ..play.simulation.summary import summarise
    flagged = []
    for n, recs in sorted(records.items()):
        summary = summarise(recs, n, rules.team_members(n))
        coverage = rules_fired.report(rules, recs)
        flagged += [{**a, "players": n, **_every_game(a, coverage["games"])}
                    for a in anomalies.find(rules, summary, recs, coverage)]
    every = [r for recs in records.values() for r in recs]
    report = rules_fired.report(rules, every)
    return {"anomalies": flagged, "never_fired": report["never"], "coverage_games": report["games"]}


def _every_game(anomaly: dict, games: int) -> dict:
    """A deal that ran short in every random game is an error: the components cannot serve
    that player count (a deck too small to deal to everyone). A move that ran short stays a
    warning: how often it is asked for is the players' doing."""
    if anomaly["kind"] != "ran_out" or not anomaly["message"].startswith("deal ") or not games \
            or anomaly["evidence"]["games"] < games:
        return {}
    return {"severity": "error", "hint": "the zone is short whatever the players do: deal fewer cards at this "
                                         "player count, or leave it out of players: {min, max}"}


def _playout_summary(f: dict) -> str:
    p = f.get("playouts")
    if not p:
        return ""
    refused = f" ({', '.join(p['refused'])} players refused by the ruleset)" if p["refused"] else ""
    return f"; {p['games']} random games, {p['decisions']} decisions{refused}"


