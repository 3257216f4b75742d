"""The compiled tier's moves of cards (accel/slots.h rb_take_sorted, rb_insort, rb_remove, which
the C dialect writes for a move: expr/cdialect.py): each does what the Python it stands for
does (expr/runtime.py ``_remove_sorted``, ``bisect.insort``, ``list.remove``) for any input,
the same items left in the same places, the same comparisons made, the same errors."""
from __future__ import annotations

import bisect
import builtins
import importlib.util
import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402
from interpreter.accel.build import compiler  # noqa: E402
from interpreter.expr.cdialect import C_SLOTS, dialect, dialect_helpers, list_take, sorted_put, sorted_take  # noqa: E402
from interpreter.expr.runtime import HELPERS  # noqa: E402
from helpers import module_from_file  # noqa: E402
from test_accel import _final_states  # noqa: E402

can_compile = pytest.mark.skipif(importlib.util.find_spec("Cython") is None or compiler() is None,
                                 reason="needs Cython and a C compiler")


def _moves_text() -> str:
    """A module of three functions, each one move as the C dialect writes it."""
    with dialect(C_SLOTS):
        lines = [sorted_take("seq", "card"), sorted_put("seq", "card"), list_take("seq", "card")]
    return "".join(f"def {name}(seq, card):\n    {line}\n\n" for name, line in
                   zip(("take_sorted", "put_sorted", "take"), lines)) + "_remove_sorted = _insort = None\n"


class Spy:
    """A card that is no int: each comparison it takes part in is noted in ``said``."""
    said: list = []

    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return f"Spy({self.v})"

    def _cmp(self, op, other):
        Spy.said.append((op, self.v, other.v if isinstance(other, Spy) else other))
        return getattr(self.v, op)(other.v if isinstance(other, Spy) else other)

    def __eq__(self, other):
        return self._cmp("__eq__", other)

    def __lt__(self, other):
        return self._cmp("__lt__", other)

    def __gt__(self, other):
        return self._cmp("__gt__", other)

    __hash__ = None   # type: ignore[assignment]


class Int(int):
    """An int of another type (its own comparisons, Python's)."""


class Cards(list):
    """A list of another type, whose own insert and remove are noted in ``Spy.said``."""

    def insert(self, i, x):
        Spy.said.append(("insert", i, x))
        super().insert(i, x)

    def remove(self, x):
        Spy.said.append(("remove", x))
        super().remove(x)


def _odd(rng: random.Random, v: int):
    """A card or item that is no whole number of one digit of exactly the int type."""
    return rng.choice([2**40 + v, -(2**40) - v, -v, v == 1, float(v), Int(v), Spy(v), str(v), None])


def _case(rng: random.Random):
    """A list of cards, mostly ints kept in order (some equal, some past the small ints CPython
    keeps one of each: other objects, equal in value), sometimes with an item that is not such
    an int or out of order, sometimes another kind of sequence; and a card, there or not."""
    values = sorted(rng.choice([rng.randrange(40), rng.randrange(250, 262), rng.randrange(2**31)])
                    for _ in range(rng.randrange(30)))
    seq = [int(str(v)) for v in values]   # (a new object for each value past 256)
    if seq and rng.random() < 0.3:
        seq[rng.randrange(len(seq))] = _odd(rng, rng.randrange(40))
    if seq and rng.random() < 0.1:
        rng.shuffle(seq)
    card = int(str(rng.choice(values))) if values and rng.random() < 0.7 else rng.randrange(300)
    if seq and rng.random() < 0.2:
        card = seq[rng.randrange(len(seq))]   # (the very object)
    if rng.random() < 0.15:
        card = _odd(rng, rng.randrange(40))
    kind = rng.choices([list, tuple, Cards, str], [20, 1, 1, 1])[0]
    return (kind(seq) if kind is not str else "abc"), card


def _done(move, seq, card):
    """What ``move(seq, card)`` did: the items after (each with its identity), the comparisons
    made, the error raised."""
    Spy.said = []
    try:
        move(seq, card)
        error = None
    except Exception as e:   # (the same error, of the same kind)
        error = (type(e), str(e))
    items = [(type(x), repr(x), id(x)) for x in seq] if not isinstance(seq, str) else seq
    return items, Spy.said, error


