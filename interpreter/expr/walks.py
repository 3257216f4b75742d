"""What a built-in or an operator that walks a whole list is weighed, per element of the list at
its longest (docs/reference.md "Limits"): ``max(L)``, ``sum(L)``, ``x in L``, ``distinct(L)``,
``a..b``, ``top(L, by: K)``, ``groups(L, by: K)``... each walk is charged for the elements of
its list, as a filter's body is, at a measured number of the cost model's operations (one: an
operation of a filter's body, about 5 ns here) per element; each constant is the most measured
over 10,000 elements (both compiles; ``python benchmarks/walk_costs.py``) with room to spare.
The charge is decided from the tree and the sizes, never from the faster form the optimised
compile writes, so both compiles charge alike: ``x in L`` asked from a loop of a list L that
does not change with its element is weighed a set of L built once and a walk of SET_LEAST each time
(sets._kept_as_set), which the optimised compile builds (the reference walks L each time:
it runs no game). A zone each card of a loop over distinct cards owns is weighed its share of
the game's cards (``owned_by``): those zones hold every card at most, together.
"""
from __future__ import annotations

from contextlib import contextmanager, nullcontext
from typing import Any, Iterator

from lark import Tree

from . import nesting, texts
from .runtime import MAX_STORED
from .types import ANY, STR, list_of

SET_LEAST = 16     # a flat list looked in from a loop is kept as a set where it may be longer (sets.py)
WALK_WORK = 4      # an element a C-level loop reads (max, min, sum, any, all, ==, a range built, keys): measured 0.1 to 2.4
RANK_WORK = 32     # an element a helper's own loop calls a key on (highest, lowest, top, bottom): measured 8 to 21
HASH_WORK = 8      # an element inside a list of lists distinct() keys by value (copied and hashed): measured 2 to 4
KEY_WORK = 96      # a list distinct() keys by value (a turn of its loop, a tuple made, a set's lookup): measured 78 to 82
FLAT_WORK = 16     # an element of a flat list distinct() keys (hashed into a dict in C): measured 4.9 to 10.5
SET_WORK = 8       # an element of a flat list a set is built of, to look in (x in L from a loop): measured 2.1 to 3.5
CHECK_WORK = 64    # an element, at any depth, of a value checked where it is bound to a local (_stored: copied, walked): measured 4 to 40
GROUP_WORK = 160   # an element put in its group (groups(), combos(): a key call, a dict lookup, a new list a group): measured 64 to 117


SPREAD = "spread"   # (the fact of a card-owned zone read of a filter's element: (that element, its share of the cards))
DISTINCT = "distinct"   # (the fact of an element that goes over distinct cards: how many its list may have)
LOOPED = "looped"   # (the fact of a list node a filter, by: or to: walks: a range built there counts with the loop's turns)


def elements(c: Any, n: Any, typ: str, deep: bool = True) -> int:
    """The most elements a walk of list node ``n`` (of type ``typ``) reads: its own, and where
    its elements may be lists compared or hashed as wholes (``deep``), every element inside them
    (no more than its value holds at every depth together, where that is known: a list variable's,
    a parameter's; where its type does not say how deep it goes, any, that total alone bounds it)."""
    own = c.size(n)
    if not (deep and nesting.holds_lists(typ)):
        return own
    total, inside = c.fact(n, nesting.TOTAL), own * nesting.inner(c, n) ** levels(typ)
    if total is None:
        return inside
    return total if nesting.in_all(1, 1, typ) is None else min(total, inside)   # (any: as deep as it goes)


def levels(typ: str) -> int:
    """How many levels of lists (or maps) the elements of list ``typ`` may hold, one at least
    (``list[list[int]]``: 1, ``list[list[list[int]]]``: 2; ``any`` counted as 1)."""
    return max(1, typ.count("[") - 1)


