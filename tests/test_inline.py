"""The generated module passes arguments as arguments and writes small bodies in place
(building/effects.py, building/flowgen.py): what runs keeps its meaning and its places."""
from __future__ import annotations

import traceback

import pytest

import interpreter
from helpers import load_text
from interpreter.building.listing import listing
from interpreter.expr.names import var_ref


def two_seats(tmp_path, name, body):
    """The game NAME for two seats, loaded from NAME.yaml: BODY (its vars and flow) from line 4 on."""
    return load_text(tmp_path, f"\ngame: {name}\nplayers: {{min: 2, max: 2}}\n" + body, f"{name}.yaml")


def last_frame(raised, name):
    """The innermost Python frame of the error's cause that is in the ruleset file NAME."""
    frames = traceback.extract_tb(raised.value.__context__.__traceback__)
    return [f for f in frames if f.filename.startswith(f"<{name}:")][-1]


DECLARED = """vars:
  a: {type: int, start: 0}
  b: {type: int, start: 0}
  total: {type: int, start: 0}
effects:
  pair:
    params: {x: int, y: int}
    do:
      - set: {a: "x", b: "y"}
      - for_each: {in: "[1, 2, 3]", as: x, do: [{set: {total: "total + x * y"}}]}
flow:
  - choose: {who: 0, options: "[0, 1]", as: a}
  - pair: {y: "a + 10", x: "a + 1"}
  - pair: {x: "b", y: "2"}
"""


def test_a_declared_effect_takes_its_arguments_as_parameters(tmp_path):
    rules = two_seats(tmp_path, "params", DECLARED)
    fn = rules.namespace["E_pair"]
    assert fn.__code__.co_varnames[:fn.__code__.co_argcount] == ("S", "me", "P_x", "P_y")
    text = listing(rules)
    assert "E_pair(S, me, P_y=" in text                # written y first: keywords, evaluated as written
    assert f"E_pair(S, me, {var_ref('b')}, 2)" in text   # in order: positional, no dict
    S = rules.new_game(2, seed=1)
    S.apply_index(1)                                    # a = 1
    # pair(x=2, y=11): a, b = 2, 11, total += (1+2+3) * 11 (the element x hides the parameter);
    # pair(x=11, y=2): a, b = 11, 2, total += 6 * 2
    assert (S.v["a"], S.v["b"], S.v["total"]) == (11, 2, 66 + 12)


LOOPING = """vars:
  n: {type: int, start: 0}
  left: {type: int, start: 3}
  gone: {type: bool, start: false}
flow:
  - choose: {who: 0, options: "[0, 1]", as: n}
  - while: "left > 0"
    steps:
      - set: {left: "left - 1"}
      - set: {n: "10 // n"}
  - set: {gone: "true"}
"""


def test_an_effect_list_runs_in_place_where_its_errors_and_frames_name_its_rule(tmp_path):
    from interpreter.building.flowmodule import compile_flow
    rules = two_seats(tmp_path, "looping", LOOPING)
    assert "# F" in rules.flow_source and "looping.yaml:13:9, written in place" in rules.flow_source
    assert "written in place" not in compile_flow(rules, plain=True)[4]   # (the reference calls each function)
    S = rules.new_game(2, seed=1)
    S.apply_index(1)                                    # n = 1: three passes, then the end
    assert (S.v["n"], S.v["left"], S.v["gone"], S.is_terminal()) == (10, 0, True, True)
    S = rules.new_game(2, seed=1)
    with pytest.raises(interpreter.GameError) as raised:
        S.apply_index(0)                                # n = 0: 10 // 0 in the loop's second effect
    assert "looping.yaml:13" in str(raised.value) and "division by zero" in str(raised.value)
    frame = last_frame(raised, "looping.yaml")
    assert frame.filename == "<looping.yaml:13>" and f"_floordiv(10, {var_ref('n')})" in frame.line


def test_a_condition_in_place_keeps_the_languages_error(tmp_path):
    rules = two_seats(tmp_path, "unset", """vars:
  n: {type: int, start: 0}
  left: {type: int}
flow:
  - choose: {who: 0, options: "[0, 1]", as: n}
  - while: "left > n"
    steps: [{set: {n: "n + 1"}}]
""")
    assert "unset.yaml:9:12, written in place" in rules.flow_source
    with pytest.raises(interpreter.GameError) as raised:
        rules.new_game(2, seed=1).apply_index(0)
    assert "none used as a value" in str(raised.value) and "unset.yaml:9" in str(raised.value)


