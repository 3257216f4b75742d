"""A list's length as load knows it (expr/known.py): a ``for_each`` over a list whose bound the
ruleset declares (a range of literal ends or of ends that declare their bounds, a list written
out, a zone, a filter or an if/else of those...) is weighed at load at that many passes however
long, so that a step whose run may count past the budget is refused and one past a hundredth of
it warned of; a list whose length load cannot know (a list variable, a range an end of which
reads what declares no bound, what is built of one) at one pass where its bound reaches 10,000. A range longer than ``MAX_RANGE`` in every game, which could
never run, is an error at load located at the range."""
from __future__ import annotations

import pytest

import interpreter
from helpers import chips_game, load_text
from test_budget_counted import PASS_SET, loaded

LOOP = """  v: {type: "list[int]", start: "[1, 2]"}
params:
  n: {type: int, default: 5, min: 1, max: 20000}
  c: {type: int, default: 5, choices: [5, 12000]}
  u: {type: int, default: 5}
%s
flow:
  - for_each: {in: "%s", as: k, do: [%s]}
  - choose: {who: 0, options: "[1, 2]", as: x}
limits: {steps: %d}
scoring:
  categories: {chips: "count(mine)"}
"""


def game(over: str, budget: int, body: str = PASS_SET, defines: str = "") -> str:
    """The ruleset of a for_each over ``over`` (its vars x, y, z and the list variable v)."""
    return chips_game(LOOP % (defines, over, body, budget), game="range_lengths", players=(2, 2),
                      attributes="n: 1..9, m: 1..9", ints="x y z", start=0)


def line_of(text: str, part: str) -> int:
    return next(i for i, x in enumerate(text.splitlines(), 1) if part in x)


# each pass counts one and its body's charge (13 units: test_budget_counted PASS_BODY)
@pytest.mark.parametrize("over, passes", [
    ("1..10000", 10_000),                  # literal ends
    ("0..params.n - 1", 10_000),           # n <= 20,000: as long as MAX_RANGE lets it be
    ("1..params.c", 10_000),               # choices: [5, 12000]
    ("params.n..params.n + 10500", 10_000),
    ("many", 10_000),                      # a define of a range of literal ends
    ("(1..10000) where it > 0", 10_000),   # what is built of known lists, no longer than they are:
    ("many where it > 0", 10_000),         # a filter, map, distinct, top, if/else of two, + of two
    ("map(1..10000, to: it * 2)", 10_000),
    ("distinct(1..10000)", 10_000),
    ("top(1..10000, by: it % 3)", 10_000),
    ("1..10000 if x == 0 else [1, 2]", 10_000),
    ("[1, 2] + (1..9998)", 10_000),
    ("v", 1),                              # a list variable: its length unknown at load
    ("v where it > 0", 1),                 # what is built of it, alone or with a known list
    ("1..10000 if x == 0 else v", 1),
    ("v + [1]", 1),
    ("1..x", 1),                           # an end that reads a variable
    ("1..params.u", 1)])                   # a parameter that declares no bound
def test_a_for_each_over_a_list_of_declared_length_is_weighed_at_every_pass(tmp_path, over, passes):
    """At a budget of 100,000 a for_each of 10,000 known passes (140,000 steps a run) is refused
    at the for_each, and at 1,000,000 warned of (past a hundredth); before, a list weighed at
    10,000 was weighed at one pass whatever it was, and neither happened. A list whose length load
    cannot know stays weighed at one pass: no refusal, no warning, however costly its body. A list
    built of known ones (a filter of one, if/else of two...) is known too (before, at one pass:
    ``(1..10000) where it > 0`` loaded and every game stopped on its budget)."""
    defines = 'define:\n  many: "1..10000"' if over.startswith("many") else ""
    text = game(over, 100_000, defines=defines)
    line = line_of(text, "- for_each:")
    rules, said = loaded(tmp_path, text)
    if passes == 1:
        assert said == [] and next(s for s in rules.steps if s.pass_steps).pass_steps == 14
        return
    assert rules is None and [d[:3] for d in said] == [("error", "limit", line)], said
    assert "its for_each passes 140,000 of them" in said[0][3] and "more than the game's whole step budget" in said[0][3]
    (tmp_path / "warned").mkdir()
    rules, said = loaded(tmp_path / "warned", game(over, 10 ** 6, defines=defines))
    assert [d[:3] for d in said] == [("warning", "cost", line)] and "its for_each passes 140,000 of them" in said[0][3]
    assert next(s for s in rules.steps if s.pass_steps).pass_steps == 140_000


def test_a_zone_is_weighed_at_every_card_it_may_hold(tmp_path):
    """A for_each over a zone of a game of 10,000 cards: as many passes as the cards (a zone holds
    at most every card), refused where they count past the budget; before, one pass."""
    text = chips_game(LOOP % ("", "pool", '{set: {y: "y + k.n"}}', 5_000),
                      game="many_cards", players=(2, 2), attributes="n: 1..10000", ints="x y z", start=0)
    rules, said = loaded(tmp_path, text)
    assert rules is None and [d[:3] for d in said] == [("error", "limit", line_of(text, "- for_each:"))], said
    assert "its for_each passes 10,000 of them" in said[0][3], said


