"""The designer's report: ``simulate --out`` and ``compare --out`` write report.html, one page
with seat balance (intervals), game length, scores by category, the first player's advantage,
the rules that fired and never did, and the anomalies, its plots embedded. Read by parsing the
page and checking its figures against the files the run wrote."""
from __future__ import annotations

import base64
import json
from html.parser import HTMLParser

import pytest

SECTIONS = ["balance", "length", "categories", "first", "rules", "anomalies"]


class Page(HTMLParser):
    """The page's section ids, its tables (by class: rows of cell texts) and its images."""

    def __init__(self, text: str):
        super().__init__()
        self.ids, self.tables, self.images = [], {}, []
        self._table = self._row = self._cell = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "h2":
            self.ids.append(a.get("id"))
        elif tag == "table":
            self._table = self.tables.setdefault(a.get("class") or "", [])
        elif tag == "tr" and self._table is not None:
            self._row = []
            self._table.append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""
        elif tag == "img":
            self.images.append(a["src"])

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell)
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def png(src: str) -> bytes:
    head, data = src.split(",", 1)
    assert head == "data:image/png;base64"
    return base64.b64decode(data)


def test_simulate_writes_one_page_a_designer_reads(cli, tmp_path):
    pytest.importorskip("matplotlib", reason="the plots extra (pip install '.[plots]') is not installed")
    out = tmp_path / "run"
    code, stdout, err = cli("simulate", "diamonds", "--players", 4, "--games", 12, "--set", "rounds=1",
                            "--workers", 1, "--coverage", "--out", out)
    assert code == 0, err
    assert stdout.strip().endswith("report.html")
    page = Page((out / "report.html").read_text())
    assert page.ids == SECTIONS
    assert len(page.images) == 3 and all(png(src)[:8] == b"\x89PNG\r\n\x1a\n" for src in page.images)
    summary = json.loads((out / "summary.json").read_text())
    balance = page.tables["balance"][1:]
    assert [row[0] for row in balance] == [f"seat {p}" for p in range(4)]
    assert [float(row[1]) for row in balance] == pytest.approx(summary["win_rate"], abs=1e-3)
    lo, hi = balance[0][2].split(" to ")
    assert float(lo) == pytest.approx(summary["win_rate_ci"][0][0], abs=1e-3)
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    safe = next(row for row in page.tables["categories"] if row[0] == "safe")
    assert float(safe[1]) == pytest.approx(sum(r["breakdown"][0]["safe"] for r in records) / 12, abs=0.01)
    length = page.tables["length"][1]
    assert float(length[1]) == pytest.approx(summary["decisions"]["mean"], abs=1e-3)
    assert page.tables["first"][1][1] == f"{summary['first_player']['win_rate']:.3f}".rstrip("0").rstrip(".")
    coverage = json.loads((out / "coverage.json").read_text())
    fired = page.tables["fired"][1:]
    assert {row[0] for row in fired} == {r["what"] for r in coverage["probes"] if r["games"] and
                                         r["kind"] not in ("ran_out", "no_option")}
    assert [row[0] for row in page.tables.get("never", [[]])[1:]] == [r["what"] for r in coverage["never"]]


def test_without_coverage_the_page_says_how_to_count_the_rules(cli, tmp_path, monkeypatch):
    from interpreter.tools import designer
    monkeypatch.setattr(designer._Plots, "__init__", lambda self: setattr(self, "plt", None))   # no matplotlib
    out = tmp_path / "run"
    assert cli("simulate", "diamonds", "--players", 3, "--games", 4, "--set", "rounds=1", "--workers", 1,
               "--out", out)[0] == 0
    text = (out / "report.html").read_text()
    assert "run with <code>--coverage</code>" in text and "The plots are missing" in text
    assert Page(text).images == []


def test_compare_writes_one_page_with_each_variant_and_which_is_fairer(cli, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib", reason="the plots extra (pip install '.[plots]') is not installed")
    opened = []
    monkeypatch.setattr("webbrowser.open", opened.append)
    out = tmp_path / "cmp"
    code, stdout, err = cli("compare", "diamonds", "--variants", "base,teams", "--players", 4, "--games", 8,
                            "--set", "rounds=1", "--workers", 1, "--coverage", "--out", out, "--open")
    assert code == 0, err
    assert "base:\ncoverage: " in stdout and "teams:\ncoverage: " in stdout   # --coverage is reported
    page = Page((out / "report.html").read_text())
    assert page.ids == ["verdict", *SECTIONS]
    result = json.loads((out / "compare.json").read_text())
    diffs = page.tables["differences"][1:]
    assert [row[0] for row in diffs][:4] == [f"win rate seat {p}" for p in range(4)]
    assert float(diffs[0][1]) == pytest.approx(result["differences"]["teams"]["win_rate"][0]["diff"], abs=1e-3)
    assert len(page.tables["length"]) == 3   # a row per variant
    assert opened == [(out / "report.html").resolve().as_uri()]
    assert result["coverage"]["teams"]["games"] == 8


def test_open_needs_out(cli):
    code, _, err = cli("simulate", "diamonds", "--players", 3, "--games", 2, "--open")
    assert code == 2 and "--open opens the report" in err
