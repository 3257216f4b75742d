"""The market mechanisms (docs/mechanics/diams.md), each on a tiny ruleset of its own."""
from __future__ import annotations

import textwrap
import time

import pytest

from interpreter.expr.compiler import Compiler
from interpreter.errors import RulesetError
from helpers import load_text

BASE = """
game: m
players: {min: 2, max: 4}
components:
  gem: {attributes: {value: 1..6}, copies: 3, label: "{value}"}
  special: {cards: [{power: steal}], label: "S-{power}"}
  bell: {label: bell}
zones:
  stock: {start: [gem, special, bell], visible: none}
  pile: {visible: none}
  market: {visible: all}
  hand: {owner: player, visible: owner, sorted: true}
  vault: {owner: player, visible: owner, sorted: true}
  outbox: {}
  discard: {}
counters:
  points: {owner: player}
  tokens: {owner: player}
vars:
  x: {type: int, start: 0}
  turn_player: player
  ender: player
  picked_set: "list[card]"
"""


def load(tmp_path, body, name="m.yaml"):
    return load_text(tmp_path, textwrap.dedent(BASE) + textwrap.dedent(body), name)


def labels(r, cards):
    return [r.card_labels[c] for c in cards]


def put(r, S, zone, labs, owner=None):
    """Place cards by label (taking unused ids) into a zone, out of the stock."""
    ids = []
    for lab in labs:
        c = next(i for i in S.z["stock"] if r.card_labels[i] == lab)
        S.z["stock"].remove(c)
        ids.append(c)
    (S.z[zone] if owner is None else S.z[zone][owner]).extend(ids)
    return ids


# ---------------------------------------------------------------------- combos / sums / groups
COMBO_GAME = """
flow:
  - move: {from: stock, to: market, cards: "stock where kind == 'gem' and value <= 4"}
  - choose: {who: 0, options: "combos(market, by: value, total: 5)", as: picked_set, prompt: take}
  - move: {from: market, to: "hand[0]", cards: picked_set}
"""


def test_combos_offers_each_distinct_multiset_once_labelled_with_plus(tmp_path):
    r = load(tmp_path, COMBO_GAME)
    S = r.new_game(2)
    # market: three each of 1, 2, 3, 4; identical cards are interchangeable
    assert S.legal_actions() == ["4+1", "3+2", "3+1+1", "2+2+1", "2+1+1+1"]
    S.apply("2+2+1")
    assert sorted(labels(r, S.z["hand"][0])) == ["1", "2", "2"] and len(S.z["market"]) == 9


def test_combos_ignores_values_that_are_not_positive_and_a_total_nobody_reaches(tmp_path):
    r = load(tmp_path, """
    flow:
      - set: {x: "count(combos(stock, by: value, total: 100))"}
      - choose: {who: 0, options: "combos(stock, by: value, total: 1)", as: picked_set}
    """)
    S = r.new_game(2)
    assert S.v["x"] == 0
    assert S.legal_actions() == ["1"]     # the special and bell cards (no value) never take part


def test_combos_on_a_15_card_market_is_fast(tmp_path):
    r = load(tmp_path, """
    flow:
      - move: {from: stock, to: market, cards: "stock where kind == 'gem' and value <= 5"}
      - choose: {who: 0, options: "combos(market, by: value, total: 10)", as: picked_set}
    """)
    S = r.new_game(2)
    assert len(S.z["market"]) == 15
    fn = r.names.namespace["_combos"]
    key = r.attr_tables["value"].__getitem__
    start = time.perf_counter()
    for _ in range(10):
        sets = fn(S, S.z["market"], key, 10, True)
    per_call = (time.perf_counter() - start) / 10
    assert per_call < 0.050, per_call
    assert len(sets) == len(S.legal_actions()) == len({tuple(sorted(labels(r, s))) for s in sets})
    assert all(sum(key(c) for c in s) == 10 for s in sets)
    # every multiset of values 1..5 (at most 3 of each) adding to 10 is there
    from itertools import product
    expect = sum(1 for k in product(range(4), repeat=5) if sum((i + 1) * n for i, n in enumerate(k)) == 10)
    assert len(sets) == expect


