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

import json
import re

import pytest

import interpreter
from helpers import chips_game, load_text
from interpreter.building.listing import listing
from interpreter.expr import Compiler
from interpreter.expr.parser import ExprError
from interpreter.expr.runtime import MAX_STORED
from test_budget_counted import played_alike

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
  loose:
    params: {v: any}
    do: [{inner: {v: "v + v"}}]
"""
SEARCH = "[{set: {z: \"z + (1 if 'ab' in t else 0)\"}}]"


def game(tmp_path, item: str, effects: bool = True):
    return load_text(tmp_path, HEAD + (EFFECTS if effects else "") + FLOW % item)


def outcome(rules) -> tuple:
    """The game played (seed 0), by the module and by its plain reference: both the same."""
    return played_alike(rules)


@pytest.mark.parametrize("item, line", [
    ('outer: {v: "u"}', 20),                 # (called with u: inner is given u + u, 131,072 characters)
    ('inner: {v: "u + u"}', 33),
    ('listed: {vs: "[u + u]"}', 33),
    ('for_each: {in: "[u + u]", as: t, do: %s}' % SEARCH, 33),
    ('for_each: {in: "[[u, u + u]]", as: t, do: [{set: {z: "count(t)"}}]}', 33),
    ('for_each: {in: "[u]", as: s, do: [{for_each: {in: "[s + s]", as: t, do: %s}}]}' % SEARCH, 33),
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
    # (only a variable's value is checked, outer's argument of inner, v + v, where it is written, and
    # loose's, v + v of type any: lists each holding 10,000 elements in all may hold 20,000 joined)
    assert all(line.startswith("S.v_") or "_stored((P_v + P_v)" in line or "_stored(_plus(P_v, P_v)" in line
               for line in checks), checks


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


# ---------------------------------------------------------------- text parameters
PARAMS = chips_game("", game="text_params", players=(2, 2), attributes="suit: [red, blue, green], n: 1..9") + """params:
  name: %s
  free: "red"
  many: ["red"]
flow:
  - turns:
      rounds: 1
      steps:
        - choose: {options: "mine where suit in params.name", as: picked, prompt: first}
scoring:
  categories: {chips: "count(mine)"}
%s"""
SEARCHED = "count(pool where suit in params.name)"


def charged(rules, text: str) -> int:
    c = Compiler(rules.names)
    c.compile(text, has_me=True)
    return c.cost


def params_game(path, spec: str, rest: str = "", **options):
    path.mkdir(exist_ok=True)
    return load_text(path, PARAMS % (spec, rest), **options)


def test_a_text_parameter_searched_is_weighed_at_its_declared_bound(tmp_path):
    """'suit in params.name' over the pool: refused with the parameter weighed at 100,000
    characters, charged as a search of a literal as long as its longest choice, or as its
    max_length:, where it declares one (the smaller where both)."""
    with pytest.raises(interpreter.RulesetError, match="'in' searches strings of up to 100,005 characters"):
        params_game(tmp_path / "free", '{type: str, default: "red blue"}')
    bounded = params_game(tmp_path / "max", '{type: str, default: "red blue", max_length: 40}')
    assert charged(bounded, SEARCHED) == charged(bounded, "count(pool where suit in '%s')" % ("x" * 40))
    chosen = params_game(tmp_path / "choices", '{type: str, default: "red blue", choices: ["red blue", "green"]}')
    assert charged(chosen, SEARCHED) == charged(chosen, "count(pool where suit in 'red blue')")
    both = params_game(tmp_path / "both", '{type: str, default: "red", choices: ["red", "green"], max_length: 90}')
    assert charged(both, SEARCHED) == charged(both, "count(pool where suit in 'green')")
    with pytest.raises(ExprError, match="100,005 characters"):   # (no bound declared)
        charged(bounded, "count(pool where suit in params.free)")


def test_an_override_keeps_the_declared_length(tmp_path):
    """--set, new_game's options and a saved state are checked against max_length:, as against
    max:; any parameter's value is refused holding a string longer than a variable may."""
    rules = params_game(tmp_path, '{type: str, default: "red blue", max_length: 10}')
    assert rules.new_game(2, seed=1, options={"params": {"name": "red green"}}).p["name"] == "red green"
    with pytest.raises(interpreter.UsageError, match="parameter 'name' has at most 10 characters, got 14"):
        rules.new_game(2, options={"params": {"name": "red blue green"}})
    for name, value in (("free", "x" * (MAX_STORED + 1)), ("many", ["red", "x" * (MAX_STORED + 1)])):
        with pytest.raises(interpreter.UsageError, match=f"parameter '{name}' holds a string of 100,001 characters"):
            rules.new_game(2, options={"params": {name: value}})
    assert rules.new_game(2, options={"params": {"free": "x" * MAX_STORED}}).p["free"] == "x" * MAX_STORED
    S = rules.new_game(2, seed=3, options={"params": {"name": "green"}})
    assert rules.state_from_json(S.to_json()).p["name"] == "green"
    with pytest.raises(interpreter.GameError, match="at most 10 characters"):
        rules.state_from_json(S.to_json().replace('"green"', '"green green green"'))


