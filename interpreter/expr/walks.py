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
HASH_WORK = 8      # an element inside a list of lists distinct() keys by value (copied and hashed): measured 2 to 4
KEY_WORK = 96      # a list distinct() keys by value (a turn of its loop, a tuple made, a set's lookup): measured 78 to 82
GROUP_WORK = 160   # an element put in its group (groups(), combos(): a key call, a dict lookup, a new list a group): measured 64 to 117


LOOPED = "looped"   # (the fact of a list node a filter, by: or to: walks: a range built there counts with the loop's turns)


def elements(c: Any, n: Any, typ: str, deep: bool = True) -> int:
    """The most elements a walk of list node ``n`` (of type ``typ``) reads: its own, and where
    its elements may be lists compared or hashed as wholes (``deep``), every element inside them
    (no more than its value holds at every depth together, where that is known: a list variable's)."""
    own = c.size(n)
    if not (deep and nesting.holds_lists(typ)):
        return own
    total, inside = c.fact(n, nesting.TOTAL), own * nesting.inner(c, n) ** levels(typ)
    return inside if total is None else min(total, inside)


def levels(typ: str) -> int:
    """How many levels of lists (or maps) the elements of list ``typ`` may hold, one at least
    (``list[list[int]]``: 1, ``list[list[list[int]]]``: 2; ``any`` counted as 1)."""
    return max(1, typ.count("[") - 1)


def keyed(c: Any, n: Any, coll: Any, typ: str, what: str) -> None:
    """Node ``n`` keys each element of list ``coll`` (of type ``typ``) by value (distinct()): in
    a list of lists, a turn of a loop and a key made for each element, and every element inside
    them copied and hashed (each one a key of its own below the first level); a flat list is
    hashed in C, not charged (a card-owned zone inside a filter over cards counts as every card)."""
    if not nesting.holds_lists(typ):
        return
    own, inside, total = c.size(coll), elements(c, coll, typ), c.fact(coll, nesting.TOTAL)
    work = own * KEY_WORK + inside * (HASH_WORK if levels(typ) == 1 else KEY_WORK)
    if total is not None:   # (lists and what they hold together: a list variable's, each at most a key)
        work = min(work, total * KEY_WORK)
    walked(c, n, max(own, inside), -(-work // max(own, inside)), what)


def walked(c: Any, n: Any, count: int, per: int, what: str) -> None:
    """Node ``n`` walks ``count`` elements at ``per`` operations each, each time it runs."""
    c.add_cost(count * per, n, f"{what} walks up to {count:,} elements")
