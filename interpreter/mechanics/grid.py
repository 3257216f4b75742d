"""grid: take a space of a market laid out as a grid, paying a cost computed from its neighbours.

A grid is an ordinary shared zone whose cards are the spaces, column by column: with
``rows: R`` the card at index i sits in column i // R, row i % R. (Laying a grid out is
plain effects: move the spaces of each strip into the zone, strip after strip.)

    - grid:
        zone: market                 # the spaces, column by column
        rows: 6                      # spaces per column
        who: me                      # default: me
        where: "taken == 0"          # which spaces may be taken (element: the space)
        cost: "1 + count(neighbours where taken > 0)"   # element: the space; local
                                     #   neighbours: the orthogonally adjacent spaces
        pay: money                   # a counter of the player: the cost is taken from it
        mark: taken                  # optional counter owned by each card: set to the cost paid
        as: bought                   # a variable: the space taken, or none after passing
        pass: true                   # offer "pass" (default); a player who can afford nothing passes
        prompt: buy
        then: [effects]              # after taking; local `space`

Options are the spaces that may be taken and cost no more than the player has, labelled
``c<column>r<row>:<card label>`` (1-based), then ``pass``. The built-in
``grid_neighbours(LIST, CARD, rows: R)`` gives the same neighbours to any expression.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..expr.arity import check_arity, list_arg
from ..expr.builtins import register_builtin
from ..expr.parser import ExprError, as_expr, offset_of
from ..expr.types import BOOL, CARD, INT, list_of
from ..engine.values import as_whole
from ..expr.runtime import stored
from ..expr.names import counter_ref, item_read, own_call, state_read, state_write, var_write, zone_ref
from .ask_once import SEAT_ASKED, AskOnce
from .attempt_target import secret
from .base import WHO, Step, step_kind
from .contract import Key
from .counters import held, may_be_fraction
from .grid_prices import LocalPrices, generated
from .grid_shape import adjacency, neighbour_getters, neighbours_at

if TYPE_CHECKING:
    from ..expr.compiler import ExprFn, ZoneFn

PASS = -1
_LOCALS = {"neighbours": list_of(CARD)}
# in the comprehensions that price a whole grid (here and grid_prices.py), the neighbours of
# space _i of grid _g: its getter (grid_shape.neighbour_getters) applied to the grid
_NEIGHBOURS_AT = {"neighbours": "_nb[_i](_g)"}


def _neighbours(grid, card, rows):
    if card not in grid or not isinstance(rows, int) or rows < 1:
        return []
    return neighbours_at(grid, grid.index(card), rows)


def b_neighbours(c, n, scope, args, kw):
    check_arity(n, args, kw, "grid_neighbours", 2, kw=("rows",))
    if "rows" not in kw:
        raise ExprError("grid_neighbours() needs rows:", offset_of(n), code="arity")
    src, typ = list_arg(c, scope, args[0], "neighbours")
    csrc, ctyp = c.node(args[1], scope)
    if ctyp not in (CARD, "any"):
        raise ExprError(f"grid_neighbours() needs a card, got {ctyp}", offset_of(args[1]), code="type")
    rsrc, rtyp = c.node(kw["rows"], scope)
    c.expect_type(rtyp, INT, kw["rows"])
    return f"_grid_neighbours({src}, {csrc}, {rsrc})", typ


register_builtin("grid_neighbours", b_neighbours, {"_grid_neighbours": _neighbours})


@step_kind("grid", "a player takes a space of a grid, paying a cost computed from its neighbours",
           keys=(Key("zone", "zone", "the spaces, column by column", required=True),
          Key("rows", "expression: int", "rows of the grid", required=True),
          WHO,
          Key("where", "condition on a card", "which spaces may be taken"),
          Key("cost", "expression: int", "a space's price (local neighbours: its orthogonal spaces)", required=True),
          Key("pay", "counter", "a counter of the player's or team's: spaces costing more are not offered",
              required=True),
          Key("mark", "counter", "a counter owned by each card: the cost paid"),
          Key("as", "variable name", "the variable holding the space taken", required=True),
          Key("pass", "bool", "the player may take nothing", default=True),
          Key("prompt", "text", "the decision's name", default="take"),
          Key("then", "effects", "run after a space is taken (local space)")))
class Grid(AskOnce):
    """Frame: [index, SEAT_ASKED] (asked once, done once answered)."""
    option_type = CARD

    me_var: str | None                  # the variable holding 'me' where the step runs
    who: ExprFn                         # the seat asked
    who_me: bool                        # it is just me
    zone: ZoneFn                        # the grid
    zone_name: str
    zone_src: str | None                # the zone's source where it is a shared zone named alone
    rows: ExprFn
    where: Callable[..., Any] | None    # f(S, me, L, card): the spaces that may be taken
    cost: Callable[..., Any]            # f(S, me, L, card): a space's price
    pay: str | None                     # the counter paid from (None after an error), owned by teams or not
    pay_team: bool
    mark: str | None                    # the card counter marking taken spaces
    var: str                            # the variable the space taken is stored in
    can_pass: bool
    then: Callable[..., Any] | None     # effects f(S, me, L) once taken
    batch: Callable[..., list] | None   # all the (space, cost) options in one call (_batch)
    local: LocalPrices | None           # the cost's prices when it is local
    pricing: tuple = ()                 # the functions of local's prices (listed in the ruleset's module)

    def put_compiled(self, compiled) -> None:
        """Its prices' functions, which its own code calls (not the flow), from the ruleset's
        compiled module (accel/rulesets.py use_compiled): ``compiled(fn)``, fn compiled."""
        if self.local is not None:
            self.local.put_compiled(compiled)

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        s, main, p = cls.started(ctx, main, rest, path, scope)
        s.who, s.who_me = cls.asker(ctx, main.get("who", "me"), (*p, "who"), scope)   # (who: -1 is no seat)
        with ctx.asking(main.get("who", "me")):   # (the zone, costs and then: the seat asked's)
            s.zone = ctx.zone_ref(main.get("zone", "none"), (*p, "zone"))
            s.zone_name = ctx.zone_name(main.get("zone", "none"))
            # a shared zone named alone is read in place in the generated question and answer
            s.zone_src = (zone_ref(s.zone_name) if as_expr(main.get("zone", "none")).strip() == s.zone_name
                          and ctx.names.zones.get(s.zone_name) == "none" else None)
            s.rows = ctx.expr(main.get("rows", 1), (*p, "rows"), expect=INT)
            s.where = ctx.card_filter(main["where"], (*p, "where")) if "where" in main else None
            s.cost = ctx.element_fn(main.get("cost", 0), (*p, "cost"), _LOCALS, CARD, INT)
            s.pay, s.pay_team = cls._counter(ctx, main.get("pay"), (*p, "pay"), ("player", "team"))
            s.mark = None
            if "mark" in main:
                s.mark, _ = cls._counter(ctx, main["mark"], (*p, "mark"), ("card",))
            s.var = ctx.declare_var(main.get("as", "space"), CARD, (*p, "as"))
            ctx.compiler.used.add(s.var)
            s.can_pass = bool(main.get("pass", True))
            s.prompt = str(main.get("prompt", "take"))
            s.then = ctx.effects(main.get("then"), (*p, "then"), {"space": CARD}, True, by_name=True)
            with ctx.compiler.access.recording() as reads:
                s.batch, s.local, src = cls._batch(ctx, main, p)
            # (a fraction refused; of type any, or made of one: each price checked, space by space)
            if may_be_fraction(ctx, s.cost, (*p, "cost"), "cost"):
                s.cost, s.batch, s.local = _whole_price(s.cost, s.pay or s.mark), None, None
        if s.local is not None:
            s.local.step = s
            s.pricing = s.local.functions   # (listed in the module under their rules' lines)
        s.price_access = reads.frozen() if src is not None else None
        return s

    @staticmethod
    def _batch(ctx, main, p):
        """All the (space, cost) options in one generated comprehension: one Python call per
        decision instead of two per space. None (use the per-space functions) if it cannot be built.
        With it, the LocalPrices of the cost when it is local (else None), and the Python source
        a price reads (a viewer shows prices to those who see everything it reads)."""
        try:
            where, prelude = "True", ""
            if "where" in main:
                where, _, prelude = ctx.compiler.compile_element(as_expr(main["where"]), None, True, CARD, BOOL)
            cost, _, more = ctx.compiler.compile_element(as_expr(main.get("cost", 0)), _LOCALS, True, CARD, INT,
                                                         varying=("neighbours",), tag="c", bound=_NEIGHBOURS_AT)
        except ExprError:
            return None, None, None   # reported by the per-space compile already
        at = ctx.smap.loc
        local = LocalPrices.build(ctx.names, cost, more, where, prelude, ctx.names.namespace,
                                  (at((*p, "cost")), at((*p, "where")) if "where" in main else None))
        src = (f"def _batch(S, me, L, _g, _nb, _have):\n    return ({prelude}{more}[(_it, _c) for _i, _it in enumerate(_g) "
               f"if ({where}) and (_c := ({cost})) <= _have],)[-1]\n")
        try:
            return generated(src, ctx.names.namespace, ctx.smap.key_loc(p)), local, src
        except SyntaxError:
            return None, None, None

    @staticmethod
    def _counter(ctx, name, path, owners):
        names = ctx.names.counters
        if not ctx.known("counter", name, names, path):
            return None, False
        ctx.compiler.used.add(name)
        if names[name] not in owners:
            ctx.error(f"counter '{name}' must be owned by each {' or '.join(owners)} here", path, "type")
        return name, names[name] == "team"

    def _have(self, S, who):
        return S.counter(self.pay)[S.tm[who] if self.pay_team else who]

    def costs(self, S, who, only=None):
        """(card, cost) of every space ``who`` may take now (or of the space ``only``)."""
        grid = self.zone(S, who, None)
        rows = self.rows(S, who, None)
        have = self._have(S, who)
        where, cost = self.where, self.cost
        if only is None and self.batch is not None:
            return self.batch(S, who, None, grid, neighbour_getters(len(grid), rows), have)
        shape = adjacency(len(grid), rows)
        out = []
        for i in (range(len(grid)) if only is None else (grid.index(only),)):
            card = grid[i]
            if where is not None and not where(S, who, None, card):
                continue
            c = cost(S, who, {"neighbours": [grid[j] for j in shape[i]]}, card)
            if c <= have:
                out.append((card, c))
        return out

    # run (AskOnce) and resolve exist only as the Python the generators below write (building/flowgen.py)
    resolve = Step.resolve

    def _who(self, g) -> str:
        me = g.me(self.me_var)
        return me if self.who_me and not g.plain else f"{g.fn(self.who)}(S, {me}, None)"

    def _where(self, g) -> str:
        """The grid's zone and rows as the generated code reads them: written in where they are
        a shared zone and a bare read, else a call of their functions."""
        zone = self.zone_src if self.zone_src is not None and not g.plain else f"{g.fn(self.zone)}(S, who, None)"
        return f"{zone}, {g.value(self.rows, 'who')}"

    def flow_source(self, g):
        """The question: the spaces the seat may take and afford (from the prices kept between
        decisions when the cost is local, else priced in full), then pass; none: the seat
        passes at once. Specialised: ``me`` read where the seat is just me."""
        k_self, at = g.step(self), self._where(g)
        assert self.pay is not None   # (None only after an error: such a ruleset is not compiled)
        stack, team = state_read("stack"), item_read(state_read("tm"), "who")   # (the compiler's dialect)
        lines = [f"def R{self.index}(S, frame):",
                 f"    who = {self._who(g)}",
                 "    if who is None:",
                 f"        {stack}.pop()",
                 "        return None"]
        if self.local is not None:
            key = team if self.pay_team else "who"
            lines += [f"    options = {g.fn(self.local.offer)}(S, who, {at}, {counter_ref(self.pay)}[{key}])",
                      "    if options is None:",
                      f"        options = [card for card, _ in {k_self}.costs(S, who)]"]
        else:
            lines.append(f"    options = [card for card, _ in {k_self}.costs(S, who)]")
        lines += ["    if not options:   # nothing affordable: the player passes",
                  f"        {var_write(self.var, 'None')}",
                  f"        {stack}.pop()",
                  "        return None"]
        if self.can_pass:
            lines.append(f"    options.append({PASS})")
        return "\n".join([*lines, f"    frame[{SEAT_ASKED}] = who", f"    {state_write('dec', '(who, tuple(options))')}",
                          "    return U   # asking changes nothing the checks read"])

    def resolve_source(self, g):
        """A space taken: its price paid (and marked on it), then ``then`` with ``space``; pass:
        the variable none."""
        k_self = g.step(self)
        assert self.pay is not None   # (as in flow_source)
        stack, ev, team = state_read("stack"), state_read("ev"), item_read(state_read("tm"), "who")
        lines = [f"def Q{self.index}(S, frame, card):",
                 f"    who = frame[{SEAT_ASKED}]",
                 f"    if card == {PASS}:",
                 f"        {stack}.pop()",
                 f"        {var_write(self.var, 'None')}",
                 f"        if {ev} is not None:",
                 f"            {ev}.append({{'ev': 'grid', 'who': who, 'pass': True}})",
                 "        return None"]
        if self.local is not None:   # a legal option: only its price is needed
            lines += [f"    cost = {g.fn(self.local.price_of)}(S, {self._where(g)}, card)",
                      "    if cost is None:",
                      f"        cost = {k_self}.costs(S, who, card)[0][1]"]
        else:
            lines.append(f"    cost = {k_self}.costs(S, who, card)[0][1]")
        lines += [f"    if {state_read('sh')}:   # copy on write: the counters this state's own before they change",
                  f"        {own_call(self.pay)}"]
        if self.mark is not None:
            lines.append(f"        {own_call(self.mark)}")
        # (paid and marked within 64 bits, as a gain is: a price of -2^64 wrote a state that did not reload)
        g.bind({"_stored": stored})
        paid = f"{counter_ref(self.pay)}[{team if self.pay_team else 'who'}]"
        lines.append(f"    {held(paid, f'{paid} - cost', '_paid', rises=False)}")
        if self.mark is not None:
            lines.append(f"    {held(f'{counter_ref(self.mark)}[card]', 'cost', '_marked', rises=False)}")
        told = "".join(f", {k!r}: {v!r}" for k, v in secret(self.var).items())   # (a private variable: named)
        lines += [f"    {var_write(self.var, 'card')}",
                  f"    if {ev} is not None:",
                  f"        {ev}.append({{'ev': 'grid', 'who': who, 'space': {state_read('rules')}.card_labels[card], "
                  f"'cost': cost{told}}})"]
        if self.then is not None:
            lines += g.effects(self.then, "who", "    ", self, {"space": "card"})
        return "\n".join([*lines, f"    {stack}.pop()   # answered: the step is done (no second run just to pop it)",
                          "    return None"])

    def reask(self, S, frame):
        frame[SEAT_ASKED] = None

    def prices(self, S, who) -> dict:
        """card -> what ``who`` would pay for it, for every space it may take (affordable or not)."""
        grid = self.zone(S, who, None)
        shape = adjacency(len(grid), self.rows(S, who, None) or 1)
        out = {}
        for i, card in enumerate(grid):
            if self.where is None or self.where(S, who, None, card):
                out[card] = self.cost(S, who, {"neighbours": [grid[j] for j in shape[i]]}, card)
        return out

    def layout(self, S, seat, prices=True):
        who = S.dec[0] if S.dec is not None and seat is None else seat
        rows = self.rows(S, who, None)
        if not isinstance(rows, int) or rows < 1:
            return None
        return {"grid": self.zone_name, "rows": rows,
                "prices": self.prices(S, who) if who is not None and prices else {}, "pay": self.pay}

    def option_notes(self, S, options):
        costs = dict(self.costs(S, S.dec[0]))
        return [None if o == PASS else (costs[o], self.pay) if o in costs else "?" for o in options]

    def asked(self, S, frame):
        return {"pay": self.pay, "has": self._have(S, S.dec[0]), "can_pass": PASS in S.dec[1]}

    def vocabulary(self, V, spec):
        """Every position's label with every space the grid's zone can hold, then pass."""
        from ..expr.parser import parse
        rows = V.dom(parse(as_expr(spec.get("rows", 1))))
        if rows is None or not all(isinstance(r, int) and r > 0 for r in rows):
            return None
        cards = V.zone_cards(spec.get("zone", ""))
        labels = V.card_labels(cards)
        out = []
        for r in sorted(rows):
            cols = -(-len(cards) // r)
            out += [f"c{c}r{rr}:{lab}" for c in range(1, cols + 1) for rr in range(1, r + 1) for lab in labels]
        return [*dict.fromkeys(out), "pass"]

    def choice_var(self):
        return self.var

    def event_amounts(self):
        return {"grid": {"cost": [c for c in (self.pay, self.mark) if c]}}   # the cost paid, and marked

    def label(self, S, value):
        return self.labels(S, (value,))[0]

    def labels(self, S, options):
        """c<column>r<row>:<card> for each space, or pass: from a table of the grid's labels,
        kept while the grid and its layout are the same (a grid changes by one space a purchase,
        and is labelled each decision)."""
        seat = S.dec[0] if S.dec else None   # (the seat asked: me, as where the options were found)
        grid = self.zone(S, seat, None)
        rows = self.rows(S, seat, None) or 1
        kept = self.__dict__.get("_kept_labels")
        if kept is None or kept[0] != rows or kept[1] != grid:
            at = self._positions(rows, len(grid))
            names = S.rules.card_labels
            table = {c: at[i] + names[c] for i, c in enumerate(grid)}   # (a card twice: its last space)
            table[PASS] = "pass"
            kept = self._kept_labels = (rows, grid[:], table, at[-1])
        table = kept[2]
        try:
            return [table[v] for v in options]
        except KeyError:   # a card not in the grid (a patched state): the position of none
            names = S.rules.card_labels
            return [table[v] if v in table else kept[3] + names[v] for v in options]

    def _positions(self, rows: int, size: int) -> list:
        """"c<column>r<row>:" of each index of a grid of ``size`` spaces (the last: index -1),
        kept for the last shape asked."""
        kept = self.__dict__.get("_kept_positions")
        if kept is None or kept[0] != (rows, size):
            at = [f"c{i // rows + 1}r{i % rows + 1}:" for i in range(size)]
            at.append(f"c{-1 // rows + 1}r{-1 % rows + 1}:")
            kept = self._kept_positions = ((rows, size), at)
        return kept[1]


def _whole_price(cost, name):
    """A price of type any (or made of one), ``cost``: a whole number, as the counters it is paid
    from and marked on hold (engine/values.py ``as_whole``), checked where it is computed."""
    return lambda S, me, L, card: as_whole(name, cost(S, me, L, card))
