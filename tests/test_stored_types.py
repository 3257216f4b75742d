"""A value the load cannot prove of a variable's declared type (of type ``any``, a list of
``any``) is checked where it is stored: by ``set``, ``random``, a ``choose``'s answer and a
variable's ``start``, against what a saved state's variables are held to (engine/values.py
``as_declared``, ``var_problem``). A value not of the type stops the game with a runtime error
located at the store, naming the declared type and what was given, in the generated module and
its plain reference alike; a value of the type is stored; where the load proves the type (a
declared type, ``[]``, a list joined with ``[]``) no check is written.
"""
from __future__ import annotations

import pytest

import interpreter
from helpers import load_text, tiny_ruleset
from interpreter.building.listing import listing
from test_budget_counted import played, played_alike

# loose holds what an item sets it to; the item under test stores it (line 15), and the last
# reads nums as a set in a loop (1..20 where it in nums), which a list of lists cannot be
GAME = tiny_ruleset("""vars:
  loose: any
  nums: "list[int]"
  n: {type: int, start: 0}
  picked: int
flow:
  - choose: {who: 0, options: "[1, 2]", as: picked}
  - set: {loose: "%s"}
  - %s
  - set: {n: "n + count(1..20 where it in nums)"}
scoring: {categories: {p: n}}
""")
LISTS, TEXT, NUMBERS = "map(1..20, to: [it])", "'seven'", "map(1..20, to: it)"
NOT_INT_LISTS = "variable 'nums' is declared list[int]: expected a whole number, got [1]"
NOT_INT_TEXT = "variable 'n' is declared int: expected a whole number, got 'seven'"
NOT_INT_ITEM = "variable 'nums' is declared list[int]: expected a whole number, got 'seven'"
FRACTION = "variable 'n' is declared int: expected a whole number, got 2.5"


def outcome(tmp_path, loose: str, item: str) -> tuple:
    """A game (seed 0) played by the module and by its plain reference: both the same."""
    return played_alike(load_text(tmp_path, GAME % (loose, item)))


@pytest.mark.parametrize("loose, item, message", [
    (LISTS, 'set: {nums: "loose"}', NOT_INT_LISTS),
    (TEXT, 'set: {n: "loose"}', NOT_INT_TEXT),
    (LISTS, 'set: {nums: "loose if n == 0 else []"}', NOT_INT_LISTS),
    (LISTS, 'random: {var: nums, from: "[loose]"}', NOT_INT_LISTS),
    (TEXT, 'random: {var: n, from: "[loose, loose]"}', NOT_INT_TEXT),
    (TEXT, 'choose: {who: 1, options: "[loose]", as: n}', NOT_INT_TEXT),
    (TEXT, 'set: {picked: "loose"}', "variable 'picked' is declared int: expected a whole number, got 'seven'"),
    (TEXT, 'set: {n: "loose if n == 0 else 0"}', NOT_INT_TEXT),
    ("2.5", 'set: {n: "max(loose, 1)"}', FRACTION),
    ("2.5", 'set: {n: "n + loose"}', FRACTION),
    ("2.5", 'set: {n: "-loose"}', FRACTION.replace("2.5", "-2.5")),
    (TEXT, 'set: {nums: "[0, loose]"}', NOT_INT_ITEM),
    (TEXT, 'set: {nums: "[0] + [loose]"}', NOT_INT_ITEM),
    (TEXT, 'set: {nums: "map([0, loose], to: it) where it != 0"}', NOT_INT_ITEM),
    (TEXT, 'set: {n: "first([loose, 0])"}', NOT_INT_TEXT),
    (TEXT, 'choose: {who: 1, options: "[0, loose] where it != 0", as: n}', NOT_INT_TEXT),
], ids=["list-of-lists", "text-into-int", "joined-with-empty", "random-list", "random-text", "choose", "after-choose",
        "if-else-with-a-number", "max", "added", "negated", "list-item", "joined-item", "filtered", "first",
        "choose-among-numbers"])
