"""What a running step keeps in its frame of a hidden value is made again in a determinized
world (each kind's ``hidden_values``, engine/knowledge.py) on the world's values: a world holds
the same whatever the true hidden values are, in the generated module and in the plain
reference alike."""
from __future__ import annotations

import json
import random

import pytest

from fuzzing.lockstep import reference
from helpers import load_text
from interpreter.errors import GameError

TURNS_SET = """
game: lapset
players: {min: 3, max: 3}
counters:
  gem: {owner: player, visible: owner}
vars:
  _r: int
setup:
  - random: {var: _r, from: "[0, 1]"}
  - set: {"gem[2]": "_r"}
flow:
  - turns:
      players: "players where it == 0 or it == 1 or gem[it] > 0"
      steps:
        - choose: {options: "[1, 2]", as: g, prompt: go}
scoring:
  categories:
    gems: gem
"""


def _both(rules):
    return [rules, reference(rules)]


def _frame(D, size):
    return next(f for f in D.stack if len(f) == size)


def test_turns_whose_players_read_a_hidden_value_count_the_laps_seats_again_in_the_world(tmp_path):
    # seat 2 takes a turn this lap only where its hidden gem is 1: seat 0's worlds hold gem[2]
    # at its start (0), so no world of seat 0 has seat 2 play, whatever the true gem
    for rules in _both(load_text(tmp_path, TURNS_SET)):
        truths = set()
        for seed in range(8):
            S = rules.new_game(3, seed, knowledge=True)
            truths.add(S.v["_r"])
            assert list(_frame(S, 5)[1]) == ([0, 1, 2] if S.v["_r"] else [0, 1])
            for k in range(3):
                D = S.determinize(0, random.Random(k))
                assert list(_frame(D, 5)[1]) == [0, 1], (seed, S.v["_r"])
            D.apply_index(0)
            D.apply_index(0)
            assert D.is_terminal()
        assert truths == {0, 1}


TURNS_FAIL = """
game: sortfail
players: {min: 3, max: 3}
counters:
  pts: {owner: player}
vars:
  _pow: "list[int]"
  g: int
setup:
  - random: {var: _pow, from: "[[1, 2, 3], [3, 2, 1], [2, 3, 1], [1, 3, 2]]"}
flow:
  - turns:
      sort_by: "_pow[me]"
      steps:
        - choose: {who: me, options: "[1, 2]", as: g, prompt: go}
scoring:
  categories:
    points: pts
"""


def test_turns_sorted_by_what_the_world_cannot_read_go_in_table_order_never_the_true_one(tmp_path):
    # the world holds _pow (a list) as none: the sort fails there, and the seats after the one
    # playing go in table order, whatever the true powers
    for rules in _both(load_text(tmp_path, TURNS_FAIL)):
        for seed in range(6):
            S = rules.new_game(3, seed, knowledge=True)
            seat = S.current_player()
            D = S.determinize(seat, random.Random(1))
            order = list(_frame(D, 5)[1])
            assert order == [seat, *sorted({0, 1, 2} - {seat})], (S.v["_pow"], order)


PASS = """
game: passcount
players: {min: 3, max: 3}
counters:
  gem: {owner: player, visible: owner}
vars:
  _n: int
components:
  chip: {attributes: {n: 1..12}, label: "c{n}"}
zones:
  deck: {visible: none, start: [chip]}
  hand: {owner: player, visible: owner}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 4}
  - random: {var: _n, from: "[1, 2, 3]"}
  - set: {"gem[2]": "_n - 1"}
flow:
  - pass: {from: hand, to: "left(me)", count: "_n", players: "players where it < 2 or gem[it] > 0"}
scoring:
  categories:
    n: "0"
"""


def test_a_pass_counts_its_givers_and_cards_again_on_the_worlds_values(tmp_path):
    # seat 1's worlds hold _n as none and gem[2] at 0: seat 0 gives one card (the least seat 1
    # sees it asked for), seat 2 gives none, whatever the true _n; and the world plays on
    for rules in _both(load_text(tmp_path, PASS)):
        truths = set()
        for seed in range(8):
            S = rules.new_game(3, seed, knowledge=True)
            truths.add(S.v["_n"])
            for k in range(3):
                D = S.determinize(1, random.Random(k))
                frame = D.stack[-1]
                assert (frame[4], frame[5], D.dec[0]) == ([0, 1], 1, 0), (S.v["_n"], frame)
            D.apply_index(0)
            assert D.current_player() == 1
            if S.v["_n"] > 1:   # seat 0, asked for a second card: seat 1 saw one put aside
                T = S.clone()
                T.apply_index(0)
                frame = T.determinize(1, random.Random(0)).stack[-1]
                assert (frame[2], frame[5]) == (1, 2)
        assert truths == {1, 2, 3}


