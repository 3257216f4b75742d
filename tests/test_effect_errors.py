"""A runtime error inside a declared effect is located at the item of the effect's body that
failed, with the items that called the effect (the nearest first), whether the effect's body
is written in place in a step's function or called, at any depth of effects calling effects,
alike in the generated module and in its plain reference (engine/effectlines.py)."""
from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import pytest

from fuzzing.lockstep import reference
import interpreter
from helpers import bundled, load_text, write_ruleset
from interpreter.building import flowgen, inlined
from interpreter.errors import GameError, Location
from interpreter.tools.cli import main
from test_accel import can_compile, compiles_noted, _ruleset_modules_not_asked_for  # noqa: F401

BUNDLED = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "rulesets").glob("*.yaml"))

HEAD = """game: g
players: {min: 2, max: 2}
components:
  card: {attributes: {rank: 1..2}, label: "c{rank}"}
zones:
  pool: {start: [card], visible: none}
  hand: {owner: player, visible: owner}
vars:
  drawn: card
counters:
  x: 0
"""

# draw takes the pool's last card: the third draw finds the pool empty (two cards)
DRAW = HEAD + """effects:
  draw:
    - set: {drawn: "last(pool)"}
    - move: {from: pool, to: hand, cards: "[drawn]"}
flow:
  - turns:
      rounds: 2
      steps:
        - draw
        - choose: {options: "hand", as: drawn, prompt: look}
"""

# draw calls take, whose move inside an if fails
DEEP = HEAD + """effects:
  take:
    - set: {drawn: "last(pool)"}
    - if: "x >= 0"
      then:
        - move: {from: pool, to: hand, cards: "[drawn]"}
  draw:
    - set: {x: "x + 1"}
    - take
flow:
  - turns:
      rounds: 2
      steps:
        - draw
        - choose: {options: "hand", as: drawn, prompt: look}
"""


def at(text: str, needle: str, path) -> Location:
    """Where ``needle`` first stands in ``text`` (the file at ``path``)."""
    before = text[:text.index(needle)]
    return Location(str(path), before.count("\n") + 1, len(before) - before.rfind("\n"))


def failed(rules, seed: int = 0) -> GameError:
    """The GameError a game of random decisions ends in."""
    rnd = random.Random(seed)
    with pytest.raises(GameError) as raised:
        S = rules.new_game(2, seed=seed)
        for _ in range(40):
            S.apply_index(rnd.randrange(len(S.dec[1])))
    return raised.value


def located(rules) -> tuple:
    """(message, location, call sites) of the error a game ends in, checked the same in the plain reference."""
    e, ref = failed(rules), failed(reference(rules))
    assert (str(e), e.loc, e.calls) == (str(ref), ref.loc, ref.calls)
    return e.message, e.loc, e.calls


@pytest.fixture
def called(monkeypatch):
    """Every effect list called as a function, none written in place."""
    monkeypatch.setattr(inlined, "INLINE_LINES", -1)
    monkeypatch.setattr(flowgen, "INLINE_LINES", -1)


def test_an_error_in_a_declared_effect_written_in_place_is_located_at_its_item(tmp_path):
    rules = load_text(tmp_path, DRAW)
    first = at(DRAW, "set: {drawn", "g.yaml")
    assert f"E_draw: {first}, written in place" in rules.module_source   # (its body in the step's function)
    message, loc, calls = located(rules)
    assert message.startswith("in effect draw: a card is not in the zone it is taken from")
    assert loc == at(DRAW, "move: {from: pool", tmp_path / "g.yaml")
    assert calls == (at(DRAW, "draw\n        - choose", tmp_path / "g.yaml"),)


def test_an_error_in_a_declared_effect_called_is_located_at_its_item(tmp_path, called):
    rules = load_text(tmp_path, DRAW)
    assert "written in place" not in rules.module_source and "E_draw(S, me)" in rules.module_source
    _, loc, calls = located(rules)
    assert loc == at(DRAW, "move: {from: pool", tmp_path / "g.yaml")
    assert calls == (at(DRAW, "draw\n        - choose", tmp_path / "g.yaml"),)


