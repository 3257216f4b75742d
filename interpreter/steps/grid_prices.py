"""Pricing a grid's spaces again only where something they read has changed.

The ``grid`` step offers every space with its cost, so the cost expression is evaluated for
every space at every decision. When that expression reads nothing but the space, its
neighbours, their card-owned counters and parameters (the usual "1 coin + 1 per occupied
neighbour"), a space's cost can only change when one of those counters changes on the space or
on a neighbour. ``LocalPrices`` remembers, per grid layout, the counter values it priced with
and the costs; at the next decision it prices again only the spaces next to a changed counter.

A cost that reads anything else (``me``, a variable, a zone, a player's counter...) is not
local: the grid prices it in full at each decision, as before. The memo maps (layout,
parameters, counter values) to costs, a pure function of its key, so games, clones and players
sharing it cannot see each other's results; it is bounded.
"""
from __future__ import annotations

import re
from itertools import compress
from operator import ne

from ..expr.runtime import RUNTIME_ERRORS
from .grid_shape import adjacency, neighbour_getters

MAX_LAYOUTS = 64       # grid layouts remembered per step (one per round in a typical game)

_TABLE = re.compile(r"\((_t\w+) := S\.(c|p)\[('\w+')\]\), ")
_READS_STATE = re.compile(r"\b(S|me|L)\b")


def _frozen(value):
    """A parameter value as a hashable key (lists become tuples)."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value


class LocalPrices:
    """Costs of a grid's spaces kept between decisions; see the module docstring."""

    def __init__(self, price, options, counters, params):
        self.price = price          # (S, grid, getters, indexes) -> the costs of those spaces
        self.options = options      # (S, me, L, grid, costs, have) -> the spaces on offer
        self.counters = counters    # card-owned counters the cost reads
        self.params = params        # parameters the cost reads
        self.memo: dict = {}        # (layout, rows, parameter values) -> (counter values, costs)

    @classmethod
    def build(cls, names, cost: str, cost_prelude: str, where: str, where_prelude: str, namespace):
        """From the sources compile_element gave for the cost (its neighbours written
        ``_nb[_i](_g)``) and the filter; None when the cost is not local."""
        tables = _TABLE.findall(cost_prelude)
        if _TABLE.sub("", cost_prelude) or _READS_STATE.search(cost):
            return None   # hoisted calls, or reads of the state beyond counters and parameters
        counters, params = [], []
        for _, kind, quoted in tables:
            name = quoted[1:-1]
            if kind == "c":
                if names.counters.get(name) != "card":
                    return None
                counters.append(name)
            else:
                params.append(name)
        price = (f"lambda S, _g, _nb, _idx: ({cost_prelude}"
                 f"[({cost}) for _i in _idx for _it in (_g[_i],)],)[-1]")
        options = (f"lambda S, me, L, _g, _costs, _have: ({where_prelude}[_it "
                   f"for _i, _it in enumerate(_g) if _costs[_i] <= _have and ({where})],)[-1]")
        try:
            return cls(eval(compile(price, "<grid prices>", "eval"), namespace),      # noqa: S307 - generated
                       eval(compile(options, "<grid options>", "eval"), namespace),   # noqa: S307 - generated
                       tuple(counters), tuple(params))
        except SyntaxError:
            return None

    def offer(self, S, who, grid, rows, have):
        """The spaces ``who`` may take and afford, or None if pricing raised (the caller then
        prices in full, where a space the filter excludes is never priced)."""
        n = len(grid)
        p = S.p
        values = tuple([p[name] for name in self.params])
        key = (tuple(grid), rows, values)
        seen = tuple([tuple(map(S.c[c].__getitem__, grid)) for c in self.counters])
        try:
            try:
                entry = self.memo.get(key)
            except TypeError:   # a list parameter: as a tuple
                key = (key[0], rows, _frozen(list(values)))
                entry = self.memo.get(key)
            if entry is None:
                costs = self.price(S, grid, neighbour_getters(n, rows), range(n))
            elif entry[0] == seen:
                costs = entry[1]
            else:
                costs = self._update(S, grid, rows, entry, seen)
        except RUNTIME_ERRORS:
            return None
        if entry is None and len(self.memo) >= MAX_LAYOUTS:
            self.memo.clear()
        self.memo[key] = (seen, costs)
        return self.options(S, who, None, grid, costs, have)

    def _update(self, S, grid, rows, entry, seen):
        """The remembered costs with the spaces around every changed counter priced again."""
        before, costs = entry
        n = len(grid)
        shape = adjacency(n, rows)
        dirty = set()
        for old, new in zip(before, seen):
            for i in compress(range(n), map(ne, old, new)):   # the cells whose counter changed
                dirty.add(i)
                dirty.update(shape[i])
        getters = neighbour_getters(n, rows)
        if 2 * len(dirty) > n:
            return self.price(S, grid, getters, range(n))
        costs = list(costs)   # the remembered list stays as it was (another state may hold it)
        dirty = sorted(dirty)
        for i, c in zip(dirty, self.price(S, grid, getters, dirty)):
            costs[i] = c
        return costs
