"""The worst-case cost of an expression (docs/reference.md "Limits", docs/security.md) weighs
each list at the longest it can be; where the ruleset declares a bound, that bound. Each bound
is checked to be an upper bound: the expression run at its worst (every parameter at each end
its declaration allows, every player count) never walks a longer list than its cost assumed,
and where the bound is tight the cost is exactly that of the same expression over a literal
list of the length measured."""
from __future__ import annotations

import itertools

import pytest

import interpreter
from interpreter.expr import Compiler
from interpreter.expr.runtime import MAX_RANGE, ExprRuntimeError
from interpreter.tools.cli import main
from helpers import load_text, tiny_ruleset, write_ruleset

GAME = tiny_ruleset("""
  pile: {}
vars:
  x: {type: int, start: 0}
params:
  n: {type: int, default: 3, min: 0, max: 40}
  lo: {type: int, default: 2, min: -5, max: 9}
  hi: {type: int, default: 7, min: 3, max: 12}
  top: {type: int, default: 4, max: 30}
  pick: {default: 2, choices: [1, 2, 16]}
  free: 6
  by_count: {by_players: {"2": 3, "3": 5}, default: 4}
define:
  last: "params.n + 1"
  big: "1..500"
  seats: "players where it != 0"
flow: []
""", players=(2, 5))

# the extremes each parameter can take in a game (its declared ends, its choices)
ENDS = {"n": (0, 40), "lo": (-5, 9), "hi": (3, 12), "top": (30,), "pick": (1, 2, 16)}


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return load_text(tmp_path_factory.mktemp("cost"), GAME, "cost.yaml")


def cost(rules, text: str) -> int:
    c = Compiler(rules.names)
    c.compile(text, has_me=True)
    return c.cost


def walks(rules, text: str, form: str = "count(({}) where x > 0{})") -> int:
    """How many times the cost of a filter over the list ``text`` counts its body: the cost of
    four operations more in the body (``and x > 0``), over four."""
    one, more = (cost(rules, form.format(text, extra)) for extra in ("", " and x > 0"))
    assert (more - one) % 4 == 0
    return (more - one) // 4


def longest(rules, text: str) -> int:
    """The longest list ``text`` gives over every player count and every extreme of the parameters."""
    fn = Compiler(rules.names).compile(f"count({text})", has_me=True).fn
    most = 0
    for players in rules.player_counts:
        for values in itertools.product(*ENDS.values()):
            S = rules.new_game(players, 0, {"params": dict(zip(ENDS, values))})
            most = max(most, fn(S, 0, {}))
    return most


@pytest.mark.parametrize("text, tight", [
    ("0..params.n", True), ("params.lo..params.hi", True), ("1..num_players", True), ("0..params.n * 2 - 1", True),
    ("-params.n..params.n", True), ("0..last", True), ("0..params.top", True), ("-params.top..0", True),
    ("1..params.pick", True), ("params.lo..(params.n if x > 0 else num_players)", False),
    ("(0..params.n) where it > x", False), ("num_players..params.hi * num_players", False),
])
def test_a_range_whose_ends_read_declared_bounds_costs_its_longest_and_no_less(rules, text, tight):
    measured = longest(rules, text)
    assert 0 < measured < MAX_RANGE
    # never fewer walks of a filter's body than the list measured at its longest; exactly that
    # many where the ends can both be at their extremes in one game
    assert walks(rules, text) == measured if tight else walks(rules, text) > measured


@pytest.mark.parametrize("text", ["0..params.free", "0..params.by_count", "params.top..0", "0..x",
                                  "1..count(deck)"])
def test_a_range_whose_end_reads_what_declares_no_bound_counts_max_range(rules, text):
    """A parameter without min:/max: can be given any value (--set), a variable any value it is set
    to: such an end leaves the range at the longest the language lets it be."""
    assert walks(rules, text) == MAX_RANGE


def test_a_define_is_costed_as_what_it_expands_to(rules):
    """A define's list is as long as its expression's (a range of 500 here, more than the game's
    10 cards: it was counted as a zone, 10, below what it costs)."""
    assert walks(rules, "big") == longest(rules, "big") == 500
    assert walks(rules, "seats") == walks(rules, "players where it != 0") == 5


