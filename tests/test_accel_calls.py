"""A ruleset's compiled module calls its own functions in C (accel/rulesets.py): those its
functions call by name are declared cpdef in the augmenting .pxd it is compiled with, when
Cython takes them as cpdef (``direct_calls``); a compiled module plays the same games."""
from __future__ import annotations

import subprocess
import sys
import sysconfig
import types

import pytest

from helpers import load_text
from test_accel import HAS_CYTHON, _final_states, compiles_noted, _ruleset_modules_not_asked_for, can_compile  # noqa: F401

MODULE = '''
def entry(S, frame):
    a = step(S, frame) + step(S, frame=frame) + tail(S)
    b = (closure(S), gen_inside(S), generator(S), lambda_inside(S), listed(S, 1), star(S), keyword_named(S, k=1))
    return a, b, defaulted(S), defaulted(S, 2, 3), not_running(S), other_params(S), unread(S)

def step(S, frame):
    return [x for x in S] + [frame]

def tail(S, changed=True):
    return {x: {y for y in S} for x in S} if changed else None

def defaulted(S, a=1, b=2):
    return a + b

def keyword_named(S, k):
    return k

def closure(S):
    def inner():
        return S
    return inner()

def gen_inside(S):
    return any(True for x in S)

def lambda_inside(S):
    return sorted(S, key=lambda x: -x)

def generator(S):
    yield S

def listed(S, a):
    return [[lambda: x] for x in S]

def star(*S):
    return S

def not_running(S):
    return S

def other_params(S):
    return S

def unread(S, changed=True):
    changed = S.changed   # (an attribute of the name: no read of the parameter)
    return None

def never_named(S):
    return S
'''
REFUSED = ("closure(object S)", "gen_inside(object S)", "lambda_inside(object S)", "generator(object S)",
           "listed(object S, object a)", "unread(object S, object changed=*)")


def _declared(pxd: str) -> dict[str, str]:
    return {line.split()[2].split("(")[0]: line for line in pxd.splitlines() if line.startswith("cpdef ")}


def _running(text: str, *left_out: str) -> list[dict]:
    """The namespace of ``text``'s functions as they run, but ``left_out``; ``other_params`` of
    other parameters."""
    ns: dict = {}
    exec(text, ns)
    ns["other_params"] = lambda S, x: S
    return [{k: v for k, v in ns.items() if k not in left_out}]


def test_the_functions_named_are_declared_cpdef_as_they_run():
    """Declared: each function another names, of plain positional parameters (its defaults, as
    it runs: ``=*``), with no closure or yield inside. Left def: a closure, a generator
    expression, a lambda (in a comprehension too), a generator, *args, a function the
    namespaces do not hold or hold with other parameters, one with a default parameter it
    assigns and never reads, and one no function names."""
    from interpreter.accel.rulesets import direct_calls
    declared = _declared(direct_calls(MODULE, _running(MODULE, "not_running")))
    assert declared == {
        "step": "cpdef object step(object S, object frame)",
        "tail": "cpdef object tail(object S, object changed=*)",
        "defaulted": "cpdef object defaulted(object S, object a=*, object b=*)",
        "keyword_named": "cpdef object keyword_named(object S, object k)",
    }


def test_a_function_assigned_or_with_a_cython_word_for_a_parameter_stays_def():
    from interpreter.accel.rulesets import direct_calls
    text = "def f(S):\n    return g(S) + h(S, 1)\n\ndef g(S):\n    return S\n\ndef h(S, cimport):\n    return S\n"
    assert set(_declared(direct_calls(text, _running(text)))) == {"g"}
    for assigned in (text + "\ng = None\n", text + "\ndel g\n", text.replace("return g(S)", "global g\n    g = 1\n    return g(S)")):
        assert direct_calls(assigned, _running(text)) == "", assigned


def test_a_function_named_only_as_an_attribute_or_a_local_stays_def():
    """Only a global read names a function: ``S.g`` (an attribute) and a local ``g`` do not."""
    from interpreter.accel.rulesets import _unread, direct_calls
    text = "def f(S):\n    g = 1\n    return S.g + g + h(S)\n\ndef g(S):\n    return S\n\ndef h(S):\n    return S\n"
    assert set(_declared(direct_calls(text, _running(text)))) == {"h"}
    code = next(c for c in compile("def k(a, b=1):\n    b = a\n    return a\n", "<k>", "exec").co_consts
                if isinstance(c, types.CodeType))
    assert _unread(code) == {"b"}   # (assigned, never read: the parameter Cython 3.3 miscompiles)


def _cython(folder, text: str, pxd: str) -> subprocess.CompletedProcess:
    """Cython's translation of ``text`` with ``pxd`` beside it, then the C compiler's check of the
    C written (syntax and names only: no code made), where there is one."""
    from interpreter.accel.build import compiler
    from interpreter.accel.rulesets import HEADER
    (folder / "m.py").write_text(text)
    (folder / "m.pxd").write_text(pxd)
    done = subprocess.run([sys.executable, "-m", "cython", "-3", "-X", "annotation_typing=False", "m.py"],
                          cwd=folder, capture_output=True, text=True)
    cc = compiler()
    if done.returncode or cc is None:
        return done
    return subprocess.run([cc, "-fsyntax-only", f"-I{sysconfig.get_paths()['include']}", f"-I{HEADER.parent}", "m.c"],
                          cwd=folder, capture_output=True, text=True)


