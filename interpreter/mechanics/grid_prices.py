"""Pricing a grid's spaces again only where something they read has changed.

The ``grid`` step offers every space with its cost, so the cost expression is evaluated for
every space at every decision. When that expression reads nothing but the space, its
neighbours, their card-owned counters and parameters (the usual "1 coin + 1 per occupied
neighbour"), a space's cost can only change when one of those counters changes on the space or
on a neighbour. ``LocalPrices`` remembers, per grid layout, the counter values it priced with
and the costs; at the next decision it prices again only the spaces next to a changed counter.

A cost that reads anything else (``me``, a variable, a zone, a player's counter...) is not
local: the grid prices it in full at each decision, as before. What the cost and each part of
the filter read is the compiler's record of them (expr/access.py, and the bindings of their
prelude, expr/code.py ``Prelude``), never their text. The memo maps (layout,
parameters, counter values) to costs, a pure function of its key, so games, clones and players
sharing it cannot see each other's results; it is bounded.

When, besides, neither the cost nor the filter's local part reads a card attribute or calls a
mechanic's built-in (the record's ``attributes``, ``helpers``), a space's cost depends on its
place in the grid and the counter values around it, not on which cards lie there (the language
neither orders nor adds cards, and equality or membership among a grid's spaces follows their
places: a card is never twice in a zone): the costs
first worked out for a grid of that shape under those parameters (a round's market, its
counters all 0) are a new layout's at once, and where its counter values are the same (the
next round's market), nothing is priced.
"""
from __future__ import annotations

from itertools import compress
from operator import itemgetter, ne
from typing import Callable

from ..expr.code import Code, Prelude, conjuncts, shape
from ..expr.runtime import RUNTIME_ERRORS
from ..expr.names import table_ref
from ..loading.kept import compiled
from .grid_shape import adjacency, around, neighbour_getters

MAX_LAYOUTS = 64       # grid layouts remembered per step (one per round in a typical game)