@pytest.mark.parametrize("inline", [True, False])
def test_an_effect_called_by_an_effect_names_both_calls_the_nearest_first(tmp_path, monkeypatch, inline):
    if not inline:
        monkeypatch.setattr(inlined, "INLINE_LINES", -1)
        monkeypatch.setattr(flowgen, "INLINE_LINES", -1)
    rules = load_text(tmp_path, DEEP)
    assert (f"E_draw: {at(DEEP, 'set: {x:', 'g.yaml')}, written in place" in rules.module_source) == inline
    message, loc, calls = located(rules)
    path = tmp_path / "g.yaml"
    assert message.startswith("in effect take: ")
    assert loc == at(DEEP, "move: {from: pool", path)   # (inside the if: the innermost item)
    assert calls == (at(DEEP, "take\nflow", path), at(DEEP, "draw\n        - choose", path))


def test_the_message_quotes_the_failing_line_and_each_call(tmp_path):
    rules = load_text(tmp_path, DEEP)
    text = str(failed(rules))
    path = tmp_path / "g.yaml"
    move, take, draw = (at(DEEP, x, path) for x in ("move: {from: pool", "take\nflow", "draw\n        - choose"))
    assert text.split("\n") == [
        f"{move}: error[runtime]: in effect take: a card is not in the zone it is taken from (it lies in "
        "another zone, or is none: the first() of an empty list, a variable not set yet...)",
        '            - move: {from: pool, to: hand, cards: "[drawn]"}',
        "              ^",
        f"  called from {take}: - take",
        f"  called from {draw}: - draw"]


def test_an_argument_that_fails_is_located_at_the_call_inside_the_effect(tmp_path):
    text = HEAD + """effects:
  inner:
    params: {n: int}
    do:
      - set: {x: "x + n"}
  outer:
    - set: {x: "x + 1"}
    - inner: {n: "10 // (x - 1)"}
flow:
  - turns:
      rounds: 2
      steps:
        - outer
        - choose: {options: "[1, 2]", as: drawn, prompt: pick}
"""
    message, loc, calls = located(load_text(tmp_path, text.replace("as: drawn", "as: y")))
    assert message == "in effect outer: division by zero"
    assert loc == at(text, "inner: {n:", tmp_path / "g.yaml")
    assert calls == (at(text, "outer\n        - choose", tmp_path / "g.yaml"),)


@pytest.mark.parametrize("caller", ["hook", "trigger", "setup"])
def test_a_declared_effect_called_from_a_hook_a_trigger_or_the_setup_names_that_call(tmp_path, caller):
    effects = """effects:
  draw:
    - set: {drawn: "last(pool)"}
    - move: {from: pool, to: hand, cards: "[drawn]"}
"""
    flow = {
        "hook": """flow:
  - turns:
      rounds: 3
      steps:
        - choose: {options: "[1, 2]", as: y, prompt: pick, then: [draw]}
""",
        "trigger": """triggers:
  more:
    on_enter: hand
    do: [draw]
flow:
  - turns:
      rounds: 3
      steps:
        - choose: {options: "[1]", as: y, prompt: go}
        - move: {from: pool, to: hand, count: 1}
""",
        "setup": """setup:   # (no player acts: draw's move to hand, a zone of each player's, fails)
  - set: {x: 1}
  - draw
flow:
  - choose: {who: 0, options: "[1]", as: y, prompt: go}
"""}[caller]
    text = HEAD + effects + flow
    path = tmp_path / "g.yaml"
    rules = load_text(tmp_path, text)
    e, ref = failed(rules), failed(reference(rules))
    assert (str(ref), ref.calls) == (str(e), e.calls)
    assert e.message.startswith("in effect draw: ")
    assert e.loc == at(text, "move: {from: pool, to: hand, cards", path)
    call = {"hook": "draw]}", "trigger": "draw]\nflow", "setup": "draw\nflow"}[caller]
    assert e.calls == (at(text, call, path),)


def test_an_error_outside_declared_effects_is_located_at_its_step_as_before(tmp_path):
    text = HEAD + """flow:
  - turns:
      rounds: 2
      steps:
        - if: "x >= 0"
          then:
            - set: {drawn: "last(pool)"}
            - move: {from: pool, to: hand, cards: "[drawn]"}
        - choose: {options: "hand", as: drawn, prompt: look}
"""
    message, loc, calls = located(load_text(tmp_path, text))
    assert message.startswith("in effects: ") and calls == ()
    assert loc == at(text, 'if: "x >= 0"', tmp_path / "g.yaml")


