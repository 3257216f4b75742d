"""pay: a player pays a cost one unit at a time, choosing what pays each unit (jokers allowed).

A compound payment ("2 blue, 1 green and any 2") is a sequence of simple choices, never the
power set of ways to pay:

    - pay:
        who: me                              # default: me
        costs: {blue: 2, green: "t.green"}   # units of these counters (of the player)
        any: 2                               # units that any counter of `from` may pay
        from: [blue, green, red, joker]      # what pays an `any` unit (default: the costs' counters)
        joker: joker                         # optional: a counter that pays a unit of any cost
        to: bank                             # optional: where paid units go (a supply counter, or
                                             # {blue: blue_bank, ...} per paying counter); else
                                             # they leave the game
        prompt: pay

The specific costs are paid first, in the order written, then the `any` units. Each unit
is a decision only when there is a real choice (the counter itself or the joker; for an
`any` unit, each counter of `from` the player has, in the order written); a single
possibility is paid without asking. A player who cannot pay is a runtime error: check
affordability in the condition that offers the action.
"""
from __future__ import annotations

from dataclasses import replace
from operator import attrgetter
from typing import TYPE_CHECKING, Callable

from ..errors import BudgetExceeded, figure
from ..expr.limits import MAX_COST
from ..expr.names import slot
from ..expr.runtime import ExprRuntimeError, stored
from ..expr.types import INT
from ..engine.values import as_whole
from ..engine.frames import listof, seat, whole
from ..engine.invariants import weight
from ..engine.loop import over_budget
from ..engine.sight import unseen_by
from .base import WHO, Step, step_kind
from .flow import reads_hidden
from .contract import Key
from .counters import may_be_fraction

if TYPE_CHECKING:
    from ..expr.compiler import ExprFn


# a pay's frame: [step index, the payer (None before), the specific units left to pay (one count
# per cost), the units of any kind left to pay, the units owed when the payer was read (one count
# a cost, then the units of any kind; None before)]
PAYER, LEFT, ANY_LEFT, OWED = 1, 2, 3, 4
# what a unit paid without asking counts against the step budget: one takes about as long as two
# units of the costliest steps (python benchmarks/budget_time.py, docs/security.md)
PAY_UNIT = 2


@step_kind("pay", "a player pays a cost one unit at a time (specific units, any units, a joker)",
           keys=(WHO,
          Key("costs", "mapping counter: amount", "units of specific counters to pay"),
          Key("any", "expression: int", "units of any of the from counters", default=0),
          Key("from", "counter names", "the counters that may pay", default="the costs' counters"),
          Key("joker", "counter", "a counter whose units stand for any unit"),
          Key("to", "counter, or mapping counter: counter", "the supply paid units go to (default: out of the game)"),
          Key("prompt", "text", "the decision's name", default="pay")))
