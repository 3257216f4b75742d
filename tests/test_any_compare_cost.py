"""Comparisons of values of type ``any`` weighed by what each side can be (expr/walks.py
``compared``): two lists compared walk up to the shorter's end, so a side whose bound says it is
short (a parameter whose choices are texts or none: engine/param_bounds.py ``param_size`` and
``param_chars``) weighs what it can be, a parameter's nested value all it holds at every depth
and the characters of its strings (``param_total``: exactly its choices', and a value given to a
game held to it), and a side that may really be a list of 10,000 elements (a variable of type
any, a declared effect's parameter of type any) that walk, for ``<`` as for ``==``, for the
built-ins that order values (``max(a, b)``, ``highest(L, by: K)``: walks.py ``ordered`` and
``ranked``) as for ``<``, and ``x in v`` of such a ``v`` the list or the string it may be. The
module and the plain reference count the same steps; where the walk makes a step or an expression
too costly, the message says what was weighed and to declare the type."""
from __future__ import annotations

import json

import pytest

import interpreter
from fuzzing.lockstep import reference
from helpers import chips_game, load_text
from test_budget_counted import played

# 81 chips in the pool: a filter over them runs its body 81 times
HEAD = dict(game="any_compare", players=(2, 2), attributes="n: 1..9, m: 1..9", ints="x")
STEP = """{params}
flow:
  - turns:
      rounds: 3
      steps:
        - if: "{cond}"
          then: [{{set: {{x: 1}}}}]
        - move: {{from: pool, to: mine, count: 1}}
limits: {{steps: {budget}}}
scoring:
  categories: {{chips: "count(mine)"}}
"""
# parameters without a type whose values are none, and whose choices are short texts or none: type any
CHOSEN = "params:\n  t: {default: null, choices: [null, 'ab']}\n  s: {default: null, choices: ['a', null]}"
# variables without a type (any): a set: may store a list of 10,000 elements in them
UNTYPED = "  a: {start: 1}\n  b: {start: 2}\n"


def game(tmp_path, cond: str, params: str = CHOSEN, vars: str = "", budget: int = 500_000, name: str = "g.yaml"):
    """The chips game whose first step is an if: of ``cond`` (its other declarations: ``params``, lines of ``vars``)."""
    text = chips_game(STEP.format(params=params, cond=cond, budget=budget), **HEAD)
    return load_text(tmp_path, text.replace("vars:\n", "vars:\n" + vars, 1), name)


def charged(rules) -> int:
    """The charge of the ruleset's first step, the if: that compares."""
    return rules.steps[0].charge


def nested(depth: int, width: int = 2):
    """A list ``depth`` levels deep, ``width`` elements each, of one-character strings at the bottom."""
    return ["a"] * width if depth == 1 else [nested(depth - 1, width) for _ in range(width)]


# a parameter of type any bounded by its choices: none, or a list 8 levels deep, two wide (510
# elements at every depth together, 256 characters); each game compares it once a step
DEEP = nested(8)
REPEATED = """game: deep_choice
players: {{min: 2, max: 2}}
params:
  t: {{default: {default}, choices: [{default}, {deep}]}}
  s: {{default: {default}, choices: [{default}, {deep}]}}
vars:
  x: {{type: int, start: 0}}
{variants}limits: {{steps: 2000}}
flow:
  - repeat: 1000
    steps:
      - if: "{cond}"
        then: [{{set: {{x: 1}}}}]
scoring:
  categories: {{n: "0"}}
"""


def deep_choice(tmp_path, default: str = "[]", variants: str = "", cond: str = "params.t == params.s",
                name: str = "g.yaml", **options):
    text = REPEATED.format(default=default, deep=json.dumps(DEEP), variants=variants, cond=cond)
    return load_text(tmp_path, text, name, **options)


def test_two_any_parameters_bounded_by_their_choices_compare_cheaply_in_a_filter(tmp_path):
    # each side a text of at most 2 characters or none: no list, nothing to walk (before: each a
    # list of 64 lists of 64, 16,384 operations an element, and the filter refused past 1,000,000)
    rules = game(tmp_path, "count(pool where params.t == params.s) > 0")
    assert rules.steps[0].work < 81 * 10 and charged(rules) <= 8
    assert not [w for w in rules.warnings if w.code == "cost"]
    for seed in range(3):
        assert played(rules, seed) == played(reference(rules), seed)
    assert rules.new_game(2, seed=0, options={"params": {"t": "ab", "s": "a"}}).p["t"] == "ab"
    with pytest.raises(interpreter.UsageError, match="one of"):   # (a list is none of its choices)
        rules.new_game(2, seed=0, options={"params": {"t": ["ab"] * 64}})


