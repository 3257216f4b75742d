"""A determinized world's recounts (each step's ``hidden_values``, a when-trigger's value asked
again: engine/knowledge.py ``_dealt``) read the world's own deal: the record of each card's
zone (``x in zone``) and a sorted zone's order are the world's, made before any expression runs
on it. In the generated module and the plain reference alike."""
from __future__ import annotations

import random

import pytest

from fuzzing.lockstep import reference
from helpers import load_text
from interpreter.engine import knowledge
from interpreter.engine.invariants import weight
from interpreter.engine.sight import hidden_reads
from interpreter.errors import GameError
from interpreter.mechanics.passing import COUNT, GIVERS
from interpreter.play.agents import choose, make_agents

STASH = """
game: stashed
players: {min: 2, max: 2}
counters:
  gold: {owner: player, start: 40}
  joker: {owner: player, start: 40}
  points: {start: 0}
vars:
  pc: card
components:
  chip: {attributes: {n: 1..30}, label: "c{n}"}
zones:
  deck: {visible: none, start: [chip]}
  stash: {visible: none}
  hand: {owner: player, visible: owner, sorted: true}
triggers:
  seen:
    when: "pc in stash"
    do: [{gain: {counter: points}}]
setup:
  - shuffle: deck
  - move: {from: deck, to: stash, count: 10}
  - deal: {from: deck, to: hand, count: 8}
  - set: {pc: "first((deck + stash) where n == 1)"}
flow:
  - pay: {who: 0, costs: {gold: "COST"}, joker: joker}
  - choose: {who: 1, options: "[1, 2]", as: g, prompt: after}
scoring:
  categories:
    g: gold
"""


def _both(tmp_path, cost: str) -> list:
    rules = load_text(tmp_path, STASH.replace("COST", cost))
    return [rules, reference(rules)]


def _worlds(S, seat: int, k: int = 8) -> list:
    return [S.determinize(seat, random.Random(i)) for i in range(k)]


def test_a_recount_reading_where_a_card_lies_reads_the_worlds_deal(tmp_path):
    # `pc in stash` is answered from the record of each card's zone: seat 1's worlds deal the
    # stash again, and each owes what its own stash makes
    for rules in _both(tmp_path, "1 if pc in stash else 2"):
        owed = set()
        for seed in range(3):
            S = rules.new_game(2, seed, knowledge=True)
            for D in _worlds(S, 1):
                assert D.stack[-1][2][0] == (1 if D.v["pc"] in D.z["stash"] else 2)
                owed.add(D.stack[-1][2][0])
        assert owed == {1, 2}


def test_a_when_triggers_value_asked_again_reads_the_worlds_record(tmp_path):
    # seat 0's own question pending (its worlds ask nothing again), the stash hidden from it
    for rules in _both(tmp_path, "1"):
        key = rules.triggers.when[0][4]
        seen = set()
        for seed in range(3):
            S = rules.new_game(2, seed, knowledge=True)
            for D in _worlds(S, 0):
                assert D.v[key] == (D.v["pc"] in D.z["stash"])
                seen.add(D.v[key])
        assert seen == {True, False}


def test_a_recount_reading_a_sorted_zone_reads_it_in_order(tmp_path):
    for rules in _both(tmp_path, "1 + first(hand[0]).n"):
        for seed in range(3):
            S = rules.new_game(2, seed, knowledge=True)
            for D in _worlds(S, 1):
                hand = D.z["hand"][0]
                assert hand == sorted(hand)
                assert D.stack[-1][2][0] == 1 + int(D.rules.card_labels[hand[0]][1:])


OWN = """
game: own
players: {min: 2, max: 2}
counters:
  gold: {owner: player, start: 40}
  joker: {owner: player, start: 40}
define:
  h0: "hand[0]"
components:
  chip: {attributes: {n: 1..12}, label: "c{n}"}
zones:
  deck: {visible: none, start: [chip]}
  hand: {owner: player, visible: owner}
  discard: {visible: none}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 6}
flow:
  - STEP
"""
REPEAT = """repeat: "count(hand[0] where n > 6)"
    steps:
      - choose: {who: 0, options: "[1, 2]", as: g, prompt: go}
      - move: {cards: "hand[0] where n > 6", count: 1, from: "hand[0]", to: discard}"""


def _own(tmp_path, step: str) -> list:
    rules = load_text(tmp_path, OWN.replace("STEP", step))
    return [rules, reference(rules)]


