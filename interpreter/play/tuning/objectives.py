"""Objectives a designer names, each a loss over a batch's game records (0 is ideal).

    NAME[:TARGET][*WEIGHT]      e.g.  balance   first_player   length:120*0.5   comeback:0.3

- ``balance``: the largest seat's win share minus an even share 1/n (shared wins split).
- ``chi2``: 1 - p, p the chi-square goodness-of-fit p-value of the seats' wins against an even
  split (0: the wins look even; near 1: they are surely not).
- ``first_player``: |the win share of the seat that decides first - 1/n|.
- ``length:T``: |mean decisions a game - T| / T; ``rounds:T`` the same with rounds.
- ``margin[:T]``: |mean relative winning margin - T| (default T = 0: close games).
- ``comeback[:T]``: with T, |comeback rate - T|; without, 1 - the rate (more comebacks is
  better). A comeback: the team leading at mid-game (half the decisions) does not win.
- ``coverage``: the share of rules that never fired in the batch's games.

Several objectives add up, each times its weight (default 1). Every figure is over the games
that completed; a batch where every game failed has loss infinity. docs/tuning.md has the
formulas with examples.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable

from ...errors import UsageError, did_you_mean
from ..simulation.summary import win_shares


@dataclass(frozen=True)
class Objective:
    name: str
    target: float | None = None
    weight: float = 1.0

    def __str__(self) -> str:
        text = self.name + (f":{self.target:g}" if self.target is not None else "")
        return text + (f"*{self.weight:g}" if self.weight != 1 else "")


def _shares(records: list[dict], players: int) -> list[float]:
    wins = [0.0] * players
    for r in records:
        for p, s in enumerate(win_shares(r, players)):
            wins[p] += s
    return [w / len(records) for w in wins]


def balance(records, players, target, ctx) -> float:
    return max(_shares(records, players)) - 1.0 / players


def chi2(records, players, target, ctx) -> float:
    wins = [s * len(records) for s in _shares(records, players)]
    expected = sum(wins) / players
    if expected <= 0:
        return 1.0
    statistic = sum((w - expected) ** 2 / expected for w in wins)
    return 1.0 - chi2_sf(statistic, players - 1)


def first_player(records, players, target, ctx) -> float:
    firsts = [r for r in records if r.get("first") is not None]
    if not firsts:
        return 0.0
    share = sum(win_shares(r, players)[r["first"]] for r in firsts) / len(firsts)
    return abs(share - 1.0 / players)


def _mean_gap(field: str) -> Callable:
    def loss(records, players, target, ctx) -> float:
        values = [r[field] for r in records if r.get(field) is not None]
        if not values:
            return math.inf
        return abs(sum(values) / len(values) - target) / target
    return loss


def margin(records, players, target, ctx) -> float:
    values = [r["margin_relative"] for r in records if r.get("margin_relative") is not None]
    if not values:
        return 0.0
    return abs(sum(values) / len(values) - (target or 0.0))


def comeback(records, players, target, ctx) -> float:
    values = [r["comeback"] for r in records if r.get("comeback") is not None]
    if not values:
        return 1.0 if target is None else abs(target)
    rate = sum(values) / len(values)
    return 1.0 - rate if target is None else abs(rate - target)


def coverage(records, players, target, ctx) -> float:
    """The share of probes (rules) that fired in none of these games (detectors left out)."""
    probes = ctx.get("probes")
    if not probes:
        return 0.0
    fired: set = set()
    for r in records:
        fired.update(int(i) for i in (r.get("coverage") or {}).get("p", ()))
    rules = [i for i, kind in enumerate(probes) if kind not in ("ran_out", "no_option")]
    return sum(1 for i in rules if i not in fired) / len(rules) if rules else 0.0


# name -> (loss, whether a target is required, what the game records must hold)
LOSSES: dict[str, tuple[Callable, bool, str | None]] = {
    "balance": (balance, False, None),
    "chi2": (chi2, False, None),
    "first_player": (first_player, False, None),
    "length": (_mean_gap("decisions"), True, None),
    "rounds": (_mean_gap("rounds"), True, None),
    "margin": (margin, False, None),
    "comeback": (comeback, False, "lead_changes"),
    "coverage": (coverage, False, "coverage"),
}


def parse(specs: list[str]) -> list[Objective]:
    """``NAME[:TARGET][*WEIGHT]`` specs as objectives; UsageError naming a bad one."""
    out = []
    for spec in specs or ["balance"]:
        text, _, weight = spec.strip().partition("*")
        name, _, target = text.partition(":")
        name = name.strip()
        if name not in LOSSES:
            close = did_you_mean(name, LOSSES)
            raise UsageError(f"unknown objective '{name}' (objectives: {', '.join(LOSSES)})"
                             + (f" (did you mean '{close}'?)" if close else ""))
        try:
            t = float(target) if target.strip() else None
            w = float(weight) if weight.strip() else 1.0
        except ValueError:
            raise UsageError(f"objective '{spec}': a target and a weight are numbers (NAME[:TARGET][*WEIGHT])") from None
        if LOSSES[name][1] and (t is None or t <= 0):
            raise UsageError(f"objective '{name}' needs a positive target, e.g. {name}:120")
        if not math.isfinite(w) or w <= 0 or (t is not None and not math.isfinite(t)):
            raise UsageError(f"objective '{spec}': the weight is a positive number and the target a finite one")
        out.append(Objective(name, t, w))
    return out


def needs(objectives: list[Objective]) -> set[str]:
    """What the batch must record for these objectives (lead_changes, coverage)."""
    return {need for o in objectives if (need := LOSSES[o.name][2]) is not None}


def parts(objectives: list[Objective], records: list[dict], players: int, ctx: dict | None = None) -> dict:
    """Each objective's loss (unweighted) over the completed games."""
    ok = [r for r in records if "error" not in r]
    if not ok:
        return {str(o): math.inf for o in objectives}
    return {str(o): LOSSES[o.name][0](ok, players, o.target, ctx or {}) for o in objectives}