PAY = """
game: paycost
players: {min: 2, max: 2}
counters:
  gold: {owner: player, start: 9}
  joker: {owner: player, start: 9}
vars:
  _price: int
setup:
  - random: {var: _price, from: "[2, 3, 4]"}
flow:
  - pay: {who: 0, costs: {gold: "_price"}, any: "_price - 1", from: [gold], joker: joker}
scoring:
  categories:
    g: gold
"""


def test_a_pay_counts_what_it_owes_again_on_the_worlds_values(tmp_path):
    # seat 1's worlds hold _price as none: the unit asked is owed (seat 1 sees seat 0 asked),
    # nothing more, whatever the true price; a unit paid stays paid
    for rules in _both(load_text(tmp_path, PAY)):
        truths = set()
        for seed in range(8):
            S = rules.new_game(2, seed, knowledge=True)
            price = S.v["_price"]
            truths.add(price)
            assert S.stack[-1][2:] == [[price], price - 1, [price, price - 1]]
            D = S.determinize(1, random.Random(seed))
            assert D.stack[-1][2:] == [[1], 0, [1, 0]] and D.dec[0] == 0
            D.apply_index(0)
            assert D.is_terminal()
            S.apply_index(1)   # a unit of gold paid with the joker: one of the price owed still
            D = S.determinize(1, random.Random(seed))
            assert D.stack[-1][2:] == [[1], 0, [2, 0]], D.stack[-1]
        assert truths == {2, 3, 4}


CHOSEN = """
game: chosen
players: {min: 2, max: 3}
vars:
  _votes: "list[int]"
flow:
  - choose: {who: 0, options: "1..9", as: g, prompt: pick}
  - choose: {simultaneous: true, options: "1..5", as: _votes, prompt: vote}
scoring:
  categories:
    nothing: "0"
"""


def test_a_saved_state_naming_a_seat_that_knows_an_entry_of_no_list_a_seat_is_refused(tmp_path):
    rules = load_text(tmp_path, CHOSEN)
    S = rules.new_game(2, 1, knowledge=True)
    d = json.loads(S.to_json())
    assert d["known"] == {}   # (no rule wrote _votes yet: nobody is said to know it)
    d["known"] = {"_votes": 3}
    d["vars"]["_votes"] = [3]   # one entry for two seats
    with pytest.raises(GameError, match=r"known\[_votes\]: .*one entry a seat \(2\), but it holds a list of 1"):
        rules.state_from_json(json.dumps(d))
    d["known"] = {"\u00b2": 1}   # a digit to str.isdigit, no card id
    with pytest.raises(GameError, match="known: no private variable '\u00b2'"):
        rules.state_from_json(json.dumps(d))
    d["vars"]["_votes"] = [3, 4]
    d["known"] = {"_votes": 1}
    T = rules.state_from_json(json.dumps(d))
    assert T.determinize(0, random.Random(0)).v["_votes"] == [3, None]
    # what a load accepts a world keeps: a seat's known entry of a list that is none
    d["vars"]["_votes"] = None
    T = rules.state_from_json(json.dumps(d))
    assert T.determinize(0, random.Random(0)).v["_votes"] is None


WRITTEN_UNSEEN = """
game: condwrite
players: {min: 2, max: 2}
components:
  chip: {attributes: {n: 1..4}, label: "c{n}"}
zones:
  deck: {visible: none, start: [chip]}
vars:
  _hit: {type: bool, start: true}
setup:
  - shuffle: deck
  - if: "deck[count(deck) - 1].n == 1"
    then: [{set: {_hit: false}}]
flow:
  - choose: {who: 0, options: "[1, 2]", as: g, prompt: go}
scoring:
  categories:
    n: "0"
"""


