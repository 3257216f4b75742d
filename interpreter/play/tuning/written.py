"""What a study writes: the best variant as an overlay, summary.json, and report.html (one page:
the verdict, the best trial against the base on fresh seeds, the history, each parameter
against the loss), with matplotlib's plots inside the page as images."""
from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path

import yaml

from .space import overlay


def write_overlay(path: Path, rules, decls: dict, result: dict, base_name: str | None) -> None:
    """best.yaml: the best parameters as a variant overlay. ``base_name``: a bundled ruleset's
    name, written as ``extends:`` (a file outside the folder cannot be extended: the overlay is
    then applied with ``--variant``)."""
    c = result["confirmation"]
    head = [f"# rulebook tune: the best of {result['trials']} trials of {rules.name} for "
            f"{', '.join(result['objectives'])} ({result['players']} players, agents {result['agents']}).",
            f"# On {c['games']} fresh games: loss {c['best']['loss']:.4f} against the base game's {c['base']['loss']:.4f}"
            + ("; better, the interval of the difference above 0." if c["beats_base"]
               else "; not shown better than the base game.")]
    data: dict = {}
    if base_name:
        data["extends"] = base_name
    data.update(overlay(decls, result["best"]["params"], result["players"]))
    path.write_text("\n".join(head) + "\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def plots(result: dict) -> dict[str, str]:
    """name -> image (data URI); empty without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return {}
    done = [h for h in result["history"] if h["state"] == "complete" and h["loss"] is not None]
    out = {}
    fig, ax = plt.subplots(figsize=(6, 3))
    xs = [h["number"] for h in done]
    ys = [h["loss"] for h in done]
    best, so_far = float("inf"), []
    for y in ys:
        best = min(best, y)
        so_far.append(best)
    ax.plot(xs, ys, "o", alpha=0.6, label="trial")
    ax.plot(xs, so_far, "-", label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("loss")
    ax.legend()
    out["history"] = _png(fig)
    for name in result["space"]:
        pts = [(h["values"].get(name), h["loss"]) for h in done if name in h["values"]]
        if not pts:
            continue
        fig, ax = plt.subplots(figsize=(4, 3))
        labels = [json.dumps(v) if not isinstance(v, (int, float)) or isinstance(v, bool) else v for v, _ in pts]
        if all(isinstance(v, (int, float)) for v in labels):
            ax.plot(labels, [y for _, y in pts], "o", alpha=0.6)
        else:
            kinds = sorted(set(map(str, labels)))
            ax.plot([kinds.index(str(v)) for v in labels], [y for _, y in pts], "o", alpha=0.6)
            ax.set_xticks(range(len(kinds)), kinds, rotation=30, fontsize=7)
        ax.set_xlabel(name)
        ax.set_ylabel("loss")
        out[f"param {name}"] = _png(fig)
    c = result["confirmation"]
    fig, ax = plt.subplots(figsize=(5, 3))
    players = result["players"]
    for k, (which, colour) in enumerate((("base", "tab:gray"), ("best", "tab:blue"))):
        rates = c[which]["summary"]["win_rate"]
        cis = c[which]["summary"]["win_rate_ci"]
        xs = [p + (k - 0.5) * 0.35 for p in range(players)]
        err = [[r - lo for r, (lo, _) in zip(rates, cis)], [hi - r for r, (_, hi) in zip(rates, cis)]]
        ax.bar(xs, rates, width=0.35, yerr=err, color=colour, label=which, capsize=3)
    ax.axhline(1 / players, color="k", lw=0.8, ls="--")
    ax.set_xticks(range(players), [f"seat {p}" for p in range(players)])
    ax.set_ylabel("win share (95% CI)")
    ax.legend()
    out["balance"] = _png(fig)
    return out


def _fmt(x) -> str:
    if isinstance(x, float):
        return f"{x:.4f}"
    return html.escape(json.dumps(x) if not isinstance(x, str) else x)


def page(result: dict) -> str:
    """report.html's text."""
    c = result["confirmation"]
    images = plots(result)
    diff = c["difference"]
    verdict = ("The best variant beats the base game on fresh seeds." if c["beats_base"]
               else "No variant was shown better than the base game on fresh seeds.")
    rows = "".join(f"<tr><td>{html.escape(str(k))}</td><td>{_fmt(v)}</td><td>{_fmt(result['base'].get(k.split('.')[0]))}</td></tr>"
                   for k, v in result["best"]["params"].items())
    parts = "".join(f"<tr><td>{html.escape(k)}</td><td>{_fmt(c['base']['parts'][k])}</td><td>{_fmt(v)}</td></tr>"
                    for k, v in c["best"]["parts"].items())
    history = "".join(
        f"<tr><td>{h['number']}</td><td>{h['state']}</td><td>{_fmt(h['loss']) if h['loss'] is not None else ''}</td>"
        f"<td>{html.escape(json.dumps(h['values']))}</td></tr>" for h in result["history"])
    pics = "".join(f"<figure><img alt='{html.escape(k)}' src='{v}'><figcaption>{html.escape(k)}</figcaption></figure>"
                   for k, v in images.items())
    ci = lambda x: "" if not x else f" (95% CI {x[0]:.4f} to {x[1]:.4f})"  # noqa: E731
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tuning {html.escape(result['ruleset'])}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:.2rem .5rem}}figure{{display:inline-block;margin:.5rem}}img{{max-width:100%}}</style>
</head><body>
<h1>Tuning {html.escape(result['ruleset'])}</h1>
<p id="setup">{result['players']} players, agents {html.escape(result['agents'])}; objective
{html.escape(' + '.join(result['objectives']))}; {result['trials']} trials ({result['completed']} completed,
{result['pruned']} pruned) of {result['games']} games on common seeds (batch seed {result['seed']}).</p>
<h2>Verdict</h2>
<p id="verdict">{verdict} On {c['games']} fresh games (batch seed {c['seed']}): the best variant's loss
{c['best']['loss']:.4f}{ci(c['best']['ci'])}, the base game's {c['base']['loss']:.4f}{ci(c['base']['ci'])};
the difference (base minus best) {diff['diff'] if diff else float('nan'):.4f}{ci(diff['ci'] if diff else None)}.</p>
<h2>Best variant (trial {result['best']['number']})</h2>
<table id="best"><tr><th>parameter</th><th>best</th><th>base</th></tr>{rows}</table>
<p>The designer's page of the confirmation (seat balance, game length, scores by category, the
first player, both side by side): <a href="confirmation/report.html">confirmation/report.html</a>.</p>
<h2>Objectives on fresh seeds</h2>
<table id="parts"><tr><th>objective</th><th>base</th><th>best</th></tr>{parts}</table>
<h2>Plots</h2>{pics or '<p>(matplotlib is not installed: no plots)</p>'}
<h2>History</h2>
<table id="history"><tr><th>trial</th><th>state</th><th>loss</th><th>values</th></tr>{history}</table>
</body></html>
"""


def write(out: Path, rules, decls: dict, result: dict, base_name: str | None) -> list[Path]:
    paths = [out / "best.yaml", out / "summary.json", out / "report.html"]
    write_overlay(paths[0], rules, decls, result, base_name)
    paths[1].write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    paths[2].write_text(page(result), encoding="utf-8")
    return paths
