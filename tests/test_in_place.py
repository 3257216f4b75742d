"""Work written where it is done, no call: a card taken out of a zone kept in card order (or out of
a view) by its bisection written in (expr/cdialect.py ``sorted_take_inline``), and a declared
effect's body written where a step writes the list calling it (building/flowgen.py
``FlowSource.declared``). Each does what the call did: the same items left, the same errors, the
same games as the plain reference."""
from __future__ import annotations

import random
import sys
from bisect import bisect_left
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from interpreter.expr.cdialect import C_SLOTS, dialect, sorted_take, sorted_take_inline  # noqa: E402
from interpreter.expr.runtime import HELPERS  # noqa: E402
from test_accel_moves import Cards, _case, _done  # noqa: E402


def _taking(bound: bool):
    """A function ``take(seq, card)`` running the statement sorted_take_inline writes."""
    line = sorted_take_inline("seq", "card", "_i", "_v" if bound else None)
    ns: dict = {"_bisect_left": bisect_left}
    exec(f"def take(seq, card):\n    {line}\n", ns)  # noqa: S102 - a fixed statement
    return ns["take"]


def test_a_card_out_of_a_sorted_list_in_place_does_what_remove_sorted_does():
    """Over lists of cards in order or not, with cards that are no ints, there or not: the same
    items left (the same objects), the same comparisons, the same error as ``_remove_sorted``."""
    rng = random.Random(11)
    takes = (_taking(False), _taking(True))
    seen = set()
    for _ in range(4000):
        seq, card = _case(rng)
        if not isinstance(seq, list):   # (a zone and a view are lists)
            seq = (Cards if rng.random() < 0.1 else list)(seq if not isinstance(seq, str) else [])
        expected = _done(HELPERS["_remove_sorted"], type(seq)(seq), card)
        for take in takes:
            assert _done(take, type(seq)(seq), card) == expected, (seq, card)
        seen.add((expected[2] and expected[2][0], bool(expected[1])))
    assert {(None, False), (None, True), (ValueError, False), (TypeError, False)} <= seen   # (every outcome met)


def test_a_card_out_of_a_sorted_list_is_one_line_and_a_call_in_c():
    """One line, as the call it replaces (the dialects' texts keep the same lines: the compiled
    tier compiles the functions found at the lines of the module that runs); in C the call made
    in C (accel/slots.h rb_take_sorted)."""
    assert "\n" not in sorted_take_inline("S.vw[0]", "_c3", "_i4", "_v5")
    with dialect(C_SLOTS):
        assert sorted_take_inline("S.vw[0]", "_c3", "_i4", "_v5") == sorted_take("S.vw[0]", "_c3")
    from helpers import bundled
    source = bundled("mister_diamond").module_source
    assert "_remove_sorted(" not in source and source.count("_bisect_left(") >= 2   # (the view, known_fakes)