def test_a_hook_runs_in_place_located_at_its_step(tmp_path):
    rules = two_seats(tmp_path, "hook", """vars:
  n: {type: int, start: 0}
  m: {type: int, start: 5}
flow:
  - choose: {who: 0, options: "[0, 1]", as: n,
             then: [{set: {m: "m + 1"}}, {set: {m: "m // n"}}]}
""")
    assert "hook.yaml:9:21, written in place" in rules.flow_source
    S = rules.new_game(2, seed=1)
    S.apply_index(1)
    assert S.v["m"] == 6
    with pytest.raises(interpreter.GameError) as raised:
        rules.new_game(2, seed=1).apply_index(0)
    assert "hook.yaml:8" in str(raised.value) and "in choose" in str(raised.value)   # (at its step, as called)
    frame = last_frame(raised, "hook.yaml")
    assert frame.filename == "<hook.yaml:9>" and f"_floordiv({var_ref('m')}, {var_ref('n')})" in frame.line


def test_a_choices_options_are_asked_in_place(tmp_path):
    rules = two_seats(tmp_path, "options", """vars:
  n: {type: int, start: 3}
flow:
  - choose: {who: 0, options: "[n, n * 2]", as: n}
  - choose: {who: 1, options: "[n + 1, n - 1]", as: n}
""")
    assert "options.yaml:7:31, written in place" in rules.flow_source
    S = rules.new_game(2, seed=1)
    assert S.dec == (0, (3, 6))
    S.apply_index(1)
    assert S.dec == (1, (7, 5))


def test_a_hook_takes_the_locals_it_reads_as_parameters():
    from helpers import bundled
    rules = bundled("diamonds")
    trick = next(s for s in rules.steps if s.kind == "tricks")
    for hook, reads in ((trick.on_void, ("card",)), (trick.on_win, ("led",))):
        assert hook.params == reads
        assert hook.__code__.co_varnames[:hook.__code__.co_argcount] == ("S", "me", *(f"P_{k}" for k in reads))
    assert "{'card':" not in rules.module_source and "P_card = card" in rules.flow_source


def test_a_chance_reading_an_earlier_one_takes_it_as_a_parameter():
    from helpers import bundled
    rules = bundled("mister_diamond")
    attempt = next(s for s in rules.steps if s.kind == "attempt")
    _, name, fn = next(o.given for o in attempt.outcomes if o.given is not None)
    assert fn.params == (name,)
    assert fn.__code__.co_varnames[:fn.__code__.co_argcount] == ("S", "me", f"P_{name}")
    assert f"{{{name!r}:" not in rules.module_source and f"P_{name} = v0" in rules.flow_source


def _function(source, name):
    """The text of the generated function ``name`` in ``source``."""
    return next(part for part in source.split("\ndef ") if part.startswith(f"{name}("))


def test_an_attempts_effect_outcome_and_its_target_list_run_in_place():
    from helpers import bundled
    rules = bundled("mister_diamond")
    attempt = next(s for s in rules.steps if s.kind == "attempt")
    touch = attempt.outcomes[0].body.steps[0]   # (set turn_over: the effect list the outcome is)
    assert touch.kind == "effects"
    run = _function(rules.flow_source, f"R{attempt.index}")
    assert f"R{touch.index}(S, f)" not in run and f"{touch.loc.line}:{touch.loc.col}, written in place" in run
    target = _function(rules.flow_source, f"R{attempt.target.index}")
    # (its list: the view of its zones, kept by the moves, building/record.py: no call, no join)
    assert "S.vw[0]" in target and "(S, actor, None)" not in target
    # the same games as the plain reference: tests/test_flowgen.py, tests/test_trajectories.py


@pytest.mark.parametrize("cond,reads_me", [("n > 1", False), ("n > 1 or me == 5", True)])
def test_a_condition_in_place_binds_me_only_where_it_reads_it(tmp_path, cond, reads_me):
    """A loop's condition written in place in a turn binds the acting seat only where it reads it
    (as its compiler noted); the games are the reference's."""
    from test_flowgen import lockstep
    rules = two_seats(tmp_path, "binds", f"""vars:
  n: {{type: int, start: 0}}
flow:
  - turns:
      rounds: 2
      steps:
        - set: {{n: 0}}
        - until: "{cond}"
          steps: [{{choose: {{options: "[1, 2]", as: n}}}}]
""")
    loop = next(s for s in rules.steps if s.kind == "until")
    run = _function(rules.flow_source, f"R{loop.index}")
    assert "written in place" in run and ("me = " in run) == reads_me
    for seed in range(3):
        assert lockstep(rules, 2, seed) > 0
