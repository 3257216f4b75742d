"""`rulebook compile`: a ruleset's generated code as one module to read (building/listing.py)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import interpreter
from interpreter.building.flowmodule import compile_flow
from interpreter.building.listing import listing
from interpreter.expr.names import var_ref
from interpreter.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
CASES = [("diamonds", None), ("diamonds", "teams"), ("diams", None), ("diamonds_club", None),
         ("mister_diamond", None), *((str(p), None) for p in sorted((ROOT / "docs" / "examples").glob("*.yaml")))]


@pytest.mark.parametrize("name,variant", CASES, ids=lambda x: Path(str(x)).stem)
def test_the_listing_is_python_naming_every_function_the_flow_calls(name, variant):
    rules = interpreter.load(interpreter.ruleset_path(name), variant=variant)
    text = listing(rules)
    tree = ast.parse(text)                                           # it reads as Python
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert "advance" in defined
    assert {f"R{s.index}" for s in rules.steps if rules.runs[s.index].__name__ == f"R{s.index}"} <= defined
    described = set(re.findall(r"^# (\w+):", text, re.M))
    called = set(re.findall(r"\b([FK]\d+)\b", rules.flow_source))
    assert called and called <= defined | described                 # every name the flow calls is there
    # each generated function is headed by the rule it comes from, most by its YAML line
    heads = re.findall(r"^# (\w+): (\S+)", text, re.M)
    placed = [where for fn, where in heads if fn in defined]
    assert placed and sum(bool(re.fullmatch(r"[\w.-]+\.yaml:\d+:\d+", w)) for w in placed) >= 0.8 * len(placed)


def test_a_function_is_listed_as_it_runs():
    """Its body as compiled, under the name the flow calls it by, or the step it belongs to."""
    rules = interpreter.load("diams")
    text = listing(rules)
    names = compile_flow(rules, names=True)[-1]
    bodies = 0
    for name, obj in names.items():
        code = getattr(obj, "code", None)
        if isinstance(code, str):
            args = ", ".join(obj.__code__.co_varnames[:obj.__code__.co_argcount])   # (S, me, L; a hook's own)
            assert f"def {name}({args}):\n{code.rstrip().split(chr(10), 1)[1]}" in text
            bodies += 1
    pick = next(s for s in rules.steps if s.kind == "pick" and hasattr(getattr(s, "hi", None), "code"))
    assert f"def pick{pick.index}_hi(S, me, L):" in text   # (a step's own function, by its name)
    assert bodies > 20
    # an expression's heading quotes its source, when it is one line
    one_line = next(obj for obj in names.values() if isinstance(getattr(obj, "code", None), str)
                    and isinstance(getattr(obj, "source", None), str) and "\n" not in obj.source
                    and getattr(obj, "loc", None) is not None)
    assert f"  ({one_line.source[:77]}" in text


@pytest.mark.parametrize("name,variant", CASES, ids=lambda x: Path(str(x)).stem)
def test_every_function_that_runs_is_listed_by_what_it_is(name, variant):
    """No entry is headed by a module it has not (``None.``), and a branch's conditions, compiled
    together into one function, are listed with their code under the rule they come from."""
    rules = interpreter.load(interpreter.ruleset_path(name), variant=variant)
    text = listing(rules)
    assert not re.search(r"^# \w+: None\.", text, re.M)
    for step in rules.steps:
        offers = getattr(step, "offers", None) if step.kind == "branch" else None
        if offers is not None:
            body = offers.code.rstrip().split("\n", 1)[1]
            assert re.search(r"^# \w+: [\w.-]+\.yaml:\d+:\d+\ndef \w+\(S, me, L\):\n" + re.escape(body), text, re.M)


def test_compile_prints_or_writes_the_module(tmp_path, capsys):
    assert main(["compile", "diamonds"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith('"""diamonds: the Python its rules compile to') and "def advance(" in printed
    out = tmp_path / "diamonds_flow.py"
    assert main(["compile", "diamonds", "--variant", "teams", "-o", str(out)]) == 0
    assert "variant teams" in out.read_text()
    assert main(["compile", "diamonds", "-o", str(out)]) == 2        # never overwritten without --force
    assert "exists" in capsys.readouterr().err and "variant teams" in out.read_text()
    assert main(["compile", "diamonds", "-o", str(out), "--force"]) == 0 and "variant teams" not in out.read_text()
    assert main(["compile", "diamonds", "-o", str(tmp_path / "no" / "such" / "x.py")]) == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: bad\nplayers: {min: 2, max: 2}\nflow:\n  - gain: {counter: nothing}\n")
    assert main(["compile", str(bad)]) == 1
    assert "bad.yaml:4:" in capsys.readouterr().err


