"""Worlds that remember a seat could not follow (engine/voids.py): a card played that does not
follow tells every seat that sees the trick that the hand held none of the led value's cards;
a determinization never deals one of them into that hand, until a card enters it."""
from __future__ import annotations

import json
import random

import pytest

import interpreter
from interpreter.engine.knowledge import VOIDS_FLAW
from interpreter.errors import GameError
from fuzzing.lockstep import reference
from helpers import load_text, trick_ruleset


def voided(rules, players: int, seed: int, limit: int = 400):
    """A game played at random with knowledge kept until a play records a void: the state
    before that play, the state after it, and the entry it added."""
    for game in range(seed, seed + 20):   # (the first seed from ``seed`` on whose game has one)
        S = rules.new_game(players, game, knowledge=True)
        rnd = random.Random(game)
        for _ in range(limit):
            if S.over:
                break
            before = S.clone()
            S.apply_index(rnd.randrange(len(S.dec[1])))
            new = set(S.vd) - set(before.vd)
            if new:
                return before, S, new.pop()
    raise AssertionError("no void in the games")


def holding(worlds, zone, owner, cards) -> int:
    """How many of ``worlds`` deal ``zone`` of ``owner`` one of ``cards``."""
    return sum(not cards.isdisjoint(D.z[zone][owner]) for D in worlds)


@pytest.mark.parametrize("name", ["hearts", "spades"])
def test_a_seat_that_did_not_follow_is_never_dealt_the_led_suit(name):
    rules = interpreter.load(name)
    before, S, (zone, owner, cards, seats) = voided(rules, 4, 3)
    suit = rules.attr_tables["suit"]
    led = S.z["table"][0] if S.z["table"] else before.z["table"][0]   # (the trick may have ended)
    assert cards == {c for c in range(52) if suit[c] == suit[led]}   # the led suit, every card of it
    assert seats == 0b1111   # every seat saw the trick
    assert cards.isdisjoint(S.z[zone][owner])
    seat = next(p for p in range(4) if p != owner)
    # before the play the seat could not tell: some of its worlds deal that hand the suit
    assert holding([before.determinize(seat, random.Random(k)) for k in range(200)], zone, owner, cards) > 0
    worlds = [S.determinize(seat, random.Random(k)) for k in range(200)]
    assert holding(worlds, zone, owner, cards) == 0
    assert all(D.vd == S.vd for D in worlds)   # (a world keeps what the seat saw)
    # the suit goes to the other hidden hands, each card to a place of theirs at random (the fitting
    # sets nest: every fitting deal equally likely), so in proportion to the cards the seat cannot place
    others = [p for p in range(4) if p not in (seat, owner)]
    free = {p: sum(not S.kn.get(c, 0) >> seat & 1 for c in S.z[zone][p]) for p in others}
    hidden = cards & {c for p in others for c in S.z[zone][p] if not S.kn.get(c, 0) >> seat & 1}
    assert hidden
    got = {p: sum(len(hidden.intersection(D.z[zone][p])) for D in worlds) for p in others}
    share = got[others[0]] / sum(got.values())
    assert abs(share - free[others[0]] / sum(free.values())) < 0.08, (got, free)


def test_every_void_recorded_holds_and_worlds_keep_them_all():
    rules = interpreter.load("hearts")
    S = rules.new_game(4, 5, knowledge=True)
    rnd, checked = random.Random(5), 0
    while not S.over:
        for zone, owner, cards, _ in S.vd:
            assert cards.isdisjoint(S.z[zone][owner])
        if len(S.vd) >= 2 and checked < 20:
            seat = S.current_player()
            D = S.determinize(seat, random.Random(checked))
            for zone, owner, cards, _ in S.vd:
                assert cards.isdisjoint(D.z[zone][owner])
            checked += 1
        S.apply_index(rnd.randrange(len(S.dec[1])))
    assert checked > 10


DRAW = "on_void: [{move: {from: deck, to: 'hand[me]', count: 1}}]"


def test_a_card_drawn_into_the_hand_drops_the_fact(tmp_path):
    # the same game, its hook on a void scoring a point or drawing a card into the hand
    kept = load_text(tmp_path, trick_ruleset(ranks=10, hooks="on_void: [{gain: {counter: points}}]"), "a.yaml")
    drawn = load_text(tmp_path, trick_ruleset(ranks=10, hooks=DRAW), "b.yaml")
    assert voided(kept, 3, 1)[2]   # recorded where nothing enters the hand
    draws = 0
    for seed in range(10):
        S = drawn.new_game(3, seed, knowledge=True)
        rnd = random.Random(seed)
        while not S.over:
            deck = len(S.z["deck"])
            S.apply_index(rnd.randrange(len(S.dec[1])))
            draws += len(S.z["deck"]) < deck
            assert S.vd == ()   # each void drew a card into the hand at once
    assert draws > 3