def test_a_value_not_of_the_declared_type_stops_the_game_at_its_store(tmp_path, loose, item, message):
    """The store fails (line 15), not a later reader: the decision made before it, in both compiles."""
    decisions, _, kind, text, _ = outcome(tmp_path, loose, item)
    assert (kind, decisions) == ("GameError", 1 if item.startswith("choose") else 0)
    assert "g.yaml:15:5: error[runtime]:" in text.splitlines()[0]
    assert message in text.splitlines()[0]


def test_a_value_of_the_declared_type_is_stored(tmp_path):
    """A list of numbers of type any goes into the list of int, and the game plays to its end."""
    decisions, steps, kind, state = outcome(tmp_path, NUMBERS, 'set: {nums: "loose"}')
    assert kind is None and '"n":20' in state


@pytest.mark.parametrize("item", ['set: {nums: "loose"}', 'random: {var: nums, from: "[loose]"}'])
def test_the_check_is_written_where_the_type_is_not_proven(tmp_path, item):
    assert "_typed(S, 'nums', " in listing(load_text(tmp_path, GAME % (NUMBERS, item)))


@pytest.mark.parametrize("item", [
    'set: {nums: "[]"}',
    'set: {nums: "nums + ([n] if n > 0 else [])"}',
    'set: {nums: "[] if n > 0 else [picked]"}',
    'set: {nums: "map(1..3, to: it) + []"}',
    'random: {var: n, from: "[]"}',
    'set: {loose: "[[1]]"}',   # (a variable of type any holds anything)
    'set: {n: "count([0, loose] where it == loose)"}',   # (a count is made anew: a whole number)
])
def test_no_check_where_the_load_proves_the_type(tmp_path, item):
    """[] holds nothing (of every list type), and a list joined with it, or chosen against it,
    is of the other's type: no check written, as for a value of a declared type."""
    text = listing(load_text(tmp_path, GAME % (NUMBERS, item)))
    assert "_typed(" not in text


START = tiny_ruleset("""vars:
  loose: {start: "%s"}
  nums: {type: "list[int]", start: "loose"}
flow:
  - choose: {who: 0, options: "[1, 2]", as: pick}
""")


def test_a_start_value_not_of_the_declared_type_stops_the_game_as_it_starts(tmp_path):
    rules = load_text(tmp_path, START % LISTS)
    with pytest.raises(interpreter.GameError) as e:
        rules.new_game(2, seed=1)
    first = str(e.value).splitlines()[0]
    assert "g.yaml:9:36: error[runtime]: in the start of variable 'nums': " + NOT_INT_LISTS in first
    (tmp_path / "numbers").mkdir()
    assert load_text(tmp_path / "numbers", START % NUMBERS).new_game(2, seed=1).v["nums"] == list(range(1, 21))


def test_a_start_value_of_another_type_is_an_error_at_load(tmp_path):
    with pytest.raises(interpreter.RulesetError, match=r"g.yaml:9:\d+: error\[type\]: variable 'nums' is declared "
                                                      r"list\[int\], got str"):
        load_text(tmp_path, START.replace('start: "loose"', "start: \"'a'\"") % NUMBERS)


COUNTER = tiny_ruleset("""counters:
  coins: 0
vars:
  loose: {start: "%s"}
flow:
  - choose: {who: 0, options: "[1, 2]", as: pick}
  - set: {coins: "loose"}
  - gain: {counter: coins, amount: 1}
""")


def test_a_counter_set_to_a_value_of_type_any_holds_a_whole_number(tmp_path):
    """A text stops the game at the set (line 13), in both compiles; a whole number is set."""
    rules = load_text(tmp_path, COUNTER % "'seven'")
    got = played_alike(rules)
    assert got[2] == "GameError"
    assert "g.yaml:13:5: error[runtime]: in effects: counter 'coins' holds whole numbers: expected a whole number, " \
           "got 'seven'" in got[3].splitlines()[0]
    (tmp_path / "whole").mkdir()
    rules = load_text(tmp_path / "whole", COUNTER % "3")
    decisions, _, kind, state = played_alike(rules)
    assert kind is None and '"coins":4' in state


