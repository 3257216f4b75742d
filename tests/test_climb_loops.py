"""A loop's frame found on top by a resolve going up the flow (building/trips.py): its test written
in the resolve (mechanics/flow.py ``_Loop.climb_source``), its run not called; where it is done,
the climb goes on with no test of what it cannot have done (a change, a question, the game's
end); where it is not, a new pass entered by ``R<i>_pass``. Each plays exactly the games of the
plain reference: states, events, step counts, errors and their places, the budget."""
from __future__ import annotations

import pytest

import interpreter
from helpers import int_vars, load_text, played_profiled, tiny_ruleset
from test_flowgen import lockstep, reference

LOOP = tiny_ruleset(int_vars() + """flow:
  - turns:
      rounds: 3
      steps:
        - set: {x: 0, y: 0}
        - %s: "%s"
          steps:
            - choose: {options: "[0, 1, 2, 3]", as: x}
            - set: {y: "y + 1"}
            - choose: {options: "[4, 5]", as: x}
scoring:
  categories: {y: "y"}
""")


def _callers(rules, code, players: int, seeds) -> dict:
    """The callers' code names of ``code`` over random games, one a seed: how often each."""
    seen: dict = {}

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is code:
            name = frame.f_back.f_code.co_name
            seen[name] = seen.get(name, 0) + 1

    played_profiled(rules, profile, players, seeds)
    return seen


@pytest.mark.parametrize("kind,cond", [("until", "x == 5 or y > 2"), ("while", "x != 5 and y < 3")])
def test_a_climb_tests_a_loop_in_place(tmp_path, kind, cond):
    """The last choose's answer climbs to the loop: its test in the resolve, the loop's run never
    called from a resolve (only by the game loop), a new pass by its pass function; the same
    games as the reference."""
    rules = load_text(tmp_path, LOOP % (kind, cond))
    loop = next(s for s in rules.steps if s.kind == kind)
    called = _callers(rules, rules.runs[loop.index].__code__, 2, range(6))
    assert not any(name.startswith("Q") for name in called), called
    passes = _callers(rules, rules.advance.__globals__[f"R{loop.index}_pass"].__code__, 2, range(6))
    assert passes and all(name.startswith("Q") for name in passes)
    for seed in range(8):
        assert lockstep(rules, 2, seed) > 5


def test_mister_diamond_s_turn_ends_with_no_call_of_its_until():
    """After a take whose outcome ends the turn, the take's resolve tests the turn's ``until`` in
    place and runs the next turn: the until's run is never called from it."""
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    until = next(s for s in rules.steps if s.kind == "until")
    turns = next(s for s in rules.steps if s.kind == "turns")
    target = next(s for s in rules.steps if s.kind == "attempt.target")
    assert "Q%d" % target.index not in _callers(rules, rules.runs[until.index].__code__, 4, range(3))
    assert _callers(rules, rules.runs[turns.index].__code__, 4, range(3)).get("Q%d" % target.index, 0) > 20
    for seed in range(3):
        assert lockstep(rules, 4, seed) > 0


def test_a_loop_s_error_in_a_climb_is_located_at_the_loop(tmp_path):
    """The loop's condition raising in the resolve that climbed to it: the loop's error, at its
    line, as the reference's run raises it."""
    rules = load_text(tmp_path, (LOOP % ("until", "6 / (x - 1) > 9")).replace("[4, 5]", "[4, 1]"))
    said = []
    for game in (rules, reference(rules)):
        S = game.new_game(2, seed=0)
        S.apply_index(0)   # x = 0
        with pytest.raises(interpreter.GameError) as e:
            S.apply_index(1)   # x = 1, then the until: 6 / 0
        said.append(str(e.value))
    assert "in until: division by zero" in said[0] and said[0] == said[1]


def test_the_budget_stops_a_climb_at_the_same_step(tmp_path):
    """A budget reached at the loop's trip in a climb stops the game where the reference stops."""
    text = LOOP % ("until", "x == 5 or y > 2")
    rules = load_text(tmp_path, text)
    took = [], []
    for k, game in enumerate((rules, reference(rules))):
        S = game.new_game(2, seed=4)
        while not S.is_terminal():
            S.apply_index(len(S.dec[1]) - 1)
            took[k].append(S.steps)
    assert took[0] == took[1]
    for limit in sorted(set(took[0]))[1:8]:
        short = load_text(tmp_path, "limits: {steps: %d}\n" % limit + text, name=f"short{limit}.yaml")
        raised = []
        for game in (short, reference(short)):
            S = game.new_game(2, seed=4)
            with pytest.raises(interpreter.BudgetExceeded):
                while True:
                    S.apply_index(len(S.dec[1]) - 1)
                    raised.append(S.steps)
        assert raised[:len(raised) // 2] == raised[len(raised) // 2:]
