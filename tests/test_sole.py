"""``one(top(L, by: K))`` and ``one(bottom(...))`` without the list of ties (runtime._sole): the
value and the error of the plain ``_one(_top(...))``, whatever the keys."""
from __future__ import annotations

import math

import pytest

from interpreter.expr.compiler import Compiler, base_namespace
from interpreter.expr.names import Names
from interpreter.expr.runtime import _bottom, _one, _one_bottom, _one_top, _top

NAN = math.nan
KEYS = [[], [3], [1, 3, 2], [3, 1, 3], [2, 2], [NAN], [NAN, 1], [1, NAN], [1, NAN, 1], [2, NAN, 1],
        [1, True], [1.0, 1], [True, 2, 2.0], ["b", "a", "b"], ["a", "c"], [[1], [2]], [[NAN], [0]],
        [1, "a"], [None, 1], [-0.0, 0]]


def outcome(fn, *args):
    try:
        return "value", fn(*args)
    except Exception as e:   # noqa: BLE001 - the error is what is compared
        return type(e), str(e)


@pytest.mark.parametrize("keys", KEYS, ids=map(repr, KEYS))
@pytest.mark.parametrize("sole, ties", [(_one_top, _top), (_one_bottom, _bottom)], ids=["top", "bottom"])
def test_one_of_the_ties_without_building_them(keys, sole, ties):
    seq = [f"e{i}" for i in range(len(keys))]
    key = dict(zip(seq, keys)).__getitem__
    assert outcome(sole, seq, key) == outcome(lambda s, k: _one(ties(s, k)), seq, key)


def test_a_failing_key_fails_first_as_in_the_ties():
    def key(x):
        if x == 2:
            raise ZeroDivisionError("the third")
        return "a" if x else 1   # (1 against "a": a TypeError at max(), after every key)
    assert outcome(_one_top, [0, 1, 2], key) == outcome(lambda s, k: _one(_top(s, k)), [0, 1, 2], key)
    assert outcome(_one_top, [0, 1, 2], key)[0] is ZeroDivisionError


def test_one_of_top_compiles_to_the_sole_helper_and_plainly_to_the_ties():
    text = "one(top(players, by: it % 2)) == one(bottom(players, by: it))"
    names = Names()
    names.namespace = base_namespace()
    fast, plain = Compiler(names).compile(text), Compiler(names, plain=True).compile(text)
    assert "_one_top(" in fast.source and "_one_bottom(" in fast.source and "_one(" not in fast.source
    assert "_one(_top(" in plain.source and "_one(_bottom(" in plain.source
