"""A determinized world's recounts (each step's ``hidden_values``, a when-trigger's value asked
again: engine/knowledge.py ``_dealt``) read the world's own deal: the record of each card's
zone (``x in zone``) and a sorted zone's order are the world's, made before any expression runs
on it. In the generated module and the plain reference alike."""
from __future__ import annotations

import random

from fuzzing.lockstep import reference
from helpers import load_text

STASH = """
game: stashed
players: {min: 2, max: 2}
counters:
  gold: {owner: player, start: 40}
  joker: {owner: player, start: 40}
  points: {start: 0}
vars:
  pc: card
components:
  chip: {attributes: {n: 1..30}, label: "c{n}"}
zones:
  deck: {visible: none, start: [chip]}
  stash: {visible: none}
  hand: {owner: player, visible: owner, sorted: true}
triggers:
  seen:
    when: "pc in stash"
    do: [{gain: {counter: points}}]
setup:
  - shuffle: deck
  - move: {from: deck, to: stash, count: 10}
  - deal: {from: deck, to: hand, count: 8}
  - set: {pc: "first((deck + stash) where n == 1)"}
flow:
  - pay: {who: 0, costs: {gold: "COST"}, joker: joker}
  - choose: {who: 1, options: "[1, 2]", as: g, prompt: after}
scoring:
  categories:
    g: gold
"""


def _both(tmp_path, cost: str) -> list:
    rules = load_text(tmp_path, STASH.replace("COST", cost))
    return [rules, reference(rules)]


def _worlds(S, seat: int, k: int = 8) -> list:
    return [S.determinize(seat, random.Random(i)) for i in range(k)]


def test_a_recount_reading_where_a_card_lies_reads_the_worlds_deal(tmp_path):
    # `pc in stash` is answered from the record of each card's zone: seat 1's worlds deal the
    # stash again, and each owes what its own stash makes
    for rules in _both(tmp_path, "1 if pc in stash else 2"):
        owed = set()
        for seed in range(3):
            S = rules.new_game(2, seed, knowledge=True)
            for D in _worlds(S, 1):
                assert D.stack[-1][2][0] == (1 if D.v["pc"] in D.z["stash"] else 2)
                owed.add(D.stack[-1][2][0])
        assert owed == {1, 2}


def test_a_when_triggers_value_asked_again_reads_the_worlds_record(tmp_path):
    # seat 0's own question pending (its worlds ask nothing again), the stash hidden from it
    for rules in _both(tmp_path, "1"):
        key = rules.triggers.when[0][4]
        seen = set()
        for seed in range(3):
            S = rules.new_game(2, seed, knowledge=True)
            for D in _worlds(S, 0):
                assert D.v[key] == (D.v["pc"] in D.z["stash"])
                seen.add(D.v[key])
        assert seen == {True, False}


def test_a_recount_reading_a_sorted_zone_reads_it_in_order(tmp_path):
    for rules in _both(tmp_path, "1 + first(hand[0]).n"):
        for seed in range(3):
            S = rules.new_game(2, seed, knowledge=True)
            for D in _worlds(S, 1):
                hand = D.z["hand"][0]
                assert hand == sorted(hand)
                assert D.stack[-1][2][0] == 1 + int(D.rules.card_labels[hand[0]][1:])
