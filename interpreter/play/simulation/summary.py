"""The statistics of a batch's records, and of variants compared on the same seeds (stats.py
holds the formulas; docs/simulation.md every definition)."""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable

from . import stats

ALPHA = 0.05


def win_shares(rec: dict, players: int) -> list[float]:
    """A game's win per seat: 1/k to each of its k winners (0 to all when nobody won)."""
    winners = rec.get("winners") or []
    share = 1.0 / len(winners) if winners else 0.0
    return [share if p in winners else 0.0 for p in range(players)]


def summarise(records: list[dict], players: int, members=None) -> dict:
    """The statistics of a batch (see docs/simulation.md for every definition); ``members``, the
    seats of each team, adds the teams' figures when some team has more than one seat."""
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
        "win_rate_ci": [_ci(w, n) for w in wins],
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
            "win_rate_ci": _ci(first_share, len(firsts)),
            "expected": 1.0 / players,
            "z": test["z"] if test else None, "p": test["p"] if test else None,
            "significant": bool(test and test["p"] < ALPHA),
        },
        "margin": stats.describe(margins) if margins else None,
        "margin_relative": stats.describe(relative) if relative else None,
        "lead_changes": stats.describe(leads) if leads else None,
        "teams": _teams(ok, players, members, wins) if members and any(len(m) > 1 for m in members) else None,
        "unranked": [sum(1 for r in ok if p in (r.get("unranked") or ())) for p in range(players)]
        if any("unranked" in r for r in ok) else None,
    }


def _teams(ok: list[dict], players: int, members, wins: list[float]) -> dict:
    """Per team: its win share (the members' shares added: partners win together), its 95% CI."""
    members = [list(m) for m in members]
    n = len(ok)
    team_wins = [sum(wins[p] for p in m) for m in members]
    return {"members": members, "wins": team_wins,
            "win_rate": [w / n if n else None for w in team_wins],
            "win_rate_ci": [_ci(w, n) for w in team_wins]}


def _ci(successes: float, n: int) -> list[float] | None:
    """The 95% Wilson interval of a win share as a list (JSON); None without games."""
    ci = stats.wilson(successes, n)
    return None if ci is None else list(ci)


def compare(records_by_variant: dict[str, list[dict]], players: int, members: dict | None = None) -> dict:
    """Differences of each variant against the first, paired by game index (common seeds).

    For each seat's win share, the number of decisions and the winning margin: the mean
    per-game difference (variant minus first), its 95% CI and the paired t-test's p-value."""
    names = list(records_by_variant)
    by_index = {v: {r["index"]: r for r in recs if "error" not in r} for v, recs in records_by_variant.items()}
    base = names[0]
    summaries = {v: summarise(recs, players, (members or {}).get(v)) for v, recs in records_by_variant.items()}
    out: dict[str, Any] = {"baseline": base, "summaries": summaries, "differences": {}}
    for v in names[1:]:
        common = sorted(set(by_index[base]) & set(by_index[v]))
        pairs = [(by_index[base][i], by_index[v][i]) for i in common]
        shares = [(win_shares(x, players), win_shares(y, players)) for x, y in pairs]
        out["differences"][v] = {
            "pairs": len(common),
            "win_rate": [_paired(shares, itemgetter(p)) for p in range(players)],
            "decisions": _paired(pairs, itemgetter("decisions")),
            "margin": _paired(pairs, lambda r: r.get("margin")),
            "margin_relative": _paired(pairs, lambda r: r.get("margin_relative")),
        }
    return out


def _paired(pairs: list[tuple[Any, Any]], figure: Callable[[Any], float | None]) -> dict | None:
    """The paired t-test of a figure of each pair of games (the variant's minus the first's),
    over the pairs where both have it."""
    values = [(figure(x), figure(y)) for x, y in pairs]
    t = stats.paired_t([y - x for x, y in values if x is not None and y is not None])
    if t is None:
        return None
    return {"diff": t["mean"], "ci": t["ci"], "p": t["p"], "n": t["n"], "significant": t["p"] < ALPHA}
