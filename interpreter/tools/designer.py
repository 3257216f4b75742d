"""A designer's report: ``simulate --out DIR`` and ``compare --out DIR`` write DIR/report.html,
one page answering "is it fair, how long is it, where do the points come from, which rules
matter": seat balance with 95% intervals, game length, scores by category, the first player's
advantage, the rules that fired and those that never did, and the anomalies found. For a
comparison, every section shows each variant side by side, with the paired differences.

The plots are PNG images drawn with matplotlib (the ``plots`` extra) and embedded in the page
(one file to send); without matplotlib the page keeps its tables and says the plots are missing.
"""
from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

from ..play.simulation.rules_fired import DETECTORS
from .report import fmt_p

PAGE_STYLE = """body{font:15px/1.45 system-ui,sans-serif;max-width:64em;margin:1em auto;padding:0 1em;color:#1c2833}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #d5d8dc}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #d5d8dc;padding:2px 8px;text-align:right}
th:first-child,td:first-child{text-align:left}img{max-width:100%;height:auto}.note{color:#707b7c}
.flag{color:#922b21;font-weight:600}"""


def _e(text) -> str:
    return html.escape(str(text))


def _num(x, digits: int = 3) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.{digits}f}".rstrip("0").rstrip(".") if abs(x) < 1e6 else f"{x:.3g}"
    return str(x)


def _ci(ci) -> str:
    return f"{_num(ci[0])} to {_num(ci[1])}" if ci else "-"


