"""A built-in that walks its whole list in C or in a helper's loop (max(L), sum(L), top(L, by: K),
groups(L, by: K), a range built, two lists compared...) is weighed per element of its list at its
longest (expr/walks.py), and combos()' search counts its work as it runs, stops past
MAX_SEARCH_WORK and is weighed the smaller of that and a static bound (mechanics/market.py).

Each walk's charge is checked against the elements it reads, counted as it runs on the worst list
(a list variable of 10,000 values, its bound), at the operations per element
``python benchmarks/walk_costs.py`` measures (one operation: one of a filter's body, about 5 ns).
They were charged about one operation a call: ``max(s)`` 2 for 10,000 elements, so that
``s where max(s) > it`` ran 10^8 C steps for a charge of 10^4."""
from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.expr import Compiler
from interpreter.expr.parser import ExprError
from interpreter.expr.runtime import MAX_STORED
from interpreter.expr.texts import WIDEST, WIDEST_NUMBER
from interpreter.expr.textual import as_text
from interpreter.expr.walks import FLAT_WORK, GROUP_WORK, HASH_WORK, RANK_WORK, SET_LEAST, SET_WORK, WALK_WORK
from interpreter.mechanics import market
from interpreter.mechanics.market_costs import MAX_SEARCH_WORK, MAX_SUM, TURN_WORK, search_bound
from helpers import load_text, tiny_ruleset

N = 10_000   # (a list variable's bound: the worst list the step can be given)
RULES = tiny_ruleset(f"""params:
  n: {{type: int, default: {N}, min: 1, max: {N}}}
  m: {{type: int, default: 5000, min: 1, max: 5000}}
vars:
  s: {{type: "list[int]", start: []}}
  t: {{type: "list[int]", start: []}}
  x: {{type: int, start: 0}}
flow:
  - set: {{x: "0"}}
scoring: {{categories: {{p: x}}}}
""")


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return load_text(tmp_path_factory.mktemp("walks"), RULES, "w.yaml")


class Counted(list):
    """A list that counts the elements read out of it (every walk in C reads through its iterator)."""
    reads = 0

    def __iter__(self):
        for x in list.__iter__(self):
            Counted.reads += 1
            yield x


def charged(rules, text: str, plain: bool = False) -> int:
    c = Compiler(rules.names, plain=plain)
    c.compile(text, has_me=True)
    return c.cost


# (the form; the operations an element read costs, as walk_costs.py measures them (its element's
# time over an operation's), the most of both compiles, rounded up)
@pytest.mark.parametrize("text, per_read", [
    ("max(s)", 2.4), ("min(s)", 2.3), ("sum(s)", 1.0), ("max(s, by: it)", 4.3), ("sum(s, by: it)", 4.0),
    ("highest(s, by: it)", 14.5), ("count(top(s, by: it))", 14.5),   # (top reads each element twice)
    ("(1 if any(map(s, to: it < 0)) else 0)", 4.2)])
def test_a_walk_is_charged_for_each_element_it_reads(rules, text, per_read):
    S = rules.new_game(2)
    S.v["s"] = Counted(random.Random(1).randrange(10 ** 6) for _ in range(N))
    for plain in (False, True):
        fn = Compiler(rules.names, plain=plain).compile(text, has_me=True)
        Counted.reads = 0
        fn(S, 0, None)
        assert N <= Counted.reads <= 2 * N
        assert charged(rules, text, plain) >= max(Counted.reads * per_read, N)   # (it was charged 2 to 6)


def test_a_range_built_is_charged_for_its_elements_unless_a_loop_walks_it(rules):
    """count(1..n) builds a list of n numbers (2.2 operations each); a filter, by: or to: over a
    range counts the building with its turns, each at least an operation."""
    S = rules.new_game(2)
    built = Compiler(rules.names).compile("count(1..params.n)", has_me=True)(S, 0, None)
    assert built == N and charged(rules, "count(1..params.n)") >= built * 2.2
    assert charged(rules, "count(1..params.n)") - charged(rules, "params.n") >= N * WALK_WORK
    looped = charged(rules, "count((1..params.n) where it > 0)") - charged(rules, "count(s where it > 0)")
    assert 0 < looped < 10   # (the range's ends, no element)