def test_a_profile_names_the_rules_running_by_their_yaml_lines():
    """Generated functions carry their rule's place as their file name (``<diams.yaml:164>``),
    so a profile or a traceback says which line of the ruleset runs, not which generated text."""
    import cProfile
    import pstats
    import random
    rules = interpreter.load("diams")
    profile = cProfile.Profile()
    profile.enable()
    S, rnd = rules.new_game(4, 1), random.Random(1)
    while not S.is_terminal():
        S.apply_index(rnd.randrange(len(S.dec[1])))
    profile.disable()
    files = {f for f, _, _ in pstats.Stats(profile).stats}
    lines = {int(m.group(1)) for f in files if (m := re.fullmatch(r"<diams\.yaml:(\d+)>", f))}
    assert len(lines) >= 10
    text = (ROOT / "rulesets" / "diams.yaml").read_text().splitlines()
    assert all(text[n - 1].strip() for n in lines)                  # each a line of the ruleset
    for step in rules.steps:                                         # a step's generated run, at its line
        run = rules.runs[step.index]
        if run.__name__ == f"R{step.index}" and step.loc is not None:
            assert run.__code__.co_filename == f"<diams.yaml:{step.loc.line}>"


@pytest.mark.parametrize("name,variant", CASES[:5], ids=lambda x: Path(str(x)).stem)
def test_the_listing_is_the_module_that_runs(name, variant):
    """Every generated function runs code compiled from the listed text, at its def line."""
    import linecache
    rules = interpreter.load(interpreter.ruleset_path(name), variant=variant)
    text = listing(rules)
    lines = text.splitlines()
    tree = ast.parse(text)
    defs = {n.name: n.lineno for n in tree.body if isinstance(n, ast.FunctionDef)}
    held = [*(rules.runs[s.index] for s in rules.steps), *(rules.resolves[s.index] for s in rules.steps),
            *rules.end_checks, rules.setup, *(getattr(s, "fn", None) for s in rules.steps),
            *(rules.namespace.get(f"E_{e}") for e in rules.effect_names)]
    ran = 0
    for fn in held:
        code = getattr(fn, "__code__", None)
        if code is None or not isinstance(getattr(fn, "code", None), str) and code.co_name not in defs:
            continue   # (a step's own method, not generated)
        assert defs[code.co_name] == code.co_firstlineno, code.co_name     # compiled from this text, there
        assert linecache.getlines(code.co_filename) == [line + "\n" for line in lines]
        ran += 1
    assert ran > 10


def test_a_runtime_error_names_the_yaml_line_of_its_rule(tmp_path):
    import traceback
    from helpers import load_text
    rules = load_text(tmp_path, """
game: oops
players: {min: 2, max: 2}
vars:
  n: {type: int, start: 0}
flow:
  - choose: {who: 0, options: "[0, 1]", as: n}
  - set: {n: "10 // n"}
""", "oops.yaml")
    S = rules.new_game(2, seed=1)
    with pytest.raises(interpreter.GameError) as raised:
        S.apply_index(0)                                   # n = 0: 10 // 0 at line 8
    assert "oops.yaml:8" in str(raised.value)
    frames = traceback.extract_tb(raised.value.__context__.__traceback__)
    ours = [f for f in frames if f.filename == "<oops.yaml:8>"]
    assert ours and f"_floordiv(10, {var_ref('n')})" in ours[-1].line   # the generated line, found by its rule

