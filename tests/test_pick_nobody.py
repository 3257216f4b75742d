"""A pick whose ``who:`` is none does not apply: a sequence finds that in its own function
(``Step.skip_source``) and goes on to its next step without calling the pick's run, and plays
exactly the games of the reference (the step count included)."""
from __future__ import annotations


import pytest

from helpers import calls_in_play, load_text
from test_flowgen import lockstep

GAME = """
game: pick_nobody
players: {min: 2, max: 2}
components:
  chips:
    attributes: {n: 1..8}
zones:
  pool: {owner: none, visible: all, start: [chips]}
  mine: {owner: player, visible: all}
vars:
  x: int
flow:
  - repeat: 5
    steps:
      - choose: {who: 0, options: "[0, 1]", as: x}
      - pick: {who: "%s", from: pool, to: mine, count: 1, prompt: middle}
      - set: {x: 0}
      - pick: {who: "%s", from: pool, to: mine, count: 1, prompt: last}
scoring:
  categories: {chips: "count(mine)"}
"""


def _runs_called(rules, steps) -> int:
    """How often the runs of ``steps`` are called over a few random games."""
    return sum(calls_in_play(rules, {rules.runs[s.index].__code__ for s in steps}, 2, range(4)).values())


def test_a_pick_by_nobody_is_not_run(tmp_path):
    """Between two steps and as the last one, a pick by nobody costs no call of its run."""
    rules = load_text(tmp_path, GAME % ("1 if x == 7 else none", "0 if count(pool) > 99 else none"))
    picks = [s for s in rules.steps if s.kind == "pick"]
    assert len(picks) == 2 and _runs_called(rules, picks) == 0
    for seed in range(3):
        assert lockstep(rules, 2, seed) > 0


@pytest.mark.parametrize("middle,last", [
    ("1 if x == 1 else none", "0 if count(pool) % 2 == 0 else none"),
    ("x if x == 1 else none", "none if count(pool) % 3 == 0 else 1"),
])
def test_a_pick_by_somebody_or_nobody_plays_as_the_reference(tmp_path, middle, last):
    rules = load_text(tmp_path, GAME % (middle, last))
    assert _runs_called(rules, [s for s in rules.steps if s.kind == "pick"]) > 0
    for seed in range(6):
        assert lockstep(rules, 2, seed) > 0


def test_a_picker_of_no_seat_is_the_error_at_the_pick(tmp_path):
    """A ``who:`` that is no seat is the located error the pick's own run raises."""
    import interpreter
    rules = load_text(tmp_path, GAME % ("5 if x == 1 else none", "none"))
    S = rules.new_game(2, seed=0)
    with pytest.raises(interpreter.GameError) as e:
        for _ in range(20):
            S.apply_index(len(S.dec[1]) - 1)   # x = 1
    assert "in pick: there is no player 5" in str(e.value) and "prompt: middle" in str(e.value)


def test_a_pick_by_nobody_makes_no_frame(tmp_path):
    """Found in place not to apply, between two steps or as the last one, a pick puts no frame
    on the stack (made only for someone)."""
    import random
    rules = load_text(tmp_path, GAME % ("1 if x == 7 else none", "0 if count(pool) > 99 else none"))
    picks = {s.index for s in rules.steps if s.kind == "pick"}
    pushed = []

    class Stack(list):   # (the stack the generated code pushes frames on)
        def append(self, frame):
            pushed.append(frame[0])
            super().append(frame)

        def __setitem__(self, i, frame):
            pushed.append(frame[0])
            super().__setitem__(i, frame)

        def extend(self, frames):   # (frames pushed in one go: building/late.py)
            pushed.extend(f[0] for f in frames)
            super().extend(frames)

    for seed in range(3):
        S, rnd = rules.new_game(2, seed=seed), random.Random(seed)
        S.stack = Stack(S.stack)
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
        assert pushed and not picks & set(pushed)