PASSING = """
game: g
players: {min: 3, max: 3}
components:
  cards: {attributes: {suit: [A, B], rank: 1..6}, label: "{rank}{suit}"}
zones:
  deck: {start: [cards], visible: none}
  hand: {owner: player, visible: owner}
  table: {owner: none, visible: all}
  taken: {owner: player, visible: all}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 4}
flow:
  - tricks: {hand: hand, table: table, leader: 0, follow: suit, rank: rank, collect: taken, count: 2}
  - pass: {from: hand, count: 1, to: "left(me)"}
  - tricks: {hand: hand, table: table, leader: 0, follow: suit, rank: rank, collect: taken}
scoring:
  categories: {tricks: "count(taken)"}
"""


def test_a_card_passed_into_the_hand_drops_the_fact(tmp_path):
    rules = load_text(tmp_path, PASSING)
    found = 0
    for seed in range(40):
        S = rules.new_game(3, seed, knowledge=True)
        rnd = random.Random(seed)
        while S.prompt() != "pass":
            S.apply_index(rnd.randrange(len(S.dec[1])))
        if not S.vd:
            continue
        found += 1
        owners = {owner for _, owner, _, _ in S.vd}
        while S.prompt() == "pass":
            S.apply_index(0)
        assert S.vd == ()   # every hand took a card
        assert owners
    assert found > 3


def test_a_hidden_table_keeps_no_fact_and_open_hands_record_none(tmp_path):
    hidden = load_text(tmp_path, trick_ruleset(ranks=10).replace("table: {owner: none, visible: all}",
                                                                  "table: {owner: none, visible: none}"), "a.yaml")
    shown = load_text(tmp_path, trick_ruleset(ranks=10).replace("hand: {owner: player, visible: owner}",
                                                                 "hand: {owner: player, visible: all}"), "b.yaml")
    seen = load_text(tmp_path, trick_ruleset(ranks=10), "c.yaml")
    for rules, recorded in ((hidden, False), (shown, False), (seen, True)):
        step = next(s for s in rules.steps if s.kind == "tricks")
        assert step.voids_seen == recorded
        total = 0
        for seed in range(10):
            S = rules.new_game(3, seed, knowledge=True)
            rnd = random.Random(seed)
            while not S.over:
                S.apply_index(rnd.randrange(len(S.dec[1])))
                total += len(S.vd)
        assert (total > 0) == recorded


def keyed_game(tmp_path):
    """A trick game whose follow key reads a variable each trick's winner changes (a trump
    named in play): the high cards of the suit it names follow as a suit of their own."""
    return load_text(tmp_path, trick_ruleset(
        "vars:\n  high: {type: str, start: \"'A'\"}\n", ranks=8,
        hooks="on_win: [{set: {high: \"'B' if high == 'A' else 'A'\"}}]").replace(
        "follow: suit", "follow: \"'T' if suit == high and rank > 6 else suit\""))


def test_a_key_that_reads_the_state_is_read_for_every_card_as_the_void_is_seen(tmp_path):
    rules = keyed_game(tmp_path)
    suit, rank = rules.attr_tables["suit"], rules.attr_tables["rank"]
    seen = set()
    for seed in range(0, 60, 3):
        before, S, (_, owner, cards, _) = voided(rules, 3, seed)
        high = before.v["high"]
        keys = ["T" if suit[c] == high and rank[c] > 6 else suit[c] for c in range(len(suit))]
        led = keys[before.z["table"][0]]
        assert cards == {c for c, k in enumerate(keys) if k == led}   # as the key read then
        seen.add(led)
    assert seen >= {"A", "B", "T"}


def test_the_generated_module_and_the_reference_record_the_same_voids(tmp_path):
    keyed = keyed_game(tmp_path)
    for rules, players in ((interpreter.load("hearts"), 4), (interpreter.load("spades"), 4),
                           (interpreter.load("euchre"), 4), (interpreter.load("oh_hell"), 4),
                           (interpreter.load("diamonds"), 4), (keyed, 3)):
        ref, voids = reference(rules), 0
        for seed in range(3):
            a, b = rules.new_game(players, seed, knowledge=True), ref.new_game(players, seed, knowledge=True)
            rnd = random.Random(seed)
            while not a.over:
                assert a.to_json() == b.to_json()
                i = rnd.randrange(len(a.dec[1]))
                a.apply_index(i)
                b.apply_index(i)
                voids += len(a.vd)
            assert a.to_json() == b.to_json()
        assert voids > 0, rules.name


def test_a_saved_state_keeps_its_voids_and_an_older_one_loads_without():
    rules = interpreter.load("hearts")
    _, S, _ = voided(rules, 4, 3)
    d = json.loads(S.to_json())
    assert d["voids"] and all(entry[3] == 15 for entry in d["voids"])
    T = rules.state_from_json(S.to_json())
    assert T.vd == S.vd or set(T.vd) == set(S.vd)
    assert T.to_json() == S.to_json()
    del d["voids"]
    older = rules.state_from_json(json.dumps(d))
    assert older.vd == ()
    # a state with no void writes no such field (its text as before)
    assert "voids" not in json.loads(rules.new_game(4, 3, knowledge=True).to_json())


