"""A ruleset's state layout: each zone, counter and variable in a slot of its own on a State
class made for the ruleset, read and written there by the generated code (expr/names.py
``slot`` names the attribute). ``S.z``, ``S.c`` and ``S.v`` give them by name to generic
readers (observation, save, knowledge, scenarios, the viewer, the tensors): a plain dict
taken from the slots when it is read, whose assignments write the slots (the slots stay the
only place a value is kept: read the dict when needed, never keep it across a change).
"""
from __future__ import annotations

from typing import Any, Callable

from ..errors import UsageError
from ..expr.names import RECORD, RECORD_SLOTS, VIEWS, counter_ref, slot, var_ref, zone_ref
from ..expr.types import CARD
from ..expr.runtime import owned as owned_list
from .start import SCALARS
from .values import var_problem


class Tables(dict):
    """The zones, counters or variables of one state by name, as they were when read (their
    lists are the state's own objects); ``t[name] = value`` writes the state's slot too."""
    __slots__ = ("_at",)
    _at: tuple   # (the state, name -> its slot)

    def __setitem__(self, name, value) -> None:
        if self._put(name, value):
            reindex(self._at[0])

    def update(self, *args, **kw) -> None:   # type: ignore[override]
        replaced = [self._put(name, value) for name, value in dict(*args, **kw).items()]
        if any(replaced):   # (the record made again once, however many recorded zones a load writes)
            reindex(self._at[0])

    def _put(self, name, value) -> bool:
        """Write the slot of ``name``; whether it is a recorded zone's (the record to make again)."""
        S, at = self._at
        # (a card variable is trusted to name a card: a recorded zone's membership reads by it)
        if at is S.rules.layout.vars and S.rules.names.vars.get(name) == CARD and value is not None:
            problem = var_problem(S, name, value)
            if problem is not None:
                raise UsageError(problem)
        setattr(S, at[name], value)   # (a name the ruleset does not declare: KeyError)
        dict.__setitem__(self, name, value)
        return name in S.rules.names.recorded and at[name] == slot("z", name)

    def __reduce__(self):   # a copy (copy, deepcopy, pickle) is plain data: a dict
        return (dict, (dict(self),))

    def _fixed(self, *args, **kw):
        raise TypeError("the ruleset declares a state's tables: they are written one by one (zones[name] = value), "
                        "never added or removed")

    __delitem__ = pop = popitem = clear = setdefault = _fixed   # type: ignore[assignment]


