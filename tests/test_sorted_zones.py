"""A zone declared `sorted: true` is in card order after anything: the engine's moves, a shuffle
or a move to its bottom (warned about), collected tricks, a scenario patch, a loaded state."""
import json
import random
import textwrap

import pytest

import interpreter
from interpreter.errors import RulesetError
from interpreter.play.checks.scenarios import patch
from helpers import load_text, tiny_ruleset

BASE = tiny_ruleset("""
  pile: {visible: all, sorted: true}
  hand: {owner: player, visible: owner}
  won: {owner: player, sorted: true}
  table: {visible: all}
vars:
  x: int
""", game="s", attributes="suit: [A, B], rank: 1..6")


def load(tmp_path, body, base=BASE):
    return load_text(tmp_path, textwrap.dedent(base) + textwrap.dedent(body), "s.yaml")


def in_order(S):
    for name in S.rules.sorted_zones:
        parts = [S.z[name]] if S.rules.zone_owner[name] == "none" else S.z[name]
        for part in parts:
            if part != sorted(part):
                return False
    return True


def test_a_shuffle_or_a_bottom_move_leaves_a_sorted_zone_in_order(tmp_path):
    r = load(tmp_path, """
    flow:
      - shuffle: deck
      - move: {from: deck, to: pile, count: 5, bottom: true}
      - move: {from: deck, to: pile, count: 1, bottom: true}
      - shuffle: pile
      - choose: {who: 0, options: "[1, 2]", as: x}
    """)
    assert [w.code for w in r.warnings if w.code == "sorted"] == ["sorted", "sorted", "sorted"]
    S = r.new_game(2, seed=3)
    assert len(S.z["pile"]) == 6 and S.z["pile"] == sorted(S.z["pile"])


def test_collected_tricks_go_in_order_and_a_sorted_trick_table_is_refused(tmp_path):
    flow = """
    flow:
      - deal: {from: deck, to: hand, count: 6}
      - tricks: {hand: hand, table: table, leader: 0, rank: rank, collect: won}
    """
    r = load(tmp_path, flow)
    S = r.new_game(2, seed=5)
    while not S.over:
        S.apply_index(random.Random(len(S.z["table"])).randrange(len(S.dec[1])))
        assert in_order(S)
    assert sum(len(w) for w in S.z["won"]) == 12
    with pytest.raises(RulesetError, match="keeps the order of play"):
        load(tmp_path, flow, BASE.replace("table: {visible: all}", "table: {visible: all, sorted: true}"))


def test_a_patch_or_a_loaded_state_is_put_in_order(tmp_path):
    r = load(tmp_path, """
    flow:
      - choose: {who: 0, options: "[1, 2]", as: x}
    """)
    S = r.new_game(2, seed=1)
    patch(S, {"zones": {"pile": ["6A", "1B", "3A"], "won": {"1": ["5B", "2A"]}}})
    assert in_order(S) and len(S.z["pile"]) == 3 and len(S.z["won"][1]) == 2
    d = json.loads(S.to_json())
    d["zones"]["pile"].reverse()
    T = r.state_from_json(json.dumps(d))
    assert T.z["pile"] == S.z["pile"]


@pytest.mark.parametrize("name", ["diamonds", "diams", "mister_diamond", "diamonds_club"])
def test_sorted_zones_are_in_order_after_every_decision_of_random_games(name):
    rules = interpreter.load(interpreter.ruleset_path(name))
    rnd = random.Random(11)
    for seed in range(2):
        S = rules.new_game(4, seed=seed)
        assert in_order(S)
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
            assert in_order(S), (name, seed)


def test_lookups_by_attribute_in_a_sorted_zone_equal_a_scan(tmp_path):
    """first(Z where ATTR == X) and Z where ATTR == X and ... over a sorted zone find the cards
    with X by bisection (a slice when the cards with X are a run of card numbers: the suits
    here; each card otherwise: the ranks), and distinct(map(Z, to: ATTR)) jumps over such runs:
    the same answers as a scan, for many zone contents and values."""
    from interpreter.expr.compiler import Compiler
    r = load(tmp_path, "flow:\n  - choose: {who: 0, options: \"[1, 2]\", as: x}\n")
    compiler = Compiler(r.names)
    texts = ["first(pile where rank == x)", "pile where rank == x", "pile where rank == x and suit == 'A'",
             "first(pile where suit == 'B')", "pile where suit == 'B'",
             "distinct(map(pile, to: suit))", "distinct(map(pile, to: rank))",
             "pile where suit == 'A' and rank != x and rank > 1"]   # (every conjunct after the first kept)
    fast = {t: compiler.compile(t).fn for t in texts}
    assert all(any(f"{helper}(" in compiler.compile(t).source for helper in ("_first_sorted", "_in_sorted",
                                                                            "_distinct_sorted"))
               for t in texts)
    rank, suit = r.attr_tables["rank"], r.attr_tables["suit"]
    reference = {
        texts[0]: lambda z, x: next((c for c in z if rank[c] == x), None),
        texts[1]: lambda z, x: [c for c in z if rank[c] == x],
        texts[2]: lambda z, x: [c for c in z if rank[c] == x and suit[c] == "A"],
        texts[3]: lambda z, x: next((c for c in z if suit[c] == "B"), None),
        texts[4]: lambda z, x: [c for c in z if suit[c] == "B"],
        texts[5]: lambda z, x: list(dict.fromkeys(suit[c] for c in z)),
        texts[6]: lambda z, x: list(dict.fromkeys(rank[c] for c in z)),
        texts[7]: lambda z, x: [c for c in z if suit[c] == "A" and rank[c] != x and rank[c] > 1],
    }
    rnd = random.Random(2)
    S = r.new_game(2, seed=1)
    for _ in range(300):
        S.z["pile"] = sorted(rnd.sample(range(len(r.cards)), rnd.randint(0, len(r.cards))))
        S.v["x"] = rnd.choice([0, 1, 3, 6, 7, None, 2.0])
        for t in texts:
            assert fast[t](S, 0, None) == reference[t](S.z["pile"], S.v["x"]), (t, S.z["pile"], S.v["x"])