def test_a_counter_set_to_a_fraction_is_an_error_at_load(tmp_path):
    # the one check of what a counter is given (counters.py may_be_fraction), as an amount's
    with pytest.raises(interpreter.RulesetError, match=r"g.yaml:13:\d+: error\[type\]: a counter holds whole "
                                                      r"numbers, and this value may have a fraction: divide with //"):
        load_text(tmp_path, COUNTER.replace('"loose"', '"loose / 2"') % "3")


@pytest.mark.parametrize("counters", ["coins: {owner: player, start: \"5 / 2\"}",
                                      "coins: {start: \"num_players / 4\"}",
                                      "coins: {keys: [a, b], start: \"5 / 2\"}"])
def test_a_counter_start_that_may_have_a_fraction_is_an_error_at_load(tmp_path, counters):
    # (before: the load passed, and every game stopped as it started: 'expected a whole number, got 2.5')
    text = tiny_ruleset(f"counters:\n  {counters}\nflow:\n  - choose: {{who: 0, options: \"[1, 2]\", as: pick}}\n")
    with pytest.raises(interpreter.RulesetError) as e:
        load_text(tmp_path, text)
    assert str(e.value).count("error[type]: a counter holds whole numbers, and this start may have a fraction: "
                              "divide with //") == 1
    assert '"coins' in load_text(tmp_path, text.replace("/", "//"), "whole.yaml").new_game(2, seed=0).to_json()


AMOUNTS = tiny_ruleset("""counters:
  coins: 5
  bank: 10
vars:
  loose: {start: "%s"}
flow:
  - choose: {who: 0, options: "[1, 2]", as: pick}
  - %s
  - gain: {counter: coins, amount: 1}
""")


@pytest.mark.parametrize("loose, item, got", [
    ("2.5", 'gain: {counter: coins, amount: "loose"}', "2.5"),
    ("2.5", 'lose: {counter: coins, amount: "loose", to: bank}', "2.5"),
    ("2.5", 'transfer: {from: bank, to: coins, amount: "loose"}', "2.5"),
    ("2.5", 'set: {coins: "coins + loose"}', "7.5"),
    ("first([])", 'set: {coins: "loose"}', "none"),
    ("first([])", 'gain: {counter: coins, amount: "loose"}', "none"),
], ids=["gain", "lose", "transfer", "set-made-of-any", "set-none", "gain-none"])
def test_a_counter_gains_loses_or_is_set_whole_numbers_only(tmp_path, loose, item, got):
    """An amount of type any, or a value made of one, that is a fraction or none stops the game
    where it is used (line 14), in both compiles: a counter never holds 7.5 or none."""
    rules = load_text(tmp_path, AMOUNTS % (loose, item))
    out = played_alike(rules)
    assert out[2] == "GameError"
    counter = "bank" if item.startswith("transfer") else "coins"
    assert f"g.yaml:14:5: error[runtime]: in effects: counter '{counter}' holds whole numbers: expected a whole " \
           f"number, got {got}" in out[3].splitlines()[0]


STARTS = tiny_ruleset("""vars:
  loose: {start: "'seven'"}
counters:
  coins: {start: "%s"}
flow:
  - choose: {who: 0, options: "[1, 2]", as: pick}
  - reset: coins
""")


@pytest.mark.parametrize("start, message", [
    ("first([])", "counter 'coins' holds whole numbers: expected a whole number, got none"),
    ("loose + 0", "none used as a value"),   # (the counters start before the variables)
], ids=["none", "a-variable"])
def test_a_counter_start_that_fails_is_located_at_its_start(tmp_path, start, message):
    rules = load_text(tmp_path, STARTS % start)
    with pytest.raises(interpreter.GameError) as e:
        rules.new_game(2, seed=1)
    assert f"g.yaml:10:18: error[runtime]: in the start of counter 'coins': {message}" in str(e.value).splitlines()[0]


