"""Rules of the expression compiler stated one by one: which names an element's attribute may
be (a family owned by players is no card's), how branch types join, what is computed once,
and the worst-case cost an expression is charged (docs/language.md, MAX_COST)."""
from __future__ import annotations

import itertools
import re

import pytest

from interpreter.accel import loaded
from interpreter.expr import Compiler, ExprError
from interpreter.expr.limits import MAX_COST, MAX_SOURCE
from interpreter.expr.names import var_ref
from interpreter.expr.types import ANY, INT, NUM, PLAYER, TEAM, unify
from helpers import load_text, tiny_ruleset

GAME = tiny_ruleset("""
  pile: {}
counters:
  gems: {owner: player, keys: [red, blue], start: 1}
  marks: {owner: card, keys: [up, down], start: 2}
vars:
  x: {type: int, start: 0}
flow: []
""", players=(2, 3))

# a define of exactly MAX_SOURCE characters of code: a list of N defines (2 brackets, ', '
# between, each in parentheses: 4 N characters), N - 1 of them lists of 500 x and the last of
# B x and Q ones (an x as generated code reads it, then ', ', and a list's 2 brackets: R + 2
# characters an x, 3 a 1); Q makes the rest a whole number of x
R = len(var_ref("x")) + 2


def _at_bound(per: int = 500):
    for n in range(2, 1000):
        q = next(q for q in range(R) if (MAX_SOURCE - 4 * n - 3 * q) % R == 0)
        b = (MAX_SOURCE - 4 * n - 3 * q) // R - (n - 1) * per
        if b <= per:
            return n, b, q
    raise AssertionError("no such define")


N, B, Q = _at_bound()
TOP = "[" + "e, " * (N - 1) + "f]"


def _xs(k, ones=0):
    return "[" + ", ".join(["x"] * k + ["1"] * ones) + "]"


