"""Conditions as statements: ``any()`` over a generator becomes a loop that breaks.

The compiler writes ``count(hand where C) > 0`` as ``any(True for x in hand if C)``, which
stops at the first match but pays for a generator: for a hand of five cards the generator
costs three times a plain loop. Where generated code is a function body (a branch's
conditions, a compiled expression), the top of a condition is therefore written as
statements that leave its value in a variable, with the same short-circuits:

    any(True for x in L if C)   ->   ok = False
                                     for x in L:
                                         if C:
                                             ok = True
                                             break
    A and B                     ->   ok = A; if ok: ok = B   (each part written the same way)
    A or B, not A               ->   likewise

Only the generated source is rewritten (parsed with ``ast``, printed back with
``ast.unparse``), never user text; a source with no such ``any()`` is left as it was.
"""
from __future__ import annotations

import ast

from ..loading.kept import Kept


def as_statements(src: str, target: str) -> tuple[str, ...] | None:
    """Lines that set ``target`` to the value of the expression ``src`` (None: nothing to
    gain, use the expression as it is); kept by their source (loading/kept.py)."""
    return _written.get((src, target), lambda: _as_statements(src, target), len(src))


_written = Kept(1_000_000)   # (source, target) -> as_statements' lines


def _as_statements(src: str, target: str) -> tuple[str, ...] | None:
    try:
        tree = ast.parse(src, mode="eval").body
        if not _has_any(tree):
            return None
        lines: list[str] = []
        _emit(tree, target, "", lines)
        return tuple(lines)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None


def _loop(node) -> ast.comprehension | None:
    """The clause of ``any(True for x in L if ...)``, if ``node`` is one."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "any"
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.GeneratorExp)):
        gen = node.args[0]
        if (isinstance(gen.elt, ast.Constant) and gen.elt.value is True and len(gen.generators) == 1
                and not gen.generators[0].is_async and isinstance(gen.generators[0].target, ast.Name)):
            return gen.generators[0]
    return None


def _has_any(node) -> bool:
    if _loop(node) is not None:
        return True
    if isinstance(node, ast.BoolOp):
        return any(_has_any(v) for v in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _has_any(node.operand)
    return False


def _emit(node, target: str, pad: str, lines: list[str]) -> None:
    clause = _loop(node)
    if clause is not None:
        test = " and ".join(f"({ast.unparse(c)})" for c in clause.ifs) or "True"
        lines += [f"{pad}{target} = False",
                  f"{pad}for {ast.unparse(clause.target)} in {ast.unparse(clause.iter)}:",
                  f"{pad}    if {test}:",
                  f"{pad}        {target} = True",
                  f"{pad}        break"]
    elif isinstance(node, ast.BoolOp):
        # Python's `and`/`or` give the deciding operand: keep going while it does not decide
        _emit(node.values[0], target, pad, lines)
        for value in node.values[1:]:
            lines.append(f"{pad}if {'' if isinstance(node.op, ast.And) else 'not '}{target}:")
            pad += "    "
            _emit(value, target, pad, lines)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        _emit(node.operand, target, pad, lines)
        lines.append(f"{pad}{target} = not {target}")
    else:
        lines.append(f"{pad}{target} = {ast.unparse(node)}")