def test_a_reset_to_a_start_of_type_any_is_checked(tmp_path):
    """A start whole as the game starts (the variables none then) and not at a reset: the same
    check, at the reset (line 13), in both compiles."""
    rules = load_text(tmp_path, STARTS % "3 if loose == none else loose")
    out = played_alike(rules)
    assert out[2] == "GameError"
    assert "g.yaml:13:5: error[runtime]: in effects: counter 'coins' holds whole numbers: expected a whole number, " \
           "got 'seven'" in out[3].splitlines()[0]


EFFECT = tiny_ruleset("""vars:
  loose: any
  nums: "list[int]"
  n: {type: int, start: 0}
effects:
  keep:
    params: {xs: "list[int]"}
    do:
      - set: {nums: "xs"}
flow:
  - choose: {who: 0, options: "[1, 2]", as: picked}
  - set: {loose: "%s"}
  - keep: {xs: "%s"}
  - set: {n: "n + count(1..20 where it in nums)"}
""")


@pytest.mark.parametrize("loose, given", [(LISTS, "loose"), (TEXT, "[0, loose]")], ids=["any", "made-of-any"])
def test_a_declared_effects_argument_is_checked_where_it_is_bound(tmp_path, loose, given):
    """The argument of type any (or made of one) not of the parameter's declared type stops the
    game at the call (line 19), not where the effect stores it, in both compiles."""
    decisions, _, kind, text, _ = outcome_of(tmp_path, EFFECT % (loose, given))
    assert (kind, decisions) == ("GameError", 0)
    assert "g.yaml:19:5: error[runtime]: in effects: argument 'xs' of effect 'keep' is declared list[int]: " \
           f"expected a whole number, got {'[1]' if loose == LISTS else repr('seven')}" in text.splitlines()[0]
    (tmp_path / "numbers").mkdir()   # (a list of numbers of type any: bound, and the game plays on)
    decisions, _, kind, state = outcome_of(tmp_path / "numbers", EFFECT % (NUMBERS, "loose"))
    assert kind is None and '"n":20' in state


def outcome_of(tmp_path, text: str) -> tuple:
    return played_alike(load_text(tmp_path, text))


CHARGED = tiny_ruleset("""vars:
  loose: any
  nums: "%s"
flow:
  - set: {loose: "map(1..30, to: it)"}   # (a choose option of it: its label within MAX_LABEL)
  - choose: {who: 0, options: "[1, 2]", as: picked}
  - %s
  - choose: {who: 0, options: "[1, 2]", as: picked}
""")


@pytest.mark.parametrize("store", ['choose: {who: 0, options: "[loose]", as: nums}', 'set: {nums: "loose"}',
                                   'random: {var: nums, from: "[loose]"}'], ids=["choose", "set", "random"])
def test_the_check_of_a_stored_list_is_charged_alike(tmp_path, store):
    """A list of type any stored in a list[int] variable costs its check, 64 operations an element
    a list variable may hold (10,000: 6,400 steps), by a choose's answer as by set and random;
    stored in a variable of type any, nothing: the same steps in both compiles."""
    steps = {}
    for typ in ("list[int]", "any"):
        (tmp_path / typ).mkdir()
        decisions, steps[typ], kind, _ = outcome_of(tmp_path / typ, CHARGED % (typ, store))
        assert kind is None
    assert steps["list[int]"] - steps["any"] == 6400


DEEP = tiny_ruleset("""vars:
  loose: any
  deep: "%s"
  n: {type: int, start: 0}
flow:
  - choose: {who: 0, options: "[1, 2]", as: picked}
  - set: {loose: "%s"}
  - set: {deep: "%s"}
  - choose: {who: 0, options: "[1, 2]", as: picked}
""")