class Pay(Step):
    """Frame: [index, PAYER, LEFT, ANY_LEFT, OWED] (the slots above; a state saved without OWED
    loads, as if nothing was paid)."""
    frame_shape = (seat("the payer", none=True),   # (each unit counts a step: at most the game's budget)
                   listof("units left to pay", whole("units of a cost", counted=True), none_with=PAYER),
                   whole("units of any kind left", counted=True),
                   replace(listof("units owed", whole("units owed", counted=True), none_with=PAYER), later=True))
    option_type = "str"

    def frame_fault(self, frame: list) -> str | None:
        """What does not fit in a saved frame's slots together (engine/frames.py): the units left,
        one entry a cost; the units owed, one more (the units of any kind last), each at least
        what is left of it."""
        if frame[PAYER] is None:
            return None
        if len(frame[LEFT]) != len(self.cost_fns):
            return f"units left to pay: one entry a cost ({len(self.cost_fns)}), got {len(frame[LEFT])}"
        if len(frame) > OWED:
            left, owed = [*frame[LEFT], frame[ANY_LEFT]], frame[OWED]
            if len(owed) != len(left):
                return f"units owed: one entry a cost and one for any kind ({len(left)}), got {len(owed)}"
            if any(o < n for o, n in zip(owed, left)):
                return f"units owed: each at least the units left of it ({left}), got {owed}"
        return None

    me_var: str | None                  # the variable holding 'me' where the step runs
    who: ExprFn                         # the payer
    cost_names: list[str]               # the counters of each cost (a ruleset naming an unknown one does not load)
    cost_fns: list[ExprFn]              # and their amounts
    any: ExprFn                         # units owed that any paying counter may pay
    from_names: list[str]               # the counters that may pay
    joker: str | None                   # the counter that may pay any cost
    units: list[str]                    # every counter involved, once
    team: dict[str, bool]               # counter -> owned by teams
    from_unique: tuple[str, ...]
    to: dict[str, str]                  # paying counter -> the supply its units go to
    reads: tuple[tuple[str, bool], ...]  # each unit's State slot, and whether teams own it
    tables: Callable                    # S -> each unit's counter (its list), as units: one C-level call
    by_team: bool                       # some unit is owned by teams
    slots: dict[str, str]               # unit -> its State slot
    cost_at: tuple[int, ...]            # each cost's counter, as its position in units
    joker_at: int | None                # the joker's position in units
    from_at: tuple[int, ...]            # from_unique's positions in units
    from_all: bool                      # they are every unit: what may pay is sum(have)

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        s, main, p = cls.started(ctx, main, rest, path, scope)
        s.who = cls.asker(ctx, main.get("who", "me"), (*p, "who"), scope)[0]   # (who: -1 is no seat, not seat 1)
        costs = main.get("costs") or {}
        if not isinstance(costs, dict):
            ctx.error("costs is a mapping counter: amount", (*p, "costs"), "step")
            costs = {}
        s.cost_names = [cls._counter(ctx, k, (*p, "costs", k)) for k in costs]
        with ctx.asking(main.get("who", "me")):   # (the costs: the payer's)
            s.cost_fns = [_whole_cost(ctx, k, ctx.expr(v, (*p, "costs", k), has_me=True, expect=INT), (*p, "costs", k))
                          for k, v in costs.items()]
            any_fn = ctx.expr(main.get("any", 0), (*p, "any"), has_me=True, expect=INT)
        froms = main.get("from", list(costs))
        if not isinstance(froms, list):
            froms = [froms]
        s.any = _whole_cost(ctx, str(froms[0]) if froms else None, any_fn, (*p, "any"))   # (a unit: a from counter's)
        s.from_names = [cls._counter(ctx, k, (*p, "from", i)) for i, k in enumerate(froms)]
        s.joker = cls._counter(ctx, main["joker"], (*p, "joker")) if "joker" in main else None
        s.units = list(dict.fromkeys([*s.cost_names, *s.from_names] + ([s.joker] if s.joker else [])))
        s.team = {name: ctx.names.counters.get(name) == "team" for name in s.units}
        s.from_unique = tuple(dict.fromkeys(s.from_names))
        s.to = cls._destinations(ctx, main.get("to"), s.units, (*p, "to"))
        s.prompt = str(main.get("prompt", "pay"))
        # the units as positions in a list of what the payer has (no dict a unit paid)
        # (a name that is not a counter is reported: such a ruleset does not load)
        s.reads = tuple((slot("c", name) if isinstance(name, str) else "", s.team[name]) for name in s.units)
        s.by_team = any(s.team.values())
        at_ = [at for at, _ in s.reads]
        s.tables = attrgetter(*at_) if len(at_) > 1 else lambda S: tuple(getattr(S, at) for at in at_)
        s.slots = {name: at for name, (at, _) in zip(s.units, s.reads)}
        at = {name: i for i, name in enumerate(s.units)}
        s.cost_at = tuple(at[name] for name in s.cost_names)
        s.joker_at = at[s.joker] if s.joker is not None else None
        s.from_at = tuple(at[name] for name in s.from_unique)
        s.from_all = len(s.from_at) == len(s.units)   # (from_unique has no repeats: every unit, in some order)
        return s

    @staticmethod
    def _destinations(ctx, to, units, path) -> dict:
        """Paying counter -> the supply counter its units go to (none: they leave the game)."""
        if to is None:
            return {}
        pairs = to.items() if isinstance(to, dict) else [(u, to) for u in units]
        out = {}
        for unit, dst in pairs:
            at = (*path, unit) if isinstance(to, dict) else path
            if isinstance(to, dict) and unit not in units:
                ctx.unknown("paying counter", unit, units, at, key=True)
                continue
            if not ctx.known("counter", dst, ctx.names.counters, at):
                continue
            ctx.compiler.used.add(dst)
            if ctx.names.counters[dst] != "none":
                ctx.error(f"paid units go to a supply: counter '{dst}' must be owned by none", at, "type")
                continue
            out[unit] = dst
        return out

    @staticmethod
    def _counter(ctx, name, path):
        counters = ctx.names.counters
        if not ctx.known("counter", name, counters, path):
            return name if isinstance(name, str) else None   # reported; the ruleset does not load
        ctx.compiler.used.add(name)
        if counters[name] not in ("player", "team"):
            ctx.error(f"counter '{name}' must be owned by each player or team here", path, "type")
        return name

    def enter(self, S):
        return [self.index, None, None, 0, None]

    def _key(self, S, name, who):
        return S.tm[who] if self.team.get(name) else who

    def _choices(self, S, frame):
        """(what is being paid: a cost index or None for an `any` unit, the counters that may pay
        it and still leave the rest of the cost payable)."""
        who = frame[PAYER]
        if self.by_team:
            team = S.tm[who]
            have = [t[team if by_team else who] for t, (_, by_team) in zip(self.tables(S), self.reads)]   # as self.units
        else:
            have = [t[who] for t in self.tables(S)]
        k = None   # (_owed, in place)
        for i, left in enumerate(frame[LEFT]):
            if left > 0:
                k = i
                break
        units = self.units
        if k is not None:
            i, j = self.cost_at[k], self.joker_at
            cands: tuple[int, ...] = (i,) if j is None or j == i else (i, j)
        elif not any(frame[LEFT]) and min(have, default=0) >= 0:
            # an `any` unit with every cost paid and nothing negative: _feasible's cost loop
            # changes nothing, and a unit paid from `from` leaves the rest payable whichever
            # pays it exactly when they add up to what is owed (one sum, not one _feasible a unit)
            if self._payable(have) < frame[ANY_LEFT]:
                return k, []
            return k, [units[u] for u in self.from_at if have[u] > 0]
        else:
            cands = self.from_at
        return k, [units[u] for u in cands if have[u] > 0 and self._feasible(frame, have, k, u)]

    @staticmethod
    def _owed(frame):
        """The cost being paid: the first one with units left (None: an `any` unit)."""
        for k, left in enumerate(frame[LEFT]):
            if left > 0:
                return k
        return None

    def _feasible(self, frame, have, k, u) -> bool:
        """Whether, after paying one unit of cost k (None: an `any` unit) with unit ``u`` (its
        position in ``have``, as in self.units), the rest can still be paid: own counters first,
        the joker for what they lack, then the `any` units from whatever is left."""
        have = have[:]
        have[u] -= 1
        left = frame[LEFT]
        any_left = frame[ANY_LEFT]
        if k is None:
            any_left -= 1
        else:
            left = left[:]
            left[k] -= 1
        joker = self.joker_at
        for i, need in zip(self.cost_at, left):
            own = have[i]
            if own >= need:
                have[i] = own - need
            else:
                short = need - own
                have[i] = 0
                if joker is None or have[joker] < short:
                    return False
                have[joker] -= short
        return self._payable(have) >= any_left

    def _payable(self, have) -> int:
        """How many units what may pay an `any` unit holds (``have`` as self.units)."""
        return sum(have) if self.from_all else sum(map(have.__getitem__, self.from_at))

    def run(self, S, frame):
        if frame[PAYER] is None:
            who = self.who(S, self.me(S, self.me_var), None)
            if who is None:
                S.stack.pop()
                return
            frame[PAYER] = who
            frame[LEFT] = [max(0, f(S, who, None)) for f in self.cost_fns]
            frame[ANY_LEFT] = max(0, self.any(S, who, None))
            if (owed := sum(frame[LEFT]) + frame[ANY_LEFT]) > S.rules.max_steps:   # (each unit: a step or more)
                _beyond_budget(self, S, who, owed)
            frame[OWED:] = [[*frame[LEFT], frame[ANY_LEFT]]]   # (a frame saved without the slot: it gets one)
        while any(frame[LEFT]) or frame[ANY_LEFT] > 0:
            k, opts = self._choices(S, frame)
            if not opts:
                what = self.cost_names[k] if k is not None else "any"
                raise ExprRuntimeError(f"player {frame[PAYER]} cannot pay a unit of '{what}'")
            if len(opts) > 1:
                S.dec = (frame[PAYER], tuple(opts))
                return
            self._pay(S, frame, k, opts[0])
            S.steps += PAY_UNIT   # (each unit paid without asking: a huge cost meets the budget)
            if S.steps > S.rules.max_steps:
                over_budget(S)
        S.stack.pop()

    def resolve(self, S, frame, name):
        self._pay(S, frame, self._owed(frame), name)

    def _pay(self, S, frame, k, name):
        who = frame[PAYER]
        if S.sh:
            S.own(name)   # (copy on write)
        getattr(S, self.slots[name])[S.tm[who] if self.team.get(name) else who] -= 1   # (_key, in place)
        to = self.to.get(name)
        if to is not None:
            S.set_counter(to, stored(S.counter(to) + 1))   # (within 64 bits, as a gain's: counters.bounded)
        if k is None:
            frame[ANY_LEFT] -= 1
        else:
            left = list(frame[LEFT])          # replace, never mutate
            left[k] -= 1
            frame[LEFT] = left
        if S.ev is not None:
            S.ev.append({"ev": "pay", "who": who, "counter": name, "amount": 1, **({"to": to} if to else {})})

    hidden_kept: tuple | None = None   # (the ruleset, what reads_hidden found)

    def hidden_values(self, S, frame, seat, rng):
        """A determinization for ``seat`` (engine/knowledge.py): the units owed, read when the
        payer was, where an amount read a private variable, a hidden counter or the cards of a
        zone instance the seat does not see (``costs: {gold: "_price"}``; recounts.reads_hidden,
        engine/sight.py ``unseen_by``), are counted again on the world's values, less what has
        been paid of them.
        A cost paid before the unit asked stays paid (the seat saw the payment go past it); the
        one asked owes one unit at least (the seat sees it asked), the others none at least.
        Where the world cannot count an amount (a private number it holds as none), that least."""
        if frame[PAYER] is None:   # (nothing read yet: read on the world's values when it starts)
            return 0
        fns = (*self.cost_fns, self.any)
        hidden = [unseen_by(S, reads, seat, frame[PAYER]) for reads in reads_hidden(self, S, *fns)]
        if not any(hidden):
            return 0
        left = [*frame[LEFT], frame[ANY_LEFT]]
        owed = frame[OWED] if len(frame) > OWED else left   # (a state saved without them: nothing paid)
        asked = next((k for k, n in enumerate(left) if n > 0), None) if S.dec is not None else None
        now = []
        for k, (fn, read, had, was) in enumerate(zip(fns, hidden, left, owed)):
            if not read or (asked is not None and k < asked):
                now.append(had)
                continue
            try:
                n = fn(S, frame[PAYER], None)
            except Exception:   # noqa: BLE001 - any failure of the count: the least the seat saw
                n = None
            least = int(k == asked)
            now.append(max(n - (was - had), least) if n.__class__ is int else least)
        frame[LEFT], frame[ANY_LEFT] = now[:-1], now[-1]   # (replaced, never mutated)
        frame[OWED:] = [[n + was - had for n, was, had in zip(now, owed, left)]]   # (a frame saved without it: added)
        return sum(weight(fn) for fn, read in zip(fns, hidden) if read)

    asks = True

    def label(self, S, value):
        return str(value)

    def named(self, S, frame, value):
        return [(value, self._key(S, value, frame[PAYER]))]   # which counter pays: hidden with it

    def vocabulary(self, V, spec):
        return [str(u) for u in self.from_unique]

    def reask(self, S, frame):
        pass