def test_a_list_of_either_branch_is_as_long_as_the_longer(rules):
    assert walks(rules, "1..50 if x > 0 else []") == walks(rules, "[] if x > 0 else 1..50") == 50
    assert walks(rules, "[1] if x > 0 else []") == 1


def test_a_card_s_list_attribute_is_as_long_as_the_longest_a_card_holds(tmp_path):
    """Two cards, one of whose attribute lists has 30 elements: a zone counts 2, the list 30."""
    rules = load_text(tmp_path, """
game: l
players: {min: 2, max: 2}
components:
  token:
    cards: [{name: a, marks: [1, 2]}, {name: b, marks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
                                                        19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]}]
    label: "{name}"
zones:
  deck: {start: [token]}
vars:
  x: {type: int, start: 0}
flow: []
""", "l.yaml")
    S = rules.new_game(2)
    fn = Compiler(rules.names).compile("max(map(deck, to: count(marks)))", has_me=True).fn
    assert fn(S, 0, {}) == 30
    form = "any({}, by: x > 0{})"   # (an attribute of lists of several lengths is of any type: no where)
    assert walks(rules, "first(deck).marks", form) == 30 > walks(rules, "deck", form) == 2


def test_a_function_s_list_is_as_long_as_it_can_return(rules, tmp_path, monkeypatch):
    """combos() returns at most MAX_COMBOS sets, groups() no more groups than elements, keys() of a
    map parameter as many keys as its maps have (an override keeps them), of a counter family
    its keys: each may be longer than the game's cards (10 here), the default of other lists."""
    import interpreter.mechanics.market as market
    monkeypatch.setattr(market, "MAX_COMBOS", 7)
    many = load_text(tmp_path, GAME.replace(
        "  free: 6\n", "  free: 6\n  price: {value: {" + ", ".join(f"k{i}: {i}" for i in range(20)) + "}}\n").replace(
        "vars:\n", "counters:\n  gems: {keys: [" + ", ".join(f"g{i}" for i in range(15)) + "]}\nvars:\n"), "many.yaml")
    S = many.new_game(2)
    for text, bound in (("combos(deck, by: rank, total: 6)", 7), ("groups(deck, by: rank)", 10),
                        ("keys(params.price)", 20), ("keys(gems)", 15)):
        measured = Compiler(many.names).compile(f"count({text})", has_me=True).fn(S, 0, {})
        assert measured <= walks(many, text) == bound, text
        assert measured == bound or text.startswith("groups")


def test_subsets_is_as_long_as_the_sub_lists_it_can_make(rules):
    """subsets(L) of a list of n elements makes 2^n sub-lists, of n elements at most (13: more is
    a runtime error); with size: K, n-choose-K of K elements, the most over the sizes K's
    declaration allows (params.pick: 1, 2 or 16 of the 10 cards). Each bound is reached, or is
    an upper bound of what each game's value makes."""
    for text, bound, inner in (("subsets(deck)", 1024, 10), ("subsets(deck, size: 2)", 45, 2),
                               ("subsets(deck, size: params.pick)", 252, 10), ("subsets(1..20, size: 1)", 20, 1)):
        assert walks(rules, text) == bound and walks(rules, f"first({text})") == inner, text
        for pick in ENDS["pick"]:
            game = rules.new_game(2, 0, {"params": {"pick": pick}})   # (the deck holds the 10 cards)
            made = Compiler(rules.names).compile(text, has_me=True).fn(game, 0, {})
            assert len(made) <= bound and max(map(len, made), default=0) <= inner, (text, pick)
            assert len(made) == bound or "params" in text
    # 1..params.n, n up to 40: 2^n sub-lists of n up to n = 13, a runtime error beyond
    assert walks(rules, "subsets(1..params.n)") == 10_000 and walks(rules, "first(subsets(1..params.n))") == 13
    for n, made in ((13, 8192), (14, None)):
        fn = Compiler(rules.names).compile("count(subsets(1..params.n))", has_me=True).fn
        game = rules.new_game(2, 0, {"params": {"n": n}})
        if made is None:
            with pytest.raises(ExprRuntimeError, match="more than 10,000 sub-lists"):
                fn(game, 0, {})
        else:
            assert fn(game, 0, {}) == made


