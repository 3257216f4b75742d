"""Batch statistics printed for people: rich tables of a summary and of a comparison."""
from __future__ import annotations

from ..play.simulation.rules_fired import DETECTORS


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


def print_findings(summary: dict, coverage: dict | None, console) -> None:
    """The anomalies of a batch, then (with --coverage) the rules that never fired, as
    located warnings."""
    teams = summary.get("teams")
    if teams:
        rows = ", ".join(f"team {t} ({'+'.join(map(str, m))}) {_rate(r)}"
                         for t, (m, r) in enumerate(zip(teams["members"], teams["win_rate"])))
        console.print(f"per team: win rate {rows}")
    for a in summary.get("anomalies") or []:
        where = f"{a['loc']}: " if a.get("loc") else ""
        console.print(f"{where}warning[{a['kind']}]: {a['message']}", markup=False, soft_wrap=True)
    if coverage is None:
        return
    never = coverage["never"]
    rules = [row for row in coverage["probes"] if row["kind"] not in DETECTORS]   # (a problem found is a warning below)
    fired = sum(1 for row in rules if row["games"])
    console.print(f"coverage: {fired} of {len(rules)} rule points fired in {coverage['games']} games; "
                  f"{len(never)} never did")
    for row in never:
        where = f"{row['loc']}: " if row.get("loc") else ""
        console.print(f"{where}warning[never-fired]: {row['what']} never fired in {coverage['games']} games",
                      markup=False, soft_wrap=True)


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
