"""A saved state's stack is checked as a whole (engine/saved.py): each frame's step is one the
step of the frame below it runs, as the flow tree says (engine/frames.py ``stacking``), and the
flow, asked again, leaves the same frames, the step that asks the decision on top; and a
pay's loop counts against the step budget, so a saved pay of a huge cost is refused."""
from __future__ import annotations

import json

import pytest

import interpreter
from interpreter.errors import GameError

from helpers import load_text

SEQUENCE = """
game: asked_twice
players: {min: 2, max: 2}
vars:
  a: {type: str}
  b: {type: str}
  c: {type: str}
flow:
  - turns:
      steps:
        - choose: {options: "['x', 'y']", as: a}
        - choose: {options: "[]", as: b, if_none: skip}
        - choose: {options: "['x', 'y']", as: c}
"""


def test_a_frame_over_the_asker_that_the_flow_pops_is_refused(tmp_path):
    """The first choice's frame replaced by the second's, which asks nothing: asked again, that
    step ends, the third asks the same decision, and the saved frames are not the ones asking
    it (before: loaded, and the decision was labelled by a step that asks none)."""
    rules = load_text(tmp_path, SEQUENCE)
    S = rules.new_game(2, seed=1)
    d = json.loads(S.to_json())
    first, second = d["stack"][-1][0], rules.steps[d["stack"][-1][0]].index + 1
    assert rules.steps[second].kind == "choose" and rules.steps[second].choice_var() == "b"
    rules.state_from_json(json.dumps(d))   # (as saved: it loads)
    d["stack"][-1] = [second, *d["stack"][-1][1:]]
    with pytest.raises(GameError, match=r"not a saved state of asked_twice: stack: not the frames that ask the "
                                        rf"decision \(asked again, the flow leaves frames of steps \[\d+, \d+\], "
                                        rf"not \[\d+, \d+, {second}\]\)"):
        rules.state_from_json(json.dumps(d))
    assert first != second


ATTEMPT_THEN_SIMULTANEOUS = """
game: attempt_simul
players: {min: 2, max: 2}
flow:
  - turns:
      steps:
        - attempt:
            as: result
            outcomes:
              miss: "0.5"
              hit: rest
        - choose: {options: "[1, 2]", as: bid, simultaneous: true}
"""


def test_an_attempts_report_over_another_steps_frame_is_refused(tmp_path):
    """The report of an attempt (resolve: ask) writes the frame below its own: pushed over a
    simultaneous choice's, it would write the choices so far (before: loaded, and every reader
    then met a number where the list was)."""
    rules = load_text(tmp_path, ATTEMPT_THEN_SIMULTANEOUS)
    S = rules.new_game(2, seed=1, options={"resolve": "ask"})
    report = S.stack[-1][0]
    assert rules.steps[report].kind == "attempt.report"
    S.apply_index(0)
    S.apply_index(0)   # (the attempt told; the simultaneous choice asks)
    d = json.loads(S.to_json())
    choice = d["stack"][-1][0]
    d["stack"].append([report])
    d["decision"] = [1, [0, 1]]
    with pytest.raises(GameError, match=rf"stack\[{len(d['stack']) - 1}\]: step {report} \(attempt.report\) does not "
                                        rf"run directly over step {choice} \(choose\), the frame below it"):
        rules.state_from_json(json.dumps(d))


def test_an_attempts_target_over_a_step_that_is_not_its_attempt_is_refused():
    """mister_diamond: the target's frame reads the acting seat from the frame below it; put
    straight over the turns' frame or the loop's, it is refused; over its attempt's, it loads."""
    rules = interpreter.load("mister_diamond")
    d = json.loads(rules.new_game(2, seed=3).to_json())
    turns, until, attempt, target = d["stack"]
    for stack, below in (([turns, target], turns), ([turns, until, target], until)):
        e = {**d, "stack": stack, "decision": [below[2] if below is turns else 0, d["decision"][1]]}   # (before: the first loaded)
        with pytest.raises(GameError, match=rf"stack\[{len(stack) - 1}\]: step {target[0]} \(attempt.target\) does "
                                            rf"not run directly over step {below[0]} \({rules.steps[below[0]].kind}\)"):
            rules.state_from_json(json.dumps(e))
    e = {**d, "stack": [until, attempt, target]}
    with pytest.raises(GameError, match=rf"stack\[0\]: step {until[0]} \(until\) is not one the flow starts with"):
        rules.state_from_json(json.dumps(e))
    assert rules.state_from_json(json.dumps(d)) == rules.new_game(2, seed=3)