def test_the_bounds_are_what_a_game_can_be_given(rules):
    """What the spans assume is what a game refuses beyond: an override past max: or outside
    choices:, or a player count outside players:."""
    with pytest.raises(interpreter.UsageError, match="between 0 and 40"):
        rules.new_game(2, 0, {"params": {"n": 41}})
    with pytest.raises(interpreter.UsageError, match="one of 1, 2, 16"):
        rules.new_game(2, 0, {"params": {"pick": 17}})
    with pytest.raises(interpreter.UsageError):
        rules.new_game(6)


# ---------------------------------------------------------------------- validate warns of a costly step
HEAVY = """
game: heavy
players: {min: 1, max: 1}
params: {n: {type: int, default: 5, min: 1, max: %s}}
vars: {x: {type: int, start: 0}}
flow:
  - set: {x: "count((1..params.n) as k where count((1..params.n) as v where v > k) > 0)"}
scoring: {categories: {p: x}}
"""


def test_validate_warns_at_a_step_whose_run_may_cost_more_than_a_hundredth_of_the_budget(tmp_path, capsys):
    # 100 x 100 comparisons (3 operations each): about 30,000 operations, 300 of a 20,000 budget
    path = write_ruleset(tmp_path, HEAVY % 100 + "limits: {steps: 20000}\n", "heavy.yaml")
    step = next(s for s in interpreter.load(path).steps if s.charge)
    assert step.charge * 100 > 20_000
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr()
    assert (f"heavy.yaml:7:5: warning[cost]: this step may count {1 + step.charge:,} steps of the game's budget "
            "of 20,000 each time it runs") in out.out + out.err
    # the same step with the parameter bounded lower, or under the default budget: no warning
    for text in (HEAVY % 10 + "limits: {steps: 20000}\n", HEAVY % 100):
        rules = interpreter.load(write_ruleset(tmp_path, text, "light.yaml"))
        assert not [w for w in rules.warnings if w.code == "cost"]


NESTED = tiny_ruleset("""
  pile: {}
vars:
  x: {type: int, start: 0}
  s: {type: "list[int]", start: []}
  w: {type: "list[list[int]]", start: []}
  t: {type: "list[str]", start: []}
params:
  grid: {value: [[1, 2], [3]]}
  m: {value: {a: [1, 2, 3]}}
  mm: {value: {a: {k0: 0, k1: 1, k2: 2}}}
flow: []
""", players=(2, 2))


@pytest.fixture(scope="module")
def nested(tmp_path_factory):
    return load_text(tmp_path_factory.mktemp("nested"), NESTED, "nested.yaml")


@pytest.mark.parametrize("text, bound", [
    ("w[0]", 10_000), ("first(w)", 10_000), ("last(w)", 10_000), ("first(w where count(it) > 0)", 10_000),
    ("params.grid[0]", 64), ("params.m['a']", 64), ("keys(params.mm['a'])", 64),
    ("first(groups(1..5000, by: it % 2))", 5_000), ("first(map(players, to: s + s))", 20_000),
    ("first([s + s, s])", 20_000), ("([s + s] if x > 0 else w)[0]", 20_000)])
def test_an_element_of_a_list_of_lists_is_as_long_as_a_list_inside_it_can_be(nested, text, bound):
    assert walks(nested, text) == bound


def test_an_element_named_in_a_filter_over_a_list_of_lists_is_as_long_as_its_lists(nested):
    """w as a: each a may hold 10,000 numbers, so a filter over a inside one over w may take
    10,000 x 10,000 operations: refused (it was costed as a zone's few cards)."""
    for text in ("count(w as a where count(a where x > 0) > 0)", "count(w where count(it where x > 0) > 0)",
                 "count(groups(s, by: 0) as g where count(g where x > 0) > 0)"):
        with pytest.raises(interpreter.expr.parser.ExprError, match="more than 1,000,000 operations"):
            cost(nested, text)


