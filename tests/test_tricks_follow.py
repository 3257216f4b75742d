"""tricks: following in a hand kept in card order. When every value of the follow attribute is
one run of card numbers, the generated flow finds the cards that follow by bisection (a
slice of the hand); otherwise it filters. Both must offer exactly the cards that follow."""
from __future__ import annotations

import random

import pytest

from helpers import load_text

GAME = """
game: follow_check
players: {min: 3, max: 3}
components:
  cards: CARDS
zones:
  deck: {owner: none, visible: none, start: [cards]}
  hand: {owner: player, visible: owner, sorted: SORTED}
  table: {owner: none, visible: all}
  taken: {owner: player, visible: all}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 5}
flow:
  - tricks: {hand: hand, table: table, collect: taken, leader: 0, follow: suit, rank: rank}
scoring:
  categories: {tricks: "count(taken)"}
"""
RUNS = '{attributes: {suit: [C, D, H], rank: 2..6}, label: "{rank}{suit}"}'
INTERLEAVED = ('{label: "{rank}{suit}", cards: [' + ", ".join(
    f"{{suit: {s}, rank: {r}}}" for r in range(2, 7) for s in "CDH") + "]}")


@pytest.mark.parametrize("cards, sorted_hand, slices", [(RUNS, "true", True), (INTERLEAVED, "true", False),
                                                        (RUNS, "false", False)])
def test_the_cards_offered_are_those_that_follow(tmp_path, cards, sorted_hand, slices):
    rules = load_text(tmp_path, GAME.replace("CARDS", cards).replace("SORTED", sorted_hand), "g.yaml")
    step = next(s for s in rules.steps if s.kind == "tricks")
    assert (step.follow_runs is not None) == slices
    assert ("hand[i:" in rules.flow_source) == slices   # the generated flow's slice of the hand
    labels = rules.card_labels
    rnd = random.Random(3)
    for seed in range(30):
        S = rules.new_game(3, seed=seed)
        while not S.over:
            hand, table = S.z["hand"][S.current_player()], S.z["table"]
            follows = [c for c in hand if table and labels[c][-1] == labels[table[0]][-1]] or list(hand)
            assert list(S.dec[1]) == follows
            S.apply_index(rnd.randrange(len(S.dec[1])))


def test_a_void_and_the_winner_found_by_the_led_cards_run_are_the_plain_reference_s(tmp_path):
    """Where the hand is in card order, a card follows when its run (one object each value) is
    the led card's: the voids (a hook each) and the winners are those of the plain reference."""
    from test_flowgen import lockstep
    game = GAME.replace("CARDS", RUNS).replace("SORTED", "true").replace(
        "rank: rank}", "rank: rank, on_void: [{gain: {counter: voids}}]}\ncounters:\n  voids: {owner: player, start: 0}")
    rules = load_text(tmp_path, game, "g.yaml")
    step = next(s for s in rules.steps if s.kind == "tricks")
    suits = rules.attr_tables["suit"]
    assert all((step.follow_runs[a] is step.follow_runs[b]) == (suits[a] == suits[b])
               for a in range(len(suits)) for b in range(len(suits)))
    voids = 0
    for seed in range(12):
        assert lockstep(rules, 3, seed) == 15
        S = rules.new_game(3, seed=seed)
        while not S.over:
            S.apply_index(0)
        voids += sum(S.c["voids"])
    assert voids > 0
