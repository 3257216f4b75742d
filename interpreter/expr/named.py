"""The names given to a list's elements with ``as`` (``L as x where C``), and where they reach.

A name given with ``as`` is lexical: it is read in the filter's condition, in filters chained
to it (``L as x where C where D``: the same elements), and in the per-element keyword arguments
(``by:``, ``to:``) of a call whose list argument is written that way (``map(L as x where C,
to: x.rank)``). Not beyond: not after the filter, not in a call's other arguments (``total:``),
and not out of a define that writes one (a define is its value: the names it gives stay inside).
"""
from __future__ import annotations

from lark import Tree

from .parser import ExprError, offset_of, parse


def element_names(node) -> tuple[str, ...]:
    """The names the elements of the list ``node`` go by: those its ``as`` gives, and those of
    the filters it is chained to (parentheses are no node of their own)."""
    names: list[str] = []
    while isinstance(node, Tree) and node.data in ("where", "where_as"):
        if node.data == "where_as":
            names.append(str(node.children[1]))
        node = node.children[0]
    return tuple(reversed(names))


def _binds(tree, name: str) -> bool:
    return any(t.data == "where_as" and str(t.children[1]) == name for t in tree.iter_subtrees())


# the defines last asked about, their number, and the names any of them gives with 'as': a
# ruleset's many unknown names (bare attributes in defines, checked where they are written) ask
# once, and walk the defines only for a name one of them gives
_GIVEN: tuple = (None, -1, frozenset())


def _given_in_defines(defines: dict) -> frozenset:
    global _GIVEN
    if _GIVEN[0] is not defines or _GIVEN[1] != len(defines):
        given = set()
        for text in defines.values():
            try:
                given |= {str(t.children[1]) for t in parse(text).iter_subtrees() if t.data == "where_as"}
            except ExprError:
                continue
        _GIVEN = (defines, len(defines), frozenset(given))
    return _GIVEN[2]


def _in_defines(tree, name: str, defines: dict, seen: set) -> str | None:
    """The define (used by ``tree``, directly or through others) that names its elements ``name``."""
    for t in tree.iter_subtrees():
        if t.data != "name":
            continue
        used = str(t.children[0])
        if used in defines and used not in seen:
            seen.add(used)
            try:
                inner = parse(defines[used])
            except ExprError:
                continue
            if _binds(inner, name):
                return used
            found = _in_defines(inner, name, defines, seen)
            if found is not None:
                return found
    return None


def out_of_scope(name: str, node, root, defines: dict) -> ExprError | None:
    """The error for ``name`` read at ``node`` where it means nothing, if it is a name given with
    ``as`` elsewhere in the expression ``root`` or in a define it uses; else None."""
    if not isinstance(root, Tree):
        return None
    if _binds(root, name):
        return ExprError(f"'{name}' is out of scope here: 'as {name}' names the elements of its filter only "
                         "in its condition, in filters chained to it and in the by: or to: of a call whose "
                         "list it is", offset_of(node),
                         "elsewhere there is no one element to name: read what you need inside the filter, "
                         "or in a by: or to: over it ('it' is the element there)",
                         code="unknown-name", span=len(name))
    define = _in_defines(root, name, defines, set()) if name in _given_in_defines(defines) else None
    if define is not None:
        return ExprError(f"'{name}' is out of scope here: 'as {name}' is written inside define '{define}', "
                         "and a name given with 'as' does not reach outside its define", offset_of(node),
                         f"in a by: or to: over the define, the element is 'it': map({define}, to: it)",
                         code="unknown-name", span=len(name))
    return None
