"""Copies of a card (cards sharing a label) look alike to a seat: what it knows of them, its
observation, its tensor and its determinized worlds are the same whichever copy the rules moved
(engine/copies.py, engine/observation.py ``known_cards``, adapters/tensors.py): two states that differ only in which copy went where give a seat equal
views and equally dealt worlds."""
from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

from fuzzing.lockstep import reference
from helpers import load_text
from interpreter.adapters.tensors import layout

# seat 0 gives seat 1 a card, seat 1 plays one (each chosen into a public variable: every seat
# sees its label), the table shown to seat 1
COPIES = """
game: copies
players: {min: 2, max: 2}
components:
  card:
    attributes: {name: [A, B, C], copy: [1, 2]}
    label: "{name}"
zones:
  deck: {start: [card], visible: none}
  hand: {owner: player, visible: owner}
  table: {visible: all}
vars:
  give: card
  play: card
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 2}
flow:
  - choose: {who: 0, options: "hand", as: give, prompt: give}
  - move: {from: "hand[0]", to: "hand[1]", cards: "[give]"}
  - choose: {who: 1, options: "hand", as: play, prompt: play}
  - move: {from: "hand[1]", to: table, cards: "[play]"}
  - show: {cards: "table", to: 1}
  - choose: {who: 0, options: "['x', 'y']", as: last, prompt: last}
scoring:
  categories:
    s: "0"
"""
A1, A2, B1, B2, C1, C2 = range(6)   # (card order: name, then copy)


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return load_text(tmp_path_factory.mktemp("copies"), COPIES)


def _played(R, h0, h1, give, play):
    """Seat 0 holding ``h0`` gives ``give`` to seat 1 holding ``h1``, which plays ``play``."""
    S = R.new_game(2, 0, knowledge=True)
    d = json.loads(S.to_json())
    d["zones"]["hand"] = [h0, h1]
    d["zones"]["deck"] = [c for c in range(6) if c not in h0 + h1]
    d["decision"] = [0, h0]
    S = R.state_from_json(json.dumps(d))
    S.apply_index(S.dec[1].index(give))
    S.apply_index(S.dec[1].index(play))
    assert S.prompt() == "last"
    return S


def _pair(R):
    # seat 1 held the other A and played it (the given A still in its hand), or held two Cs and
    # played the given A: seat 0 sees an A given and an A played either way
    return _played(R, [A1, B1], [A2, C1], A1, A2), _played(R, [A1, B1], [C1, C2], A1, A1)


def _worlds(S, seat, zone, owner):
    return Counter(tuple(sorted(S.determinize(seat, random.Random(i)).observation(owner)["zones"][zone][owner]))
                   for i in range(100))


@pytest.mark.parametrize("plain", [False, True])
def test_which_copy_went_is_not_known(rules, plain):
    R = reference(rules) if plain else rules
    S1, S2 = _pair(R)
    assert S1.observation(1)["zones"]["hand"][1] != S2.observation(1)["zones"]["hand"][1]
    assert S1.observation(0) == S2.observation(0)
    assert "known" not in S1.observation(0)   # (it cannot tell whether seat 1 still holds an A)
    # told an A chosen from seat 1's hand, whether or not the A it gave: not its order, either way
    assert S1.kn.get("@hand[1]", 0) & 1 and S2.kn.get("@hand[1]", 0) & 1
    assert _worlds(S1, 0, "hand", 1) == _worlds(S2, 0, "hand", 1)


def test_a_copy_known_twice_is_counted_once(rules):
    # seat 0 gave an A and saw seat 1 choose an A: the same card, for all it can tell
    S = rules.new_game(2, 0, knowledge=True)
    d = json.loads(S.to_json())
    d["zones"]["hand"] = [[A1, B1], [A2, C1]]
    d["zones"]["deck"] = [B2, C2]
    d["decision"] = [0, [A1, B1]]
    S = rules.state_from_json(json.dumps(d))
    S.apply_index(S.dec[1].index(A1))   # A1 given: seat 0 knows one A in hand[1]
    assert {c: m for c, m in S.kn.items() if c.__class__ is int} == {A1: 1}
    S.apply_index(S.dec[1].index(A2))   # A2 chosen (seat 0 sees an "A"), then played
    assert "known" not in S.observation(0)


