"""``rulebook validate``: every ruleset and each of its variants loaded and checked, with
optional random playouts (problems, anomalies and rules that never fired); a variant whose
merged data equals the ruleset's or another variant's is not compiled again."""
from __future__ import annotations

import argparse
import json
import sys

from ..building import load
from ..errors import RulebookError, UsageError
from ..loading.resources import find_ruleset
from ..loading.source import STOPPED
from ..loading.variants import load_data


def _out(text: str = "") -> None:
    print(text, file=sys.stdout)


def _err(text: str) -> None:
    print(text, file=sys.stderr)


def add_validate(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="ruleset files (or bundled names)")
    p.add_argument("--json", action="store_true", help="print a JSON report")
    p.add_argument("--playouts", type=int, default=0, metavar="N",
                   help="also play N random games per player count and report dead ends, endless games, "
                        "runtime errors and broken invariants, each with its seed")
    p.add_argument("--players", "-p", type=int, help="with --playouts: only this player count")
    p.add_argument("--seed", "-s", type=int, default=0, help="with --playouts: the first seed (default 0)")


def _warnings(rules) -> list:
    """The ruleset's warnings, and one more when the RL adapters would refuse it (no fixed
    action space: adapters/actions.py)."""
    from ..adapters.actions import space_warning
    refused = space_warning(rules)
    return list(rules.warnings) + ([refused] if refused else [])


def _data_key(data) -> str:
    """Merged ruleset data as one comparable text (two variants with equal data are one ruleset)."""
    return json.dumps(data, sort_keys=True, default=str)


def cmd_validate(args) -> int:
    files = []
    for raw in args.paths:
        path = find_ruleset(raw)
        try:
            rules = load(path)
        except RulebookError as e:
            files.append({"path": raw, "variant": None, "ok": False, "diagnostics": e.diagnostics})
            continue
        keep = bool(args.playouts)   # compiled rulesets are kept only to be played
        files.append({"path": raw, "variant": None, "ok": True, "diagnostics": _warnings(rules),
                      "rules": rules if keep else None})
        seen = {_data_key(rules.data): None}   # a variant that changes nothing is not compiled again
        for variant in (rules.data.get("variants") or {}):
            try:
                key = _data_key(load_data(path, variant).data)
                if key in seen:
                    files.append({"path": raw, "variant": variant, "ok": True, "diagnostics": [],
                                  "same_as": seen[key], "rules": None})
                    continue
                seen[key] = variant
                vrules = load(path, variant=variant)
                files.append({"path": raw, "variant": variant, "ok": True, "diagnostics": _warnings(vrules),
                              "rules": vrules if keep else None})
            except RulebookError as e:
                files.append({"path": raw, "variant": variant, "ok": False, "diagnostics": e.diagnostics})
    if args.playouts < 0 or (args.players is not None and not args.playouts):
        raise UsageError("--playouts takes a number of games; --players needs --playouts")
    if args.playouts:
        _playouts(files, args)
    bad = any(not f["ok"] for f in files)
    if args.json:
        _out(json.dumps({"ok": not bad, "files": [{**{k: v for k, v in f.items() if k != "rules"},
                                                   "diagnostics": [d.to_dict() for d in f["diagnostics"]]}
                                                  for f in files]}, indent=2))
        return 1 if bad else 0
    for f in files:
        name = f["path"] + (f" (variant {f['variant']})" if f["variant"] else "")
        for d in f["diagnostics"]:
            _err(d.format())
        played = f.get("playouts") or {}
        for a in played.get("anomalies", []):
            where = f"{a['loc']}: " if a.get("loc") else f"{name}: "
            _err(f"{where}warning[{a['kind']}]: {a['players']} players: {a['message']}")
        _never_fired(name, played)
        for p in played.get("problems", []):   # last, above the summary: what fails the file
            after = f"after {p['decisions']} decision{'s' if p['decisions'] != 1 else ''}"
            _err(f"{name}: {p['kind']}: {p['players']} players, seed {p['seed']}, {after}: "
                 f"{p['message']}" + (f"\n    at {p['loc']}" if p["loc"] else "") + f"\n    replay: {p['replay']}")
        if f["ok"] and "same_as" in f:
            _out(f"{name}: ok (the same rules as " + (f"variant {f['same_as']})" if f["same_as"] else "the ruleset)"))
        elif f["ok"]:
            warnings = len(f["diagnostics"])
            _out(f"{name}: ok" + (f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else "")
                 + _playout_summary(f))
        else:
            errors = sum(1 for d in f["diagnostics"] if d.severity == "error")
            problems = len((f.get("playouts") or {}).get("problems", []))
            what = [f"{errors} error{'s' if errors != 1 else ''}"] if errors else []
            if errors and f["diagnostics"][-1].message == STOPPED:
                what = [f"{errors - 1} errors, and more not checked"]
            what += [f"{problems} playout problem{'s' if problems != 1 else ''}"] if problems else []
            _out(f"{name}: {', '.join(what)}" + _playout_summary(f))
    return 1 if bad else 0


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
    for f in files:
        rules = f.get("rules")
        if rules is None:
            continue
        if args.players is not None and args.players not in rules.player_counts:
            if f["variant"] is None:
                raise UsageError(f"{rules.name} is for {rules.players_text()} players, not {args.players}")
            continue   # a variant for other player counts
        rules = load(find_ruleset(f["path"]), f["variant"], coverage=True)   # the same games, counted
        with settled():   # the compiled ruleset out of full garbage collections (play/simulation/workers.py)
            report = playouts(rules, args.playouts, [args.players] if args.players else None, args.seed)
        problems = [{**p.to_dict(), "replay": p.command(f["path"], f["variant"])} for p in report.problems]
        f["playouts"] = {"games": report.games, "decisions": report.decisions, "problems": problems,
                         "refused": {str(n): why for n, why in report.refused.items()},
                         **findings(rules, report.records)}
        if problems:
            f["ok"] = False


def findings(rules, records: dict) -> dict:
    """The anomalies of each player count's random games, and the rules that fired in none of
    them (over every player count played)."""
    from ..play.simulation import anomalies, rules_fired
    from ..play.simulation.summary import summarise
    flagged = []
    for n, recs in sorted(records.items()):
        summary = summarise(recs, n, rules.team_members(n))
        flagged += [{**a, "players": n} for a in anomalies.find(rules, summary, recs, rules_fired.report(rules, recs))]
    every = [r for recs in records.values() for r in recs]
    report = rules_fired.report(rules, every)
    return {"anomalies": flagged, "never_fired": report["never"], "coverage_games": report["games"]}


def _playout_summary(f: dict) -> str:
    p = f.get("playouts")
    if not p:
        return ""
    refused = f" ({', '.join(p['refused'])} players refused by the ruleset)" if p["refused"] else ""
    return f"; {p['games']} random games, {p['decisions']} decisions{refused}"