def test_an_order_of_two_bounded_any_parameters_weighs_what_their_choices_hold(tmp_path):
    # texts of 2 characters or none: nothing to walk; a list 8 levels deep: all of it, as == weighs it
    # (before: each nested list weighed as one level, 2 x 2 elements)
    assert charged(game(tmp_path, "params.t < params.s or params.t >= params.s")) == 0
    deep = deep_choice(tmp_path, "null", cond="params.t < params.s", name="d.yaml")
    assert deep.steps[0].work >= 510 * 4 and charged(deep) == charged(deep_choice(tmp_path, "null", name="e.yaml"))


def test_an_any_parameter_with_no_choices_still_weighs_the_lists_a_game_may_give_it(tmp_path):
    # a null with no choices may be given any value whose lists hold 81 elements (the cards) at any depth
    rules = game(tmp_path, "params.q == params.r", "params:\n  q: null\n  r: null")
    assert rules.steps[0].work >= 81 * 81 * 4
    given = [[0] * 81] * 81
    assert rules.new_game(2, seed=0, options={"params": {"q": given, "r": given}}).p["q"] == given
    with pytest.raises(interpreter.UsageError, match="at most 81 elements"):
        rules.new_game(2, seed=0, options={"params": {"q": [0] * 82}})


@pytest.mark.parametrize("op", ["==", "!=", "<", ">="])
def test_two_untyped_variables_still_weigh_a_walk_of_a_list_variable(tmp_path, op):
    # either may hold a list of 10,000 elements (set: can store one): Python compares two lists
    # element by element, == up to the first difference, < as far, so the walk is weighed for
    # every comparison (before, an order of two values of type any counted nothing)
    rules = game(tmp_path, f"a {op} b", vars=UNTYPED)
    assert rules.steps[0].work >= 10_000 * 4 and charged(rules) == 400
    for seed in range(2):
        assert played(rules, seed) == played(reference(rules), seed)


def test_an_untyped_variable_against_a_short_side_weighs_the_short_side(tmp_path):
    # == of two lists of unequal lengths reads none of their elements, of equal ones the shorter's
    # (each side of type any may be a list of 10,000: 81 x 40,000 operations, refused)
    assert game(tmp_path, "count(pool where params.t == a or [1, 2] != b) > 0", vars=UNTYPED).steps[0].work < 81 * 30


def test_looking_in_a_value_of_type_any_weighs_the_list_it_may_be(tmp_path):
    # a variable of type any may be a list of 10,000 elements, each compared with 1 (before: nothing
    # counted), or a string of 100,000 characters searched for one (the costlier where the needle may be one)
    assert game(tmp_path, "1 in a", vars=UNTYPED).steps[0].work >= 10_000 * 4
    assert game(tmp_path, "'b' in a", vars=UNTYPED, name="s.yaml").steps[0].work >= 100_000 * 4
    # a parameter bounded by its choices: no list, a text of 2 characters
    assert charged(game(tmp_path, "1 in params.t or 'b' in params.t", name="t.yaml")) == 0
    with pytest.raises(interpreter.RulesetError, match=r"'in' of a value of type any, which may be a list, walks up to "
                       r"10,000 elements: declare its type \(a variable's type: int"):
        game(tmp_path, "count(pool where it.n in a) > 0", vars=UNTYPED, name="r.yaml")


def test_a_costly_comparison_of_untyped_values_says_to_declare_their_type(tmp_path):
    with pytest.raises(interpreter.RulesetError) as refused:
        game(tmp_path, "count(pool where a == b) > 0", vars=UNTYPED)
    limit = [d for d in refused.value.diagnostics if d.code == "limit" and d.loc.col > 11]
    assert limit and "value of type any, which may be a list" in limit[0].message
    assert "declare its type (a variable's type: int, list[int] for a list" in limit[0].message
    warned = game(tmp_path, "a == b", vars=UNTYPED, budget=20_000, name="w.yaml").warnings
    assert [w for w in warned if w.code == "cost" and "a value of type any (or made of one) compared" in w.message
            and "declare the type" in w.hint]
    # declared, they weigh what they are: no walk, no warning
    typed = game(tmp_path, "a == b", vars=UNTYPED.replace("{start", "{type: int, start"), budget=20_000,
                 name="t.yaml")
    assert charged(typed) == 0 and not [w for w in typed.warnings if w.code == "cost"]