def loss(objectives: list[Objective], records: list[dict], players: int, ctx: dict | None = None) -> float:
    """The weighted sum of the objectives' losses (lower is better)."""
    values = parts(objectives, records, players, ctx)
    return sum(o.weight * values[str(o)] for o in objectives)


def interval(objectives, records, players, ctx=None, resamples: int = 400, seed: int = 0) -> list[float] | None:
    """The 95% bootstrap interval of the loss (games resampled with replacement, seeded)."""
    ok = [r for r in records if "error" not in r]
    if len(ok) < 2:
        return None
    rnd = random.Random(seed)
    values = sorted(loss(objectives, rnd.choices(ok, k=len(ok)), players, ctx) for _ in range(resamples))
    return [values[int(0.025 * resamples)], values[int(0.975 * resamples) - 1]]


def paired_difference(objectives, base: list[dict], other: list[dict], players: int, ctx=None,
                      resamples: int = 400, seed: int = 0) -> dict | None:
    """base's loss minus other's on the same seeds (games paired by index), with its 95% paired
    bootstrap interval: ``better`` when the whole interval is above 0 (other is better)."""
    b = {r["index"]: r for r in base if "error" not in r}
    o = {r["index"]: r for r in other if "error" not in r}
    common = sorted(set(b) & set(o))
    if len(common) < 2:
        return None
    rnd = random.Random(seed)
    diffs = []
    for _ in range(resamples):
        pick = rnd.choices(common, k=len(common))
        diffs.append(loss(objectives, [b[i] for i in pick], players, ctx)
                     - loss(objectives, [o[i] for i in pick], players, ctx))
    diffs.sort()
    lo, hi = diffs[int(0.025 * resamples)], diffs[int(0.975 * resamples) - 1]
    value = loss(objectives, [b[i] for i in common], players, ctx) - loss(objectives, [o[i] for i in common], players, ctx)
    return {"diff": value, "ci": [lo, hi], "pairs": len(common), "better": lo > 0}


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (the regularised upper
    incomplete gamma function Q(df/2, x/2), by its series or continued fraction)."""
    if df <= 0:
        return 1.0
    if x <= 0:
        return 1.0
    a, z = df / 2.0, x / 2.0
    if z < a + 1:   # series for P(a, z)
        term = total = 1.0 / a
        k = a
        for _ in range(500):
            k += 1
            term *= z / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    # Lentz's continued fraction for Q(a, z)
    b = z + 1 - a
    c, d = 1 / 1e-300, 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return min(1.0, math.exp(-z + a * math.log(z) - math.lgamma(a)) * h)

