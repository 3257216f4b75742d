"""A variable holds a value of the language, which never changes: a list stored from a zone
(``set``, a variable's ``start``, a ``random`` draw from a list of lists) is the variable's own
copy, not the zone's list that the moves after it change in place (expr/runtime.py ``_stored``,
``owned``)."""
from __future__ import annotations

import pytest

from helpers import load_text, tiny_ruleset
from test_flowgen import lockstep, reference

GAME = tiny_ruleset("""  hand: {owner: player, visible: all}
vars:
  seen: {type: "list[card]", start: "deck"}
  snap: "list[card]"
  both: any
  drawn: any
  x: int
flow:
  - set: {snap: "deck", both: "[[deck], [deck]]"}
  - random: {var: drawn, from: "[deck, deck]"}
  - move: {from: deck, to: "hand[0]", count: 2}
  - choose: {who: 0, options: "[1, 2]", as: x}
""", card="card", attributes="n: 1..6", label="c{n}", seen="all")


@pytest.mark.parametrize("plain", [False, True])
def test_a_list_stored_from_a_zone_keeps_its_cards_when_the_zone_changes(tmp_path, plain):
    rules = load_text(tmp_path, GAME)
    S = (reference(rules) if plain else rules).new_game(2, seed=1)
    deck = S.z["deck"]
    assert len(deck) == 4
    assert len(S.v["seen"]) == len(S.v["snap"]) == len(S.v["drawn"]) == 6
    assert [len(S.v["both"][0][0]), len(S.v["both"][1][0])] == [6, 6]
    assert all(v is not deck for v in (S.v["seen"], S.v["snap"], S.v["drawn"], S.v["both"][0][0], S.v["both"][1][0]))
    clone = S.clone()
    S.apply_index(0)
    assert clone.v["snap"] == S.v["snap"] and len(clone.v["snap"]) == 6


def test_the_same_games_as_the_reference(tmp_path):
    rules = load_text(tmp_path, GAME)
    for seed in range(3):
        assert lockstep(rules, 2, seed) > 0


CHOSEN = tiny_ruleset("""  a: {visible: all}
  b: {visible: all}
vars:
  pile: "list[card]"
  piles: any
  each: any
setup:
  - move: {from: deck, to: a, count: 2}
  - move: {from: deck, to: b, count: 2}
flow:
  - choose: {who: 0, options: "[a, b]", as: pile}
  - choose: {who: 1, options: "[[a, b]]", as: piles}
  - choose: {options: "[a, b]", as: each, simultaneous: true}
  - move: {from: deck, to: a, count: 1}
""", card="card", attributes="n: 1..6", label="c{n}", seen="all")


@pytest.mark.parametrize("plain", [False, True])
def test_a_zone_chosen_as_an_option_is_stored_as_the_variables_own_copy(tmp_path, plain):
    """An option may be a zone's list: the answer stored is a copy (deep for a list of lists),
    so the move after the choice leaves the variables as chosen, and a clone plays alike."""
    rules = load_text(tmp_path, CHOSEN)
    game = reference(rules) if plain else rules
    S, other = game.new_game(2, seed=1), game.new_game(2, seed=1)
    clone = other.clone()   # (a clone's first write copies the zone: its variables kept apart anyway)
    for state in (S, clone):
        while not state.over:
            state.apply_index(0)
    a = S.z["a"]
    assert len(a) == 3
    assert len(S.v["pile"]) == len(S.v["piles"][0]) == len(S.v["each"][0]) == len(S.v["each"][1]) == 2
    assert all(v is not a for v in (S.v["pile"], S.v["piles"][0], S.v["each"][0], S.v["each"][1]))
    assert clone.v == S.v


def test_a_list_of_strings_is_stored_as_a_copy_checked_in_one_join(monkeypatch):
    """A list of strings (the usual ``deep`` value) is copied, and its strings' bounds checked,
    without owned's walk of its elements; any other list, or strings past a bound, is walked as
    before, with its errors."""
    from interpreter.expr import runtime
    texts = ["forest", "mine", "ship"]
    walked = []
    monkeypatch.setattr(runtime, "owned", lambda v, room=None: walked.append(v) or [list(x) if isinstance(x, list) else x for x in v])
    kept = runtime._stored(texts, 10, True)
    assert kept == texts and kept is not texts and not walked
    assert runtime._stored([], 10, True) == [] and not walked
    inner = ["a"]
    nested = runtime._stored(["b", inner], 10, True)   # (a list inside: walked, copied)
    assert nested == ["b", ["a"]] and nested[1] is not inner and len(walked) == 1
    monkeypatch.undo()
    with pytest.raises(runtime.ExprRuntimeError, match="a string of 100001 characters"):
        runtime._stored(["a", "b" * (runtime.MAX_STORED + 1)], 10, True)
    with pytest.raises(runtime.ExprRuntimeError, match="strings of more than 1000000 characters in all"):
        runtime._stored(["c" * runtime.MAX_STORED] * 11, 20, True)
    assert len(runtime._stored(["c" * runtime.MAX_STORED] * 10, 20, True)) == 10