def _beyond_budget(step, S, who: int, owed: int) -> None:
    """A pay owing more units than the step budget: each unit paid counts at least one step (an
    answer, or PAY_UNIT), so the game could never pay them; it stops as the pay starts, located
    there, and a pay's frame holds at most the budget's units left (``counted``, engine/frames.py:
    what a saved state's may hold)."""
    stop = BudgetExceeded(f"player {who} owes {figure(owed)} units here, more than the step budget of "
                          f"{S.rules.max_steps:,} steps could ever pay (each unit counts one step at least, two paid "
                          "without asking); lower the cost, or raise limits.steps", loc=step.loc)
    stop.summary = "a pay owes more units than the step budget could ever pay"   # (its cost may read hidden values)
    raise stop


def _whole_cost(ctx, name, fn, path):
    """A cost of counter ``name`` (``fn``; the units of any kind, paid by the ``from:`` counters, the
    first named; None where it names none): a whole number, as the counter it is paid from holds
    (mechanics/counters.py ``may_be_fraction``): one that may have a fraction an error at load, one of
    type any (or made of one) checked where the pay starts (engine/values.py ``as_whole``)."""
    if not may_be_fraction(ctx, fn, path, "cost"):
        return fn
    subject = None if name is not None else "a pay's any: counts units, whole numbers"

    def checked(S, me, L):
        return as_whole(name, fn(S, me, L), subject)
    # (what it reads, reads_hidden, and weighs, a world's recount: engine/invariants.py weight)
    checked.access, checked.tree, checked.work = fn.access, fn.tree, getattr(fn, "work", MAX_COST)   # type: ignore[attr-defined]
    return checked
