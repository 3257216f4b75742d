"""text(x) and subsets(L) in a game: a choose offers the sub-lists of a list as options, labelled
by their elements joined with + (the empty one []); a label or a message says a number as text;
too many sub-lists is a runtime error located at the rule; the cost model bounds a filter over
them at load (docs/language.md §6, docs/reference.md Limits)."""
from __future__ import annotations

import pytest

from interpreter.errors import GameError, RulesetError
from helpers import load_text, tiny_ruleset

KEEP = tiny_ruleset("""
  hand: {owner: player, visible: owner}
vars:
  kept: "list[card]"
  said: str
flow:
  - deal: {from: deck, to: hand, count: 3}
  - choose: {who: 0, options: "subsets(hand)", as: kept, prompt: keep}
  - set: {said: "text(count(kept)) + ' kept of ' + text(count(hand[0])) + ', the first ' + text(first(kept))"}
""", game="keep")


def test_a_choose_offers_every_sub_list_labelled_by_its_elements(tmp_path):
    rules = load_text(tmp_path, KEEP)
    S = rules.new_game(2, seed=3)
    a, b, c = (rules.card_labels[x] for x in S.z["hand"][0])
    assert S.legal_actions() == ["[]", a, b, f"{a}+{b}", c, f"{a}+{c}", f"{b}+{c}", f"{a}+{b}+{c}"]
    S.apply(f"{a}+{c}")
    assert [rules.card_labels[x] for x in S.v["kept"]] == [a, c]
    assert S.v["said"] == f"2 kept of 3, the first {a}"


def test_the_empty_sub_list_is_an_option_labelled_as_an_empty_list(tmp_path):
    rules = load_text(tmp_path, KEEP)
    S = rules.new_game(2, seed=3)
    S.apply("[]")
    assert S.v["kept"] == [] and S.v["said"] == "0 kept of 3, the first none"


def test_too_many_sub_lists_is_a_runtime_error_at_the_rule(tmp_path):
    rules = load_text(tmp_path, KEEP.replace("count: 3}", "count: 14}").replace("rank: 1..5", "rank: 1..14"))
    with pytest.raises(GameError) as info:
        rules.new_game(2, seed=3)
    e = info.value
    assert "subsets() of a list of 14 elements: more than 10,000 sub-lists" in e.message
    assert (e.loc.line, e.loc.col) == (13, 5)   # (the choose)


def test_a_filter_over_the_sub_lists_is_bounded_at_load(tmp_path):
    ok = KEEP.replace('"subsets(hand)"', '"subsets(hand) where sum(it, by: rank) >= 5"')
    assert load_text(tmp_path, ok, "ok.yaml").new_game(2, seed=3).legal_actions()
    nested = KEEP.replace('"subsets(hand)"', '"subsets(hand) where count(subsets(deck) where count(it) == 2) > 0"')
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, nested, "nested.yaml")
    d = next(d for d in info.value.diagnostics if d.severity == "error")
    assert d.code == "limit" and "more than 1,000,000 operations" in d.message and (d.loc.line, d.loc.col) == (13, 58)


def test_a_wrong_argument_is_a_located_error_at_load(tmp_path):
    bad = KEEP.replace("text(count(kept))", "text(kept)")
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, bad)
    d = info.value.diagnostics[0]
    assert d.code == "type" and "text() writes a number" in d.message and (d.loc.line, d.loc.col) == (14, 23)




def test_options_of_numbers_and_of_texts_made_with_text(tmp_path):
    rules = load_text(tmp_path, tiny_ruleset("""
vars:
  rolled: "list[int]"
  asked: str
flow:
  - choose: {who: 0, options: "subsets(0..2)", as: rolled, prompt: roll}
  - choose: {who: 1, options: "map(1..count(rolled) + 1, to: 'take ' + text(it))", as: asked, prompt: take}
""", game="dice"))
    S = rules.new_game(2, seed=1)
    assert S.legal_actions() == ["[]", "0", "1", "0+1", "2", "0+2", "1+2", "0+1+2"]
    S.apply("0+2")
    assert S.v["rolled"] == [0, 2] and S.legal_actions() == ["take 1", "take 2", "take 3"]
    S.apply("take 3")
    assert S.v["asked"] == "take 3"


