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

The shapes are those the compiler noted as it wrote the condition (code.py), never parsed
back from its text; a condition with no such ``any()`` is left as it was.
"""
from __future__ import annotations

from .code import AnyLoop, BoolOp, Not, shape


def as_statements(src: str, target: str) -> tuple[str, ...] | None:
    """Lines that set ``target`` to the value of the expression ``src`` (None: nothing to
    gain, use the expression as it is)."""
    if not _has_any(src):
        return None
    lines: list[str] = []
    _emit(src, target, "", lines)
    return tuple(lines)


def _has_any(src) -> bool:
    s = shape(src)
    if isinstance(s, AnyLoop):
        return True
    if isinstance(s, BoolOp):
        return any(_has_any(part) for part in s.parts)
    return isinstance(s, Not) and _has_any(s.operand)


def _emit(src, target: str, pad: str, lines: list[str]) -> None:
    s = shape(src)
    if isinstance(s, AnyLoop):
        lines += [f"{pad}{target} = False",
                  f"{pad}for {s.var} in {s.iter}:",
                  f"{pad}    if ({s.cond}):",
                  f"{pad}        {target} = True",
                  f"{pad}        break"]
    elif isinstance(s, BoolOp):
        # Python's `and`/`or` give the deciding operand: keep going while it does not decide
        _emit(s.parts[0], target, pad, lines)
        for part in s.parts[1:]:
            lines.append(f"{pad}if {'' if s.op == 'and' else 'not '}{target}:")
            pad += "    "
            _emit(part, target, pad, lines)
    elif isinstance(s, Not):
        _emit(s.operand, target, pad, lines)
        lines.append(f"{pad}{target} = not {target}")
    else:
        lines.append(f"{pad}{target} = {src}")