def test_tensor_does_not_tell_copies_apart(rules):
    S1, S2 = _pair(rules)
    L = layout(rules, 2)
    for enc in (L.encode, L.encoder(incremental=False), L.encoder(incremental=True)):
        assert np.array_equal(enc(S1, 0), enc(S2, 0))


def test_known_cards_are_listed_in_label_order(rules):
    # seat 1's hand in either order, both its cards told to seat 0: the same "known"
    from interpreter.engine.knowledge import tell
    seen = []
    for hand in ([C1, B2], [B2, C1]):
        S = rules.new_game(2, 0, knowledge=True)
        d = json.loads(S.to_json())
        d["zones"]["hand"] = [[A1, B1], hand]
        d["zones"]["deck"] = [A2, C2]
        d["decision"] = [0, [A1, B1]]
        S = rules.state_from_json(json.dumps(d))
        tell(S, hand, 1)
        seen.append(S.observation(0)["known"])
    assert seen == [{"hand[1]": ["B", "C"]}] * 2


# two simultaneous choices show each seat both cards of the other's hand, not their order; the
# move then takes the top one
ORDER = """
game: orderleak
players: {min: 2, max: 2}
components:
  card:
    attributes: {rank: 1..8}
    label: "c{rank}"
zones:
  deck: {start: [card], visible: none}
  hand: {owner: player, visible: owner}
  table: {visible: all}
vars:
  bid: "list[card]"
  bid2: "list[card]"
  last: str
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 2}
flow:
  - choose: {options: "hand", as: bid, prompt: first, simultaneous: true}
  - choose: {options: "hand where it != bid[me]", as: bid2, prompt: second, simultaneous: true}
  - choose: {who: 0, options: "['go']", as: last, prompt: go}
  - move: {from: "hand[1]", to: table, count: 1}
  - choose: {who: 0, options: "['end']", as: last, prompt: end}
scoring:
  categories:
    s: "0"
"""


@pytest.mark.parametrize("plain", [False, True])
def test_a_hand_told_card_by_card_is_dealt_in_any_order(tmp_path, plain):
    R = load_text(tmp_path, ORDER)
    R = reference(R) if plain else R
    S = R.new_game(2, 0, knowledge=True)
    while S.prompt() != "go":
        S.apply_index(0)
    hand = S.z["hand"][1]
    assert all(S.kn.get(c, 0) & 1 for c in hand)   # seat 0 knows both cards are there
    d = json.loads(S.to_json())
    d["zones"]["hand"][1] = hand[::-1]
    swapped = R.state_from_json(json.dumps(d))
    assert swapped.z["hand"][1] == hand[::-1] and swapped.observation(0) == S.observation(0)
    worlds = [[tuple(X.determinize(0, random.Random(i)).z["hand"][1]) for i in range(40)] for X in (S, swapped)]
    assert worlds[0] == worlds[1] and set(worlds[0]) == {tuple(hand), tuple(hand[::-1])}
    # saved and loaded, a state keeps what seat 0 was told
    assert R.state_from_json(S.to_json()).kn == S.kn


def test_a_saved_state_names_only_zone_instances_of_the_game_as_told(rules):
    from interpreter.errors import RulebookError
    S = rules.new_game(2, 0, knowledge=True)
    d = json.loads(S.to_json())
    d["known"] = {"@hand[1]": 1, "@table": 2}
    assert rules.state_from_json(json.dumps(d)).kn == {"@hand[1]": 1, "@table": 2}
    for bad in ("@hand[2]", "@hands[0]", "@table[0]"):
        d["known"] = {bad: 1}
        with pytest.raises(RulebookError, match="known: no zone"):
            rules.state_from_json(json.dumps(d))
    d["known"] = {"@hand[1]": 4}
    with pytest.raises(RulebookError, match="bitmask"):
        rules.state_from_json(json.dumps(d))