def test_whether_a_rule_wrote_a_private_variable_under_a_hidden_condition_stays_hidden(tmp_path):
    # the setup writes _hit only when the hidden top card is c1: a world that kept the start of
    # a variable no rule wrote would tell seat 0 the top card is not c1 (every world true); the
    # worlds of a game where the write happened and of one where it did not are the same
    for rules in _both(load_text(tmp_path, WRITTEN_UNSEEN)):
        games = [rules.new_game(2, seed, knowledge=True) for seed in range(12)]
        wrote = [S for S in games if S.v["_hit"] is False]
        unwritten = [S for S in games if S.v["_hit"] is True]
        assert wrote and unwritten
        worlds = {tuple(S.determinize(0, random.Random(i)).v["_hit"] for i in range(30)) for S in (wrote[0], unwritten[0])}
        assert len(worlds) == 1 and set(next(iter(worlds))) == {False, True}
        assert all("_hit" not in S.kn for S in games)


def test_a_pay_saved_without_what_it_owed_loads_and_plays_on(tmp_path):
    # a frame of four slots (saved before the units owed were kept): nothing paid, as far as a
    # world can tell; the pay goes on
    rules = load_text(tmp_path, PAY)
    S = rules.new_game(2, 3, knowledge=True)
    d = json.loads(S.to_json())
    del d["stack"][-1][4]
    T = rules.state_from_json(json.dumps(d))
    D = T.determinize(1, random.Random(0))
    assert D.stack[-1][2:] == [[1], 0, [1, 0]]
    T.apply_index(0)
    while not T.is_terminal():
        T.apply_index(0)
    assert T.c["gold"][0] + T.c["joker"][0] == 18 - 2 * T.v["_price"] + 1


BOTH = """
game: both
players: {min: 2, max: 2}
vars:
  _x: any
flow:
  - choose: {simultaneous: true, options: "1..3", as: _x, prompt: vote}
  - choose: {who: 0, options: "[[7], [8]]", as: _x, prompt: pick}
  - choose: {who: 1, options: "[1, 2]", as: g, prompt: wait}
scoring:
  categories:
    n: "0"
"""


def test_a_saved_state_of_a_list_a_single_choice_stored_where_a_simultaneous_one_reveals_loads(tmp_path):
    # seat 0 chose [7] into _x, which a simultaneous choice writes too: one entry for two seats,
    # and what seat 0 knows all the same
    rules = load_text(tmp_path, BOTH)
    S = rules.new_game(2, 1, knowledge=True)
    for label in ("1", "2", "7"):
        S.apply(label)
    assert S.v["_x"] == [7] and S.kn == {"_x": 1}
    T = rules.state_from_json(S.to_json())
    assert T.determinize(0, random.Random(0)).v["_x"] == [7] and T.determinize(1, random.Random(0)).v["_x"] is None


def test_a_pay_frame_whose_units_left_and_owed_do_not_fit_together_is_refused(tmp_path):
    # one cost: the units left one entry, the units owed two (the cost's, any kind's), each at
    # least what is left of it; a frame otherwise broke a world ("in pay: index out of range")
    for rules in _both(load_text(tmp_path, PAY)):
        S = rules.new_game(2, 3, knowledge=True)
        d = json.loads(S.to_json())
        price = S.v["_price"]
        assert d["stack"][-1][2:] == [[price], price - 1, [price, price - 1]]
        d["stack"][-1][3] = 0   # (none of any kind left)
        for left, owed, fault in (([], [4, 0], r"units left to pay: one entry a cost \(1\), got 0"),
                                  ([2, 2], [4, 0], r"units left to pay: one entry a cost \(1\), got 2"),
                                  ([4], [], r"units owed: one entry a cost and one for any kind \(2\), got 0"),
                                  ([4], [1], r"units owed: .*got 1"),
                                  ([4], [0, 0, 0, 0], r"units owed: .*got 4"),
                                  ([4], [3, 0], r"units owed: each at least the units left of it \(\[4, 0\]\), got \[3, 0\]")):
            e = json.loads(json.dumps(d))
            e["stack"][-1][2], e["stack"][-1][4] = left, owed
            with pytest.raises(GameError, match=r"stack\[0\]: a frame of step 0 \(pay\): " + fault):
                rules.state_from_json(json.dumps(e))
        e = json.loads(json.dumps(d))
        e["stack"][-1][2], e["stack"][-1][4] = [1], [9, 0]   # (eight of nine paid: fits)
        assert rules.state_from_json(json.dumps(e)).determinize(1, random.Random(0)).stack[-1][2] == [1]