def test_groups_and_two_lists_compared_are_charged_per_element(rules, tmp_path):
    """groups() puts each element in its group (95 operations an element measured, with a group
    made for each); == walks both lists up to the shorter's end (0.12 an element); groups() of
    a list variable (10,000 elements, about 5 ms) is refused."""
    assert charged(rules, "count(groups(1..params.m, by: it))") >= 5_000 * 95
    assert charged(rules, "(1 if s == t else 0)") >= N * 0.12 * 10
    with pytest.raises(interpreter.RulesetError, match="groups\\(\\) walks up to 10,000 elements"):
        load_text(tmp_path, RULES.replace('x: "0"', 'x: "count(groups(s, by: it))"'), "g.yaml")


def test_a_walk_inside_a_filter_is_charged_for_each_element_of_the_filter(tmp_path):
    """max(s) inside a filter over s walks s once per element: 10^8 elements, refused at load
    where the filter is, naming the walk; over the ten cards of a deck it loads, charged ten walks
    of ten."""
    text = RULES.replace('x: "0"', 'x: "count(s where max(s) > it)"')
    with pytest.raises(interpreter.RulesetError) as e:
        load_text(tmp_path, text, "f.yaml")
    assert "f.yaml:" in str(e.value) and "max() walks up to 10,000 elements" in str(e.value)
    rules = load_text(tmp_path, RULES, "g.yaml")
    assert charged(rules, "count(deck where max(map(deck, to: rank)) > rank)") >= 10 * 10 * WALK_WORK
    assert RANK_WORK > WALK_WORK and GROUP_WORK > RANK_WORK


# ---------------------------------------------------------------- combos()
def _labels(labels):
    return type("State", (), {"rules": type("Rules", (), {"card_labels": labels})})


def test_a_search_past_its_cap_stops_with_a_located_error(tmp_path):
    """1,000 cards by 1 in 25 groups, total 999: 10,000 sets of about 1,000 cards each (about
    10^7 elements copied; 100,000 cards in 400 groups ran 54 s). The search stops past
    MAX_SEARCH_WORK, at the step's line, at once: its charge is what it may count."""
    rules = load_text(tmp_path, tiny_ruleset("""vars:
  x: {type: int, start: 0}
flow:
  - set: {x: "count(combos(deck, by: 1, total: 999))"}
scoring: {categories: {p: x}}
""", attributes="g: 1..25, k: 1..40", label="g{g}"), "c.yaml")
    step = next(s for s in rules.steps if s.kind == "effects")
    assert step.work >= MAX_SEARCH_WORK + 1_000 * GROUP_WORK
    with pytest.raises(interpreter.GameError, match="combos\\(\\) searched more than 250,000 operations") as e:
        rules.new_game(2)
    assert "c.yaml:" in str(e.value)


@pytest.mark.parametrize("fractions", [False, True], ids=["whole values", "fractions"])
def test_the_static_bound_covers_every_search_of_a_short_list(fractions):
    """Each search of up to 7 elements (values 1 to 6, each total they can make and one past it)
    counts no more than search_bound, what combos() of a list that short is weighed: both ways
    of the search (a bitset of whole totals, backtracking over fractions)."""
    rnd = random.Random(4)
    for _ in range(300):
        n = rnd.randrange(1, 8)
        values = [rnd.randrange(1, 7) + (0.5 if fractions else 0) for _ in range(n)]
        labels = [f"c{rnd.randrange(4)}-{v}" for v in values]   # (repeats grouped)
        for total in {*(sum(rnd.sample(values, rnd.randrange(1, n + 1))) for _ in range(6)), sum(values) + 1}:
            market.searched = 0   # (a total out of reach returns before any search)
            market._combos(_labels(labels), list(range(n)), values.__getitem__, total, True)
            assert market.searched <= search_bound(n, min(MAX_SUM, int(n * max(values)) + 1)), (values, total)
    assert search_bound(6, 10) == MAX_SEARCH_WORK + 3 * 6 * TURN_WORK > 2 * search_bound(4, 10)


