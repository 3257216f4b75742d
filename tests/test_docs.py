"""The examples in the docs are real: every ```yaml block of docs/reference.md loads and plays."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import interpreter
from interpreter.loading.variants import merge
from helpers import write_ruleset

DOCS = Path(__file__).resolve().parent.parent / "docs"
FENCE = re.compile(r"^```yaml( skeleton)?\n(.*?)^```", re.S | re.M)


def blocks(name):
    text = (DOCS / name).read_text()
    found = [(m.group(1) is not None, m.group(2), text[:m.start()].count("\n") + 2) for m in FENCE.finditer(text)]
    skeleton = next(yaml.safe_load(b) for is_skel, b, _ in found if is_skel)
    return skeleton, [(b, line) for is_skel, b, line in found if not is_skel]


SKELETON, EXAMPLES = blocks("reference.md")


@pytest.mark.parametrize("block,line", EXAMPLES, ids=[f"reference.md:{line}" for _, line in EXAMPLES])
def test_reference_example_loads_and_plays(tmp_path, block, line):
    data = yaml.safe_load(block)
    if "game" not in data:
        data = merge(SKELETON, data)
    path = write_ruleset(tmp_path, yaml.safe_dump(data, sort_keys=False), "example.yaml")
    rules = interpreter.load(path)
    for variant in (data.get("variants") or {}):
        interpreter.load(path, variant=variant).new_game(interpreter.load(path, variant=variant).min_players)
    S = rules.new_game(rules.min_players, seed=1)
    for _ in range(500):
        if S.is_terminal():
            break
        S.apply_index(0)
    assert S.is_terminal(), f"the example at reference.md:{line} did not finish in 500 decisions"


FILE_FENCE = re.compile(r"^```yaml file=(\S+)\n(.*?)^```", re.S | re.M)


def test_tutorial_listings_are_the_example_files_and_they_play():
    text = (DOCS / "tutorial.md").read_text()
    listings = FILE_FENCE.findall(text)
    assert len(listings) == 2
    root = DOCS.parent
    for name, body in listings:
        assert (root / name).read_text() == body, f"{name} differs from its listing in tutorial.md"
    base = interpreter.load(root / listings[0][0])
    trumps = interpreter.load(root / listings[1][0])
    assert trumps.resolve_params(4, {})["trump"] == "H" and base.resolve_params(4, {})["trump"] is None
    for rules in (base, trumps):
        S = rules.new_game(4, seed=3)
        while not S.is_terminal():
            S.apply_index(0)
        assert sum(S.c["tricks"]) == 5   # the last round's tricks all went to someone


SCENARIO_FENCE = re.compile(r"^```yaml scenario\n(.*?)^```", re.S | re.M)


def test_reference_scenario_example_passes(tmp_path):
    from interpreter.play.checks.scenarios import run_file
    (block,) = SCENARIO_FENCE.findall((DOCS / "reference.md").read_text())
    (tmp_path / "little_tricks.yaml").write_text((DOCS / "examples" / "little_tricks.yaml").read_text())
    (tmp_path / "s.yaml").write_text(block)
    outcomes = run_file(tmp_path / "s.yaml")
    assert outcomes and all(o.ok for o in outcomes), [o.message for o in outcomes]


def test_the_classics_table_counts_each_files_lines():
    """docs/games.md's table: a row for each bundled ruleset but the seed games, its lines those
    of the file (what wc -l counts)."""
    root = DOCS.parent
    rows = re.findall(r"^\| [^|]+ \| `(rulesets/[a-z_]+\.yaml)` \| [^|]+ \| (\d+) \|", (DOCS / "games.md").read_text(), re.M)
    assert {f: int(n) for f, n in rows} == {f: len((root / f).read_text().splitlines()) for f, _ in rows}
    seeds = {"diamonds", "diams", "mister_diamond", "diamonds_club"}
    assert sorted(f for f, _ in rows) == sorted(f"rulesets/{p.name}" for p in (root / "rulesets").glob("*.yaml")
                                                if p.stem not in seeds)


def test_no_text_file_holds_a_merge_conflicts_markers():
    """A merge left unresolved in a document (which no parser rejects, as it would a module's)."""
    root = DOCS.parent
    marker = re.compile(r"^(<{7} |>{7} |={7}$)", re.M)
    files = [f for d in ("docs", "rulesets", "schemas", "grammars", "interpreter", "tests", "benchmarks")
             for f in (root / d).rglob("*") if f.suffix in (".md", ".yaml", ".yml", ".json", ".lark", ".py", ".txt")]
    files += [root / "README.md", root / "pyproject.toml"]
    assert len(files) > 100
    assert [str(f.relative_to(root)) for f in files if marker.search(f.read_text(errors="replace"))] == []


def test_the_log_bounds_figures_in_the_docs_are_the_ones_the_code_computes():
    # the docs quoted MAX_LINE_VALUES and the values a game's events make as computed before
    # NUMBER_WIDTH grew to 22 (2,548,576, "1,500,000", "7,500,000"): each figure is the code's
    from interpreter.engine.events import NUMBER_WIDTH
    from interpreter.errors import figure
    from interpreter.play.logs import gamelog
    row = next(line for line in (DOCS / "security.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| `MAX_LINE_VALUES`"))
    said = f"more JSON values than the {figure(gamelog.MAX_LINE_VALUES)} of a line"
    assert said in row and said in " ".join((DOCS / "reference.md").read_text(encoding="utf-8").split())
    assert f"| {figure(gamelog.MAX_LINE_VALUES)}; {figure(gamelog.MAX_LOG_VALUES)} |" in row
    assert f"3 values for each {NUMBER_WIDTH} of their size" in row
    for name in ("LINE_EVENT_VALUES", "GAME_EVENT_VALUES", "DECISION_LINES_ROOM"):
        assert f"{figure(getattr(gamelog, name))} (`{name}`" in row, name
