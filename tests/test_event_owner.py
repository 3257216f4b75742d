"""An effect's event names where its write went: the owner of a zone or counter written as an
expression (``under[last(deck)]``, ``hand[0 if count(hand[0]) == 0 else 1]``) is evaluated once,
before the write, and that value is the one written to, told to the knowledge hook and logged,
even where the expression reads what the write changes. The generated module and its plain
reference do the same (the lockstep at the end)."""
from __future__ import annotations

import random

import pytest

from fuzzing.lockstep import run_lockstep
from fuzzing.rulesets import Case
from helpers import load_text, tiny_ruleset

# six cards c1..c6 in a deck not shuffled: its top (its last card) is c6
ZONES = tiny_ruleset("""
  hand: {owner: player, visible: all}
  table: {visible: all}
  under: {owner: card, visible: all}
  secret: {owner: player, visible: owner}
counters:
  score: {owner: player, start: 0}
  pos: {owner: player, start: 0}
  gems: {owner: player, keys: [a, b], start: 0}
""", card="chips", attributes="n: 1..6", label="c{n}", seen="all")
SCORING = "scoring: {categories: {n: \"count(hand)\"}}\n"
# the flows of the tests below, each played both ways at the end
STEPS = {
    "move": """  - move: {from: deck, to: "under[last(deck)]", count: 1}
  - move: {from: deck, to: table, count: 1}
  - move: {from: deck, to: "under[last(table)]", count: 1}
  - move: {from: "under[last(table)]", to: table}
  - move: {from: deck, to: "hand[0 if count(hand[0]) == 0 else 1]", count: 1}
""",
    "knowledge": """  - move: {from: deck, to: "secret[0]", count: 2}
  - move: {from: "secret[0]", to: "secret[1 if count(secret[0]) == 2 else 0]", count: 1}
""",
    "deal": """  - deal: {from: deck, to: hand, count: 1}
  - move: {from: deck, to: "under[last(hand[0])]", count: 4}
  - deal: {from: "under[last(hand[0])]", to: hand, count: 1}
""",
    "gather": """  - move: {from: deck, to: table, count: 2}
  - gather: {from: table, to: "under[first(table)]"}
""",
    "pick": """  - deal: {from: deck, to: hand, count: 1}
  - turns:
      rounds: 1
      skip: "me != 0"
      steps:
        - pick: {from: deck, to: "hand[0 if count(hand[0]) < 2 else 1]", count: 1}
        - pick: {from: deck, to: "under[last(deck)]", count: 1}
""",
    "deal_triggered": """  - set: {v: "last(deck)"}
  - move: {from: deck, to: "under[v]", count: 4}
  - deal: {from: "under[v]", to: hand, count: 1}
""",
    "pass": """  - deal: {from: deck, to: hand, count: 2}
  - pass: {from: hand, count: 1, to: "me if count(hand) == 2 else left(me)"}
""",
    "counters": """  - set: {"score[0 if score[0] == 0 else 1]": 5}
  - transfer: {from: "score[0 if score[0] > 0 else 1]", to: "score[1 if score[0] > 0 else 0]", amount: 5}
  - lose: {counter: "score[1 if score[1] > 0 else 0]", amount: 2}
  - gain: {counter: "score[0 if score[0] == 0 else 1]", amount: 1}
  - advance: {counter: "pos[0 if pos[0] == 0 else 1]"}
  - gain: {counter: "gems[0 if gems[0]['a'] == 0 else 1]['a']"}
  - gain: {counter: "gems[1]['a' if gems[1]['a'] == 0 else 'b']"}
""",
}
# what a flow above declares besides its zones and counters
DECLARED = {
    # a card entering a hand points v at the deck's top card
    "deal_triggered": """vars:
  v: card
triggers:
  moved:
    on_enter: hand
    do: [{set: {v: "last(deck)"}}]
""",
}


def game(tmp_path, name: str):
    return load_text(tmp_path, text(name))


def text(name: str) -> str:
    return ZONES + DECLARED.get(name, "") + "flow:\n" + STEPS[name] + SCORING