def test_max_length_is_checked_at_load_and_in_variants(tmp_path):
    """A default longer than max_length:, or max_length: on a parameter that is not text, is an
    error at the value (at the key); a variant's value is checked against it, and a variant that
    raises it raises the weight with it."""
    with pytest.raises(interpreter.RulesetError, match=r"g.yaml:\d+:\d+: error\[type\]: parameter 'name' has at most 4"):
        params_game(tmp_path / "long", '{type: str, default: "red blue", max_length: 4}')
    with pytest.raises(interpreter.RulesetError, match="max_length: bounds a text parameter, or the strings a list or map "
                                                       "parameter holds, and 'name' holds values that are not strings"):
        params_game(tmp_path / "int", '{type: int, default: 3, max_length: 4}')
    with pytest.raises(interpreter.RulesetError, match="parameter 'name' holds a string of 100,001 characters"):
        params_game(tmp_path / "huge", '"%s"' % ("x" * (MAX_STORED + 1)))   # (declared or not)
    variants = """variants:
  long: {params: {name: "red blue green"}}
  wider: {params: {name: {max_length: 80}}}
"""
    spec = '{type: str, default: "red blue", max_length: 10}'
    with pytest.raises(interpreter.RulesetError, match="parameter 'name' has at most 10 characters, got 14"):
        params_game(tmp_path / "v1", spec, variants, variant="long")
    wider = params_game(tmp_path / "v2", spec, variants, variant="wider")
    assert charged(wider, SEARCHED) == charged(wider, "count(pool where suit in '%s')" % ("x" * 80))


@pytest.mark.parametrize("use, given, error", [
    ("v % 1", "'%9999999d'", "'%' needs numbers, got str"),   # (a 10,000,000-character string, formatted)
    ("v * 100000", "u", "'*' needs numbers, got str"),        # (u repeated)
    ("1 - v", "[1, 2]", "'-' needs numbers, got list"),
    ("v * 100000 + v % 7", "7", None),
    # made of a value of type any (an int to the compiler, yet v's string or list: nesting.held_as)
    ("(v if z == 0 else 0) % 1", "'%9999999d'", "'%' needs numbers, got str"),
    ("(v if z == 0 else 0) * 100000", "[1, 2]", "'*' needs numbers, got list"),
    ("first([v, 0]) * 100000", "u", "'*' needs numbers, got str"),
    ("2 * (v if z == 0 else 0) - 1", "u", "'*' needs numbers, got str"),
    ("(v if z == 0 else 0) + (v if z == 0 else 0)", "'%s'" % ("a" * 600), "'+' of two values of type any joins at most 1000"),
    ("(v if z == 0 else 0) + (v if z == 0 else 0)", "'ab'", None),   # (joined as v + v is)
    ("(v if z == 0 else 0) * 100000 + (v if z == 0 else 0) % 7", "7", None),
    # left() and right() add and take the seats' count: a string formatted by '%' (left(v, ''))
    ("left(v, v)", "'%9999999d'", "'left' needs whole numbers, got str"),
    ("left(v if z == 0 else 0, 1)", "'%9999999d'", "'left' needs whole numbers, got str"),
    ("right(v, 1)", "u", "'right' needs whole numbers, got str"),
    ("left(v, 1) + right(v)", "1", None),
])
def test_a_value_of_any_type_is_a_number_where_arithmetic_uses_it(tmp_path, use, given, error):
    """A value of type any, or one made of it, given to '*' or '%' is checked to be a number first:
    a string would be repeated or formatted into a string of any length, a list repeated, which
    nothing weighs or stores; '+' of two joins them within texts.ANY_JOIN."""
    effect = 'effects:\n  e0:\n    params: {v: any}\n    do: [{set: {z: "count([%s, 1])"}}]\n' % use
    rules = load_text(tmp_path, HEAD + effect + (FLOW % ('e0: {v: "%s"}' % given)).replace("1..16", "1..2"))
    got = outcome(rules)
    assert (got[2] is None) if error is None else (got[2] == "GameError" and error in got[3] and "g.yaml:" in got[3])