@pytest.mark.parametrize("levels", [8, 9])
@pytest.mark.parametrize("through", [True, False], ids=["through-any", "written-out"])
def test_a_value_nests_as_deep_stored_directly_or_through_any_and_reloads(tmp_path, levels, through):
    """Lists nested 8 levels deep are stored, written out or through a variable of type any, and
    the saved state reloads; 9 levels deep are a runtime error at the first store of them (line
    13), either way, in both compiles: play and a saved state hold values to one depth."""
    literal = "[" * levels + "1" + "]" * levels
    typ = "list[" * levels + "int" + "]" * levels
    rules = load_text(tmp_path, DEEP % (typ, literal, "loose" if through else literal))
    out = played_alike(rules)
    if levels == 9:
        assert out[2] == "GameError" and "g.yaml:13:5: error[runtime]: in effects: lists nested more than 8 levels " \
                                         "deep (a variable or a local may hold)" in out[3].splitlines()[0]
    else:
        assert out[2] is None and rules.state_from_json(out[3]).v["deep"] == eval(literal)


def test_a_variable_start_is_held_to_a_variables_bounds(tmp_path):
    """A start holding more in all than a variable may (a set of it would stop the game) stops the
    game as it starts, located at the start."""
    rules = load_text(tmp_path, START.replace('start: "loose"', 'start: "[]"') % "map(1..200, to: map(1..200, to: it))")
    with pytest.raises(interpreter.GameError, match=r"g.yaml:8:18: error\[runtime\]: in the start of variable "
                                                     r"'loose': a list of lists holding more than 10000 elements"):
        rules.new_game(2, seed=1)


@pytest.mark.parametrize("item, message", [
    ('for_each: {in: "[0, loose]", as: x, do: [{set: {n: "x"}}]}',
     "for_each element 'x' is read as int: expected a whole number, got 'seven'"),
    ('choose: {options: "[loose, 0] where it != 0", as: nums, simultaneous: true}',
     "variable 'nums' is declared list[int]: expected a whole number, got 'seven'"),
], ids=["for_each", "simultaneous"])
def test_an_element_or_a_simultaneous_answer_made_of_any_is_checked(tmp_path, item, message):
    """A for_each's element of a list made of a value of type any is checked as the type its body
    reads it as, where it is bound; a simultaneous choice's answer as the variable's element type,
    where it is given: line 15, in both compiles."""
    decisions, _, kind, text, _ = outcome(tmp_path, TEXT, item)
    assert kind == "GameError" and "g.yaml:15:5: error[runtime]:" in text.splitlines()[0]
    assert message in text.splitlines()[0]


@pytest.mark.parametrize("loose, item, summary", [
    (TEXT, 'set: {n: "loose"}', "in effects: a value not of its declared type"),
    ("[[[[[[[[[1]]]]]]]]]", 'set: {nums: "loose"}', "in effects: lists nested too deeply"),
], ids=["type", "depth"])
def test_what_a_seat_is_told_of_a_failed_check_names_no_value(tmp_path, loose, item, summary):
    """A seat sees a runtime error's summary only (play/logs/redact.py): the check's names its
    kind, not the value given (which may be a card hidden from the seat)."""
    rules = load_text(tmp_path, GAME % (loose, item))
    S = rules.new_game(2, seed=0)
    with pytest.raises(interpreter.GameError) as e:
        S.apply_index(0)
    assert e.value.summary == summary and summary not in str(e.value).splitlines()[0].split("error[runtime]: ")[1]


def test_a_define_made_of_a_value_of_type_any_is_checked_where_it_is_stored(tmp_path):
    """A define's use is proven of what its expression is (nesting.held): [0, loose] through a
    define is checked as written out (line 17), in both compiles."""
    text = GAME.replace("flow:\n", 'define:\n  both: "[0, loose]"\nflow:\n') % (TEXT, 'set: {nums: "both"}')
    decisions, _, kind, message, _ = outcome_of(tmp_path, text)
    assert kind == "GameError" and f"g.yaml:17:5: error[runtime]: in effects: {NOT_INT_ITEM}" in message.splitlines()[0]