def events(S) -> list:
    """The state's events, their cards (and the owner of a zone owned by each card) by label."""
    label = S.rules.card_labels
    out = []
    for ev in S.ev:
        ev = dict(ev)
        if "cards" in ev:
            ev["cards"] = [label[c] for c in ev["cards"]]
        for key in ("from_owner", "to_owner"):
            if ev.get(key) is not None and (ev.get("from" if key == "from_owner" else "to") == "under"):
                ev[key] = label[ev[key]]
        out.append(ev)
    return out


def under(S, card: str) -> list:
    """The labels of the cards under ``card``."""
    label = S.rules.card_labels
    return [label[c] for c in S.z["under"].get(label.index(card), [])]


def test_a_move_logs_the_zones_its_cards_left_and_went_to_as_they_were(tmp_path):
    rules = game(tmp_path, "move")
    S = rules.new_game(2, seed=0, record=True, knowledge=True)
    assert events(S) == [
        {"ev": "move", "from": "deck", "to": "under", "to_owner": "c6", "cards": ["c6"]},   # (under the top as it was)
        {"ev": "move", "from": "deck", "to": "table", "cards": ["c5"]},
        {"ev": "move", "from": "deck", "to": "under", "to_owner": "c5", "cards": ["c4"]},
        {"ev": "move", "from": "under", "from_owner": "c5", "to": "table", "cards": ["c4"]},  # (not c4: the table's last after)
        {"ev": "move", "from": "deck", "to": "hand", "to_owner": 0, "cards": ["c3"]}]
    assert under(S, "c6") == ["c6"] and under(S, "c5") == [] and [len(h) for h in S.z["hand"]] == [1, 0]


def test_the_knowledge_of_a_move_is_of_the_zone_the_cards_went_to(tmp_path):
    # seat 0 sees its card go from its hidden hand to seat 1's: it knows where that card is
    # (told that it went to its own hand, it would know nothing of it)
    rules = game(tmp_path, "knowledge")
    S = rules.new_game(2, seed=0, record=True, knowledge=True)
    assert events(S)[-1] == {"ev": "move", "from": "secret", "from_owner": 0, "to": "secret", "to_owner": 1,
                             "cards": ["c5"]}
    c5, c6 = (S.rules.card_labels.index(c) for c in ("c5", "c6"))
    assert S.z["secret"] == [[c6], [c5]] and S.kn == {c6: 0b10, c5: 0b01}


def test_a_deal_from_a_zone_its_cards_change_logs_that_zone(tmp_path):
    # the source is under seat 0's last card; dealt one, seat 0's last card is another
    rules = game(tmp_path, "deal")
    S = rules.new_game(2, seed=0, record=True, knowledge=True)
    dealt = [ev for ev in events(S) if ev["ev"] == "deal" and ev["from"] == "under"]
    assert [(ev["from_owner"], ev["to_owner"], ev["cards"]) for ev in dealt] == [("c6", 0, ["c1"]), ("c6", 1, ["c2"])]
    assert under(S, "c6") == ["c4", "c3"]


def test_a_deal_whose_triggers_change_its_source_s_owner_logs_the_zone_each_card_came_from(tmp_path):
    # v points at c6, four cards go under it; the hand's trigger points v at c2 after the first
    # card dealt: the second still comes from under c6, and its event says so
    rules = game(tmp_path, "deal_triggered")
    S = rules.new_game(2, seed=0, record=True, knowledge=True)
    dealt = [ev for ev in events(S) if ev["ev"] == "deal"]
    assert [(ev["from_owner"], ev["to_owner"], ev["cards"]) for ev in dealt] == [("c6", 0, ["c3"]), ("c6", 1, ["c4"])]
    assert under(S, "c6") == ["c6", "c5"] and S.rules.card_labels[S.v["v"]] == "c2"
    # the knowledge hook and the event of each card read the owner bound before the first, not v
    assert "_know(S, (_x,), 'under', S.v_v" not in rules.module_source
    assert "'from_owner': S.v_v" not in rules.module_source and "'from_owner': _o" in rules.module_source


