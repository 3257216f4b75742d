"""sums() is weighed for the work of building its answer (docs/reference.md "Limits"), not only
for the totals a filter over it may walk: for each value it shifts and ors a bitset as wide as
the totals so far reach (up to MAX_SUM bits), and listing the totals reads that bitset's digits.
Each charge is checked against the work counted on the worst list the step can be given: the
widths of the bitsets the values are shifted and or-ed into (_sum_bits, both of its ways: up to
64 values unmasked, more kept to MAX_SUM bits and masked at each) and the totals listed. A
step's charge was its by:'s one operation a value: 64 values near MAX_SUM (about 2,000,000
operations of work, 10 ms) were charged 68."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.expr import Compiler
from interpreter.mechanics import market
from interpreter.mechanics.market_costs import BITS_PER_OP, MAX_SUM, TOTAL_WORK, VALUE_WORK
from helpers import load_text


def game(folder, values: list, expr: str, name: str = "s.yaml"):
    """A ruleset of one card per value (attribute v) in a zone, whose one step sets x to ``expr``."""
    cards = ", ".join(f"{{name: c{i}, v: {v}}}" for i, v in enumerate(values))
    return load_text(folder, f"""
game: s
players: {{min: 2, max: 2}}
components:
  token: {{cards: [{cards}], label: "{{name}}"}}
zones:
  deck: {{start: [token], visible: all}}
vars:
  x: {{type: int, start: 0}}
flow:
  - set: {{x: "{expr}"}}
scoring: {{categories: {{p: x}}}}
""", name)


def counted_work(values: list, listed: bool) -> int:
    """The work sums() of ``values`` does, counted as it runs (_sum_bits, _sums_of_bits): a turn
    of the loop a value, each bit of each bitset shifted, or-ed or masked, each total listed."""
    bits, shifted = 1, 0
    for v in values:
        wider = bits << v
        shifted += wider.bit_length() + max(bits.bit_length(), wider.bit_length())   # (the shift, the or)
        bits |= wider
        if len(values) > 64:
            shifted += bits.bit_length()   # (the mask at each value)
            bits &= market._ALL_SUMS
    if len(values) <= 64:
        shifted += bits.bit_length()       # (the mask once)
        bits &= market._ALL_SUMS
    work = len(values) * VALUE_WORK + shifted // BITS_PER_OP
    totals = bin(bits).count("1") - 1
    return work + bits.bit_length() // 4 + totals * TOTAL_WORK if listed else work


ASKED = "(1 if x in sums(deck, by: v) else 0)"   # (a bit test: no list built)


@pytest.mark.parametrize("values, forms", [
    ([99_990] * 10, "both"),       # few values near MAX_SUM: a bitset of 1,000,000 bits unmasked
    ([10] * 64, "both"),           # the most values the unmasked way takes
    ([10] * 200, "both"), ([50] * 400, "both"),   # the masked way
    ([1_000] * 120, "asked"),      # the totals reaching MAX_SUM (listing 100,000 of them is refused)
    (list(range(1, 101)), "both"),
], ids=["10 near MAX_SUM", "64 of 10", "200 of 10", "400 of 50", "120 of 1000", "1..100"])
@pytest.mark.parametrize("form, listed", [("count(sums(deck, by: v))", True), (ASKED, False)])
def test_a_step_building_sums_is_charged_at_least_the_work_it_does(tmp_path, values, forms, form, listed):
    if listed and forms == "asked":
        return
    rules = game(tmp_path, values, form)
    step = next(s for s in rules.steps if s.kind == "effects")
    work = counted_work(values, listed)
    assert step.work >= work > 20 * len(values)   # (it was charged about one operation a value)
    # the deck holds every card: the worst list the step can be given, which it runs on
    assert rules.new_game(2).v["x"] == (len(market._sums(values, lambda v: v)) if listed else 0)


def test_listing_the_totals_is_weighed_and_a_bit_test_lists_none(tmp_path):
    """``x in sums(...)`` asks one bit of the bitset; counting the totals lists them all: the
    same sums() is weighed more where its list is built (in the reference compile too)."""
    rules = game(tmp_path, [100] * 40, "0")
    weighed = {}
    for text in ("count(sums(deck, by: v))", ASKED):
        for plain in (False, True):
            c = Compiler(rules.names, plain=plain)
            c.compile(text, has_me=True)
            weighed[text, plain] = c.cost
    listed, tested = weighed["count(sums(deck, by: v))", False], weighed[ASKED, False]
    # (its digits, and the 4,000 totals it may list; the two forms' own operations differ by a few)
    assert abs(listed - tested - (4_000 // 4 + 4_000 * TOTAL_WORK)) < 10
    assert weighed["count(sums(deck, by: v))", True] == listed and weighed[ASKED, True] == tested


def test_the_largest_value_a_step_can_give_bounds_the_work(tmp_path):
    """Ten cards weighed by an attribute of values up to 10 and by one up to 90,000: the bitsets
    are 9,000 times as wide."""
    small = game(tmp_path, list(range(1, 11)), ASKED, "small.yaml")
    large = game(tmp_path, [9_000 * v for v in range(1, 11)], ASKED, "large.yaml")
    (w1,), (w2,) = ([s.work for s in r.steps if s.kind == "effects"] for r in (small, large))
    assert w1 < 1_000 < 50_000 < w2


@pytest.mark.parametrize("values, form", [
    ([99_000 + i for i in range(64)], "count(sums(deck, by: v))"),   # 64 values near MAX_SUM: about 2,000,000 operations
    ([99_000 + i for i in range(64)], ASKED),
    ([10] * 64, "count(deck as a where count(sums(deck, by: v)) > a.v)"),   # a cheaper sums() in a filter: 64 times
])
def test_an_expression_whose_sums_may_cost_more_than_an_expression_may_is_refused_at_load(tmp_path, values, form):
    with pytest.raises(interpreter.RulesetError) as e:
        game(tmp_path, values, form)
    assert "s.yaml:11:" in str(e.value) and "more than 1,000,000 operations" in str(e.value)
    assert "sums() of up to 64 values" in str(e.value)


def test_sums_of_a_list_variable_of_any_values_is_refused(tmp_path):
    """A list variable may hold 10,000 values up to MAX_SUM (about 8,000,000 operations to add up,
    40 ms): refused, with its by: bounding the values or over a zone (its cards) it loads."""
    from helpers import tiny_ruleset
    text = tiny_ruleset('vars:\n  s: {type: "list[int]", start: []}\n  x: {type: int, start: 0}\nflow:\n'
                        '  - set: {x: "count(sums(s))"}\nscoring: {categories: {p: x}}\n')
    with pytest.raises(interpreter.RulesetError, match=f"sums\\(\\) of up to 10,000 values of up to {MAX_SUM:,}"):
        load_text(tmp_path, text, "v.yaml")
    load_text(tmp_path, text.replace("count(sums(s))", "count(sums(deck, by: rank))"), "v.yaml")
