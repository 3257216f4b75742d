"""The longest list inside a list of lists (or a map), as the cost model bounds it.

A node of a list's type has a size (Compiler.size: the most elements it can have); a list of
lists, or a map, also has a depth bound here: the most elements any list or map inside it can
have, at any depth. An element taken out of it (``L[i]``, ``first(L)``, ``params.m['k']``,
the ``it`` or ``as`` name of a filter over it) is as long as that. Unrecorded, it is what a
list variable may hold at every depth together (runtime.list_bound; a parameter's own is
recorded where it is read), so each node that builds longer inner lists records its own:
a list written out, a map(), groups(), a join, and what only passes them on.

A local that may hold lists is as long as its binder says (``local_bounds``: a declared
effect's parameter, a for_each's element: what a list variable may hold, as an argument or an
element may be one); a local a mechanism binds (a pick's cards, a board's neighbours, a trick's
led card) is as long as a zone.
"""
from __future__ import annotations

from typing import Any

from lark import Tree

from . import texts
from .known import declared, known
from .runtime import list_bound
from .types import ANY, STR, elem, is_list, is_map, joined, map_value, walked

INNER = "inner"   # (the key of a node's depth bound among the facts of the nodes, Compiler.fact)
PROVEN = "proven"   # (the type a node's value is proven of: ``proven``)
LOOSE = "loose"     # (a node's value may be or hold a value of type any: ``carried``)
TOTAL = "total"   # (the most elements a node's value holds at every depth together, where known: a list variable's)
TEXTS = "texts"   # (the most characters its strings hold together, where known: a parameter's, engine/param_bounds.py)


def recorded(c: Any, n: Any) -> int | None:
    return c.fact(n, INNER)


def inner(c: Any, n: Any) -> int:
    """The most elements any list inside the value of node ``n`` can have."""
    found = recorded(c, n)
    return list_bound(c.names.max_list) if found is None else found


def totalled(c: Any, n: Any, bound: int, chars: int | None = None) -> None:
    """Node ``n``'s value holds at most ``bound`` elements at every depth together (a list
    variable's, as _stored keeps them), and ``chars`` characters of strings (None: not known):
    what a walk through them all reads at most (walks.py)."""
    c.know(n, TOTAL, bound)
    if chars is not None:
        c.know(n, TEXTS, chars)


def summed(c: Any, n: Any, typed) -> None:
    """List node ``n`` holds these values ((node, type) each: a list written out): its own elements
    and all those inside them at every depth together, where each one's is known (a variable's, a
    parameter's, a number's none)."""
    totals = held_totals(c, typed)
    if totals is not None:
        totalled(c, n, len(totals) + sum(totals))


def held_totals(c: Any, typed) -> list[int] | None:
    """What each of these nodes ((node, static type) each) holds at every depth together, as walks
    weigh it: none where it may hold no list, even made of a value of type any (``proven``); None
    where one's is not known."""
    totals = [c.fact(x, TOTAL) if may_hold_lists(t) or ANY in proven(c, x, t) else 0 for x, t in typed]
    return None if None in totals else totals


def either(c: Any, n: Any, typed) -> None:
    """Node ``n``'s value is one of these ((node, static type) each: an ``if`` ... ``else``'s
    branches): it holds at every depth together what the one holding the most does, where each
    one's is known."""
    totals = held_totals(c, typed)
    if totals is not None:
        c.know(n, TOTAL, max(totals))


def innered(c: Any, n: Any, bound: int) -> None:
    c.know(n, INNER, max(1, bound))


def deepest(c: Any, typed) -> int:
    """The longest list in any of these values or inside them (items of a list written out,
    the value of a map(), ...), given as (node, its type): a value that is no list or map adds
    nothing, and one whose elements hold no lists (a zone, ``[1, 2]``, ``players``) its own length;
    one made of a value of type any (``held_as``) what that may be."""
    typed = [(x, held_as(c, x, t)) for x, t in typed]
    return max((max(c.size(x) if may_hold_lists(t) else 1, inner(c, x) if holds_lists(t) else 1)
                for x, t in typed), default=1)


def may_hold_lists(typ: str) -> bool:
    return typ == ANY or is_list(typ) or is_map(typ)


def holds_lists(typ: str) -> bool:
    """Whether a value of type ``typ`` may have lists or maps among its elements (or values)."""
    return typ == ANY or may_hold_lists(elem(typ) if is_list(typ) else map_value(typ) if is_map(typ) else "")