@pytest.mark.parametrize("use, given, error", [
    ("sum(v, by: 1 if it == 'b' else 0)", "u", "sum() needs a list, got str"),   # (65,536 characters walked)
    ("count(map(v, to: it))", "u", "map() needs a list, got str"),
    ("count(v)", "'ab'", "count() needs a list, got str"),
    ("first(v)", "7", "first() needs a list, got int"),
    ("count(distinct(v))", "1.5", "distinct() needs a list, got float"),
    ("sum(v, by: it) + count(v)", "[1, 2]", None),
])
def test_a_value_of_any_type_is_a_list_where_a_built_in_walks_it(tmp_path, use, given, error):
    """A value of type any that a built-in takes as its list is checked a list, as the load checks
    a typed one: a text was walked character by character, weighed as a list variable (10,000
    elements) though it may hold 100,000 characters: a located runtime error, in both compiles."""
    effect = 'effects:\n  e0:\n    params: {v: any}\n    do: [{set: {z: "count([%s, 1])"}}]\n' % use
    rules = load_text(tmp_path, HEAD + effect + (FLOW % ('e0: {v: "%s"}' % given)))
    got = outcome(rules)
    assert (got[2] is None) if error is None else (got[2] == "GameError" and error in got[3] and "g.yaml:" in got[3])


# ---------------------------------------------------------------- answers, seats and lists bound
@pytest.mark.parametrize("item", [
    'choose: {options: "[u + u]", as: u, prompt: grow}',
    'choose: {options: "[u + u]", as: w, prompt: grow, simultaneous: true}',
], ids=["choose", "simultaneous"])
def test_a_chosen_text_is_held_to_a_variables_bound(tmp_path, item):
    """choose: {options: "[u + u]", as: u} doubled u at each decision (16.7 M characters by the
    8th, no limit met): an option's label is held to MAX_LABEL (engine/labels.py) before it is
    offered, so the text never reaches the answer's own check (a variable's bound): a runtime
    error at the choose, in the module and the reference alike (a simultaneous one too)."""
    decisions, _, kind, message, _ = outcome(game(tmp_path, item, effects=False))
    assert (decisions, kind) == (0, "GameError")
    assert "g.yaml:20:" in message.splitlines()[0] and "an option's label of more than 200 characters" in message


@pytest.mark.parametrize("options", ["[w, 1]", "[w if z == 0 else 0, 1]", "[first([w, 0]), 1]"])
def test_options_made_of_a_value_of_type_any_have_their_labels_measured(tmp_path, options):
    """Options typed a list of int but made of a value of type any (engine/labels.py held_type,
    as expr/nesting.py held_as weighs them) were not measured: w holding u's 65,536 characters
    was offered as one option's label. A runtime error at the choose, in both compiles; w = 7
    offered as it is."""
    for w, error in (("u", True), ("7", False)):
        (tmp_path / w).mkdir()
        text = HEAD + "  w: {start: 0}\n" + FLOW.replace(
            "        - choose: {options: \"[1, 2]\", as: x, prompt: first}\n        - %s\n",
            f"        - set: {{w: \"{w}\"}}\n        - choose: {{options: \"{options}\", as: x, prompt: pick}}\n")
        decisions, _, kind, message, *_ = outcome(load_text(tmp_path / w, text))
        if error:
            assert (decisions, kind) == (0, "GameError") and "an option's label of more than 200 characters" in message
            assert "g.yaml:" in message.splitlines()[0]
        else:
            assert kind is None and decisions == 2


def test_a_choice_the_model_bounds_is_stored_with_no_check(tmp_path):
    """Options that hold no string longer than a variable may ([u], a literal): stored as they
    are, no check added to the module."""
    (tmp_path / "u").mkdir(), (tmp_path / "literal").mkdir()
    short = (FLOW % 'choose: {options: "[u, \'ab\']", as: u, prompt: grow}').replace('"1..16"', '"1..6"')
    kept = load_text(tmp_path / "u", HEAD + short)   # (u of 64 characters: an option's label within MAX_LABEL)
    assert outcome(kept)[2] is None
    assert listing(kept).count("_stored(") == listing(
        game(tmp_path / "literal", 'choose: {options: "[\'ab\']", as: u, prompt: grow}', effects=False)).count("_stored(")


