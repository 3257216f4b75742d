"""What a decision pays between its answer and the next question, where the flow is known: a
turn's body of effects then one step entered by the turn itself, a resolve going on up the
flow to the next question. Each plays exactly the games of the reference (the step count
included)."""
from __future__ import annotations

import random

import pytest

from helpers import load_text
from test_flowgen import lockstep

GAME = """
game: goes_on
players: {min: 2, max: 2}
vars:
  x: int
  y: int
flow:
  - repeat: 4
    steps:
      - choose: {who: 0, options: "[0, 1]", as: x}
      - choose: {who: 1, options: "%s", as: y}
      - set: {y: 0}
      - choose: {who: 1, options: "[4, 5]", as: x}
scoring:
  categories: {x: "x + y"}
"""


def _calls(rules, kind: str | None, length: int, seed: int) -> tuple[int, int]:
    """(the calls of the run of the step of ``kind`` with ``length`` children, or with ``kind``
    None of the game loop, the decisions) over one random game of two players, its setup included."""
    import sys
    code = rules.advance.__code__ if kind is None else rules.runs[next(
        s for s in rules.steps if s.kind == kind and len(s.children()) == length).index].__code__
    calls = [0]

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is code:
            calls[0] += 1

    rnd, decisions = random.Random(seed), 0
    sys.setprofile(profile)
    try:
        S = rules.new_game(2, seed=seed)
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
            decisions += 1
    finally:
        sys.setprofile(None)
    return calls[0], decisions


@pytest.mark.parametrize("options", ["[2, 3] if x == 1 else []", "[2, 3] where it > 5 or x == 1", "[2, 3] where it > 5"])
def test_a_sequence_with_a_choose_that_may_not_apply_plays_as_the_reference(tmp_path, options):
    rules = load_text(tmp_path, GAME % options)
    for seed in range(6):
        assert lockstep(rules, 2, seed) > 0


TURNS = """
game: turn_body
players: {min: 2, max: 3}
vars:
  x: int
flow:
  - turns:
      rounds: 3
      steps:
        - set: {x: 0}
        - choose: {options: "[1, 2]", as: x}
%s
scoring:
  categories: {x: "x"}
"""


@pytest.mark.parametrize("end", ["", "end_when: ['x == 5']"])
def test_a_turn_enters_its_effects_and_step_itself(tmp_path, end):
    """A body of effects then one step: each turn runs the effects and enters the step in its
    place, without calling the body's run (where an end condition reads what the effects set, the
    loop runs the step after its check); the same games as the reference."""
    rules = load_text(tmp_path, TURNS % end)
    for seed in range(3):
        assert _calls(rules, "steps", 2, seed) == (0, 6)
        assert lockstep(rules, 2, seed) == 6


UP = """
game: up
players: {min: 2, max: 2}
vars:
  x: int
flow:
  - repeat: 4
    steps:
      - branch:
          who: 0
          options:
            one: {steps: [{set: {x: 1}}]}
            two: {steps: [{set: {x: 2}}, %s]}
scoring:
  categories: {x: "x"}
"""


def test_an_answer_goes_on_up_the_flow_to_the_next_question(tmp_path):
    """A branch answered, its steps done at once having changed nothing a check reads: the
    resolve goes on up to the repeat (its frame on top), whose next pass asks (``ASKED``): the
    game loop runs only when the game is set up (``advance``) and at its end (no frame left:
    the loop's lines written in ``apply_index``)."""
    import sys
    from interpreter.engine.protocol import ASKED
    rules = load_text(tmp_path, UP % "{set: {x: 3}}")
    code = rules.resolves[next(s for s in rules.steps if s.kind == "branch").index].__code__
    asked: list = []

    def profile(frame, event, arg):
        if event == "return" and frame.f_code is code:
            asked.append(arg is ASKED)
    for seed in range(3):
        asked.clear()
        sys.setprofile(profile)
        try:
            S, rnd = rules.new_game(2, seed=seed), random.Random(seed)
            while not S.is_terminal():
                S.apply_index(rnd.randrange(len(S.dec[1])))
        finally:
            sys.setprofile(None)
        assert asked == [True, True, True, False]
        assert _calls(rules, None, 0, seed) == (1, 4)
        assert lockstep(rules, 2, seed) == 4


@pytest.mark.parametrize("more", ["{choose: {who: 1, options: '[2, 3]', as: x}}", "{end_game: {}}"])
def test_going_on_up_the_flow_or_not_plays_as_the_reference(tmp_path, more):
    rules = load_text(tmp_path, UP % more)
    for seed in range(6):
        assert lockstep(rules, 2, seed) > 0


def test_an_error_entering_the_step_after_a_turns_effects_is_located_at_that_step(tmp_path):
    """The step entered in the turn's body's place is one whose entering cannot fail: a
    `repeat` whose count raises is entered by the body, and the error is located at the repeat
    (engine/loop.py at_step), as the plain reference locates it (not at the turn)."""
    from interpreter.errors import GameError
    from test_flowgen import reference
    text = TURNS.replace('- choose: {options: "[1, 2]", as: x}',
                         '- repeat: "1 // x"\n          steps: [{choose: {options: "[1, 2]", as: x}}]') % ""
    rules = load_text(tmp_path, text)
    said = []
    for r in (rules, reference(rules)):
        with pytest.raises(GameError) as info:
            r.new_game(2)
        said.append(str(info.value))
    assert said[0] == said[1] and "g.yaml:11:11: error[runtime]: in repeat: division by zero" in said[0], said