def test_diams_trades_never_reach_the_cap_and_are_charged_what_they_count():
    """The most a Diam's trade can search: every diamond (50) on the market, each total a card
    given can ask (1 to 10); the trade's step is charged at least that."""
    rules = interpreter.load("rulesets/diams.yaml")
    S = rules.new_game(4, seed=1)
    quality = rules.names.namespace["A_quality"]
    S.z["market"] = [c for c, q in enumerate(quality) if isinstance(q, int)]
    most = 0
    for total in range(1, 11):
        Compiler(rules.names).compile(f"count(combos(market, by: quality, total: {total}))", has_me=True)(S, 0, None)
        most = max(most, market.searched)
    assert 150_000 < most < MAX_SEARCH_WORK   # (187,462; 200 random games: at most 111,986)
    trades = [s.work for s in rules.steps if s.kind == "choose" and "trade" in map(str, getattr(s, "path", ()))]
    assert max(trades) >= most   # (the choice among the sets; the other, of the card given, asks sums())


def test_lists_of_lists_compared_are_charged_what_they_hold_together(tmp_path):
    """Two lists of lists compared walk every element inside them, up to the shorter's end: a list
    variable holds 10,000 at every depth together (not 10,000 lists of 10,000), so comparing two
    loads, charged for those; a list of lists built from others is as long as its lists allow."""
    text = RULES.replace('  x: {type: int, start: 0}', '  x: {type: int, start: 0}\n  w: {type: "list[list[int]]", start: []}')
    rules = load_text(tmp_path, text, "l.yaml")
    assert N * WALK_WORK <= charged(rules, "(1 if w == w else 0)") < 2 * N * WALK_WORK
    assert charged(rules, "(1 if [s, t] == [t, s] else 0)") >= 2 * N * WALK_WORK   # (2 lists of up to 10,000)


# ---------------------------------------------------------------- lists of lists
NESTED = RULES.replace('  x: {type: int, start: 0}', '  x: {type: int, start: 0}\n  w: {type: "list[list[int]]", start: []}')


class Tally(int):
    """A number that counts the comparisons it is in (two lists compared in C compare each pair)."""
    calls = 0

    def __eq__(self, other):
        Tally.calls += 1
        return int(self) == int(other)

    __hash__ = int.__hash__


def test_distinct_of_lists_of_lists_is_charged_for_each_element_inside(tmp_path):
    """distinct() keys each list by value: every element inside read (2 to 4 operations each,
    walk_costs.py --nested) and a key made for each list (53 to 82). It was charged once per list:
    distinct(map(1..n, to: t)) 10,006 for 10^8 elements inside (20.7 s); now refused, naming it."""
    rules = load_text(tmp_path, NESTED, "d.yaml")
    S = rules.new_game(2)
    rows = [Counted(random.Random(k).randrange(10 ** 6) for _ in range(99)) for k in range(100)]
    S.v["w"] = rows   # (10,000 lists and elements together: a list variable's bound)
    for plain in (False, True):
        Counted.reads = 0
        assert Compiler(rules.names, plain=plain).compile("count(distinct(w))", has_me=True)(S, 0, None) == 100
        assert Counted.reads == 9_900
        assert charged(rules, "count(distinct(w))", plain) >= 100 * 82 + Counted.reads * 4
    assert charged(rules, "count(distinct(map(1..10, to: t)))") >= 10 * N * HASH_WORK   # (it was 16)
    assert charged(rules, "count(distinct(s))") >= N * FLAT_WORK   # (a flat list: each element hashed)
    for text in ("count(distinct(map(1..params.n, to: t)))", "count(distinct(subsets(map(1..13, to: t))))"):
        with pytest.raises(interpreter.RulesetError, match="distinct\\(\\) walks"):
            load_text(tmp_path, NESTED.replace('x: "0"', f'x: "{text}"'), "r.yaml")


