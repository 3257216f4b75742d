"""A define expanded more than once in one expression, computed once per evaluation.

A define is a named expression, expanded where it is used (names.py ``define``): in
``X if count(X) > 1 else []`` the define X is computed twice. The language is side-effect free,
so where X reads neither an element of a filter around it nor a local that changes with the
element, its expansions in one expression all have the same value: the first one evaluated
keeps it, on first use as a lifted call is (compiler.hoist: lazily, so a branch not taken still
computes nothing), and the others read it. Each use is still compiled as before (its errors, its
cost and what it reads are unchanged), each in the same lazy form, since which one runs first
depends on the evaluation, not on the text. The value is kept in a list made empty before the
expression, ``(_d0 or _d0.append(X) or _d0)[0]``, not bound with ``:=`` as a lifted call is: a
define is used anywhere, and Python refuses ``:=`` in a comprehension's iterable (``D where P``,
``[D] where P``) and binds it in a generated lambda's own scope.

Only a define whose code is no construct its uses rewrite is held so (a filter, a count, a
scan's test are fused into what uses them: ``first(D where P)`` stops at the first element), and
only one that costs more than the binding.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from .code import Join, code, shape
from .parser import ExprError, parse

WORTH = 8   # the operations (compiler.cost) a define's expansion must count to be held


def expansions(tree: Any, defines: dict) -> Counter:
    """How many places of the expression ``tree`` use each define, a define's own text counted
    once however often it is used (held, its uses run it once; None: no tree, none). A name that
    a local or an element's attribute hides is counted too: a define counted twice and used once
    is held to no gain, never wrongly."""
    counts: Counter = Counter()

    def walk(t: Any) -> None:
        for n in t.iter_subtrees_topdown():
            name = str(n.children[0]) if n.data == "name" and n.children else None
            if name in defines:
                counts[name] += 1
                if counts[name] == 1:   # (its text: once, so a cycle ends too; the compile reports it)
                    try:
                        walk(parse(defines[name]))
                    except ExprError:   # (its use reports it)
                        pass

    if tree is not None:
        walk(tree)
    return counts


def held(c: Any, name: str, scope: Any, node: Any, expand: Callable) -> tuple[Any, str]:
    """The code and type of a use of the define ``name`` (``expand``, names.py ``define``), read
    from the name that holds its value in this evaluation when that is worth it (module
    docstring)."""
    cost = c.cost
    src, typ = expand(name, scope, node)
    if (c._hoisted is None or c._defined[name] < 2 or c.cost - cost < WORTH * c._mult
            or not (shape(src) is None or isinstance(shape(src), Join))
            or any(var in src.uses for var, _ in scope.elements)
            or any(v in src.uses for v in c._varying)):
        return src, typ
    bound = c._held.get(name)
    if bound is None:
        bound = c._held[name] = f"_d{c._tag}{len(c._held)}"
        c._hoisted.append(bound)   # (an empty list before the expression: compiler.prelude)
        c._eager[bound] = "[]"
    out = code(f"({bound} or {bound}.append({src}) or {bound})[0]", loops=src.loops)
    out.uses = src.uses
    return out, typ