GROWN = tiny_ruleset("""vars:
  loose: {type: any, start: "[1]"}
  n: {type: int, start: 0}
effects:
  keep:
    params: {v: any}
    do: [{set: {loose: "v"}}]
flow:
  - choose: {who: 0, options: "[1, 2]", as: n}
  - repeat: 12
    steps: [%s]
  - choose: {who: 0, options: "[1, 2]", as: n}
""")


@pytest.mark.parametrize("store", [
    '{set: {loose: "[0, loose, loose]"}}',
    '{random: {var: loose, from: "[[0, loose, loose]]"}}',
    '{keep: {v: "[0, loose, loose]"}}',
], ids=["set", "random", "argument"])
def test_a_list_made_of_a_value_of_type_any_is_walked_where_stored(tmp_path, store):
    """[0, loose, loose] types as a list of int, but its items are lists: stored again and again it
    would nest a level deeper and hold twice as much each time (40 times: a saved state's to_json
    never returns). Walked as the value of type any it is made of, the ninth level stops the game
    at the store (line 17), in both compiles."""
    out = outcome_of(tmp_path, GROWN % store)
    assert out[2] == "GameError" and "g.yaml:17:" in out[3].splitlines()[0]
    assert "lists nested more than 8 levels deep" in out[3].splitlines()[0]


NONE_INT = tiny_ruleset("""vars:
  n: int
counters:
  coins: {start: "%s"}
flow:
  - choose: {who: 0, options: "[1, 2]", as: n}
  - %s
""")


@pytest.mark.parametrize("start, item, where", [
    ("n", "gain: {counter: coins, amount: 1}", "10:18: error[runtime]: in the start of counter 'coins'"),
    ("0", 'set: {coins: "first([1, 2] where it > 5)"}', "13:5: error[runtime]: in effects"),
    ("0 if n == none else first([1, 2] where it > 5)", "reset: coins", "13:5: error[runtime]: in effects"),
], ids=["start", "set", "reset"])
def test_a_counter_is_never_written_none_of_type_int(tmp_path, start, item, where):
    """A value of type int may be none (a variable not set: the counters start before the
    variables; first of nothing): a counter's start, a set or a reset of it stops the game where
    it is written, in both compiles, never a counter holding none (which a saved state refuses)."""
    rules = load_text(tmp_path, NONE_INT % (start, item))
    if item.startswith("gain"):
        with pytest.raises(interpreter.GameError) as e:
            rules.new_game(2, seed=0)
        message = str(e.value)
    else:
        out = played_alike(rules)
        assert out[2] == "GameError"
        message = out[3]
    assert f"g.yaml:{where}: counter 'coins' holds whole numbers: expected a whole number, got none" in message.splitlines()[0]


PAID = tiny_ruleset("""counters:
  coins: {owner: player, start: 5}
vars:
  loose: any
flow:
  - choose: {who: 0, options: "[1, 2]", as: n}
  - set: {loose: "%s"}
  - pay: {who: 0, costs: {coins: "%s"}}
""")


@pytest.mark.parametrize("loose, got", [("2.5", "2.5"), ("true", "True")])
def test_a_pay_cost_of_type_any_is_a_whole_number(tmp_path, loose, got):
    """A cost of type any that is a fraction or true stops the game at the pay (line 14), in both
    compiles: a counter never pays 2.5, nor true as 1."""
    out = outcome_of(tmp_path, PAID % (loose, "loose"))
    assert out[2] == "GameError" and f"g.yaml:14:5: error[runtime]: in pay: counter 'coins' holds whole numbers: " \
        f"expected a whole number, got {got}" in out[3].splitlines()[0]


def test_a_pay_cost_that_may_have_a_fraction_is_an_error_at_load(tmp_path):
    with pytest.raises(interpreter.RulesetError, match=r"g.yaml:14:\d+: error\[type\]: a counter holds whole numbers, "
                                                      r"and this cost may have a fraction"):
        load_text(tmp_path, PAID % ("0", "5 / 2"))


