"""The compiler's methods for membership: ``x in L`` and ``x not in L`` (a list walked, a set
kept for a loop's lookups, a zone's record, a map's values read in C), a mixin of the compiler
(expr/compiler.py) through OperatorNodes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from lark import Tree

from . import nesting, texts, walks
from .builtins import ASKED, MEMBERSHIP
from .code import Code, Compare, Hoisted, Mapped, Zone, code, reading, shape
from .fastpaths import (cards_bytes, joined_lists, member_of_cards, member_of_joined, member_of_record, pure_list,
                        pure_value, scan_call, shared_zones)
from .parser import ExprError, offset_of
from .types import ANY, BOOL, CARD, INT, NONE, PLAYER, STR, TEAM, elem, is_list, is_numeric

if TYPE_CHECKING:
    from .access import Recorder
    from .names import Names, Scope

_HASHED = (CARD, PLAYER, INT, STR)   # types whose values are found in a set as in a list (no NaN, no list)


def comparable(a, b):
    if ANY in (a, b) or NONE in (a, b) or a == b:
        return True
    if is_numeric(a) and is_numeric(b):
        return True
    return is_list(a) and is_list(b)


class MembershipNodes:
    # what these methods (and OperatorNodes') use of the Compiler (set in Compiler.__init__, documented there)
    names: Names
    plain: bool
    cost: int
    _expansions: int
    _hoisted: list[str] | None
    _eager: dict[str, str]
    _uses: list[set]
    access: Recorder
    hoisting: bool
    lambda_vars: set[str]
    _varying: tuple
    _mult: int
    set_cells = 0   # (the sets an expression compiled without bindings keeps: _in_set, with_sets)

    if TYPE_CHECKING:   # the Compiler's methods these call (compiler.py)
        def node(self, n: Any, scope: Scope) -> tuple[Code, str]: ...
        def fresh(self) -> str: ...
        def hoist(self, src: Code, scope: Scope, eager: bool = False) -> Code: ...
        def unhoist(self, src: Code) -> None: ...
        def release(self, src: Code) -> None: ...
        def filter_source(self, var: str, src: Code, cond: Code, body: str | None = None) -> str: ...
        def holds_loop(self, loops: bool) -> None: ...
        def expect_type(self, typ: str, expect: str, node: Any) -> None: ...
        def add_cost(self, operations: int, node: Any, why: str = ...) -> None: ...
        def size(self, n: Any) -> int: ...
        def sized(self, n: Any, bound: int) -> None: ...
        def span(self, n: Any) -> tuple | None: ...
        def spanned(self, n: Any, span: tuple | None) -> None: ...
        def know(self, n: Any, kind: str, value: Any, anywhere: bool = False) -> None: ...
        def fact(self, n: Any, kind: str, anywhere: bool = False) -> Any: ...
        def in_loop(self, coll_node: Any, compile_body: Callable[[], Any]) -> Any: ...
        def name_taken(self, name: str, scope: Scope) -> str | None: ...

    def n_in_(self, n, scope):
        return self._member(n, scope, "in")

    def n_not_in(self, n, scope):
        return self._member(n, scope, "not in")

    def _member(self, n, scope, op):
        right = n.children[1]
        asked = isinstance(right, Tree) and right.data == "call" and str(right.children[0]) in MEMBERSHIP
        if asked:   # (weighed as the test, the reference's work too: builtins.register_builtin)
            self.know(right, ASKED, True)
        if not self.plain and asked:
            # `x in f(...)` for a built-in that can answer membership without building its list
            (a, ta) = self.node(n.children[0], scope)
            saved, self._hoisted = self._hoisted, None   # compiled for its checks only
            try:
                _, tb = self.node(right, scope)
            finally:
                self._hoisted = saved
            # its arguments are compiled again for the bit test: counted once (from zero meanwhile,
            # so that the second count cannot pass the bound the first one stayed under)
            counted, self.cost = (self.cost, self._expansions), 0
            self._uses.append(set())   # (what its source reads of the elements around)
            try:
                test, bsrc = MEMBERSHIP[str(right.children[0])](self, right, scope)
            finally:
                used = self._uses.pop()
            self._uses[-1] |= used
            self.cost, self._expansions = counted
            if comparable(ta, elem(tb)):
                bits = reading(bsrc, frozenset(used))
                bits.walks = True   # (a mechanic's helper builds the set)
                found = f"{test}({self.hoist(bits, scope)}, {a})"
                return (found if op == "in" else f"(not {found})"), BOOL
        (a, ta), (b, tb) = self.node(n.children[0], scope), self.node(right, scope)
        if not is_list(tb) and tb not in (STR, ANY):
            raise ExprError(f"'{op}' needs a list on its right, got {tb}", offset_of(n.children[1]), code="type")
        if tb == STR and ta not in (STR, ANY):
            raise ExprError(f"'{op}' with a str on its right needs a str on its left, got {ta}",
                            offset_of(n.children[0]), code="type")
        if tb == STR or tb == ANY and ta in (STR, ANY):   # a string looked for inside another (or may be)
            texts.searched(self, n, n.children[0], right, op)
        if is_list(tb) and not comparable(ta, elem(tb)):
            raise ExprError(f"'{op}' looks for a {ta} in a list of {elem(tb)}: always false",
                            offset_of(n.children[0]), code="type")
        if is_list(tb) and nesting.holds_lists(tb):   # each list inside compared, as == compares two
            walks.walked(self, n, walks.elements(self, right, tb), walks.WALK_WORK, f"'{op}' of a list of lists")
        as_set = False
        if is_list(tb) and not nesting.holds_lists(tb) and not asked:   # (the test of a MEMBERSHIP call: its own)
            as_set = self._kept_as_set(a, right, b, ta in _HASHED and elem(tb) in _HASHED, scope)
            self._looked_up(n, right, as_set, op)
        zones = shared_zones(b) if ta == CARD and is_list(tb) else None
        if zones is not None:   # a card looked for in shared zones: their record serves (building/record.py)
            self.names.asked.update(zones)
            if not self.plain and pure_value(a) and all(z in self.names.recorded for z in zones):
                self.release(b)   # (the zones' tables are not read)
                return member_of_record(self.names, a, op, zones), BOOL
        if as_set and not self.plain:
            return self._in_set(n, a, ta, b, tb, scope, op), BOOL
        mapped = shape(b)
        if isinstance(mapped, Mapped) and mapped.lookup is not None and elem(tb) in (INT, STR, PLAYER, CARD, TEAM, BOOL):
            # x in map(ZONE, to: attr), the map not lifted out of a filter: look for x in the
            # zone's attribute with a plain loop, no list built (x is computed once either way;
            # of these types no value is a NaN, the one thing `in` finds and `==` does not)
            table, zone = mapped.lookup[0], mapped.iter
            found = f"({scan_call(self, zone, [('Eq', table, a)])} is not None)"
            owned = shape(zone)
            if isinstance(owned, Zone) and owned.per_card and pure_value(owned.owner) and pure_value(a):
                # a card's zone, mostly missing or empty (pieces on a table): no call for those
                cards, owner = owned.table, owned.owner
                scan = scan_call(self, f"{cards}[{owner}]", [('Eq', table, a)])
                found = f"(({scan} is not None) if {owner} in {cards} and {cards}[{owner}] else False)"
            return (found if op == "in" else f"(not {found})"), BOOL
        values = None if self.plain else self._mapped_values(b, scope)
        if values is not None:
            return code(f"({a} {op} {values})", Compare(op, a, values)), BOOL
        union = None if self.plain or not is_list(tb) else self._union_set(a, ta, b, tb, scope, op)
        if union is not None:   # x in A + B in a loop: one set (or bytes) of both, a lookup per element
            return union, BOOL
        joined = None if self.plain or not is_list(tb) else member_of_joined(a, b)
        if joined is not None:   # x in A + B: looked for in A, then in B, no list joined
            return (joined if op == "in" else f"(not {joined})"), BOOL
        return f"({a} {op} {b})", BOOL

    def _kept_as_set(self, x, coll, found, hashed: bool, scope) -> bool:
        """Whether ``x in L`` (x's code, L's node and code, ``hashed``: of values whose equality
        agrees with their hash) looks in a set of L built once per evaluation: x asked of the
        element of a loop (not a key written as a lambda), L reading neither it nor a local that
        changes with it, L longer than ``walks.SET_LEAST``. Decided from the tree and the sizes,
        alike in both compiles (the optimised one builds the set: _in_set)."""
        elements = [var for var, _ in scope.elements]
        return (hashed and any(var in x.uses for var in elements) and self.hoisting and self.size(coll) > walks.SET_LEAST
                and not any(var in self.lambda_vars or var in found.uses for var in elements)
                and not any(v in found.uses for v in self._varying))

    def _looked_up(self, n, coll, as_set: bool, op: str) -> None:
        """``x in L`` over a flat list: each element compared in C (up to the one found) each
        time it runs; kept as a set, the set built once per evaluation and a lookup each time."""
        if not as_set:
            walks.walked(self, n, walks.spread(self, coll), walks.WALK_WORK, f"'{op}'")
            return
        saved, self._mult = self._mult, 1   # (the set: built once, before the loops around)
        try:
            walks.walked(self, n, self.size(coll), walks.SET_WORK, f"'{op}' (a set of its list)")
        finally:
            self._mult = saved
        walks.walked(self, n, 1, walks.WALK_WORK, f"'{op}'")

    def _in_set(self, n, a, ta, b, tb, scope, op) -> str:
        """``x in L`` asked in a loop of a list L that does not change with its element
        (walks.kept_as_set): a set of L's elements (or bytes of its cards), built once per
        evaluation (eagerly for a join of plain reads, else at its first use), a lookup each time.
        Where it cannot be bound (Python refuses ``:=`` there) L is walked each time, charged so."""
        union = self._union_set(a, ta, b, tb, scope, op)
        if union is not None:
            return union
        made = reading("{*" + b + "}", b.uses)   # (a set display: the generated code has no builtins)
        made.walks = True
        if self._hoisted is None:   # (compiled without bindings, where Python refuses :=: a cell of with_sets)
            self.set_cells += 1
            k = self.set_cells
            return f"({a} {op} (_sets[{k}] if {k} in _sets else _sets.setdefault({k}, {made})))"
        return f"({a} {op} {self.hoist(made, scope)})"

    def with_sets(self, src, typ) -> tuple:
        """An expression compiled without bindings (compiler._compile), in a function given the
        dict its sets are kept in (_in_set), one per evaluation, where it keeps any."""
        if not self.set_cells:
            return src, typ
        self.set_cells = 0
        return f"(lambda _sets: {src})({{}})", typ

    def _mapped_values(self, b, scope) -> Code | None:
        """``x in map(ZONE, to: attr)`` whose map is lifted out of a filter (computed once per
        evaluation, ``hoist``), the zone read plainly: the attribute's values of its cards lifted
        instead as a tuple read by one ``itemgetter`` in C, not a list built by a comprehension
        (``in`` finds in a tuple what it finds in the list). None: not such a map."""
        lifted = shape(b)
        if not isinstance(lifted, Hoisted) or lifted.name is None or not self._hoisted or self._hoisted[-1] != lifted.name:
            return None
        mapped = shape(lifted.inner)
        if not isinstance(mapped, Mapped) or mapped.lookup is None or not pure_list(mapped.iter):
            return None
        zone, table = mapped.iter, mapped.lookup[0]
        eager = lifted.name in self._eager
        self.unhoist(b)
        read = reading(f"(_itemgetter(*{zone})({table}) if len({zone}) > 1 else ({table}[{zone}[0]],) if {zone} else ())",
                       lifted.inner.uses)
        read.walks = True
        return self.hoist(read, scope, eager=eager)

    def _union_set(self, a, ta, b, tb, scope, op) -> str | None:
        """``x in A + B + C`` asked of each element of a loop (x reads the element, the lists do
        not): the lists joined as one set, built once per evaluation before it (compiler.hoist:
        plain reads of the lists cannot fail), so that each element is one lookup rather than a
        walk through every list. Only for values whose equality agrees with their hash (cards,
        seats, whole numbers, strings)."""
        if ta not in _HASHED or elem(tb) not in _HASHED or not any(var in a.uses for var, _ in scope.elements):
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