def _table(head: list, rows: list[list], cls: str = "") -> str:
    out = [f'<table class="{cls}"><tr>' + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr>"]
    out += ["<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows]
    return "".join(out) + "</table>"


class _Plots:
    """matplotlib figures as embedded images (none without matplotlib)."""

    def __init__(self):
        self.plt: Any = None
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return
        self.plt = plt

    def figure(self, width: float = 6.4, height: float = 3.6):
        fig, ax = self.plt.subplots(figsize=(width, height), dpi=100)
        ax.grid(axis="y", alpha=0.3)
        return fig, ax

    def img(self, fig, alt: str) -> str:
        buf = io.BytesIO()
        fig.tight_layout()
        fig.savefig(buf, format="png")
        self.plt.close(fig)
        return f'<img alt="{_e(alt)}" src="data:image/png;base64,{base64.b64encode(buf.getvalue()).decode()}">'


# ---------------------------------------------------------------------- the sections, any number of variants
def _sides(s: dict) -> tuple[list[str], dict]:
    teams = s.get("teams")
    if teams:
        return [f"team {t} ({'+'.join(map(str, m))})" for t, m in enumerate(teams["members"])], teams
    return [f"seat {p}" for p in range(s["players"])], s


def _balance(P: _Plots, runs: dict) -> str:
    out = []
    for v, s in runs.items():
        names, src = _sides(s)
        even = 1 / len(names)
        rows = [[n, _num(r), _ci(ci), _num(w)] for n, r, ci, w in zip(names, src["win_rate"], src["win_rate_ci"], src["wins"])]
        out.append(f"<h3>{_e(v)}</h3>" if len(runs) > 1 else "")
        out.append(_table(["seat", "win rate", "95% interval", "wins"], rows, "balance"))
        far = max((abs((r or 0) - even), n) for n, r in zip(names, src["win_rate"]))
        flagged = any(a["kind"] == "seat_imbalance" for a in s.get("anomalies") or ())
        out.append(f"<p>Furthest from the even share ({_num(even)}): {_e(far[1])}, by {_num(far[0])}. "
                   + ('<span class="flag">A seat wins more or less than chance allows.</span>' if flagged
                      else "No seat differs from the even share beyond chance.") + "</p>")
    if P.plt is not None:
        sides = max(len(_sides(s)[0]) for s in runs.values())
        fig, ax = P.figure(max(5.0, 1.4 * sides + 2))
        width = 0.8 / len(runs)
        for k, (v, s) in enumerate(runs.items()):
            names, src = _sides(s)
            rates = [r or 0.0 for r in src["win_rate"]]
            cis = [ci or [0.0, 0.0] for ci in src["win_rate_ci"]]
            err = [[max(0.0, r - lo) for r, (lo, _) in zip(rates, cis)], [max(0.0, hi - r) for r, (_, hi) in zip(rates, cis)]]
            ax.bar([i - 0.4 + width * (k + 0.5) for i in range(len(rates))], rates, width, yerr=err, capsize=4, label=v)
        ax.axhline(1 / sides, color="#C44E52", linestyle="--", linewidth=1, label="even share")
        ax.set_xticks(range(sides), _sides(next(iter(runs.values())))[0])
        ax.set_ylabel("win rate (95% interval)")
        ax.legend(fontsize=8)
        out.append(P.img(fig, "win rate per seat with 95% intervals"))
    return "".join(out)


def _length(P: _Plots, runs: dict, records: dict) -> str:
    rows = []
    for v, s in runs.items():
        d, r = s["decisions"] or {}, s.get("rounds") or {}
        rows.append([v, _num(d.get("mean")), _num(d.get("median")), f"{_num(d.get('min'))} to {_num(d.get('max'))}",
                     _num(r.get("mean")) if r else "-"])
    out = _table(["", "decisions (mean)", "median", "range", "rounds (mean)"], rows, "length")
    if P.plt is not None:
        fig, ax = P.figure()
        for v, recs in records.items():
            ax.hist([x["decisions"] for x in recs if "error" not in x], bins=30, alpha=0.55, label=v)
        ax.set_xlabel("decisions in a game")
        ax.set_ylabel("games")
        ax.legend(fontsize=8)
        out += P.img(fig, "game length: decisions per game")
    return out


def _categories(P: _Plots, runs: dict, records: dict) -> str:
    means: dict = {}
    for v, recs in records.items():
        ok = [x["breakdown"] for x in recs if "error" not in x and x.get("breakdown")]
        players = runs[v]["players"]
        cats = list(dict.fromkeys(k for b in ok for row in b for k in row))
        means[v] = {c: [sum(_n(b[p].get(c)) for b in ok) / len(ok) if ok else None for p in range(players)] for c in cats}
    if not any(means.values()):
        return '<p class="note">No game recorded its scores by category.</p>'
    out = []
    for v, table in means.items():
        players = runs[v]["players"]
        out.append(f"<h3>{_e(v)}</h3>" if len(runs) > 1 else "")
        out.append(_table(["category"] + [f"seat {p}" for p in range(players)],
                          [[c] + [_num(x, 2) for x in xs] for c, xs in table.items()], "categories"))
    if P.plt is not None:
        cats = list(dict.fromkeys(c for t in means.values() for c in t))
        fig, ax = P.figure(max(5.0, 1.2 * len(cats) + 2))
        width = 0.8 / len(means)
        for k, (v, table) in enumerate(means.items()):
            avg = [sum(x for x in table.get(c, [0]) if x is not None) / max(1, len(table.get(c, [0]))) for c in cats]
            ax.bar([i - 0.4 + width * (k + 0.5) for i in range(len(cats))], avg, width, label=v)
        ax.set_xticks(range(len(cats)), cats, rotation=20)
        ax.set_ylabel("mean points per seat")
        ax.legend(fontsize=8)
        out.append(P.img(fig, "scores by category"))
    return "".join(out)


def _n(x) -> float:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else 0.0


def _first(runs: dict) -> str:
    rows = []
    for v, s in runs.items():
        f = s.get("first_player") or {}
        verdict = "an advantage" if f.get("significant") and (f.get("win_rate") or 0) > f.get("expected", 0) else \
            "a disadvantage" if f.get("significant") else "no difference beyond chance"
        rows.append([v, _num(f.get("win_rate")), _ci(f.get("win_rate_ci")), _num(f.get("expected")),
                     fmt_p(f.get("p")), verdict])
    return _table(["", "first player's win rate", "95% interval", "even share", "p", "reading"], rows, "first")


def _fired(coverage: dict) -> str:
    if not coverage:
        return ('<p class="note">Not counted: run with <code>--coverage</code> to see which rules fire '
                "and which never do.</p>")
    out = []
    for v, cov in coverage.items():
        rules = [row for row in cov["probes"] if row["kind"] not in DETECTORS]
        fired = sorted((row for row in rules if row["games"]), key=lambda row: -row["games"])
        out.append(f"<h3>{_e(v)}</h3>" if len(coverage) > 1 else "")
        out.append(f"<p>{len(fired)} of {len(rules)} rules fired in {cov['games']} games; "
                   f"{len(cov['never'])} never did.</p>")
        if cov["never"]:
            out.append(_table(["never fired", "where"], [[row["what"], row.get("loc") or ""] for row in cov["never"]],
                              "never"))
        out.append(_table(["fired", "games", "times"], [[row["what"], row["games"], row["count"]] for row in fired],
                          "fired"))
    return "".join(out)


def _anomalies(runs: dict) -> str:
    rows = [[v, a["kind"], a["message"], a.get("loc") or ""] for v, s in runs.items() for a in s.get("anomalies") or ()]
    return _table(["", "kind", "what", "where"], rows, "anomalies") if rows else "<p>None found.</p>"


def _differences(result: dict) -> str:
    out = []
    base = result["baseline"]
    for v, d in result["differences"].items():
        tests = [(f"win rate seat {p}", t) for p, t in enumerate(d["win_rate"])]
        tests += [("decisions", d["decisions"]), ("winning margin", d["margin"])]
        rows = [[label, _num((t or {}).get("diff")), _ci((t or {}).get("ci")),
                 fmt_p((t or {}).get("p")), "yes" if (t or {}).get("significant") else "no"]
                for label, t in tests]
        out.append(f"<h3>{_e(v)} minus {_e(base)} ({d['pairs']} games on the same seeds)</h3>")
        out.append(_table(["measure", "difference", "95% interval", "p", "significant"], rows, "differences"))
    return "".join(out)


def _fairest(runs: dict) -> str:
    """Which variant's seats are closest to the even share (the largest gap, smallest first)."""
    gaps = []
    for v, s in runs.items():
        names, src = _sides(s)
        gaps.append((max(abs((r or 0) - 1 / len(names)) for r in src["win_rate"]), v))
    gaps.sort()
    return (f"<p>Closest to an even game: <b>{_e(gaps[0][1])}</b> (its seats' win rates are at most "
            f"{_num(gaps[0][0])} from the even share; " + "; ".join(f"{_e(v)} {_num(g)}" for g, v in gaps[1:]) + ").</p>")


def write_report(out: Path, title: str, runs: dict, records: dict, coverage: dict,
                 compared: dict | None = None) -> Path:
    """DIR/report.html for the batches ``runs`` (variant -> summary), their ``records`` and their
    ``coverage`` (variant -> rules_fired report; empty without --coverage); ``compared``: the
    paired differences of ``compare``."""
    P = _Plots()
    parts = [f"<h1>{_e(title)}</h1>"]
    if P.plt is None:
        parts.append('<p class="note">The plots are missing: matplotlib is not installed '
                     "(pip install '.[plots]' in Rulebook's folder).</p>")
    if compared:
        parts += ['<h2 id="verdict">Which is fairer</h2>', _fairest(runs), _differences(compared)]
    parts += ['<h2 id="balance">Seat balance</h2>', _balance(P, runs),
              '<h2 id="length">Game length</h2>', _length(P, runs, records),
              '<h2 id="categories">Scores by category</h2>', _categories(P, runs, records),
              '<h2 id="first">First player</h2>', _first(runs),
              '<h2 id="rules">Rules fired and never fired</h2>', _fired(coverage),
              '<h2 id="anomalies">Anomalies</h2>', _anomalies(runs)]
    page = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{PAGE_STYLE}</style>'
            f"</head><body>{''.join(parts)}</body></html>\n")
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


def open_report(path: Path) -> None:
    """Open the page in the default browser (``--open``)."""
    import webbrowser
    webbrowser.open(path.resolve().as_uri())