def keyed(c: Any, n: Any, coll: Any, typ: str, what: str) -> None:
    """Node ``n`` keys each element of list ``coll`` (of type ``typ``) by value (distinct()): in
    a list of lists, a turn of a loop and a key made for each element, and every element inside
    them copied and hashed (each one a key of its own below the first level); a flat list is
    each element hashed in C (``FLAT_WORK``)."""
    if not nesting.holds_lists(typ):
        walked(c, n, spread(c, coll), FLAT_WORK, what)
        return
    own, inside, total = c.size(coll), elements(c, coll, typ), c.fact(coll, nesting.TOTAL)
    work = own * KEY_WORK + inside * (HASH_WORK if levels(typ) == 1 else KEY_WORK)
    if total is not None:   # (lists and what they hold together: a list variable's, each at most a key)
        work = min(work, total * KEY_WORK)
    walked(c, n, max(own, inside), -(-work // max(own, inside)), what)


def compared(c: Any, n: Any, sides: tuple, op: str) -> None:
    """Node ``n`` compares two values (``sides``: (node, type) each) with ``op``. Two lists are
    compared in C element by element (every element inside them where they hold lists): ``==`` and
    ``!=`` only where their lengths are equal, an order up to the shorter's end, so at most the
    shorter side's elements are read, each side weighed at its own bound, a value of type any too
    (a parameter's by the elements its values and choices hold at every depth, engine/param_bounds.py
    ``param_total``, and the characters of their strings, each pair read up to the shorter's end;
    one no bound holds, a variable's or a local's, as a list variable); two strings character by
    character (texts.compared). A value
    of type any may be either, one at a time: two of them are weighed the costlier way. What is
    charged because a side is of type any is noted (``untyped``): the error or warning of a
    costly expression or step then says to declare its type."""
    written = ANY in (sides[0][1], sides[1][1])   # (else made of one: 'v if C else 0', typed int)
    (left, lt), (right, rt) = sides = tuple((x, nesting.held_as(c, x, t)) for x, t in sides)
    walk = min(elements(c, x, t) for x, t in sides) if nesting.may_hold_lists(lt) and nesting.may_hold_lists(rt) else 0
    strings = STR in (lt, rt) and {lt, rt} <= {STR, ANY} or lt == rt == ANY
    held = min((c.fact(x, nesting.TEXTS) for x, _ in sides if c.fact(x, nesting.TEXTS) is not None), default=0)
    work = walk * WALK_WORK + held // texts.COMPARE_CHARS   # (the strings inside: each pair up to the shorter's end)
    if strings and (not walk or texts.compared_work(c, left, right) >= work):
        texts.compared(c, n, left, right, op)
    elif walk:
        chars = f" and {held:,} characters" if held >= texts.COMPARE_CHARS else ""
        what = ("of two lists" if ANY not in (lt, rt) else "of a value of type any, which may be a list," if written
                else "of a value made of one of type any, which may be a list,")
        with untyped(c) if ANY in (lt, rt) else nullcontext():
            c.add_cost(work, n, f"'{op}' {what} walks up to {walk:,} elements{chars}" + (DECLARE if ANY in (lt, rt) else ""))


def ordered(c: Any, n: Any, sides: list, what: str) -> None:
    """Node ``n`` orders values (``sides``: (node, type) each, ``max(a, b)``): each but the first
    compared with the greatest (or least) of those before it, weighed as ``compared`` weighs two,
    against the one of the others that may hold the most (a number: nothing)."""
    def most(side: tuple) -> int:
        return elements(c, *side) if nesting.may_hold_lists(side[1]) else 0
    sides = [(x, nesting.held_as(c, x, t)) for x, t in sides]
    for i, side in enumerate(sides[1:], 1):
        compared(c, n, (side, max((*sides[:i], *sides[i + 1:]), key=most)), what)


def ranked(c: Any, n: Any, values: Any, typ: str, what: str, count: int = 0) -> None:
    """Node ``n`` orders ``count`` values of type ``typ`` (any: each may be a list or a string) among
    themselves, each compared with the greatest (or least) so far: the elements of a list of any
    (``max(L)``), or the keys a ``by:`` gives (``values``: the key's node, one value of them). Each
    comparison reads up to the shorter's end, so all of them together at most every element inside
    the values (the list's, at every depth; each key's, ``count`` times), or each string compared
    up to its end: weighed the costlier way, as ``compared`` weighs two, and noted as charged for
    values of type any, or made of one (nesting.py ``held_as``: ``max([loose, 0])``). Nothing for values of
    another type (numbers, strings whose bound is read)."""
    if typ != ANY and ANY not in nesting.proven(c, values, typ):
        return
    walk = count * elements(c, values, ANY) if count else elements(c, values, list_of(ANY))
    each = (texts.chars(c, values) if count else texts.inside(c, values) or MAX_STORED) // texts.COMPARE_CHARS
    strings = (count or c.size(values)) * each
    with untyped(c):
        if strings > walk * WALK_WORK:
            c.add_cost(strings, n, f"{what} compares strings of up to {each * texts.COMPARE_CHARS:,} characters, "
                       f"values of type any{DECLARE}")
        else:
            c.add_cost(walk * WALK_WORK, n, f"{what} of values of type any, which may be lists, walks up to {walk:,} "
                       f"elements{DECLARE}")


def looked_in(c: Any, n: Any, needle: tuple, hay: Any, op: str) -> None:
    """Node ``n`` is ``x in v`` of a value ``v`` of type any (``needle``: x's node and type): a list
    whose elements are each compared with x (every element inside them too where x may be a list,
    as ``compared`` weighs it), or, where x may be a string, a string searched for it
    (texts.searched): weighed the costlier way, and noted as charged for a value of type any."""
    x, xt = needle
    walk = elements(c, hay, ANY, deep=nesting.may_hold_lists(xt))
    with untyped(c):
        if xt in (STR, ANY) and texts.search_work(c, x, hay)[1] >= walk * WALK_WORK:
            texts.searched(c, n, x, hay, op, f" (a value of type any, which may be a string){DECLARE}")
        else:
            c.add_cost(walk * WALK_WORK, n, f"'{op}' of a value of type any, which may be a list, walks up to {walk:,} "
                       f"elements{DECLARE}")


def looked_through(c: Any, n: Any, hay: Any, typ: str, needle: str, op: str) -> None:
    """Node ``n`` is ``x in L`` of a list ``L`` that may hold lists (``typ``: its type, any where it is
    made of a value of type any, nesting.py ``held_as``; ``needle``: x's, alike): each list inside
    compared with x, as ``==`` compares two, so every element inside them read where x may be a list
    (else each element compared once: a number is no list); noted as charged for values of type any."""
    walk = elements(c, hay, typ, deep=nesting.may_hold_lists(needle))
    if typ != ANY:
        walked(c, n, walk, WALK_WORK, f"'{op}' of a list of lists")
        return
    with untyped(c):
        c.add_cost(walk * WALK_WORK, n, f"'{op}' of a list made of a value of type any, which may hold lists, "
                   f"walks up to {walk:,} elements{DECLARE}")


def grouped_by(c: Any, n: Any, key: Any, typ: str, count: int, what: str) -> None:
    """Node ``n`` puts ``count`` elements in groups by the value of ``key`` (of type ``typ``): a key
    that may be a list (of a list type, or of type any or made of one: nesting.py ``held_as``) is
    written out to be compared by value (mechanics/market.py ``_groups``), every element inside it,
    at ``KEY_WORK`` each, beyond the grouping's own ``GROUP_WORK`` (measured 9 to 22 an element for
    keys of 10 or more, 160 in all for keys of one: ``benchmarks/walk_costs.py --nested``); noted as
    charged for values of type any where it is one."""
    held = nesting.held_as(c, key, typ)
    if not nesting.may_hold_lists(held):
        return
    walk = count * elements(c, key, held)
    with untyped(c) if held == ANY else nullcontext():
        c.add_cost(walk * KEY_WORK, n, f"{what} of keys that may be lists, each written out, walks up to {walk:,} "
                   f"elements" + (DECLARE if held == ANY else ""))


UNTYPED = "untyped"   # (the fact of the operations an expression's comparisons of values of type any are charged)
# what a value compared or looked in may declare to be weighed as what it is: the one text of it, in
# the expression's message (DECLARE) and the hint of its step's (building/bounded.py UNTYPED_HINT)
TYPES = ("a variable's type: int, list[int] for a list; a declared effect's params: {n: int}; a ruleset parameter's "
         "type: int, num, bool or str, or its choices:")
DECLARE = f": declare its type ({TYPES}) to weigh it as such"


@contextmanager
def untyped(c: Any) -> Iterator[None]:
    """What the expression is charged inside is for values of type any (``untyped_work``): noted
    also where the charge refuses it, so that its step's warning says so too (building/builder.py)."""
    before = c.cost
    try:
        yield
    finally:
        c.know(UNTYPED, UNTYPED, c.cost - before + untyped_work(c), anywhere=True)


def untyped_work(c: Any) -> int:
    """The operations the expression compiled last is charged for walks of values of type any,
    which may be lists as long as a list variable (``compared``): 0, none."""
    return c.fact(UNTYPED, UNTYPED, anywhere=True) or 0


def walked(c: Any, n: Any, count: int, per: int, what: str) -> None:
    """Node ``n`` walks ``count`` elements at ``per`` operations each, each time it runs."""
    c.add_cost(count * per, n, f"{what} walks up to {count:,} elements")


# ---------------------------------------------------------------- the zones of the cards of a loop
def bound_over(c: Any, var: str, coll: Any, scope: Any) -> None:
    """``var`` goes over the elements of list ``coll`` (a filter's, a by:'s, a to:'s): where they
    are cards, each in it once (a zone read by name, or a filter of one), a zone each of them
    owns is spread over them (``spread``)."""
    node = coll
    while isinstance(node, Tree) and node.data in ("where", "where_as"):
        node = node.children[0]
    if isinstance(node, Tree) and node.data == "name" and str(node.children[0]) in c.names.zones \
            and str(node.children[0]) not in scope.locals:
        c.know(var, DISTINCT, spread(c, coll), anywhere=True)   # (the loop's turns, as in_loop counts them)


def owned_by(c: Any, n: Any, owner: Any) -> None:
    """Node ``n`` reads a card-owned zone of card ``owner`` (its code): where ``owner`` is
    the element of a loop over distinct cards (``bound_over``), the zones of those cards hold
    the game's cards together, so all the walks of it that one run of that loop makes, each
    once, read at most every card: each is weighed its share, the cards over the loop's
    elements (rounded up), unless inside a walk of such a zone of the same element already."""
    var = str(owner)
    over = c.fact(var, DISTINCT, anywhere=True)
    if n is None or over is None or var in c.spread_over:
        return
    c.know(n, SPREAD, (var, min(c.size(n), -(-c.names.max_list // max(1, over)))))


def spread(c: Any, n: Any) -> int:
    """The elements a walk of list node ``n`` is weighed each time it runs: its size, or its
    share of the cards where it is (or is made of, element for element) a card's zone spread over
    the cards of a loop (``owned_by``)."""
    found = c.fact(n, SPREAD)
    return c.size(n) if found is None else found[1]


def spread_as(c: Any, n: Any, coll: Any) -> None:
    """Node ``n`` (a filter, a map(), a distinct() of ``coll``) has at most an element of
    ``coll`` for each: spread as it is."""
    found = c.fact(coll, SPREAD)
    if found is not None:
        c.know(n, SPREAD, found)


@contextmanager
def walking(c: Any, coll: Any) -> Iterator[None]:
    """Compiling the body of a loop over ``coll``: a zone spread over the cards of a loop is not
    spread again inside it (two walks nested multiply their elements, which no share bounds)."""
    found = c.fact(coll, SPREAD)
    if found is None or found[0] in c.spread_over:
        yield
        return
    c.spread_over.add(found[0])
    try:
        yield
    finally:
        c.spread_over.discard(found[0])