def _high(S, p: int) -> int:
    return sum(1 for c in S.z["hand"][p] if int(S.rules.card_labels[c][1:]) > 6)


def test_a_repeat_over_a_hand_its_seat_sees_keeps_its_count_in_that_seats_worlds(tmp_path):
    # seat 0 saw hand[0] when the loop began: its worlds run the passes the game runs, though
    # the high cards counted have left the hand since; seat 1's worlds count again, never fewer
    # passes than those begun
    low = 0
    for rules in _own(tmp_path, REPEAT):
        for seed in range(6):
            S = rules.new_game(2, seed, knowledge=True)
            if _high(S, 0) < 2:
                continue
            true = _high(S, 0)   # (the passes the loop runs)
            S.apply_index(0)   # one pass run: a high card gone to the discard
            assert next(f for f in S.stack if len(f) == 3)[1:] == [2, true]
            for D in _worlds(S, 0, 4):
                assert next(f for f in D.stack if len(f) == 3)[1:] == [2, true]
            for D in _worlds(S, 1, 8):
                done, times = next(f for f in D.stack if len(f) == 3)[1:]
                assert times == max(done, _high(D, 0)) and done == 2
                low += _high(D, 0) < done
    assert low   # (some world's hand holds fewer high cards than passes begun)


def test_a_pass_count_over_the_givers_own_hand_keeps_its_count_in_its_worlds(tmp_path):
    for rules in _own(tmp_path, 'pass: {from: hand, to: "left(me)", count: "count(hand[0] where n > 6)"}'):
        for seed in range(6):
            S = rules.new_game(2, seed, knowledge=True)
            frame = S.stack[-1]
            if S.current_player() != 0 or frame[COUNT] < 2:
                continue
            true = frame[COUNT]
            S.apply(next(o for o in S.legal_actions() if int(o[1:]) > 6))   # a high card put aside
            assert all(D.stack[-1][COUNT] == true for D in _worlds(S, 0, 4))


def test_a_define_of_a_zone_counted_reads_no_card(tmp_path):
    rules = load_text(tmp_path, OWN.replace("STEP", 'pay: {who: 0, costs: {gold: "count(h0) + 1"}, joker: joker}'))
    pay = next(s for s in rules.steps if s.kind == "pay")
    assert hidden_reads(rules, pay.cost_fns[0]) == frozenset()
    rules = load_text(tmp_path, OWN.replace("STEP", 'pay: {who: 0, costs: {gold: "count(h0 where n > 6) + count(me.hand) + count(discard)"}, joker: joker}'))
    pay = next(s for s in rules.steps if s.kind == "pay")
    assert hidden_reads(rules, pay.cost_fns[0]) == frozenset({("hand", 0)})


PASSED_ANY = """
game: passany
players: {min: 2, max: 2}
components:
  chip: {attributes: {n: 1..12}, label: "c{n}"}
zones:
  deck: {visible: none, start: [chip]}
  hand: {owner: player, visible: owner}
vars:
  odd: {type: any, start: ODD}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 3}
flow:
  - pass: {from: hand, to: "left(me)", count: 1, players: "players if count(hand[0] where n > 9) == 0 else odd"}
scoring:
  categories:
    n: "0"
"""


def test_givers_a_world_counts_that_are_no_seats_go_in_the_tables_order(tmp_path):
    # the real hand[0] holds no card above 9; a world of seat 1 that deals it one counts the givers
    # as odd, which holds no seat: the seats in table order, never an error
    for odd in ("[[0, 1]]", "[x]", "[5]"):
        rules = load_text(tmp_path, PASSED_ANY.replace("ODD", odd))
        for ruleset in (rules, reference(rules)):
            worlds = 0
            for seed in range(40):
                try:
                    S = ruleset.new_game(2, seed, knowledge=True)
                except GameError:   # (this deal's hand[0] holds a card above 9: the real game stops)
                    continue
                if S.current_player() != 0:
                    continue
                S.apply_index(0)   # seat 0 gave: seat 1 asked
                for D in _worlds(S, 1, 10):
                    assert list(D.stack[-1][GIVERS]) == [0, 1]
                    worlds += any(int(D.rules.card_labels[c][1:]) > 9 for c in D.z["hand"][0])
                if worlds:
                    break
            assert worlds