def test_combos_equals_a_brute_force_enumeration_in_the_documented_order():
    """On random markets (identical cards, cards of the same value with other labels, values
    above the total): every distinct multiset adding up to the total, once, in the order of the
    docs: groups of identical cards by decreasing value (then label), more of a group first."""
    import random
    from itertools import product
    from interpreter.mechanics.market import _combos

    class Rules:
        card_labels = None

    class State:
        rules = Rules()
    rnd = random.Random(11)
    for _ in range(300):
        cards = [(rnd.randint(1, 9), rnd.choice("ab")) for _ in range(rnd.randint(0, 14))]
        State.rules.card_labels = [f"{v}{x}" for v, x in cards]
        total = rnd.randint(1, 12)
        got = _combos(State, list(range(len(cards))), lambda c, cards=cards: cards[c][0], total, True)
        groups = sorted({(v, f"{v}{x}") for v, x in cards if v <= total}, key=lambda g: (-g[0], g[1]))
        members = [[c for c in range(len(cards)) if f"{cards[c][0]}{cards[c][1]}" == g[1]] for g in groups]
        counts = [k for k in product(*(range(len(m) + 1) for m in members))
                  if sum(n * g[0] for n, g in zip(k, groups)) == total]
        counts.sort(key=lambda k: tuple(-n for n in k))
        expect = [[c for n, m in zip(k, members) for c in m[:n]] for k in counts]
        assert got == expect, (cards, total)


def test_combos_by_an_attribute_gives_the_general_answer():
    """combos() of cards by an attribute lookup (_combos_by, no key call a card) gives the
    general path's sets in its order: on random markets of whole values, with labels shared by
    cards of other values (a group takes its first card's value), values that never take part
    (none, yes/no, 0, negative, above the total), and the cases it hands to the general path
    (a fractional total, a total out of reach, a total past MAX_SUM with values past it)."""
    import random
    from interpreter.mechanics.market import MAX_SUM, _combos, _combos_by, weights_of

    class Rules:
        card_labels = None

    class State:
        rules = Rules()
    rnd = random.Random(5)
    odd = [None, True, False, 0, -2, "x"]   # (a table with fractional values is compiled to _combos)
    for trial in range(600):
        size = rnd.randint(0, 16)
        values = [rnd.choice(odd) if rnd.random() < 0.1 else rnd.randint(1, 11) for _ in range(size)]
        if trial % 7 == 0:   # only whole values
            values = [v if type(v) is int else 3 for v in values]
        State.rules.card_labels = [f"{rnd.randint(1, 6)}{rnd.choice('ab')}" for _ in range(size)]
        if trial % 5 == 0:   # values and totals past the weights' range
            values = [MAX_SUM + v if type(v) is int and v < 4 else v for v in values]
        table = tuple(values)
        total = rnd.choice([rnd.randint(0, 14), rnd.randint(1, 10), 4.0, 3.5, 200, MAX_SUM + rnd.randint(1, 12)])
        expect = _combos(State, list(range(size)), table.__getitem__, total, True)
        assert _combos_by(State, list(range(size)), table, weights_of(table), total) == expect, (values, total)
        assert _combos_by(State, list(range(size))[::-1], table, weights_of(table), total) == \
            _combos(State, list(range(size))[::-1], table.__getitem__, total, True)
    # more different cards than combos() considers: the same error, even for a total out of reach
    from interpreter.mechanics.market import MAX_GROUPS
    from interpreter.expr.runtime import ExprRuntimeError
    State.rules.card_labels = [str(i) for i in range(MAX_GROUPS + 1)]
    many = tuple(1 for _ in range(MAX_GROUPS + 1))
    for total in (3, 10**6):
        with pytest.raises(ExprRuntimeError):
            _combos(State, list(range(MAX_GROUPS + 1)), many.__getitem__, total, True)
        with pytest.raises(ExprRuntimeError):
            _combos_by(State, list(range(MAX_GROUPS + 1)), many, weights_of(many), total)


