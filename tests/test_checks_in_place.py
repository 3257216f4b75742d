"""The game loop's checks asked in place (building/gameloop.py ``in_place``): where a sequence resumed
by its own trip makes a change the checks can see, its function asks the end conditions there, as
the loop would next, and goes on in place (the next step skipped, entered or run) instead of
handing the change to the loop. Each game is the plain reference's: the states, the events, the
step count, the budget running out at the same step, an end condition's error, the end reached in
the middle of a sequence; with ``when:`` triggers the loop asks them all, as before."""
from __future__ import annotations

import json

import random

import pytest

import interpreter
from helpers import calls_in_play, chips_game, load_text
from test_flowgen import lockstep, reference

GAME = chips_game("""flow:
  - turns:
      rounds: 20
      steps:
        - choose: {options: "[1, 2, 3]", as: x, prompt: first}
%s
%s
        - set: {y: 0}
end_when:
  - "%s"
%s
scoring:
  categories: {chips: "count(mine)"}
""", game="checks_in_place")
# the change the end condition reads: inside an if (noted as it runs), or surely made
IF_MOVE = """        - if: "x >= 2"
          then: [{move: {from: pool, to: mine, count: 1}}]"""
MOVE = "        - move: {from: pool, to: mine, count: 1}"
SECOND = '        - choose: {options: "[4, 5] where x == 3", as: y, prompt: second}'
# a step the sequence enters and runs at once after the checks (no frame of its own spared)
LOOP = """        - while: "x == 3"
          steps:
            - choose: {options: "[4, 5]", as: y, prompt: second}
            - set: {x: 1}"""
TRIGGER = """triggers:
  bonus:
    when: "count(pool) < 6"
    do: [{set: {y: 9}}]"""


def _second(rules):
    return next(s for s in rules.steps if s.kind == "choose" and s.prompt == "second")


@pytest.mark.parametrize("effect", [IF_MOVE, MOVE], ids=["noted", "changed"])
def test_the_end_condition_is_asked_where_the_change_is_made(tmp_path, effect):
    """After the move, the sequence asks the end condition itself and goes on: the second choose,
    with nothing to offer unless x is 3, is skipped in place, never run by the loop (which ran it
    after every move before); the games, ended in the middle of the sequence, are the reference's."""
    rules = load_text(tmp_path, GAME % (effect, SECOND, "count(pool) < 4", ""))
    second = _second(rules)
    calls = calls_in_play(rules, {rules.runs[second.index].__code__}, 2, range(6))
    assert calls == {rules.runs[second.index].__code__: 0}
    ended = 0
    for seed in range(8):
        assert lockstep(rules, 2 + seed % 2, seed) > 0
        S, rnd = rules.new_game(2 + seed % 2, seed=seed), random.Random(seed)
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
        ended += len(S.zone("pool")) < 4   # (by the end condition, before the turns' rounds ran out)
    assert ended > 4


def test_with_when_triggers_the_loop_asks_the_checks(tmp_path):
    """A ruleset with ``when:`` triggers (a trigger fired may push frames the loop runs next)
    leaves every check to the loop, as the plain reference does: the second choose's run is
    called by the loop after a move."""
    rules = load_text(tmp_path, GAME % (MOVE, SECOND, "count(pool) < 2", TRIGGER))
    second = _second(rules)
    assert calls_in_play(rules, {rules.runs[second.index].__code__}, 2, range(4))[rules.runs[second.index].__code__] > 0
    for seed in range(6):
        assert lockstep(rules, 2 + seed % 2, seed) > 0


def _played(rules, players, seed):
    """Random decisions until the game ends or raises: (decisions, steps, the error's text)."""
    S, rnd, k = rules.new_game(players, seed=seed), random.Random(seed), 0
    try:
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
            k += 1
    except interpreter.GameError as e:
        return k, S.steps, type(e).__name__, str(e)
    return k, S.steps, None, None


@pytest.mark.parametrize("effect,second", [(IF_MOVE, SECOND), (MOVE, SECOND), (IF_MOVE, LOOP), (MOVE, LOOP)],
                         ids=["noted", "changed", "noted-loop", "changed-loop"])
def test_the_budget_runs_out_at_the_same_step(tmp_path, effect, second):
    """Every budget from 4 to 60 steps: the game stops at the same decision, at the same step
    count, with the same error, as the reference's (the loop's count of the sequence's trip is
    checked before the end condition asked in place)."""
    text = GAME % (effect, second, "count(pool) < 4", "limits: {steps: %d}")
    stopped = 0
    for budget in range(4, 61):
        (tmp_path / str(budget)).mkdir()
        rules = load_text(tmp_path / str(budget), text % budget)
        for seed in range(2):
            got = _played(rules, 2, seed)
            assert got == _played(reference(rules), 2, seed), (budget, seed)
            stopped += got[2] == "BudgetExceeded"
    assert stopped > 40


def test_an_end_condition_error_is_located_at_it(tmp_path):
    """An end condition raising where the sequence asks it is located at the condition, as the
    loop locates it."""
    rules = load_text(tmp_path, GAME % (MOVE, SECOND, "6 / (count(pool) - 7) > 100", ""))
    said = {_played(game, 2, 0)[2:] for game in (rules, reference(rules))}
    assert len(said) == 1
    kind, text = said.pop()
    assert kind == "GameError" and "in end_when: division by zero" in text and "g.yaml:" in text


def test_an_end_condition_raising_in_place_leaves_the_state_the_loop_leaves(tmp_path):
    """Raised where the sequence asks it, the error leaves the state as the loop's check leaves it:
    the sequence's trip counted and the next step's frame on the stack, as in the reference."""
    from helpers import int_vars, tiny_ruleset
    rules = load_text(tmp_path, tiny_ruleset(int_vars("x z", start=0) + """flow:
  - turns:
      rounds: 3
      steps:
        - choose: {options: "[1, 5]", as: x}
        - set: {z: "z + x"}
        - choose: {options: "[0, 1]", as: x}
end_when:
  - "6 / (z - 5) > 7"
scoring:
  categories: {z: "z"}
"""))
    stood = []
    for game in (rules, reference(rules)):
        S = game.new_game(2, seed=0)
        with pytest.raises(interpreter.GameError, match="division by zero"):
            S.apply_index(1)
        stood.append((S.steps, json.dumps(S.stack), S.dec))   # (as a state compares and is saved: a frame's tuple is a list)
    assert stood[0] == stood[1]


@pytest.mark.parametrize("effect", [IF_MOVE, MOVE], ids=["noted", "changed"])
def test_a_step_entered_after_the_checks_plays_the_same_games(tmp_path, effect):
    """After the checks asked in place, a loop entered and run at once (its frame pushed before the
    checks, as the loop would find it): the same games as the reference, ended in the middle of
    the sequence or not."""
    rules = load_text(tmp_path, GAME % (effect, LOOP, "count(pool) < 4", ""))
    assert rules.module_source.count("END0(S, None, None)") == 3   # (the loop's two, and the sequence's)
    for seed in range(8):
        assert lockstep(rules, 2 + seed % 2, seed) > 0