@pytest.mark.parametrize("default", ["[]", "null"])
def test_a_nested_choice_of_an_any_parameter_is_weighed_as_all_it_holds(tmp_path, default):
    # two equal lists compared walk every element at every depth: 510 of them, and 256 strings
    # (before: each side weighed as one level, 2 x 2 elements, and the game ran all 1,000 passes)
    rules = deep_choice(tmp_path, default)
    assert rules.steps[0].work >= 510 * 4 and rules.steps[0].charge >= 20
    assert rules.names.param_totals["t"] == (510, 256)
    given = {"params": {"t": DEEP, "s": json.loads(json.dumps(DEEP))}}
    ran = played(rules, 0, options=given)
    assert ran[2] == "BudgetExceeded" and "step budget of 2,000 steps" in ran[3]
    assert played(reference(rules), 0, options=given)[:3] == ran[:3]


def test_a_variant_choosing_a_nested_choice_is_weighed_alike(tmp_path):
    variants = f"variants:\n  deep: {{params: {{t: {json.dumps(DEEP)}, s: {json.dumps(DEEP)}}}}}\n"
    rules = deep_choice(tmp_path, variants=variants, variant="deep")
    assert rules.steps[0].charge >= 20 and played(rules, 0)[2] == "BudgetExceeded"


def test_a_value_given_to_a_parameter_with_no_choices_holds_what_its_walks_weigh(tmp_path):
    # a null with no choices is weighed as lists of 81 elements (the cards) with a level of lists
    # inside: 81 + 81 x 81 elements in all, and its strings as a list variable's, 1,000,000
    # characters together; a value deeper or with more text, each list within 81, is refused
    # (before: only each list's length and each string's were checked)
    rules = game(tmp_path, "params.q == params.r", "params:\n  q: null\n  r: null")
    with pytest.raises(interpreter.UsageError, match=r"at most 6,642 elements in this ruleset at every depth "
                       r"together .*, got 538,083"):
        rules.new_game(2, seed=0, options={"params": {"q": [[[0] * 81] * 81] * 81}})
    with pytest.raises(interpreter.UsageError, match=r"at most 1,000,000 characters of strings .*, got 1,100,000"):
        rules.new_game(2, seed=0, options={"params": {"q": ["x" * 100_000] * 11}})
    assert rules.new_game(2, seed=0, options={"params": {"q": ["x" * 100_000] * 10}}).p["q"][9] == "x" * 100_000
    assert rules.names.param_totals["q"] == (81 + 81 * 81, 1_000_000)
    assert rules.steps[0].work >= (81 + 81 * 81) * 4


def test_the_strings_a_chosen_list_holds_are_weighed_with_its_elements(tmp_path):
    # four strings of 50,000 characters compared pair by pair: 200,000 characters, 1,562 operations
    # (before: the elements alone, 4 x 4, 64)
    rules = game(tmp_path, "params.t == params.s", "params:\n  t: {default: [], choices: [[], LONG]}\n"
                 "  s: {default: [], choices: [[], LONG]}".replace("LONG", json.dumps(["x" * 50_000] * 4)))
    assert rules.steps[0].work >= 4 * 4 + 200_000 // 128
    assert rules.names.param_totals["t"] == (4, 200_000)


ORDERS = ["max(a, b) == 0", "min(a, b) != 0", "max([a, b]) == 0", "min([a, b], by: it) == 0",
          "highest([a, b], by: it) == 0", "count(bottom([a, b], by: it)) > 0"]