def test_a_replay_rebuilds_the_voids():
    rules = interpreter.load("spades")
    _, S, _ = voided(rules, 4, 2)
    again = rules.new_game(4, 2, knowledge=True)
    rnd = random.Random(2)
    while again.to_json() != S.to_json():
        again.apply_index(rnd.randrange(len(again.dec[1])))
    assert again.vd and set(again.vd) == set(S.vd)


@pytest.mark.parametrize("entry, says", [   # (H: a card hand 0 holds; F, G: two it does not)
    ([["hand", 9, ["F"], 15]], "voids[0]: no player 9 in this game (players 0 to 3)"),
    ([["hand", 0, ["H"], 15]], "voids[0]: zones.hand[0] holds card"),
    ([["table", 0, ["F"], 15]], "voids[0]: 'table' is not a zone of the ruleset owned by each player or team"),
    ([["hand", 0, [999], 15]], "voids[0]: no card 999 (card ids are 0 to 51)"),
    ([["hand", 0, [], 15]], "voids[0]: expected a list of card ids, not empty"),
    ([["hand", 0, ["F", "F"], 15]], "voids[0]: a card listed twice"),
    ([["hand", 0, ["F"], 0]], "voids[0]: expected a bitmask of seats"),
    ([["hand", 0, ["F"], 16]], "voids[0]: expected a bitmask of seats"),
    ([["hand", 0, ["F"], True]], "voids[0]: expected a bitmask of seats"),
    ([["hand", 0, ["F"]]], "voids[0]: expected [zone, owner, [card ids], seats]"),
    ({}, "voids: expected a list"),
    ([["hand", 0, ["F"], 15], ["hand", 0, ["G"], 15]], "voids[1]: a second entry of zones.hand[0] for the same seats"),
])
def test_a_crafted_voids_entry_is_refused_with_its_place(entry, says):
    rules = interpreter.load("hearts")
    d = json.loads(rules.new_game(4, 3, knowledge=True).to_json())
    hand = d["zones"]["hand"][0]
    free = [c for c in range(52) if c not in hand]
    card = {"H": hand[0], "F": free[0], "G": free[1]}
    d["voids"] = [[*e[:2], [card.get(c, c) for c in e[2]], *e[3:]] for e in entry] if isinstance(entry, list) else entry
    with pytest.raises(GameError) as e:
        rules.state_from_json(json.dumps(d))
    assert e.value.message.startswith("not a saved state of hearts: ") and says in e.value.message
    # and none without the record of what seats know, which they are kept with
    d["voids"], d["known"] = [["hand", 0, [free[0]], 15]], None
    with pytest.raises(GameError, match="voids: what the table learnt of hands is kept with"):
        rules.state_from_json(json.dumps(d))
    d["known"] = {}
    assert rules.state_from_json(json.dumps(d)).vd == (("hand", 0, frozenset([free[0]]), 15),)


def test_a_clone_holds_its_own_voids():
    rules = interpreter.load("hearts")
    _, S, _ = voided(rules, 4, 3)
    text, vd = S.to_json(), S.vd
    C = S.clone()
    rnd = random.Random(0)
    while C.vd == vd and not C.over:
        C.apply_index(rnd.randrange(len(C.dec[1])))
    assert C.vd != vd and S.vd is vd and S.to_json() == text
    C.vd = ()
    assert S.vd is vd


def test_a_world_no_deal_can_keep_falls_back_and_says_so():
    # a crafted state: every hidden card recorded as missing from every hidden hand
    rules = interpreter.load("hearts")
    _, S, _ = voided(rules, 4, 3)
    seat = S.current_player()
    every = frozenset(range(len(rules.card_labels)))
    S.vd = tuple(("hand", p, every - frozenset(S.z["hand"][p]), 15) for p in range(4) if p != seat)
    S.vd += tuple(("hand", p, every, 15) for p in range(4) if p != seat)
    flaws: list = []
    D = S.determinize(seat, random.Random(0), flaws)
    assert flaws == [VOIDS_FLAW]
    assert sorted(c for p in range(4) for c in D.z["hand"][p]) == sorted(c for p in range(4) for c in S.z["hand"][p])
    assert all(entry[2].isdisjoint(D.z["hand"][entry[1]]) for entry in D.vd)   # (the world keeps what holds)


def test_a_seat_that_did_not_see_the_play_keeps_no_fact_in_its_worlds():
    # (a crafted record: every seat sees a trick's table or none does) a void the seat did not
    # see binds neither its worlds' deals nor their records
    rules = interpreter.load("hearts")
    _, S, (zone, owner, cards, _) = voided(rules, 4, 3)
    seat = next(p for p in range(4) if p != owner)
    S.vd = ((zone, owner, cards, 0b1111 & ~(1 << seat)),)
    worlds = [S.determinize(seat, random.Random(k)) for k in range(200)]
    assert holding(worlds, zone, owner, cards) > 0
    assert all(D.vd == () for D in worlds)
    other = next(p for p in range(4) if p not in (seat, owner))
    assert holding([S.determinize(other, random.Random(k)) for k in range(200)], zone, owner, cards) == 0
