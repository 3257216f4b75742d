"""What a seat is shown never names a card it cannot see, nor tells of a counter it cannot see.

The shape of each test: states that differ only in what the seat cannot see (which hidden cards
seat 1 holds, a private variable) give the seat equal views: its observation, its tensor (every
encoder), the viewer's table, its redacted log line and the words told of it, its OpenSpiel
strings."""
from __future__ import annotations

import json
import random

import numpy as np

from interpreter.adapters.common import Table
from interpreter.adapters.openspiel import load_game
from interpreter.play.display.narrate import owners, told
from interpreter.play.display.table import table_of
from interpreter.play.logs.gamelog import logged_decision
from interpreter.play.logs.redact import Redactor

from helpers import load_text, write_ruleset

# seat 1 alone holds cards (hidden from seat 0); a card from the hidden deck goes under its first
# card, and a public token on it; a plate (only ever on the table: always seen) gets a token and
# the card from the face-up spare under it
UNDER = """
game: under
players: {min: 2, max: 2}
components:
  card:
    attributes: {rank: 1..8}
    label: "c{rank}"
  plate:
    attributes: {n: 1..2}
    label: "p{n}"
zones:
  deck: {start: [card], visible: none}
  hand: {owner: player, visible: owner}
  table: {start: [plate]}
  spare: {}
  under: {owner: card}
counters:
  tokens: {owner: card}
vars:
  act: str
setup:
  - shuffle: deck
  - move: {from: deck, to: "hand[1]", count: 2}
  - move: {from: deck, to: spare, count: 1}
flow:
  - turns:
      rounds: 1
      steps:
        - if: "turn_player == 1"
          then:
            - move: {from: deck, to: "under[first(hand[1])]", count: 1}
            - set: {"tokens[first(hand[1])]": 1}
            - move: {from: spare, to: "under[first(table)]", count: 1}
            - set: {"tokens[first(table)]": 2}
        - choose: {options: "['go']", as: act, prompt: go}
scoring:
  categories:
    s: "0"
"""


def _views(T, S, line, seat):
    """Everything ``seat`` is shown of ``S`` and of the line that led to it."""
    rules = T.rules
    red = Redactor(rules, seat, S.members).line(line)
    out = {"obs": S.observation(seat), "table": table_of(rules).render(S, seat),
           "events": red["events"], "told": told(red, seat, owners(rules, S.members))[0]}
    if seat is not None:   # the reference encoder and both made for speed
        out["tensors"] = [T.layout.encode(S, seat).tolist(),
                          *(T.layout.encoder(k)(S, seat).tolist() for k in (False, True))]
    return out


def _after_seat_1(T, S):
    """Seat 0 goes, and seat 1's turn puts a card and a token on its first card: the state, the line."""
    line, _ = logged_decision(T.rules, S, 0, 1)
    S.ev = None
    return S, line


def test_what_lies_on_a_hidden_card_does_not_name_it(tmp_path):
    T = Table(str(write_ruleset(tmp_path, UNDER, "under.yaml")), 2)
    start = T.new_game(0, knowledge=True)
    starts = {tuple(start.z["hand"][1]): start}   # the worlds seat 0 cannot tell from this one
    for k in range(12):
        W = start.determinize(0, random.Random(k))
        starts.setdefault(tuple(W.z["hand"][1]), W)
    assert len(starts) >= 3
    worlds = [_after_seat_1(T, S) for S in starts.values()]
    for seat in (0, None):
        views = [_views(T, S, line, seat) for S, line in worlds]
        for v in views:
            assert v == views[0], (seat, [k for k in v if v[k] != views[0][k]])
    S, line = worlds[0]
    public, mine = S.z["table"][0], S.z["hand"][1][0]
    key = T.rules.card_keys[public]
    obs = S.observation(0)   # the public card's: shown by it
    assert obs["zones"]["under"] == {key: [T.rules.card_labels[S.z["under"][public][0]]]}
    assert obs["counters"]["tokens"] == {key: 2}
    red = Redactor(T.rules, 0, S.members).line(line)["events"]
    assert [(e.get("to_owner"), "cards" in e) for e in red if e["ev"] == "move"] == [("?", False), ("p1", True)]
    # (a counter of a card the log cannot tell the seat sees: left out, as a hidden counter's change is)
    assert [(e["owner"], e.get("value")) for e in red if e["ev"] == "set_counter"] == [("p1", 2)]
    assert "under of a hidden card" in " ".join(told(Redactor(T.rules, 0, S.members).line(line), 0,
                                                      owners(T.rules, S.members))[0])
    own = S.observation(1)   # seat 1 sees its own card: shown by it
    assert own["counters"]["tokens"] == {T.rules.card_keys[mine]: 1, key: 2}
    t = T.layout.encode(S, 1)
    pieces = {name: (o, n) for name, o, n in T.layout.pieces}
    o, n = pieces["counter:tokens"]
    assert t[o + mine] == 1.0 and t[o + public] == 2.0
    assert T.layout.encode(S, 0)[o + mine] == 0.0
    o, n = pieces["size:under"]
    assert T.layout.encode(S, 0)[o + mine] == 0.0 and T.layout.encode(S, 0)[o + public] == 1.0


SECRET = """
game: secret
players: {min: 2, max: 2}
zones:
  nothing: {}
counters:
  gold: {owner: player, visible: owner}
  hid: {visible: none}
  pot: {}
vars:
  _secret: int
  act: str
setup:
  - random: {var: _secret, from: "[1, 2]"}
flow:
  - turns:
      rounds: 2
      steps:
        - choose: {options: "['go']", as: act, prompt: go}
        - gain: {counter: pot, amount: 1}
        - if: "_secret == 2"
          then: [{gain: {counter: hid, amount: 5}}, {gain: {counter: "gold[1]", amount: 1}}]
scoring:
  categories:
    s: "0"
"""


def test_a_hidden_counter_that_changed_is_not_told(tmp_path):
    path = write_ruleset(tmp_path, SECRET, "secret.yaml")
    rules = load_text(tmp_path, SECRET, "secret.yaml")
    seen = {}
    for seed in range(8):
        S = rules.new_game(2, seed)
        line, _ = logged_decision(rules, S, 0, 1)
        S.ev = None
        red = Redactor(rules, 0, S.members).line(line)
        seen.setdefault(S.v["_secret"], (json.dumps(red), told(red, 0, owners(rules, S.members))[0]))
    assert set(seen) == {1, 2} and seen[1] == seen[2]
    assert "pot gains 1" in " ".join(seen[1][1]) and "your pot" not in " ".join(seen[1][1])   # shared: nobody's
    G = load_game(str(path), players=2)
    strings = set()
    for outcome in (0, 1):
        s = G.new_initial_state()
        while s.is_chance_node():
            s.apply_action([a for a, _ in s.chance_outcomes()][outcome])
        s.apply_action(s.legal_actions()[0])
        strings.add((s.observation_string(0), s.information_state_string(0)))
    assert len(strings) == 1


def test_the_tensor_shows_the_asking_step_to_the_seat_asked_only(tmp_path):
    T = Table(str(write_ruleset(tmp_path, SECRET, "secret.yaml")), 2)
    S = T.new_game(0)
    at, n = next((o, n) for name, o, n in T.layout.pieces if name == "prompt")
    for encode in (T.layout.encode, T.layout.encoder(False), T.layout.encoder(True)):
        asked, other = S.dec[0], 1 - S.dec[0]
        assert np.count_nonzero(encode(S, asked)[at:at + n]) == 1
        assert not np.any(encode(S, other)[at:at + n])
        assert ("prompt" in S.observation(other)) is False