@can_compile
def test_cython_takes_what_is_declared_and_refuses_what_is_left_out(tmp_path):
    """Each function left def for what it holds is one Cython would refuse as cpdef, or write C
    for that does not compile (checked, so that the rule follows Cython's)."""
    from interpreter.accel.rulesets import direct_calls
    declared = direct_calls(MODULE, _running(MODULE))
    done = _cython(tmp_path, MODULE, declared)
    assert done.returncode == 0, done.stderr
    for refused in REFUSED:
        done = _cython(tmp_path, MODULE, declared + f"cpdef object {refused}\n")
        assert done.returncode != 0, refused


# the seed games, and a game of no end condition (its loop's ``changed`` assigned, never read)
SEED_GAMES = ("diamonds", "diams", "mister_diamond", "diamonds_club", "kuhn_poker")


@pytest.mark.slow   # (Cython over the seed games' whole modules: some 20 s)
@pytest.mark.skipif(not HAS_CYTHON, reason="needs Cython")
@pytest.mark.parametrize("game", SEED_GAMES)
def test_a_seed_game_s_whole_module_compiles_with_its_calls_direct(tmp_path, game):
    """What the loader compiles of a seed game, its functions all chosen (any choice is a part of
    them: fewer calls to bind): Cython takes the declarations, runs and resolves among them."""
    import interpreter
    from interpreter.accel.rulesets import DECLARED, _spaces, compiled_text, direct_calls
    from interpreter.building import written_for_c
    from interpreter.loading.resources import find_ruleset
    from interpreter.loading.variants import load_data
    rules = interpreter.load(interpreter.ruleset_path(game))
    text = compiled_text(rules, written_for_c(load_data(find_ruleset(game), None)), True)
    declared = direct_calls(text, _spaces(rules))
    assert sum(name.startswith("R") for name in _declared(declared)) >= 3, declared
    done = _cython(tmp_path, text, DECLARED + declared)
    assert done.returncode == 0, done.stderr[-2000:]


CALLS = """
game: calls
players: {min: 2, max: 3}
vars:
  x: int
  total: {type: int, start: 0}
flow:
  - turns:
      rounds: 30
      steps:
        - set: {x: 0}
        - choose: {options: "[1, 2, 3]", as: x}
        - set: {total: "total + x"}
end_when: ["total >= 40"]
scoring:
  categories: {x: "total"}
"""


def test_a_function_the_loop_calls_by_another_name_is_among_the_hot_functions(tmp_path):
    """The flow's END0 is the module's end_when_0: the compiled loop reaches it by that name."""
    from test_accel import _kept
    from interpreter.accel.rulesets import _spaces, hot_source
    rules = load_text(tmp_path, CALLS)
    assert any(ns.get("END0") is ns.get("end_when_0") is not None for ns in _spaces(rules))
    kept = _kept(hot_source(rules, rules.module_source, 10**6))
    assert "advance" in kept and "end_when_0" in kept and "END0" not in kept


@pytest.mark.slow   # (a small first compile)
@can_compile
def test_a_compiled_module_calls_its_runs_in_c_and_plays_the_same_games(tmp_path, monkeypatch):
    from interpreter.accel import rulesets
    written = compiles_noted(monkeypatch, tmp_path)
    rules = load_text(tmp_path, CALLS)
    assert rulesets.use_compiled(rules)
    (text, pxd), = written
    declared = _declared(pxd)
    # the runs a run calls by name (a turn's body, a sequence's steps); apply_index runs the game
    # loop's lines itself (building/gameloop.py), so no function of the module calls advance by name
    called = {name for name in declared if f"return {name}(S, f)" in text}
    assert called and called <= set(declared) and "advance" not in declared
    module = rules.advance.__globals__
    for name in declared:   # (each keeps its Python wrapper, in the module's namespace)
        assert not isinstance(module[name], types.FunctionType) and callable(module[name])
    assert all(fn is module.get(fn.__name__) for fn in rules.runs if fn.__name__ in declared)
    # the end condition, which the loop calls by another name (END0), compiled and bound to it
    assert "def end_when_0(" in text and module["END0"] is module["end_when_0"]
    assert not isinstance(module["END0"], types.FunctionType)
    assert _final_states(rules) == _final_states(load_text(tmp_path, CALLS, "pure.yaml"))


@pytest.mark.slow   # (a small first compile, twice)
@can_compile
def test_declarations_cython_refuses_leave_the_calls_through_python(tmp_path, monkeypatch, capsys):
    """A call Cython cannot bind to a function declared cpdef (here: each run declared with a
    parameter more than it has) is no compile error for the user: the module is compiled
    again without those declarations, says so, and plays the same games."""
    from interpreter.accel import rulesets
    compiled = compiles_noted(monkeypatch, tmp_path)
    direct_calls = rulesets.direct_calls
    monkeypatch.setattr(rulesets, "direct_calls",
                        lambda text, spaces: direct_calls(text, spaces).replace("object frame)", "object frame, object x)"))
    rules = load_text(tmp_path, CALLS)
    assert rulesets.use_compiled(rules)
    declarations = [pxd for _, pxd in compiled]
    said = capsys.readouterr().err
    assert "is not used" not in said and "compiled again with its calls through Python (" in said   # (shown: a slower module)
    assert len(declarations) == 2 and "object x)" in declarations[0] and "cpdef" not in declarations[1]
    assert not isinstance(rules.advance, types.FunctionType)
    assert _final_states(rules) == _final_states(load_text(tmp_path, CALLS, "pure.yaml"))
