"""The compiler's methods for membership: ``x in L`` and ``x not in L`` (a list walked, a set
kept for a loop's lookups, a zone's record, a map's values read in C), a mixin of the compiler
(expr/compiler.py) through OperatorNodes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from lark import Tree

from . import nesting, texts, walks
from .builtins import ASKED, MEMBERSHIP
from .code import Code, Compare, Hoisted, Mapped, Zone, code, reading, shape
from .fastpaths import (member_of_joined, member_of_record, pure_list,
                        pure_value, scan_call, shared_zones)
from .parser import ExprError, offset_of
from .sets import HASHED as _HASHED, SetNodes
from .types import ANY, BOOL, CARD, INT, NONE, PLAYER, STR, TEAM, elem, is_list, is_numeric

if TYPE_CHECKING:
    from .access import Recorder
    from .names import Names, Scope



def comparable(a, b):
    if ANY in (a, b) or NONE in (a, b) or a == b:
        return True
    if is_numeric(a) and is_numeric(b):
        return True
    return is_list(a) and is_list(b)


class MembershipNodes(SetNodes):
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
        held = nesting.held_as(self, right, tb)   # (a list made of a value of type any: what it may hold)
        if tb == ANY or held == ANY and not is_list(tb):   # a list looked in, or a string searched where the needle may be one: the costlier
            walks.looked_in(self, n, (n.children[0], nesting.held_as(self, n.children[0], ta)), right, op)
        elif tb == STR:   # a string looked for inside another
            texts.searched(self, n, n.children[0], right, op)
        if is_list(tb) and not comparable(ta, elem(tb)):
            raise ExprError(f"'{op}' looks for a {ta} in a list of {elem(tb)}: always false",
                            offset_of(n.children[0]), code="type")
        if is_list(tb) and nesting.holds_lists(held):   # each list inside compared, as == compares two
            walks.looked_through(self, n, right, held, nesting.held_as(self, n.children[0], ta), op)
        as_set, zones = False, shared_zones(b) if ta == CARD and is_list(tb) else None
        recorded = zones is not None and pure_value(a) and all(z in self.names.recorded for z in zones)
        if is_list(tb) and not nesting.holds_lists(held) and not asked and not recorded:   # (a MEMBERSHIP call's test: its own)
            as_set = self._kept_as_set(a, right, b, ta in _HASHED and elem(tb) in _HASHED, scope)
            self._looked_up(n, right, as_set, op)
        if zones is not None:   # a card looked for in shared zones: their record serves (building/record.py)
            self.names.asked.update(zones)
            if not self.plain and recorded:   # (one item of the record read, weighed so in both compiles)
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
