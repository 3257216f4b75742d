"""The compiler's methods for ``x in L`` looked in as a set: a flat list looked in from a loop
that does not change with its element (built once per evaluation: walks.py weighs it), and a
join of lists looked in from a loop (one set of them all). Mixed into OperatorNodes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import walks
from .fastpaths import cards_bytes, joined_lists, member_of_cards, pure_value
from .code import Hoisted, Mapped, Var, Zone, reading, shape
from .types import CARD, INT, PLAYER, STR, elem

if TYPE_CHECKING:
    from .names import Names, Scope
    from .code import Code

HASHED = (CARD, PLAYER, INT, STR)   # types whose values are found in a set as in a list (no NaN, no list)


def keyed(values: list):
    """What ``x in values`` looks in, once per evaluation (generated as ``_keyed``): the list
    itself up to ``walks.SET_LEAST`` elements, else a set of them."""
    return values if len(values) <= walks.SET_LEAST else {*values}


class SetNodes:
    """Compiler methods for membership looked up in a set (mixed into OperatorNodes)."""

    names: Names
    hoisting: bool
    lvalue: bool
    lambda_vars: set[str]
    _varying: tuple
    _mult: int
    _hoisted: list[str] | None
    set_cells = 0   # (the sets an expression compiled without bindings keeps: _in_set, with_sets)

    if TYPE_CHECKING:   # the Compiler's methods these call (compiler.py)
        def hoist(self, src: Code, scope: Scope, eager: bool = False) -> Code: ...
        def unhoist(self, src: Code) -> None: ...
        def size(self, n: Any) -> int: ...
        def add_cost(self, operations: int, node: Any, why: str = ...) -> None: ...
        def fact(self, n: Any, kind: str, anywhere: bool = False) -> Any: ...

    def _kept_as_set(self, x, coll, found, hashed: bool, scope) -> bool:
        """Whether ``x in L`` (x's code, L's node and code, ``hashed``: of values whose equality
        agrees with their hash) looks in a set of L built once per evaluation: x asked of the
        element of a loop (not a key written as a lambda), L reading neither it nor a local that
        changes with it, L longer than ``walks.SET_LEAST``. Decided from the tree and the sizes,
        alike in both compiles (the optimised one builds the set: _in_set). Not in the target of a
        write (``lvalue``: a plain subscript, which no evaluation's cell of sets can wrap)."""
        elements = [var for var, _ in scope.elements]
        return (hashed and any(var in x.uses for var in elements) and self.hoisting and not self.lvalue
                and self.size(coll) > walks.SET_LEAST
                and not any(var in self.lambda_vars or var in found.uses for var in elements)
                and not any(v in found.uses for v in self._varying))

    def _looked_up(self, n, coll, as_set: bool, op: str) -> None:
        """``x in L`` over a flat list: each element compared in C (up to the one found) each
        time it runs; kept as a set, the set built once per evaluation and a walk of up to
        ``walks.SET_LEAST`` each time (the list itself is looked in where it is that short: _set_of)."""
        if not as_set:
            walks.walked(self, n, walks.spread(self, coll), walks.WALK_WORK, f"'{op}'")
            return
        saved, self._mult = self._mult, 1   # (the set: built once, before the loops around)
        try:
            walks.walked(self, n, self.size(coll), walks.SET_WORK, f"'{op}' (a set of its list)")
        finally:
            self._mult = saved
        walks.walked(self, n, walks.SET_LEAST, walks.WALK_WORK, f"'{op}'")   # (a list that short walked: _set_of)

    def _in_set(self, n, a, ta, b, tb, scope, op) -> str:
        """``x in L`` asked in a loop of a list L that does not change with its element
        (walks.kept_as_set): a set of L's elements (or bytes of its cards), built once per
        evaluation (eagerly for a join of plain reads, else at its first use), a lookup each time.
        Where it cannot be bound (Python refuses ``:=`` there) L is walked each time, charged so."""
        union = self._union_set(a, ta, b, tb, scope, op)
        if union is not None:
            return union
        source, eager = self._set_of(b)
        made = reading(source, b.uses)
        made.walks = True
        if self._hoisted is None:   # (compiled without bindings, where Python refuses :=: a cell of with_sets)
            self.set_cells += 1
            k = self.set_cells
            return f"({a} {op} (_sets[{k}] if {k} in _sets else _sets.setdefault({k}, {made})))"
        return f"({a} {op} {self.hoist(made, scope, eager=eager)})"

    def _set_of(self, b) -> tuple[str, bool]:
        """(the source of what ``x in L`` looks in, for list ``b``; whether it is bound before the
        expression). A map() just lifted out of the loop (compiler.hoist) for this lookup alone is
        written as a set comprehension: no list built. Else the list itself where it
        holds up to ``walks.SET_LEAST`` elements (a set of a few costs more than their walks), a set
        of it where longer (walks.py weighs a walk of SET_LEAST a lookup): decided before the
        expression where the list is a variable (none kept none) or a shared zone read (it cannot fail), else at
        its first use."""
        lifted = shape(b)
        if isinstance(lifted, Hoisted) and self._hoisted and self._hoisted[-1] == lifted.name \
                and isinstance(shape(lifted.inner), Mapped):   # (a map() is written as one comprehension: builtins.b_map)
            self.unhoist(b)
            return "{" + str(lifted.inner)[1:-1] + "}", False
        if isinstance(lifted, Var):   # (a variable may be none: kept so, as the lookup the reference asks raises then)
            return f"({b} if {b} is None or len({b}) <= {walks.SET_LEAST} else {{*{b}}})", True
        if isinstance(lifted, Zone) and lifted.owner is None and not lifted.per_card:
            return f"({b} if len({b}) <= {walks.SET_LEAST} else {{*{b}}})", True
        self.names.namespace.setdefault("_keyed", keyed)
        return f"_keyed({b})", False

    def with_sets(self, src, typ) -> tuple:
        """An expression compiled without bindings (compiler._compile), in a function given the
        dict its sets are kept in (_in_set), one per evaluation, where it keeps any."""
        if not self.set_cells:
            return src, typ
        self.set_cells = 0
        return f"(lambda _sets: {src})({{}})", typ

    def _union_set(self, a, ta, b, tb, scope, op) -> str | None:
        """``x in A + B + C`` asked of each element of a loop (x reads the element, the lists do
        not): the lists joined as one set, built once per evaluation before it (compiler.hoist:
        plain reads of the lists cannot fail), so that each element is one lookup rather than a
        walk through every list. Only for values whose equality agrees with their hash (cards,
        seats, whole numbers, strings)."""
        if ta not in HASHED or elem(tb) not in HASHED or not any(var in a.uses for var, _ in scope.elements):
            return None
        parts = joined_lists(b)
        if parts is None:
            return None
        # cards numbered below 256 (and x read plainly): the bytes of the lists' cards
        in_bytes = ta == CARD and elem(tb) == CARD and self.names.max_list <= 256 and pure_value(a)
        union = reading(cards_bytes(parts) if in_bytes else "{" + ", ".join(f"*{part}" for part in parts) + "}", b.uses)
        union.walks = True
        hoisted = self.hoist(union, scope, eager=True)
        if hoisted is union:
            return None
        return member_of_cards(a, op, hoisted) if in_bytes else f"({a} {op} {hoisted})"