def element_of(c: Any, n: Any, coll: Any, typ: str) -> None:
    """Node ``n`` is an element (of type ``typ``) of the list or map ``coll``."""
    if typ == STR:
        texts.kept(c, n, texts.inside(c, coll))
    if may_hold_lists(typ):
        texts.holds(c, n, texts.inside(c, coll))   # (the strings of a list or map parameter's: at any depth)
        c.sized(n, inner(c, coll))
        innered(c, n, inner(c, coll))
        if c.fact(coll, TOTAL) is not None:   # (no more than the whole holds)
            totalled(c, n, c.fact(coll, TOTAL), c.fact(coll, TEXTS))


def bind_element(c: Any, var: str, coll: Any, typ: str) -> None:
    """``var`` goes over the elements of list ``coll`` (a filter's, a by:'s): what it is read as;
    where the list is made of a value of type any (``held_as``), each element may be what that is."""
    loose = held_as(c, coll, typ) == ANY
    if may_hold_lists(elem(typ)) or loose:
        c.know(var, "element", inner(c, coll), anywhere=True)
        c.know(var, TOTAL, c.fact(coll, TOTAL), anywhere=True)   # (no more than the whole holds)
    c.know(var, PROVEN, ANY if loose else None, anywhere=True)
    c.know(var, texts.INSIDE, texts.inside(c, coll) if elem(typ) == STR else None, anywhere=True)


def element_read(c: Any, n: Any, found: tuple) -> tuple:
    """``found``, what name node ``n`` reads (its source and type), sized when it is an element
    bound above (``it``, or a name given with ``as``)."""
    bound = c.fact(str(found[0]), "element", anywhere=True)
    if bound is not None:
        c.sized(n, bound)
        innered(c, n, bound)
        if c.fact(str(found[0]), TOTAL, anywhere=True) is not None:
            totalled(c, n, c.fact(str(found[0]), TOTAL, anywhere=True))
    texts.kept(c, n, c.fact(str(found[0]), texts.INSIDE, anywhere=True))
    if c.fact(str(found[0]), PROVEN, anywhere=True) is not None:
        c.know(n, PROVEN, c.fact(str(found[0]), PROVEN, anywhere=True))
    return found


def proven(c: Any, n: Any, typ: str) -> str:
    """The type node ``n``'s value (of static type ``typ``) is proven of: ``[]`` written out holds
    nothing, so is of every list type (``list[none]``, which joins any list as none joins any
    type), and a join of lists or an ``if`` ... ``else`` of values is of the type the proven types
    of its parts join (``L + ([x] if C else [])`` a ``list[str]`` where ``L`` and ``x`` are, though
    typed ``list[any]``; types.py ``joined``: a part of type any keeps it any). A value made of a
    value of type any (``carried``) is proven of no type, whatever its static type says
    (``loose if C else 0``, ``[0, loose]``, ``n + loose``, ``max(loose, 1)``: an int to the
    compiler). What a variable stores unchecked where it proves the declared type
    (mechanics/variables.py); the static type, which the code is written from, is unchanged."""
    return c.fact(n, PROVEN) or typ


def held_as(c: Any, n: Any, typ: str) -> str:
    """The type a reader that weighs work (a comparison, a walk, a key, a filter's element) weighs
    node ``n``'s value (of static type ``typ``) as: any where it is made of a value of type any
    (``proven``: ``loose if C else 0`` types as an int, yet may be the list ``loose`` holds), as a
    store walks it (types.py ``walked``); else its static type."""
    return walked(typ, proven(c, n, typ))


def proven_of(c: Any, n: Any, parts) -> None:
    """Node ``n``'s value is one of, or joins, ``parts`` ((node, static type) each): ``proven``."""
    c.know(n, PROVEN, joined([proven(c, x, t) for x, t in parts]))


# the nodes whose value is made anew, never a part of their operands' values (a truth, a count,
# a text, a range's whole numbers): a value of type any among their operands is not in them
MADE = frozenset({"compare", "not_", "in_", "not_in", "range"})
MADE_BY = frozenset({"count", "any", "all", "text", "keys"})


