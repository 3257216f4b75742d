"""``subsets(L)``, ``subsets(L, size: K)``: every sub-list of a list, for a choice among them
("which dice to roll again": ``choose: {options: "subsets(0..4)"}``, each option labelled by its
elements joined with ``+``, the empty one ``[]``).

A sub-list keeps the elements of ``L`` it takes in their order, and the sub-lists come in the
order of the bitmask of the positions they take: ``[]``, ``[a]``, ``[b]``, ``[a, b]``, ``[c]``...
(with ``size: K``, those of K elements, in the same order). They are of positions, not of values:
a list with repeats gives repeated sub-lists (a choose offers each label once: engine/labels.py).

Bounded as every list the language makes: at most MAX_SUBSETS sub-lists, holding at most
MAX_SUBSET_ELEMENTS elements together, else a runtime error (located at the expression) before
any is made; so ``subsets(L)`` of more than 13 elements is refused. The cost model counts the
result as long as it can be (2^n for n elements of ``L``, capped) and each sub-list as long as
``L`` (at most 13 without ``size:``; at most K with it, where K's span is known). A choice among
the sub-lists of a range has a fixed action space for the RL adapters (``v_subsets``).
"""
from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Any

from . import nesting, runtime
from .arity import check_arity, list_arg
from .nesting import innered
from .parser import ExprError, offset_of
from .runtime import ExprRuntimeError
from .types import INT, NUM, is_numeric, list_of
from .walks import WALK_WORK, walked

MAX_SUBSETS = 10_000            # the most sub-lists subsets() makes
MAX_SUBSET_ELEMENTS = 100_000   # the most elements its sub-lists hold together
_LONGEST = MAX_SUBSETS.bit_length() - 1   # the longest list all of whose sub-lists are at most MAX_SUBSETS (13)


_ALL = object()   # (no size: every sub-list)


def _subsets(items, size=_ALL):
    n = len(items)
    if size is _ALL:
        size = None
    elif size is None:   # (a size: that is none: not every sub-list, which the cost model does not count)
        raise runtime.none_used()
    elif not 0 <= size <= n:
        return []
    many = (1 << n if n <= _LONGEST + 1 else MAX_SUBSETS + 1) if size is None else comb(n, size)
    held = many * n // 2 if size is None else many * size   # (without size: each element in half of them)
    if many > MAX_SUBSETS or held > MAX_SUBSET_ELEMENTS:
        what = "" if size is None else f" of {size}"
        raise ExprRuntimeError(f"subsets(){what} of a list of {n} elements: more than {MAX_SUBSETS:,} sub-lists "
                               f"(or {MAX_SUBSET_ELEMENTS:,} elements in all)")
    items = list(items)
    if size is None:   # each element doubles the sub-lists: those without it, then each with it
        out: list = [[]]
        for x in items:
            out += [s + [x] for s in out]
        return out
    # in bitmask order: by the last position taken, then the one before...: the combinations of
    # the positions from the last down, in reverse
    chosen = list(combinations(range(n - 1, -1, -1), size))
    return [[items[i] for i in reversed(c)] for c in reversed(chosen)]


def b_subsets(c, n, scope, args, kw):
    check_arity(n, args, kw, "subsets", 1, kw=("size",))
    src, typ = list_arg(c, scope, args[0], "subsets")
    longest = c.size(args[0])
    most, inner = 2 ** min(longest, _LONGEST + 1), min(longest, _LONGEST)
    if "size" in kw:
        ksrc, ktype = c.node(kw["size"], scope)
        if not is_numeric(ktype) or ktype == NUM:
            raise ExprError(f"subsets() needs a whole number for size:, got {ktype}", offset_of(kw["size"]), code="type")
        lo, hi = c.span(kw["size"]) or (0, longest)
        lo, hi = max(0, lo), min(longest, hi)   # (sizes outside 0..n make no sub-list)
        ks = range(int(lo), int(hi) + 1) if hi - lo <= 64 else range(0)
        most = max((comb(longest, k) for k in ks), default=1) if ks else MAX_SUBSETS
        inner = int(hi) if hi >= 0 else 1
        out = f"_subsets({src}, {ksrc})"
    else:
        out = f"_subsets({src})"
    bound = min(MAX_SUBSETS, most)
    c.sized(n, bound)
    innered(c, n, max(inner, nesting.inner(c, args[0]) if nesting.holds_lists(typ) else 1))
    c.add_cost(bound, n)   # (the sub-lists made)
    walked(c, n, min(MAX_SUBSET_ELEMENTS, bound * inner), WALK_WORK, "subsets()")   # (the elements they hold)
    return out, list_of(typ)


def v_subsets(V, args, kwargs):
    """The labels of every sub-list subsets() can make (the fixed action space of a choice among
    them, adapters/actions.py), where its list holds whole numbers in one order in every game:
    a range, filtered or not. Each sub-list of a range's values is then one of the sub-lists of
    all the values it can hold, in ascending order; a size: is one of the values its expression
    can take. None where they are more than MAX_SUBSETS, or not known."""
    coll: Any = args[0] if len(args) == 1 else None
    while getattr(coll, "data", None) in ("where", "where_as"):
        coll = coll.children[0]
    values = V.elems(coll) if getattr(coll, "data", None) == "range" else None
    sizes = V.dom(kwargs["size"]) if "size" in kwargs else None
    if values is None or "size" in kwargs and (sizes is None or not all(type(k) is int for k in sizes)):
        return None
    ordered = sorted(values)
    n = len(ordered)
    many = sum(comb(n, k) for k in sizes if 0 <= k <= n) if sizes is not None else 1 << min(n, _LONGEST + 1)
    if many > MAX_SUBSETS:
        return None
    made = _subsets(ordered) if sizes is None else [s for k in sorted(sizes) for s in _subsets(ordered, k)]
    return [V.rules.label(s, list_of(INT)) for s in made]


runtime.HELPERS["_subsets"] = _subsets
