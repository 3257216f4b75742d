"""Counts by an attribute read from a tally inside a loop that cannot change the zone counted.

``count(ZONE where ATTR == x)``, with x the element of a ``for_each`` of an effect list around
it, walks the zone once for each element of the loop (a majority of each suit: each value, each
team's pile). When the loop's body cannot write the zone (nor can what it calls: the effect
compiler decides it after compiling the body, building/effects.py, and compiles the body again
without the tally if it may), the zone is tallied by the attribute once per run of the loop, an
owner's list when it is first asked (``runtime._tally``: a count for each of the attribute's
values, by number), and a count is three lookups.

Exact where the walk is: the attribute's values are plain (str, numbers, bool, none: hashable,
each equal to itself, so a dict finds x as ``==`` does), and so is x (its static type says so:
an unhashable x would fail where the walk finds no equal); the owner is a plain read (a seat, a local,
a number, a variable) that fails as the walk's would (none, past the end).
"""
from __future__ import annotations

from .code import Compare, Local, Zone, owner_kind, lookup, shape
from . import runtime
from .names import table_ref
from .types import BOOL, CARD, INT, NUM, PLAYER, STR, TEAM

HASHED = frozenset({INT, NUM, BOOL, STR, CARD, PLAYER, TEAM})   # types whose values a dict finds as == does
_PLAIN = (str, int, float, bool, type(None))


class Tallies:
    """The tallies a ``for_each`` makes before it runs (``made``), for its element ``var`` of
    static type ``typ``; ``prefix`` names them, ``refused`` are the zones its body may write."""

    def __init__(self, var: str, typ: str, prefix: str):
        self.var, self.typ, self.prefix = var, typ, prefix
        self.made: dict = {}          # (zone, table) -> (its local name, the source making it: no owner counted yet)
        self.refused: set = set()

    def read(self, namespace: dict, zone: str, table: str, owner, cards: str, value: str) -> str | None:
        """The source counting the cards of ``zone`` (``cards``: the source of its list, of
        ``owner``, a Code, or shared: None) whose attribute (``table``, its name in
        ``namespace``) equals ``value``; None when the table's values are not all plain."""
        values = namespace.get(table)
        if not isinstance(values, tuple) or not all(type(v) in _PLAIN and v == v for v in values):
            return None
        codes, index = "AC_" + table[2:], "AI_" + table[2:]   # (each card's value as a number; value -> number)
        if index not in namespace:
            distinct = {v: i for i, v in enumerate(dict.fromkeys(values))}
            namespace[codes], namespace[index] = tuple(distinct[v] for v in values), runtime.ValueCodes(distinct, len(distinct))
        if (zone, table) not in self.made:
            whole = f"[None] * len({table_ref('z', zone)})" if owner is not None else "[None]"
            self.made[zone, table] = (f"{self.prefix}_{len(self.made)}", whole)
        k, o = self.made[zone, table][0], ("0" if owner is None else owner)
        return f"({k}[{o}] or _tally({k}, {o}, {cards}, {codes}, {namespace[index].other + 1}))[{index}[{value}]]"


def tallied(c, counted, tests: list) -> str | None:
    """``count(ZONE where ATTR == x)`` (the Filter ``counted``, its ``tests`` as
    fastpaths.comparison_tests gives them) read from a tally of the innermost ``for_each``
    binding x (``c.tallies``), when the module docstring's conditions hold; else None."""
    if len(tests) != 1 or tests[0][0] != "Eq" or not c.tallies:
        return None
    value, zone, cond = shape(tests[0][2]), shape(counted.iter), shape(counted.cond)
    left = lookup(cond.left, counted.var) if isinstance(cond, Compare) else None
    if not (isinstance(value, Local) and left is not None and left.kind == "attr" and isinstance(zone, Zone)
            and not zone.per_card and getattr(shape(zone.table), "kind", None) == "z"
            and (zone.owner is None or owner_kind(zone.owner) is not None or isinstance(shape(zone.owner), Local))):
        return None
    loop = next((t for t in reversed(c.tallies) if t.var == value.name), None)
    name = shape(zone.table).name
    if loop is None or loop.typ not in HASHED or name in loop.refused:
        return None
    return loop.read(c.names.namespace, name, left.table, zone.owner, counted.iter, tests[0][2])