def test_combos_by_an_attribute_is_compiled_to_the_table_lookup(tmp_path):
    r = load(tmp_path, """
    flow:
      - move: {from: stock, to: market, cards: "stock where kind == 'gem' and value <= 5"}
      - choose: {who: 0, options: "combos(market, by: value, total: 10)", as: picked_set}
    """)
    step = next(s for s in r.steps if type(s).__name__ == "Choose")
    assert "_combos_by(S," in step.options.source
    S = r.new_game(2)
    key = r.attr_tables["value"].__getitem__
    assert list(S.dec[1]) == r.names.namespace["_combos"](S, S.z["market"], key, 10, True)


def test_combos_by_a_fractional_attribute_is_compiled_to_the_general_walk(tmp_path):
    """An attribute with a fractional value (a half) is not looked up by whole weights: the
    general walk, which adds halves up to a whole total."""
    r = load_text(tmp_path, textwrap.dedent("""
    game: f
    players: {min: 2, max: 2}
    components:
      gem: {cards: [{weight: 0.5}, {weight: 0.5}, {weight: 1}, {weight: 1.5}, {weight: 2}], label: "g{weight}"}
    zones:
      market: {start: [gem], visible: all}
    vars:
      picked_set: "list[card]"
    flow:
      - choose: {who: 0, options: "combos(market, by: weight, total: 2)", as: picked_set}
    """), "f.yaml")
    step = next(s for s in r.steps if type(s).__name__ == "Choose")
    assert "_combos_by(S," not in step.options.source and "_combos(S," in step.options.source
    S = r.new_game(2)
    key = r.attr_tables["weight"].__getitem__
    assert sorted(key(c) for c in S.z["market"]) == [0.5, 0.5, 1, 1.5, 2]
    assert list(S.dec[1]) == r.names.namespace["_combos"](S, S.z["market"], key, 2, True) != []


@pytest.mark.parametrize("total, measured", [
    ("5", False),                  # (at most 5 cards of value 1 or more: 5 labels of 7 characters, their +)
    ("first(hand).value", False),  # (a card's value: at most 6, the attribute's greatest)
    ("26", True),                  # (26 cards of value 1: past MAX_LABEL)
    ("count(hand)", True),         # (not bounded: as many cards as the market may hold, 62)
])
def test_combos_labels_bounded_by_the_total_over_the_least_value_are_not_measured(tmp_path, total, measured):
    """A set combos() returns holds at most the total's greatest over the least positive value
    (market_costs.set_bound): where that keeps its label within MAX_LABEL, the choose offers the
    sets unmeasured (labels.short_labels), in the module and its plain reference alike."""
    from fuzzing.lockstep import reference
    from interpreter.building.listing import listing
    r = load_text(tmp_path, textwrap.dedent(BASE).replace("copies: 3", "copies: 10") + textwrap.dedent(f"""
    flow:
      - move: {{from: stock, to: market, cards: "stock where kind == 'gem' and value <= 2"}}
      - move: {{from: market, to: "hand[0]", cards: "[first(market)]"}}
      - choose: {{who: 0, options: "combos(market, by: value, total: {total})", as: picked_set}}
    """), "m.yaml")
    assert ("rules.fit(" in listing(r)) == measured
    offers = [way.new_game(2, 0).legal_actions() for way in (r, reference(r))]
    assert offers[0] == offers[1] and offers[0]