@pytest.mark.parametrize("text, bound", [
    ("[[1, 2], [3]][0]", 2), ("[players][0]", 64), ("first(groups(pile, by: 0))", 100),
    ("first(combos(pile, by: 1, total: 5))", 100), ("first([s + s, s])", 20_000)])
def test_an_element_of_a_list_of_flat_lists_is_as_long_as_they_are(nested, text, bound):
    """The lists inside a list written out, groups() or combos() of a zone, are as long as the
    flat lists they are made of: what a zone's card or a number holds adds nothing (they were
    each weighed 10,000, the bound of what a list variable holds at every depth, and a filter over
    a zone's groups inside another was refused)."""
    assert walks(nested, text) <= bound
    cost(nested, "count(groups(pile, by: 0) as g where count(g as a where count(g where it != a) > 0) > 0)")


def test_a_list_parameter_s_inner_lists_are_held_to_its_bound(nested):
    nested.new_game(2, 0, {"params": {"grid": [list(range(64))]}})
    with pytest.raises(interpreter.UsageError, match="parameter 'grid' holds at most 64 elements"):
        nested.new_game(2, 0, {"params": {"grid": [list(range(3000))]}})
    with pytest.raises(interpreter.UsageError, match="parameter 'm' holds at most 64 elements"):
        nested.new_game(2, 0, {"params": {"m": {"a": list(range(65))}}})


def test_an_element_of_a_list_of_lists_walks_no_more_than_its_bound(nested):
    """Measured: w[0] holding 3,000 numbers walks 3,000 elements, within the 10,000 assumed."""
    S = nested.new_game(2)
    S.v["w"] = [list(range(3000))]
    fn = Compiler(nested.names).compile("count(w[0] where x >= 0)", has_me=True).fn
    assert fn(S, 0, {}) == 3000 <= walks(nested, "w[0]")


def test_sums_is_as_long_as_the_totals_it_can_return(nested, rules):
    from interpreter.mechanics.market import MAX_SUM, sums_bound
    assert walks(nested, "sums([1, 2, 3])") == 7   # (2^3 - 1 sub-multisets)
    assert sums_bound(150, 150) == 150 * 150 and sums_bound(1000, 1000) == MAX_SUM
    assert sums_bound(10, 3) == 30 and sums_bound(3, 1000) == 7
    for text in ("sums(deck, by: rank)", "sums(deck, by: it.rank)"):   # 10 cards of rank 1..5: 50 at most
        assert walks(nested, text) == 50
        plain = Compiler(nested.names, plain=True)
        plain.compile(f"count(({text}) where x > 0)", has_me=True)
        assert plain.cost == cost(nested, f"count(({text}) where x > 0)")   # the reference bounds it alike
    # a by: whose values a parameter's max: bounds (n: at most 40): 10 cards, none past 400
    assert walks(rules, "sums(deck, by: params.n)") == 400 >= longest(rules, "sums(deck, by: params.n)")
    S = nested.new_game(2)
    fn = Compiler(nested.names).compile("count(sums(deck, by: rank))", has_me=True).fn
    assert fn(S, 0, {}) == 30 <= walks(nested, "sums(deck, by: rank)")


def bound_locals(folder, flow: str, effects: str = "{}"):
    """A ruleset whose flow fills s with 9,999 numbers and w with [s] (a list of lists holds
    10,000 numbers in all), then runs ``flow`` (a
    step; ``effects``: its declared effects), and that flow's last step."""
    rules = load_text(folder, tiny_ruleset(f"""
  mine: {{owner: player}}
vars:
  x: {{type: int, start: 0}}
  s: {{type: "list[int]", start: []}}
  w: {{type: "list[list[int]]", start: []}}
effects: {effects}
flow:
  - set: {{s: "1..9999"}}
  - set: {{w: "[s]"}}
  - {flow}
scoring: {{categories: {{p: x}}}}
"""), "locals.yaml")
    return rules, [s for s in rules.steps if tuple(getattr(s, "path", ()))[:2] == ("flow", 2)][0]


