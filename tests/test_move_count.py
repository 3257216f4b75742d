"""A move of `cards: LIST` with `count: N` moves the first N of the list (all of it when it
holds fewer); a bare zone as the list with count: is refused, located (its first cards are its
bottom, while count: alone takes the top)."""
from __future__ import annotations

import dis

import pytest

import interpreter
from interpreter.errors import RulesetError
from helpers import load_text, tiny_ruleset, write_ruleset

# Unshuffled, the deal is fixed (DEALT below).
GAME = tiny_ruleset("""
  hand: {owner: player, visible: owner}
  pile: {}
vars:
  n: {type: int, start: %s}
flow:
  - deal: {from: deck, to: hand, count: 5}
  - for_each: {in: players, as: me, do: [{move: {from: hand, to: pile, cards: "%s", count: n}}]}
  - choose: {who: 0, options: "[1]", as: n, prompt: go}
""", game="mv")


def labels(rules, cards):
    return [rules.card_labels[c] for c in cards]


DEALT = [["5B", "3B", "1B", "4A", "2A"], ["4B", "2B", "5A", "3A", "1A"]]


@pytest.mark.parametrize("n,pile,left", [
    (2, ["4A", "2A", "5A", "3A"], [["5B", "3B", "1B"], ["4B", "2B", "1A"]]),
    (1, ["4A", "5A"], [["5B", "3B", "1B", "2A"], ["4B", "2B", "3A", "1A"]]),
    (9, ["4A", "2A", "5A", "3A", "1A"], [["5B", "3B", "1B"], ["4B", "2B"]]),   # fewer than 9: all of them
    (0, [], DEALT),
    (-1, [], DEALT),
])
def test_count_moves_the_first_n_of_the_cards(tmp_path, n, pile, left):
    rules = load_text(tmp_path, GAME % (n, "hand where suit == 'A'"), "mv.yaml")
    S = rules.new_game(2, seed=0)
    assert labels(rules, S.z["pile"]) == pile
    assert [labels(rules, h) for h in S.z["hand"]] == left
    moves = [e for e in S.ev or () if e["ev"] == "move"]
    assert all(len(e["cards"]) <= max(n, 0) for e in moves)


def test_the_first_of_a_list_in_its_order(tmp_path):
    """The list's order, not the zone's: the B cards are first in it."""
    rules = load_text(tmp_path, GAME % (2, "(hand where suit == 'B') + (hand where suit == 'A')"), "mv.yaml")
    S = rules.new_game(2, seed=0)
    assert labels(rules, S.z["pile"]) == ["5B", "3B", "4B", "2B"]


@pytest.mark.parametrize("cards", ["hand", "pile"])
def test_a_bare_zone_with_count_is_a_located_error(tmp_path, cards):
    path = write_ruleset(tmp_path, GAME % (2, cards), "mv.yaml")
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    message = str(info.value)
    assert "mv.yaml:13:" in message and f"cards: {cards} with count:" in message
    assert "count: alone" in message


def test_explain_says_only_the_first_move(tmp_path):
    from interpreter.tools.explain import explain
    rules_path = write_ruleset(tmp_path, GAME % (2, "hand where suit == 'A'"), "mv.yaml")
    text = explain(interpreter.load(rules_path))
    assert "(the first of them only, as many as the n)" in text


LISTED = tiny_ruleset("""
  pile: {}
flow:
  - move: {from: deck, to: pile, cards: "%s"}
  - move: {from: deck, to: pile, count: %s}
  - choose: {who: 0, options: "[1]", as: n, prompt: go}
vars:
  n: int
""", game="mv")


@pytest.mark.parametrize("cards,count,pile", [
    ("[first(deck)]", "1", [0, 9]),                        # the deck's top is its last card
    ("[first(deck), last(deck)]", "2", [0, 9, 8, 7]),
    ("[]", "0", []),
    ("[first(deck)]", "20", [0, *range(9, 0, -1)]),        # more than the deck holds: all of it
], ids=["one", "two", "none", "all"])
def test_a_list_display_and_a_constant_count_move_as_written(tmp_path, cards, count, pile):
    """A move of a list display (``[spot]``) or of a constant count: the cards listed, or as
    many from the top as there are, counted against the budget one a card; written without a
    copy of the list or min() and max() calls (each a C call dearer than the move)."""
    rules = load_text(tmp_path, LISTED % (cards, count), "mv.yaml")
    S = rules.new_game(2, seed=0)   # (unshuffled: the deck is the cards in id order)
    assert S.z["pile"] == pile and sorted(S.z["deck"] + pile) == list(range(10))
    effects = next(s for s in rules.steps if s.kind == "effects")
    assert not {"list", "min", "max"} & set(effects.fn.__code__.co_names)


def test_a_listed_card_not_in_the_source_is_a_located_error(tmp_path):
    rules = load_text(tmp_path, LISTED.replace("to: pile, cards", "to: deck, cards") % ("[first(pile)]", "1"), "mv.yaml")
    with pytest.raises(interpreter.GameError) as e:
        rules.new_game(2, seed=0)
    assert e.value.loc is not None


ONE = tiny_ruleset("""
  pile: {}
  kept: {sorted: true}
flow:
  - move: {from: deck, to: kept, cards: "[last(deck)]"}
  - move: {from: deck, to: kept, cards: "[first(deck)]"}
  - move: {from: kept, to: pile, cards: "[last(kept)]"}
  - choose: {who: 0, options: "[1]", as: n, prompt: go}
vars:
  n: int
""", game="mv")


@pytest.mark.parametrize("record", [False, True])
def test_a_one_card_move_takes_its_card_alone(tmp_path, record):
    """A one-card move (``[card]``) holds its card in a local, into a sorted zone or not: the
    same cards and the same events (a list of one card), no list made nor walked otherwise."""
    rules = load_text(tmp_path, ONE, "mv.yaml")
    S = rules.new_game(2, seed=0, record=record, knowledge=record)   # (unshuffled: cards in id order)
    assert S.z["kept"] == [0] and S.z["pile"] == [9] and S.z["deck"] == list(range(1, 9))
    if record:
        assert [e["cards"] for e in S.ev if e["ev"] == "move"] == [[9], [0], [9]]
    for step in (s for s in rules.steps if s.kind == "effects"):
        code = step.fn.__code__
        assert "extend" not in code.co_names
        assert "FOR_ITER" not in {i.opname for i in dis.get_instructions(code)}


TOP = tiny_ruleset("""
  pile: {}
  spare: {}
flow:
  - move: {from: deck, to: pile, count: 1}
  - move: {from: spare, to: pile, count: 1}
  - choose: {who: 0, options: "[1]", as: n, prompt: go}
vars:
  n: int
""", game="mv")


def test_a_move_of_the_top_card_pops_it(tmp_path):
    """``count: 1`` takes the source's top card (its last), none from an empty one (no event),
    without slicing the pile."""
    rules = load_text(tmp_path, TOP, "mv.yaml")
    S = rules.new_game(2, seed=0, record=True)   # (unshuffled: the deck is the cards in id order)
    assert S.z["pile"] == [9] and S.z["deck"] == list(range(9)) and S.z["spare"] == []
    assert [(e["from"], e["cards"]) for e in S.ev if e["ev"] == "move"] == [("deck", [9])]
    for step in (s for s in rules.steps if s.kind == "effects"):
        assert "BUILD_SLICE" not in {i.opname for i in dis.get_instructions(step.fn.__code__)}
