"""The declarations of a ruleset: parameters, zones, counters and variables, their owners and
types checked and recorded for the compiler (names every expression may use), the warnings
for declarations nothing uses, and the lookups the mechanics make of them while they build
(``declare_var``, ``owned_zone``, ``shared_zone``, the zones cards may flow between)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..errors import Diagnostic, UsageError
from ..engine.params import (by_players, check_param, declared_type, is_number, longest_text, misfit, mixed,
                             param_chars, param_span, plain_value, quoted_number, read_entry, settled, shape_of,
                             type_of_value, values_over, variant_counts)
from ..expr.names import LANGUAGE_NAMES
from ..expr.types import ANY, is_map, parse_type, unify
from ..mechanics.contract import COUNTER_KEYS, VAR_KEYS, ZONE_KEYS, key_named

if TYPE_CHECKING:
    from ..expr import Compiler, Names
    from ..loading.variants import Loaded
    from .effects import EffectCompiler


class Declarations:
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
    _started: dict
    zone_flows: set
    zone_caps: dict
    loaded: Loaded
    error: Callable[..., None]
    count_error: Callable[..., None]
    warn: Callable[..., None]
    unknown: Callable[..., None]

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

    def params(self, spec, counts: list, reachable: set | None) -> dict:
        """Each parameter's type, from its values in games of ``counts`` players (the playable
        ones: engine/params.py), and its map keys; a playable count with no value is an error,
        a ``by_players:`` entry for a count no game of the ruleset plays (``reachable``: those
        of it and of its variants; None: not checked here) a warning."""
        out = {}
        for name, value in spec.items():
            if name in self.loaded.bare:
                value = self._bare_value(name, value, counts)
            table = by_players(value)
            if table is not None:
                self._param_counts(name, value, table, counts, reachable)
            vals = values_over(name, value, counts)
            declared = value.get("type") if isinstance(value, dict) else None
            if declared is None:   # plain data, as a log and a saved state hold it (check_param says so of the rest)
                try:
                    for v in vals:
                        plain_value(name, v)
                        longest_text(name, v)
                except UsageError as e:
                    self.error(e.message, ("params", name), "type")
                else:   # its lists' elements of one type, as a declared list's (_declared), and its values
                    if self._uniform(name, value, vals):
                        self._one_type(name, value, vals)
            if declared is not None:
                self._declared(name, value, vals)
            else:
                self.names.params[name] = settled(unify([type_of_value(v) for v in vals]))
                if isinstance(value, dict):
                    self._within(name, value, vals)
            if is_map(self.names.params[name]):   # keys(params.NAME): each map's in the order written (the
                self.names.param_keys[name] = tuple(dict.fromkeys(tuple(v) for v in vals))   # game's, not JSON's)
            if isinstance(value, dict):
                self._param_bounds(name, value, vals)
                self._choices(name, value, vals)
            span = param_span(value, vals)
            if span is not None:
                self.names.param_spans[name] = span
            chars = param_chars(value, vals)
            if chars is not None:
                self.names.param_chars[name] = chars
            out[name] = value
        return out

    def _declared(self, name, spec: dict, vals: list) -> None:
        """The type a parameter declares (``type:``), its values (``vals``) checked against it
        and its bounds and choices, and a list's elements of one type (``type: list``): an error
        at the value written (its ``by_players:`` entry, its ``default:``...), any after it
        (none: the declaration) of the type ANY."""
        try:
            typ = self.names.params[name] = declared_type(spec, vals) or ANY
        except ValueError as e:
            self.error(str(e), ("params", name), "type")
            self.names.params[name] = ANY
            return
        for v in vals:   # the defaults must fit their own declaration
            at = _written_at(name, spec, v)
            if spec["type"] == "list" and not self._uniform(name, spec, [v]):
                self.names.params[name] = ANY
                return
            try:
                check_param(name, v, spec, v, typ, read=False)
            except UsageError as e:
                if isinstance(v, str) and _whole(spec.get("max_length")) and len(v) > spec["max_length"]:
                    at = _overlaid_bound(self.loaded.smap, name, at, "max_length")   # (a variant's lower bound: there)
                self.error(e.message, at, "type", quoted_number(v, typ))
                self.names.params[name] = ANY
                return

    def _uniform(self, name, spec, vals: list) -> bool:
        """Whether each list in the values (``vals``) of parameter ``name`` has elements of one type
        at every depth (engine/params.py ``mixed``); else an error at the first element that does
        not fit those before it, in the value written (its ``by_players:`` entry, ``default:``...)."""
        for v in vals:
            found = mixed(name, v)
            if found is not None:
                self.error(found[1], (*_written_at(name, spec, v), *found[0]), "type", "a list's elements are of one type")
                return False
        return True

    def _one_type(self, name, spec, vals: list) -> None:
        """An undeclared parameter's values for each player count (``vals``) of one type, the type
        its expressions read (``mixed``'s rule: 1 and 2.5 are numbers); else an error at the first
        that does not fit those before it."""
        i = misfit(vals)
        if i is not None:
            self.error(f"parameter '{name}' is {shape_of(vals[:i])} for other player counts, got {vals[i]!r}",
                       _written_at(name, spec, vals[i]), "type", "a parameter has one type in every game")

    def _within(self, name, spec: dict, vals: list) -> None:
        """An undeclared parameter's values (no ``type:``) within its ``min:`` and ``max:`` (where
        they and its values are numbers: else _param_bounds says why) and among its ``choices:``,
        as a declared one's are (_declared): an error at the first value that is not."""
        numbers = all(is_number(v) for v in vals)
        rest = {k: spec[k] for k in ("min", "max", "choices", "max_length") if k in spec and (
            isinstance(spec[k], list) if k == "choices" else _whole(spec[k]) if k == "max_length"
            else numbers and is_number(spec[k]))}
        for v in vals if rest else ():
            try:
                check_param(name, v, rest, v, self.names.params[name], read=False)
            except UsageError as e:
                self.error(e.message, _written_at(name, spec, v), "type")
                return

    def _bare_value(self, name, spec: dict, counts: list) -> dict:
        """The declaration of a parameter an overlay gave a bare value (loading/variants.py),
        that value checked as ``--set`` checks an override: against the declaration's type,
        bounds and choices and each value it replaced (in games of ``counts`` players), of
        their type where the declaration names none; its maps put in the order of those
        replaced. Where it replaced none (a ``by_players:`` with no entry for those counts, no
        ``default:``), against the type and bounds of any value of the declaration, as written.
        After an error, located at the overlay's value, the declaration it replaced (so the rules
        that read the parameter are checked against the type they were written for; one of its
        values its default where it has none for those counts: no second error)."""
        replaced, loc = self.loaded.bare[name]
        olds = values_over(name, replaced, counts)
        every, typ = olds or values_over(name, replaced, []), None   # (none for these counts: any one's type)
        try:
            typ = declared_type(replaced, every) or (settled(unify([type_of_value(v) for v in every])) if every else None)
            checked = [check_param(name, spec["default"], spec, old, typ, read=False) for old in olds]
            if not olds:   # (as written: no value replaced whose order it takes)
                check_param(name, spec["default"], spec, None, typ, read=False)
        except (ValueError, UsageError) as e:
            self.count_error(loc)
            self.diags.append(Diagnostic(e.message if isinstance(e, UsageError) else str(e), loc, "type",
                                         hint=quoted_number(spec["default"], typ)))
            return replaced if olds or not every else {**replaced, "default": every[0]}
        return {**spec, "default": checked[0]} if checked else spec

    def _param_counts(self, name, spec, table: dict, counts: list, reachable: set | None) -> None:
        missing = [n for n in counts if str(n) not in table]
        if missing and "default" not in spec:
            self.error(f"parameter '{name}' has no value for {', '.join(map(str, missing))} players "
                       f"(by_players: {', '.join(table) or 'none'})", ("params", name, "by_players"), "params",
                       "give it a default: for the other player counts")
        for key in table if reachable is not None else ():
            self._unread_entry(name, key, reachable or set(), ("params", name, "by_players", key), "this ruleset")

    def variant_params(self, data: dict) -> None:
        """Each ``by_players:`` entry a variant declared in the ruleset writes itself, checked
        against the player counts of that variant's games, as the ruleset's are against its own."""
        for variant, counts in variant_counts(data).items():
            params = data["variants"][variant].get("params")
            for name, spec in (params.items() if isinstance(params, dict) else ()):
                table = by_players(spec)
                for key in table if isinstance(table, dict) else ():
                    self._unread_entry(name, key, set(counts), ("variants", variant, "params", name, "by_players", key),
                                       f"variant {variant}")

    def _unread_entry(self, name: str, key, reachable: set, path: tuple, whose: str) -> None:
        """A warning at a ``by_players:`` entry no game reads: a count none of ``whose`` games has
        (``reachable``), or one not written plainly (``02``)."""
        if read_entry(key) and int(key) in reachable:
            return
        if str(key).isdigit() and int(key) in reachable:
            self.warn(f"parameter '{name}': no game reads the entry {key} (a game of {int(key)} players reads "
                      f"the entry {int(key)})", path, "params")
            return
        have = sorted(reachable)
        have_text = (f"{have[0]} to {have[-1]}" if len(have) > 1 and have == list(range(have[0], have[-1] + 1))
                     else ", ".join(map(str, have))) if have else "none"
        self.warn(f"parameter '{name}': no game of {whose} has {key} players (its games: {have_text})", path, "params")

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
            n = int(key) if isinstance(key, int) or (isinstance(key, str) and key.isdigit()) else None
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

    def _param_bounds(self, name, spec, values) -> None:
        """min: and max: bound a number parameter, with numbers; max_length: a text parameter."""
        if "max_length" in spec and not all(isinstance(v, str) for v in values if v is not None):
            self.error(f"max_length: bounds a text parameter, and '{name}' is not text",
                       ("params", name, "max_length"), "type", "remove the bound")
        elif isinstance(spec.get("max_length"), float):   # (40.0: the schema's integer; 40 meant, or a mistake)
            self.error(f"max_length: takes a whole number of characters, got {spec['max_length']!r}",
                       ("params", name, "max_length"), "type", f"write {int(spec['max_length'])}"
                       if spec["max_length"].is_integer() else "a whole number, 0 to 100,000")
        for bound in ("min", "max"):
            if bound not in spec:
                continue
            if not is_number(spec[bound]):
                self.error(f"{bound}: takes a number, got {spec[bound]!r}", ("params", name, bound), "type")
            elif not all(is_number(v) for v in values if v is not None):
                self.error(f"{bound}: bounds a number parameter, and '{name}' is not a number",
                           ("params", name, bound), "type", "remove the bound, or use choices: for a list of values")

    def _choices(self, name, spec: dict, vals: list) -> None:
        """Each of ``choices:`` a value the parameter may take: of its type (declared, else its
        values'), its lists' elements of one type, within its ``min:`` and ``max:``; an error at
        the first that is not (a bound that is no number, or of no number parameter: _param_bounds)."""
        choices, typ = spec.get("choices"), self.names.params[name]
        numbers = all(is_number(v) for v in vals if v is not None)
        rest = {k: v for k, v in spec.items() if k in ("min", "max") and numbers and is_number(v)
                or k == "max_length" and _whole(v)}   # (a text choice within max_length: too)
        for i, choice in enumerate(choices if isinstance(choices, list) else ()):
            try:
                plain_value(name, choice)
                found = mixed(name, choice)
                if found is not None:
                    self.error(found[1], ("params", name, "choices", i, *found[0]), "type",
                               "a list's elements are of one type")
                    return
                check_param(name, choice, rest, choice, typ, read=False)
            except UsageError as e:
                self.error(f"choices: {e.message}", ("params", name, "choices", i), "type",
                           quoted_number(choice, typ) or "each choice is a value the parameter may take: of its type, "
                                                          f"within its {'max_length:' if 'characters' in e.message else 'min: and max:'}")
                return

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


