"""The declarations of a ruleset: parameters (building/paramdecl.py), zones, counters and
variables, their owners and types checked and recorded for the compiler (names every expression
may use), the warnings for declarations nothing uses, and the lookups the mechanics make of them
while they build (``declare_var``, ``owned_zone``, ``shared_zone``, the zones cards may flow
between)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..errors import Diagnostic, digits
from ..expr.names import LANGUAGE_NAMES
from ..expr.types import ANY, fits, parse_type, proves, unproven
from ..mechanics.contract import COUNTER_KEYS, VAR_KEYS, ZONE_KEYS, key_named
from .paramdecl import ParamDeclarations

if TYPE_CHECKING:
    from ..expr import Compiler, Names
    from ..loading.variants import Loaded
    from .effects import EffectCompiler


class Declarations(ParamDeclarations):
    """Builder methods for the declaration sections (mixed into Builder)."""
    # the Builder's (building/builder.py), which these read and fill
    diags: list[Diagnostic]
    names: Names
    compiler: Compiler
    fx: EffectCompiler
    zone_decl: dict
    counter_decl: dict
    var_decl: dict
    var_writers: list
    any_stored: dict
    _started: dict
    zone_flows: set
    zone_caps: dict
    loaded: Loaded
    error: Callable[..., None]
    count_error: Callable[..., None]
    warn: Callable[..., None]
    unknown: Callable[..., None]
    expr: Callable[..., Any]

    def unused_warnings(self, d):
        """Declarations nothing refers to are probably mistakes: warn (validate shows them)."""
        if any(x.severity == "error" for x in self.diags):
            return   # errors first: what they break would look unused
        used = self.compiler.used
        family = {f"{name}.{k}": name for name, keys in self.names.keyed.items() for k in keys}
        used = used | {c for c, name in family.items() if name in used}   # a family used is each of its counters
        counters = {**{c: o for c, o in self.names.counters.items() if c not in family},
                    **{name: "family" for name in self.names.keyed}}
        for section, noun, names in (("zones", "zone", self.names.zones), ("counters", "counter", counters),
                                     ("define", "define", self.names.defines), ("effects", "effect", self.fx.named),
                                     ("vars", "variable", self.var_decl)):
            for name in names:
                if name not in used:
                    self.warn(f"{noun} '{name}' is declared but never used", (section, name))
        for name in self.names.params:
            if "params." + name not in used:
                self.warn(f"parameter '{name}' is declared but never used", ("params", name))

    def check_teams(self, decl, lo: int, hi: int) -> None:
        """teams: {by_players: {N: [[seat, ...], ...]}}: for each count N between players min
        and max, teams that share out the seats 0..N-1, each seat in exactly one team."""
        if not isinstance(decl, dict) or not isinstance(decl.get("by_players"), dict):
            return   # the schema reported the shape
        table = decl["by_players"]
        if not table:
            self.error("teams: by_players declares no player count", ("teams", "by_players"), "teams")
        for key, teams in table.items():
            path = ("teams", "by_players", key)
            n = int(key) if isinstance(key, int) or digits(key) else None
            if n is None or not lo <= n <= hi:
                self.error(f"teams: {key!r} is not a player count of this game ({lo} to {hi})", path, "teams")
                continue
            if not isinstance(teams, list) or not all(isinstance(t, list) for t in teams):
                continue   # the schema reported the shape
            seats = [p for t in teams for p in t]
            if not teams or any(not t for t in teams):
                self.error(f"teams for {n} players: every team needs at least one seat", path, "teams")
            elif any(not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < n for p in seats):
                bad = next(p for p in seats if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < n)
                self.error(f"teams for {n} players: seat {bad!r} does not exist (the seats are 0 to {n - 1})",
                           path, "teams")
            elif len(set(seats)) != len(seats):
                twice = next(p for p in seats if seats.count(p) > 1)
                self.error(f"teams for {n} players: seat {twice} is in two teams", path, "teams")
            elif len(seats) != n:
                missing = sorted(set(range(n)) - set(seats))
                self.error(f"teams for {n} players: seat{'s' if len(missing) > 1 else ''} "
                           f"{', '.join(map(str, missing))} in no team", path, "teams",
                           "every seat plays in exactly one team")

    def declare_zones(self, zones, r):
        for name, decl in zones.items():
            decl = decl or {}
            path = ("zones", name)
            owner = self._owner(decl, ZONE_KEYS, path)
            self.names.zones[name] = owner
            self.zone_decl[name] = decl
            if decl.get("sorted"):
                self.names.sorted_zones.add(name)
            for comp in (decl.get("start") or []):
                if comp not in r.cards.by_component:
                    self.unknown("component", comp, r.cards.by_component, (*path, "start"))
                elif comp in self._started:
                    self.error(f"the cards of '{comp}' already start in zone '{self._started[comp]}'",
                               (*path, "start"), "duplicate")
                else:
                    self._started[comp] = name
            if decl.get("start") and owner != "none":
                self.error("only a shared zone (owner: none) can start with cards", (*path, "start"), "type")
            holds = decl.get("holds")
            if holds is not None:
                for i, comp in enumerate(holds):
                    if comp not in r.cards.by_component:
                        self.unknown("component", comp, r.cards.by_component, (*path, "holds", i))
                for comp in (decl.get("start") or []):
                    if comp in r.cards.by_component and comp not in holds:
                        self.error(f"zone '{name}' starts with '{comp}' cards but holds only {', '.join(holds)}",
                                   (*path, "holds"), "type")

    def declare_counters(self, counters, r):
        for name, decl in counters.items():
            if not isinstance(decl, dict):
                decl = {"start": decl}
            owner = self._owner(decl, COUNTER_KEYS, ("counters", name))
            if name in self.names.zones:
                self.error(f"'{name}' is already a zone", ("counters", name), "duplicate", key=True)
            if "keys" in decl:   # a family: one counter NAME.KEY per key, the same declaration each
                keys = self._counter_keys(name, decl["keys"], r) or ("_",)   # (after an error: go on)
                self.names.keyed[name] = keys
                one = {k: v for k, v in decl.items() if k != "keys"}
                for key in keys:
                    self.names.counters[f"{name}.{key}"] = owner
                    self.counter_decl[f"{name}.{key}"] = one
                continue
            self.names.counters[name] = owner
            self.counter_decl[name] = decl

    def _owner(self, decl, keys, path) -> str:
        """The owner a zone or counter declares (its table's default if none; after an error too)."""
        key = key_named(keys, "owner")
        owner = decl.get("owner", key.default)
        if owner not in key.choices:
            self.error(f"owner is one of {', '.join(key.choices)}", (*path, "owner"), "enum")
            return key.default
        return owner

    def _counter_keys(self, name, spec, r) -> tuple:
        """The keys of a counter family: a list of names, or params.NAME holding one (the same
        for every player count: the family's counters exist in every game)."""
        path = ("counters", name, "keys")
        if isinstance(spec, str) and spec.startswith("params."):
            param = spec[7:]
            decl = (r.params_decl or {}).get(param)
            if decl is None:
                self.error(f"unknown parameter '{param}'", path, "unknown-name")
                return ()
            if isinstance(decl, dict) and "by_players" in decl:
                self.error("the keys of a counter family cannot depend on the player count", path, "type")
                return ()
            spec = decl.get("default", decl.get("value")) if isinstance(decl, dict) else decl
            self.compiler.used.add("params." + param)
        if not (isinstance(spec, list) and spec and all(isinstance(k, str) and k.isidentifier() for k in spec)):
            self.error("keys is a list of names (letters, digits, _), or params.NAME holding one", path, "type")
            return ()
        if len(set(spec)) != len(spec):
            self.error("keys names a key twice", path, "duplicate")
        return tuple(dict.fromkeys(spec))

    def declare_vars(self, vars_):
        for name, decl in vars_.items():
            if not isinstance(decl, dict):
                decl = {"type": decl}
            try:
                typ = parse_type(str(decl.get("type", key_named(VAR_KEYS, "type").default)))
            except ValueError as e:
                self.error(str(e), ("vars", name, "type"), "type",
                           "the types are int, num, bool, str, player, team, card and list[TYPE]")
                typ = ANY
            self.declare_var(name, typ, ("vars", name))
            self.var_decl[name] = decl

    def var_starts(self) -> dict:
        """Each variable's ``start:`` compiled (a variable without one starts as none), of its declared type: an
        error at the start where its type is not (``x: {type: int, start: "'a'"}``); where the load
        cannot prove it of that type (a value of type any: expr/types.py ``unproven``), checked as
        a game starts (``fn.typed``: engine/ruleset.py ``_fill``), as ``set`` checks such a value."""
        starts = {}
        for name, decl in self.var_decl.items():
            if "start" not in decl:
                continue
            fn = starts[name] = self.expr(decl["start"], ("vars", name, "start"), has_me=False)
            want = self.names.vars[name]
            if not fits(fn.type, want):
                self.error(f"variable '{name}' is declared {want}, got {fn.type}", ("vars", name, "start"), "type")
            fn.typed = unproven(fn.proven, want)
            if want == ANY:   # (stored unchecked: a later as: may not narrow it past this, declare_var)
                self.any_stored[name] = fn.proven
        return starts

    # ------------------------------------------------------------------ names the mechanics declare and look up
    def declare_var(self, name, typ, path) -> str:
        """Declare a variable; returns the name to use (a placeholder after an error, so that
        the build can go on and report the rest). Each declaration is noted in ``var_writers``
        (the name and its path, in the order met: a step's ``as:`` writes its variable)."""
        if not isinstance(name, str) or not name.isidentifier():
            self.error(f"'{name}' is not a valid variable name", path, "name")
            return "_not_a_name"
        if name in LANGUAGE_NAMES:
            self.error(f"'{name}' is a name of the expression language, not a variable name", path, "name",
                       "choose another name")
            return "_not_a_name"
        if name in self.names.defines:
            self.error(f"'{name}' is already a define", path, "duplicate")
        self.var_writers.append((name, tuple(path)))
        old = self.names.vars.get(name)
        if old is not None and old != typ and ANY not in (old, typ):
            self.error(f"variable '{name}' is already a {old}, not a {typ}", path, "type")
        elif old == ANY and typ != ANY and name in self.any_stored and not proves(self.any_stored[name], typ):
            # (narrowed, a value stored before, unchecked, might not be of the type: it stays any, an
            # error; one only read so far, or holding values of the type, is narrowed)
            was = self.any_stored[name]
            self.error(f"variable '{name}' holds values of type {was}, not only {typ}", path, "type",
                       f"a value of type {was} is stored in it before this (its start, a set, a random or a "
                       f"choose): declare it {typ} in vars: to have that value checked where it is stored")
            typ = ANY
        if name in self.names.zones or name in self.names.counters:
            self.error(f"'{name}' is already a zone or counter", path, "duplicate")
        self.names.vars[name] = typ if old is None or old == ANY else old
        return name

    def owned_zone(self, name, path):
        """A zone that belongs to each player or team (a hand), by name."""
        return self._zone(name, path, shared=False)

    def shared_zone(self, name, path):
        """A zone with no owner (a table), by name."""
        return self._zone(name, path, shared=True)

    def _zone(self, name, path, shared: bool):
        if not isinstance(name, str):
            self.error(f"expected the name of a zone, got {type(name).__name__}", path, "type")
            return ""
        self.compiler.used.add(name)
        if name not in self.names.zones:
            self.unknown("zone", name, self.names.zones, path)
        elif (self.names.zones[name] == "none") != shared:
            self.error(f"zone '{name}' must be shared (owner: none) here" if shared else
                       f"zone '{name}' must belong to each player or team here", path, "type")
        return name

    def zone_sorted(self, name):
        return bool((self.zone_decl.get(name) or {}).get("sorted", False))

    def zone_visible(self, name) -> str:
        """The zone's ``visible:`` as declared: all (the default), owner or none (engine/visibility.py)."""
        return str((self.zone_decl.get(name) or {}).get("visible", "all"))

    def zone_max(self, name):
        """The zone's ``max:`` as the guards write it (engine/capacity.py ``guard``): its number, its
        expression's text (evaluated for each game), or None (no max: no guard)."""
        return self.zone_caps.get(name)

    def flows(self, src, dst, kept: bool = False) -> None:
        """Record that some step or effect may move cards from zone ``src`` to zone ``dst``
        (``kept``: writing each card's zone where it is recorded, as a move does: building/record.py)."""
        if isinstance(src, str) and isinstance(dst, str):
            self.zone_flows.add((src, dst))
        if not kept:
            self.names.unkept.update((src, dst))

    def zone_holds(self) -> dict:
        """zone -> the components its cards can be: what it ``holds:`` where it says so, else
        what starts in it and what any move can bring from another zone (a fixed point)."""
        decl = {z: frozenset(d["holds"]) for z, d in self.zone_decl.items()
                if isinstance(d, dict) and d.get("holds") is not None}
        holds = {z: set(decl.get(z) or (self.zone_decl.get(z) or {}).get("start") or ()) for z in self.names.zones}
        changed = True
        while changed:
            changed = False
            for src, dst in self.zone_flows:
                if dst in decl or src not in holds or dst not in holds:
                    continue
                more = holds[src] - holds[dst]
                if more:
                    holds[dst] |= more
                    changed = True
        return {z: frozenset(h) for z, h in holds.items()}
