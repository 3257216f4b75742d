"""Texts bound to locals, and text parameters, within the bounds the cost model weighs them at.

An expression reading a local (a declared effect's parameter, a for_each's element) weighs a
string in it at MAX_STORED characters at most (interpreter/expr/texts.py), as it weighs a text
variable, whose value is checked as it is stored. A value that may hold a longer string (``v + v``
of a text parameter) is checked where it is bound, with the same located runtime error, in the
generated module and its plain reference alike; a value that cannot (``v``, a literal, a number)
is bound as it is, no code added. A text parameter is weighed at its longest choice, or at its
declared ``max_length:``, which an override must keep (docs/reference.md, "Parameters").
"""
from __future__ import annotations

import pytest

from helpers import chips_game, load_text
from interpreter.building.listing import listing
from interpreter.expr.runtime import MAX_STORED
from test_budget_counted import played
from test_flowgen import reference

# u doubled 16 times (65,536 characters: a text variable may hold it), then bound to a local
HEAD = chips_game("", game="text_locals", players=(2, 2)) + """  u: {type: str, start: "'a'"}
  z: {type: int, start: 0}
"""
FLOW = """flow:
  - for_each: {in: "1..16", as: k, do: [{set: {u: "u + u"}}]}
  - turns:
      rounds: 1
      steps:
        - choose: {options: "[1, 2]", as: x, prompt: first}
        - %s
scoring:
  categories: {chips: "count(mine)"}
"""
EFFECTS = """effects:
  inner:
    params: {v: str}
    do: [{set: {z: "z + (1 if 'ab' in v else 0)"}}]
  outer:
    params: {v: str}
    do: [{inner: {v: "v + v"}}]
  listed:
    params: {vs: "list[str]"}
    do: [{set: {z: "count(vs)"}}]
"""
SEARCH = "[{set: {z: \"z + (1 if 'ab' in t else 0)\"}}]"


def game(tmp_path, item: str, effects: bool = True):
    return load_text(tmp_path, HEAD + (EFFECTS if effects else "") + FLOW % item)


def outcome(rules) -> tuple:
    """The game played (seed 0), by the module and by its plain reference: both the same."""
    got = played(rules, 0)
    assert got == played(reference(rules), 0)
    return got


@pytest.mark.parametrize("item, line", [
    ('outer: {v: "u"}', 20),                 # (called with u: inner is given u + u, 131,072 characters)
    ('inner: {v: "u + u"}', 30),
    ('listed: {vs: "[u + u]"}', 30),
    ('for_each: {in: "[u + u]", as: t, do: %s}' % SEARCH, 30),
    ('for_each: {in: "[[u, u + u]]", as: t, do: [{set: {z: "count(t)"}}]}', 30),
    ('for_each: {in: "[u]", as: s, do: [{for_each: {in: "[s + s]", as: t, do: %s}}]}' % SEARCH, 30),
], ids=["effect-in-effect", "effect", "effect-list", "for_each", "for_each-nested-list", "for_each-in-for_each"])
def test_a_longer_text_bound_to_a_local_stops_the_game_at_its_item(tmp_path, item, line):
    """A value that may hold more than MAX_STORED characters, bound to a local: a runtime error
    at the item binding it (the call, the for_each), in both compiles, on the first decision."""
    decisions, _, kind, message, _ = outcome(game(tmp_path, item))
    assert (decisions, kind) == (0, "GameError")
    assert f"g.yaml:{line}:" in message.splitlines()[0]
    assert f"a string of 131072 characters, more than {MAX_STORED}" in message


@pytest.mark.parametrize("item", [
    'outer: {v: "\'ab\'"}',
    'inner: {v: "u"}',
    'listed: {vs: "[u, u]"}',
    'for_each: {in: "[u, \'ab\']", as: t, do: %s}' % SEARCH,
])
def test_a_text_the_model_bounds_is_bound_with_no_check(tmp_path, item):
    """A value whose strings are at most MAX_STORED characters (a variable's, a literal): bound as
    it is, the game plays to its end in both compiles, and its module holds no check of it."""
    rules = game(tmp_path, item)
    assert outcome(rules)[2] is None
    checks = [line.strip() for line in listing(rules).splitlines() if "_stored(" in line]
    # (only a variable's value is checked, and outer's argument of inner, v + v, where it is written)
    assert all(line.startswith("S.v_") or "_stored((P_v + P_v)" in line for line in checks), checks


def test_the_check_is_written_only_where_a_longer_text_may_be_bound(tmp_path):
    """The bound is what the binding expression may build: u + u checked, u not."""
    text = listing(game(tmp_path, 'for_each: {in: "[u, u + u]", as: t, do: %s}' % SEARCH))
    assert "L['t'] = _stored(_x, _LIST_BOUND)" in text
    (tmp_path / "bare").mkdir(), (tmp_path / "literal").mkdir()
    assert listing(game(tmp_path / "bare", 'inner: {v: "u"}')).count("_stored(") == \
        listing(game(tmp_path / "literal", 'inner: {v: "\'ab\'"}')).count("_stored(")


def test_repeated_tripling_is_stopped_before_it_grows(tmp_path):
    """The review's repro, shrunk: effects calling each other with v + v + v (each copy three
    times longer) stop at the first call past MAX_STORED, not hundreds of megabytes later."""
    chain = """effects:
  e2:
    params: {v: str}
    do: [{set: {z: "z + (1 if 'ab' in v else 0)"}}]
  e1:
    params: {v: str}
    do: [{e2: {v: "v + v + v"}}]
  e0:
    params: {v: str}
    do: [{e1: {v: "v + v + v"}}]
"""
    rules = load_text(tmp_path, HEAD + chain + (FLOW % 'e0: {v: "u"}').replace("1..16", "1..14"))
    decisions, _, kind, message, _ = outcome(rules)
    assert kind == "GameError" and "a string of 147456 characters" in message   # (16,384 x 9, in e1's call of e2)
    assert "g.yaml:20:" in message.splitlines()[0] and "in effect e1" in message
