"""A seat's world keeps the value of a private variable its own decision set (a ``choose ... as:
_x`` it answered, its own entry of a simultaneous choice), until the rules write it again; no
other seat's world holds it (engine/knowledge.py, engine/beliefs.py). The record is part of a
saved state's ``known``."""
from __future__ import annotations

import json
import random

import pytest

import interpreter
from fuzzing.lockstep import reference
from helpers import load_text
from interpreter.errors import GameError

CHOSEN = """
game: chosen
players: {min: 2, max: 3}
vars:
  _pick: int
  _votes: "list[int]"
flow:
  - choose: {who: 0, options: "1..9", as: _pick, prompt: pick}
  - choose: {simultaneous: true, options: "1..5", as: _votes, prompt: vote}
  - choose: {who: 1, options: "[1, 2]", as: g, prompt: wait}
  - set: {_pick: "_pick + 1"}
  - choose: {who: 0, options: "[1, 2]", as: g2, prompt: wait again}
scoring:
  categories:
    nothing: "0"
"""


def _secured(seed):
    """A Diam's game of 4 played at random up to the first collection chosen, then on until another
    seat is asked; with the chooser."""
    rules = interpreter.load("diams")
    S = rules.new_game(4, seed, knowledge=True)
    rnd = random.Random(seed)
    chooser = None
    while not S.over:
        seat, prompt = S.current_player(), S.prompt()
        if chooser is not None and seat != chooser:
            return S, chooser
        S.apply_index(rnd.randrange(len(S.legal_actions())))
        if prompt == "collection" and chooser is None:
            chooser = seat
    return None, None


def test_the_chooser_of_a_diams_collection_keeps_its_quality_in_its_world_and_nobody_else_does():
    found = 0
    for seed in range(40):
        S, chooser = _secured(seed)
        if S is None or S.v["_set_quality"] is None:
            continue
        found += 1
        asked = S.current_player()   # (another seat: its world asks nothing again)
        for k in range(3):
            assert S.determinize(chooser, random.Random(k)).v["_set_quality"] == S.v["_set_quality"]
            assert S.determinize(asked, random.Random(k)).v["_set_quality"] is None
    assert found >= 5


@pytest.mark.parametrize("plain", [False, True])
def test_a_choice_is_kept_until_the_rules_write_it_and_a_simultaneous_one_per_seat(tmp_path, plain):
    rules = load_text(tmp_path, CHOSEN)
    rules = reference(rules) if plain else rules   # (the plain reference records it alike)
    S = rules.new_game(3, 1, knowledge=True)
    S.apply(S.legal_actions()[6])                  # seat 0 picks 7
    assert S.determinize(0, random.Random(1)).v["_pick"] == 7
    assert S.determinize(1, random.Random(1)).v["_pick"] is None
    for label in ("2", "4", "5"):                 # seats 0, 1, 2 vote
        S.apply(label)
    assert S.v["_votes"] == [2, 4, 5]
    for seat, own in enumerate([2, 4, 5]):
        votes = S.determinize(seat, random.Random(1)).v["_votes"]
        assert votes == [own if s == seat else None for s in range(3)]
    S.apply("1")                                   # seat 1 answers; then the rules add 1 to _pick
    assert S.v["_pick"] == 8 and S.determinize(0, random.Random(1)).v["_pick"] is None
    assert S.determinize(0, random.Random(1)).v["_votes"] == [2, None, None]


def test_a_saved_state_keeps_what_a_seat_knows_of_its_choice_and_an_old_one_loads(tmp_path):
    rules = load_text(tmp_path, CHOSEN)
    S = rules.new_game(2, 1, knowledge=True)
    S.apply("3")
    d = json.loads(S.to_json())
    assert d["known"] == {"_pick": 1}
    back = rules.state_from_json(S.to_json())
    assert back.kn == S.kn and back.determinize(0, random.Random(1)).v["_pick"] == 3
    del d["known"]["_pick"]                        # a state saved before the record: nobody knows
    old = rules.state_from_json(json.dumps(d))
    assert old.determinize(0, random.Random(1)).v["_pick"] is None


@pytest.mark.parametrize("key", ["g", "_nothing", "x"])
def test_a_saved_knowledge_of_a_public_or_unknown_variable_is_refused(tmp_path, key):
    rules = load_text(tmp_path, CHOSEN)
    S = rules.new_game(2, 1, knowledge=True)
    d = json.loads(S.to_json())
    d["known"][key] = 1
    with pytest.raises(GameError) as e:
        rules.state_from_json(json.dumps(d))
    assert "known" in e.value.message and key in e.value.message