def test_a_gather_logs_the_zone_it_filled_as_it_was(tmp_path):
    # gathered, the table is empty: its first card as it was names the zone the cards went to
    rules = game(tmp_path, "gather")
    S = rules.new_game(2, seed=0, record=True, knowledge=True)
    assert events(S)[-1] == {"ev": "gather", "from": ["table"], "to": "under", "to_owner": "c6", "cards": ["c6", "c5"]}
    assert under(S, "c6") == ["c6", "c5"] and S.z["table"] == []


def test_a_pick_finds_where_the_card_goes_before_it_moves_and_logs_it(tmp_path):
    rules = game(tmp_path, "pick")
    S = rules.new_game(2, seed=0, record=True, knowledge=True)
    S.apply("c4")   # into seat 0's hand (it held one card before)
    S.apply("c3")   # under c3, the deck's last card before it moved
    picks = [ev for ev in events(S) if ev["ev"] == "pick"]
    assert picks == [{"ev": "pick", "who": 0, "from": "deck", "to": "hand", "cards": ["c4"], "to_owner": 0},
                     {"ev": "pick", "who": 0, "from": "deck", "to": "under", "cards": ["c3"], "to_owner": "c3"}]
    assert [len(h) for h in S.z["hand"]] == [2, 1] and under(S, "c3") == ["c3"]


def test_a_pass_logs_the_seat_its_cards_went_to(tmp_path):
    # the receiver is read once a giver, before its card leaves its hand (two held: me): the same
    # seat is told and dealt to
    rules = game(tmp_path, "pass")
    S = rules.new_game(2, seed=0, record=True, knowledge=True)
    while not S.is_terminal():
        S.apply_index(0)
    passed = [(ev["who"], ev["for"]) for ev in S.ev if ev["ev"] == "pass"]
    received = [(ev["from_seat"], ev["to_owner"]) for ev in S.ev if ev["ev"] == "receive"]
    assert passed == received == [(0, 0), (1, 1)] and [len(h) for h in S.z["hand"]] == [2, 2]


def test_counter_effects_log_the_counter_they_changed(tmp_path):
    rules = game(tmp_path, "counters")
    S = rules.new_game(2, seed=0, record=True, knowledge=True)
    assert [{k: v for k, v in ev.items() if k != "who"} for ev in S.ev] == [
        {"ev": "set_counter", "counter": "score", "owner": 0, "value": 5},
        {"ev": "transfer", "from": "score", "from_owner": 0, "to": "score", "to_owner": 1, "amount": 5},
        {"ev": "lose", "counter": "score", "owner": 1, "amount": 2},
        {"ev": "gain", "counter": "score", "owner": 0, "amount": 1},
        {"ev": "advance", "counter": "pos", "owner": 0, "from": 0, "to": 1},
        {"ev": "gain", "counter": "gems.a", "owner": 0, "amount": 1},
        {"ev": "gain", "counter": "gems.a", "owner": 1, "amount": 1}]
    # the transfer took from seat 0 and gave to seat 1 (its to: asked after the take would say seat 0)
    assert S.c["score"] == [1, 3] and S.c["pos"] == [1, 0]


def test_each_owner_is_evaluated_once_in_the_generated_code(tmp_path):
    rules = load_text(tmp_path, ZONES + "flow:\n  - move: {from: deck, to: \"under[last(deck)]\", count: 1}\n" + SCORING)
    body = rules.module_source.split("def F0(")[1].split("\ndef ")[0]
    assert body.count("_last(") == 1


@pytest.mark.parametrize("name", sorted(STEPS))
def test_the_generated_module_and_its_plain_reference_play_alike(tmp_path, name):
    # each flow above played both ways in lockstep: states, options, events (knowledge on or off)
    rnd = random.Random(7)
    for k in range(4):
        case = Case({"g.yaml": text(name)}, "g.yaml", seed=rnd.randrange(1 << 30))
        assert run_lockstep(case, tmp_path / str(k)) == "played"