AT_BOUND = f"""
game: big
players: {{min: 2, max: 2}}
vars:
  x: {{type: int, start: 0}}
define:
  e: "{_xs(500)}"
  f: "{_xs(B, Q)}"
  d: "{TOP}"
flow: []
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return load_text(tmp_path_factory.mktemp("expr"), GAME, "g.yaml")


def compiled(rules, text):
    c = Compiler(rules.names)
    c.compile(text, has_me=True)
    return c


# ---------------------------------------------------------------------- members
def test_a_family_is_read_off_the_kind_of_element_that_owns_it(rules):
    S = rules.new_game(2, seed=1)
    S.c["gems.blue"] = [1, 6]
    c = Compiler(rules.names)
    assert c.compile("first(deck).marks", has_me=True).fn(S, 0, None) == [2, 2]
    assert c.compile("me.gems", has_me=True).fn(S, 1, None) == [1, 6]


@pytest.mark.parametrize("text, message", [
    ("first(deck).gems", "card has no attribute 'gems'"),       # each player's, no card's
    ("sum(map(deck, to: sum(it.gems)))", "card has no attribute 'gems'"),
    ("me.marks", "player has no attribute 'marks'"),              # each card's, no player's
])
def test_a_family_read_off_an_element_that_does_not_own_it_is_an_error(rules, text, message):
    with pytest.raises(ExprError) as info:
        Compiler(rules.names).compile(text, has_me=True)
    assert info.value.message == message and info.value.code == "unknown-name"


# ---------------------------------------------------------------------- types
def test_numbers_widen_to_num_whatever_the_other_numeric_branches():
    """Players, teams and an unknown type are whole numbers to unify: any mix with a num is num,
    any mix without it is int, the mix of all of them too."""
    numeric = [INT, NUM, PLAYER, TEAM, ANY]
    for k in range(2, len(numeric) + 1):
        for mix in itertools.combinations(numeric, k):
            assert unify(mix) == (NUM if NUM in mix else INT), mix


# ---------------------------------------------------------------------- computed once
@pytest.mark.parametrize("builtin", ["sum", "max", "min"])
def test_a_by_that_does_not_read_the_element_is_computed_once(rules, builtin):
    """count(pile where ...) is the same for every card of the deck: it is computed on first use
    (a hoisted name _hN), not once per card."""
    src = Compiler(rules.names).compile(f"{builtin}(deck, by: count(pile where rank > 2))", has_me=True).source
    assert re.search(r"_h\d+ := _U", src), src



@pytest.mark.parametrize("by, hoisted", [
    ("count(pile where rank > 2)", True),       # a loop
    ("highest(pile, by: rank).rank", True),     # a helper that walks the list
    ("first(pile).rank", False),                # a cheap helper
    ("abs(x)", False),
    ("abs(lambda_x)", False),                   # a name that reads "lambda" holds no loop
])
def test_what_is_computed_once_is_what_walks_a_list(tmp_path, by, hoisted):
    """A call the element does not change is lifted out of a by: only when it loops or walks a
    list, as the compiler noted while writing it (expr/code.py), whatever its text reads."""
    rules = load_text(tmp_path, GAME.replace("vars:\n", "vars:\n  lambda_x: {type: int, start: 0}\n"))
    src = Compiler(rules.names).compile(f"sum(deck, by: {by})", has_me=True).source
    assert bool(re.search(r"_h\d+ := _U", src)) is hoisted, src



@pytest.mark.parametrize("test", ["count(pile where rank > 2) == 0", "count(pile where rank > 2) > 0"])
def test_a_count_asked_about_zero_binds_only_the_scan_that_answers_it(rules, test):
    """``count(L where P) == 0`` in a by: is answered by a scan for the first element that
    passes, lifted: the lifted count it replaces is bound to nothing before the expression."""
    src = Compiler(rules.names).compile(f"sum(deck, by: 1 if {test} else 0)", has_me=True).source
    bound = re.findall(r"(_h\d+) := _U", src)
    assert len(bound) == 1 and src.count(bound[0]) > 1, src


# ---------------------------------------------------------------------- worst-case cost
def test_a_filter_body_counts_once_per_element_of_its_list(rules):
    """Each node counts one; a body counts once per element of a range (its length)."""
    body = compiled(rules, "x > 2").cost           # the body's nodes, compiled alone
    costs = [compiled(rules, f"count(1..{n} where it > 2)").cost for n in (10, 20, 40)]
    assert costs[1] - costs[0] == 10 * body and costs[2] - costs[1] == 20 * body


def test_nested_filters_multiply(rules):
    inner = compiled(rules, "count(1..20 where x > 2) > 0").cost
    costs = [compiled(rules, f"count(1..{n} where count(1..20 where it > x) > 0)").cost for n in (10, 30)]
    assert costs[1] - costs[0] == 20 * inner


def test_a_filter_over_players_counts_once_per_seat_the_game_can_have(rules):
    """players has at most players.max elements (3 here), not a zone's length (10)."""
    costs = [compiled(rules, f"count({over} where {it} > x{more})").cost
             for over, it in (("players", "it"), ("teams", "it"), ("deck", "rank")) for more in ("", " + 0")]
    assert [costs[1] - costs[0], costs[3] - costs[2], costs[5] - costs[4]] == [2 * 3, 2 * 3, 2 * 10]


def test_joining_lists_counts_their_elements(rules):
    """A zone is as long as the game's cards (10 here); the join's new list counts both."""
    one = compiled(rules, "count(deck)").cost
    assert compiled(rules, "count(deck + pile)").cost == one + 2 + 10 + 10   # (+ and pile: two nodes)
    assert compiled(rules, "count(deck + pile + deck)").cost == one + 4 + 20 + 30


def test_spent_adds_up_the_cost_of_everything_compiled(rules):
    c = Compiler(rules.names)
    c.compile("count(1..10 where it > x)", has_me=True)
    first = c.cost
    c.compile("count(deck + pile)", has_me=True)
    assert first > 0 and c.spent == first + c.cost


@pytest.mark.parametrize("text", [
    # 5 + 997 x (7 + 3 x 332) + 4 = 1,000,000: the outer body runs 997 times, the inner 332
    "count(1..997 where count(1..332 where it > x) > 0) + x + x",
    # 999,980 nodes, then the join's 20 elements last: the bound is reached by a list's length
    "count(1..994 where count(1..333 where it > x) > 0) + x + x + x + count(deck + pile)",
])
def test_an_expression_of_exactly_max_cost_compiles_one_node_more_does_not(rules, text):
    assert compiled(rules, text).cost == MAX_COST
    more = text.replace(" + x", " + x + x", 1)
    with pytest.raises(ExprError, match="more than 1,000,000 operations") as info:
        compiled(rules, more)
    assert info.value.code == "limit"


