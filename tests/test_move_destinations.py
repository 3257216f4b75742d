"""A move's from/to may be a choice of zones, `A if CONDITION else B`, checked at load."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.errors import RulesetError
from helpers import write_ruleset

GAME = """
game: mv
players: {min: 2, max: 2}
components:
  cards: {attributes: {suit: [A, B], rank: 1..3}, label: "{rank}{suit}"}
zones:
  deck: {owner: none, visible: all, start: [cards]}
  hand: {owner: player, visible: owner}
  red: {owner: none, visible: all}
  black: {owner: none, visible: all}
vars:
  c: card
flow:
  - turns:
      rounds: 3
      steps:
        - choose: {options: deck, as: c, prompt: pick}
        - move: {from: %s, to: %s, cards: "[c]"}
scoring:
  categories: {n: "count(hand)"}
"""
TO = "\"red if c.suit == 'A' else (hand if c.rank > 2 else black)\""


def load(tmp_path, src="deck", dst=TO):
    path = write_ruleset(tmp_path, GAME % (src, dst), "g.yaml")
    return interpreter.load(path), path


@pytest.mark.parametrize("label,zone", [("1A", "red"), ("3A", "red"), ("3B", "hand"), ("2B", "black")])
def test_the_condition_picks_the_zone(tmp_path, label, zone):
    rules, _ = load(tmp_path)
    S = rules.new_game(2, seed=1, record=True)
    S.apply(label)
    card = rules.card_labels.index(label)
    held = S.z[zone][0] if zone == "hand" else S.z[zone]
    assert card in held and card not in S.z["deck"]
    [move] = [e for e in S.ev if e["ev"] == "move"]
    assert move["to"] == zone


def test_a_choice_of_sources(tmp_path):
    rules, _ = load(tmp_path, src="\"deck if count(deck) > 3 else hand\"", dst="red")
    S = rules.new_game(2, seed=1)
    S.apply("1A")
    assert rules.card_labels.index("1A") in S.z["red"]


def test_compiled_and_reference_flows_agree(tmp_path):
    from test_flowgen import lockstep
    rules, _ = load(tmp_path)
    for seed in range(3):
        lockstep(rules, 2, seed)


@pytest.mark.parametrize("dst,message,at", [
    ("\"red if c.suit == 'A' else (hnad if c.rank > 2 else black)\"", "unknown zone 'hnad'", "hnad"),
    ("\"red if c.rank + 2 else black\"", "expected a condition (true/false), got int", "c.rank + 2"),
    ("\"red if c.suit == 'A' else count(deck)\"", "expected a zone (NAME, NAME[player] or player.NAME)", "count"),
])
def test_every_branch_is_checked_at_load_and_located(tmp_path, dst, message, at):
    with pytest.raises(RulesetError) as info:
        load(tmp_path, dst=dst)
    d = info.value.diagnostics[0]
    line = (GAME % ("deck", dst)).splitlines()[d.loc.line - 1]
    assert d.message == message and line[d.loc.col - 1:].startswith(at)