def test_combos_of_a_total_beyond_reach_or_of_large_values_is_fast():
    """A total beyond the sum of all the values has no set: it is answered at once, without a
    bitset as wide as the total (combos(hand, by: rank, total: 3037000499) took seconds and
    hundreds of megabytes; found by the expression fuzzer). Large values are enumerated
    without a bitset as wide as their sum, and give the same sets as small ones scaled."""
    from interpreter.mechanics.market import _combos

    class State:
        class rules:
            card_labels = [f"{v}{x}" for v in range(1, 7) for x in "ab"]
    items, value = list(range(12)), lambda c: c // 2 + 1
    start = time.perf_counter()
    assert _combos(State, items, value, 3037000499, True) == []
    big = _combos(State, items, lambda c: value(c) * 10**12, 9 * 10**12, True)
    assert time.perf_counter() - start < 0.5
    assert big == _combos(State, items, value, 9, True) and len(big) > 5
    huge = _combos(State, items, lambda c: value(c) * 2**60 + 1, 2 * (2**60 + 1), True)   # (exact)
    assert huge == [[0, 1]]


def test_groups_by_an_attribute_gives_the_general_answer():
    """groups() by a table lookup (_groups_by, no key call an element) gives _groups()' groups in
    its order, for a table whose values a dict tells apart as _groups does (_keys_apart: no truth
    or fraction beside another number); none is a value, an unhashable value goes the general
    way, a failing lookup raises the same error."""
    import random
    from interpreter.mechanics.market import _groups, _groups_by, _keys_apart
    rnd = random.Random(3)
    pools = ([1, 2, 3, None, "a", "b", 0], [1.0, 2.5, None, "a"], [True, False, None, "a"], [1, 2, 1.0, True, None, "a"])
    for k in range(400):
        table = tuple(rnd.choice(pools[k % 4]) for _ in range(12))
        items = [rnd.randrange(12) for _ in range(rnd.randint(0, 15))]
        assert _keys_apart(table) is (k % 4 < 3 or not {type(v) for v in table} & {bool, float}
                                      or len({type(v) for v in table} & {bool, int, float}) == 1)
        if _keys_apart(table):
            assert _groups_by(items, table) == _groups(items, table.__getitem__)
    table = ([1], [1], 2)
    assert _groups_by([0, 2, 1], table) == _groups([0, 2, 1], table.__getitem__) == [[0, 1], [2]]
    with pytest.raises(TypeError):
        _groups_by([0, None], (1, 2))


def test_groups_keys_are_told_apart_by_type_and_value():
    """groups(L, by: K) of values of type any (_groups, which the module and its plain reference
    both call): true, 1 and 1.0 are three groups, and [1] and '[1]' two (a list was keyed by its
    text, merging it with that string)."""
    from interpreter.mechanics.market import _groups
    assert _groups([[1], "[1]", [1], [True]], lambda x: x) == [[[1], [1]], ["[1]"], [[True]]]
    assert _groups([True, 1, 1.0, 1], lambda x: x) == [[True], [1, 1], [1.0]]


def test_sums_and_groups(tmp_path):
    r = load(tmp_path, """
    vars2: {}
    flow:
      - move: {from: stock, to: market, cards: "stock where value == 2 or value == 5"}
      - set: {x: "count(sums(market, by: value))"}
      - set: {picked_set: "first(groups(market, by: value) where count(it) >= 3)"}
    """.replace("vars2: {}", ""))
    S = r.new_game(2)
    fn = r.names.namespace["_sums"]
    assert fn(S.z["market"], r.attr_tables["value"].__getitem__) == [2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 21]
    assert S.v["x"] == 15
    assert labels(r, S.v["picked_set"]) == ["2", "2", "2"]