def test_a_card_not_in_its_zone_is_summarised_as_such_in_both_paths(tmp_path):
    """What a seat reads of the error (its summary): the kind of its own, not a value out of range."""
    rules = load_text(tmp_path, DEEP)
    e, ref = failed(rules), failed(reference(rules))
    assert e.summary == ref.summary == "in effect take: a card not in the zone it is taken from"


def test_the_call_sites_travel_with_the_error(tmp_path):
    e = failed(load_text(tmp_path, DEEP))
    again = pickle.loads(pickle.dumps(e))   # (a worker process's error)
    assert (again.loc, again.calls, str(again)) == (e.loc, e.calls, str(e))
    d = e.diagnostics[0].to_dict()
    assert (d["line"], d["col"]) == (e.loc.line, e.loc.col) and d["calls"] == [str(at) for at in e.calls]
    assert len(e.calls) == 2
    assert "calls" not in GameError("no decision is pending").diagnostics[0].to_dict()


def test_validate_playouts_names_the_failing_item_and_its_calls(tmp_path, capsys):
    path = tmp_path / "g.yaml"
    path.write_text(DEEP)
    move, take, draw = (at(DEEP, x, path) for x in ("move: {from: pool", "take\nflow", "draw\n        - choose"))
    assert main(["validate", str(path), "--playouts", "1"]) == 1
    err = capsys.readouterr().err
    assert (f"in effect take: a card is not in the zone it is taken from (it lies in another zone, or is none: "
            f"the first() of an empty list, a variable not set yet...)\n    at {move}\n"
            f"    called from {take}: - take\n    called from {draw}: - draw\n    replay: ") in err
    assert main(["validate", str(path), "--playouts", "1", "--json"]) == 1
    problem = json.loads(capsys.readouterr().out)["files"][0]["playouts"]["problems"][0]
    assert problem["loc"] == str(move) and problem["calls"] == [str(take), str(draw)]


def test_docs_errors_md_quotes_these_messages(tmp_path, monkeypatch, capsys):
    """docs/errors.md's examples of an error inside a declared effect are what `play` and
    `validate --playouts` print for DEEP saved as draws.yaml."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "errors.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    Path("draws.yaml").write_text(DEEP)
    assert main(["play", "draws.yaml", "--players", "2", "--seed", "0"]) == 1
    assert "```text\n" + capsys.readouterr().err.split("\n\n")[-1] in doc   # (after the game's lines)
    assert main(["validate", "draws.yaml", "--playouts", "1"]) == 1
    problem = capsys.readouterr().err.rstrip("\n")
    assert "```text\n" + problem + "\n```" in doc


def test_a_loop_compiled_again_without_its_tallies_keeps_its_lines_items(tmp_path):
    """A for_each whose body writes the zone it counts is compiled twice (building/effects.py
    ``tallied``): the lines of the first compile are dropped with their items, so the items
    of the lines after it are theirs."""
    text = DRAW.replace("  draw:\n", """  draw:
    - for_each:
        in: "[1, 2]"
        as: r
        do:
          - set: {x: "x + count(pool where rank == r)"}
          - move: {from: pool, to: hand, cards: "pool where rank == r and x > 100"}