@pytest.mark.slow   # (a small compile)
@can_compile
def test_a_move_in_c_does_what_python_does(tmp_path):
    from interpreter.accel.build import compile_file
    from interpreter.accel.rulesets import DECLARED, HEADER
    (tmp_path / "moves.py").write_text(_moves_text())
    (tmp_path / "moves.pxd").write_text(DECLARED)
    m = module_from_file("moves", compile_file(tmp_path / "moves.py", "moves", tmp_path, include=(str(HEADER.parent),)))
    m._remove_sorted, m._insort = HELPERS["_remove_sorted"], bisect.insort   # (what the ruleset's namespace holds)
    python = {m.take_sorted: HELPERS["_remove_sorted"], m.put_sorted: bisect.insort, m.take: lambda s, x: s.remove(x)}
    rng = random.Random(5)
    seen = set()
    for _ in range(3000):
        seq, card = _case(rng)
        for c_move, py_move in python.items():
            ours, theirs = (type(seq)(seq) if isinstance(seq, list) else seq), (type(seq)(seq) if isinstance(seq, list) else seq)
            done = _done(c_move, ours, card)
            assert done == _done(py_move, theirs, card), (c_move.__name__, seq, card)
            seen.add((c_move.__name__, done[2] and done[2][0], bool(done[1])))
    # every kind of outcome met: moved, each error, a card compared by its own methods
    print(sorted(seen, key=str))
    for name in ("take_sorted", "put_sorted", "take"):
        assert {(name, None, False), (name, None, True), (name, AttributeError, False)} <= seen, name
    assert {("take_sorted", ValueError, False), ("take", ValueError, False), ("take", ValueError, True),
            ("take_sorted", TypeError, False), ("put_sorted", TypeError, False)} <= seen


def test_a_move_is_written_for_c_only_in_the_dialect():
    """In Python's dialect a move is written as it was (the module that runs); in C's, each card
    taken out or put in is one of slots.h's calls, given the Python it stands for."""
    text = _moves_text()
    assert "_rb_take_sorted(seq, card, _remove_sorted)" in text and "_rb_insort(seq, card, _insort)" in text
    assert [sorted_take("s", "x"), sorted_put("s", "x"), list_take("s", "x")] == [
        "_remove_sorted(s, x)", "_insort(s, x)", "s.remove(x)"]
    # as Python, for the C dialect's code that runs while a ruleset is built (cdialect.dialect_helpers)
    ns: dict = {"__builtins__": {**vars(builtins), **dialect_helpers()}}
    exec(text.replace("_remove_sorted = _insort = None", ""), ns)
    ns.update(_remove_sorted=HELPERS["_remove_sorted"], _insort=bisect.insort)
    seq = [1, 3, 3, 7, 9]
    ns["take_sorted"](seq, 3), ns["put_sorted"](seq, 4), ns["take"](seq, 9)
    assert seq == [1, 3, 4, 7]
    with pytest.raises(ValueError, match=r"list.remove\(x\): x not in list"):
        ns["take_sorted"](seq, 5)
    from interpreter.building import written_for_c
    from interpreter.loading.resources import find_ruleset
    from interpreter.loading.variants import load_data
    for game in ("mister_diamond", "diams"):
        c = written_for_c(load_data(find_ruleset(game), None))
        assert "_rb_take_sorted(" in c and "_rb_insort(" in c and "_rb_remove(" in c
        # none of a move's left in Python's spelling (a call of either; a zone's remove, _s1.remove)
        assert re.findall(r"(?<![\w, ])_(?:remove_sorted|insort)\(|\b_s\d+\.remove\(", c) == [], game
        # (in Python's, a card out of a sorted list by its bisection written in: one line, as the call)
        assert "_bisect_left(" in interpreter.load(game).module_source


@pytest.mark.slow   # (a first compile of a seed game's module)
@can_compile
def test_a_game_whose_moves_run_in_c_plays_the_same_games(tmp_path, monkeypatch):
    """Mister Diamond compiled as the loader compiles it (its hot functions, in the C dialect):
    the moves of its cards in and out of a sorted zone and a view are slots.h's, and its games
    are the Python module's."""
    from interpreter.accel import rulesets
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    monkeypatch.delenv("RULEBOOK_COMPILED", raising=False)
    texts = []
    compile_file = rulesets.compile_file
    monkeypatch.setattr(rulesets, "compile_file", lambda source, *a, **kw: texts.append(source.read_text())
                        or compile_file(source, *a, **kw))
    rules = interpreter.load("mister_diamond", compiled=True)
    (text,) = texts
    assert all(f"{call}(" in text for call in ("_rb_take_sorted", "_rb_insort", "_rb_remove"))
    module = rules.advance.__globals__
    assert not {"_rb_take_sorted", "_rb_insort", "_rb_remove"} & set(module)   # (C's: no Python names)
    assert _final_states(rules, 12) == _final_states(interpreter.load("mister_diamond"), 12)