@pytest.mark.parametrize("listed, holds", [
    ("[text(me) + text(me)]", "str"),   # (the review's: 13 deep, 536 M characters)
    ("[1.5]", "num"), ("[[0, 1]]", "list[int]"), ("[true]", "bool"), ("teams", "team"),
])
def test_for_each_as_me_goes_over_players(tmp_path, listed, holds):
    """for_each as: me makes each element the acting player: a list of anything else (strings
    that grow unweighed, fractions, lists, teams) is refused at load, at in:."""
    item = 'for_each: {in: "%s", as: me, do: [{set: {z: "count(mine)"}}]}' % listed
    with pytest.raises(interpreter.RulesetError, match=r"g\.yaml:33:\d+: error\[type\]: for_each as: me goes over "
                                                       rf"players, and this list holds {re.escape(holds)}"):
        game(tmp_path, item)


@pytest.mark.parametrize("given, error", [
    ("1", None), ("[1, 0]", None),
    ("'a'", "there is no player a"), ("7", "there is no player 7"),
])
def test_for_each_as_me_over_values_of_any_type_checks_each_seat(tmp_path, given, error):
    """Whole numbers are seats (a ruleset may write [0, 1]); values of type any are checked as
    seats as the loop reaches them, in both compiles."""
    effect = ('effects:\n  seats:\n    params: {v: any}\n    do: [{for_each: {in: "v if v == [1, 0] else [v]", as: me, '
              'do: [{set: {z: "z + me"}}]}}]\n')
    rules = load_text(tmp_path, HEAD + effect + (FLOW % ('seats: {v: "%s"}' % given)).replace("1..16", "1..2"))
    got = outcome(rules)
    assert (got[2] is None) if error is None else (got[2] == "GameError" and error in got[3] and "g.yaml:17:" in got[3]), got[2:4]


@pytest.mark.parametrize("listed", ["[0, 5]", "[-1]", "[1, 0, 2]"])
def test_for_each_as_me_over_written_numbers_no_game_seats_is_refused_at_load(tmp_path, listed):
    """A list written out of whole numbers one of which is a seat in no game (below 0, or past
    the most players): refused at load, at in: (over [-1] the loop acted as the last seat)."""
    item = 'for_each: {in: "%s", as: me, do: [{set: {z: "z + me"}}]}' % listed
    with pytest.raises(interpreter.RulesetError, match=r"g\.yaml:33:\d+: error\[type\]: for_each as: me goes over "
                                                       r"players, and no game has a player -?\d"):
        game(tmp_path, item)


@pytest.mark.parametrize("listed, error", [
    ("0..2", "there is no player 2 (players are 0 to 1)"),   # (was: index out of range)
    ("[z - 1]", "there is no player -1 (players are 0 to 1)"),   # (was: the last seat, silently)
    ("[1, 0]", None), ("0..1", None),
])
def test_for_each_as_me_over_whole_numbers_checks_each_seat(tmp_path, listed, error):
    """Whole numbers not written out as seats of every game are checked as seats as the loop
    reaches them, in both compiles: a runtime error located at the for_each."""
    item = 'for_each: {in: "%s", as: me, do: [{set: {z: "z + me"}}]}' % listed
    got = outcome(load_text(tmp_path, HEAD + (FLOW % item).replace("1..16", "1..1")))
    assert (got[2] is None) if error is None else (got[2] == "GameError" and error in got[3]
                                                    and "g.yaml:20:" in got[3]), got[2:4]


def test_for_each_as_me_over_written_seats_adds_no_check(tmp_path):
    """[0, 1] where every game has 2 players: seats in every game, bound as they are (Spades writes
    [0, 1] for its 4 seats); 0..1, whose numbers the compiler does not read, checked each."""
    (tmp_path / "written").mkdir(), (tmp_path / "range").mkdir()
    item = 'for_each: {in: "%s", as: me, do: [{set: {z: "z + me"}}]}'
    written = listing(load_text(tmp_path / "written", HEAD + (FLOW % (item % "[0, 1]")).replace("1..16", "1..1")))
    ranged = listing(load_text(tmp_path / "range", HEAD + (FLOW % (item % "0..1")).replace("1..16", "1..1")))
    assert "_seat(" not in written and "me = _seat(S, me)" in ranged


LISTS = """effects:
  counted:
    params: {vs: "list[int]"}
    do: [{set: {z: "count(vs)"}}]
"""


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