def _frozen(value):
    """A parameter value as a hashable key (lists become tuples)."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value


def _local_tables(names, prelude) -> list | None:
    """(bound name, kind c/p, name) of each card-owned counter and parameter table an element's
    expression binds first (compiler.prelude), or None if it binds anything else."""
    found = shape(prelude)
    if not isinstance(found, Prelude) or found.hoisted:
        return None
    tables = list(found.tables)
    if any(kind == "z" or kind == "c" and names.counters.get(name) != "card" for _, kind, name in tables):
        return None
    return tables


def _reads_only(access, tables, locals_=frozenset()) -> bool:
    """Whether what ``access`` records is read through ``tables`` (and the locals ``locals_``):
    no variable, zone, seat, acting player, other local, nor a helper handed the state."""
    if access is None or access.opaque or access.me or not access.locals <= locals_:
        return False
    return (access.reads <= {("c", name) for _, kind, name in tables if kind == "c"}
            and access.fixed <= {"params." + name for _, kind, name in tables if kind == "p"})


def _split_filter(names, where, prelude):
    """(the conjuncts of the filter that read only the space, its card-owned counters and
    parameters, joined; the other conjuncts, joined; the tables the first ones read, as
    (bound name, kind, name); a condition on the space's attributes alone that makes every
    other conjunct hold, or None; whether the first ones read no card attribute nor call a
    mechanic's built-in). "True" stands for no conjunct."""
    found = shape(prelude)
    if not isinstance(found, Prelude):
        return "True", where, [], None, True
    tables = [t for t in found.tables if t[1] == "p" or t[1] == "c" and names.counters.get(t[2]) == "card"]
    kept: list[str] = []
    rest: list = []
    read: set = set()
    cards: set = set()   # the attributes and mechanics' built-ins the local part reads
    for part in conjuncts(where) if isinstance(where, Code) else []:   # (not Code: no filter, "True")
        access = part.access
        if access is not None and not part.binds and _reads_only(access, tables):
            kept.append(f"({part})")
            read |= access.reads | {("p", f[len("params."):]) for f in access.fixed}
            cards |= access.attributes | access.helpers
        else:
            rest.append(part)
    used = [t for t in tables if (t[1], t[2]) in read]
    return (" and ".join(kept) or "True", " and ".join(f"({part})" for part in rest) or "True", used,
            _sure(rest), not cards)


def _sure(parts) -> str | None:
    """``animal == '-' or ...`` read of a space's attributes only: for each conjunct of ``parts``,
    its first terms (of ``A or B or ...``) that read nothing but the element (the same for a
    space all game), joined; None if some conjunct has none (or there is no conjunct). A space
    they hold for passes the filter whatever the state, the terms after them never evaluated
    (nor their errors raised): only the other spaces are asked at a decision."""
    out = []
    for part in parts:
        terms = conjuncts(part, "or")
        first = next((i for i, term in enumerate(terms) if not _of_the_element(term)), len(terms))
        if not first:
            return None
        out.append(f"({' or '.join(f'({term})' for term in terms[:first])})")
    return " and ".join(out) or None


def _of_the_element(term) -> bool:
    """Whether ``term`` reads nothing but the element (its attributes and constants): no state,
    parameter, seat, local, acting player, nor a name bound before it."""
    access = getattr(term, "access", None)
    return (access is not None and not (access.opaque or access.me or access.reads or access.fixed or access.locals)
            and not term.binds)


class LocalPrices:
    """Costs of a grid's spaces kept between decisions; see the module docstring."""

    def __init__(self, price, price_one, options, counters, params, sure=None, seen=None, reprice=None, unsure=None,
                 anywhere=False):
        self.price = price          # (S, grid, getters, indexes) -> the costs of those spaces
        self.reprice = reprice      # (S, grid, getters, indexes, costs, finite, bound) -> the bound, those spaces
                                    #   priced into costs (and finite) in one loop
        self.price_one = price_one  # (S, grid, getters, index) -> the cost of that space
        self.options = options      # (S, me, L, grid, entry, have, asked) -> the spaces on offer
        self.counters = counters    # card-owned counters the cost reads
        self.seen = seen            # (S, read) -> the values of those counters on the layout's spaces
        self.params = params        # parameters the cost reads
        self.values = itemgetter(*params) if params else None   # S.p -> their values (in C; one: the value)
        self.sure = sure            # space -> whether its attributes alone pass the filter's other conjuncts
        self.unsure = unsure        # spaces -> the indexes of those sure does not hold for (one comprehension)
        self.memo: dict = {}        # (layout, rows, parameter values) -> its _Layout record
        self.anywhere = anywhere    # the costs depend on the spaces' places, not on which cards they are
        self.fresh: dict = {}       # (cells, rows, parameter values) -> the entry first priced in full (anywhere)
        self.last = None            # the record used last (a layout stays for a whole round)
        self.step = None            # the grid step these are the prices of (set by it)

    @property
    def index(self):
        """The grid step's index (the module's listing names the step of ``offer`` by it)."""
        return getattr(self.step, "index", "?")

    @classmethod
    def build(cls, names, cost: str, cost_prelude: str, where: str, where_prelude: str, namespace, locs=(None, None)):
        """From the sources compile_element gave for the cost (its neighbours written
        ``_nb[_i](_g)``) and the filter; None when the cost is not local. ``locs``: where the
        cost and the filter are written (the functions made here carry them: the ruleset's
        module lists them under those lines, and a profile names them so).

        The parts of the filter (``A and B and ...``) that are local too (``taken == 0``) are
        remembered with the costs: a space they exclude is priced ``_INF``, so at each decision
        only the rest of the filter is asked, and only of the spaces the player can afford."""
        tables = _local_tables(names, cost_prelude)
        if tables is None or not _reads_only(shape(cost_prelude).access, tables, frozenset({"neighbours"})):
            return None   # hoisted calls, or reads of the game beyond counters and parameters
        kept, rest, where_tables, sure, plain_kept = _split_filter(names, where, where_prelude)
        read = shape(cost_prelude).access
        anywhere = plain_kept and not (read.attributes or read.helpers)   # (module docstring)
        counters = [name for _, kind, name in tables + where_tables if kind == "c"]
        params = [name for _, kind, name in tables + where_tables if kind == "p"]
        bind = "".join(f"({bound} := {table_ref(kind, name)}), " for bound, kind, name in where_tables)
        priced = f"({cost})" if kept == "True" else f"(({cost}) if ({kept}) else _INF)"
        price = (f"def _prices(S, _g, _nb, _idx):\n    return ({cost_prelude}{bind}"
                 f"[{priced} for _i in _idx for _it in (_g[_i],)],)[-1]\n")
        price_one = f"def _price(S, _g, _nb, _i):\n    return ({cost_prelude}{bind}(_it := _g[_i]), {priced})[-1]\n"
        # the spaces around a change priced into copies of the costs and of which are finite,
        # the bound kept (_entry's), in one plain loop: no comprehension (a function and its
        # cells made at each call), no second loop over the spaces
        reprice = "\n".join([
            "def _reprice(S, _g, _nb, _idx, _costs, _finite, _bound):",
            f"    ({cost_prelude}{bind}None)",
            "    for _i in _idx:",
            "        _it = _g[_i]",
            f"        _costs[_i] = _c = {priced}",
            "        if _c == _INF:",
            "            _finite[_i] = False",
            "        else:",
            "            _finite[_i] = True",
            "            if _c > _bound:",
            "                _bound = _c",
            "    return _bound", ""])
        cost_at, where_at = locs
        counters = list(dict.fromkeys(counters))
        # the counters' values on the spaces, one flat tuple (each a C-level read of its slot)
        seen = " + ".join(f"_read({table_ref('c', name)})" for name in counters) or "()"
        try:
            return cls(generated(price, namespace, cost_at), generated(price_one, namespace, cost_at),
                       _options(rest, where_prelude, sure, namespace, where_at),
                       tuple(counters), tuple(dict.fromkeys(params)),
                       None if sure is None else generated(f"def _sure(_it):\n    return {sure}\n", namespace, where_at),
                       generated(f"def _seen(S, _read):\n    return {seen}\n", namespace, cost_at),
                       generated(reprice, namespace, cost_at),
                       None if sure is None else generated(
                           f"def _unsure(_g):\n    return tuple([_i for _i, _it in enumerate(_g) if not ({sure})])\n",
                           namespace, where_at),
                       anywhere)
        except SyntaxError:
            return None

    _MADE = ("price", "price_one", "options", "sure", "seen", "reprice", "unsure")   # its generated functions

    @property
    def functions(self) -> tuple:
        """The functions made for this grid (listed in the ruleset's module)."""
        return tuple(fn for fn in (getattr(self, attr) for attr in self._MADE) if fn is not None)

    def put_compiled(self, compiled) -> None:
        """Each of its functions replaced by ``compiled(fn)``: the ruleset's compiled module's
        (accel/rulesets.py use_compiled), the same function compiled."""
        for attr in self._MADE:
            if getattr(self, attr) is not None:
                setattr(self, attr, compiled(getattr(self, attr)))

    def offer(self, S, who, grid, rows, have):
        """The spaces ``who`` may take and afford, or None if pricing raised (the caller then
        prices in full, where a space the filter excludes is never priced)."""
        layout = self.last
        if (layout is None or layout.rows != rows or layout.spaces != grid
                or self.values is not None and layout.values != self.values(S.p)):
            layout = self._layout(S, grid, rows)
        seen, entry = self.seen(S, layout.read), layout.entry
        if entry is None or entry[0] != seen:
            try:
                entry = self._priced(S, grid, layout, entry, seen)
            except RUNTIME_ERRORS:
                return None
            layout.entry = entry   # one assignment: a reader never sees half of it
        asked = layout.asked
        if asked is None:
            asked = layout.asked = self._asked(layout.spaces)
        return self.options(S, who, None, grid, entry, have, asked)

    def _asked(self, spaces: list) -> tuple:
        """The indexes of ``spaces`` the rest of the filter must be asked of: those ``sure``
        does not hold for (or raises on: asked, as the plain filter asks them), or all."""
        sure = self.sure
        if sure is None:
            return tuple(range(len(spaces)))
        try:   # (a layout's spaces in one call; where sure raises, space by space)
            return self.unsure(spaces)
        except RUNTIME_ERRORS:
            pass
        out = []
        for i, space in enumerate(spaces):
            try:
                if sure(space):
                    continue
            except RUNTIME_ERRORS:
                pass
            out.append(i)
        return tuple(out)

    def price_of(self, S, grid, rows, space):
        """The cost of one space on offer (as ``offer`` priced it), or None if pricing raised.
        The space is the one being taken: the last layout, of the grid's shape, looks there first
        for what changed at the next offer (a hint the offer checks: the grid is not compared
        here, a price reading only the grid, its shape and the state)."""
        try:
            i = grid.index(space)
            last = self.last
            if last is not None and last.n == len(grid) and last.rows == rows:
                last.taken = i
                return self.price_one(S, grid, last.getters, i)
            return self.price_one(S, grid, neighbour_getters(len(grid), rows), i)
        except RUNTIME_ERRORS:
            return None

    def _layout(self, S, grid, rows):
        """The remembered record of this layout under the current parameters."""
        values = () if self.values is None else self.values(S.p)
        last = self.last
        if last is not None and last.rows == rows and last.values == values and last.spaces == grid:
            return last
        key = (tuple(grid), rows, values)
        try:
            layout = self.memo.get(key)
        except TypeError:   # a list parameter: as a tuple (values: one value, or a tuple of several)
            key = (key[0], rows, _frozen(list(values) if type(values) is tuple else values))
            layout = self.memo.get(key)
        if layout is None:
            if len(self.memo) >= MAX_LAYOUTS:
                self.memo.clear()
            self.memo[key] = layout = _Layout(key[0], rows, values)
            if self.anywhere:   # the prices of another layout of its shape (module docstring)
                layout.shape_key = (layout.n, rows, key[2])
                layout.entry = self.fresh.get(layout.shape_key)
        self.last = layout
        return layout

    def _priced(self, S, grid, layout, entry, seen) -> tuple:
        """The layout's entry for the counter values ``seen``: (seen, the costs, whether each
        cost is finite, a bound no finite cost is above). The remembered costs with the
        spaces around every changed counter priced again, or all priced when there are none or
        more than half the spaces are dirty. A player who has the bound affords every finite
        cost: the options then need no comparison a space."""
        n = layout.n
        if entry is None:
            entry = _entry(seen, self.price(S, grid, layout.getters, range(n)))
            if layout.shape_key is not None and layout.shape_key not in self.fresh:
                if len(self.fresh) >= MAX_LAYOUTS:
                    self.fresh.clear()
                self.fresh[layout.shape_key] = entry
            return entry
        k, before = layout.taken, entry[0]
        if k is not None and len(seen) == n and seen[:k] == before[:k] and seen[k + 1:] == before[k + 1:]:
            # the usual case: one counter changed, on the space last taken (found by comparing
            # two slices in C, where finding it means comparing every value)
            dirty = layout.around[k]
        else:
            changed = list(compress(range(len(seen)), map(ne, before, seen)))   # the changed values
            if len(changed) == 1:
                dirty = layout.around[changed[0] % n]
            else:
                shape, cells = layout.shape, set()
                for i in changed:
                    i %= n                 # (the cell of a value)
                    cells.add(i)
                    cells.update(shape[i])
                if 2 * len(cells) > n:
                    return _entry(seen, self.price(S, grid, layout.getters, range(n)))
                dirty = sorted(cells)
        # the remembered lists stay as they were (another state may hold them)
        costs, finite = entry[1][:], entry[2][:]
        return seen, costs, finite, self.reprice(S, grid, layout.getters, dirty, costs, finite, entry[3])


_INF = float("inf")   # the price of a space the filter's local part excludes (as the price functions write it)


def _entry(seen: tuple, costs: list) -> tuple:
    """A layout's entry for fresh ``costs`` (see LocalPrices._priced). A cost is a whole number
    (a fraction is an error at load, a cost of type any is priced in full, each price checked:
    grid.py); one that is none (``first()`` of an empty list) raises here, and the grid is priced
    in full, where it fails as any comparison with none does, or is not priced where the filter
    excludes its space."""
    finite = [c != _INF for c in costs]
    bound = 0
    for c, ok in zip(costs, finite):
        if ok and c > bound:
            bound = c
    return seen, costs, finite, bound


def generated(src: str, namespace, loc) -> Callable:
    """The one function ``src`` defines, run in ``namespace``, carrying its text and the location
    of the rule it is made from (building/listing.py writes it into the ruleset's module, under
    that line, and names its code by it)."""
    local: dict = {}
    exec(compiled(src, "<grid>", "exec"), namespace, local)  # noqa: S102 - generated from the checked rules
    fn = next(iter(local.values()))
    fn.code, fn.loc = src, loc
    return fn


def _options(rest: str, prelude: str, sure: str | None, namespace, loc=None) -> Callable:
    """``(S, me, L, grid, entry, have, asked) -> the spaces on offer``: the affordable ones
    (``cost <= have``; all the finite ones when ``have`` reaches the entry's bound, without a
    comparison a space), that pass the rest of the filter. With ``sure`` (a condition on the
    attributes that makes the rest hold), the rest is asked only of the spaces in ``asked``
    (the layout's spaces ``sure`` does not hold for)."""
    args = "S, me, L, _g, _entry, _have, _asked"
    # (a comprehension: an integer comparison the interpreter specialises, where map(le, ...)
    # calls a comparison in C for each space)
    ok = ("_entry[2] if _have >= _entry[3] "
          "else [_c <= _have for _c in _entry[1]]")
    if rest == "True":
        return generated(f"def _options({args}):\n    return list(_compress(_g, {ok}))\n", namespace, loc)
    if sure is None:
        return generated(f"def _options({args}):\n    return ({prelude}[_it for _it in _compress(_g, {ok}) if ({rest})],)[-1]\n",
                         namespace, loc)
    body = "\n".join([f"def _options({args}):",
                      f"    _ok = {ok}",
                      "    _bound = False",
                      "    for _i in _asked:",
                      "        if _ok[_i]:",
                      "            if not _bound:   # (the tables and lifted calls: once, only if needed)",
                      f"                ({prelude}None)",
                      "                _bound = True",
                      "            _it = _g[_i]",
                      f"            if not ({rest}):",
                      "                if _ok is _entry[2]:",
                      "                    _ok = _ok[:]   # (the entry's own list stays as it is)",
                      "                _ok[_i] = False",
                      "    return list(_compress(_g, _ok))", ""])
    return generated(body, namespace, loc)


class _Layout:
    """What is kept of one grid layout: its geometry, a C-level reader of a card counter over
    its spaces, and ``entry``: the counter values it was last priced with and the costs. The
    costs are a pure function of the layout, the parameters and the counter values, so states
    sharing a record (clones, games of one process) cannot see each other's results."""
    __slots__ = ("spaces", "rows", "values", "n", "shape", "around", "getters", "read", "entry", "asked", "taken",
                 "shape_key")

    def __init__(self, spaces: tuple, rows: int, values: tuple):
        self.spaces, self.rows, self.values = list(spaces), rows, values   # what it is the record of
        self.n = n = len(spaces)
        self.shape = adjacency(n, rows)
        self.around = around(n, rows)
        self.getters = neighbour_getters(n, rows)
        if n > 1:
            self.read: Callable[[list], tuple] = itemgetter(*spaces)   # counter list -> the spaces' values, in C
        else:
            self.read = lambda values: tuple([values[s] for s in spaces])
        self.entry = None
        self.asked: tuple | None = None   # the spaces the rest of the filter is asked of (LocalPrices.sure)
        self.taken: int | None = None     # the index of the space last taken (where to look first for a change)
        self.shape_key: tuple | None = None   # its key among LocalPrices.fresh (anywhere)
