"""Conditions written as statements (interpreter/expr/statements.py) mean what the expression means.
The rewrite reads the shapes the compiler notes as it writes a condition (interpreter/expr/code.py)."""
import random

import pytest

from interpreter.expr.code import AnyLoop, BoolOp, Compare, Not, code
from interpreter.expr.compiler import compile_expression
from interpreter.expr.names import Names
from interpreter.expr.statements import as_statements


def _run(lines, env):
    local = dict(env)
    exec("\n".join(lines), {}, local)   # noqa: S102 - test code
    return local["_ok"]


def _any(var, lst, cond):
    return code(f"any(True for {var} in {lst} if {cond})", AnyLoop(var, code(lst), cond))


def _random_condition(rng, depth=0):
    """A random condition over the lists a, b and the number k, with its shape as the compiler
    notes it."""
    roll = rng.random()
    if depth > 2 or roll < 0.35:
        var, lst, op, limit = f"x{depth}", rng.choice("ab"), rng.choice([">", "==", "<"]), rng.randint(0, 6)
        cond = code(f"({var} {op} {limit})", Compare(op, code(var), code(str(limit)))) if rng.random() < 0.8 \
            else code("True")
        return _any(var, lst, cond)
    if roll < 0.5:
        return code(rng.choice(["(k > 2)", "k", "[]", "a"]))       # non-bool operands: and/or return them
    if roll < 0.6:
        inner = _random_condition(rng, depth + 1)
        return code(f"(not {inner})", Not(inner))
    op = rng.choice(["and", "or"])
    parts = tuple(_random_condition(rng, depth + 1) for _ in range(rng.randint(2, 3)))
    return code("(" + f" {op} ".join(parts) + ")", BoolOp(op, parts))


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
    first = _any("x", "[2, 0]", code("(10 / x > 1)"))
    lines = as_statements(code(f"({first} or (1 / 0))", BoolOp("or", (first, code("(1 / 0)")))), "_ok")
    assert _run(lines, {}) is True
    lines = as_statements(_any("x", "[0, 2]", code("(10 / x > 1)")), "_ok")
    with pytest.raises(ZeroDivisionError):
        _run(lines, {})


def test_a_condition_without_any_is_left_as_it_is():
    k = code("(k > 2)", Compare(">", code("k"), code("2")))
    assert as_statements(code(f"({k} and a)", BoolOp("and", (k, code("a")))), "_ok") is None
    assert as_statements("any(True for x in a if x)", "_ok") is None   # text alone: never parsed back


def test_the_compiler_notes_the_shapes_it_writes():
    names = Names(zones={"hand": "player", "pile": "none"}, attrs={"rank": "int"}, vars={"k": "int"})
    src = compile_expression("count(pile where rank == k + 1) > 0 and not (k > 2)", names).source   # (k + 1: no scan)
    s = src.shape
    assert isinstance(s, BoolOp) and s.op == "and" and isinstance(s.parts[1].shape, Not)
    lines = as_statements(src, "_ok")
    assert lines is not None and any(line.startswith("for ") for line in lines)


def _filter(rng):
    """A random filter of the list ``a`` (or none, ``n``) by a condition on its element ``x`` and
    the number ``k``, written as compiler.filter_source writes it, with its shape."""
    from interpreter.expr.code import Filter
    lst = rng.choice(["a", "a", "n"])
    rest = rng.choice([f"(x > {rng.randint(0, 6)})", "(x != k)", "(10 // x > 1)", ""])
    once = rng.choice(["", "(k > 1)", "(10 // k > 2)"])
    if not once:
        rest = rest or "True"
        return code(f"[x for x in {lst} if {rest}]", Filter("x", code(lst), code(rest), ("", rest)))
    where = f" if {rest}" if rest else ""
    text = f"[x for w in ({lst},) if not w or ({once}) for x in w{where}]"
    return code(text, Filter("x", code(lst), code(f"{once} and {rest}" if rest else once), (once, rest)))


def _outcome(run, *args):
    try:
        return run(*args)
    except (TypeError, ZeroDivisionError) as e:   # (the same error, raised at the same element)
        return type(e)


def test_a_filter_written_as_a_loop_gives_the_comprehension_s_list_and_errors():
    rng = random.Random(9)
    for _ in range(300):
        src = _filter(rng)
        lines = as_statements(src, "_ok")
        assert lines is not None and not any("[" in line and " for " in line for line in lines)
        for _ in range(5):
            env = {"a": [rng.randint(0, 6) for _ in range(rng.randint(0, 5))], "n": None, "k": rng.randint(0, 4)}
            expected = _outcome(eval, src, dict(env))   # noqa: S307 - test code (its globals: a comprehension's scope)
            assert _outcome(_run, lines, env) == expected, (src, env)


def test_the_compiler_notes_a_filter_it_writes_as_a_comprehension():
    names = Names(zones={"hand": "player", "pile": "none"}, attrs={"rank": "int"}, vars={"k": "int"})
    src = compile_expression("pile where rank > k", names).source
    assert src.shape.split == ("", str(src.shape.cond))
    src = compile_expression("pile where k > 2 and rank > k", names).source   # (k > 2 asked once)
    once, rest = src.shape.split
    assert "rank" not in once and "A_rank" in rest
    from interpreter.expr.compiler import Compiler
    plain = Compiler(names, plain=True).compile("pile where rank > k").source
    assert plain.shape.split is None   # (the plain reference keeps the comprehension)