def test_a_world_that_cannot_be_built_never_stops_a_search_agent(tmp_path, monkeypatch):

    def no_deal(*args, **kwargs):
        raise GameError("cannot determinize: no deal of the hidden cards into the zones' holds")
    rules = load_text(tmp_path, STASH.replace("COST", "1"))
    S = rules.new_game(2, 0, knowledge=True)
    monkeypatch.setattr(knowledge, "_dealt", no_deal)
    for spec in ("ismcts:iterations=5", "greedy:samples=2", "rollouts:n=2"):
        agent = make_agents(spec + ",random", 2, 0)[0]
        assert 0 <= choose(agent, S, 0) < len(S.legal_actions())
        assert getattr(agent, "failures", 5) == 5   # (the search's iterations: each a world that broke)


DEAR = """
game: dear
players: {min: 2, max: 2}
vars:
  g: card
  l: {type: "list[int]", start: []}
  _k: {type: int, start: 0}
components:
  chip: {attributes: {n: 1..30}, label: "c{n}"}
zones:
  deck: {visible: none, start: [chip]}
  hand: {owner: player, visible: owner}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 8}
  - set: {_k: 5}
flow:
  - repeat: "count(l as a where count(1..15 where it == a) > 0) + count(hand[0] where n > 3) % 2 + 1"
    steps: [{choose: {who: 0, options: "hand[0] where _k == 5", as: g, prompt: go}}]
scoring:
  categories:
    n: "0"
"""


def test_the_worlds_dealt_are_fewer_where_their_recounts_may_cost_much(tmp_path, monkeypatch):
    # the repeat's count, read of hand[0]'s cards, is counted again in each of seat 1's worlds: it
    # may take 520,000 operations (a filter over a list variable weighed at 10,000 elements; empty
    # here), so WORLD_WORK affords 30 deals, not TRIES; none lets seat 0 be asked again (its
    # options read _k, which the worlds reset): the determinization says so after them
    rules = load_text(tmp_path, DEAR)
    repeat = next(s for s in rules.steps if s.kind == "repeat")
    afforded = knowledge.WORLD_WORK // weight(repeat.times)
    assert afforded == 30 < knowledge.TRIES, afforded
    dealt, deals = knowledge._dealt, []

    def counted(*args):
        deals.append(1)
        return dealt(*args)
    monkeypatch.setattr(knowledge, "_dealt", counted)
    for ruleset in (rules, reference(rules)):
        S = ruleset.new_game(2, 0, knowledge=True)
        del deals[:]
        with pytest.raises(GameError, match=f"no deal of the hidden cards in {afforded} lets seat 0"):
            S.determinize(1, random.Random(0))
        assert len(deals) == afforded
        del deals[:]
        assert S.determinize(0, random.Random(0)).stack[-1] == S.stack[-1] and len(deals) == 1   # (its own: one deal)


def test_a_pay_cost_checked_where_it_starts_weighs_what_its_expression_does(tmp_path):
    # a cost of type any is wrapped in the check that it is a whole number: the wrapper weighs
    # its expression's bound, not MAX_COST (which would cut every such pay's worlds to 15 deals)
    text = OWN.replace("define:", "vars:\n  x: {type: any, start: 1}\ndefine:")
    rules = load_text(tmp_path, text.replace("STEP", 'pay: {who: 0, costs: {gold: "x + count(hand[0] where n > 6)"}, joker: joker}'))
    fn = next(s for s in rules.steps if s.kind == "pay").cost_fns[0]
    assert fn.__name__ == "checked" and weight(fn) < 1000


def test_a_turns_rounds_counted_again_never_end_before_the_lap_running(tmp_path):
    step = 'turns: {rounds: "count(hand[0] where n > 6)", steps: [{choose: {options: "[1, 2]", as: g, prompt: go}}]}'
    short = 0
    loaded = load_text(tmp_path, OWN.replace("STEP", step).replace("count: 6", "count: 4"))   # (4 cards in the deck)
    for rules in (loaded, reference(loaded)):
        for seed in range(8):
            S = rules.new_game(2, seed, knowledge=True)
            if _high(S, 0) < 3:
                continue
            for _ in range(5):   # two laps and seat 0's turn of the third
                S.apply_index(0)
            for D in _worlds(S, 1, 8):
                laps, limit = next(f for f in D.stack if len(f) == 5)[3:]
                assert laps == 2 and limit == max(_high(D, 0), laps + 1), (laps, limit)
                short += _high(D, 0) < laps + 1
    assert short
