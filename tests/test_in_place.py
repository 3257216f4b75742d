"""Work written where it is done, no call: a card taken out of a zone kept in card order (or out of
a view) by its bisection written in (expr/cdialect.py ``sorted_take_inline``), and a declared
effect's body written where a step writes the list calling it (building/inlined.py
``declared_in``). Each does what the call did: the same items left, the same errors, the
same games as the plain reference."""
from __future__ import annotations

import random
import sys
from bisect import bisect_left
from pathlib import Path

import pytest

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
        c = sorted_take_inline("S.vw[0]", "_c3", "_i4", "_v5")   # (the same locals bound as in Python)
        assert c == "_i4 = _v5 = None; " + sorted_take("S.vw[0]", "_c3") and "\n" not in c
    from helpers import bundled
    source = bundled("mister_diamond").module_source
    assert "_remove_sorted(" not in source and source.count("_bisect_left(") >= 2   # (the view, known_fakes)


CALLED = """vars:
  n: {type: int, start: 0}
  a: {type: int, start: 0}
  b: {type: int, start: 0}
counters:
  points: {owner: player, start: 0}
effects:
  once:
    params: {x: int, y: int}
    do:
      - set: {a: "x", b: "12 // y"}
      - gain: {counter: points, amount: "x"}
      - set: {a: "a + b"}
      - set: {b: "b + a"}
      - set: {a: "a * 2"}
      - set: {b: "b - 1"}
  twice:
    - set: {b: "b + 1"}
  long:
    - set: {a: "a + 1"}
    - set: {a: "a + 2"}
    - set: {a: "a + 3"}
    - set: {a: "a + 4"}
    - set: {a: "a + 5"}
    - set: {a: "a + 6"}
    - set: {a: "a + 7"}
  moving:
    - move: {from: pool, to: "hand", count: 1}
zones:
  pool: {start: [chip]}
  hand: {owner: player}
components:
  chip: {attributes: {face: [a, b, c, d, e, f]}, label: "{face}"}
flow:
  - turns:
      rounds: 2
      steps:
        - choose: {options: "[0, 1, 2]", as: n}
        - once: {y: "n", x: "n + 1"}
        - twice
        - long
        - set: {a: "a + 1"}
        - long
        - twice
        - choose: {options: "[4, 5]", as: b, then: [{move: {from: pool, to: hand, count: 1}}, moving]}
"""


def _called(tmp_path, name: str, options: str = "[1, 2, 3]", beside: bool = False):
    """CALLED (``beside``: the move and ``moving`` one list) with the choice's ``options``."""
    from test_inline import two_seats
    text = CALLED.replace("[0, 1, 2]", options)
    if not beside:
        text = text.replace(", then: [{move: {from: pool, to: hand, count: 1}}, moving]}", "}\n        - moving")
    return two_seats(tmp_path, name, text), 4 + text.splitlines().index('        - once: {y: "n", x: "n + 1"}')


def test_a_declared_effect_called_once_or_short_is_written_where_it_is_called(tmp_path):
    """Called from one place (``once``, 13 statements) or short (``twice``, called twice): its body
    written where a step writes the list calling it, its arguments bound in the order written
    (``y`` first: evaluated as the call's keywords were), ``me`` bound only where it is read (the
    points gained); long and called twice (``long``) still called. The same games and events as
    the plain reference, which calls each, and the same errors, located at the calling step."""
    import interpreter
    from test_flowgen import lockstep, reference
    rules, _ = _called(tmp_path, "called")
    flow = rules.flow_source
    assert "E_once(" not in flow and "E_twice(" not in flow and "E_long(S, me)" in flow
    once = flow[flow.index("# E_once: called.yaml"):]
    assert once.index("P_y = ") < once.index("P_x = ") < once.index("S.c_points[me]")
    assert "    me = S.v_turn_player\n    # E_once: called.yaml" in flow   # (it reads the seat)
    twice = flow[flow.index("# E_twice: called.yaml"):]
    assert "me = " not in flow[flow.rindex("def R", 0, flow.index("# E_twice")):flow.index("# E_twice")]
    assert "me = S." in twice[:twice.index("return")]   # (only in the event's branch: its payload)
    for seed in range(4):
        assert lockstep(rules, 2, seed) > 0
    rules, line = _called(tmp_path, "failing", options="[0, 1]")   # 12 // 0 in the body written in
    said = []
    for each in (rules, reference(rules)):
        with pytest.raises(interpreter.GameError) as raised:
            each.new_game(2, seed=1).apply_index(0)
        said.append(str(raised.value))
    assert said[0] == said[1] and f"failing.yaml:{line}:" in said[0] and "division by zero" in said[0]


def test_a_declared_effect_beside_a_list_binding_its_names_is_called(tmp_path):
    """A declared effect whose locals (its fresh names) the calling list binds too is called, not
    written in: its ``_s1`` would overwrite the list's."""
    from test_flowgen import lockstep
    rules, _ = _called(tmp_path, "beside", beside=True)
    assert "E_moving(S, me)" in rules.flow_source and "E_twice(" not in rules.flow_source
    for seed in range(3):
        assert lockstep(rules, 2, seed) > 0
