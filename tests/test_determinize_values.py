"""A determinized world holds no value its seat cannot see: private variables and hidden
counters are drawn among the values their type declares, or are the values the game starts
with (engine/beliefs.py), never the true ones."""
from __future__ import annotations

import random

import pytest

from helpers import hit_if, hits_game, load_text
from interpreter.play.agents import choose, make_agents

GUESS = hits_game("guess", """
  secret_c: {visible: none}
  purse: {owner: player, visible: owner, start: 3}
  marks: {owner: card, visible: owner}
vars:
  _secret: int
  _flag: bool
  _who: player
  _n: {type: int, start: 7}
  _l: {type: "list[int]", start: "[1, 2]"}
  g: int
components:
  chip: {attributes: {n: 1..4}, label: "c{n}"}
zones:
  deck: {start: [chip]}
setup:
  - random: {var: _secret, from: "1..9"}
  - random: {var: _flag, from: "[true]"}
  - random: {var: _who, from: "[1]"}
  - set: {secret_c: "_secret * 1", _n: "_secret", _l: "[_secret]"}
  - for_each: {in: players, as: p, do: [{gain: {counter: "purse[p]", amount: "_secret"}}]}
  - for_each: {in: deck, as: c, do: [{set: {"marks[c]": "_secret"}}]}
flow:
  - choose: {who: 0, options: "1..9", as: g, prompt: guess}
""" + hit_if("g == _secret"), players=(2, 3))


def test_a_world_holds_no_private_variable_nor_hidden_counter_of_the_true_game(tmp_path):
    rules = load_text(tmp_path, GUESS)
    flags, whos = set(), set()
    for seed in range(30):
        S = rules.new_game(3, seed, knowledge=True)
        secret = S.v["_secret"]
        assert S.c["secret_c"] == secret and S.v["_flag"] is True and S.v["_who"] == 1
        for seat in range(3):
            D = S.determinize(seat, random.Random(seed))
            # no declared values for an int: what the game starts with (none, or its start:)
            assert D.v["_secret"] is None and D.v["_n"] == 7 and D.v["_l"] == [1, 2]
            assert D.v["_l"] is not S.determinize(seat, random.Random(seed)).v["_l"]   # each world its own list
            assert D.c["secret_c"] == 0                       # a counter nobody sees: its start
            assert D.c["marks"] == [0] * 4                    # each card's, seen by no seat
            # a player's purse: its own seat's kept, the others' their start
            assert D.c["purse"] == [3 + secret if p == seat else 3 for p in range(3)]
            assert D.c["hit"] == S.c["hit"] and D.v["g"] == S.v["g"]   # public: kept
            assert D.observation(seat) == S.observation(seat)
            flags.add(D.v["_flag"])
            whos.add(D.v["_who"])
            T = rules.state_from_json(D.to_json())            # a legal state: saved and resumed
            assert T.digest() == D.digest()
            D.apply_index(0)
            assert D.is_terminal()
    # a bool and a player are drawn among their values, whatever the true ones
    assert flags == {False, True} and whos == {0, 1, 2}


# a hidden number the flow reads as it goes: a repeat counted by it, a when-trigger on a counter
# holding it, and the steps run (three passes per unit of it before the guess)
HIDDEN_FLOW = hits_game("hidden_flow", """
  secret_c: {visible: none}
vars:
  _secret: int
  g: int
  passes: int
  k: int
setup:
  - random: {var: _secret, from: "1..9"}
  - set: {secret_c: "_secret", passes: 0, g: 0}
triggers:
  big:
    when: "secret_c > 4"
    do: [{set: {_secret: "_secret"}}]
flow:
  - repeat: "_secret * 3"
    steps: [{set: {k: 0}}]
  - repeat: "_secret"
    steps:
      - if: "passes == 0"
        then: [{choose: {who: 0, options: "1..9", as: g, prompt: guess}}]
      - set: {passes: "passes + 1"}
""" + hit_if("g == passes"))


def test_a_world_is_the_same_whatever_the_hidden_values(tmp_path):
    rules = load_text(tmp_path, GUESS)
    worlds = set()
    for seed in range(12):
        S = rules.new_game(2, seed, knowledge=True)
        D = S.determinize(0, random.Random(5))
        worlds.add((D.c["purse"][1], D.c["secret_c"], D.v["_secret"], D.v["_flag"], D.v["_who"]))
    assert worlds == {(3, 0, None, False, 1)}
    # what the flow keeps of a hidden value: a repeat's count that read it is counted again on the
    # world's (none here: the pass running is the last), a when-trigger's last value is asked again
    # on the world's counter, and the world's count of steps run starts at 0
    rules = load_text(tmp_path, HIDDEN_FLOW, "flow.yaml")
    worlds, truths = set(), set()
    for seed in range(12):
        S = rules.new_game(2, seed, knowledge=True)
        repeat = S.stack[-4]
        truths.add((repeat[2], S.v["_when_0"], S.steps))
        D = S.determinize(0, random.Random(5))
        assert D.stack[-4][:2] == repeat[:2]   # (its passes begun: the flow's own)
        worlds.add((D.stack[-4][2], D.v["_when_0"], D.steps))
        assert rules.state_from_json(D.to_json()).digest() == D.digest()
        D.apply_index(D.dec[1].index(1))
        assert D.is_terminal() and D.c["hit"][0] == 1   # one pass in every world: 1 is the guess there
    assert len(truths) > 4 and worlds == {(1, False, 0)}


@pytest.mark.parametrize("text", [GUESS, HIDDEN_FLOW], ids=["variable", "repeat"])
def test_search_agents_guess_a_hidden_number_no_better_than_chance(tmp_path, text):
    # each agent guesses _secret (1..9) once: reading the true world, it guessed 40 of 40 (the
    # repeat's count kept in a world: 30 of 30)
    rules = load_text(tmp_path, text)
    for spec in ("ismcts:iterations=30", "greedy:samples=2", "rollouts:n=2"):
        hits = 0
        for seed in range(30):
            agent = make_agents(f"{spec},random", 2, seed)[0]
            S = rules.new_game(2, seed, knowledge=True)
            S.apply_index(choose(agent, S, 0))
            hits += S.c["hit"][0]
        assert hits <= 10, (spec, hits)   # chance: 30/9 = 3.3