ROLLS = tiny_ruleset("""
vars:
  rolled: "list[int]"
  n: {type: int, start: 0}
flow:
  - repeat: 3
    steps:
      - choose: {who: 0, options: "subsets(0..4)", as: rolled, prompt: roll}
      - choose: {who: 1, options: "subsets(0..3 where it != 2, size: 2)", as: rolled, prompt: pairs}
      - set: {n: "n + count(rolled)"}
scoring: {categories: {p: n}}
""", game="rolls")


def test_the_rl_action_space_holds_every_sub_list_of_a_range(tmp_path):
    """A choice among the sub-lists of a range (filtered or not) has a fixed action space: the
    labels of every sub-list of the values the range can hold (the pairs of 0, 1 and 3 among them); every option of every decision of
    random games is in it."""
    import random

    from interpreter.adapters.actions import action_space, space_warning
    rules = load_text(tmp_path, ROLLS)
    assert space_warning(rules) is None
    space = action_space(rules, 2)
    assert len(space) == 32 and {"[]", "0+1+2+3+4", "0+1", "1+3"} <= set(space.labels)
    for seed in range(5):
        S, rnd = rules.new_game(2, seed=seed), random.Random(seed)
        while not S.over:
            ids = space.ids(S)
            assert space.labels_of(ids) == tuple(S.legal_actions())
            S.apply(rnd.randrange(len(ids)))


def test_the_sub_lists_of_a_zone_have_no_fixed_action_space(tmp_path):
    """A zone's cards come in any order: their sub-lists' labels cannot be listed in advance."""
    from interpreter.adapters.actions import space_warning
    d = space_warning(load_text(tmp_path, KEEP))
    assert d is not None and "cannot be listed in advance" in d.message and d.loc.line == 13


def test_a_size_that_is_none_is_a_runtime_error_not_every_sub_list(tmp_path):
    """subsets(L, size: K) with K none (a variable not set yet) would make every sub-list, 2^n,
    where the cost model charged n-choose-K: none used as a value, as a none list is, located at
    the rule; a size written none is refused at load."""
    game = tiny_ruleset("""
vars:
  bid: int
  rolled: "list[int]"
flow:
  - choose: {who: 0, options: "subsets(1..13, size: bid)", as: rolled, prompt: roll}
""", game="bids")
    with pytest.raises(GameError) as info:
        load_text(tmp_path, game).new_game(2, seed=1)
    assert "none used as a value" in info.value.message and info.value.loc.line == 11
    with pytest.raises(RulesetError) as refused:
        load_text(tmp_path, game.replace("size: bid", "size: none"), "none.yaml")
    d = next(d for d in refused.value.diagnostics if d.severity == "error")   # (a cost warning of the step may come first)
    assert d.code == "type" and "subsets() needs a whole number for size:, got none" in d.message
    assert load_text(tmp_path, game.replace("bid: int", "bid: {type: int, start: 12}"), "set.yaml").new_game(
        2, seed=1).legal_actions() == ["1+2+3+4+5+6+7+8+9+10+11+12", *(
            "+".join(str(x) for x in range(1, 14) if x != skip) for skip in range(12, 0, -1))]


def test_distinct_removes_repeated_sub_lists_by_value(tmp_path):
    """distinct() of a list of lists compares them by their elements, first occurrences kept
    (a list cannot be hashed: it failed at run time after loading)."""
    rules = load_text(tmp_path, tiny_ruleset("""
vars:
  picked: "list[int]"
  kinds: {type: int, start: 0}
flow:
  - set: {kinds: "count(distinct(subsets([1, 1, 2])))"}
  - choose: {who: 0, options: "distinct(subsets([1, 1]))", as: picked, prompt: p}
""", game="dis"))
    S = rules.new_game(2, seed=1)
    assert S.v["kinds"] == 6 and S.legal_actions() == ["[]", "1", "1+1"]