def test_a_define_of_exactly_max_source_characters_is_not_too_much_code(tmp_path):
    """It loads (its code checked alone: the bound itself is allowed); a use wraps it in
    parentheses, two characters more, so that expression is the one too large."""
    rules = load_text(tmp_path, AT_BOUND, "big.yaml")
    assert len(Compiler(rules.names).compile(TOP).source) == MAX_SOURCE
    with pytest.raises(ExprError) as info:
        Compiler(rules.names).compile("count(d)")
    assert info.value.message.startswith("expression is too large once its defines are expanded")


# ---------------------------------------------------------------------- sorted zones
SORTED = """
game: s
players: {min: 2, max: 2}
components:
  cards: {attributes: {suit: [A, B, C, D], rank: 1..10}, label: "{rank}{suit}"}
zones:
  deck: {start: [cards], sorted: true}
vars:
  x: {type: int, start: 0}
flow: []
"""


@pytest.mark.parametrize("text, first", [
    ("deck where rank == x + 3", ["3A", "3B", "3C", "3D"]),       # four runs, one per suit
    ("deck where suit == ['B', 'C'][x % 2]", [f"{r}B" for r in range(1, 11)]),   # one run
])
def test_a_filter_of_a_sorted_zone_by_an_attribute_finds_every_run_of_its_cards(tmp_path, text, first):
    """The cards with the value are runs of a deck kept in card order: each run is found by
    bisection (or the zone read plainly when it holds few cards for so many runs), and the
    cards come in the zone's order, as the plain filter gives."""
    rules = load_text(tmp_path, SORTED, "s.yaml")
    S = rules.new_game(2)
    fast = Compiler(rules.names).compile(text)
    plain = Compiler(rules.names, plain=True).compile(text)
    assert "_in_sorted(" in fast.source and "_in_sorted(" not in plain.source
    assert [rules.card_labels[c] for c in fast.fn(S, 0, None)] == first
    full = list(S.z["deck"])
    for drop in ([], ["3B"], ["3A", "3D", "1B"], ["3A", "3B", "3C", "3D"], ["2A", "4A", "2C", "4D", "10B"]):
        kept = [c for c in full if rules.card_labels[c] not in drop]
        # every 3rd card; 3 cards (for 4 runs: the plain loop); the lowest 32 (a run past its end)
        for deck in (kept, kept[::3], kept[::14], kept[:32]):
            S.z["deck"] = deck
            for x in (0, 1, 7):
                S.v["x"] = x
                assert fast.fn(S, 0, None) == plain.fn(S, 0, None), (drop, deck, x)


@pytest.mark.parametrize("text", ["max(0, x - 3)", "min(x, 2)", "max(x, 2.0)", "min(-x, 0.5)", "max(x, x)"])
def test_max_and_min_of_two_plain_reads_are_a_conditional_with_the_builtins_answer(rules, text):
    """max(a, b) of reads and sums is written as a conditional (no call), keeping a unless b
    is greater (smaller for min), as the builtin does: the same value and type for every x,
    and the same error for none."""
    fast, plain = Compiler(rules.names).compile(text), Compiler(rules.names, plain=True).compile(text)
    assert "max(" not in fast.source and "min(" not in fast.source and text[:4] in plain.source
    S = rules.new_game(2)
    for x in (-5, 0, 2, 3, 7, 2.0, float("nan")):
        S.v["x"] = x
        a, b = fast.fn(S, 0, None), plain.fn(S, 0, None)
        assert repr(a) == repr(b) and type(a) is type(b), (text, x)
    S.v["x"] = None
    with pytest.raises(Exception) as fast_error:
        fast.fn(S, 0, None)
    with pytest.raises(Exception) as plain_error:
        plain.fn(S, 0, None)
    assert str(fast_error.value) == str(plain_error.value)