""", 1)   # (DRAW's effect with a loop before it)
    _, loc, _ = located(load_text(tmp_path, text))
    assert loc == at(text, 'move: {from: pool, to: hand, cards: "[drawn]"}', tmp_path / "g.yaml")


@pytest.mark.parametrize("name", BUNDLED)
def test_every_effect_list_written_in_place_is_placed_at_its_heading(name):
    """The line of the module each effect list the flow generator writes in place is noted on,
    as the module is put together (flowgen.unmarked), is its heading comment, and every heading of
    a list written in place in a step's function is noted (those of the declared effects written
    inside one are in its lines); each compiled effect list has an item (or none) for each line of
    its code."""
    rules = bundled(name)
    lines = rules.effect_lines
    for fn in lines.functions:
        assert len(fn.lines) == fn.code.count("\n") and len(fn.owners) == len(fn.body[0])
    text = rules.module_source.split("\n")
    assert lines.in_place and "\x00" not in rules.module_source
    inside = {first + k for first, items in lines.in_place for k in range(1, len(items))}
    headings = {k + 1 for k, x in enumerate(text) if x.strip().startswith("# ") and x.endswith(", written in place")}
    assert sorted(first for first, _ in lines.in_place) == sorted(headings - inside)
    for first, items in lines.in_place:
        assert items[0] == () and first + len(items) - 1 <= len(text) and any(items)
    assert len(lines.module_lines()) >= len(lines.in_place)


def test_the_marks_of_the_lists_written_in_place_are_read_off_by_line():
    """``unmarked`` takes the marks out of the flow as its generators wrote it, each noted at the
    line it is on, a piece of several lines counted as such, the text otherwise as it was."""
    mark = flowgen.MARK
    source = f"def R0(S, frame):\n    # F1: g.yaml:3:5, written in place{mark}1{mark}\n    x = 1\n" \
             f"    if x:\n        y = 2\n        # F0: g.yaml:2:5, written in place{mark}0{mark}\n" \
             f"        # F1: g.yaml:3:5, written in place{mark}1{mark}\n    return None\n"
    text, marks = flowgen.unmarked(source)
    assert text == source.replace(f"{mark}1{mark}", "").replace(f"{mark}0{mark}", "")
    assert marks == [(1, 1), (5, 0), (6, 1)]
    assert flowgen.unmarked("def f():\n    return 1\n") == ("def f():\n    return 1\n", [])


def test_a_trigger_condition_failing_below_a_declared_effect_is_located_at_the_trigger(tmp_path):
    """The move of a declared effect fires a trigger whose condition fails: the error is the
    trigger's (errors.tag_origin), not the effect's, whose frames are above the condition's."""
    text = HEAD + """zones:
  side: {visible: all}
effects:
  grab:
    - move: {from: pool, to: side, count: 1}
triggers:
  more:
    on_enter: side
    if: "10 // (x - x) > 0"
    do: [{set: {x: 1}}]
flow:
  - turns:
      rounds: 2
      steps:
        - grab
        - choose: {options: "[1]", as: y, prompt: go}
"""
    text = text.replace("zones:\n  side: {visible: all}\n", "").replace(
        "  hand: {owner: player, visible: owner}\n", "  hand: {owner: player, visible: owner}\n  side: {visible: all}\n")
    message, loc, calls = located(load_text(tmp_path, text))
    assert message == "in trigger more: division by zero" and calls == ()
    assert loc.line == at(text, "10 // (x - x)", tmp_path / "g.yaml").line


CHECKED = HEAD.replace("vars:\n  drawn: card\n", "vars:\n  last: {type: int, start: 0}\n  pick: {type: int, start: 0}\n") + """effects:
  take:
    - if: "pick == 7 and last == 7"
      then:
        - set: {x: "10 // (pick - last)"}
  check:
    - take
    - set: {last: pick}
flow:
  - turns:
      rounds: 1000
      steps:
        - choose: {options: "0..999", as: pick, prompt: pick}
        - check
"""


@can_compile
def test_the_compiled_tier_locates_an_error_in_a_declared_effect_alike(tmp_path, monkeypatch):
    """The compiled tier's frames run the module's text at its lines (accel/rulesets.py): an
    error in a declared effect it runs is located as in the Python module. (Only two 7s in a row
    fail: the random play that profiles the module before its compile does not.)"""
    compiles_noted(monkeypatch, tmp_path)
    path = write_ruleset(tmp_path, CHECKED)
    said = []
    for compiled in (True, False):
        rules = interpreter.load(path, compiled=compiled)
        assert (type(rules.advance).__name__ == "cython_function_or_method") == compiled
        S = rules.new_game(2, seed=0)
        S.apply("7")
        with pytest.raises(GameError) as raised:
            S.apply("7")
        said.append((str(raised.value), raised.value.calls))
    assert said[0] == said[1] and said[0][0].split("\n")[0].endswith("in effect take: division by zero")
    assert said[0][1] == (at(CHECKED, "take\n    - set", path), at(CHECKED, "check\n", path))


# a for_each in spin, called by work, called by the flow, runs past the step budget
SPINS = HEAD + """limits: {steps: 3000}
effects:
  spin:
    - for_each:
        in: "0..100"
        as: r
        do:
          - set: {x: "x + r"}
  work:
    - spin
flow:
  - turns:
      rounds: 100
      steps:
        - work
        - choose: {options: "hand", as: drawn, prompt: look}
"""


