"""Conformance tests of the expression language.

The table is data (tests/data/expressions.yaml): a tiny ruleset, the state to put it in,
and cases ``{expr, value}`` / ``{expr, error, code}`` / ``{expr, runtime_error}``. The
ruleset goes through the real pipeline (load -> compile -> new_game), the state is then
patched with known cards and counters, and every case is compiled with
``Compiler(names).compile(text, locals, has_me)`` and called as ``fn(S, me, L)``.

Every example in docs/language.md (```expr fences, ``EXPR  # => VALUE``) must be a case of
the table and must give that value, so the documentation cannot rot.
"""
from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest
import yaml

import interpreter
from interpreter.errors import RulesetError
from interpreter.expr import MAX_DEPTH, MAX_LENGTH, Compiler, ExprError
from interpreter.expr.compiler import MAX_COST, MAX_EXPANSIONS, MAX_SOURCE
from interpreter.expr.runtime import MAX_RANGE, ExprRuntimeError
from interpreter.expr.types import CARD, elem, is_list

HERE = Path(__file__).parent
DATA = yaml.safe_load((HERE / "data" / "expressions.yaml").read_text(encoding="utf-8"))
CASES = DATA["cases"]
DOC = HERE.parent / "docs" / "language.md"
CODES = {"type", "unknown-name", "arity", "expr-syntax", "limit", "cycle", "name"}


# ---------------------------------------------------------------------- the fixture world
class World:
    """The fixture ruleset, a game in a known state, and a compiler over its names."""

    def __init__(self, tmp: Path):
        path = tmp / "fixture.yaml"
        path.write_text(yaml.safe_dump(DATA["ruleset"], sort_keys=False), encoding="utf-8")
        self.rules = interpreter.load(path)
        self.S = self.rules.new_game(players=DATA["players"], seed=1)
        self.patch(DATA["state"])
        # defines the loader would reject (cycles) are added after load, to a copy of the names
        names = self.rules.names
        self.names = dataclasses.replace(names, defines={**names.defines, **DATA["late_defines"]})
        self.compiler = Compiler(self.names)

    def card(self, label):
        return self.rules.card_id(str(label))

    def patch(self, state):
        S, card = self.S, self.card
        dealt = []
        for zone, value in state["zones"].items():
            if self.rules.zone_owner[zone] == "none":
                S.z[zone] = [card(x) for x in value]
                dealt += S.z[zone]
            else:
                S.z[zone] = [[card(x) for x in part] for part in value]
                dealt += [c for part in S.z[zone] for c in part]
        S.z["deck"] = [c for c in range(len(self.rules.card_labels)) if c not in dealt]
        S.c.update(state["counters"])
        S.v.update(state["vars"])

    def to_value(self, value, typ):
        """A YAML value of a case (cards by label) as the runtime value of type ``typ``."""
        if typ == CARD and value is not None:
            return self.card(value)
        if is_list(typ) and isinstance(value, list):
            return [self.to_value(v, elem(typ)) for v in value]
        return value

    def show(self, value, typ):
        """A runtime value as the table writes it (cards by label; a list must be a list: a tuple
        in its place is a bug, `players + [me]` would fail)."""
        if typ == CARD and isinstance(value, int) and not isinstance(value, bool):
            return self.rules.card_labels[value]
        if is_list(typ) and isinstance(value, list):
            return [self.show(v, elem(typ)) for v in value]
        return value

    def compile(self, case):
        me = case.get("me", 0)
        return self.compiler.compile(case["expr"], case.get("locals"), me is not None)

    def run(self, case):
        compiled = self.compile(case)
        locals_ = case.get("locals") or {}
        L = {k: self.to_value(v, locals_.get(k)) for k, v in (case.get("bind") or {}).items()}
        value = compiled.fn(self.S, case.get("me", 0), L)
        return compiled, self.show(value, compiled.type)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return World(tmp_path_factory.mktemp("expr"))


def same(got, want) -> bool:
    """Equality that tells bool from int and int from float (3 is not 3.0 is not true)."""
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(same, got, want))
    if type(want) is not type(got) and not (want is None and got is None):
        return False
    if isinstance(want, float):
        return got == pytest.approx(want)
    return got == want


