"""docs/tutorial.md runs as written: each section's snippet is the text of its stage's file in
docs/examples/tutorial/ (lines marked ``# ...`` stand for what the snippet leaves out), and
every stage validates and plays at every player count it declares."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import interpreter
from interpreter.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"
SNIPPET = re.compile(r"^```yaml (?:part-of|file)=(\S+)\n(.*?)^```", re.S | re.M)
STAGES = sorted((ROOT / "docs" / "examples" / "tutorial").glob("*.yaml")) + [
    ROOT / "docs/examples/little_tricks.yaml", ROOT / "docs/examples/little_tricks_trumps.yaml"]
WARNED = 2   # the first stages declare the score that section 4 starts using


def snippets() -> list[tuple[str, str]]:
    return SNIPPET.findall(TUTORIAL.read_text())


def is_elision(line: str) -> bool:
    return line.strip().startswith("# ...")


def missing_lines(snippet: str, text: str) -> list[str]:
    """The snippet's lines not found, in order, among the file's (empty when it is the file's
    text with parts left out)."""
    lines, at, missing = text.splitlines(), 0, []
    for line in snippet.splitlines():
        if is_elision(line) or not line.strip():
            continue
        try:
            at = lines.index(line, at) + 1
        except ValueError:
            missing.append(line)
    return missing


def test_every_stage_of_the_tutorial_has_its_file_and_every_snippet_names_one():
    named = {ROOT / name for name, _ in snippets()}
    assert named == set(STAGES), "every stage file is shown in the tutorial, and every snippet is in a file"
    assert len(snippets()) >= 6


@pytest.mark.parametrize("name,body", snippets(), ids=[f"{n}#{i}" for i, (n, _) in enumerate(snippets())])
def test_each_snippet_is_the_text_of_its_file(name, body):
    assert missing_lines(body, (ROOT / name).read_text()) == []


def test_a_drifted_snippet_is_caught():
    name, body = snippets()[1]
    assert missing_lines(body.replace("count: 5", "count: 6"), (ROOT / name).read_text()) == [
        "  - deal: {from: deck, to: hand, count: 6}"]


@pytest.mark.parametrize("stage", STAGES, ids=[s.stem for s in STAGES])
def test_each_stage_validates_and_plays_at_every_count_it_declares(stage, cli):
    strict = ["--strict"] if stage not in STAGES[:WARNED] else []
    code, out, err = cli("validate", str(stage), "--playouts", "3", *strict)
    assert code == 0, out + err
    rules = interpreter.load(stage)
    for n in rules.player_counts:
        S = rules.new_game(n, seed=n)
        while not S.is_terminal():
            S.apply_index(0)


def test_stages_before_the_bids_warn_only_of_the_score_not_yet_used(cli):
    for stage in STAGES[:WARNED]:
        code, out, err = cli("validate", str(stage))
        assert code == 0 and out.strip().endswith("ok, 1 warning")
        assert "counter 'score' is declared but never used" in err


def test_the_typo_the_tutorial_shows_gets_the_hint_it_promises(cli, tmp_path):
    text = (ROOT / "docs/examples/tutorial/4_bids.yaml").read_text()
    path = tmp_path / "typo.yaml"
    path.write_text(text.replace("amount: tricks}", "amount: trick}"))
    code, _, err = cli("validate", str(path))
    assert code == 1 and "did you mean 'tricks'?" in err


def test_the_game_serves_only_the_counts_its_deck_can_deal(cli):
    rules = interpreter.load(STAGES[-2])
    cards = len(rules.card_labels)
    hand = rules.resolve_params(rules.max_players, {})["hand_size"]
    assert rules.max_players * hand <= cards < (rules.max_players + 1) * hand
    assert main(["play", str(STAGES[-2]), "--players", str(rules.max_players + 1)]) == 2


def test_every_name_a_stage_declares_is_shown_by_its_section_or_an_earlier_one():
    """A reader who adds each section's snippet to the last stage never meets a name that only
    a later section declares (the hint for an undeclared name would point elsewhere)."""
    import yaml
    shown = ""
    for name, body in snippets():
        shown += body
        data = yaml.safe_load((ROOT / name).read_text())
        if "extends" in data:
            continue
        for section in ("params", "vars", "counters", "zones"):
            for declared in data.get(section) or {}:
                assert re.search(rf"^\s+{declared}:", shown, re.M), f"{name}: {section}.{declared} is not shown yet"
