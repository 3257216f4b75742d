"""An effect list too long to be written in place is called, inside the handler that locates
its errors at its step; where that call sits deeper in the generated code (an attempt's outcome
of two effect lists, each with its handler, inside the costly roll's own, which counts the roll
again on an error), the handler's lines are indented with it (found by a fuzz campaign, seed 7121: the module did not compile, an
IndentationError at load)."""
from __future__ import annotations

from interpreter.building.inlined import INLINE_LINES
from helpers import load_text
from test_flowgen import ATTEMPTS, lockstep

# the half outcome's steps: a set, then an if with enough moves to pass INLINE_LINES statements
MOVES = ", ".join(["{move: {from: board, to: taken, count: 1}}"] * (INLINE_LINES // 2 + 1))
LONG = ATTEMPTS.replace("""chance: "0.1", if: "count(board) > 3", steps: [{set: {result: "'halfway'"}}]}""",
                        """chance: "0.1 if count(board where count(board where n > it.n) > 0) > 0 else 0.2",
                  if: "count(board) > 3", steps: [{set: {result: "'halfway'"}}, {if: "count(board) > 8", then: [%s]}]}""" % MOVES)


def test_a_long_effect_list_called_in_an_outcome_compiles_and_plays_as_the_reference(tmp_path):
    assert LONG != ATTEMPTS
    rules = load_text(tmp_path, LONG % "", "attempts.yaml")
    assert any(s.kind == "attempt" and s.charge for s in rules.steps)   # (its roll counted again on an error)
    for seed in range(6):
        assert lockstep(rules, 2, seed) > 0
