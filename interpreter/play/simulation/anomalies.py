"""Anomalies of a batch, each flagged with its evidence: the signs that a statistic should not
be trusted yet.

- ``seat_imbalance``: a seat (or a team) whose win rate differs from the even share beyond
  chance: a two-sided test of its win share against 1/k, at 0.05 divided by k (Bonferroni,
  k seats or teams), so a fair game flags one in twenty batches at most. A ruleset whose seats
  are not meant to be alike says ``asymmetric: true`` and is not checked;
- ``unranked``: a seat left out of the ranking (``scoring: eligible``) in at least half the
  games;
- ``budget``: games stopped by the step budget;
- ``ran_out``: draws that found their zone short (coverage);
- ``no_option``: choices skipped for lack of options, where the step does not say ``if_none:``;
- ``gap``: a zone that never received some labels of a component it received (coverage).
"""
from __future__ import annotations

from . import stats

ALPHA = 0.05


def find(rules, summary: dict, records: list[dict], coverage: dict | None = None) -> list[dict]:
    out = []
    if not getattr(rules, "asymmetric", False):
        out += _imbalance(summary)
    out += _unranked(rules, summary, records)
    coverage = coverage or {}
    budget = [r for r in records if "step budget" in str(r.get("error", ""))]
    if budget:
        out.append({"kind": "budget", "message": f"{len(budget)} of {len(records)} games hit the step budget",
                    "evidence": {"games": len(budget), "seeds": [r["seed"] for r in budget[:10]]}})
    for row in coverage.get("ran_out", []):
        out.append({"kind": "ran_out", "loc": row["loc"],
                    "message": f"{row['what']} in {row['games']} of {coverage['games']} games ({row['count']} times)",
                    "evidence": {"games": row["games"], "count": row["count"]}})
    for row in coverage.get("no_option", []):
        out.append({"kind": "no_option", "loc": row["loc"],
                    "message": f"{row['what']} in {row['games']} of {coverage['games']} games ({row['count']} times): "
                               "skipped; say if_none: skip, pass or end_game",
                    "evidence": {"games": row["games"], "count": row["count"]}})
    for gap in coverage.get("gaps", []):
        out.append({"kind": "gap", "loc": gap.get("loc"),
                    "message": f"zone {gap['zone']} received cards of '{gap['component']}' but never "
                               f"{', '.join(gap['missing'])} in {gap['games']} games",
                    "evidence": gap})
    return out


def _imbalance(summary: dict) -> list[dict]:
    teams = summary.get("teams")
    if teams:
        rates, wins, who = teams["win_rate"], teams["wins"], [f"team {t} (seats {', '.join(map(str, m))})"
                                                            for t, m in enumerate(teams["members"])]
    else:
        rates, wins, who = summary["win_rate"], summary["wins"], [f"seat {p}" for p in range(summary["players"])]
    n, k = summary["completed"], len(wins)
    if n < 20 or k < 2:
        return []
    out = []
    for name, w, rate in zip(who, wins, rates):
        test = stats.proportion_test(w, n, 1.0 / k)
        if test is not None and test["p"] < ALPHA / k:
            ci = stats.wilson(w, n)
            assert ci is not None   # (n >= 20)
            lo, hi = ci
            out.append({"kind": "seat_imbalance",
                        "message": f"{name} wins {rate:.3f} of {n} games (95% CI {lo:.3f}-{hi:.3f}), "
                                   f"against an even share of {1 / k:.3f}; p = {test['p']:.2g}",
                        "evidence": {"who": name, "win_rate": rate, "ci": [lo, hi], "expected": 1.0 / k,
                                     "p": test["p"], "games": n}})
    return out


def _unranked(rules, summary: dict, records: list[dict]) -> list[dict]:
    ok = [r for r in records if "error" not in r and "unranked" in r]
    if not ok:
        return []
    out = []
    for p in range(summary["players"]):
        left_out = sum(1 for r in ok if p in r["unranked"])
        if left_out * 2 >= len(ok):
            out.append({"kind": "unranked", "loc": str(rules.scoring.eligible_loc) if rules.scoring.eligible_loc else None,
                        "message": f"seat {p} was not ranked (scoring: eligible) in {left_out} of {len(ok)} games",
                        "evidence": {"seat": p, "games": left_out, "of": len(ok)}})
    return out
