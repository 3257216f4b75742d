"""Conditions written as statements (interpreter/expr/statements.py) mean what the expression means."""
import random

import pytest

from interpreter.expr.statements import as_statements


def _run(lines, env):
    local = dict(env)
    exec("\n".join(lines), {}, local)   # noqa: S102 - test code
    return local["_ok"]


def _random_condition(rng, depth=0):
    """A random generated-style condition over the lists a, b and the number k."""
    roll = rng.random()
    if depth > 2 or roll < 0.35:
        lst, op, limit = rng.choice("ab"), rng.choice([">", "==", "<"]), rng.randint(0, 6)
        clause = f" if (x{depth} {op} {limit})" if rng.random() < 0.8 else ""
        return f"any(True for x{depth} in {lst}{clause})"
    if roll < 0.5:
        return rng.choice(["(k > 2)", "k", "[]", "a"])       # non-bool operands: and/or return them
    if roll < 0.6:
        return f"(not {_random_condition(rng, depth + 1)})"
    op = rng.choice([" and ", " or "])
    return "(" + op.join(_random_condition(rng, depth + 1) for _ in range(rng.randint(2, 3))) + ")"


def test_random_conditions_give_the_same_value_as_the_expression():
    rng = random.Random(5)
    checked = 0
    for _ in range(400):
        src = _random_condition(rng)
        lines = as_statements(src, "_ok")
        for _ in range(5):
            env = {"a": [rng.randint(0, 6) for _ in range(rng.randint(0, 4))],
                   "b": [rng.randint(0, 6) for _ in range(rng.randint(0, 4))], "k": rng.randint(0, 4)}
            expected = eval(src, {}, dict(env))   # noqa: S307 - test code
            got = _run(lines, env) if lines is not None else expected
            assert got == expected and type(got) is type(expected), (src, env)
            checked += lines is not None
    assert checked > 1000


def test_the_loop_stops_at_the_deciding_element():
    lines = as_statements("any(True for x in [2, 0] if 10 / x > 1) or (1 / 0)", "_ok")
    assert _run(lines, {}) is True
    lines = as_statements("any(True for x in [0, 2] if 10 / x > 1)", "_ok")
    with pytest.raises(ZeroDivisionError):
        _run(lines, {})


def test_a_condition_without_any_is_left_as_it_is():
    assert as_statements("(k > 2) and a", "_ok") is None
    assert as_statements("any([1, 2])", "_ok") is None              # not a generator
    assert as_statements("any(x for x in a)", "_ok") is None        # not `True for`: the value counts
    assert as_statements("any(True for x in a for y in b)", "_ok") is None
    assert as_statements("not a valid (", "_ok") is None