PRICED = tiny_ruleset("""counters:
  coins: {owner: player, start: 5}
  paid: {owner: card}
vars:
  loose: any
flow:
  - choose: {who: 0, options: "[1, 2]", as: n}
  - set: {loose: "%s"}
  - grid: {who: 0, zone: deck, rows: 2, cost: "%s", pay: coins, mark: paid, as: spot, pass: false}
""")


@pytest.mark.parametrize("loose, got", [("2.5", "2.5"), ("true", "True")])
def test_a_grid_cost_of_type_any_is_a_whole_number(tmp_path, loose, got):
    """A grid's cost of type any that is a fraction or true stops the game at the grid (line 15),
    in both compiles: no counter paid or marked 2.5, nor true."""
    out = outcome_of(tmp_path, PRICED % (loose, "loose"))
    assert out[2] == "GameError" and f"g.yaml:15:5: error[runtime]: in grid: counter 'coins' holds whole numbers: " \
        f"expected a whole number, got {got}" in out[3].splitlines()[0]



SCORED = tiny_ruleset("""vars:
  loose: any
flow:
  - choose: {who: 0, options: "[1, 2]", as: picked}
  - set: {loose: "%s"}
scoring: {categories: {p: "loose", q: "1"}}
""")


@pytest.mark.parametrize("loose, got", [("'seven'", "'seven'"), ("true", "True"), ("first([])", "none")])
def test_a_scoring_category_of_type_any_is_a_number_located_at_it(tmp_path, loose, got):
    """A category of type any that is a string, true or none is a runtime error located at the
    category (line 12), not an unlocated '+' nor true counted as 1."""
    rules = load_text(tmp_path, SCORED % loose)
    S = rules.new_game(2, seed=0)
    S.apply_index(0)
    with pytest.raises(interpreter.GameError) as e:
        S.scores()
    first = str(e.value).splitlines()[0]
    assert "g.yaml:12:" in first and "scoring category 'p' is a number: expected a number" in first
    assert first.endswith(f"got {got}")


SEATED = tiny_ruleset("""vars:
  x: %s
flow:
  - choose: {who: 0, options: "[1, 2]", as: picked}
  - set: {x: "%s"}
""")


@pytest.mark.parametrize("typ, value, message", [
    ("player", "7", "variable 'x' is declared player: no player 7 (there are 2)"),
    ("team", "picked + 5", "variable 'x' is declared team: no team"),
], ids=["player", "team"])
def test_a_whole_number_stored_as_a_player_or_team_is_in_range(tmp_path, typ, value, message):
    """A whole number fits a player or a team variable, but may be no seat or team of the game: a
    runtime error at the set (line 11), in both compiles, not a state a reload refuses."""
    out = outcome_of(tmp_path, SEATED % (typ, value))
    assert out[2] == "GameError" and "g.yaml:11:5: error[runtime]:" in out[3].splitlines()[0]
    assert message in out[3].splitlines()[0]
    (tmp_path / "in").mkdir()
    assert outcome_of(tmp_path / "in", SEATED % (typ, "1"))[2] is None


NARROWED = tiny_ruleset("""vars:
  loose: {type: any, start: "[1]"}
flow:
  - choose: {who: 0, options: "[[0, loose]]", as: loose}
""")


def test_a_variable_an_as_narrowed_is_named_so_where_its_check_fails(tmp_path):
    """A variable declared any that a choose's as: narrows to list[int] (its start is one) checks
    the answer [0, [1]] against list[int]: the message says how it came to be that type (before:
    'declared list[int]', which it is not)."""
    out = played(load_text(tmp_path, NARROWED), 0)
    assert out[2] == "GameError" and "variable 'loose' is list[int] (declared any, narrowed by an as:): expected a " \
        "whole number, got [1]" in out[3].splitlines()[0]