def test_a_list_looked_for_among_lists_is_charged_for_each_element_compared(tmp_path):
    """s in L (L a list of lists) compares s with each list in C, up to the first difference: at
    worst every element inside (1.1 to 3.2 operations each). It was charged once: s in map(1..n,
    to: t) 10,009 for 10^8 comparisons (3.9 s); now refused."""
    rules = load_text(tmp_path, NESTED, "i.yaml")
    S = rules.new_game(2)
    S.v["t"] = [Tally(k) for k in range(N)]
    S.v["s"] = [Tally(k) for k in range(N - 1)] + [Tally(-1)]   # (equal to t but for the last)
    text = "(1 if s in map(1..10, to: t) else 0)"
    for plain in (False, True):
        Tally.calls = 0
        assert Compiler(rules.names, plain=plain).compile(text, has_me=True)(S, 0, None) == 0
        assert Tally.calls == 10 * N
        assert charged(rules, text, plain) >= Tally.calls * 3.2   # (it was 19)
    with pytest.raises(interpreter.RulesetError, match="'in' of a list of lists walks up to 100,000,000"):
        load_text(tmp_path, NESTED.replace('x: "0"', 'x: "(1 if s in map(1..params.n, to: t) else 0)"'), "r.yaml")


# ---------------------------------------------------------------- flat lists: distinct() and 'in'
def test_distinct_and_in_over_a_flat_list_are_charged_per_element(rules, tmp_path):
    """distinct(L) hashes each element (4.9 to 10.5 operations measured) and x in L compares each
    up to the one found (1.3 to 2.0): both were charged one operation, so that a filter over a
    list variable asking either of it ran 10^8 elements for a charge of 10^4 (the first form
    below took 1.3 s a run); now refused, naming the walk."""
    S = rules.new_game(2)
    S.v["s"] = Counted(random.Random(3).randrange(10 ** 6) for _ in range(N))
    for plain in (False, True):
        Counted.reads = 0
        Compiler(rules.names, plain=plain).compile("count(distinct(s))", has_me=True)(S, 0, None)
        assert Counted.reads == N
        assert charged(rules, "count(distinct(s))", plain) >= Counted.reads * 10.5
    S.v["s"] = [Tally(k) for k in range(N)]
    for plain in (False, True):
        Tally.calls = 0
        Compiler(rules.names, plain=plain).compile("(1 if -1 in s else 0)", has_me=True)(S, 0, None)
        assert Tally.calls == N
        assert charged(rules, "(1 if -1 in s else 0)", plain) >= Tally.calls * 2.0
    for text, why in (("count(s where count(distinct(s)) > 3)", "distinct\\(\\) walks up to 10,000"),
                      ("highest(s, by: 1 if it in t else 0)", "'in' walks up to 10,000")):   # (a key: a lambda)
        with pytest.raises(interpreter.RulesetError, match=why):
            load_text(tmp_path, RULES.replace('x: "0"', f'x: "{text}"'), "r.yaml")
    assert charged(rules, "count(deck where rank in [1, 2])") < 200   # (modest uses: a short list)
    assert charged(rules, "count(distinct(map(deck, to: rank)))") < 10 * (FLAT_WORK + 10)


def test_a_list_looked_in_from_a_loop_is_kept_as_a_set(rules):
    """x in L asked for each element of a loop, L not changing with it (and longer than
    SET_LEAST): a set of L built once per evaluation, then a lookup an element; charged so in
    both compiles (the optimised one builds it: L read once, not once per element)."""
    S = rules.new_game(2)
    S.v["s"] = list(range(N))
    S.v["t"] = Counted(range(0, 2 * N, 2))
    text = "count(s where it in t)"
    Counted.reads = 0
    assert Compiler(rules.names).compile(text, has_me=True)(S, 0, None) == N // 2
    assert Counted.reads == N   # (the set built once)
    assert charged(rules, text) == charged(rules, text, plain=True) < N * (SET_WORK + (SET_LEAST + 1) * WALK_WORK + 10)
    assert charged(rules, text) >= N * (SET_WORK + SET_LEAST * WALK_WORK)   # (built: 2.1 to 3.5 an element measured; a lookup: a walk of up to SET_LEAST)
    S.v["t"] = Counted(range(0, 2 * SET_LEAST, 2))   # (up to SET_LEAST at run time: the list itself looked in, no set built)
    Counted.reads = 0
    assert Compiler(rules.names).compile(text, has_me=True)(S, 0, None) == SET_LEAST
    assert Counted.reads == 0   # (list.__contains__ reads no iterator; a set built of it would)
    S.v["t"] = Counted(range(0, 2 * SET_LEAST + 2, 2))
    assert Compiler(rules.names).compile(text, has_me=True)(S, 0, None) == SET_LEAST + 1
    assert Counted.reads == SET_LEAST + 1   # (one longer: the set built)
    short = "count(s where it in [1, 2, 3])"   # (up to SET_LEAST: walked each time)
    assert 3 <= SET_LEAST and charged(rules, short) >= N * 3 * WALK_WORK