def test_lists_are_labelled_in_one_pass_as_they_are_one_by_one(tmp_path):
    """Ruleset.labels labels each value once for all the options (a choose over subsets(0..12)
    labelled each element of each of 8,192 lists): the labels are those of Ruleset.label, and one
    option per label is kept, the first, as one by one."""
    import random

    from interpreter.expr.types import BOOL, CARD, INT, NUM, PLAYER, STR, list_of
    rules = load_text(tmp_path, tiny_ruleset("flow: []\n", attributes="suit: [A, B], rank: 1..2", label="{rank}"))
    rnd = random.Random(5)
    pools = {INT: [0, 1, 12, -3, None], STR: ["a", "b", "none", None, ""], CARD: [0, 1, 2, 3, None],
             PLAYER: [0, 1, None], BOOL: [True, False], NUM: [1, 1.0, 2.5, None]}
    for of, pool in pools.items():
        typ = list_of(of)
        for _ in range(40):
            opts = [[rnd.choice(pool) for _ in range(rnd.randint(0, 3))] for _ in range(rnd.randint(0, 6))]
            if rnd.random() < 0.2:
                opts.append(None)
            assert rules.labels(opts, typ) == [rules.label(o, typ) for o in opts], (typ, opts)
            seen, expected = set(), []
            for o in opts:
                if rules.label(o, typ) not in seen:
                    seen.add(rules.label(o, typ))
                    expected.append(o)
            assert rules.distinct(opts, typ) == expected, (typ, opts)
    nested = [[[1, 2], [3]], [[1, 2], [3]], [], [[]]]
    assert rules.labels(nested, "list[list[int]]") == ["1+2+3", "1+2+3", "[]", "[]"]
    assert rules.distinct([[0], [1], [2]], list_of(CARD)) == [[0], [1]]   # (cards 0 and 2 alike: 1A, 1B)


def test_two_different_lists_that_share_a_label_are_a_runtime_error(tmp_path):
    """A choice is made by its label: ['a', 'b'] and ['a+b'] (or [] and ['[]']) cannot both be
    offered, and keeping one would hide the other; lists whose elements are labelled alike one by
    one (alike cards, none and 'none') are one option."""
    game = tiny_ruleset("""
vars:
  picked: "list[str]"
flow:
  - choose: {who: 0, options: "subsets(['a+b', 'a', 'b'])", as: picked, prompt: p}
""", game="lab")
    with pytest.raises(GameError) as info:
        load_text(tmp_path, game).new_game(2, seed=1)
    e = info.value
    assert "the options ['a+b'] and ['a', 'b'] share the label 'a+b'" in e.message and e.loc.line == 10
    with pytest.raises(GameError, match=r"the options \[\] and \['\[\]'\] share the label '\[\]'"):
        load_text(tmp_path, game.replace("'a+b'", "'[]'"), "empty.yaml").new_game(2, seed=1)
    S = load_text(tmp_path, game.replace("'a+b', 'a', 'b'", "'none', 'a', t").replace("vars:\n", "vars:\n  t: str\n"),
                  "none.yaml").new_game(2, seed=1)   # (t not set: none)
    assert S.legal_actions() == ["[]", "none", "a", "none+a", "none+none", "a+none", "none+a+none"]


def test_a_cards_text_is_as_long_as_the_longest_label(tmp_path):
    # text(card) writes its label, whose length is known at load: comparing two inside a filter
    # over another is weighed by that (a few characters), not as a variable's text (100,000),
    # which refused it as past MAX_COST
    rules = load_text(tmp_path, tiny_ruleset("""
  hand: {owner: player, visible: owner}
vars:
  n: {type: int, start: 0}
flow:
  - deal: {from: deck, to: hand, count: 3}
  - set: {n: "count(hand[0] as a where count(hand[0] as b where text(a) < text(b)) > 0)"}
  - set: {n: "n + count(hand[0] where 'A' in text(it))"}
scoring: {categories: {p: n}}
""", game="labels"))
    assert max(s.charge for s in rules.steps) < 1_000
    S = rules.new_game(2, seed=1)
    hand = [rules.card_labels[c] for c in S.z["hand"][0]]
    assert S.is_terminal() and S.v["n"] == len(hand) - 1 + sum("A" in h for h in hand)