@pytest.mark.parametrize("inline", [True, False])
def test_a_budget_stop_inside_a_declared_effect_names_its_calls(tmp_path, monkeypatch, inline):
    """The step budget stops a game in a declared effect's for_each: located at the loop, with
    the items that called the effect, the nearest first, as a runtime error there is."""
    if not inline:
        monkeypatch.setattr(inlined, "INLINE_LINES", -1)
        monkeypatch.setattr(flowgen, "INLINE_LINES", -1)
    rules = load_text(tmp_path, SPINS)
    assert ("written in place" in rules.module_source) == inline
    message, loc, calls = located(rules)
    path = tmp_path / "g.yaml"
    assert message.startswith("the game exceeded its step budget of 3,000 steps")
    assert loc == at(SPINS, 'in: "0..100"', path)   # (the loop that took the last step)
    assert calls == (at(SPINS, "spin\nflow", path), at(SPINS, "work\n        - choose", path))
    e = failed(rules)
    assert type(e).__name__ == "BudgetExceeded" and f"called from {calls[1]}: - work" in str(e)


def test_a_budget_stop_outside_declared_effects_names_no_calls(tmp_path):
    rules = load_text(tmp_path, SPINS.replace("        - work\n", "        - for_each: {in: \"0..100\", as: r, do: [{set: {x: \"x + r\"}}]}\n"))
    e = failed(rules)
    assert e.message.startswith("the game exceeded its step budget") and e.calls == ()


def test_effect_lines_tell_functions_of_equal_code_apart(tmp_path):
    """Two effect lists whose code is alike (Python compares code objects by value, their file
    names aside) are told apart by identity: the error is at the item of the one that ran."""
    from interpreter.engine.effectlines import EffectLines
    source = "def body(S):\n    return 1 // S\n"
    functions = []
    for name in ("a", "b"):
        ns: dict = {}
        exec(compile(source, f"<{name}>", "exec"), ns)  # noqa: S102 - the test's own text
        fn = ns["body"]
        fn.lines, fn.effect = (None, Location("g.yaml", ord(name), 1)), name
        functions.append(fn)
    assert functions[0].__code__ == functions[1].__code__
    lines = EffectLines(tuple(functions), {})
    with pytest.raises(ZeroDivisionError) as raised:
        functions[0](0)
    assert lines.chain(raised.value) == [(Location("g.yaml", ord("a"), 1), "a")]


def test_effect_lines_keep_no_copy_of_the_lines_written_in_place():
    """Each run written in place is kept as the lookup needs it (the line of the module its
    heading is on and its lines' items, equal items one tuple), not as a copy of its text."""
    lines = bundled("mister_diamond").effect_lines
    assert lines.in_place and not hasattr(lines, "text")
    for first, items in lines.in_place:
        assert isinstance(first, int) and first > 0 and isinstance(items, tuple)
        assert not any(isinstance(x, str) for at in items for x in at)
    kept = [at for _, items in lines.in_place for at in items if at]
    assert len({id(at) for at in kept}) == len(set(kept))   # (equal items held once)


def test_a_game_log_error_line_names_the_calls_and_an_old_one_still_replays(tmp_path, capsys):
    """The error line of a game stopped inside a declared effect keeps its call sites beside
    its location (``calls``, the nearest first); a log without them (an older one) replays."""
    path, log = tmp_path / "g.yaml", tmp_path / "g.jsonl"
    path.write_text(DEEP)
    assert main(["play", str(path), "--players", "2", "--seed", "0", "--log", str(log)]) == 1
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    error = lines[-1]
    move, take, draw = (at(DEEP, x, path) for x in ("move: {from: pool", "take\nflow", "draw\n        - choose"))
    assert error["type"] == "error" and error["loc"] == str(move) and error["calls"] == [str(take), str(draw)]
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    del error["calls"]
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["replay", str(log)]) == 0


def test_an_error_line_outside_declared_effects_has_no_calls(tmp_path):
    path, log = tmp_path / "g.yaml", tmp_path / "g.jsonl"
    inline = '        - set: {drawn: "last(pool)"}\n        - move: {from: pool, to: hand, cards: "[drawn]"}\n'
    path.write_text(DEEP.replace("        - draw\n", inline))   # (the effects of draw and take in the flow)
    assert main(["play", str(path), "--players", "2", "--seed", "0", "--log", str(log)]) == 1
    error = json.loads(log.read_text().splitlines()[-1])
    assert error["type"] == "error" and error["loc"] and "calls" not in error