def test_a_list_built_only_to_be_looked_in_is_built_as_the_set(rules):
    """x in map(L, to: ...) from a loop, the map lifted out of it: the set is built of the map's
    elements directly (a set comprehension), not of a list built first and then copied; the same
    answer as the reference, L read once an evaluation."""
    S = rules.new_game(2)
    S.v["t"] = Counted(range(N))
    text = "count([1, 2, 4, 5] where it in map(t, to: it * 2))"
    fast, plain = Compiler(rules.names), Compiler(rules.names, plain=True)
    compiled = fast.compile(text, has_me=True)
    assert "{*" not in compiled.source and "{_mul(" in compiled.source
    Counted.reads = 0
    assert compiled(S, 0, None) == 2
    assert Counted.reads == N   # (the set: built once)
    assert plain.compile(text, has_me=True)(S, 0, None) == 2


def test_a_card_looked_for_in_recorded_zones_is_weighed_one_lookup():
    """x in Z for a card x and shared zones that keep a record of each card's zone
    (building/record.py): one item of the record read, not a walk of Z; weighed so in both
    compiles. Mister Diamond's effects asking 'spot in real_spots' count nothing beyond their run
    (a walk of each zone each: 5 and 3 steps); where the record is not kept, the walk is weighed."""
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    assert {"real_spots", "fake_spots"} <= set(rules.names.recorded)
    charged_steps = {" ".join(map(str, s.path)): s.charge for s in rules.steps if getattr(s, "path", None)}
    assert charged_steps["flow 0 turns steps 1 steps 0 attempt outcomes fake steps 0"] == 0
    assert charged_steps["flow 0 turns steps 1 steps 0 attempt outcomes clean steps 0"] == 0
    for plain in (False, True):
        c = Compiler(rules.names, plain=plain)
        c.compile("spot in real_spots", has_me=True)
        assert c.cost < WALK_WORK * 10
        c = Compiler(rules.names, plain=plain)
        c.compile("tile in won", has_me=True)   # (a player's zone: no record, walked)
        assert c.cost >= WALK_WORK * len(rules.card_labels)

SPREAD = tiny_ruleset("""  on: {owner: card}
vars:
  x: {type: int, start: 0}
flow:
  - set: {x: "0"}
scoring: {categories: {p: x}}
""", attributes="rank: 1..40", label="c{rank}", deck="tables")


def test_a_set_kept_in_an_expression_compiled_on_its_own_plays(tmp_path):
    """A list looked in from a loop inside a trick's key (an expression compiled on its own, not
    as a step's: building/elements.py) keeps its set in a cell of its own evaluation: the game
    plays (it stopped with a NameError of that cell), and the key is the plain reference's."""
    from helpers import trick_ruleset
    text = trick_ruleset(ranks=20).replace("      rank: rank\n",
                                           "      rank: \"rank + (10 if rank in map(deck, to: rank) else 0)\"\n")
    assert "map(deck" in text
    path = tmp_path / "t.yaml"
    path.write_text(text)
    rules = interpreter.load(path)
    S, rnd, moves = rules.new_game(3, seed=1), random.Random(1), 0
    while not S.is_terminal():
        S.apply_index(rnd.randrange(len(S.dec[1])))
        moves += 1
    assert moves > 3


@pytest.mark.parametrize("effect", ['{shuffle: "%s"}', '{move: {from: pool, to: "%s", count: 1}}',
                                    '{move: {from: "%s", to: pool, count: 1}}'])
def test_a_list_looked_in_inside_a_writes_target_plays(effect, tmp_path):
    """``x in L`` inside the target of a write (a plain subscript: no cell of sets can wrap it)
    is walked, not kept as a set: the game plays (it stopped with a NameError of that cell)."""
    from helpers import chips_game
    target = "mine[first(players where count(pool where n in map(pool, to: n)) > 0)]"
    text = chips_game(f"""flow:
  - turns:
      rounds: 1
      steps:
        - choose: {{options: "[1, 2]", as: x, prompt: first}}
        - {effect % target}
scoring:
  categories: {{chips: "count(mine)"}}
""", game="tl", players=(2, 2), attributes="n: 1..40")
    path = tmp_path / "t.yaml"
    path.write_text(text)
    S = interpreter.load(path).new_game(2, seed=1)
    while not S.is_terminal():
        S.apply_index(0)
    assert S.over