def test_a_scanner_is_named_for_a_profile():
    """The plain loops comparisons run as are named by where they are made (a profile then says
    scanners.scanner, not <string>)."""
    from interpreter.expr.scanners import scanner
    name, fn = scanner(("Gt", "Eq"), counting=True)
    assert name == "_count_gt_eq" and fn.__code__.co_filename == "<scanners.scanner>"
    assert fn([0, 1, 2, 3], [0, 5, 5, 1], 2, [1, 1, 0, 1], 1) == 1


# ---------------------------------------------------------------------- x in A + B in a loop
@pytest.mark.parametrize("text, plain_value", [
    ("count(deck where it in pile + deck)", 10),
    ("count(deck where it not in pile + deck)", 0),
    ("count(map(deck, to: first(pile)) where it in pile + deck)", 0),       # none: in no list of cards
    ("count(map(deck, to: first(pile)) where it not in pile + deck)", 10),
])
def test_a_card_looked_for_in_zones_joined_is_found_in_the_bytes_of_their_cards(tmp_path, text, plain_value):
    """Cards numbered below 256: the joined zones' cards as bytes, built once before the loop (at
    60% of a set's cost); more cards: a set."""
    for attributes, form in (("suit: [A, B], rank: 1..5", "bytes(["), ("suit: [A, B], rank: 1..200", "{*")):
        rules = load_text(tmp_path, GAME.replace("suit: [A, B], rank: 1..5", attributes))
        S = rules.new_game(2, seed=1)
        fast = Compiler(rules.names).compile(text, has_me=True)
        plain = Compiler(rules.names, plain=True).compile(text, has_me=True)
        assert form in fast.source and "bytes(" not in plain.source, fast.source
        expected = plain_value if form == "bytes([" else plain_value * 40
        assert fast.fn(S, 0, None) == plain.fn(S, 0, None) == expected


# ---------------------------------------------------------------------- x in map(a card's zone, to: attr)
ON_TABLES = """
game: pt
players: {min: 2, max: 2}
components:
  table: {cards: [{t: a}, {t: b}, {t: c}, {t: d}], label: "{t}"}
  piece: {attributes: {seat: 0..1}, copies: 2, label: "piece{seat}"}
zones:
  tables: {start: [table]}
  box: {start: [piece]}
  on: {owner: card}
flow: []
"""


@pytest.mark.parametrize("op", ["in", "not in"])
def test_a_seat_looked_for_in_a_cards_zone_calls_no_scan_where_the_zone_is_missing_or_empty(tmp_path, op):
    """``me in map(on, to: seat)`` of each table (a zone per card: a missing entry or an empty
    list for most): no scan called for those, the same answers as the plain compile's."""
    rules = load_text(tmp_path, ON_TABLES)
    S = rules.new_game(2, seed=1)
    a, b, c, _ = S.z["tables"]
    mine, other = (next(x for x in S.z["box"] if rules.card_labels[x] == f"piece{seat}") for seat in (0, 1))
    S.z["on"].update({b: [], c: [other, mine]})   # a: no entry, b: empty, c: both seats, d: none
    text = f"map(tables where me {op} map(on, to: seat), to: t)"
    fast = Compiler(rules.names).compile(text, has_me=True)
    plain = Compiler(rules.names, plain=True).compile(text, has_me=True)
    ns, calls = rules.names.namespace, []
    scans = {name: fn for name, fn in ns.items() if name.startswith("_scan_")}
    for name, fn in scans.items():
        ns[name] = (lambda f: lambda *args: calls.append(args) or f(*args))(fn)
    try:
        for me in (0, 1):
            assert fast.fn(S, me, None) == plain.fn(S, me, None) == (["c"] if op == "in" else ["a", "b", "d"])
        calls.clear()
        fast.fn(S, 0, None)
        assert len(calls) == 1, calls   # table c's pieces only
    finally:
        ns.update(scans)