def test_the_attribute_index_holds_runs_of_card_numbers():
    """Cards with one value that follow each other are one run (first, last); each card knows
    the last card of its run (what distinct() jumps to); NaN equals nothing and has no run."""
    from interpreter.expr.runtime import _RUN_END, _distinct_sorted, _in_sorted, attribute_index
    table = ("a", "a", "b", "a", float("nan"), "b", "b")
    index = attribute_index(table)
    assert index["a"] == ((0, 1), (3, 3)) and index["b"] == ((2, 2), (5, 6))
    assert index[_RUN_END] == (1, 1, 2, 3, 4, 6, 6)
    zone = [0, 1, 3, 4, 6]
    assert _in_sorted(zone, table, index, "a") == [0, 1, 3] and _in_sorted(zone, table, index, "b") == [6]
    assert repr(_distinct_sorted(zone, table, index)) == repr(list(dict.fromkeys(table[c] for c in zone))) \
        == "['a', nan, 'b']"


def test_first_sorted_skips_runs_outside_the_zone():
    """Runs of cards below the zone's first card or above its last (another component sharing
    the attribute) are passed over or end the search: the answer is still the plain loop's."""
    from interpreter.expr.runtime import _first_sorted, attribute_index
    table = tuple("ab"[i % 2] if i < 40 else "abc"[(i // 5) % 3] for i in range(100))
    index = attribute_index(table)
    rnd = random.Random(5)
    for _ in range(500):
        lo = rnd.randint(0, 100)
        zone = sorted(rnd.sample(range(lo, 100), rnd.randint(0, 100 - lo)))
        for value in "abcz":
            assert _first_sorted(zone, table, index, value) == next((c for c in zone if table[c] == value), None)


def test_a_card_taken_out_of_a_sorted_zone_by_bisection_as_list_remove_takes_it():
    """A one-card move out of a zone kept in card order finds the card by bisection: the zone
    left is list.remove's, and a card not there (or none) is list.remove's error."""
    from interpreter.expr.runtime import _remove_sorted
    rnd = random.Random(3)
    for _ in range(300):
        zone = sorted(rnd.sample(range(60), rnd.randint(0, 20)))
        for card in (rnd.choice(zone) if zone else 0, rnd.randrange(60), None, 61):
            mine, theirs = list(zone), list(zone)
            try:
                theirs.remove(card)
            except ValueError as e:
                with pytest.raises(ValueError, match=str(e).replace("(", r"\(").replace(")", r"\)")):
                    _remove_sorted(mine, card)
            else:
                _remove_sorted(mine, card)
            assert mine == theirs


LONG_PILE = """
  pile: {visible: all%s}
  table: {visible: all}
setup:
  - move: {from: deck, to: pile, count: 40}
flow:
  - move: {from: pile, to: table, cards: "[first(pile where rank == 3), last(pile), first(pile)]"}
  - move: {from: pile, to: table, cards: "pile where rank == 5"}
  - choose: {who: 0, options: "[1]", as: x}
  - move: {from: pile, to: table, cards: "%s"}
vars:
  x: int
scoring:
  categories: {n: "count(table)"}
"""


def test_a_few_cards_taken_out_of_a_long_sorted_zone_as_list_remove_takes_them(tmp_path):
    """Past 24 cards, a few cards moved out of a sorted zone are found by bisection (mechanics/
    cards.py LONG): the cards named leave, the zone stays in order, and a card that is not
    there fails as it does from a zone not sorted (list.remove)."""
    from interpreter.errors import GameError
    base = tiny_ruleset(attributes="suit: [A, B], rank: 1..20")
    taken, errors = [], []
    for sort in (", sorted: true", ""):
        ok = load(tmp_path, LONG_PILE % (sort, "[first(pile where rank == 7)]"), base)
        assert ("_remove_sorted" in ok.module_source) == bool(sort)
        S = ok.new_game(2, seed=1)
        assert len(S.z["pile"]) == 35 and (in_order(S) or not sort)
        S.apply_index(0)
        assert len(S.z["pile"]) == 34
        taken.append([ok.card_labels[c] for c in S.z["table"]])
        bad = load(tmp_path, LONG_PILE % (sort, "[first(table), first(pile)]"), base)
        S = bad.new_game(2, seed=1)
        with pytest.raises(GameError) as e:
            S.apply_index(0)
        errors.append(e.value.message)
    assert taken[0] == ["3A", "20B", "1A", "5A", "5B", "7A"] and len(set(taken[1])) == 6
    assert errors[0] == errors[1] and "a card is not in the zone it is taken from" in errors[0]
