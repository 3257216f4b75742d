"""``count(ZONE) == 0`` (or ``> 0``, ``!= 0``) of a zone read from the state is the list's truth:
no len() call, the same answer as the plain reference's."""
from __future__ import annotations

import pytest

from interpreter.expr import Compiler
from helpers import load_text, tiny_ruleset

GAME = tiny_ruleset("""
  pile: {}
  hand: {owner: player}
flow: []
""", players=(2, 3))


@pytest.mark.parametrize("text", ["count(pile) == 0", "count(pile) > 0", "count(pile) != 0",
                                  "count(hand[me]) == 0", "count(deck) > 0 and count(pile) == 0"])
def test_a_zone_counted_against_zero_is_its_truth(tmp_path, text):
    rules = load_text(tmp_path, GAME, "g.yaml")
    fast = Compiler(rules.names).compile(text, has_me=True)
    plain = Compiler(rules.names, plain=True).compile(text, has_me=True)
    assert "len(" not in fast.source and "len(" in plain.source, fast.source
    S = rules.new_game(2)
    for cards in ([], [3], [4, 5]):
        S.z["pile"][:] = cards
        S.z["hand"][0][:] = cards
        a, b = fast.fn(S, 0, None), plain.fn(S, 0, None)
        assert a is b, (text, cards)


@pytest.mark.parametrize("text", ["count(pile) == 1", "count(pile) < 1", "count(pile where rank > 2) == 0"])
def test_other_counts_are_not_truth(tmp_path, text):
    rules = load_text(tmp_path, GAME, "g.yaml")
    assert "(not S." not in Compiler(rules.names).compile(text, has_me=True).source