@pytest.mark.parametrize("item, length", [
    ('counted: {vs: "(1..10000) + (1..10000)"}', 20000),
    ('for_each: {in: "[(1..6000) + (1..6000)]", as: t, do: [{set: {z: "count(t)"}}]}', 12000),
    ('doubled: {vs: "1..100"}', 12800),   # (the review's: 20 calls of vs + vs from 1..100 built 104,857,600)
], ids=["effect", "for_each", "chain"])
def test_a_longer_list_bound_to_a_local_stops_the_game_at_its_item(tmp_path, item, length):
    """A list whose compiled bound is past what a list variable may hold, bound to a local (a
    declared effect's argument, a for_each's element): checked as a variable's value is, a
    runtime error where it is bound, in both compiles."""
    chain = "".join('  e%d:\n    params: {vs: "list[int]"}\n    do: [{%s: {vs: "vs + vs"}}]\n'
                    % (k, f"e{k + 1}" if k < 19 else "counted") for k in range(20))
    text = HEAD + LISTS + chain + '  doubled:\n    params: {vs: "list[int]"}\n    do: [{e0: {vs: "vs"}}]\n' + \
        (FLOW % item).replace("1..16", "1..1")
    decisions, _, kind, message, _ = outcome(load_text(tmp_path, text))
    assert (decisions, kind) == (0, "GameError")
    assert f"a list of {length} elements, more than 10000" in message
    where = "{e7: {vs:" if item.startswith("doubled") else "- " + item
    assert f"g.yaml:{line_of(text, where)}:" in message.splitlines()[0]


def test_a_list_the_model_bounds_is_bound_with_no_check(tmp_path):
    """A list no longer than a list variable may be (10,000 here), as compiled: bound as it is."""
    (tmp_path / "short").mkdir(), (tmp_path / "none").mkdir()
    short = load_text(tmp_path / "short", HEAD + LISTS + FLOW % 'counted: {vs: "(1..5000) + (1..5000)"}')
    assert outcome(short)[2] is None
    assert listing(short).count("_stored(") == listing(
        load_text(tmp_path / "none", HEAD + LISTS + FLOW % 'counted: {vs: "[1]"}')).count("_stored(")


# ---------------------------------------------------------------- values of type any nested by list elements
def nesting_chain(depth: int, call: str) -> str:
    """Declared effects e0 .. e<depth>, each calling the next (``call``, %s its callee) with v and
    w in a list of two: each level doubles what they hold in all, two elements a list."""
    last = '  e%d:\n    params: {v: any, w: any}\n    do: [{set: {z: "1 if v == w else 0"}}]\n' % depth
    return "effects:\n" + last + "".join('  e%d:\n    params: {v: any, w: any}\n    do: [%s]\n' % (k, call % (k + 1))
                                         for k in range(depth))


EIGHT = ", ".join(["%s"] * 8)


@pytest.mark.parametrize("call, where", [
    ('{e%%d: {v: "[%s]", w: "[%s]"}}' % (EIGHT % (("v",) * 8), EIGHT % (("w",) * 8)), "e4"),
    ('{for_each: {in: "[[%s]]", as: t, do: [{e%%d: {v: "t", w: "t"}}]}}' % (EIGHT % (("v",) * 8)), "e4"),
], ids=["argument", "for_each"])
def test_values_of_type_any_nested_by_list_elements_stop_where_they_are_bound(tmp_path, call, where):
    """The review's repro: [v, v] passed on 27 deep built 2^27 leaves that v == w compared (6.5 s);
    here each list is built of eight elements (two would nest past MAX_STORED_DEPTH first:
    test_stored_types.py). What a value of type any holds in all is not known, so where one that
    may hold lists is bound, what it holds at every depth is checked as a variable's value is
    (10,000 elements in all): a runtime error at the item, in both compiles."""
    text = HEAD + nesting_chain(27, call) + (FLOW % 'e0: {v: "[1]", w: "[1]"}').replace("1..16", "1..1")
    text += "limits: {steps: 5000000}\n"   # (each check counted where it is bound: 27 of them, some in passes)
    decisions, _, kind, message, _ = outcome(load_text(tmp_path, text))
    assert (decisions, kind) == (0, "GameError")
    assert "a list of lists holding more than 10000 elements in all" in message and f"in effect {where}" in message
    assert f"g.yaml:{line_of(text, f'  {where}:') + 2}:10:" in message.splitlines()[0]   # (its do:'s item)