@pytest.mark.parametrize("effects, flow", [
    ('{f: {params: {L: "list[int]"}, do: [{set: {x: "count(L as i where count(L as j where j % 7 == i % 5 + x) == 5)"}}]}}',
     "f: {L: s}"),
    ("{}", 'for_each: {in: w, as: a, do: [{set: {x: "count(a as i where count(a as j where j % 7 == i % 5 + x) == 5)"}}]}')])
def test_a_list_a_declared_effect_or_a_for_each_binds_is_as_long_as_a_list_variable(tmp_path, effects, flow):
    """A list given to a declared effect, or an element of a for_each over a list of lists, may be
    any list variable (10,000 numbers): a filter over it inside another is refused (they were
    weighed as a zone's few cards, charged nothing, and ran for 13 s and 1.7 s)."""
    with pytest.raises(interpreter.RulesetError, match="more than the game's whole step budget"):
        bound_locals(tmp_path, flow, effects)


@pytest.mark.parametrize("effects, call", [   # (@: where the body grows by four operations)
    ('{f: {params: {L: "list[int]"}, do: [{set: {x: "count(L where x >= 0@)"}}]}}', "f: {L: s}"),
    ("{}", 'for_each: {in: w, as: a, do: [{set: {x: "count(a where x >= 0@)"}}]}')])
def test_a_bound_local_walked_once_is_charged_its_bound_and_walks_no_more(tmp_path, effects, call):
    """Measured: the list walked holds 9,999 numbers, within the 10,000 its read is weighed."""
    (rules, one), (_, more) = (bound_locals(tmp_path, call.replace("@", extra), effects.replace("@", extra))
                               for extra in ("", " and x > 0"))
    walked = (more.work - one.work) // 4
    assert walked == 10_000
    assert rules.new_game(2).v["x"] == 9_999 < walked


def test_a_local_a_mechanism_binds_is_as_long_as_a_zone(tmp_path):
    """A pick's cards picked so far are weighed as a zone (the number of cards), as before: only
    a binder of a list that may be any list variable's bounds it at 10,000."""
    def weighed(listed: str) -> int:
        pick = f'pick: {{who: 0, from: deck, to: mine, where: "count({listed} where rank > x@) >= 0", min: 0, max: 1}}'
        one, more = (bound_locals(tmp_path, pick.replace("@", extra))[1].work for extra in ("", " and x > 0"))
        return (more - one) // 4
    assert weighed("picked") == weighed("deck") == 10 * weighed("[1]")


def test_a_compile_kept_for_reuse_is_reused_only_under_the_same_bounds_of_its_locals(rules):
    """The language server's compiler reuses a compile of the same text and locals: not one made
    where the binder bounded a local otherwise (it would be weighed as the other was)."""
    from interpreter.expr.reuse import Reusing
    walked = []
    for sizes in ({}, {"L": 10_000}, {}, {"L": 10_000}):
        c = Reusing(rules.names)
        c.local_sizes = sizes
        c.compile("count(L where x > 0)", {"L": "list[int]"})
        walked.append(c.cost)
    assert walked[0] == walked[2] < walked[1] == walked[3]


# ---------------------------------------------------------------------- a family's counter as a target
FAMILY = tiny_ruleset("""
  table: {visible: all}
counters:
  marks: {owner: card, keys: [a, b], start: 0}
  pmarks: {owner: player, keys: [a, b], start: 0}
flow:
  - move: {from: deck, to: table, count: 4}
  - gain: {counter: "marks[first(deck where rank > count(table where rank > count(deck where rank > 3)))]['a']"}
  - gain: {counter: "pmarks[count(deck where rank > count(table where rank > count(deck where rank > 3))) % 2]['a']"}
scoring: {categories: {n: "count(table)"}}
""")


def test_a_family_counter_s_owner_is_weighed_where_it_is_asked(tmp_path):
    # the same costly owner (nested filters over the ten cards) weighed twice, as the target is
    # checked and written, and for a player's family once more, as its event's owner is asked
    # (a card's family names none): weighing a card's thrice charged it 106
    rules = load_text(tmp_path, FAMILY)
    assert [s.charge for s in rules.steps if s.charge] == [71, 106]