def test_a_list_variable_not_set_is_looked_in_only_where_the_reference_looks(tmp_path):
    """A list variable looked in from a loop is read before the expression (its set made where
    long): one that is none stays none, so a lookup the expression guards (``L != none and ...``)
    or never reaches stops nothing, as in the plain reference (it raised before the expression)."""
    from helpers import chips_game
    text = chips_game("""flow:
  - turns:
      rounds: 1
      steps:
        - choose: {options: "[1, 2]", as: x, prompt: first}
        - set: {y: "L != none and count(pool where n in L) > 0"}
        - set: {z: "count(pool where n > 100 and n in L)"}
scoring:
  categories: {chips: "count(mine) + x"}
""", game="tl", players=(2, 2), attributes="n: 1..40", ints="x z").replace("vars:\n", 'vars:\n  L: "list[int]"\n  y: bool\n', 1)
    path = tmp_path / "t.yaml"
    path.write_text(text)
    S = interpreter.load(path).new_game(2, seed=1)
    while not S.is_terminal():
        S.apply_index(0)
    assert S.over and S.steps > 0


def test_the_zones_of_the_cards_of_a_loop_hold_every_card_together(tmp_path):
    """A card-owned zone read of each card of a zone (or a filter of one) holds, with the others,
    at most every card: each walk of it (a filter's, a to:'s, distinct(), 'in') is weighed the
    cards over the loop's elements, not every card each time (Diamonds Club's pieces on its
    price tables); a walk of it nested in another of the same card's zone is weighed in full.
    Checked against the elements read with every card in one card's zone."""
    rules = load_text(tmp_path, SPREAD, "z.yaml")
    cards = 40
    spread = "count(tables where 3 in map(on, to: rank))"
    full = "count(tables as t where 3 in map(on[first(tables)], to: rank))"
    assert charged(rules, spread) * 5 < charged(rules, full)
    assert charged(rules, spread) >= cards * 2 * WALK_WORK   # (the map's turns and the walk: every card once)
    nested = "count(tables as t where count(t.on where count(distinct(t.on)) > 0) > 0)"
    assert charged(rules, nested) >= cards * cards * FLAT_WORK   # (not spread twice)
    S = rules.new_game(2)
    S.z["on"] = {S.z["tables"][0]: list(S.z["tables"][1:])}   # (every other card on the first one)
    for text in (spread, "count(tables where count(distinct(map(on, to: rank))) > 1)"):
        for plain in (False, True):
            fn = Compiler(rules.names, plain=plain).compile(text, has_me=True)
            assert fn(S, 0, None) == 1
        assert charged(rules, text) >= (cards - 1) * WALK_WORK   # (what the one zone holds, walked)


# ---------------------------------------------------------------- strings
TEXTS = RULES.replace('  x: {type: int, start: 0}', """  x: {type: int, start: 0}
  u: {type: str, start: "''"}
  v: {type: str, start: "''"}""")


def test_a_string_built_is_charged_for_its_characters(tmp_path):
    """'+' copies both strings (a text variable holds up to MAX_STORED characters): charged per
    character of the string it builds at its longest (9 characters an operation measured, charged
    1 for 4); strings built longer than a variable holds are counted at their own length where
    read again. (u + u + u + u + text(it)) == u in a filter over s was charged 120,003 for 10^4
    strings of 400,000 characters (10.2 s); now refused, naming the join."""
    rules = load_text(tmp_path, TEXTS, "j.yaml")
    S = rules.new_game(2)
    S.v["u"] = "a" * MAX_STORED
    built = Compiler(rules.names).compile("map(1..3, to: u + text(it))", has_me=True)(S, 0, None)
    assert charged(rules, "map(1..3, to: u + text(it))") >= sum(map(len, built)) / 9
    assert charged(rules, "(1 if first(map(1..3, to: u + u)) == v else 0)") >= charged(rules, "(1 if u + u == v else 0)")
    for text, why in (("count(s where (u + u + u + u + text(it)) == u)", "'\\+' builds a string of up to 200,000"),
                      ("count(distinct(map(1..params.n, to: u + u + u + text(it))))", "'\\+' builds a string"),
                      ("count(s where text(it) in u)", "'in' searches strings of up to 100,020 characters")):
        with pytest.raises(interpreter.RulesetError, match=why):
            load_text(tmp_path, TEXTS.replace('x: "0"', f'x: "{text}"'), "r.yaml")


