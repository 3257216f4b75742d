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
    sum([E for x in L]) OP B    ->   s = 0                   (a sum of whole numbers, alone or
                                     for x in L:              compared, in any of these places:
                                         s += E               no list built, no call; the same
                                     ok = s OP B              total, its elements in order)
    [x for x in L if C]         ->   ok = []                 (a filter, the whole value: a
                                     for x in L:              comprehension is a function made
                                         if C:                and called in Python 3.11, some
                                             ok.append(x)     1,800 instructions; the loop's
                                                              element costs about the same)

The shapes are those the compiler noted as it wrote the condition (code.py), never parsed
back from its text; a condition with no such ``any()`` nor sum is left as it was.
"""
from __future__ import annotations

from .code import AnyLoop, BoolOp, Compare, Filter, Not, Summed, shape


def as_statements(src: str, target: str) -> tuple[str, ...] | None:
    """Lines that set ``target`` to the value of the expression ``src`` (None: nothing to
    gain, use the expression as it is)."""
    if not _worth(src):
        return None
    lines: list[str] = []
    _emit(src, target, "", lines)
    return tuple(lines)


def _worth(src) -> bool:
    """Whether ``src`` holds an ``any()`` or a sum that the statements write as a plain loop."""
    s = shape(src)
    if isinstance(s, AnyLoop) or _summed(src) is not None or isinstance(s, Filter) and s.split is not None:
        return True
    if isinstance(s, BoolOp):
        return any(_worth(part) for part in s.parts)
    return isinstance(s, Not) and _worth(s.operand)


def _emit(src, target: str, pad: str, lines: list[str]) -> None:
    s = shape(src)
    if isinstance(s, AnyLoop):
        lines += [f"{pad}{target} = False",
                  f"{pad}for {s.var} in {s.iter}:"]
        lines += [f"{pad}    if ({_added_up(s.cond, pad + '    ', lines)}):",
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
    elif isinstance(s, Filter) and s.split is not None:
        once, rest = s.split
        lines.append(f"{pad}{target} = []")
        if once:   # (as compiler.filter_source's comprehension: asked once, of a list that is not empty)
            whole = f"_all{s.var}"
            lines += [f"{pad}{whole} = {s.iter}", f"{pad}if not {whole} or ({once}):"]
            pad, walked = pad + "    ", whole
        else:
            walked = s.iter
        lines.append(f"{pad}for {s.var} in {walked}:")
        if rest:
            lines += [f"{pad}    if {rest}:", f"{pad}        {target}.append({s.var})"]
        else:
            lines.append(f"{pad}    {target}.append({s.var})")
    else:
        lines.append(f"{pad}{target} = {_added_up(src, pad, lines)}")


def _summed(src) -> tuple[Summed, str | None] | None:
    """(the sum, the comparison's operator and right side) of a sum of whole numbers, or of a
    comparison that computes one first (its left side); else None."""
    s = shape(src)
    if isinstance(s, Summed):
        return s, None
    if isinstance(s, Compare) and isinstance(shape(s.left), Summed):
        return shape(s.left), f" {s.op} {s.right}"
    return None


def _added_up(src, pad: str, lines: list[str]) -> str:
    """``src`` with the sum it computes first added up by the lines written before it (a name
    made from its element's, fresh), or ``src`` itself."""
    found = _summed(src)
    if found is None:
        return src
    total, rest = found
    name = f"_sum{total.var}"
    lines += [f"{pad}{name} = 0",
              f"{pad}for {total.var} in {total.iter}:",
              f"{pad}    {name} += {total.body}"]
    return name if rest is None else f"({name}{rest})"


def plain_offers(conds: list) -> list[str]:
    """The lines of compile_offers' body that ask each condition in turn."""
    lines: list[str] = []
    for i, pre, test in conds:
        lines += pre
        lines.append(f"_r.append({i})" if test is None else f"if {test}: _r.append({i})")
    return lines


def shared_offers(conds: list) -> list[str]:
    """compile_offers' lines with each distinct condition asked once (conditions have no side
    effects): a run of options under the same condition is added at once, and a condition
    asked again further on reads a local (a branch offering two options on one condition)."""
    keys = [(pre, test) for _, pre, test in conds]
    held: dict = {}   # a condition asked again later -> the local holding its answer
    lines: list[str] = []
    k = 0
    while k < len(conds):
        run = [conds[k][0]]
        while k + len(run) < len(conds) and keys[k + len(run)] == keys[k]:
            run.append(conds[k + len(run)][0])
        key = keys[k]
        pre, test = key
        add = f"_r.append({run[0]})" if len(run) == 1 else f"_r += {tuple(run)!r}"
        if test is None:
            lines.append(add)
        elif key in held:
            lines.append(f"if {held[key]}: {add}")
        else:
            lines += pre
            if key in keys[k + len(run):]:
                held[key] = f"_ask{len(held)}"
                lines.append(f"{held[key]} = {test}")
                test = held[key]
            lines.append(f"if {test}: {add}")
        k += len(run)
    return lines