def _written_at(name: str, spec: dict, value) -> tuple:
    """Where a value of a parameter's declaration (one ``values_over`` gives) is written: its
    ``by_players:`` entry, its ``default:`` or ``value:`` (the declaration, were it none)."""
    if not isinstance(spec, dict):   # (a bare value: the declaration is the value)
        return ("params", name)
    table = by_players(spec) or {}
    key = next((k for k, v in table.items() if v is value), None)
    if key is not None:
        return ("params", name, "by_players", key)
    return next((("params", name, k) for k in ("default", "value") if k in spec and spec[k] is value), ("params", name))


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _overlaid_bound(smap, name: str, at: tuple, bound: str) -> tuple:
    """Where an error of a value (at ``at``) past a parameter's ``bound`` is reported: at the
    bound where an overlay (a variant) wrote it into a declaration whose value it did not write
    (the overlay's declaration is the one the merged map names); else at the value."""
    decl, bound_at, value_at = smap.loc(("params", name)), smap.loc(("params", name, bound)), smap.loc(at)
    if decl is None or bound_at is None or value_at is None or bound_at.path != decl.path:
        return at
    overlaid = value_at.path != decl.path or (value_at.line, value_at.col) < (decl.line, decl.col)
    return ("params", name, bound) if overlaid and (bound_at.line, bound_at.col) >= (decl.line, decl.col) else at