def test_a_value_of_type_any_whose_total_is_known_is_bound_with_no_check(tmp_path):
    """A variable's value (held to 10,000 elements in all as it is stored), a local passed on, an
    element of either, a flat list or a number: bound as they are, no check added."""
    (tmp_path / "bare").mkdir(), (tmp_path / "known").mkdir()
    head = HEAD + '  a: {type: any, start: "[[1], [2]]"}\n'
    effects = ('effects:\n  e1:\n    params: {v: any, w: any}\n    do: [{set: {z: "1 if v == w else 0"}}]\n'
               '  e0:\n    params: {v: any, w: any}\n    do: [{e1: {v: "v", w: "first(v)"}}, {e1: {v: "a[0]", w: "[1, 2]"}}]\n')
    flow = (FLOW % 'e0: {v: "a", w: "z"}').replace("1..16", "1..1")
    known = load_text(tmp_path / "known", head + effects + flow)
    assert outcome(known)[2] is None
    bare = load_text(tmp_path / "bare", head + effects.replace('"first(v)"', '"1"').replace('"a[0]"', '"1"')
                     .replace('"v", w', '"1", w') + flow.replace('"a"', '"1"'))
    assert listing(known).count("_stored(") == listing(bare).count("_stored(")


def test_the_check_of_a_value_bound_to_a_local_counts_what_it_may_walk(tmp_path):
    """A value of type any that may hold lists is checked where it is bound (copied and walked,
    up to what a list variable holds in all): that check counts against the budget where it runs,
    each call of the effect (a review's: 9,999 calls with [L], L of 9,000, ran 7.9 s and counted
    21,163 steps); a value whose total is known gets no check and counts nothing more."""
    from interpreter.expr.walks import CHECK_WORK
    effects = 'effects:\n  e0:\n    params: {v: any}\n    do: [{set: {z: "1"}}]\n'
    head = HEAD + '  a: {type: any, start: "[[1], [2]]"}\n' + effects
    flow = FLOW.replace("1..16", "1..1") % 'for_each: {in: "1..5", as: k, do: [{e0: {v: "%s"}}]}'
    (tmp_path / "checked").mkdir(), (tmp_path / "known").mkdir()
    checked = load_text(tmp_path / "checked", head + flow % "[a]" + "limits: {steps: 5000000}\n")
    known = load_text(tmp_path / "known", head + flow % "a" + "limits: {steps: 5000000}\n")
    assert "_stored(" in listing(checked) and listing(known).count("_stored(") < listing(checked).count("_stored(")
    steps = [outcome(rules)[1] for rules in (checked, known)]
    assert steps[0] - steps[1] >= 5 * 10_000 * CHECK_WORK // 100, steps


def test_a_comparison_of_values_of_type_any_is_weighed_at_what_a_local_holds():
    """v == w of two locals of type any walks what they hold, 10,000 elements in all at most (as
    their binder checks): charged as two lists that long compared, not as one operation."""
    from interpreter.expr.nesting import local_bounds
    from interpreter.expr.walks import WALK_WORK
    rules = interpreter.load(interpreter.ruleset_path("kuhn_poker"))
    weights = []
    for text in ("1 if v == w else 0", "1 if v == 1 else 0"):
        c = Compiler(rules.names)
        c.local_sizes = local_bounds(c, {"v": "any", "w": "any"})
        c.compile(text, {"v": "any", "w": "any"}, has_me=True)
        weights.append(c.cost)
    assert weights[0] - weights[1] == 10_000 * WALK_WORK


# ---------------------------------------------------------------- + of two values of type any
ANY_EFFECT = 'effects:\n  e0:\n    params: {v: any, w: any}\n    do: [{set: {z: "%s"}}]\n'


def test_two_numbers_of_type_any_added_in_a_filter_load(tmp_path):
    """n < v + w over 52 cards, v and w of type any: weighed as a join of at most ANY_JOIN
    characters or elements, not of two 100,000-character strings (refused, 2,600,000 operations)."""
    head = chips_game("", game="any_num", players=(2, 2), attributes="n: 1..52") + "  z: {type: int, start: 0}\n"
    flow = (FLOW % 'e0: {v: "3", w: "4"}').replace('  - for_each: {in: "1..16", as: k, do: [{set: {u: "u + u"}}]}\n', "")
    rules = load_text(tmp_path, head + ANY_EFFECT % "count(pool where n < v + w)" + flow)
    assert outcome(rules)[2] is None