def test_a_division_gives_what_the_division_helper_gives_without_calling_it(rules):
    """An expression that is a division is Python's ``a / b`` in a try, and ``_div`` (the
    language's division) is called only where it raises: the same value and type, or the same
    error (by zero, even of none; too large for a float; not numbers), as the plain reference,
    which calls ``_div``, and no call where it divides."""
    from interpreter.expr.runtime import _div
    text = "a / b"
    fast = Compiler(rules.names).compile(text, locals={"a": ANY, "b": ANY})
    plain = Compiler(rules.names, plain=True).compile(text, locals={"a": ANY, "b": ANY})
    S, calls = rules.new_game(2), []
    watched = not loaded()["expr.runtime"]   # (the compiled tier runs expr/runtime.py as C)

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is _div.__code__:
            calls.append(frame)

    big = 10 ** 400
    for a, b, divides in ((7, 2, True), (2 ** 60 + 1, 3, True), (1.5, 0.5, True), (-0.0, 3, True), (True, 2, True),
                          (1e308, 1e-10, True), (5, 0, False), (5, 0.0, False), (5, False, False), (None, 0, False),
                          (None, 2, False), (2, None, False), (big, 3, False), (big, 1.5, False), (1.5, big, False),
                          (-big, 7, False)):
        quiet = _as_plain(plain, fast, S, {"a": a, "b": b}, calls, profile)
        assert not watched or quiet == divides, (a, b)   # (compiled, _div runs as C: no call seen)


def test_a_map_lifted_out_of_a_filter_is_looked_in_as_a_tuple_read_in_c(rules):
    """``x in map(ZONE, to: attr)`` inside a filter, the map reading nothing of the element: the
    zone's values lifted as one itemgetter's tuple (none, one or many cards), found as the plain
    reference finds them in its list."""
    texts = ["count(deck where rank in map(pile, to: rank))", "map(deck where suit not in map(pile, to: suit), to: rank)"]
    S = rules.new_game(2, seed=1)
    for text in texts:
        fast = Compiler(rules.names).compile(text)
        plain = Compiler(rules.names, plain=True).compile(text)
        assert "_itemgetter" in fast.source and "_itemgetter" not in plain.source
        for pile in ([], S.z_deck[:1], S.z_deck[3:4], S.z_deck[::3]):
            S.z_pile = pile
            assert fast(S, 0, None) == plain(S, 0, None), (text, pile)


@pytest.mark.parametrize("text", ["a // 5", "a % 5", "a // 0", "a % 0", "a // b", "5 // a"])
def test_whole_numbers_by_a_whole_number_other_than_0_divide_without_the_helper(rules, text):
    """``a // 5`` and ``a % 5`` of whole numbers are Python's operators, which raise nothing the
    helpers would turn into the language's error: the same value, or the same error (of none),
    as the plain reference, which calls ``_floordiv`` or ``_mod``; by 0, or by what is not a
    literal, the helper as before."""
    from interpreter.expr.runtime import _floordiv, _mod
    kinds = {"a": INT, "b": INT}
    fast = Compiler(rules.names).compile(text, locals=kinds)
    plain = Compiler(rules.names, plain=True).compile(text, locals=kinds)
    S, calls = rules.new_game(2), []
    watched = not loaded()["expr.runtime"]   # (the compiled tier runs expr/runtime.py as C)
    helpers = {_floordiv.__code__, _mod.__code__}

    def profile(frame, event, arg):
        if event == "call" and frame.f_code in helpers:
            calls.append(frame)

    inline = text in ("a // 5", "a % 5")
    for a, b in ((7, 2), (-7, 3), (0, -4), (2 ** 63 - 1, 7), (-2 ** 63, -1), (None, 3), (3, None), (4, 0)):
        quiet = _as_plain(plain, fast, S, {"a": a, "b": b}, calls, profile)
        assert not watched or quiet == inline, (a, b)   # (compiled, the helpers run as C)


def _as_plain(plain, fast, S, L, calls: list, profile) -> bool:
    """The fast expression's value (or error: its type, text and description) for locals ``L``
    is the plain reference's; whether ``profile``, set while the fast one runs, saw no call."""
    import sys
    from interpreter.expr.messages import describe
    try:
        want: object = plain.fn(S, 0, L)
    except Exception as e:   # noqa: BLE001 - whatever it raises, the fast one must raise alike
        want = e
    del calls[:]
    sys.setprofile(profile)
    try:
        got: object = fast.fn(S, 0, L)
    except Exception as e:   # noqa: BLE001
        got = e
    finally:
        sys.setprofile(None)
    if isinstance(want, Exception):
        assert type(got) is type(want) and str(got) == str(want) and describe(got) == describe(want), (L, got)
    else:
        assert repr(got) == repr(want) and type(got) is type(want), L
    return not calls
