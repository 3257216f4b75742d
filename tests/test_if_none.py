"""A choice with no option does what its step says (if_none: skip, pass, end_game), and
validate --playouts reports a choice skipped for lack of options that says nothing."""
from __future__ import annotations

import pytest

from interpreter.errors import RulesetError
from interpreter.tools.cli import main
from helpers import load_text

GAME = """
game: if_none
players: {min: 2, max: 2}
components:
  cards: {attributes: {rank: 1..4}}
zones:
  deck: {owner: none, visible: all, start: [cards]}
  pile: {owner: none, visible: all}
counters:
  points: {owner: player}
vars:
  x: {type: int, start: 7}
  c: card
flow:
  - choose: {who: 0, options: "[1, 2]", as: x, prompt: first}
  - choose: {who: 1, options: "[]", as: x, prompt: empty%s}
  - pick: {who: 0, from: pile, to: deck, count: 1, prompt: take%s}
  - branch:
      who: 1
      prompt: act
      options:
        never: {if: "count(pile) > 0", steps: []}%s
  - gain: {counter: "points[0]", amount: 3}
scoring:
  categories: {points: points}
"""


def load(tmp_path, choose="", pick="", branch=""):
    return load_text(tmp_path, GAME % (choose, pick, branch), "g.yaml")


def test_skip_is_the_default_and_keeps_the_variable(tmp_path):
    S = load(tmp_path).new_game(2, seed=1)
    S.apply("2")
    assert S.is_terminal() and S.v["x"] == 2 and S.c["points"] == [3, 0]


def test_pass_sets_the_variable_to_none(tmp_path):
    S = load(tmp_path, choose=", if_none: pass").new_game(2, seed=1)
    S.apply("2")
    assert S.is_terminal() and S.v["x"] is None and S.c["points"] == [3, 0]


@pytest.mark.parametrize("where", ["choose", "pick", "branch"])
def test_end_game_ends_the_game_at_once_scored_as_it_stands(tmp_path, where):
    rules = load(tmp_path, **{where: ", if_none: end_game" if where != "branch" else "\n      if_none: end_game"})
    S = rules.new_game(2, seed=1, record=True)
    S.apply("1")
    assert S.is_terminal() and S.c["points"] == [0, 0]     # the gain after the choices never ran
    assert S.ev[-1] == {"ev": "end_game"}
    assert S.winners() == [0, 1]


def test_a_wrong_value_is_a_located_error(tmp_path):
    with pytest.raises(RulesetError) as info:
        load(tmp_path, choose=", if_none: stop")
    assert "if_none is one of skip, pass, end_game, got 'stop'" in info.value.message


def test_validate_reports_the_choices_skipped_without_if_none(tmp_path, capsys):
    load(tmp_path)
    path = str(tmp_path / "g.yaml")
    assert main(["validate", path, "--playouts", "5"]) == 0
    err = capsys.readouterr().err
    for prompt in ("choose 'empty'", "pick 'take'", "branch 'act'"):
        assert f"warning[no_option]: 2 players: {prompt} had no option in 5 of 5 games (5 times)" in err
    assert "choose 'first'" not in err


def test_an_explicit_if_none_is_not_reported(tmp_path, capsys):
    load(tmp_path, choose=", if_none: skip", pick=", if_none: skip", branch="\n      if_none: skip")
    assert main(["validate", str(tmp_path / "g.yaml"), "--playouts", "5"]) == 0
    assert "no_option" not in capsys.readouterr().err
