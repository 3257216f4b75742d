"""choose with simultaneous: true: several players choose at once, none seeing the others'
choices until they are revealed together (docs/reference.md "choose")."""
from __future__ import annotations

import json
import random

import pytest

import interpreter
from interpreter.errors import RulesetError
from interpreter.play.logs.redact import Redactor
from interpreter.tools.cli import main
from helpers import write_ruleset

GAME = """
game: sealed_bids
players: {min: 3, max: 3}
counters:
  coins: {owner: player, start: 5}
  wins: {owner: player}
vars:
  bid: "list[int]"
flow:
  - repeat: 2
    steps:
      - choose:
          options: "0..coins"
          as: bid
          prompt: bid
          simultaneous: true
          then: [{lose: {counter: coins, amount: "bid[me]"}}]
      - with_player:
          who: "one(top(players, by: bid[it]))"
          do: [{gain: {counter: wins}}]
scoring:
  categories: {wins: wins, coins: coins}
"""


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    return write_ruleset(tmp_path_factory.mktemp("g"), GAME, "bids.yaml")


@pytest.fixture(scope="module")
def rules(path):
    return interpreter.load(path)


def test_each_seat_chooses_in_turn_and_all_are_revealed_together(rules):
    S = rules.new_game(3, seed=1, record=True)
    for seat, label in ((0, "3"), (1, "1"), (2, "3")):
        assert S.current_player() == seat and S.prompt() == "bid"
        assert S.v["bid"] is None and S.c["coins"] == [5, 5, 5]   # nothing changes until the reveal
        S.apply(label)
    assert S.v["bid"] == [3, 1, 3] and S.c["coins"] == [2, 4, 2]   # then: once per chooser
    assert S.c["wins"] == [0, 0, 0]                                 # a tie: nobody wins the round
    assert [e for e in S.ev if e["ev"] == "reveal"] == [{"ev": "reveal", "var": "bid", "value": [3, 1, 3]}]
    assert S.legal_actions() == ["0", "1", "2"]                      # round 2, seat 0 has 2 coins left


def test_no_seat_can_tell_what_another_chose_before_the_reveal(rules):
    """Whatever seat 0 chose, seat 1 is asked the same question on the same observation."""
    seen = set()
    for label in ("0", "2", "5"):
        S = rules.new_game(3, seed=1)
        S.apply(label)
        obs = S.observation(1)
        seen.add((json.dumps(obs, sort_keys=True), tuple(S.legal_actions()), json.dumps(S.observation(2), sort_keys=True)))
        assert obs["simultaneous"] == {"chosen": [0], "to_choose": [1, 2]}
        assert S.observation(0)["simultaneous"]["my_choice"] == label
    assert len(seen) == 1


def test_a_determinization_does_not_keep_the_other_seats_secret_choices(rules):
    dets = set()
    for label in ("0", "2", "5"):
        S = rules.new_game(3, seed=1, knowledge=True)
        S.apply(label)
        D = S.determinize(1, random.Random(9))
        dets.add(D.to_json())
    assert len(dets) == 1


def test_the_log_hides_each_choice_from_the_others_until_the_reveal(path, tmp_path):
    log = tmp_path / "g.jsonl"
    assert main(["play", str(path), "--players", "3", "--seed", "2", "--log", str(log), "--quiet"]) == 0
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    decisions = [x for x in lines if x["type"] == "decision"]
    assert decisions and all(d["seen_by"] == [] for d in decisions)   # nobody but the chooser (as a private variable)
    assert main(["replay", str(log)]) == 0
    red = Redactor(interpreter.load(path), 1)
    for_1 = [red.line(x) for x in lines]
    shown = [d["action"] for d in for_1 if d.get("type") == "decision"]
    assert all((a == "?") != (d["seat"] == 1) for a, d in zip(shown, decisions))
    reveals = [e for d in for_1 if d.get("type") == "decision" for e in d.get("events", []) if e["ev"] == "reveal"]
    assert len(reveals) == 2   # the values are revealed to every seat, together


