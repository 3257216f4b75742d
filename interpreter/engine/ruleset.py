"""The compiled, immutable Ruleset and the start of a game."""
from __future__ import annotations

from typing import Any, Callable

from . import capacity, labels, loop as engine, requires as requirements, rng
from ..errors import UsageError, tag_origin
from ..expr.runtime import HELPERS, MAX_INT, RUNTIME_ERRORS, list_bound
from ..expr.types import ANY, BOOL, CARD, INT, PLAYER, STR, TEAM, is_list, elem
from .events import Events
from .frames import stacking
from .layout import Layout, reindex
from .param_bounds import within
from .params import check_param, playable_counts, value_for
from .start import UNSET, Kept, given_key, own_values, plain_copy
from .state import State, blank
from .protocol import GAME_OPTIONS
from .values import as_declared, as_whole
from .visibility import Visibility

_STORED: Any = HELPERS["_stored"]   # (a variable's bounds: runtime._stored, as a set stores a value)

# whether new_game keeps a game's start and copies it (off: each game filled by itself, the
# reference tests/test_new_game_start.py plays the kept starts against)
KEEP_STARTS = True


def card_keys(labels) -> tuple:
    """Each card's name where an observation lists cards by name (what lies on each card, a
    counter each card holds): its label, or ``LABEL#k`` for the k-th card of a label that
    several cards share (two park spaces "light" are "light#1" and "light#2"), so that no two
    cards' entries fall on one key."""
    count: dict = {}
    for label in labels:
        count[label] = count.get(label, 0) + 1
    seen: dict = {}
    out = []
    for label in labels:
        if count[label] == 1:
            out.append(label)
        else:
            seen[label] = seen.get(label, 0) + 1
            out.append(f"{label}#{seen[label]}")
    return tuple(out)