def test_strings_compared_or_searched_are_charged_per_character(tmp_path):
    """== reads up to the shorter's end (0.003 operations a character measured), a search both
    strings (up to 2.9 for a needle of at most 100 characters, 14 for a needle nearly as long as
    the text), each string at its bound: a literal its length, a card's attribute its longest
    value, text() its widest."""
    rules = load_text(tmp_path, TEXTS.replace("suit: [A, B]", "suit: [Diamonds, Hearts]"), "c.yaml")
    with pytest.raises(ExprError, match="'in' searches strings of up to 200,000"):   # (about 28 ms at worst)
        charged(rules, "(1 if v in u else 0)")
    assert charged(rules, "(1 if text(x) + 'x' in u else 0)") >= (MAX_STORED + WIDEST + 1) * 2.9
    assert charged(rules, "(1 if 'ab' in u else 0)") >= MAX_STORED * 2.9
    assert charged(rules, "(1 if u == v else 0)") >= MAX_STORED * 0.004
    assert charged(rules, "(1 if 'ab' in u else 0)") < MAX_STORED * 14
    assert charged(rules, "count(deck where suit == u)") == charged(rules, "count(deck where suit == 'x')")
    assert charged(rules, "count(deck as c where c.suit == u)") == charged(rules, "count(deck as c where c.suit == 'x')")
    assert charged(rules, "count(deck where u == v)") >= 10 * MAX_STORED // 128   # (without an attribute: as stored)
    for element in ("first(map(deck, to: suit))", "last(['ab', 'cd'])", "distinct(map(deck, to: suit))[1]"):
        assert charged(rules, f"(1 if {element} in u else 0)") < MAX_STORED * 4 + 400   # (a short needle)
    assert charged(rules, "count(['ab', 'cd'] where it in u)") < 2 * (MAX_STORED * 4 + 100)   # (it: of the list)
    assert charged(rules, "(1 if u in 'ab' else 0)") < 100   # (a needle longer than the text: no search)
    for value in (-2 ** 63, 2 ** 63 - 1, True, False, None):
        assert len(as_text(value)) <= WIDEST
    for value in (-1.7976931348623157e+308, -2.2250738585072014e-308, -5e-324, -0.30000000000000004):
        assert len(as_text(value)) <= WIDEST_NUMBER   # (a whole fraction: its 309 digits)


# ---------------------------------------------------------------- the sums() memo
def test_the_sums_memo_is_bounded_by_the_elements_it_holds(monkeypatch):
    """_sums_of_bits remembers the totals of each bitset, shared by every game of a process: kept
    by the number of elements (4,096 entries of any length grew a process to 1.98 GB), the
    oldest forgotten first, one larger than the bound not kept, each answer a copy."""
    monkeypatch.setattr(market, "MAX_MEMO_ELEMENTS", 1_000)
    monkeypatch.setattr(market, "_SUMS_OF_BITS", {})
    monkeypatch.setattr(market, "_memo_elements", 0)
    for k in range(1, 60):
        bits = (1 << (50 + k)) - 1   # (every total 1 .. 49 + k reachable)
        assert market._sums_of_bits(bits) == list(range(1, 50 + k))
        kept = market._SUMS_OF_BITS
        assert sum(w for _, w in kept.values()) == market._memo_elements <= 1_000
        assert bits in kept
    assert (1 << 51) - 1 not in kept and len(kept) < 15
    huge = (1 << 5_000) - 1
    assert len(market._sums_of_bits(huge)) == 4_999 and huge not in market._SUMS_OF_BITS
    market._sums_of_bits((1 << 109) - 1).append(0)   # (the caller's copy)
    assert market._sums_of_bits((1 << 109) - 1) == list(range(1, 109))