@pytest.mark.parametrize("over, message", [
    ("1..20000", "this range can never be built: it would hold 20,000 numbers, and a range may hold at most 10,000"),
    ("-5000..5000", "it would hold 10,001 numbers"),
    ("0..params.n + 10000", "it would hold at least 10,002 numbers in every game (as its ends declare)"),
    ("big", "it would hold 20,000 numbers")])
def test_a_range_longer_than_a_range_may_hold_in_every_game_is_an_error_at_load(tmp_path, over, message):
    """Such a range is a runtime error wherever it is evaluated (MAX_RANGE): refused at load,
    located at the range (in a define, where it is declared) with the most a range may hold; before, the
    ruleset loaded and its game stopped with the runtime error. A range that is that long only in
    some games (``0..params.n`` with n up to 20,000) still loads."""
    text = game(over, 10 ** 6, body='{set: {y: "k"}}', defines='define:\n  big: "1..20000"' if over == "big" else "")
    line = line_of(text, "  big:" if over == "big" else "- for_each:")
    with pytest.raises(interpreter.RulesetError) as e:
        load_text(tmp_path, text)
    assert [(d.severity, d.code, d.loc.line, d.loc.col) for d in e.value.diagnostics] == [
        ("error", "limit", line, text.splitlines()[line - 1].index('"1..20000"' if over == "big" else f'"{over}"') + 2)]
    assert message in e.value.diagnostics[0].message
    (tmp_path / "fits").mkdir()
    rules, said = loaded(tmp_path / "fits", game("0..params.n", 5 * 10 ** 6, body='{set: {y: "k"}}'))
    assert rules is not None and said == []


HUGE = "9" * 1100   # (a literal of 1,100 digits: squared three times through defines, 8,800)
HUGE_DEFINES = f'define:\n  d0: "{HUGE}"\n  d1: "d0 * d0"\n  d2: "d1 * d1"\n  d3: "d2 * d2"'


@pytest.mark.parametrize("over, message", [
    ("1..d3", "this range can never be built: it would hold more than 10^15 numbers, and a range may hold at most 10,000"),
    ("1..d3 + params.n", "it would hold more than 10^15 numbers in every game"),
    ("1..params.f", "it would hold at least 10,001 numbers in every game (as its ends declare)")])
def test_the_length_of_a_range_too_long_is_written_short_and_whole(tmp_path, over, message):
    """A range whose ends make it thousands of digits long is refused with the figure cut
    (errors.figure): before, writing it raised Python's ValueError (more than 4,300 digits), and
    validate said "internal error". One whose end is a parameter of ``min: 10000.5`` holds at least
    10,001 whole numbers: before, the message said "at least 10,000.5 numbers"."""
    text = game(over, 10 ** 6, body='{set: {y: "k"}}', defines=HUGE_DEFINES).replace(
        "  u: {type: int, default: 5}", "  u: {type: int, default: 5}\n  f: {type: int, default: 20000, min: 10000.5, max: 30000}")
    with pytest.raises(interpreter.RulesetError) as e:
        load_text(tmp_path, text)
    said = e.value.diagnostics
    assert [(d.code, d.loc.line) for d in said] == [("limit", line_of(text, "- for_each:"))], said
    assert message in said[0].message and len(said[0].message) < 200, said[0].message


def test_a_zone_max_under_zero_by_thousands_of_digits_is_a_located_error(tmp_path):
    """A zone's max: under 0 in every game by a number of thousands of digits: the error writes it
    short (building/capped.py), where writing it raised Python's ValueError (internal error)."""
    for i, (cap, said) in enumerate([("0 - d3", "max: is a whole number of 0 or more, got less than -10^15"),
                                     ("params.n - d3", "and params.n - d3 is less than -10^15 in every game")]):
        text = chips_game(LOOP % (HUGE_DEFINES, "[1]", '{set: {y: "k"}}', 10 ** 6), game="huge_max",
                          players=(2, 2), attributes="n: 1..9, m: 1..9", ints="x y z", start=0)
        text = text.replace("pool: {owner: none, visible: all, start: [chips]}",
                            f'pool: {{owner: none, visible: all, start: [chips], max: "{cap}"}}')
        (tmp_path / str(i)).mkdir()
        with pytest.raises(interpreter.RulesetError) as e:
            load_text(tmp_path / str(i), text)
        assert [(d.code, d.loc.line) for d in e.value.diagnostics] == [("capacity", line_of(text, "pool:"))]
        assert said in e.value.diagnostics[0].message


def test_the_cost_message_says_a_list_variable_is_weighed_at_one_pass(tmp_path):
    """The error and the warning of a for_each's passes say how each list is weighed: a list
    variable at one pass (its length unknown at load), not at 10,000 passes as they said (its
    10,000 elements are what a filter over it is weighed at, which the hint says apart)."""
    for folder, budget in (("refused", 100_000), ("warned", 10 ** 6)):
        (tmp_path / folder).mkdir()
        try:
            said = load_text(tmp_path / folder, game("1..10000", budget)).warnings
        except interpreter.RulesetError as e:
            said = e.diagnostics
        (d,) = [d for d in said if d.code in ("cost", "limit")]
        assert "but one pass over a list of 10,000 or more whose length load cannot know (a list variable" in d.message
        assert "a list variable 10,000" not in d.message, d.message
        assert budget == 100_000 or "a list variable is weighed at 10,000 elements in a filter and at one pass in a " \
            "for_each" in d.hint, d.hint
