"""A define expanded more than once in one expression is computed once per evaluation
(expr/once.py): what it reads of the state is read once, its value is the plain compile's,
and where it reads the element of a filter around it, it is computed per element as before."""
from __future__ import annotations

import pytest

from interpreter.errors import RulesetError
from interpreter.expr import Compiler, ExprError
from interpreter.expr.limits import MAX_SOURCE
from helpers import load_text, tiny_ruleset

GAME = tiny_ruleset("""
  pile: {}
vars:
  x: {type: int, start: 0}
define:
  both: "(pile where rank > 2) + (deck where rank > 3)"
  plain: "pile where rank > 2"
  sum3: "x * 7 + x * 5 + x * 3 + 1"
  near: "count(pile where rank > 2) + rank"
  broken: "count(pile) + nosuch"
flow: []
""")


class Counting:
    """A state whose attribute reads are counted, for what a compiled expression reads."""

    def __init__(self, S):
        object.__setattr__(self, "_S", S)
        object.__setattr__(self, "reads", {})

    def __getattr__(self, name):
        self.reads[name] = self.reads.get(name, 0) + 1
        return getattr(self._S, name)


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return load_text(tmp_path_factory.mktemp("once"), GAME)


def _both(rules, text, slot="z_pile"):
    """The expression compiled as the engine does and plainly, each run on a counting state:
    (the value, the reads of ``slot``) of each."""
    S = rules.new_game(players=2, seed=1)
    S.z_pile, S.z_deck = S.z_deck[:6], S.z_deck[6:]   # (a state is plain data)
    out = []
    for plain in (False, True):
        fn = Compiler(rules.names, plain=plain).compile(text, has_me=True).fn
        counting = Counting(S)
        out.append((fn(counting, 0, {}), counting.reads.get(slot, 0)))
    return out


@pytest.mark.parametrize("text, slot, reads", [
    ("both if count(both) > 1 else []", "z_pile", 1),     # the condition runs first, the value reuses it
    ("count(both) + count(both where rank > 4)", "z_pile", 1),   # in a filter's iterable (no := there)
    ("sum3 + sum3 * 2", "v_x", 3),
    ("count(deck where rank < count(both)) + count(both)", "z_pile", 1),   # in a loop and out of it
])
def test_a_define_used_twice_is_computed_once(rules, text, slot, reads):
    """Read once where the plain compile (every use written out) reads it at each use."""
    (fast, got), (plain, plain_got) = _both(rules, text, slot)
    assert fast == plain and got == reads < plain_got, (got, plain_got)


def test_a_define_in_a_branch_not_taken_is_not_computed(rules):
    (fast, reads), _ = _both(rules, "[] if x == 0 else both + both")
    assert fast == [] and reads == 0


@pytest.mark.parametrize("text", [
    "count(deck where near > 4 and near < 7)",   # reads each card's rank: computed for each card
    "deck where plain != [] and count(plain) > rank",   # a filter: fused into its uses, not held
])
def test_a_define_that_reads_the_element_or_is_fused_is_not_held(rules, text):
    (fast, _), (plain, _) = _both(rules, text)
    assert fast == plain
    assert "_d0" not in Compiler(rules.names).compile(text, has_me=True).source


def test_an_error_in_a_define_used_twice_is_located_at_its_first_use(rules):
    with pytest.raises(ExprError) as e:
        Compiler(rules.names).compile("x + broken + broken", has_me=True)
    assert e.value.offset == 4 and "in define 'broken'" in e.value.message and "nosuch" in e.value.message


def test_an_expression_the_holding_makes_too_long_is_compiled_without_it(tmp_path):
    """``e + e`` whose plain code is just under MAX_SOURCE characters: the held form, longer by
    its wrapping, would pass it, so the expression compiles as it did before the holding."""
    def length(n):   # e: n x (lists of 500, through a define, then the rest), and e + e's plain code
        m, k = divmod(n, 500)
        text = GAME.replace("  both:", f'  f: "{XS(500)}"\n  e: "{"f + " * m}{XS(k)}"\n  both:')
        try:
            rules = load_text(tmp_path, text)
            return rules, len(Compiler(rules.names, plain=True).compile("e + e").source)
        except (RulesetError, ExprError):   # (too large)
            return None, MAX_SOURCE + 1

    lo, hi = 1000, 20000
    while lo < hi:   # the most x for which e + e fits
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if length(mid)[1] <= MAX_SOURCE else (lo, mid - 1)
    rules, size = length(lo)
    assert MAX_SOURCE - 60 < size <= MAX_SOURCE
    fast = Compiler(rules.names).compile("e + e")
    S = rules.new_game(players=2, seed=1)
    assert "_d0" not in fast.source and fast.fn(S, 0, {}) == [0] * (2 * lo)
    shorter = length(lo - 100)[0]   # (room for the wrapping: held)
    assert "_d0" in Compiler(shorter.names).compile("e + e").source


def XS(k):
    return "[" + ", ".join(["x"] * k) + "]"
