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

Only a define the expression names twice in its own text is held so (not one used twice inside
another define's text: the code a define expands to is bounded on its own, names.py, and the
wrapping would count against it), only one whose code is no construct its uses rewrite (a
filter, a count, a scan's test are fused into what uses them: ``first(D where P)`` stops at the
first element), and only one that costs more than the holding. An expression that the holding
makes too long is compiled without it (compiler.py, as when Python refuses its code).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from .code import Join, code, shape

WORTH = 8   # the operations (compiler.cost) a define's expansion must count to be held


def expansions(tree: Any, defines: dict) -> Counter:
    """How many times the expression ``tree`` names each define in its own text (None: no
    tree, none). A name that a local or an element's attribute hides is counted too: a define
    counted twice and used once is held to no gain, never wrongly."""
    return Counter(str(n.children[0]) for n in (tree.iter_subtrees() if tree is not None else ())
                   if n.data == "name" and n.children and str(n.children[0]) in defines)


def held(c: Any, name: str, scope: Any, node: Any, expand: Callable) -> tuple[Any, str]:
    """The code and type of a use of the define ``name`` (``expand``, names.py ``define``), read
    from the name that holds its value in this evaluation when that is worth it (module
    docstring)."""
    cost, top = c.cost, not c._define_stack
    src, typ = expand(name, scope, node)
    if (not top or c._hoisted is None or c._defined[name] < 2 or c.cost - cost < WORTH * c._mult
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