@pytest.mark.parametrize("given, error", [
    ('v: "3", w: "4"', None), ('v: "\'ab\'", w: "\'cd\'"', None), ('v: "[1]", w: "[2]"', None),
    ('v: "u", w: "\'b\'"', "joins at most 1000 characters, got 65537"),
    ('v: "1..600", w: "1..600"', "joins at most 1000 elements, got 1200"),
    ('v: "\'a\'", w: "1"', "'+' cannot combine"),
])
def test_two_values_of_type_any_join_within_the_bound(tmp_path, given, error):
    """+ of two values of type any adds numbers, joins strings or lists of at most ANY_JOIN
    characters or elements together (a runtime error past it, in both compiles, before the copy)."""
    rules = load_text(tmp_path, HEAD + ANY_EFFECT % "count([v + w, 1])" + FLOW % ("e0: {%s}" % given))
    got = outcome(rules)
    assert (got[2] is None) if error is None else (got[2] == "GameError" and error in got[3] and "g.yaml:17:" in got[3]), got[2:4]


def test_values_declared_a_list_type_join_past_the_any_bound(tmp_path):
    """The error's advice: the same 600-element lists given to parameters declared list[int] join
    (1,200 elements), as lists of a declared type do."""
    effect = ANY_EFFECT.replace("{v: any, w: any}", '{v: "list[int]", w: "list[int]"}') % "count(v + w)"
    rules = load_text(tmp_path, HEAD + effect + FLOW % 'e0: {v: "1..600", w: "1..600"}')
    got = outcome(rules)
    assert got[2] is None and json.loads(got[3])["vars"]["z"] == 1200, got[2]


def test_any_joined_twice_stops_at_the_join(tmp_path):
    """loose's v + v of u (131,072 characters) stops at the join, inside loose."""
    decisions, _, kind, message, _ = outcome(game(tmp_path, 'loose: {v: "u"}'))
    assert (decisions, kind) == (0, "GameError") and "g.yaml:26:" in message.splitlines()[0]
    assert "'+' of two values of type any joins at most 1000 characters, got 131072" in message
    assert "(declare their type str, or a list type such as list[int], to join longer ones)" in message


# ---------------------------------------------------------------- max_length:
@pytest.mark.parametrize("spec, error", [
    ('{default: "red", max_length: 2}', r"13:\d+: error\[type\]: parameter 'name' has at most 2 characters, got 3"),
    ('{type: str, default: "red", choices: ["red", "green blue"], max_length: 4}',
     r"13:\d+: error\[type\]: choices: parameter 'name' has at most 4 characters, got 10"),
    ('{type: str, default: "red", max_length: 40.0}', r"13:\d+: error\[type\]: max_length: takes a whole number"),
], ids=["untyped-default", "choice", "fraction"])
def test_max_length_refuses_at_load_what_it_would_refuse_later(tmp_path, spec, error):
    """A default with no type: longer than max_length: (--set of it was refused), a choice longer
    than it, a max_length: of 40.0 (the schema's integer, then ignored): errors at load."""
    with pytest.raises(interpreter.RulesetError, match=r"g\.yaml:" + error):
        params_game(tmp_path, spec)


def test_a_variants_max_length_is_weighed_and_located_at_the_variant(tmp_path):
    """A variant's {max_length: 3} in place of a bare value: its expressions weigh it at 3 (as
    --set is checked); a variant lowering max_length: below the default: the error at the variant."""
    variants = "variants:\n  onfree: {params: {free: {max_length: 3}}}\n  lower: {params: {name: {max_length: 2}}}\n"
    spec = '{type: str, default: "red blue", max_length: 10}'
    onfree = params_game(tmp_path / "free", spec, variants, variant="onfree")
    assert charged(onfree, "count(pool where params.free in suit)") == charged(onfree, "count(pool where 'xyz' in suit)")
    # (looked in, a value of type any may also be a list given to a game, of 64 strings: walked, the costlier)
    assert charged(onfree, "count(pool where suit in params.free)") >= 27 * 64 * 4
    with pytest.raises(interpreter.UsageError, match="parameter 'free' has at most 3 characters"):
        onfree.new_game(2, options={"params": {"free": "abcd"}})
    with pytest.raises(interpreter.RulesetError, match=r"g\.yaml:25:\d+: error\[type\]: parameter 'name' has at most 2 "):
        params_game(tmp_path / "lower", spec, variants, variant="lower")


# ---------------------------------------------------------------- max_length: of a list or map parameter's strings
LISTED = PARAMS.replace("suit in params.name", "suit in params.name%s")