@pytest.mark.parametrize("cond", ORDERS)
def test_a_builtin_ordering_untyped_values_weighs_their_walk_as_an_order_does(tmp_path, cond):
    # max() of two lists of 10,000 elements compares them as '<' does (before: nothing counted, and a
    # game comparing two such lists at every step ran past a minute): each run counts 400 steps at
    # least (a list of them, or keys given by by:, all their elements: more), so a budget of 2,000
    # stops the game before its six runs, in the module as in the reference
    rules = game(tmp_path, cond, vars=UNTYPED, budget=2000)
    assert rules.steps[0].work >= 10_000 * 4 and charged(rules) >= charged(game(tmp_path, "a < b", vars=UNTYPED,
                                                                                 name="lt.yaml"))
    ran = played(rules, 0)
    assert ran[2] == "BudgetExceeded" and played(reference(rules), 0)[:3] == ran[:3]


def test_a_builtin_ordering_numbers_still_counts_nothing_for_it(tmp_path):
    assert charged(game(tmp_path, "max(x, 1) == 0 or min([x, 2]) == 1 or highest([x], by: it) == x")) == 0


def test_a_costly_comparison_of_untyped_parameters_says_what_was_weighed_and_what_a_parameter_declares(tmp_path):
    # in a filter, the expression is refused and its step warned of: both say to declare the type, as
    # a parameter's schema takes it (type: int, num, bool or str, or choices:; not list[int], which it refuses), and
    # the step what a parameter is weighed at (before: the step's warning named nested filters, and
    # the hint and the cause spoke of variables alone)
    with pytest.raises(interpreter.RulesetError) as refused:
        game(tmp_path, "count(pool where params.q == params.r) > 0", "params:\n  q: null\n  r: null")
    [limit] = [d for d in refused.value.diagnostics if d.code == "limit"]
    [warned] = [d for d in refused.value.diagnostics if d.code == "cost"]
    assert "6,642 elements and 1,000,000 characters" in limit.message and "a ruleset parameter's type: int" in limit.message
    # the same text says what to declare in both (before: "int or str" in one, "int, num, bool or str" in the other)
    said = "(a variable's type: int, list[int] for a list; a declared effect's params: {n: int}; a ruleset " \
           "parameter's type: int, num, bool or str, or its choices:)"
    assert said in limit.message and said in warned.hint
    assert "a ruleset's parameter as its values and choices hold at every depth" in warned.message
    assert "a ruleset parameter's type: int, num, bool or str, or its choices:" in warned.hint


MADE_OF_ANY = ["(a if x == 0 else 0) == (b if x == 0 else 0)", "(a if x == 0 else 0) < (b if x == 0 else 0)",
               "max(a if x == 0 else 0, b if x == 0 else 0) == 0", "max([a if x == 0 else 0, b]) == 0",
               "highest([1, 2], by: a if it > 0 else 0) == 1"]


@pytest.mark.parametrize("cond", MADE_OF_ANY)
def test_values_made_of_untyped_values_are_weighed_as_what_they_may_hold(tmp_path, cond):
    # 'a if C else 0' types as an int, yet may be the list of 10,000 elements a holds: compared or
    # ordered, it is weighed as a and b are, not as two numbers (before: nothing counted, and a game
    # comparing two such lists 10,000 times a run took minutes within its budget); the step warned of
    rules = game(tmp_path, cond, vars=UNTYPED, budget=2000)
    assert rules.steps[0].work >= 10_000 * 4 and charged(rules) >= charged(game(tmp_path, "a < b", vars=UNTYPED,
                                                                                 name="lt.yaml"))
    assert [w for w in rules.warnings if w.code == "cost" and "a value of type any (or made of one) compared" in w.message]
    ran = played(rules, 0)
    assert ran[2] == "BudgetExceeded" and played(reference(rules), 0)[:3] == ran[:3]


def test_a_value_made_of_an_untyped_one_in_a_filter_is_refused_as_the_untyped_one_is(tmp_path):
    with pytest.raises(interpreter.RulesetError, match=r"'==' of a value made of one of type any, which may be a list, "
                       r"walks up to 10,000 elements: declare its type"):
        game(tmp_path, "count(1..10000 where (a if it > 0 else 0) == (b if it > 0 else 0)) > 0", vars=UNTYPED)
    # made of numbers alone, it is a number: nothing to walk
    assert charged(game(tmp_path, "(x if x == 0 else 0) == (x if x > 0 else 1)", name="n.yaml")) == 0


