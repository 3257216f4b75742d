"""What running steps keep of hidden values, dealt again in a determinized world
(engine/knowledge.py), survives the values the world believes (engine/beliefs.py): a private
variable the world holds as none, or as a value drawn. Each step kind's ``hidden_values`` is
asked with a private value in what it reads; a failure inside one is a located error."""
from __future__ import annotations

import random

import pytest

from helpers import chip_hands, hit_if, hits_game, load_text, run_cli, write_ruleset
from interpreter.errors import GameError
from interpreter.expr.runtime import ExprRuntimeError
from interpreter.mechanics.choose import CHOICES
from test_determinize_worlds import ORDER, PICK

SIMUL = hits_game("simul_cap", """
vars:
  _cap: int
  bid: "list[int]"
setup:
  - set: {_cap: 3}
flow:
  - choose: {who: players, options: "1.._cap", as: bid, simultaneous: true, prompt: bid}
""")


def test_a_simultaneous_choice_whose_options_read_a_private_none_is_none_in_a_world(tmp_path):
    # seat 0 bid among 1.._cap; seat 1's world holds _cap as none: seat 0's bid there is none
    rules = load_text(tmp_path, SIMUL)
    S = rules.new_game(2, 3, knowledge=True)
    S.apply_index(2)
    assert S.stack[-1][CHOICES][0] == 3
    D = S.determinize(1, random.Random(0))
    assert D.v["_cap"] is None and D.stack[-1][CHOICES][0] is None
    assert D.dec[0] == 1


def test_play_with_a_search_agent_over_a_simultaneous_choice_of_private_options(tmp_path, capsys):
    path = write_ruleset(tmp_path, SIMUL)
    code, out, err = run_cli(capsys, "play", str(path), "-p", "2", "--agents", "random,ismcts:iterations=10",
                             "--seed", "3")
    assert code == 0 and "internal error" not in err, err


# test_determinize_worlds' pick, its destination read from a private list of seats
PICK_DST = PICK.replace("pick_aside", "pick_dst").replace("components:", 'vars:\n  _l: "list[player]"\ncomponents:').replace(
    "count: 4}\n", 'count: 4}\n  - set: {_l: "[1]"}\n').replace('to: "safe[1]"', 'to: "safe[first(_l)]"')


def test_a_pick_whose_destination_reads_a_private_none_names_a_card_the_world_dealt(tmp_path):
    # the world holds _l as none: it cannot name the pick's destination, so the card picked is
    # one of the world's cards seat 0 cannot place
    rules = load_text(tmp_path, PICK_DST)
    S = rules.new_game(2, 3, knowledge=True)
    S.apply_index(0)
    for i in range(6):
        D = S.determinize(0, random.Random(i))
        assert D.v["_l"] is None
        picked = D.stack[-1][1]
        assert len(picked) == 1 and picked[0] in D.z["hand"][1] + D.z["safe"][1] + D.z["deck"]
        assert rules.state_from_json(D.to_json()).digest() == D.digest()


def test_a_failure_inside_a_steps_hidden_values_is_a_located_error(tmp_path, monkeypatch):
    rules = load_text(tmp_path, SIMUL)
    S = rules.new_game(2, 3, knowledge=True)
    S.apply_index(2)
    step = rules.steps[S.stack[-1][0]]

    def broken(*_args):
        raise ExprRuntimeError("none used as a value")

    monkeypatch.setattr(step, "hidden_values", broken)
    with pytest.raises(GameError) as e:
        S.determinize(1, random.Random(0))
    assert "in choose" in str(e.value) and ":" in str(e.value).split(" error")[0], str(e.value)


REPEAT_COUNT = hits_game("repeat_count", "vars:\n  g: int\n" + chip_hands(5, "  table: {}\n") + """flow:
  - repeat: "count(hand[0])"
    steps:
      - move: {from: "hand[0]", to: table, count: 1}
      - choose: {who: 1, options: "[1, 2]", as: g, prompt: wait}
""" + hit_if("count(hand[0]) == 0", 1))


def test_a_repeat_counting_a_zone_keeps_the_count_it_read_when_the_loop_started(tmp_path):
    # every seat saw hand[0] hold 5 cards when the loop started; two passes in, it holds fewer:
    # the world runs the passes the game runs, not a count of the hand as it is now
    rules = load_text(tmp_path, REPEAT_COUNT)
    S = rules.new_game(2, 0, knowledge=True)
    S.apply_index(0)
    true = next(f for f in S.stack if len(f) == 3)
    for i in range(4):
        D = S.determinize(1, random.Random(i))
        assert next(f for f in D.stack if len(f) == 3) == true
        while not D.is_terminal():
            D.apply_index(0)
        assert D.z["hand"][0] == [] and D.c["hit"][1] == 1