def check(world, case):
    expr = case["expr"]
    if "error" in case:
        with pytest.raises(ExprError) as info:
            world.compile(case)
        e = info.value
        assert case["error"] in e.message, f"{expr!r}: message {e.message!r}"
        assert e.code == case["code"], f"{expr!r}: code {e.code!r} ({e.message})"
        if "offset" in case:
            assert e.offset == case["offset"], f"{expr!r}: offset {e.offset} ({e.message})"
        if "hint" in case:
            assert e.hint and case["hint"] in e.hint, f"{expr!r}: hint {e.hint!r}"
        return
    if "runtime_error" in case:
        with pytest.raises(ExprRuntimeError) as info:
            world.run(case)
        assert case["runtime_error"] in str(info.value)
        return
    compiled, got = world.run(case)
    assert same(got, case["value"]), f"{expr!r} gave {got!r} ({compiled.type}), want {case['value']!r}"
    if "type" in case:
        assert compiled.type == case["type"], f"{expr!r}: type {compiled.type}"


# ---------------------------------------------------------------------- the table
def test_table_is_well_formed():
    assert len(CASES) >= 120
    keys = [(c["expr"], c.get("me", 0), str(c.get("locals"))) for c in CASES]
    assert len(keys) == len(set(keys)), "duplicate cases in the table"
    for c in CASES:
        outcomes = [k for k in ("value", "error", "runtime_error") if k in c]
        assert len(outcomes) == 1, c
        assert ("code" in c) == ("error" in c), c
        if "code" in c:
            assert c["code"] in CODES, c


@pytest.mark.parametrize("case", CASES, ids=[c["expr"][:60] for c in CASES])
def test_case(world, case):
    check(world, case)


VALUES = [c for c in CASES if "value" in c]


@pytest.fixture(scope="module")
def plain_world(world):
    """The same world, its expressions compiled by the reference compile (``plain=True``)."""
    plain = object.__new__(World)
    plain.__dict__.update(world.__dict__, compiler=Compiler(world.names, plain=True))
    return plain


@pytest.mark.parametrize("case", VALUES, ids=[c["expr"][:60] for c in VALUES])
def test_case_in_the_reference_compile(plain_world, case):
    """Every value of the table is the reference compile's too (names given with 'as' in a by:
    or to: included: its element is not the fused filter's there)."""
    check(plain_world, case)


def test_limits_match_the_table():
    """The table and docs/language.md state the limits; keep them honest if they change."""
    assert (MAX_LENGTH, MAX_DEPTH, MAX_RANGE, MAX_SOURCE, MAX_EXPANSIONS, MAX_COST) == \
        (2000, 40, 10_000, 50_000, 500, 1_000_000)


