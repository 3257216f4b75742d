"""A seat's redacted events tell nothing of a counter instance it does not see
(play/logs/redact.py): two games that differ only in a hidden branch (a private variable,
``_secret``) give the seat, and a spectator, equal redacted events and equal words told of them,
as they give it equal observations."""
from __future__ import annotations

import interpreter
from interpreter.adapters.openspiel import load_game
from interpreter.play.display.narrate import told
from interpreter.play.logs.gamelog import logged_decision
from interpreter.play.logs.redact import Redactor

from helpers import write_ruleset

HEAD = """
players: {min: 2, max: 2}
zones:
  nothing: {}
vars:
  _secret: int
  act: str
setup:
  - random: {var: _secret, from: "[1, 2]"}
scoring:
  categories:
    s: "0"
flow:
  - turns:
      rounds: 2
      steps:
        - choose: {options: "['go']", as: act, prompt: go}
"""

# the branch picks which hidden counter pays the public pot: the pot gains 1 either way
TRANSFER = HEAD.replace("players:", "game: t\ncounters:\n  hid_a: {visible: none, start: 5}\n"
                        "  hid_b: {visible: none, start: 5}\n  pot: {}\nplayers:", 1) + """
        - if: "_secret == 2"
          then: [{transfer: {from: hid_a, to: pot, amount: 1}}]
          else: [{transfer: {from: hid_b, to: pot, amount: 1}}]
"""

# the branch resets a counter no seat sees, or not
RESET = HEAD.replace("players:", "game: t\ncounters:\n  gold: {owner: player, visible: owner}\n"
                     "  hid: {visible: none}\nplayers:", 1) + """
        - if: "_secret == 2"
          then: [{reset: [hid]}]
"""

# seat 1 pays as many units of its gold as the branch says, one possibility each: nobody is asked
PAY = HEAD.replace("players:", "game: t\ncounters:\n  gold: {owner: player, visible: owner, start: 5}\n"
                   "  joker: {owner: player, visible: owner, start: 5}\nplayers:", 1) + """
        - pay: {who: 1, costs: {gold: "_secret"}}
"""

# the branch puts a token on seat 1's first card (hidden from seat 0), or not
CARD = HEAD.replace("players:", """game: t
components:
  card:
    attributes: {rank: 1..8}
    label: "c{rank}"
counters:
  tokens: {owner: card}
players:""", 1).replace("zones:\n  nothing: {}", """zones:
  deck: {start: [card], visible: none}
  hand: {owner: player, visible: owner}""").replace("setup:", """setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 2}""") + """
        - if: "_secret == 2"
          then: [{gain: {counter: "tokens[first(hand[1])]", amount: 1}}]
"""


def _branches(tmp_path, text):
    """Seat 0's decision played in two games alike but for ``_secret`` (1, 2): (rules, [(state, line)])."""
    rules = interpreter.load(write_ruleset(tmp_path, text, "secret.yaml"))
    out = []
    for secret in (1, 2):
        S = rules.new_game(2, 0)
        S.v["_secret"] = secret
        line, err = logged_decision(rules, S, 0, 1)
        assert err is None
        S.ev = None
        out.append((S, line))
    return rules, out


def _alike(rules, games, seat=0):
    """What ``seat`` and a spectator are shown is equal in both games: its redacted events, the words."""
    for who in (seat, None):
        shown = []
        for S, line in games:
            red = Redactor(rules, who, S.members).line(line)
            shown.append((S.observation(who), red["events"], told(red, who, None)[0]))
        assert shown[0][0] == shown[1][0]   # (the observations: alike, as the premise)
        assert shown[0][1:] == shown[1][1:], (who, shown)
    return [Redactor(rules, seat, S.members).line(line)["events"] for S, line in games]


def test_a_transfer_with_one_seen_side_does_not_name_the_hidden_side(tmp_path):
    rules, games = _branches(tmp_path, TRANSFER)
    assert {e["from"] for _, line in games for e in line["events"]} == {"hid_a", "hid_b"}
    events = _alike(rules, games)
    assert events[0] == [{"ev": "transfer", "to": "pot", "who": 0, "hidden": True}]   # the pot's side stays
    S, line = games[0]
    assert told(Redactor(rules, 0, S.members).line(line), 0, None)[0] == ["some moves to pot."]


def test_a_reset_of_a_counter_the_seat_does_not_see_is_left_out(tmp_path):
    rules, games = _branches(tmp_path, RESET)
    assert [line["events"] for _, line in games] == [[], [{"ev": "reset", "counters": ["hid"]}]]
    assert _alike(rules, games) == [[], []]
    mixed = {"ev": "reset", "counters": ["hid", "gold"]}   # a seat sees its own gold: that one stays
    assert Redactor(rules, 0).event(mixed) == {"ev": "reset", "counters": ["gold"]}


def test_a_pay_nobody_was_asked_of_hidden_counters_is_left_out(tmp_path):
    rules, games = _branches(tmp_path, PAY)
    assert [len(line["events"]) for _, line in games] == [1, 2]   # one event a unit
    assert _alike(rules, games) == [[], []]
    for S, line in games:   # the payer sees its own gold: each unit
        assert Redactor(rules, 1, S.members).line(line)["events"] == line["events"]


def test_a_pay_asked_of_hidden_counters_is_told_by_its_decision_line(tmp_path):
    rules = interpreter.load(write_ruleset(tmp_path, PAY.replace('costs: {gold: "_secret"}', 'costs: {gold: 1}, joker: joker'),
                                           "asked.yaml"))
    S = rules.new_game(2, 0)
    logged_decision(rules, S, 0, 1)
    assert S.current_player() == 1 and len(S.legal_actions()) == 2   # gold or the joker: asked
    line, err = logged_decision(rules, S, 1, 2)
    assert err is None and [e["counter"] for e in line["events"]] == ["joker"]
    red = Redactor(rules, 0, S.members).line(line)
    assert (red["type"], red["seat"], red["action"], red["events"]) == ("decision", 1, "?", [])


def test_a_counter_of_a_card_the_seat_may_not_see_is_left_out(tmp_path):
    rules, games = _branches(tmp_path, CARD)
    assert [len(line["events"]) for _, line in games] == [0, 1]
    assert _alike(rules, games) == [[], []]


def test_the_openspiel_information_state_tells_no_change_of_a_hidden_cards_counter(tmp_path):
    game = load_game(str(write_ruleset(tmp_path, CARD, "card.yaml")), players=2)
    seen, secrets = [], []
    for last in (0, 1):   # the last chance node draws _secret: its first outcome, or its second
        s = game.new_initial_state()
        while s.is_chance_node():
            outcomes = [a for a, _ in s.chance_outcomes()]
            s.apply_action(outcomes[last] if len(outcomes) == 2 else outcomes[0])
        secrets.append(s.h.state.v["_secret"])
        s.apply_action(s.legal_actions()[0])
        seen.append((s.observation_string(0), s.information_state_string(0)))
    assert sorted(secrets) == [1, 2]
    assert seen[0] == seen[1]