def test_membership_in_sums_is_a_bit_test_with_list_semantics(tmp_path):
    """`x in sums(...)` compiles to a bit test on the reachable totals (no list is built); it
    answers exactly as membership in the list would, for every kind of x."""
    r = load(tmp_path, """
    flow:
      - move: {from: stock, to: market, cards: "stock where value == 2 or value == 5"}
    """)
    S = r.new_game(2)
    ns = r.names.namespace
    key = eval("lambda c: A_value[c]", ns)
    listed = ns["_sums"](S.z["market"], key)
    bits = ns["_sum_bits"](S.z["market"], key)
    for x in [-3, 0, 1, 2, 3, 4, 21, 22, 10**9, 2.0, 2.5, True, False, None, "2", float("inf"), float("nan")]:
        assert ns["_has_sum"](bits, x) == (x in listed), x
    compiler = Compiler(r.names)
    fast = compiler.compile("count(stock where value in sums(market, by: value))")
    slow = compiler.compile("count(stock where value in sums(market, by: value) + [])")
    assert "_has_sum" in fast.source and "_has_sum" not in slow.source
    assert fast(S) == slow(S) > 0
    negated = compiler.compile("count(stock where value not in sums(market, by: value))")
    assert negated(S) == len(S.z["stock"]) - fast(S)



def test_sums_match_a_reference_for_short_and_long_lists():
    """The reachable totals, for lists short enough to grow freely and long ones capped as they
    grow, against a set-based reference; values that are not whole positive numbers never count."""
    import random
    from interpreter.mechanics.market import MAX_SUM, _sums

    def reference(values):
        reach = {0}
        for v in values:
            if type(v) is int and 0 < v <= MAX_SUM:
                reach |= {r + v for r in reach if r + v <= MAX_SUM}
        return sorted(r for r in reach if r)

    rnd = random.Random(5)
    for n in (0, 1, 7, 64, 65, 150):
        for _ in range(5):
            values = [rnd.choice([rnd.randint(-2, 12), 2.5, None, True, MAX_SUM, MAX_SUM + 1]) for _ in range(n)]
            assert _sums(values, lambda x: x) == reference(values)

def test_combos_needs_by_and_total(tmp_path):
    with pytest.raises(RulesetError, match="combos\\(\\) needs total:"):
        load(tmp_path, """
        flow:
          - set: {x: "count(combos(stock, by: value))"}
        """)


# ---------------------------------------------------------------------- a refilled market
MARKET = """
triggers:
  refill:
    when: "count(market where value != none) == 0"
    do: [{move: {from: pile, to: market, count: 3}}]
  special_drawn:
    on_enter: market
    if: "card.kind == 'special'"
    do:
      - move: {from: market, to: discard, cards: "[card]"}
      - move: {from: pile, to: market, count: 1}
setup:
  - move: {from: stock, to: "hand[0]", cards: "[first(stock where value == 2), first(stock where value == 5)]"}
  - move: {from: stock, to: pile, cards: "stock where value == 1 or value == 2"}
  - move: {from: stock, to: pile, cards: "stock where kind == 'special'"}
  - move: {from: stock, to: pile, cards: "stock where value == 5"}
flow:
  - turns:
      rounds: 2
      steps:
        # show a card: take every market card of the same value
        - choose:
            options: "hand where value in map(market, to: value)"
            as: shown
            prompt: show
            then: [{move: {from: market, to: hand, cards: "market where value == shown.value"}}]
"""


def test_market_refills_when_empty_and_special_cards_are_replaced(tmp_path):
    r = load(tmp_path, MARKET)
    S = r.new_game(2)
    # the first check filled the empty market from the pile top (5, 5, special): the special
    # card is discarded and replaced by the next card (a 2)
    assert labels(r, S.z["market"]) == ["5", "5", "2"] and labels(r, S.z["discard"]) == ["S-steal"]
    assert S.legal_actions() == ["2", "5"]
    S.apply("5")                               # takes every 5 of the market, keeps the shown one
    assert labels(r, S.z["hand"][0]) == ["2", "5", "5", "5"] and labels(r, S.z["market"]) == ["2"]
    assert S.current_player() == 0             # seat 1 has nothing to show: no decision
    S.apply("2")                               # the last card of the market: it refills at once
    assert labels(r, S.z["market"]) == ["2", "1", "1"] and len(S.z["pile"]) == 1


