"""The cost model of the market built-ins (docs/reference.md "Limits"): what sums() and combos()
are weighed at load, and the limits and weights their helpers (market.py) count by as they run.
Each weight is in the cost model's operations (one: an operation of a filter's body, about 5 ns
here), measured with room to spare (python benchmarks/walk_costs.py)."""
from __future__ import annotations

from lark import Tree

from ..expr.code import Lookup, shape
from ..expr.named import element_names
from ..expr.types import CARD, elem

MAX_SUM = 100_000         # the largest total sums() tracks, and combos() reaches by bitset
MAX_SEARCH_WORK = 250_000     # operations combos()' search may count as it runs (market._combos_whole), else an error
# the work sums() is weighed (sums_work; docs/reference.md "Limits"), in the cost model's operations
# (one: an element a filter's test runs on, about 5 ns here); each measured with room to spare
VALUE_WORK = 20      # a value's turn of the loop, beyond its by: (measured 8 to 20)
BITS_PER_OP = 128    # bits of a bitset an operation shifts, ors or masks (measured 200 to 300)
TOTAL_WORK = 32      # a total found in the bitset's digits and listed (measured 4 to 28)
# the work combos()' search counts as it runs (MAX_SEARCH_WORK), in the same operations; measured
# with the collector's share (python benchmarks/walk_costs.py --combos)
TURN_WORK = 64       # a turn of its loops (a count of a group tried), beyond its bit test
MADE_WORK = 256      # a call of the search, or a set (or the start of one) it makes
COPY_WORK = 6        # an element copied into a set
_INF = float("inf")


def search_bound(items: int, reached: int) -> int:
    """The most work combos()' search of a list of ``items`` elements does, as it counts it: up
    to MAX_SEARCH_WORK, past which it stops at its next test, with at most one call's turns
    counted since the last (three an element at most: the groups skipped and looked at, the
    counts tried, each with a bit test of bitsets up to ``reached`` bits); or, for a short list,
    all a search can count: its bitsets built (at most two turns an element), at most
    2^(items + 1) calls (a choice of how many of a group to take, after each choice before it:
    twice the sub-multisets at most), each counted twice (the general way counts its caller's
    turn too), turning at most three times an element and making at most a set an element, of
    up to ``items`` elements."""
    turn = TURN_WORK + reached // BITS_PER_OP
    capped = MAX_SEARCH_WORK + 3 * items * turn
    if items > 24:
        return capped
    per_call = 3 * MADE_WORK + 3 * items * turn + items * (MADE_WORK + COPY_WORK * items)
    return min(capped, 2 * items * turn + 2 ** (items + 1) * per_call)


def sums_bound(items: int, largest: int) -> int:
    """The most totals sums() returns of a list of ``items`` values none of which it takes past
    ``largest``: distinct whole numbers from 1 to MAX_SUM, one per non-empty sub-multiset at
    most (2^items - 1), and none past ``items`` times the largest value."""
    most = MAX_SUM if items >= 17 else min(MAX_SUM, 2 ** items - 1)
    return min(most, items * largest)


def sums_work(items: int, largest: int, listed: bool) -> int:
    """The most operations sums() of a list of ``items`` values none of which it takes past
    ``largest`` does beyond its by: (_sum_bits): a value's turn (VALUE_WORK), and its shift and
    or of the bitset of the totals so far, as wide as they reach (up to 64 values unmasked, the
    mask after them; beyond 64 values kept to MAX_SUM bits and masked at each), BITS_PER_OP bits
    an operation; ``listed``: the bitset's digits scanned (a quarter of an operation each) and
    each total it can return listed, TOTAL_WORK each (``x in sums(...)``, a bit test, lists none:
    _sums_of_bits)."""
    v, short = min(max(largest, 0), MAX_SUM), min(items, 64)
    shifted = v * short * (short + 1) + short * v       # (two passes of widths v, 2v, ..., then the mask)
    if items > 64:
        under = min(items, MAX_SUM // v) if v else items   # (values before the totals reach MAX_SUM)
        shifted = max(shifted, 3 * (v * under * (under + 1) // 2 + (items - under) * MAX_SUM + items * v))
    work = items * VALUE_WORK + shifted // BITS_PER_OP
    return work + min(MAX_SUM, items * v) // 4 + sums_bound(items, v) * TOTAL_WORK if listed else work


def largest_value(c, typ: str, by, coll) -> int:
    """The largest value sums() of a list of type ``typ`` takes (it takes none past MAX_SUM): of
    a card attribute ``by:`` reads of the element (of list ``coll``), its largest whole value; of
    a ``by:`` whose values the ruleset bounds (a parameter's max:, a literal...: its span,
    operators.py), its greatest."""
    weights = _attribute_weights(c, typ, by, coll)
    if weights is not None:
        return max(weights, default=0)
    span = c.span(by) if by is not None else None
    top = span[1] if span is not None else _INF
    return MAX_SUM if top >= MAX_SUM else max(0, int(top))


def set_bound(c, typ: str, by, coll, total, total_src) -> int | None:
    """The most elements a set combos() returns holds, where the ruleset bounds it: each element
    takes part by its value (``by:``, a card attribute of whole numbers), a positive one, and a
    set's values add up to the total, so it holds at most the total's greatest over the least
    positive value. The total's greatest: its span (a literal, a parameter's max:...), or of a
    card's attribute (``total_src``'s shape, names.member) its greatest value. None: not known
    (a value that is not a whole number, a total not bounded)."""
    table = _attribute_table(c, typ, by, coll)
    if table is None or any(v.__class__ is float for v in table):   # (a fraction takes part in _combos)
        return None
    least = min((v for v in table if v.__class__ is int and v > 0), default=None)
    span, read = c.span(total), shape(total_src)
    if span is not None:
        top = span[1]
    elif isinstance(read, Lookup) and read.kind == "attr" and type(c.names.namespace.get(read.table)) is tuple:
        top = max((v for v in c.names.namespace[read.table] if v.__class__ in (int, float)), default=_INF)
    else:
        return None
    if least is None or top >= _INF:
        return None
    return max(0, int(top // least) if top.__class__ is int else int(top / least) + 1)   # (a fraction: within _combos' eps)


def _attribute_weights(c, typ: str, by, coll) -> tuple | None:
    """The weights of the card attribute that ``by:`` reads of the element of a list of cards
    (``coll``), bare or of a name it goes by (None: any other by:), read off the tree: the
    reference compile bounds sums() as the optimised."""
    table = _attribute_table(c, typ, by, coll)
    return weights_of(table) if table is not None else None


def _attribute_table(c, typ: str, by, coll) -> tuple | None:
    """The values by card of the attribute ``by:`` reads of the element (``_attribute_weights``)."""
    target = by.children[0] if isinstance(by, Tree) and by.data == "attr" else None
    if isinstance(target, Tree) and target.data == "name" and str(target.children[0]) in ("it", *element_names(coll)):   # (it.rank)
        by = Tree("name", [by.children[1]])
    attr = str(by.children[0]) if isinstance(by, Tree) and by.data == "name" else None
    table = c.names.namespace.get(f"A_{attr}") if elem(typ) == CARD and attr in c.names.attrs else None
    return table if type(table) is tuple else None

def weights_of(table: tuple) -> tuple:
    """An attribute's table with each value that no sum or set takes (not a whole number from
    1 to MAX_SUM) written as 0."""
    return tuple(v if v.__class__ is int and 0 < v <= MAX_SUM else 0 for v in table)