class Layout:
    """Where a ruleset's state keeps each table: ``zones``, ``counters``, ``vars`` map each name
    to its slot; ``cls`` is the ruleset's State class, with those slots and its own ``clone``."""

    def __init__(self, base: type, rules):
        shapes = rules.zone_shapes
        self.zones = {name: slot("z", name) for name, _ in shapes}
        self.counters = {name: slot("c", name) for name in rules.counter_owner}
        memory = tuple(when[4] for when in rules.triggers.when)   # the when-triggers' last values
        self.vars = {name: slot("v", name) for name in (*rules.names.vars, *memory)}
        self.var_types = dict(rules.names.vars)   # (a memory's none: a value of any type)
        self.memory = frozenset(memory)   # absent (none) until first checked
        self.of = {**self.zones, **self.counters}   # a zone's or counter's slot (State.own)
        self.recorded = rules.names.recorded   # zone -> its code in the record of each card's zone
        self.views = rules.names.views   # each a union of recorded zones, kept in card order (S.vw)
        self.recorded_slots = tuple((self.zones[name], code) for name, code in self.recorded.items())
        self.view_slots = tuple(tuple(self.zones[name] for name in zones) for zones in self.views)
        # the record's and the views' slots, where the ruleset keeps them (shared as a zone is on clone)
        kept = {key: a for key, a in RECORD_SLOTS.items() if (self.recorded if key == RECORD else self.views)}
        self.of.update(kept)
        slots = self.slots = (*self.zones.values(), *self.counters.values(), *self.vars.values(), *kept.values())
        self.cls: Any = type(base.__name__, (base,), {"__slots__": slots, "__module__": base.__module__})
        # what every start holds the same (engine/ruleset.py _fill): a variable with no start value
        # none, a shared zone with no start components empty (``fresh`` writes them so)
        self.none_at_start = frozenset(name for name in self.vars if name not in rules.var_start)
        self.empty_at_start = frozenset(name for name, shape in shapes if shape == 0
                                        and not (rules.zone_decl[name] or {}).get("start"))
        self._write(shapes, rules.shared_on_clone, rules.owned_counters, kept)

    def _write(self, shapes: tuple, shared: frozenset, owned: tuple, kept: dict) -> None:
        """The functions this layout writes out by name: ``clone`` (every slot copied: the lists
        shared, copied on write; a zone owned by each card copied now; see State.clone),
        ``fresh`` (a new game from the start a ruleset keeps: engine/ruleset.py ``new_game``) and
        the dicts of the tables by name (``zones_of``, ``counters_of``, ``vars_of``; a
        when-trigger's memory only once checked)."""
        lines = ["def clone(self):",
                 "    new = new_state(cls)",
                 "    new.rules, new.seed, new.n, new.players = self.rules, self.seed, self.n, self.players",
                 "    new.teams, new.tm, new.members, new.p, new.o = self.teams, self.tm, self.members, self.p, self.o",
                 "    new.cap = self.cap",
                 "    new.rng, new.dec, new.over, new.steps = self.rng, self.dec, self.over, self.steps",
                 "    new.stack = [f[:] for f in self.stack]   # frame contents are replaced, never mutated",
                 "    new.ev = None",
                 "    new.kn = None if self.kn is None else self.kn.copy()",
                 "    new.vd = self.vd   # (a tuple of frozensets: never changed in place)",
                 "    self.sh = set(shared)",
                 "    new.sh = set(shared)",
                 *self._copies(shapes, owned, kept, shared=True),
                 "    return new",
                 # a game of this seed at its start: its tables as the start's (every list its
                 # own: nothing shared, nothing in sh), no frame yet; the RNG, ev and kn its caller's
                 "def fresh(self, seed):",
                 "    new = new_state(cls)",
                 # (the seats, the parameters, the options and the variables' values each game's own,
                 # as a game filled afresh has them: nothing one game's holder changes reaches another)
                 "    new.rules, new.seed, new.n, new.players = self.rules, seed, self.n, self.players[:]",
                 "    new.teams, new.tm, new.members = self.teams[:], self.tm, self.members",
                 "    new.p, new.o = self.p.own(), self.o.own()",   # (a start's are start.py Kept)
                 "    new.cap = self.cap",   # (never written: the start's, evaluated once for its values)
                 "    new.rng, new.stack, new.dec, new.over, new.steps = 0, [], None, False, 0",
                 "    new.ev = new.kn = None",
                 "    new.vd = ()",
                 "    new.sh = set()",
                 *self._copies(shapes, owned, kept, shared=False),
                 "    return new"]
        for kind, at in (("zones", self.zones), ("counters", self.counters), ("vars", self.vars)):
            ref = {"zones": zone_ref, "counters": counter_ref, "vars": var_ref}[kind]
            lines += [f"def {kind}_of(S):",
                      "    t = Tables({" + ", ".join(f"{name!r}: {ref(name)}" for name in at if name not in self.memory)
                      + "})",
                      *(f"    if {ref(name)} is not None: dict.__setitem__(t, {name!r}, {ref(name)})"
                        for name in at if name in self.memory),
                      f"    t._at = (S, {kind.upper()})",
                      "    return t"]
        space: dict = {"new_state": object.__new__, "cls": self.cls, "shared": shared, "Tables": Tables,
                       "_owned": owned_list,
                       "ZONES": self.zones, "COUNTERS": self.counters, "VARS": self.vars}
        exec(compile("\n".join(lines) + "\n", "<layout>", "exec"), space)  # noqa: S102 - written from the names
        self.cls.clone = space["clone"]
        self.fresh: Callable = space["fresh"]
        self.zones_of: Callable = space["zones_of"]
        self.counters_of: Callable = space["counters_of"]
        self.vars_of: Callable = space["vars_of"]

    def _copies(self, shapes: tuple, owned: tuple, kept: dict, shared: bool) -> list:
        """The lines copying each table's slot from ``self`` to ``new``: a zone owned by each card
        copied now; the other zones, the owned counters, the record and the views shared (a
        clone's: copied on write, State.own) or copied now (``shared`` false; a zone per player
        or team and the views are lists of lists, each list copied); a shared counter's value and
        a variable's as they are (values never mutated in place)."""
        out = []
        for name, shape in shapes:
            a = self.zones[name]
            out.append(f"    new.{a} = {{c: part[:] for c, part in self.{a}.items() if part}}" if shape == 2
                       else f"    new.{a} = self.{a}" if shared
                       else f"    new.{a} = list(map(list.copy, self.{a}))" if shape == 1
                       else f"    new.{a} = []" if name in self.empty_at_start
                       else f"    new.{a} = self.{a}[:]")
        out += [f"    new.{a} = self.{a}" if shared or name not in owned else f"    new.{a} = self.{a}[:]"
                for name, a in self.counters.items()]
        out += [f"    new.{a} = self.{a}" if shared or self.var_types.get(name) in SCALARS and name not in self.none_at_start
                else f"    new.{a} = None" if name in self.none_at_start
                else f"    new.{a} = _owned(v) if (v := self.{a}).__class__ is list else v" for name, a in self.vars.items()]
        out += [f"    new.{a} = self.{a}" if shared
                else f"    new.{a} = list(map(list.copy, self.{a}))" if key == VIEWS
                else f"    new.{a} = self.{a}[:]" for key, a in kept.items()]
        return out


def reindex(S) -> None:
    """The record of each card's zone (``S.at``, where the ruleset keeps one: building/record.py)
    made again from the recorded zones: card -> its zone's code, 0 in none; and the views
    (``S.vw``), each the cards of a union of recorded zones in card order. The one rebuild,
    after any writer that is no move (a game's start, a state loaded, a determinization, a
    scenario's setup); a move keeps them itself."""
    layout = S.rules.layout
    if not layout.recorded:
        return
    at = [0] * len(S.rules.card_labels)
    for a, code in layout.recorded_slots:
        zone = getattr(S, a)   # (None: a state being filled, zone by zone)
        # its cards as the list holds them, its own reading not asked (a chance adapter's pile
        # of shuffled cards draws their order when read: adapters/chance.py)
        for card in list.__iter__(zone or []):
            at[card] = code
    S.at = at   # (a new list: a clone's is its own; RECORD left in S.sh costs one copy at most)
    if layout.views:   # (new lists too)
        S.vw = [sorted([card for a in slots for card in list.__iter__(getattr(S, a) or [])])
                for slots in layout.view_slots]