def listed_game(path, spec: str, at: str, rest: str = "", **options):
    path.mkdir(exist_ok=True)
    return load_text(path, LISTED % (spec, at, rest), **options)


@pytest.mark.parametrize("spec, at", [
    ('{default: ["red blue"], max_length: 40}', "[0]"),
    ('{default: {k: "red blue"}, max_length: 40}', "['k']"),
    ('{default: [["red", "blue"]], max_length: 40}', "[0][1]"),
], ids=["list", "map", "list-of-lists"])
def test_max_length_bounds_the_strings_a_list_or_map_parameter_holds(tmp_path, spec, at):
    """suit in params.m[0] of a list parameter of strings searched up to 100,005 characters (refused
    at load), and max_length: on it was refused as 'not text': it bounds each string the parameter
    holds at any depth, which its expressions are weighed at, and --set, a variant's value and a
    saved state are held to it."""
    with pytest.raises(interpreter.RulesetError, match="'in' searches strings of up to 100,005 characters"):
        listed_game(tmp_path / "free", spec.replace(", max_length: 40", ""), at)
    rules, wider = listed_game(tmp_path / "bounded", spec, at), listed_game(tmp_path / "wider", spec.replace("40", "80"), at)
    searched, literal = f"count(pool where suit in params.name{at})", "count(pool where suit in '%s')"
    assert charged(wider, searched) - charged(rules, searched) == \
        charged(rules, literal % ("x" * 80)) - charged(rules, literal % ("x" * 40)) > 0   # (each string at max_length:)
    value = rules.new_game(2, seed=1).p["name"]
    longer = json.loads(json.dumps(value).replace("blue", "b" * 41))
    with pytest.raises(interpreter.UsageError, match="parameter 'name' holds strings of at most 40 characters, got one of 4[15]"):
        rules.new_game(2, options={"params": {"name": longer}})
    S = rules.new_game(2, seed=3, options={"params": {"name": json.loads(json.dumps(value).replace("blue", "zzzz"))}})
    with pytest.raises(interpreter.GameError, match="holds strings of at most 40 characters"):
        rules.state_from_json(S.to_json().replace("zzzz", "z" * 41))
    with pytest.raises(interpreter.RulesetError, match=r"g\.yaml:\d+:\d+: error\[type\]: parameter 'name' holds strings "
                                                       "of at most 40 characters, got one of 4[15]"):
        listed_game(tmp_path / "variant", spec, at, "variants:\n  long: {params: {name: %s}}\n"
                    % json.dumps(longer), variant="long")


def test_a_list_parameters_strings_are_weighed_at_its_longest_choice(tmp_path):
    """choices: of lists of strings: each string weighed at the longest any choice holds."""
    rules = listed_game(tmp_path, '{default: ["red"], choices: [["red"], ["green", "blue"]]}', "[0]")
    bounded = listed_game(tmp_path / "bounded", '{default: ["red"], max_length: 5}', "[0]")
    searched = "count(pool where suit in params.name[0])"
    assert charged(rules, searched) == charged(bounded, searched) < 2_000   # (both 5 characters: 'green')


def test_max_length_on_a_parameter_of_other_values_is_refused(tmp_path):
    with pytest.raises(interpreter.RulesetError, match=r"13:\d+: error\[type\]: max_length: bounds a text parameter, or the "
                                                       "strings a list or map parameter holds, and 'name' holds values that are not strings"):
        params_game(tmp_path, '{default: [1, 2], max_length: 4}')


def test_one_fault_of_max_length_or_choices_is_one_error_with_its_own_hint(tmp_path):
    """max_length: 40.0 is one error (not also a cost warning of the search weighed at 100,000
    characters); a choice of 100,001 characters is not hinted at a max_length: it does not have."""
    with pytest.raises(interpreter.RulesetError) as fraction:
        params_game(tmp_path / "fraction", '{type: str, default: "red", max_length: 40.0}')
    assert [d.code for d in fraction.value.diagnostics] == ["type"], fraction.value
    with pytest.raises(interpreter.RulesetError) as huge:
        params_game(tmp_path / "huge", '{type: str, default: "red", choices: ["red", "%s"]}' % ("x" * (MAX_STORED + 1)))
    first = huge.value.diagnostics[0]
    assert "100,001 characters" in first.message and "max_length" not in (first.hint or "")
    with pytest.raises(interpreter.RulesetError) as longer:
        params_game(tmp_path / "longer", '{type: str, default: "red", choices: ["red", "green blue"], max_length: 4}')
    assert "within its max_length:" in longer.value.diagnostics[0].hint