class Ruleset:
    """Compiled rules: build with ``interpreter.load(path)``; start games with ``new_game``.

    Built by building/builder.py (``Builder.build``), then frozen: every field below is set once
    there (or by a mechanic's section, or by ``freeze``) and never changes."""

    # --- what the ruleset is
    name: str                      # the `game:` name
    title: str                     # the `title:`, else the name
    description: str               # the `description:` text
    path: str                      # the file it was loaded from
    variant: str | None            # the variant applied, if any
    hash: str                      # content hash of the checked data (logs name the game by it)
    data: dict                     # the checked data after variants (explain, diff and the viewer read it)
    min_players: int               # the fewest seats a game may have
    max_players: int               # the most seats a game may have
    teams_decl: dict | None        # the `teams:` declaration
    params_decl: dict              # each parameter's checked declaration
    asymmetric: bool               # seats are not meant to be alike (play/simulation/anomalies.py skips seat checks)
    auto_forced: bool              # a decision with one option is taken without asking
    shows: bool                    # a show effect makes cards known to one seat: games keep knowledge
    shuffled: frozenset            # the zones a shuffle effect may name (None among them: one may name any)
    warnings: list                 # what validate reports beside errors
    # --- components and where they are
    cards: Any                     # the card table (building/components.py CardTable)
    card_labels: tuple             # each card id's label
    unique_labels: bool            # no two cards share a label (a label names one card)
    widest_label: int              # characters of the longest card label (labels.fit: lists of cards not measured)
    card_keys: tuple               # each card id's name in an observation: its label, or LABEL#k (the
                                   # k-th card of that label) where labels repeat (card_keys())
    attr_tables: dict              # attribute name -> its value for each card id
    zone_decl: dict                # each zone's declaration
    visibility: Visibility         # who sees each zone, counter and variable (engine/visibility.py)
    zone_owner: dict               # zone -> "none", "player", "team" or "card"
    zone_shapes: tuple             # (zone, 0 one list | 1 a list per player or team | 2 a dict per card)
    zone_holds: dict               # zone -> the components it can hold (determinization deals by it)
    zone_holds_declared: frozenset # zones whose `holds:` is declared, not inferred
    sorted_zones: tuple            # zones kept in card order
    zone_max: dict                 # zone -> its max: f(S, None, None), the most cards an instance holds, evaluated
                                   # as a game starts (engine/capacity.py starts: a state's S.cap)
    zone_max_locs: dict            # zone -> where its max: is written
    card_zones: tuple              # zones owned by each card (copied at clone, not on write)
    shown_labels: dict             # a long public zone's labels while its cards stay (engine/observation.py)
    board: dict                    # a board's positions and neighbours, for viewers (mechanics/board.py)
    view: dict                     # layout hints for the web viewer
    # --- counters and variables
    counter_decl: dict             # each counter's declaration
    counter_owner: dict            # counter -> "none", "player", "team" or "card"
    counter_start: dict            # counter -> its compiled start value
    owned_counters: tuple          # counters held per player, team or card
    shared_on_clone: frozenset     # zones and counters a clone shares until written (State.own)
    var_decl: dict                 # each variable's declaration
    var_start: dict                # variable -> its compiled start value
    # --- compiled behaviour
    names: Any                     # the resolved names (expr/names.py Names)
    namespace: dict                # what generated code reads by name
    effect_names: list             # the declared effects
    setup: Callable                # the `setup:` effects, run by new_game
    setup_quiet: bool              # the setup cannot change what end conditions and when-triggers read (building/watch.py)
    steps: tuple                   # every step, by index (frames name their step by it)
    root: int                      # the index of the flow's outermost step
    end_checks: list               # the compiled `end_when:` conditions
    end_locs: dict                 # id(condition) -> its location, for runtime errors
    triggers: Any                  # the triggers (mechanics/triggers.py)
    watched_vars: frozenset        # variables that when-triggers and end conditions read
    invariants: tuple              # (condition, its text, its location): checked by validate --playouts
    requires: tuple                # the requirements a game must meet to start (engine/requires.py Requirement)
    scoring: Any                   # scores, winners, breakdown (mechanics/scoring.py)
    heuristic: Callable | None     # a position's worth for the search agents, if declared
    max_steps: int                 # the game's step budget
    probes: Any                    # coverage probes when built for `rulebook coverage`, else None
    runs: tuple                    # each step's compiled run function (building/flowgen.py)
    resolves: tuple                # each step's resolve function
    advance: Callable              # the game loop: runs until a decision or the end
    apply_index: Callable          # a decision taken, then the loop (building/decision.py): each State's own
    flow_source: str               # the generated source of the flow
    module_source: str             # all the ruleset's generated code, as it runs (building/listing.py)
    effect_lines: Any              # the effect items its effect code's lines come from (engine/effectlines.py)
    loop: tuple                    # what the reference game loop reads at every call (set by freeze)
    layout: Any                    # where a state keeps each table, its State class (engine/layout.py; freeze)
    _starts: dict                  # a game's start before its setup, by new_game's arguments (engine/start.py)
    start_values: dict             # what determinizations read of the values a seat cannot see: the last game's start, what each seat misses (engine/beliefs.py), the zones a shuffle may name and the invariants each seat's worlds are asked (engine/knowledge.py)
    stacking: tuple                # the steps whose frame may be the stack's bottom, and which may sit over which (engine/frames.py)
    _calm: bool                    # a kept start's games need no check before their first step (_start; freeze)

    def __setattr__(self, key, value):
        if getattr(self, "_frozen", False):
            raise AttributeError("a Ruleset is immutable once compiled")
        object.__setattr__(self, key, value)

    def freeze(self):
        # what the reference game loop reads at every call, in one tuple (building/flowgen.py, plain)
        checks = bool(self.triggers.when) or bool(self.end_checks)   # a game may have neither
        charges = tuple(1 + s.charge for s in self.steps)
        object.__setattr__(self, "loop", (self.max_steps, self.end_checks, self.auto_forced, checks, charges))
        object.__setattr__(self, "layout", Layout(State, self))
        object.__setattr__(self, "_starts", {})
        object.__setattr__(self, "stacking", stacking(self.steps, self.root))
        object.__setattr__(self, "start_values", {})
        # the checks before a game's first step say what they say of its start where its setup
        # cannot change what they read and no when-trigger keeps what it saw: a start kept only
        # where they say no (_start), its games start with no check
        object.__setattr__(self, "_calm", bool(self.end_checks) and not self.triggers.when and self.setup_quiet)
        if "apply_index" in self.__dict__:   # (each state takes its decisions by its ruleset's: no call between)
            self.layout.cls.apply_index = self.apply_index
        object.__setattr__(self, "_frozen", True)
        return self

    def __copy__(self):
        """A copy (a test runs one with other functions: its reference's loop) keeps no start of
        this ruleset's: each state it starts is its own (new_game)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.__dict__["_starts"] = {}
        return new

    # ------------------------------------------------------------------ games
    def new_game(self, players: int, seed: int = 0, options: dict | None = None, record: bool | list = False,
                 knowledge: bool = False) -> State:
        """A new game for ``players`` seats. ``options``: {"params": {NAME: VALUE}, ...}.
        ``record``: start with ``S.ev = Events(rules)`` (or this list, given) so the events of the
        setup are collected too.
        ``knowledge``: keep what each seat knows of the hidden cards' places, for
        ``State.determinize`` (engine/knowledge.py)."""
        start = None
        if type(players) is int:   # (a start found: the players and the options were checked once)
            if options is None or options.__class__ is dict and not options:
                start = self._starts.get(players)
            elif options.__class__ is dict:
                start = self._starts.get(given_key(players, options))
        if start is None or type(seed) is not int or not -MAX_INT <= seed <= MAX_INT:
            start = self._start(players, seed, options)   # (the arguments checked: any error raised)
            seed = int(seed)
        if start.__class__ is tuple:   # (no start kept for these: the state filled by its own)
            params, options, members, cap = start   # (the game's own copies: the parameters may be the ruleset's)
            S, fill = blank(self, players, seed, own_values(params), own_values(options), members, cap), self._fill
            changed = True
        else:
            S, fill = self.layout.fresh(start, seed), None
            changed = not self._calm
        S.rng = rng.seed_state(seed)
        if record is True:
            S.ev = Events(self)
        elif isinstance(record, list):
            S.ev = record
        if knowledge or self.shows:
            S.kn = {}
        engine.run_setup(S, fill, self.setup)
        S.stack.append(self.steps[self.root].enter(S))
        self.advance(S, changed)
        return S

    def _start(self, players, seed, options):
        """The arguments of new_game checked, and the state a game of them starts from before its
        setup (blank() and _fill(): its tables at their start values), which depends on the
        players, the parameters and the options alone: kept (``_starts``, a few by ruleset) and
        copied for each game (``layout.fresh``); or, when a start is not kept (``KEEP_STARTS``
        off, a coverage build, values given of no plain type, a start an end condition may end
        where its games would start unchecked: ``_calm``), the arguments of blank() for
        new_game to fill a state of its own."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise UsageError(f"the number of players is a whole number, not {players!r}")
        if players not in self.player_counts:
            variant = f" (variant {self.variant})" if self.variant else ""
            raise UsageError(f"{self.name}{variant} is for {self.players_text()} players, not {players}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise UsageError(f"a seed is a whole number, not {seed!r}")
        if abs(seed) > MAX_INT:   # (a log and a saved state hold it as a 64-bit number)
            raise UsageError(f"a seed is a whole number within 64 bits (-2^63 .. 2^63 - 1), not {seed}")
        if options is not None and not isinstance(options, dict):
            raise UsageError(f"game options are a mapping such as {{'params': {{...}}}}, not {options!r}")
        given, options = options, dict(options or {})
        unknown = sorted(set(options) - {"params", *GAME_OPTIONS})
        if unknown:
            raise UsageError(f"unknown game option '{unknown[0]}' (options: {', '.join(['params', *GAME_OPTIONS])})")
        if not isinstance(options.get("params") or {}, dict):
            raise UsageError(f"options['params'] maps parameter names to values, not {options['params']!r}")
        params = self.resolve_params(players, options.pop("params", None) or {})
        for name, check in GAME_OPTIONS.items():
            if options.get(name) is not None:
                options[name] = check(self, players, options[name])
        key: Any = players   # (no options given: the parameters are the ruleset's own values)
        if given:   # (the values the caller gave copied: the start kept is its own)
            copies = plain_copy(params), plain_copy(options)
            key = UNSET if UNSET in copies else repr((players, *copies))
        start = self._starts.get(key)
        if start is None:
            members = self.team_members(players)
            requirements.check(self, players, params, options, members)   # (a start kept: met)
            cap = None   # (each zone's max a whole number, its start cards within it: their values kept)
            if self.zone_max:
                cap = capacity.starts(self, requirements.Seats(self, players, params, options, members))
            if key is UNSET or self.probes is not None or not KEEP_STARTS:   # (coverage counts each game's evaluations)
                return params, options, members, cap
            if given:
                params, options = copies
            start = blank(self, players, 0, params, options, members, cap)
            engine.run_setup(start, self._fill, None)
            if self._calm and not self._ends_not(start):   # (its games each checked as they start)
                return params, options, members, cap
            start.p, start.o = Kept(start.p), Kept(start.o)   # (each game copies them: layout.py fresh)
            self._keep(key, start)
        raw = given_key(players, given) if given else None
        if raw is not None:   # (the same options given again find it at once)
            self._keep(raw, start)
        return start

    def _ends_not(self, start) -> bool:
        """Whether every end condition says no of a start (a runtime error: not known)."""
        try:
            return not any(check(start, None, None) for check in self.end_checks)
        except RUNTIME_ERRORS:
            return False

    def _keep(self, key, start) -> None:
        if len(self._starts) >= 16:   # (a few by ruleset: parameters and options vary)
            self._starts.clear()
        self._starts[key] = start

    def started(self, S) -> State:
        """A state of ``S``'s seats, parameters and options as a game of them starts, before its
        setup runs: its tables at their start values, which no seed changes (engine/beliefs.py
        reads what a seat cannot see there)."""
        T = blank(self, S.n, 0, S.p, S.o, S.members, S.cap)
        self._fill(T)
        return T

    def _fill(self, S):
        at = self.layout.zones
        for name, owner in self.zone_owner.items():
            if owner == "none":   # (each component's cards added in one call, not card by card)
                zone: list = []
                for comp in self.zone_decl[name].get("start") or ():
                    zone.extend(self.cards.by_component[comp])
                setattr(S, at[name], zone)
            elif owner == "card":   # a dict of the cards' non-empty zones (state.py)
                setattr(S, at[name], {})
            else:
                setattr(S, at[name], [[] for _ in range(self._owners(S, owner))])
        reindex(S)   # (each card's zone, where the ruleset records it: a start value may look a card up)
        for name, owner in self.counter_owner.items():
            fn = self.counter_start[name]
            try:   # (a whole number, not none, as a set of the counter checks it: mechanics/counters.py whole)
                start = as_whole(name, fn(S, None, None))
            except RUNTIME_ERRORS as e:
                tag_origin(e, f"the start of counter '{name}'", fn.loc)
                raise
            S.set_counter(name, start if owner == "none" else [start] * self._owners(S, owner))
        for name, fn in self.var_start.items():   # (the others none, as blank() leaves them)
            try:   # (within a variable's bounds, a list its own copy, not a zone's list, as a set stores it:
                # expr/runtime.py _stored; a value the load cannot prove of the declared type checked: declarations.py)
                value = _STORED(fn(S, None, None), list_bound(len(self.card_labels)), True)
                S.set_var(name, value if not fn.typed else as_declared(S, name, value))
            except RUNTIME_ERRORS as e:
                tag_origin(e, f"the start of variable '{name}'", fn.loc)
                raise

    @property
    def player_counts(self) -> list[int]:
        """The player counts a game can have: min to max, and only those with teams declared
        when the ruleset has teams (a teams variant for 4 or 6 players refuses 5)."""
        return playable_counts(self.min_players, self.max_players, self.teams_decl)

    def players_text(self) -> str:
        """'3 to 6', '2', or '4 or 6': the player counts in words."""
        counts = self.player_counts
        if len(counts) == 1:
            return str(counts[0])
        if counts == list(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]} to {counts[-1]}"
        return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"

    def _owners(self, S, owner: str) -> int:
        """How many instances a zone or counter has: one per player, team or card."""
        return {"player": S.n, "team": len(S.members), "card": len(self.card_labels)}[owner]

    def resolve_params(self, players: int, overrides: dict) -> dict:
        """Each parameter's value in a game of ``players``: its own (engine/params.py), or the
        override given for it, checked."""
        out = {name: value_for(name, spec, players) for name, spec in self.params_decl.items()}
        for name, value in overrides.items():
            if name not in out:
                from ..errors import did_you_mean
                close = did_you_mean(name, out)
                raise UsageError(f"unknown parameter '{name}'" + (f" (did you mean '{close}'?)" if close else ""))
            out[name] = check_param(name, value, self.params_decl[name], out[name], self.names.params.get(name))
            within(name, out[name], self.names.param_sizes.get(name), self.names.param_totals.get(name))
        return out

    def team_members(self, players: int):
        decl = self.teams_decl
        if not decl:
            return [[p] for p in range(players)]
        table = decl.get("by_players", decl) if isinstance(decl, dict) else {str(players): decl}
        teams = table.get(str(players))
        if teams is None:
            raise UsageError(f"{self.name}: no teams are declared for {players} players "
                             f"(declared for {', '.join(sorted(table))})")
        return teams

    def state_from_json(self, text: str) -> State:
        """A state saved with ``State.to_json()`` by this ruleset (same name and content hash),
        every field checked (engine/saved.py); GameError for anything else."""
        from .saved import state_from_json
        return state_from_json(self, text)

    def keep_sorted(self, S) -> None:
        """Put every zone declared ``sorted: true`` back in card order (after a patch or a load:
        the engine's own moves keep them so)."""
        for name in self.sorted_zones:
            zone = S.own(name)
            if self.zone_owner[name] == "none":
                zone.sort()
            else:
                for part in (zone.values() if self.zone_owner[name] == "card" else zone):
                    part.sort()

    def home_zone(self, card: int):
        """The shared zone whose start contents include this card, if any."""
        kind = self.cards.kinds[card]
        for name, decl in self.zone_decl.items():
            if kind in ((decl or {}).get("start") or []):
                return name
        return None

    def card_id(self, label: str) -> int:
        """The first card with this label (KeyError if none)."""
        return self.card_labels.index(label) if label in self.card_labels else self._no_card(label)

    def _no_card(self, label):
        raise KeyError(f"no card labelled {label!r}")

    # ------------------------------------------------------------------ labels
    def label(self, value, typ) -> str:
        if value is None:   # a list of options may hold none ([first(pile)] of an empty pile)
            return "none"
        if typ == CARD:
            return self.card_labels[value]
        if typ in (PLAYER, TEAM):
            return f"{'team' if typ == TEAM else 'p'}{value}" if value is not None else "none"
        if typ == BOOL:
            return "yes" if value else "no"
        if is_list(typ) and isinstance(value, (list, tuple)):   # its elements' labels joined with +, [] when none
            of = elem(typ)   # (once, not per element)
            return "+".join([self.label(v, of) for v in value]) if value else "[]"
        return str(value)

    def labels(self, options, typ) -> list[str]:
        """The labels of options of type ``typ`` (lists: in one join each, engine/labels.py)."""
        if is_list(typ):
            return labels.labels(self, options, typ)
        return [self.label(o, typ) for o in options]

    def fit(self, options, typ):
        """``options``, their labels measured within bounds (engine/labels.py)."""
        return labels.fit(self, options, typ)

    def distinct(self, options, typ):
        """Options with the same label are one option (identical cards are interchangeable); two
        lists whose elements differ but share a label are a runtime error (engine/labels.py)."""
        if typ == CARD:
            return self.distinct_cards(options)
        if is_list(typ):
            return labels.distinct(self, options, typ)
        if typ in _BY_VALUE:   # their labels are one-to-one with their values: no labelling needed
            out = list(dict.fromkeys(options))
            if typ != STR or None not in out or "none" not in out:   # (none and the text "none" share a label)
                return out
        elif typ == ANY:   # (texts alone are their own labels, as a str's: one loop, no builtin's call)
            for o in options:
                if o.__class__ is not str:
                    break
            else:
                return list(dict.fromkeys(options))
        seen, out = set(), []
        for o in options:
            key = self.label(o, typ)
            if key not in seen:
                seen.add(key)
                out.append(o)
        return out

    def distinct_cards(self, cards):
        if self.unique_labels:
            return list(dict.fromkeys(cards))   # (a list may name a card twice: hand + hand)
        labels = self.card_labels
        seen, out = set(), []
        for c in cards:
            if labels[c] not in seen:
                seen.add(labels[c])
                out.append(c)
        return out

    def __repr__(self):
        return f"<Ruleset {self.name}{' variant ' + self.variant if self.variant else ''}>"


# option types whose values (whole numbers, strings, players, teams, yes/no, none) have distinct labels
_BY_VALUE = frozenset({INT, STR, PLAYER, TEAM, BOOL})
