"""What a built-in or an operator that walks a whole list is weighed, per element of the list at
its longest (docs/reference.md "Limits"): ``max(L)``, ``sum(L)``, ``x in L``, ``distinct(L)``,
``a..b``, ``top(L, by: K)``, ``groups(L, by: K)``... each walk is charged for the elements of
its list, as a filter's body is, at a measured number of the cost model's operations (one: an
operation of a filter's body, about 5 ns here) per element; each constant is the most measured
over 10,000 elements (both compiles; ``python benchmarks/walk_costs.py``) with room to spare.
The charge is decided from the tree and the sizes, never from the faster form the optimised
compile writes, so both compiles charge alike.
"""
from __future__ import annotations

from typing import Any

from . import nesting

WALK_WORK = 4      # an element a C-level loop reads (max, min, sum, any, all, ==, a range built, keys): measured 0.1 to 2.4
RANK_WORK = 32     # an element a helper's own loop calls a key on (highest, lowest, top, bottom): measured 8 to 21
GROUP_WORK = 160   # an element put in its group (groups(), combos(): a key call, a dict lookup, a new list a group): measured 64 to 117


LOOPED = "looped"   # (the fact of a list node a filter, by: or to: walks: a range built there counts with the loop's turns)


def elements(c: Any, n: Any, typ: str, deep: bool = True) -> int:
    """The most elements a walk of list node ``n`` (of type ``typ``) reads: its own, and where
    its elements may be lists compared or hashed as wholes (``deep``), every element inside them
    (no more than its value holds at every depth together, where that is known: a list variable's)."""
    own = c.size(n)
    if not (deep and nesting.holds_lists(typ)):
        return own
    total = c.fact(n, nesting.TOTAL)
    return own * nesting.inner(c, n) if total is None else min(total, own * nesting.inner(c, n))


def walked(c: Any, n: Any, count: int, per: int, what: str) -> None:
    """Node ``n`` walks ``count`` elements at ``per`` operations each, each time it runs."""
    c.add_cost(count * per, n, f"{what} walks up to {count:,} elements")