def test_stacking_follows_the_flow_tree():
    """Each step's frame may sit over its parent's (a sequence's step over the sequence's, but its
    last, which takes the sequence's place and so sits over what the sequence sat over), and an
    attempt's target and report over the attempt's."""
    rules = interpreter.load("mister_diamond")
    bottom, over = rules.stacking
    assert rules.root in bottom
    for step in rules.steps:
        if step.kind == "attempt":
            assert {step.report.index} | ({step.target.index} if step.target else set()) <= over[step.index]
        if step.kind == "steps" and len(step.steps) > 1 and not step.steps[0].inline:
            assert step.steps[0].index in over[step.index]
            assert step.steps[-1].index not in over[step.index]


def test_a_reask_that_fails_in_the_flow_refuses_the_state_naming_the_cause(tmp_path):
    """A variable edited so that the step asked again fails: the state is refused as not a saved
    state, with the runtime error as the cause (before: the ruleset's located runtime error)."""
    rules = load_text(tmp_path, """
game: divided
players: {min: 2, max: 2}
vars:
  y: {type: int, start: 1}
  n: {type: int}
flow:
  - turns:
      steps:
        - choose: {options: "[10 // y, 20]", as: n}
""")
    d = json.loads(rules.new_game(2, seed=1).to_json())
    d["vars"]["y"] = 0
    with pytest.raises(GameError, match=r"^error\[game\]: not a saved state of divided: the flow cannot resume from it: "
                                        r".*zero") as info:
        rules.state_from_json(json.dumps(d))
    assert info.value.diagnostics[0].loc is None


def test_a_turns_order_longer_than_a_variables_list_loads(tmp_path):
    """A turns' order of 12,000 seats (each of two many times): a real state, loads (before: refused
    by the bound of a variable's list); one longer than any expression builds is refused, naming
    its length."""
    rules = load_text(tmp_path, """
game: longturns
players: {min: 2, max: 2}
vars:
  x: {type: str}
flow:
  - turns:
      players: "map(1..6000, to: 0) + map(1..6000, to: 1)"
      steps:
        - choose: {options: "['a', 'b']", as: x}
""")
    S = rules.new_game(2, seed=1)
    assert len(S.stack[0][1]) == 12_000 and rules.state_from_json(S.to_json()) == S
    d = json.loads(S.to_json())
    d["stack"][0][1] = [0] * 1_000_001
    with pytest.raises(GameError, match=r"stack\[0\]\[1\], the seats' order this lap \(step \d+, turns\): expected a "
                                        r"list, each a seat, at most 1,000,000 of them, got 1,000,001"):
        rules.state_from_json(json.dumps(d))


def test_a_simultaneous_choice_among_maps_loads(tmp_path):
    """The choices so far hold map values (a map parameter offered): a real state loads (before:
    'expected a whole number'), and a value that is no map is refused saying a map is expected."""
    rules = load_text(tmp_path, """
game: mapopt
players: {min: 2, max: 2}
params:
  price: {default: {red: 1, blue: 2}}
vars:
  x: {type: str}
flow:
  - choose: {options: "[params.price]", as: bid, simultaneous: true}
  - choose: {who: 0, options: "['end']", as: x}
""")
    S = rules.new_game(2, seed=1)
    S.apply_index(0)
    assert rules.state_from_json(S.to_json()) == S
    d = json.loads(S.to_json())
    d["stack"][-1][3][0] = 7
    with pytest.raises(GameError, match=r"the choices so far \(step \d+, choose\): expected a map of int values by "
                                        r"key, got 7"):
        rules.state_from_json(json.dumps(d))


NESTED = """
game: nested3
players: {min: 2, max: 2}
vars:
  x: {type: str}
flow:
  - turns:
      steps:
        - turns:
            as: p1
            steps:
              - turns:
                  as: p2
                  steps:
                    - choose: {options: "['a', 'b']", as: x}
"""


def test_a_stack_is_checked_cheap_checks_first_and_a_message_is_written_only_for_a_frame_that_fails(
        tmp_path, monkeypatch):
    """Frames that fit write no message (where a slot is, how many slots a step keeps); a stack
    deeper than the flow tree, however long, is refused at the frame past its depth before any
    frame's slots are checked (a saved state of 2 million tiny frames took seconds, each
    frame's messages written)."""
    from interpreter.engine import frames, saved
    rules = load_text(tmp_path, NESTED)
    text = rules.new_game(2, seed=1).to_json()
    d = json.loads(text)
    assert [rules.steps[f[0]].kind for f in d["stack"]] == ["turns", "turns", "turns", "choose"]

    def written(*args):
        raise AssertionError("a message written for a frame that fits")
    with monkeypatch.context() as m:
        m.setattr(frames, "_slots", written)
        m.setattr(frames.At, "__str__", written)
        assert rules.state_from_json(text).to_json() == text
    checked: list = []
    monkeypatch.setattr(saved, "check_frame", lambda *args: checked.append(args))
    d["stack"] = [d["stack"][0]] * 10_000 + d["stack"]
    with pytest.raises(GameError, match=r"stack\[1\]: step \d+ \(turns\) does not run directly over step \d+ \(turns\)"):
        rules.state_from_json(json.dumps(d))
    assert checked == []
