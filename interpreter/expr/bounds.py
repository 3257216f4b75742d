"""What the compiler knows of the size of a value before it is stored.

A value stored in a variable or a counter is checked against the language's bounds at run time
(runtime.py ``_stored``: whole numbers of 64 bits, strings of MAX_STORED characters, lists of
the ruleset's list bound), a call at each ``set``. Some expressions cannot pass them, whatever
the state, and are stored without the call: a count of a list (no longer than a zone, which
holds the ruleset's cards at most, or the players), sums and products of such numbers and of
small literals; a filter, a map or ``distinct()`` of a zone, and joins of such lists; a card's
text attribute (the longest of its values, known when the ruleset is built). Each is read off
the expression's tree as the compiler resolves it (a define stands for its own tree; a local,
an element, a counter or anything else is unbounded: checked as before).
"""
from __future__ import annotations

from typing import Any

from lark import Token, Tree

from .parser import ExprError, parse
from .runtime import MAX_INT, MAX_STORED
from .types import INT, STR, is_list

_LISTS = ("map", "distinct", "top", "bottom")   # calls whose list is no longer than their first argument's


def within(text: Any, typ: str, names: Any, locals: Any = ()) -> bool:
    """Whether every value of the expression ``text`` (of type ``typ``, compiled with these
    ``locals``) is within what ``_stored`` lets a variable or a counter hold."""
    longest = names.namespace.get("_LIST_BOUND")
    if not isinstance(text, str) or longest is None:
        return False
    try:
        tree = parse(text)
    except ExprError:
        return False
    b = _Bounds(names, set(locals or ()))
    if typ == INT:
        n = b.number(tree)
        return n is not None and n <= MAX_INT
    if typ == STR:
        n = b.chars(tree)
        return n is not None and n <= MAX_STORED
    if is_list(typ):
        n = b.length(tree)
        return n is not None and n <= longest
    return False


class _Bounds:
    """The most a node's value can be: ``number`` (its absolute value, a whole number),
    ``length`` (a list's elements), ``chars`` (a string's characters); None: not known."""

    def __init__(self, names: Any, locals: set):
        self.names, self.locals = names, locals
        self.defines: list[str] = []   # the defines being measured (a cycle is measured as unknown)

    def _name(self, n: Tree) -> str | None:
        """The define a bare name stands for, if it is one (not hidden by a local)."""
        name = str(n.children[0])
        if name in self.locals or name in self.defines or name not in self.names.defines:
            return None
        return name

    def _define(self, n: Tree, measure) -> int | None:
        name = self._name(n)
        if name is None:
            return None
        self.defines.append(name)
        try:
            return measure(parse(self.names.defines[name]))
        except ExprError:
            return None
        finally:
            self.defines.pop()

    def number(self, n: Any) -> int | None:
        if isinstance(n, Token):
            return None
        kind = n.data
        if kind == "int_":
            return abs(int(n.children[0]))
        if kind in ("true", "false"):
            return 1
        if kind == "name":
            return self._define(n, self.number)
        if kind == "cond":
            return _most(self.number(n.children[0]), self.number(n.children[2]))
        if kind == "neg":
            return self.number(n.children[0])
        if kind in ("add", "sub", "mul", "floordiv", "mod"):
            a, b = self.number(n.children[0]), self.number(n.children[1])
            if a is None or b is None:
                return None
            return {"add": a + b, "sub": a + b, "mul": a * b, "floordiv": a + 1, "mod": b}[kind]
        if kind == "call":
            fname, args = str(n.children[0]), _args(n)
            if fname == "count" and len(args) == 1:
                return self.length(args[0])
            if fname in ("min", "max") and len(args) >= 2:
                bounds = [self.number(a) for a in args]
                return max(b for b in bounds if b is not None) if None not in bounds else None
            if fname == "abs" and len(args) == 1:
                return self.number(args[0])
        return None

    def length(self, n: Any) -> int | None:
        if isinstance(n, Token):
            return None
        kind = n.data
        if kind == "name":
            name = str(n.children[0])
            if name in self.locals:
                return None
            if name in ("players", "teams"):
                return self.names.max_players
            if name in self.names.zones and name not in self.names.vars:
                return self.names.max_list   # (a zone holds cards, each once)
            return self._define(n, self.length)
        if kind in ("where", "where_as"):
            return self.length(n.children[0])
        if kind == "list_":
            return len([c for c in n.children if c is not None])
        if kind == "cond":
            return _most(self.length(n.children[0]), self.length(n.children[2]))
        if kind == "add":
            a, b = self.length(n.children[0]), self.length(n.children[1])
            return None if a is None or b is None else a + b
        if kind == "call" and str(n.children[0]) in _LISTS:
            args = _args(n)
            first = args[0] if args else None
            return None if first is None or isinstance(first, Tree) and first.data == "kwarg" else self.length(first)
        return None

    def chars(self, n: Any) -> int | None:
        if isinstance(n, Token):
            return None
        kind = n.data
        if kind == "string":
            return len(str(n.children[0]))
        if kind == "name":
            return self._define(n, self.chars)
        if kind == "cond":
            return _most(self.chars(n.children[0]), self.chars(n.children[2]))
        if kind == "add":
            a, b = self.chars(n.children[0]), self.chars(n.children[1])
            return None if a is None or b is None else a + b
        if kind == "attr":
            return self._attribute(n)
        return None

    def _attribute(self, n: Tree) -> int | None:
        """The longest text of a card attribute read off a card (``first(L).suit``): only a name
        that is nothing but a card attribute (not a parameter's, a player's value)."""
        obj, name = n.children[0], str(n.children[1])
        names = self.names
        if (isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "params"
                or name not in names.attrs or name in names.counters or name in names.zones
                or name in names.keyed or name in names.params):
            return None
        values = names.namespace.get("A_" + name)
        if not isinstance(values, (tuple, list)) or not all(type(v) is str or v is None for v in values):
            return None
        return max((len(v) for v in values if v is not None), default=0)


def _most(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else max(a, b)


def _args(call: Tree) -> list:
    """The arguments of a call node (keyword ones as ``kwarg`` trees)."""
    rest = call.children[1] if len(call.children) > 1 else None
    if rest is None:
        return []
    return list(rest.children) if isinstance(rest, Tree) and rest.data == "args" else [rest]
