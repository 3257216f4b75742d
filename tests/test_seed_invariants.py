"""The seed rulesets' `invariants:` (checked after every decision by `validate --playouts`, and
asked of every determinized world: engine/knowledge.py) each hold on a real game and fail on the
corruption they guard against: a card made twice, a trick holding too many plays, diamonds owed,
a Go Fish hand holding a whole book, Diam's closing card above the cards it is shuffled among."""
from __future__ import annotations

import pytest

from helpers import bundled


def holding(S):
    """The text of each invariant, and whether it holds on S."""
    return {text: bool(inv(S, None, None)) for inv, text, _ in S.rules.invariants}


@pytest.fixture
def diamonds():
    """A 4-player game of Diamonds just dealt: all 60 cards in zones (deck, hands)."""
    S = bundled("diamonds").new_game(4, seed=1)
    assert len(S.z["deck"]) + sum(map(len, S.z["hand"])) == 60
    return S


def broken(S):
    return [text for text, ok in holding(S).items() if not ok]


def test_the_invariants_hold_with_all_60_cards_dealt(diamonds):
    assert broken(diamonds) == []


def test_a_card_made_twice_breaks_the_card_count(diamonds):
    diamonds.z["hand"][2].append(diamonds.z["deck"][0])     # 61 cards in zones
    assert broken(diamonds) == [
        "count(deck) + sum(players, by: count(hand)) + count(table) + sum(teams, by: count(taken)) <= 60"]


def test_a_trick_holding_more_than_one_round_of_plays_breaks_the_table_bound(diamonds):
    S = diamonds
    S.z["table"] = [S.z["hand"][p].pop() for p in range(4)]           # one play each: fine
    assert broken(S) == []
    S.z["table"].append(S.z["hand"][0].pop())
    assert broken(S) == ["count(table) <= num_players * params.plays_per_trick"]


@pytest.mark.parametrize("counter", ["safe", "showroom"])
def test_diamonds_owed_break_the_last_invariant(diamonds, counter):
    S = diamonds
    S.c[counter] = [0, 0, 0, 0]     # none at all: fine
    assert broken(S) == []
    S.c[counter] = [0, 0, -1, 0]
    assert broken(S) == ["all(teams, by: showroom >= 0 and safe >= 0)"]


def test_a_go_fish_hand_holding_all_four_of_a_rank_breaks_its_invariant():
    S = bundled("go_fish").new_game(2, seed=1)
    assert broken(S) == []
    labels = S.rules.card_labels
    rank = labels[S.z["hand"][0][0]][0]   # (a rank seat 0 holds: its other copies moved to its hand)
    for zone in ("pool", "hand"):
        for owner in ((None,) if zone == "pool" else (1,)):
            cards = S.z[zone] if owner is None else S.z[zone][owner]
            for c in [c for c in cards if labels[c][0] == rank]:
                cards.remove(c)
                S.z["hand"][0].append(c)
    S.z["hand"][0].sort()
    assert sum(labels[c][0] == rank for c in S.z["hand"][0]) == 4
    assert broken(S) == [S.rules.invariants[0][1]]


def test_diams_closing_card_above_the_bottom_part_of_the_pile_breaks_its_invariant():
    S = bundled("diams").new_game(3, seed=1)
    assert broken(S) == []
    pile = S.z["pile"]
    closing = next(c for c in pile if S.rules.cards.kinds[c] == "closing")
    assert pile.index(closing) <= 15
    pile.remove(closing)
    pile.insert(16, closing)   # (the bottom part is 15 cards and the closing card: indexes 0 to 15)
    assert broken(S) == [S.rules.invariants[0][1]]