# the other readers of a value made of one of type any weigh it by what it may hold too (nesting.py
# ``held_as``): distinct() keys it, 'in' compares the needle with each element, a filter's or a
# by:'s element (it) is what the list may hold, a map()'s elements what its to: may be
READERS = ["count(distinct([a if it > 0 else 0, b if it > 0 else 0])) > 0",
           "(a if it > 0 else 0) in [b if it > 0 else 0]",
           "count([a if it > 0 else 0] where it == b) > 0",
           "highest([a if it > 0 else 0, b if it > 0 else 0], by: it) != none",
           "max([a if it > 0 else 0, b if it > 0 else 0], by: it) != none",
           "highest([a if it > 0 else 0, b if it > 0 else 0]) != none", "top([a if it > 0 else 0, 1]) != []"]


@pytest.mark.parametrize("cond", READERS)
def test_every_reader_of_a_value_made_of_an_untyped_one_weighs_what_it_may_hold(tmp_path, cond):
    # each of them read 10,000 times walks up to the 10,000 elements a and b may hold (before:
    # weighed as numbers, and a game running one took seconds a step within its budget)
    with pytest.raises(interpreter.RulesetError, match=r"error\[limit\]: this step may take about"):
        game(tmp_path, f"count(1..10000 where {cond}) > 0", vars=UNTYPED)


def test_a_map_to_a_value_made_of_an_untyped_one_holds_what_it_may_hold(tmp_path):
    # each of its 10,000 elements may be the list of 10,000 a holds: == walks them all
    with pytest.raises(interpreter.RulesetError, match=r"'==' of a value made of one of type any, which may be a "
                       r"list, walks up to 100,000,000 elements"):
        game(tmp_path, "map(1..10000, to: a if it > 0 else 0) == map(1..10000, to: b if it > 0 else 0)", vars=UNTYPED)


def test_a_reader_of_a_value_made_of_an_untyped_one_counts_alike_in_both_compiles(tmp_path):
    rules = game(tmp_path, "count(distinct([a if x == 0 else 0, b])) > 0 and (a if x == 0 else 0) in [b]",
                 vars=UNTYPED, budget=5000)
    assert rules.steps[0].work >= 2 * 10_000 * 4
    for seed in range(2):
        assert played(rules, seed) == played(reference(rules), seed)


def test_a_number_looked_for_in_a_list_made_of_an_untyped_value_is_compared_once_an_element(tmp_path):
    # the list may hold lists (a holds [1]): no set of it is built (before: "a list cannot be an
    # element of a set" stopped the game); a number is compared with each element once, no walk inside
    rules = game(tmp_path, "count(1..100 where it in map(1..20, to: a if it > 1 else it)) > 0",
                 vars='  a: {start: "[1]"}\n')
    assert rules.steps[0].work < 100 * 20 * 20   # (each element a list of 10,000 walked: 100 x 20 x 40,000)
    for seed in range(2):
        ran = played(rules, seed)
        assert ran[2] is None and ran == played(reference(rules), seed)


def test_groups_by_a_key_that_may_be_a_list_weighs_each_key_written_out(tmp_path):
    # a key that is a list is written out to be compared by value (market.py _groups): each of the
    # 10,000 elements a may hold, for each element grouped (before: 160 an element, whatever its key)
    with pytest.raises(interpreter.RulesetError, match=r"groups\(\) of keys that may be lists, each written out, walks "
                       r"up to 30,000 elements: declare its type"):
        game(tmp_path, "count(groups(1..3, by: a if it > 0 else 0)) > 0", vars=UNTYPED)
    assert charged(game(tmp_path, "count(groups(1..3, by: [it])) > 0", name="l.yaml")) < 20


def test_text_of_a_value_made_of_an_untyped_one_is_refused_as_text_of_the_untyped_one_is(tmp_path):
    # it may be the list of 10,000 elements a holds, written out at every run (before: weighed as
    # a whole number written, 20 characters)
    with pytest.raises(interpreter.RulesetError, match=r"error\[type\]: text\(\) writes a number, a condition, a text, "
                       r"a card, a player or a team, got a value made of one of type any, which may be a list"):
        game(tmp_path, "text(a if x == 0 else 0) != ''", vars=UNTYPED)
    assert charged(game(tmp_path, "text(x if x == 0 else 0) != ''", vars=UNTYPED, name="n.yaml")) == 0
