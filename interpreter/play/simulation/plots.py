"""The plots of a batch (scores.png, win_rate.png) and of a comparison (compare.png), drawn
with matplotlib (the ``plots`` extra); without it, no plot is drawn and none is claimed."""
from __future__ import annotations

from pathlib import Path


def _pyplot():
    """matplotlib.pyplot drawing to files, or None without matplotlib (the ``plots`` extra)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def _win_rate_bars(summary: dict):
    """(win rate per seat, its 95% interval, the error bars below and above) of a summary."""
    rates = [r if r is not None else 0.0 for r in summary["win_rate"]]
    cis = [ci or [0.0, 0.0] for ci in summary["win_rate_ci"]]
    err = [[max(0.0, r - lo) for r, (lo, _) in zip(rates, cis)], [max(0.0, hi - r) for r, (_, hi) in zip(rates, cis)]]
    return rates, cis, err


def _saved(plt, fig, ax, path: Path) -> Path:
    """Finish a plot (a light grid across), write it to ``path`` and close it; the path."""
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def plots(summary: dict, records: list[dict], out: Path) -> list[Path]:
    """scores.png (score distribution per seat) and win_rate.png (win rate by seat with 95%
    CIs). Needs matplotlib (the ``plots`` extra); without it, no plots and no error."""
    plt = _pyplot()
    if plt is None:
        return []
    players = summary["players"]
    ok = [r for r in records if "error" not in r]
    title = _title(summary)
    written = []

    fig, ax = plt.subplots(figsize=(max(5.0, 1.3 * players + 2), 4.2), dpi=110)
    data = [[r["scores"][p] for r in ok] for p in range(players)]
    if ok:
        ax.boxplot(data, showmeans=True, meanprops={"marker": "D", "markerfacecolor": "white",
                                                    "markeredgecolor": "black", "markersize": 5})
        ax.set_xticks(range(1, players + 1), [f"seat {p}" for p in range(players)])
    ax.set_ylabel("final score")
    ax.set_xlabel("box: quartiles, line: median, white marker: mean, whiskers: 1.5 IQR, circles: outliers", fontsize=8)
    ax.set_title(f"Score per seat ({len(ok)} games)\n{title}", fontsize=10)
    written.append(_saved(plt, fig, ax, out / "scores.png"))

    teams = summary.get("teams")   # partners win together: the even share is one per team
    sides = len(teams["members"]) if teams else players
    names = [f"team {t} ({'+'.join(map(str, m))})" for t, m in enumerate(teams["members"])] if teams else \
        [f"seat {p}" for p in range(players)]
    fig, ax = plt.subplots(figsize=(max(5.0, 1.3 * sides + 2), 4.2), dpi=110)
    rates, cis, err = _win_rate_bars(teams or summary)
    ax.bar(range(sides), rates, color="#4C72B0", yerr=err, capsize=6, ecolor="black")
    ax.axhline(1.0 / sides, color="#C44E52", linestyle="--", label=f"1/{sides} (even)")
    for p, r in enumerate(rates):
        ax.annotate(f"{r:.3f}", (p, r), xytext=(8, 3), textcoords="offset points", fontsize=8)
    ax.set_xticks(range(sides), names)
    ax.set_ylabel("win rate (shared wins split)")
    ax.set_ylim(0, min(1.0, max(hi for _, hi in cis) * 1.15 + 0.02))
    ax.set_title(f"Win rate per {'team' if teams else 'seat'}, 95% Wilson CI ({summary['completed']} games)"
                 f"\n{title}", fontsize=10)
    ax.legend(loc="upper right", fontsize=8)
    written.append(_saved(plt, fig, ax, out / "win_rate.png"))
    return written


def _title(summary: dict) -> str:
    bits = [summary.get("ruleset") or "", f"variant {summary['variant']}" if summary.get("variant") else "",
            f"{summary['players']} players", f"seed {summary.get('seed')}"]
    return ", ".join(b for b in bits if b)


def compare_plot(result: dict, out: Path) -> Path | None:
    """compare.png: each seat's win rate under each variant, with 95% CIs (needs matplotlib)."""
    plt = _pyplot()
    if plt is None:
        return None
    names, players = result["variants"], result["players"]
    width = 0.8 / len(names)
    fig, ax = plt.subplots(figsize=(max(5.5, 1.6 * players + 2), 4.4), dpi=110)
    top = 0.0
    for k, v in enumerate(names):
        rates, cis, err = _win_rate_bars(result["summaries"][v])
        xs = [p - 0.4 + width * (k + 0.5) for p in range(players)]
        ax.bar(xs, rates, width, yerr=err, capsize=4, label=v, ecolor="black")
        top = max(top, *(hi for _, hi in cis))
    ax.axhline(1.0 / players, color="#C44E52", linestyle="--", linewidth=1, label=f"1/{players} (even)")
    ax.set_xticks(range(players), [f"seat {p}" for p in range(players)])
    ax.set_ylabel("win rate (shared wins split)")
    ax.set_ylim(0, min(1.0, top * 1.15 + 0.02))
    ax.set_title(f"Win rate per seat and variant, 95% Wilson CI\n{result['ruleset']}, {result['players']} players, "
                 f"{result['games']} games per variant, seed {result['seed']}", fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    return _saved(plt, fig, ax, out / "compare.png")