def test_length_limit(world):
    ok = "[" + "1," * ((MAX_LENGTH - 2) // 2) + "]"   # flat: a list is one level deep
    assert len(ok) == MAX_LENGTH
    assert world.compiler.compile(ok, None, True).fn(world.S, 0, {}) == [1] * ((MAX_LENGTH - 2) // 2)
    with pytest.raises(ExprError) as info:
        world.compiler.compile(ok + " ", None, True)
    assert info.value.code == "limit" and "too long" in info.value.message


def test_depth_limit(world):
    # '1' is one node; every unary minus adds one level
    fn = world.compiler.compile("-" * (MAX_DEPTH - 1) + "1", None, True).fn
    assert fn(world.S, 0, {}) == (-1 if (MAX_DEPTH - 1) % 2 else 1)
    with pytest.raises(ExprError) as info:
        world.compiler.compile("-" * MAX_DEPTH + "1", None, True)
    assert info.value.code == "limit"


def test_defines_cannot_blow_up_the_generated_code(world):
    """Defines are expanded in place; a chain of defines each using the previous one twice
    (or nesting it deeply) must end in a 'limit' error, not a Python SyntaxError/MemoryError."""
    names = dataclasses.replace(world.names, defines={
        **{f"d{i}": f"d{i - 1} + d{i - 1}" for i in range(1, 40)}, "d0": "1",
        **{f"n{i}": "-" * 30 + f"n{i - 1}" for i in range(1, 10)}, "n0": "1"})
    compiler = Compiler(names)
    for text in ("d39", "n9"):
        with pytest.raises(ExprError) as info:
            compiler.compile(text, None, True)
        assert info.value.code == "limit"
    assert compiler.compile("d4", None, True).fn(world.S, 0, {}) == 16


def test_a_cyclic_define_is_a_located_load_error(tmp_path):
    data = dict(DATA["ruleset"], define={"loop": "loop + 1"})
    path = tmp_path / "cycle.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    text = str(info.value) + "".join(d.format() for d in info.value.diagnostics)
    assert "refers to itself" in text


# ---------------------------------------------------------------------- the sandbox
ESCAPES = [
    "__import__('os')", "().__class__", "x.__class__", "'a'.upper()", "me.__class__",
    "hand.__class__", "[].__class__.__base__", "open('/etc/passwd')", "eval('1')",
    "exec('1')", "getattr(me, 'x')", "__builtins__", "S", "L", "S.z", "me.__dict__",
    "lambda: 1", "(1).real", "params.__class__", "count.__globals__", "_range(1, 2)",
    "len(hand)", "import os", "1; 2", "'a' 'b'", "f'{1}'", "card.__init__",
]


@pytest.mark.parametrize("text", ESCAPES)
def test_escapes_are_rejected_at_compile_time(world, text):
    with pytest.raises(ExprError):
        world.compiler.compile(text, {"card": "card"}, True)


def test_namespace_has_no_builtins(world):
    assert world.names.namespace["__builtins__"] == {}
    fn = world.compiler.compile("count(hand)", None, True).fn
    assert fn.__globals__["__builtins__"] == {}


ALLOWED_ATTRS = {"z", "c", "v", "p", "tm", "n", "players", "teams", "members"}


def test_generated_code_touches_only_state_fields(world):
    """Across the whole table, the only attribute access in generated code is S.<field>: a
    per-game field or the slot of a zone, counter or variable (engine/layout.py)."""
    allowed = ALLOWED_ATTRS | set(world.rules.layout.slots)
    for case in CASES:
        if "error" in case:
            continue
        src = world.compile(case).source
        # drop string literals, then look at every '.name'
        bare = re.sub(r"'[^']*'|\"[^\"]*\"", "''", src)
        for obj, attr in re.findall(r"(\w*)\s*\.\s*([A-Za-z_]\w*)", bare):
            assert obj == "S" and attr in allowed, f"{case['expr']!r} -> {src}"
        assert "__" not in bare, src


@pytest.mark.parametrize("text, scans_in_c", [
    ("first(hand where suit == 'S')", True),
    ("first(hand where rank == first(table).rank)", True),
    ("first(hand where rank == it.rank)", False),        # X reads the element
    ("first(hand where suit == 'S' and rank > 1)", False),
    ("first(hand where rank > 1)", False),
    ("first(hand + table where suit == 'S')", False),  # a computed list: not evaluated twice
])
def test_first_of_a_zone_by_attribute_is_a_plain_loop(world, text, scans_in_c):
    assert ("_first_eq(" in world.compile({"expr": text}).source) is scans_in_c


@pytest.mark.parametrize("text, hoisted", [
    ("hand where rank == first(table).rank", True),
    ("hand where rank == first(table).rank and suit == 'S'", True),
    ("hand where suit == 'S' and rank == first(table).rank", False),   # not computed first
    ("hand where rank == 3", False),                                   # a constant: nothing to save
    ("hand where rank == it.rank", False),
])
def test_a_filter_computes_its_first_comparison_value_once(world, text, hoisted):
    src = world.compile({"expr": text}).source
    assert bool(re.search(r"for _e\d+z in \(", src)) is hoisted
    if hoisted:   # bound once, then only its name is compared
        assert src.count("_first(") == 1, src



@pytest.mark.parametrize("text, sets", [
    ("count(hand + table where it in table + deck)", True),     # one set of both zones, a lookup per card
    ("hand + table where it not in table + deck", True),
    ("count(players where it in [1] + [2])", False),            # computed lists: looked for in each
    ("first(table) in table + deck", False),                    # not in a loop: nothing to build once
    ("count(hand where first(table) in table + deck)", False),  # the same value for every card
])
def test_membership_in_joined_zones_in_a_loop_is_a_set_built_once(world, text, sets):
    """``x in A + B`` asked of each element of a filter is one lookup in a set of A and B built
    once, before the filter (of cards numbered below 256, as here: the bytes of their cards),
    with the plain compile's answer (the touch chance of a dexterity attempt asks it of each
    neighbour of a position)."""
    fast = world.compiler.compile(text, None, True)
    assert ("{*" in fast.source or "bytes([" in fast.source) is sets, fast.source
    plain = Compiler(world.names, plain=True).compile(text, None, True)
    assert fast.fn(world.S, 0, {}) == plain.fn(world.S, 0, {})


@pytest.mark.parametrize("text", [
    "sum(hand, by: rank)",
    "sum(hand, by: rank) >= 7",
    "any(players, by: sum(hand[it], by: rank) > 5)",          # an end condition's shape
    "count(table) > 3 and sum(hand, by: rank) > 1",            # added up only when it is asked
])
def test_a_sum_of_whole_numbers_is_added_up_in_a_loop(world, text):
    """A sum by: of whole numbers, alone or compared, is added up by a loop in the compiled
    function (no list built, no comprehension called), with the plain compile's value."""
    fast = world.compiler.compile(text, None, True)
    assert "sum([" not in fast.fn.code and " += " in fast.fn.code, fast.fn.code
    plain = Compiler(world.names, plain=True).compile(text, None, True)
    for me in range(4):
        assert same(fast.fn(world.S, me, {}), plain.fn(world.S, me, {}))


@pytest.mark.parametrize("text", [
    "(hand where rank > 1) where suit == 'S'",
    "first((hand where rank > 1) where suit == 'S')",
    "count((hand + table where rank > 1) where suit != 'S')",
    "count((hand where rank > 1) where suit == 'S') > 0",
    "map(hand where rank > 1, to: suit)",
])
def test_a_filter_of_a_filter_is_one_pass(world, text):
    """(L where P) where Q and map(L where P, to: X) walk L once (one comprehension, or one
    plain loop for first/count > 0), no list is built in between."""
    src = world.compile({"expr": text}).source
    assert src.count(" for ") + src.count("_scan_") + src.count("_count_") == 1, src


@pytest.mark.parametrize("text, scans", [
    ("first(hand where suit == 'S' and rank > 2)", True),
    ("count(hand where rank >= 3 and suit != trump) > 0", True),    # a variable: known before the loop
    ("count(high where suit == 'S') == 0", True),                   # through a define
    ("first(hand where rank > score)", False),                      # score[me]: not a plain value
    ("first(hand where rank > 2 or suit == 'S')", False),           # not a conjunction
    ("first(distinct(hand) where rank > 2)", False),                # a computed list
    ("any(hand, by: rank > 2 and suit == 'S')", True),
    ("all(players, by: score != 2)", True),                          # looks for score == 2
    ("all(players, by: score > 2)", False),                          # (a NaN is neither > nor <=)
    ("3 in map(hand, to: rank)", True),                                # no list of ranks built
    ("count(hand + table where rank > 2)", True),                      # counted, no list built
    ("hand where rank in map(table, to: rank)", False),               # that list is built once
])
def test_first_and_any_of_a_zone_by_comparisons_are_a_plain_loop(world, text, scans):
    src = world.compile({"expr": text}).source
    assert ("_scan_" in src or "_count_" in src) is scans


def test_a_local_binding_is_a_value_known_before_the_loop(world):
    """``count(L where ATTR OP x)`` with x a local binding (a for_each's ``as:``, a hook's
    parameter) counts in a plain loop, like a variable: the compiler reads a local only where
    it is bound, so reading it once before the loop cannot fail."""
    src = world.compiler.compile("count(hand where rank > n)", {"n": "int"}, True).source
    assert "_count_gt(" in src and "L['n']" in src, src


@pytest.mark.slow   # over 10 s on two cores
def test_the_plain_loops_give_what_the_filters_give(world):
    """Random conjunctions of comparisons over the fixture's zones: first(...), count(...),
    count(...) > 0, count(...) == 0, any(...) and all(...) (one equality test: the loop looks
    for the opposite), and `x in map(ZONE, to: attr)`, as plain loops equal the same over a
    computed copy of the zone (which keeps them generators and lists)."""
    rnd, checked = random.Random(11), 0
    tests = ["rank {} {}", "suit {} '{}'", "rank {} -{}"]
    for _ in range(400):
        zone = rnd.choice(["hand", "table", "deck", "hand[leader]"])
        terms = []
        for _ in range(rnd.randint(1, 4)):
            form = rnd.choice(tests)
            op = rnd.choice(["==", "!=", "<", "<=", ">", ">="] if "rank" in form else ["==", "!="])
            terms.append(form.format(op, rnd.choice("SHDC") if "suit" in form else rnd.randint(0, 9)))
        cond = " and ".join(terms)
        for shape in ("first({} where {})", "count({} where {}) > 0", "count({} where {}) == 0",
                      "any({}, by: {})", "all({}, by: {})", "count({} where {})"):
            plain, copied = shape.format(zone, cond), shape.format(f"distinct({zone})", cond)
            assert _outcome(world, plain) == _outcome(world, copied), plain
            checked += "_scan_" in world.compile({"expr": plain}).source
        value, attr = rnd.choice([(rnd.randint(0, 9), "rank"), (f"'{rnd.choice('SHDC')}'", "suit")])
        for op in ("in", "not in"):   # x in map(ZONE, to: attr)
            plain, copied = (f"{value} {op} map({z}, to: {attr})" for z in (zone, f"distinct({zone})"))
            assert _outcome(world, plain) == _outcome(world, copied), plain
    assert checked > 1000


@pytest.mark.slow   # over 10 s on two cores
def test_a_filter_of_a_filter_gives_what_the_two_filters_give(world):
    """Random conditions P and Q (from the generator below): each fused form, as a list, its
    first element, its count and whether it is empty, equals the same with the list in between
    built (`distinct()` of cards changes nothing but keeps the first filter a list of its own)."""
    gen = Gen(7)
    checked = 0
    for _ in range(300):
        lists = gen.pick(["hand", "table", "hand + table", "deck", "hand where rank > 2"])
        p, q = (gen.gen("bool", 2).replace("it", "me") for _ in range(2))
        for shape in ("{}", "first({})", "count({})", "count({}) > 0", "count({}) == 0"):
            fused = shape.format(f"(({lists}) where {p} or rank > 3) where {q} or suit == 'S'")
            built = shape.format(f"distinct(({lists}) where {p} or rank > 3) where {q} or suit == 'S'")
            assert _outcome(world, fused) == _outcome(world, built), fused
            checked += 1
        for to in ("rank", "suit", "rank * 2 + count(table)"):   # map(L where P, to: X) too
            fused, built = (f"map({f}(({lists}) where {p} or rank > 3), to: {to})" for f in ("", "distinct"))
            assert _outcome(world, fused) == _outcome(world, built), fused
            checked += 1
    assert checked == 2400


def _outcome(world, text):
    try:
        return "value", world.compiler.compile(text, None, True).fn(world.S, 0, {})
    except ExprError as e:
        return "compile", e.code
    except (ExprRuntimeError, TypeError) as e:
        return "runtime", type(e).__name__


@pytest.mark.parametrize("text", ["hand where count(table where suit == 'S') == 0", "count(high) == 0",
                                  "table where count(high) > 0"])
def test_count_of_a_filter_compared_with_zero_stops_at_the_first_element(world, text):
    """count(L where C) compared with 0 is asked as `any(...)` (or a plain loop), which stops at
    the first element that passes, also when L where C is a define (`high`) or when the count is
    lifted out of an enclosing filter (computed once)."""
    src = world.compile({"expr": text}).source
    assert ("any(" in src or "_scan_" in src) and "len(" not in src

@pytest.mark.parametrize("text, value", [("players where count(map(table, to: 10 // (rank - 4))) == 2", [0, 1, 2, 3]),
                                         ("players where count(map(table + [none], to: it.rank)) > score", [3])])
def test_count_of_a_map_inside_a_filter_evaluates_no_element(world, text, value):
    """count(map(L, to: E)) is count(L) also inside a filter, where the map does not read the
    filter's element and is lifted out of it: E is never evaluated (table holds a 4, and a
    none). Found by tests/test_fuzz_expressions.py: the lifted map was counted, so E ran."""
    assert world.compiler.compile(text, None, True).fn(world.S, 0, {}) == value


def test_a_filter_of_none_is_the_none_error_also_when_its_value_is_computed_once(world):
    """`L where ATTR == X` computes X once when L has an element; L being none (the first() of
    an empty list of lists) is still `none used as a value`, not an empty list. Found by the
    fuzzer: the faster filter's `if L` took none for empty."""
    for text in ("first(groups(table where suit == 'X', by: suit)) where rank == first(hand).rank",
                 "first(groups(table where suit == 'X', by: suit)) where rank == 3"):
        with pytest.raises(ExprRuntimeError, match="none used as a value"):
            world.compiler.compile(text, None, True).fn(world.S, 0, {})


@pytest.mark.parametrize("text", ["3 in sums(high, by: rank)", "hand where rank not in sums(table + deck, by: rank)",
                                  "count(players where any(hand, by: total in sums(hand, by: rank))) > 0"])
def test_membership_without_the_list_costs_what_the_plain_membership_costs(world, text):
    """`x in sums(...)` compiles the call for its checks, then its arguments again for the bit
    test; the worst-case cost counts them once, as the reference compile does, so no
    expression is refused by the optimised compile alone (found by the fuzzer: near
    MAX_COST, the optimised compile said `limit` where the reference compiled)."""
    fast, plain = Compiler(world.names), Compiler(world.names, plain=True)
    fast.compile(text, None, True)
    plain.compile(text, None, True)
    assert fast.cost == plain.cost and fast._expansions == plain._expansions


def test_a_map_of_a_filter_by_an_if_else_compiles(world):
    """map(L where A if C else B, to: E) walks L once; the condition keeps its parentheses in
    the fused comprehension (`if A if C else B` is not Python). Found by the fuzzer: the
    expression was refused as nested too deeply."""
    fn = world.compiler.compile("map(hand where (rank > 2 if me == 0 else false), to: suit)", None, True).fn
    assert fn(world.S, 0, {}) == ["D", "H", "S"] and fn(world.S, 1, {}) == []


# ---------------------------------------------------------------------- random expressions
class Gen:
    """Random well-typed and ill-typed expression texts over the fixture's names."""

    LEAVES = {
        "int": ["0", "1", "2", "7", "-3", "score", "bank", "pot", "params.rounds", "num_players",
                "count(hand)", "count(deck)", "score[leader]", "total"],
        "num": ["0.5", "ratio", "params.bonus", "2.0"],
        "bool": ["true", "false", "trump == 'H'", "me == leader"],
        "str": ["'H'", "trump", "'D'", "'x'"],
        "player": ["me", "leader", "left(me)", "partner(me)", "it"],
        "card": ["first(hand)", "last(table)", "highest(deck, by: rank)", "one(table)"],
        "lcard": ["hand", "table", "taken", "deck", "high", "hand[leader]", "[]"],
        "lplayer": ["players", "members(team(me))", "[me, leader]"],
        "lint": ["1..3", "[1, 2, 3]", "map(hand, to: rank)", "[]", "0..0"],
    }

    def __init__(self, seed):
        self.r = random.Random(seed)

    def pick(self, xs):
        return self.r.choice(xs)

    def gen(self, t, depth):
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            leaves = self.LEAVES[t]
            if t == "player":
                leaves = leaves[:-1]
            return self.pick(leaves)
        d = depth - 1
        g = self.gen
        forms = {
            "int": [lambda: f"{g('int', d)} {self.pick(['+', '-', '*', '//', '%'])} {g('int', d)}",
                    lambda: f"-{g('int', d)}", lambda: f"count({g(self.pick(['lcard', 'lplayer', 'lint']), d)})",
                    lambda: f"sum({g('lcard', d)}, by: rank)", lambda: f"sum({g('lint', d)})",
                    lambda: f"max({g('lint', d)})", lambda: f"min({g('int', d)}, {g('int', d)})",
                    lambda: f"abs({g('int', d)})", lambda: f"({g('int', d)} if {g('bool', d)} else {g('int', d)})",
                    lambda: f"{g('player', d)}.score", lambda: f"count({g('player', d)}.hand)",
                    lambda: f"first({g('lint', d)})", lambda: f"{g('lint', d)}[{g('int', d)}]",
                    lambda: f"highest({g('lint', d)})", lambda: f"{g('card', d)}.rank"],
            "num": [lambda: f"{g('int', d)} / {g('int', d)}", lambda: f"{g('num', d)} * {g('int', d)}",
                    lambda: f"abs({g('num', d)})", lambda: f"{g('num', d)} - {g('num', d)}"],
            "bool": [lambda: f"{g('int', d)} {self.pick(['<', '<=', '==', '!=', '>', '>='])} {g('int', d)}",
                     lambda: f"{g('bool', d)} {self.pick(['and', 'or'])} {g('bool', d)}",
                     lambda: f"not {g('bool', d)}", lambda: f"{g('int', d)} in {g('lint', d)}",
                     lambda: f"{g('player', d)} not in {g('lplayer', d)}",
                     lambda: f"any({g('lcard', d)}, by: rank > {g('int', d)})",
                     lambda: f"all({g('lplayer', d)}, by: score >= {g('int', d)})",
                     lambda: f"{g('str', d)} in params.order",
                     lambda: f"{g('card', d)}.suit == {g('str', d)}"],
            "str": [lambda: f"{g('card', d)}.suit", lambda: f"({g('str', d)} if {g('bool', d)} else {g('str', d)})",
                    lambda: "first(params.order)", lambda: f"{g('str', d)} + {g('str', d)}"],
            "player": [lambda: f"left({g('player', d)}, {g('int', d)})", lambda: f"right({g('player', d)})",
                       lambda: f"partner({g('player', d)})",
                       lambda: f"highest({g('lplayer', d)}, by: {g('int', d)})",
                       lambda: f"first({g('lplayer', d)})"],
            "card": [lambda: f"first({g('lcard', d)})", lambda: f"lowest({g('lcard', d)}, by: rank)",
                     lambda: f"{g('lcard', d)}[{g('int', d)}]", lambda: f"one({g('lcard', d)})"],
            "lcard": [lambda: f"{g('lcard', d)} where {g('bool', d).replace('it', 'me')} or rank > {g('int', d)}",
                      lambda: f"{g('lcard', d)} + {g('lcard', d)}", lambda: f"top({g('lcard', d)}, by: rank)",
                      lambda: f"distinct({g('lcard', d)})", lambda: f"{g('player', d)}.hand",
                      lambda: f"hand[{g('player', d)}]", lambda: f"{g('lcard', d)} where suit == {g('str', d)}"],
            "lplayer": [lambda: f"players where {g('int', d)} < score",
                        lambda: f"top(players, by: {g('int', d)})",
                        lambda: f"{g('lplayer', d)} where count(it.hand) >= {g('int', d)}",
                        lambda: f"map({g('lplayer', d)}, to: left(it))"],
            "lint": [lambda: f"{g('int', d)}..{g('int', d)}", lambda: f"map({g('lcard', d)}, to: rank)",
                     lambda: f"[{g('int', d)}, {g('int', d)}]", lambda: f"distinct({g('lint', d)})",
                     lambda: f"{g('lint', d)} where it > {g('int', d)}", lambda: f"{g('lint', d)} + {g('lint', d)}"],
        }
        return self.pick(forms[t])()

    TOKENS = ["1", "2.5", "'a'", "me", "hand", "rank", "it", "(", ")", "[", "]", ",", "+", "-", "*", "/",
              "//", "%", "==", "<", "and", "or", "not", "in", "where", "if", "else", "..", ".", "count",
              "sum", "by", ":", "params", "true", "none", "x", "score", "leader", "0"]

    def junk(self):
        return " ".join(self.r.choice(self.TOKENS) for _ in range(self.r.randint(1, 12)))


def _run_random(world, text):
    try:
        compiled = world.compiler.compile(text, None, True)
    except ExprError:
        return "compile-error"
    try:
        compiled.fn(world.S, 0, {})
    except ExprRuntimeError:
        return "runtime-error"
    except TypeError as e:
        # the known gap (see test_none_is_not_yet_a_runtime_error): a none from first/one/highest...
        # of an empty list, used as a number, card or player; anything else is a bug
        if "NoneType" not in str(e):
            raise
        return "none-error"
    return "value"


def test_random_typed_expressions_compile_and_run(world):
    """Random expression trees: only ExprError at compile time, only ExprRuntimeError when run."""
    gen = Gen(20261130)
    outcomes = {"compile-error": 0, "runtime-error": 0, "none-error": 0, "value": 0}
    for _ in range(300):
        t = gen.pick(list(Gen.LEAVES))
        text = gen.gen(t, 4)
        if len(text) > MAX_LENGTH:
            continue
        outcomes[_run_random(world, text)] += 1
    assert outcomes["value"] > 150, outcomes


@pytest.mark.parametrize("text", ["first([] where true) + 1", "highest(hand[2], by: rank).rank",
                                  "left(first(players where score > 100))", "score[one(top(players, by: score))] > 1"])
def test_using_none_is_a_runtime_error(world, text):
    """first/last/one/highest/lowest of an empty list give none; using it as a value is one of
    the language's runtime errors (not a Python TypeError)."""
    with pytest.raises(ExprRuntimeError):
        world.compiler.compile(text, None, True).fn(world.S, 0, {})


def test_random_token_soup_never_crashes_the_compiler(world):
    gen = Gen(7)
    for _ in range(300):
        _run_random(world, gen.junk())


# ---------------------------------------------------------------------- the documentation
EXAMPLE = re.compile(r"^(?P<expr>.+?)\s+#\s*=>\s*(?P<value>.+)$")


def doc_examples():
    if not DOC.exists():
        return []
    out, fence = [], False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fence = line.strip() == "```expr"
            continue
        if fence and line.strip():
            m = EXAMPLE.match(line)
            assert m, f"an ```expr line must read 'EXPR  # => VALUE': {line!r}"
            out.append((m["expr"].strip(), m["value"].strip()))
    return out


def test_the_doc_has_examples():
    assert len(doc_examples()) >= 40


@pytest.mark.parametrize("expr,shown", doc_examples(), ids=[e for e, _ in doc_examples()])
def test_doc_example(world, expr, shown):
    """``# => VALUE`` is a YAML value; ``# => error: TEXT`` and ``# => runtime error: TEXT``
    are errors. The example must be a case of the table, with the same outcome."""
    table = {c["expr"]: c for c in reversed(CASES) if "me" not in c and "locals" not in c}
    assert expr in table, f"doc example {expr!r} is not in tests/data/expressions.yaml"
    case = table[expr]
    if shown.startswith("error:"):
        assert "error" in case and case["error"] in shown, (shown, case)
    elif shown.startswith("runtime error:"):
        assert "runtime_error" in case and case["runtime_error"] in shown, (shown, case)
    else:
        assert "value" in case and same(yaml.safe_load(shown), case["value"]), (shown, case)
    check(world, case)


@pytest.mark.parametrize("text, once", [
    ("players where trump == 'H' and it != me", True),
    ("hand where count(table) > 1 and trump != 'x' and rank > 2", True),
    ("hand where rank > 2 and count(table) > 1", False),             # the first term reads the card
    ("hand where 10 / (count(table) - 2) > 1 and rank > 2", True),   # raises at the first card: not of an empty hand
    ("(hand where false) where 10 / (count(table) - 2) > 1", True),  # false first: nothing after it asked
    ("map(hand where count(table) > 1 and rank > 2, to: rank)", True),   # a map of a filter likewise
    ("map(hand where 10 / (count(table) - 2) > 1, to: rank * 2)", True),
    ("map(hand where rank > 2 and count(table) > 1, to: rank)", False),
])
def test_a_filter_asks_its_leading_terms_that_do_not_read_the_element_once(world, text, once):
    """The leading terms of a filter's condition that do not read the element are asked once,
    at the first element, as the plain filter asks them: the same value, and the same error
    raised where the plain filter raises it (never for an empty list: seat 2's hand)."""
    fast = world.compiler.compile(text, None, True)
    assert bool(re.search(r"if not _e\d+ or \(", fast.source)) is once, fast.source
    plain = Compiler(world.names, plain=True).compile(text, None, True)
    for me in range(4):
        got = []
        for fn in (fast.fn, plain.fn):
            try:
                got.append(fn(world.S, me, {}))
            except ExprRuntimeError as e:
                got.append(str(e))
        assert same(got[0], got[1]), (me, got)


def test_a_first_under_a_found_first_starts_from_it(world):
    """``first(L where P and Q) if count(L where P) > 0 else E`` in a filter (both lifted out of
    it): the branch reads the first element of L where P the condition found and asks it Q, the
    scan of L by P and Q run only when it fails Q; the same values as the plain compile, with the
    condition written each way round, for random P and Q."""
    rnd, shortcuts = random.Random(5), 0
    for _ in range(60):
        p = rnd.choice(["suit == 'S'", "rank > 3", "suit != 'H' and rank < 8"])
        q = rnd.choice(["rank > 2", "suit == 'D'", "rank <= 5 and suit != 'C'"])
        zone = rnd.choice(["hand[me]", "table", "deck"])   # (not read by the element: lifted)
        for form in ("first(({z} where {p}) where {q}) if count({z} where {p}) > 0 else none",
                     "none if count({z} where {p}) == 0 else first({z} where {p} and {q})",
                     "first({z} where {p} and {q}) if not (count({z} where {p}) == 0) else first({z})"):
            text = f"map(players, to: {form.format(z=zone, p=p, q=q)})"
            fast = world.compiler.compile(text, None, True)
            shortcuts += bool(re.search(r"\((_h\w+) if \(A_\w+\[\1\] ", fast.source))
            plain = Compiler(world.names, plain=True).compile(text, None, True)
            for me in range(4):
                assert same(fast.fn(world.S, me, {}), plain.fn(world.S, me, {})), text
    assert shortcuts == 180
