"""rulebook diff BASE VARIANT: what a variant changes, rule by rule."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter.tools.cli import main
from interpreter.tools.diff import diff, show
from interpreter.errors import RulesetError

ROOT = Path(__file__).resolve().parent.parent
DIAMONDS = ROOT / "rulesets" / "diamonds.yaml"


def changes(path, variant):
    return [(c.path, c.change, c.before, c.after) for c in diff(path, variant)[0]]


def test_two_player_changes_players_and_plays_per_trick():
    assert changes(DIAMONDS, "two_player") == [
        ("players", "changed", {"min": 3, "max": 6}, {"min": 2, "max": 2}),
        ("params.plays_per_trick.default", "changed", 1, 2),
    ]
    assert diff(DIAMONDS, "two_player")[1].startswith("DI-8")


def test_teams_changes_a_define_and_adds_teams():
    got = changes(DIAMONDS, "teams")
    assert ("define.pass_target", "changed", "left(me)", "partner(me)") in got
    assert ("params.start_showroom.default", "changed", 3, 6) in got
    assert ("players.min", "changed", 3, 4) in got
    [teams] = [c for c in got if c[0] == "teams"]
    assert teams[1] == "added" and teams[3]["by_players"]["4"] == [[0, 2], [1, 3]]
    assert len(got) == 4


def test_text_output(capsys):
    assert main(["diff", "diamonds", "two_player"]) == 0
    assert capsys.readouterr().out == (
        "diamonds -> variant two_player\n"
        "  DI-8: two players, each plays two cards per trick (leader, other, leader, other).\n"
        "  ~ players: {min: 3, max: 6} -> {min: 2, max: 2}\n"
        "  ~ params.plays_per_trick.default: 1 -> 2\n"
        "2 changes\n")


def test_json_output(capsys):
    assert main(["diff", str(DIAMONDS), "teams", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {"path": "define.pass_target", "change": "changed", "before": "left(me)",
            "after": "partner(me)"} in rows
    assert all(set(r) == {"path", "change", "before", "after"} for r in rows)


VARIANT_FILE = """\
extends: diamonds.yaml
define:
  pass_target: "right(me)"
params:
  pass_options: [1, 2]
  majority_order: {$remove: true}
flow:
  - repeat: params.rounds
    as: round
    steps:
      - phase: deal
        steps:
          - set: {thief: "left(start_player)"}
          - reset: [tricks_won]
          - gather: {from: [hand, taken, table], to: deck}
          - shuffle: deck
          - deal: {from: deck, to: hand, count: params.hand_size}
      - phase: tricks
        steps:
          - tricks: {hand: hand, table: table, leader: start_player, follow: suit, rank: rank, collect: taken}
"""


@pytest.fixture
def variant_file(tmp_path):
    shutil.copy(DIAMONDS, tmp_path / "diamonds.yaml")
    path = tmp_path / "no_passing.yaml"
    path.write_text(VARIANT_FILE, encoding="utf-8")
    return tmp_path / "diamonds.yaml", path


def test_a_variant_file_steps_aligned_by_kind(variant_file):
    base, variant = variant_file
    got = diff(base, str(variant))[0]
    by_path = {c.path: c for c in got}
    assert by_path["params.pass_options"].after == [1, 2]
    assert by_path["params.majority_order"].change == "removed"
    assert by_path["define.pass_target"].after == "right(me)"
    # the pass phase and the end of round are removed; the tricks phase is matched, not replaced
    assert by_path["flow[0].steps[1]"].change == "removed"
    assert by_path["flow[0].steps[1]"].where == "repeat > phase pass"
    assert by_path["flow[0].steps[3]"].change == "removed"
    plays = by_path["flow[0].steps[2].steps[0].tricks.plays"]
    assert plays.change == "removed" and plays.where == "repeat > phase tricks > tricks"
    assert not any(c.path.startswith("flow[0].steps[0]") for c in got)   # the deal phase is unchanged


def test_cli_with_a_variant_file(variant_file, capsys):
    base, variant = variant_file
    assert main(["diff", str(base), str(variant)]) == 0
    out = capsys.readouterr().out
    assert "  ~ define.pass_target: left(me) -> right(me)\n" in out
    assert "  - flow[0].steps[1]: {phase: pass, steps: [{choose:" in out and "(repeat > phase pass)" in out


def test_no_change_and_unknown_variant(tmp_path, capsys):
    path = tmp_path / "g.yaml"
    path.write_text("game: g\nplayers: {min: 2, max: 2}\nflow: []\nvariants:\n  same: {description: nothing}\n")
    assert diff(path, "same")[0] == []
    assert main(["diff", str(path), "same"]) == 0
    assert "no change" in capsys.readouterr().out
    with pytest.raises(RulesetError):
        diff(path, "other")
    assert main(["diff", str(path), "other"]) == 1


def test_show_is_flow_style_and_short():
    assert show({"min": 2, "max": [1, None, True]}) == "{min: 2, max: [1, null, true]}"
    assert show("  left(me)\n") == "left(me)" and show("") == "''"
    assert len(show(list(range(500)))) == 90