# ---------------------------------------------------------------------- a hand limit
def test_hand_limit_with_choice_and_a_destination_per_kind(tmp_path):
    r = load(tmp_path, """
    flow:
      - move: {from: stock, to: "hand[0]", cards: "stock where value == 1 or kind == 'special'"}
      - with_player:
          who: 0
          do: [{set: {x: "count(hand) - 2"}}]
      - pick:
          who: 0
          from: hand
          to: outbox
          count: x
          prompt: discard
          then:
            - if: "card.kind == 'special'"
              then: [{move: {from: outbox, to: discard, cards: "[card]"}}]
              else: [{move: {from: outbox, to: market, cards: "[card]"}}]
    """)
    S = r.new_game(2)
    assert S.prompt() == "discard" and S.legal_actions() == ["1", "S-steal"]   # identical 1s: one option
    S.apply("S-steal")
    S.apply("1")
    assert S.is_terminal()
    assert labels(r, S.z["discard"]) == ["S-steal"] and labels(r, S.z["market"]) == ["1"]
    assert labels(r, S.z["hand"][0]) == ["1", "1"] and S.z["outbox"] == []


# ---------------------------------------------------------------------- a pile built in two parts
def test_a_card_shuffled_into_the_bottom_part_of_the_pile(tmp_path):
    r = load(tmp_path, """
    zones2: {}
    flow:
      - move: {from: stock, to: outbox, cards: "stock where kind == 'bell'"}
      - shuffle: stock
      - move: {from: stock, to: discard, count: 4}
      - move: {from: outbox, to: discard}
      - shuffle: discard
      - move: {from: stock, to: pile}
      - move: {from: discard, to: pile, bottom: true}
    """.replace("zones2: {}", ""))
    for seed in range(20):
        S = r.new_game(2, seed)
        kinds = [r.attr_tables["kind"][c] for c in S.z["pile"]]
        assert len(kinds) == 20 and kinds.index("bell") < 5       # among the 5 lowest cards


# ---------------------------------------------------------------------- an end triggered by a card
def test_drawing_a_card_ends_the_round_after_one_more_turn_each_without_drawing(tmp_path):
    r = load(tmp_path, """
    triggers:
      bell_drawn:
        on_enter: hand
        if: "card.kind == 'bell'"
        do: [{set: {ender: turn_player}}]
    flow:
      - move: {from: stock, to: pile, cards: "stock where value == 1"}
      - move: {from: stock, to: pile, cards: "stock where kind == 'bell'"}
      - move: {from: stock, to: pile, cards: "stock where value == 2"}
      - turns:
          until: "ender != none and turn_player == right(ender)"
          steps:
            - branch:
                options:
                  draw: {if: "ender == none", steps: [{move: {from: pile, to: hand, count: 1}}]}
            - branch:
                options:
                  play: {steps: [{gain: {counter: points}}]}
    """)
    S = r.new_game(3)
    seq = []
    while not S.is_terminal():
        seq.append((S.current_player(), S.legal_actions()[0]))
        S.apply_index(0)
    # three 2s are drawn by seats 0, 1, 2; seat 0 draws the bell; seats 1 and 2 play without drawing
    assert seq == [(0, "draw"), (0, "play"), (1, "draw"), (1, "play"), (2, "draw"), (2, "play"),
                   (0, "draw"), (0, "play"), (1, "play"), (2, "play")]
    assert S.v["ender"] == 0 and S.c["points"] == [2, 2, 2]