ENDER = """
game: ender
players: {min: 2, max: 2}
counters:
  pts: {owner: player}
vars:
  _ender: player
  _first: player
  g: {type: int, start: 0}
  h: int
end_when: ["_ender != none", "g > 100"]
setup:
  - set: {_first: 1}
flow:
  - set: {_ender: "none"}
  - choose: {who: 0, options: "1..9", as: g, prompt: pick}
  - choose: {who: 1, options: "[5]", as: h, prompt: wait}
  - with_player: {who: 1, do: [{gain: {counter: pts, amount: 5}}]}
  - with_player: {who: 0, do: [{gain: {counter: pts, amount: g}}]}
scoring:
  categories:
    points: pts
"""


def test_a_private_variable_that_may_hold_none_is_drawn_none_too(tmp_path):
    # _ender starts none and the setup leaves it so, then a rule writes it (none: a rule may have
    # set it from what the seat cannot see): worlds hold none or a seat; _first, set by the
    # setup, is a seat in every world
    rules = load_text(tmp_path, ENDER)
    S = rules.new_game(2, 1, knowledge=True)
    enders, firsts, going = set(), set(), 0
    for i in range(30):
        D = S.determinize(0, random.Random(i))
        enders.add(D.v["_ender"])
        firsts.add(D.v["_first"])
        D.apply_index(8)
        going += not D.is_terminal()
    assert enders == {None, 0, 1} and firsts == {0, 1} and going > 3


# test_determinize_worlds' pile, half of it in a heap, shuffled where the pile is not
UNSHUFFLED = ORDER.replace("  pile: {visible: none}\n", "  pile: {visible: none}\n  heap: {visible: none}\n").replace(
    "  - move: {from: deck, to: pile, count: 6}\n  - shuffle: pile\n",
    "  - move: {from: deck, to: pile, count: 3}\n  - move: {from: deck, to: heap, count: 3}\n  - shuffle: heap\n")


def test_a_hidden_zone_filled_in_sight_and_never_shuffled_keeps_its_order_in_a_world(tmp_path):
    # every seat saw the chips go into pile and heap in order; heap was shuffled face down, pile
    # never: a world keeps pile's order (seen), not heap's
    rules = load_text(tmp_path, UNSHUFFLED)
    S = rules.new_game(2, 0, knowledge=True)
    heaps = set()
    for i in range(12):
        D = S.determinize(0, random.Random(i))
        assert D.z["pile"] == S.z["pile"] and sorted(D.z["heap"]) == sorted(S.z["heap"])
        heaps.add(tuple(D.z["heap"]))
    assert len(heaps) > 2


TURNS_ROUNDS = hits_game("turns_rounds", """
vars:
  _secret: int
  g: {type: int, start: 0}
  passes: {type: int, start: 0}
setup:
  - random: {var: _secret, from: "1..9"}
flow:
  - turns:
      players: "[0]"
      rounds: "_secret"
      steps:
        - if: "passes == 0"
          then: [{choose: {who: 0, options: "1..9", as: g, prompt: guess}}]
        - set: {passes: "passes + 1"}
""" + hit_if("g == passes"))


def test_turns_whose_rounds_read_a_private_number_run_the_worlds_count(tmp_path):
    # _secret laps: the world holds _secret as none, so the lap running is the last in every
    # world, whatever the true count
    rules = load_text(tmp_path, TURNS_ROUNDS)
    for seed in range(6):
        S = rules.new_game(2, seed, knowledge=True)
        D = S.determinize(0, random.Random(seed))
        frame = next(f for f in D.stack if len(f) == 5)
        assert frame[4] == 1, frame
        D.apply_index(0)
        assert D.is_terminal() and D.v["passes"] == 1


TURNS_SORT = hits_game("turns_sort", """
  power: {owner: player, visible: owner}
vars:
  g: {type: int, start: 0}
setup:
  - for_each: {in: players, as: p, do: [{random: {var: g, from: "1..9"}}, {set: {"power[p]": g}}]}
flow:
  - turns:
      sort_by: "power[me]"
      steps:
        - choose: {who: me, options: "[1, 2]", as: g, prompt: go}
""", players=(3, 3))


def test_turns_sorted_by_hidden_counters_are_sorted_again_on_the_worlds_values(tmp_path):
    # the seats after the one playing are sorted on what the world holds of the others' powers
    # (their start, 0: ties keep the table's order), never the true powers
    rules = load_text(tmp_path, TURNS_SORT)
    for seed in range(12):
        S = rules.new_game(3, seed, knowledge=True)
        seat = S.current_player()
        D = S.determinize(seat, random.Random(1))
        order = next(f for f in D.stack if len(f) == 5)[1]
        assert order[0] == seat and order[1:] == sorted(order[1:]), (S.c["power"], order)