def test_compiled_and_reference_flows_agree(rules):
    from test_flowgen import lockstep
    for seed in range(4):
        lockstep(rules, 3, seed)


@pytest.mark.parametrize("change,message", [
    ('bid: "list[int]"', None),
    ('bid: "int"', "variable 'bid' is already a int, not a list[int]"),
    ("simultaneous: true", None),
    ("simultaneous: yes please", "simultaneous is true or false"),
])
def test_declarations_are_checked(tmp_path, change, message):
    text = GAME.replace('bid: "list[int]"', change) if change.startswith("bid") else GAME.replace("simultaneous: true", change)
    p = tmp_path / "g.yaml"
    p.write_text(text)
    if message is None:
        interpreter.load(p)
        return
    with pytest.raises(RulesetError) as info:
        interpreter.load(p)
    assert any(message in d.message for d in info.value.diagnostics)


def test_the_sealed_bids_example_and_its_scenarios():
    """docs/examples/sealed_bids.yaml: a game built on simultaneous choices, with scenarios."""
    from pathlib import Path

    from interpreter.play.checks.scenarios import run_file
    root = Path(__file__).resolve().parent.parent / "docs" / "examples"
    outcomes = run_file(root / "scenarios" / "sealed_bids.yaml")
    assert len(outcomes) == 6 and all(o.ok for o in outcomes), [o.message for o in outcomes if not o.ok]


def test_explain_says_a_choice_is_simultaneous_and_a_counter_a_family(capsys):
    from pathlib import Path

    from interpreter.tools.cli import main as cli
    path = Path(__file__).resolve().parent.parent / "docs" / "examples" / "sealed_bids.yaml"
    assert cli(["explain", str(path)]) == 0
    out = capsys.readouterr().out
    assert "The players each choose, at once and in secret, the bid from" in out
    assert "the choices are revealed together" in out
    assert "| metal | each player | 0 | everyone | one per key: params.metals;" in out   # (a family, in the counters table)


NONE_IN_LIST = """
game: none_in_list
players: {min: 2, max: 2}
components:
  card:
    attributes: {rank: 1..3}
    label: "r{rank}"
zones:
  deck: {start: [card], visible: none}
  hand: {owner: player, visible: owner}
vars:
  bid: "list[card]"
setup:
  - move: {from: deck, to: "hand[0]", count: 2}
flow:
  - choose: {options: hand, as: bid, prompt: bid, simultaneous: true}
  - choose: {who: 0, options: "['end', text(count(bid where it != none))]", as: x, prompt: finish}
"""


def test_a_seat_with_no_card_leaves_none_in_the_list_and_every_reader_shows_it(tmp_path):
    """A list of cards may hold none (none joins any type: docs/language.md): seat 1 has no card to
    choose, so its place in the list revealed is none, which the observation, the table, a log, a
    saved state and a determinization show as none, the generated module and the plain reference alike."""
    from fuzzing.lockstep import reference
    from interpreter.play.display.table import table_of
    from interpreter.play.logs.gamelog import events_out
    rules = interpreter.load(write_ruleset(tmp_path, NONE_IN_LIST, "none_in_list.yaml"))
    for r in (rules, reference(rules)):
        S = r.new_game(2, seed=1, record=True)
        S.apply(S.legal_actions()[0])
        card = S.v["bid"][0]
        assert S.v["bid"] == [card, None] and S.legal_actions() == ["end", "1"]
        label = r.card_labels[card]
        for seat in (0, 1, None):
            assert S.observation(seat)["vars"]["bid"] == [label, None]
        assert table_of(r).render(S, 0)["header"][0]["text"] == f"{label} none"
        assert events_out(r, S.ev)[-1] == {"ev": "reveal", "var": "bid", "value": [label, None]}
        assert r.state_from_json(S.to_json()).observation(1)["vars"]["bid"] == [label, None]
        assert S.determinize(1, random.Random(0)).v["bid"] == [card, None]
