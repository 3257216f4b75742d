"""The table speaks the ruleset's words (play/display/words.py): a title: for a zone, counter or
variable, else its name with spaces; what no seat ever sees and bookkeeping flags left out,
unless the view: hints name them."""
from __future__ import annotations

from pathlib import Path

import pytest

import interpreter
from interpreter.play.display.table import Table
from interpreter.play.display.terminal import render
from helpers import write_ruleset

SMALL = """\
game: small
players: {min: 2, max: 2}
components:
  cards: {attributes: {rank: 1..6}, label: "{rank}"}
zones:
  box:   {start: [cards], visible: none}
  hand:  {owner: player, visible: owner, title: cards in hand, doc: what you hold}
counters:
  victory_points: {owner: player}
  gold: {owner: player, title: gold pieces}
vars:
  done: bool
  pick: {type: int, title: last pick}
flow:
  - deal: {from: box, to: hand, count: 2}
  - choose: {who: 0, options: "[1, 2]", as: pick, prompt: pick}
  - set: {done: "pick > 1"}
  - gain: {counter: "victory_points[0]", amount: pick}
  - gain: {counter: "gold[1]", amount: 1}
  - choose: {who: 1, options: "[1, 2]", as: pick, prompt: pick}
scoring:
  categories: {points: victory_points, gold: gold}
"""


def table_at(text, tmp_path, decisions=1, seat=0):
    rules = interpreter.load(write_ruleset(tmp_path, text, "small.yaml"))
    S = rules.new_game(2, seed=1)
    for _ in range(decisions):
        S.apply_index(1)
    return Table(rules).render(S, seat)


def titles(table) -> dict:
    items = [*table["shared"], *(i for s in table["seats"] for i in s["items"])]
    return {i["name"]: i["title"] for i in items}


def test_titles_come_from_the_ruleset_else_the_name_with_spaces(tmp_path):
    table = table_at(SMALL, tmp_path)
    assert titles(table) == {"hand": "cards in hand", "victory_points": "victory points", "gold": "gold pieces"}
    text = render(table)
    assert "cards in hand: " in text and "victory points 2" in text and "gold pieces 1" in text
    assert [h["title"] for h in table["header"]] == ["last pick"]
    hand = next(i for i in table["seats"][0]["items"] if i["name"] == "hand")
    assert hand["doc"] == "what you hold" and "doc" not in next(i for i in table["seats"][0]["items"] if i["name"] == "gold")


def test_a_zone_nobody_sees_and_a_flag_are_left_out_unless_the_view_names_them(tmp_path):
    table = table_at(SMALL, tmp_path)
    assert "box" not in titles(table) and "done" not in table["vars"]
    shown = SMALL + "view: {order: [box], vars: [done, pick]}\n"
    table = table_at(shown, tmp_path)
    assert titles(table)["box"] == "box" and [h["text"] for h in table["header"]] == ["yes", "2"]


def test_a_seat_valued_variable_reads_as_a_seat(tmp_path):
    text = SMALL.replace("  pick: {type: int, title: last pick}", "  pick: {type: int, title: last pick}\n"
                         "  leader: {type: player, start: 1}")
    assert {h["name"]: h["text"] for h in table_at(text, tmp_path, seat=1)["header"]}["leader"] == "you"
    assert {h["name"]: h["text"] for h in table_at(text, tmp_path, seat=0)["header"]}["leader"] == "seat 1"


BUNDLED = sorted(p.stem for p in (Path(interpreter.__file__).parent.parent / "rulesets").glob("*.yaml"))


@pytest.mark.parametrize("name", BUNDLED)
def test_no_bundled_game_shows_an_engine_name(name):
    """Every word at the table reads as the ruleset's: no name with underscores, and a variable
    shown is one the ruleset chose to show (``view: vars``) or gave a title."""
    rules = interpreter.load(name)
    S = rules.new_game(rules.min_players, seed=2)
    table = Table(rules)
    chosen = set((rules.data.get("view") or {}).get("vars") or ())
    declared = {n: d for n, d in (rules.data.get("vars") or {}).items() if isinstance(d, dict) and d.get("title")}
    for _ in range(60):
        if S.is_terminal():
            break
        shown = table.render(S, 0)
        words = [*titles(shown).values(), *(h["title"] for h in shown["header"])]
        assert not [w for w in words if "_" in w], words
        assert not [h["name"] for h in shown["header"] if h["name"] not in chosen and h["name"] not in declared]
        S.apply_index(0)


@pytest.mark.parametrize("name", BUNDLED)
def test_every_zone_and_counter_a_bundled_game_draws_has_a_title(name):
    """A zone or counter the table may draw (one not hidden: play/display/words.py) reads as the
    rulebook's words, given by its ``title:``, never as its name (``lot``, ``out``, ``line``)."""
    from interpreter.play.display.words import words_of
    rules = interpreter.load(name)
    hidden = words_of(rules).hidden
    untitled = [n for section in ("zones", "counters") for n, d in (rules.data.get(section) or {}).items()
                if n not in hidden and not (isinstance(d, dict) and str(d.get("title") or "").strip())]
    assert not untitled, f"{name}: drawn without a title: {untitled}"


def test_what_a_running_step_holds_is_drawn_only_when_it_holds_something():
    rules = interpreter.load("diamonds")
    S = rules.new_game(4, seed=3)
    while S.prompt() != "pass":
        S.apply_index(len(S.legal_actions()) - 1)   # three cards to pass
    seat = S.current_player()
    running = Table(rules).render(S, seat)["running"]
    assert not [r for r in running if r["name"] == "passing"]   # none put aside yet
    S.apply_index(0)
    [passing] = [r for r in Table(rules).render(S, seat)["running"] if r["name"] == "passing"]
    assert len(passing["value"]) == 1 and passing["title"] == "passing"
