"""The names given to a list's elements with ``as`` (``L as x where C``), and where they reach.

A name given with ``as`` is lexical: it is read in the filter's condition, in filters chained
to it (``L as x where C where D``: the same elements), and in the per-element keyword arguments
(``by:``, ``to:``) of a call whose list argument is written that way (``map(L as x where C,
to: x.rank)``). Not beyond: not after the filter, not in a call's other arguments (``total:``),
and not out of a define that writes one (a define is its value: the names it gives stay inside).
A name given inside another's reach hides it there (the inner binding wins in its own filter).
"""
from __future__ import annotations

from collections import deque

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


def _given(tree) -> set[str]:
    """The names ``tree`` gives with 'as'."""
    return {str(t.children[1]) for t in tree.iter_subtrees() if t.data == "where_as"}


def _used(tree, defines: dict) -> list[str]:
    """The defines ``tree`` names, each once, in the order the tree is walked."""
    return list(dict.fromkeys(str(t.children[0]) for t in tree.iter_subtrees()
                              if t.data == "name" and str(t.children[0]) in defines))


class _Defines:
    """What a ruleset's defines give with 'as' and which they use, each parsed once; for a name,
    the define each define reaches that gives it (one walk of the defines, without recursion:
    a chain of defines of any length is linear)."""

    def __init__(self, defines: dict):
        self.users: dict[str, list[str]] = {}   # define -> the defines that use it
        self.gives: dict[str, set[str]] = {}    # define -> the names it gives with 'as'
        for name, text in defines.items():
            try:
                tree = parse(text)
            except ExprError:
                continue
            self.gives[name] = _given(tree)
            for used in _used(tree, defines):
                self.users.setdefault(used, []).append(name)
        self.given = set().union(*self.gives.values())
        self._giver: dict[str, dict[str, str]] = {}

    def giver(self, name: str) -> dict[str, str]:
        """define -> a define it is or uses (directly or through others) that gives ``name``."""
        if name not in self._giver:
            found = {d: d for d, names in self.gives.items() if name in names}
            todo = deque(found)
            while todo:   # the defines using one that reaches a giver reach it too
                d = todo.popleft()
                for user in self.users.get(d, ()):
                    if user not in found:
                        found[user] = found[d]
                        todo.append(user)
            self._giver[name] = found
        return self._giver[name]


# the defines last asked about, their number, and what is known of them: a ruleset's many unknown
# names (bare attributes in defines, checked where they are written) parse its defines once
_KNOWN: tuple = (None, -1, None)


def _known(defines: dict) -> _Defines:
    global _KNOWN
    if _KNOWN[0] is not defines or _KNOWN[1] != len(defines):
        _KNOWN = (defines, len(defines), _Defines(defines))
    return _KNOWN[2]


def out_of_scope(name: str, node, roots, defines: dict) -> ExprError | None:
    """The error for ``name`` read at ``node`` where it means nothing, if it is a name given with
    ``as`` elsewhere in the expression being compiled or in a define it uses; else None.
    ``roots``: the expression's tree, then the trees of the defines expanded to reach ``node``
    (the innermost, the text ``node`` is in, last)."""
    roots = [r for r in reversed(roots) if isinstance(r, Tree)]
    if any(name in _given(root) for root in roots):
        return ExprError(f"'{name}' is out of scope here: 'as {name}' names the elements of its filter only "
                         "in its condition, in filters chained to it and in the by: or to: of a call whose "
                         "list it is", offset_of(node),
                         "elsewhere there is no one element to name: read what you need inside the filter, "
                         "or in a by: or to: over it ('it' is the element there)",
                         code="unknown-name", span=len(name))
    known = _known(defines)
    if name not in known.given:
        return None
    giver = known.giver(name)
    define = next((giver[d] for root in roots for d in _used(root, defines) if d in giver), None)
    if define is not None:
        return ExprError(f"'{name}' is out of scope here: 'as {name}' is written inside define '{define}', "
                         "and a name given with 'as' does not reach outside its define", offset_of(node),
                         f"in a by: or to: over the define, the element is 'it': map({define}, to: it)",
                         code="unknown-name", span=len(name))
    return None