def carried(c: Any, n: Any, typ: str) -> None:
    """Node ``n`` (of static type ``typ``) compiled: where an operand's value may be or hold a value
    of type any (``LOOSE``) and its own may carry it (an item, a branch, a sum, an element taken
    out, what a built-in returns of its arguments: all but ``MADE``), its value is proven of no
    type (``proven``: any), though the compiler types it by the other operands (``x if C else 0``
    an int, as types.py ``unify`` joins any with numbers, ``n + loose`` an int): stored in a typed
    variable, it is checked (mechanics/variables.py). Where its own proven type holds any, its
    parents carry it."""
    mine = c.fact(n, PROVEN)
    if mine is None and ANY not in typ and n.data not in MADE \
            and not (n.data == "call" and str(n.children[0]) in MADE_BY) and any(c.fact(x, LOOSE) for x in _operands(n)):
        c.know(n, PROVEN, mine := ANY)
        if not may_hold_lists(typ) and c.fact(n, TOTAL) is None:   # (no more than its operands hold together)
            totals = held_totals(c, [(x, ANY) for x in _operands(n) if c.fact(x, LOOSE)])
            if totals is not None:
                c.know(n, TOTAL, sum(totals))
    if ANY in (mine or typ):
        c.know(n, LOOSE, True)


def _operands(n: Any):
    """The expression nodes of node ``n``'s operands: a call's arguments, keyword ones too."""
    for x in n.children:
        if isinstance(x, Tree):
            yield from _operands(x) if x.data in ("args", "kwarg") else (x,)


def held(c: Any, n: Any) -> tuple:
    """What ``resized`` gives another node of node ``n``'s: its depth bound (None: unrecorded),
    whether its bound is declared (known.py) and the type it is proven of (None: its static type)."""
    return recorded(c, n), known(c, n), c.fact(n, PROVEN)


def resized(c: Any, n: Any, size: int, inside: tuple) -> None:
    """Node ``n`` is as long as ``size``, and holds as ``inside`` says (``held`` of the node it is:
    what is inside it as long, its bound declared alike, proven of the same type)."""
    c.sized(n, size)
    deep, known_bound, typ = inside
    if deep is not None:
        innered(c, n, deep)
    declared(c, n, known_bound)
    if typ is not None:
        c.know(n, PROVEN, typ)


def zoned(c: Any, n: Any, most: int | None) -> None:
    """Node ``n`` reads a zone: as long as the game's cards (unrecorded), or ``most`` where its
    ``max:`` lets it hold no more; a bound the ruleset declares either way (known.py)."""
    if most is not None:
        c.sized(n, most)
    declared(c, n)



def lengths(c: Any, n: Any, typ: str) -> tuple:
    """(the most elements the value of node ``n`` has, the most any list or map inside it has, the
    most it holds at every depth together, the most an element of it does): 0 where it is no list
    (holds none), None where no bound is known (``in_all``). What a binder of a local compares with
    the bound its reads assume (``local_bounds``): past it, or not known, the value is checked as a
    variable's (building/declared.py)."""
    own, deep = c.size(n) if may_hold_lists(typ) else 0, inner(c, n) if holds_lists(typ) else 0
    total = c.fact(n, TOTAL)
    each = total if total is not None else in_all(deep, deep, elem(typ) if is_list(typ) else map_value(typ))
    return own, deep, total if total is not None else in_all(own, deep, typ), each if holds_lists(typ) else deep


def in_all(own: int, deep: int, typ: str) -> int | None:
    """The most elements a value of type ``typ`` holds at every depth together (as _stored counts
    them), where it has ``own`` and any list inside it ``deep``: a list of lists of lists... counted
    level by level; None where its type does not say how deep it goes (any, a list of any)."""
    if not holds_lists(typ):
        return own if may_hold_lists(typ) else 0
    levels = 0
    while typ != ANY and holds_lists(typ):
        typ, levels = elem(typ) if is_list(typ) else map_value(typ), levels + 1
    return None if typ == ANY else sum(own * deep ** k for k in range(levels + 1))


def local_bounds(c: Any, locals: dict) -> dict:
    """The most elements each of the ``locals`` (name -> type) a binder makes may hold, for those
    that may hold lists (``Compiler.local_sizes``): what a list variable may hold, at every depth
    (the argument of a declared effect, an element of a for_each over a list of lists, may be one)."""
    return {name: list_bound(c.names.max_list) for name, typ in locals.items() if may_hold_lists(typ)}


def local_read(c: Any, n: Any, scope: Any, name: str) -> None:
    """Node ``n`` reads local ``name``: as long as its binder recorded in ``scope`` (else unsized:
    as long as a zone)."""
    bound = scope.sizes.get(name)
    if bound is not None:
        c.sized(n, bound)
        totalled(c, n, bound)   # (at every depth together: its binder checks it, building/declared.py)
