"""The attempt's specialised roll: a chance that uses an earlier outcome's chance (a define) reads
the value the roll already has, and gives what the plain reference gives."""
from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.expr.parser import parse
from interpreter.mechanics.dexterity import _plain_uses


class _CountedSkill(list):
    """Seats' skills that count how often they are read (each evaluation of skill(me))."""
    reads = 0

    def __getitem__(self, i):
        _CountedSkill.reads += 1
        return list.__getitem__(self, i)


def test_a_chance_using_an_earlier_outcomes_define_is_worked_out_once_a_roll():
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))   # touch, then 1 - touch
    S = rules.new_game(4, seed=5, record=True)
    S.o["skill"] = _CountedSkill([0.8] * 4)
    _CountedSkill.reads = 0
    rnd = random.Random(5)
    while not S.over:
        S.apply_index(rnd.randrange(len(S.dec[1])))
    rolls = sum(1 for e in S.ev if e["ev"] == "roll")
    assert rolls > 20 and _CountedSkill.reads == rolls


def test_a_define_is_shared_only_where_it_means_what_it_means_alone():
    assert _plain_uses(parse("(1 - d) if spot in zone else 0"), "d") == 1
    assert _plain_uses(parse("d * d + 1"), "d") == 2
    assert _plain_uses(parse("1 - other"), "d") == 0
    # inside a filter, a call or an index the define may read the element: not shared
    assert _plain_uses(parse("count(zone where value < d)"), "d") == -1
    assert _plain_uses(parse("max(d, 0.5)"), "d") == -1
    assert _plain_uses(parse("d + table[d]"), "d") == -1


def test_a_chance_of_zero_is_zero_without_the_clamp():
    """A chance of exactly 0 (a touch with no neighbour, a fake's chance on a real) is 0.0, as
    the clamp makes it, without calling it; a chance out of [0, 1] still goes through it."""
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    attempt = next(s for s in rules.steps if s.kind == "attempt")
    clamp = type(attempt).clamped
    calls = []
    attempt.clamped = lambda k, p: calls.append(p) or clamp(attempt, k, p)
    try:
        S = rules.new_game(4, seed=5, record=True)
        rnd = random.Random(5)
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
    finally:
        del attempt.clamped
    zeros = [p for e in S.ev if e["ev"] == "roll" for p in e["chances"].values() if p == 0]
    assert zeros and all(type(p) is float for p in zeros) and calls == []


def test_a_rolls_total_and_rest_are_added_up_without_builtin_calls():
    """The specialised roll adds the chances and takes the rest as sum() and max() would, with
    plain arithmetic (under valgrind a call of either costs about as much as the rest of the
    roll's arithmetic): the rest is 1 minus the others, never below 0."""
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    attempt = next(s for s in rules.steps if s.kind == "attempt")
    run = rules.flow_source.split(f"def R{attempt.index}(S, frame):")[1].split("\ndef ")[0]
    assert "sum(" not in run and "max(" not in run, run
    S = rules.new_game(4, seed=7, record=True)
    rnd = random.Random(7)
    while not S.over:
        S.apply_index(rnd.randrange(len(S.dec[1])))
    rolls = [list(e["chances"].values()) for e in S.ev if e["ev"] == "roll"]
    assert len(rolls) > 20
    for *others, rest in rolls:
        assert rest == max(0.0, 1.0 - sum(others)) and type(rest) is float


def test_a_chance_that_divides_divides_in_place_and_by_zero_is_still_the_located_error(tmp_path):
    """The touch chance divides by a parameter without calling the language's division (the roll
    asks it every time), and the same chance divided by zero is still its runtime error, at the
    attempt, as the helper raised it."""
    import sys
    from helpers import load_text
    from interpreter.errors import GameError
    from interpreter.expr.runtime import _div
    text = open(interpreter.ruleset_path("mister_diamond")).read()
    bounded = "max_neighbours: {type: int, default: 6, min: 6,"
    assert bounded in text   # (its bound refuses 0: this copy has none, to divide by zero below)
    rules = load_text(tmp_path, text.replace(bounded, "max_neighbours: {type: int, default: 6,"), "md.yaml")
    calls = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is _div.__code__:
            calls.append(frame)

    S = rules.new_game(4, seed=5, record=True)
    rnd = random.Random(5)
    sys.setprofile(profile)
    try:
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
    finally:
        sys.setprofile(None)
    assert sum(1 for e in S.ev if e["ev"] == "roll") > 20 and calls == []
    S = rules.new_game(4, seed=5, options={"params": {"max_neighbours": 0}})
    rnd = random.Random(5)
    with pytest.raises(GameError) as raised:
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
    said = str(raised.value)
    assert "md.yaml:" in said and "in attempt: division by zero" in said, said