# ---------------------------------------------------------------------- dual-use cards, targeted safes
DUAL = """
flow:
  - move: {from: stock, to: "hand[0]", cards: "stock where kind == 'special'"}
  - move: {from: stock, to: "vault[1]", cards: "stock where value == 3"}
  - turns:
      rounds: 1
      steps:
        - branch:
            prompt: action
            options:
              normal: {steps: [{gain: {counter: points}}]}
              sale:
                if: "any(hand, by: kind == 'special')"
                steps:
                  - move: {from: hand, to: discard, cards: "hand where kind == 'special'"}
                  - gain: {counter: points, amount: 10}
              steal:
                if: "any(hand, by: power == 'steal')"
                steps:
                  - move: {from: hand, to: discard, cards: "hand where power == 'steal'"}
                  - choose: {options: "players where it != me", as: ender, prompt: target}
                  - choose: {options: "1..6", as: x, prompt: value}
                  - choose:
                      who: ender
                      options: "vault[ender] where value == x"
                      as: shown
                      prompt: give
                      then: [{move: {from: vault, to: "hand[turn_player]", cards: "[shown]"}}]
"""


def test_a_card_with_two_uses_replaces_a_phase_and_is_discarded(tmp_path):
    r = load(tmp_path, DUAL)
    S = r.new_game(2)
    assert S.legal_actions() == ["normal", "sale", "steal"]
    S.apply("sale")
    assert S.c["points"][0] == 10 and labels(r, S.z["discard"]) == ["S-steal"]
    assert S.current_player() == 1 and S.legal_actions() == ["normal"]


def test_a_targeted_action_on_a_face_down_zone_seen_only_by_its_owner(tmp_path):
    r = load(tmp_path, DUAL)
    S = r.new_game(2)
    assert S.observation(1)["zones"]["vault"][1] == ["3", "3", "3"]
    assert S.observation(0)["zones"]["vault"][1] == 3                  # only the count
    S.apply("steal")
    S.apply("p1")
    assert S.legal_actions() == [str(v) for v in range(1, 7)]          # every value: nothing leaks
    S.apply("3")
    assert S.current_player() == 1 and S.prompt() == "give"
    assert "legal_actions" in S.observation(1) and "legal_actions" not in S.observation(0)
    S.apply("3")
    assert labels(r, S.z["hand"][0]) == ["3"] and len(S.z["vault"][1]) == 2
    assert S.observation(0)["zones"]["hand"][0] == ["3"] and S.observation(1)["zones"]["hand"][0] == 1


# ---------------------------------------------------------------------- rank-based tokens
RANKS = """
params:
  awards: [4, 3, 2, 1, 0]
  round_points: [[5, 5, 1, 0], [1, 9, 9, 0], [2, 2, 2, 2]]
vars2: {}
flow:
  - repeat: 3
    as: rnd
    steps:
      - reset: [points]
      - for_each:
          in: players
          as: me
          do: [{gain: {counter: points, amount: "params.round_points[rnd - 1][me]"}}]
      - for_each:
          in: players
          as: me
          do: [{gain: {counter: tokens, amount: "params.awards[count(players where points >= points[me]) - 1]"}}]
      - choose: {who: 0, options: "[1]", as: x}
end_when: ["rnd == 2 and any(players, by: tokens >= 7)"]
scoring:
  categories: {tokens: tokens}
  tiebreak: [points]
"""


def test_rank_tokens_share_the_lower_award_accumulate_and_break_ties_on_the_last_round(tmp_path):
    r = load(tmp_path, RANKS.replace("vars2: {}", ""))
    S = r.new_game(4)
    assert S.c["tokens"] == [3, 3, 2, 1]          # 5, 5, 1, 0: two leaders get 3 each
    S.apply("1")
    assert S.c["tokens"] == [5, 6, 5, 2]          # 1, 9, 9, 0: 2, 3, 3, 1 more
    S.apply("1")
    assert S.c["tokens"] == [6, 7, 6, 3] and S.is_terminal() is False   # all tied at 2: 1 each
    S.apply("1")
    assert S.is_terminal() and S.winners() == [1]


def test_an_early_win_ends_the_game_at_once(tmp_path):
    r = load(tmp_path, RANKS.replace("vars2: {}", "").replace("tokens >= 7", "tokens >= 6"))
    S = r.new_game(4)
    S.apply("1")
    assert S.is_terminal() and S.v["rnd"] == 2 and S.winners() == [1]
