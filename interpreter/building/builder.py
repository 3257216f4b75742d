"""Compile checked ruleset data into a Ruleset: resolve every name, compile every expression,
effect and step once. All errors are collected (not just the first) with their locations.

The Builder is also the context that step kinds and effects compile against: it offers
``expr()``, ``effects()``, ``steps()``, ``error()`` and the declarations.
"""
from __future__ import annotations

from bisect import insort
from typing import Any

from ..engine.knowledge import know
from ..engine.loop import over_budget
from ..engine.param_bounds import param_size, param_total
from ..engine.params import reachable_counts
from ..engine.rng import below, shuffle
from ..engine.visibility import Visibility
from ..errors import Diagnostic, RulesetError, key_hint
from ..expr import Compiler, ExprError, Names
from ..expr.access import NOTHING
from ..expr.compiler import ExprFn, ZoneFn, base_namespace
from ..expr.names import RECORD, VIEWS
from ..expr.limits import MAX_STEP_BUDGET, STEP_WORK_UNIT
from ..expr.parser import as_expr, parse
from ..expr.runtime import attribute_index, list_bound
from ..expr.types import ANY, BOOL, NUM
from ..expr.walks import untyped_work
from ..loading.kept import compiled
from ..mechanics import STEP_KINDS, Sequence, StepScope
from ..mechanics.base import SECTIONS, Effects
from ..mechanics.contract import LIMITS_KEYS, key_named
from ..mechanics.counters import counter_starts
from ..mechanics.cards import take_out
from .view_hints import view_hints
from ..mechanics.flow import Conditional
from ..mechanics.scoring import Scoring
from ..mechanics.triggers import Triggers
from .analysis import check_flow
from .bounded import HEAVIEST, Bounded, order
from .capped import start_warnings, zone_caps
from .invariant_cost import built_invariants
from .components import build_cards
from .coverage import Probes, instrument_steps
from .declarations import Declarations
from .defines import Defines
from .effects import EFFECT_KINDS, EffectCompiler
from .emitter import Emitter
from .elements import Elements
from .declared import parameter
from .flowmodule import compile_flow
from .gameloop import checks_charge
from .requirements import requirements
from .rulelines import by_rule
from .seats import Seats
from .targets import zone_named
from .watch import EVERYTHING, Quiet, reads_seat, watched

DEFAULT_MAX_STEPS = key_named(LIMITS_KEYS, "steps").default   # about 5 s of the costliest steps; the largest seed game uses ~48,000
MAX_CARD_COUNTERS = 2_000_000   # values of counters owned by cards, in one game


def _dummy(S, me=None, L=None, *rest):
    return None


class Builder(Declarations, Bounded, Elements, Defines, Seats):
    def __init__(self, loaded, coverage: bool = False, record: dict | None = None, deciding=None, views: tuple = ()):
        self.loaded = loaded
        self.data = loaded.data
        self.smap = loaded.smap
        self.diags: list[Diagnostic] = []
        self.names = Names(namespace=base_namespace())
        self.names.recorded = record or {}   # (building/record.py: deciding(names), whether to build again)
        self.names.views = views
        self.deciding = deciding
        self.names.namespace.update({"_below": below, "_shuffle": shuffle, "_dummy": [0], "_insort": insort,
                                     "_take_out": take_out})
        self.compiler = Compiler(self.names)
        self.triggers = Triggers()
        self.names.namespace["_triggers"] = self.triggers
        self.names.namespace["_over_budget"] = over_budget
        self.names.namespace["_know"] = know
        self.fx = EffectCompiler(self)
        # coverage counters compiled into the code (building/coverage.py), or None: none at all
        self.probes = Probes(self.names.namespace, self.smap) if coverage else None
        self.step_list: list = []
        self.zone_decl: dict = {}
        self.counter_decl: dict = {}
        self.var_decl: dict = {}
        self.var_writers: list = []   # (variable, path) of each declaration, in order (declare_var)
        self.any_stored: dict = {}    # variable of type any -> the type of what was stored in it unchecked (declare_var)
        self._started: dict = {}   # component -> the zone its cards start in
        self._cycles: set = set()  # cycles of defines already reported
        self._once: set = set()    # messages of whole-ruleset limits already reported
        self._inner_spent = (0, 0, 0)   # compiled cost of the steps inside the one being built, of their calls, their passes (_weighed)
        self.start_defines()       # (building/defines.py)
        self.missing: set = set()  # paths of required keys reported missing (no second error there)
        self.has_end_game = False  # set when an end_game effect is compiled
        self.shows, self.shuffled = False, set[str | None]()   # a show effect compiled (mechanics/show.py); zones a shuffle names
        self.zone_flows: set = set()   # (zone, zone) pairs some move may take cards along
        self.zone_caps: dict = {}   # zone -> its max: a number, or its expression's text (building/capped.py)

    # ------------------------------------------------------------------ diagnostics
    def error(self, message, path, code="ruleset", hint=None, key=False, severity="error", offset=None, span=1):
        path = tuple(path)
        if offset is not None:
            loc = self.smap.expr_loc(path, offset)
        else:
            loc = self.smap.key_loc(path) if key else self.smap.loc(path)
        if severity == "error":
            self.count_error(loc)
        self.diags.append(Diagnostic(message, loc, code, severity, hint, span))

    def warn(self, message, path, code="unused"):
        self.error(message, path, code, severity="warning", key=True, span=len(str(tuple(path)[-1])) if path else 1)

    def known(self, kind: str, name, pool, path) -> bool:
        """Whether ``name`` is a declared ``kind`` (a counter, a zone) of ``pool``; if not, says
        why (not a name at all, or an unknown one with a did-you-mean)."""
        if not isinstance(name, str):
            self.error(f"expected the name of a {kind}, got {name!r:.40}", path, "type")
            return False
        if name not in pool:
            self.unknown(kind, name, pool, path)
            return False
        return True

    def unknown(self, kind, name, candidates, path, key=False, offset=None):
        close = self.compiler.suggest(str(name), candidates)
        if kind == "key":   # a mapping's few keys: say which are accepted
            hint = key_hint(close, list(candidates), self.smap.bare_key(path))
        else:
            hint = f"did you mean '{close}'?" if close else None
        self.error(f"unknown {kind} '{name}'", path, "unknown-name" if kind != "key" else "unknown-key",
                   hint, key=key, offset=offset, span=len(str(name)))

    def expr_error(self, e: ExprError, path):
        cycle = getattr(e, "cycle", None)
        if cycle is not None:          # one report per cycle of defines, wherever it is met
            if cycle in self._cycles:
                return
            self._cycles.add(cycle)
        if self.told_already(e):   # a define's error (building/defines.py)
            return
        if getattr(e, "once", False):   # a whole-ruleset limit: reported where it was first met
            if e.message in self._once:
                return
            self._once.add(e.message)
        self.error(e.message, path, e.code, e.hint, offset=e.offset, span=getattr(e, "span", 1))

    def check_keys(self, spec, allowed, path, required=()):
        if not isinstance(spec, dict):
            return
        for k in spec:
            if k in allowed:
                continue
            if k in STEP_KINDS or k in EFFECT_KINDS or k in self.fx.named:
                # two steps (or a step and an effect) written in one list item
                self.error(f"unknown key '{k}': '{k}' is a step or effect of its own", (*path, k), "unknown-key",
                           f"one step or effect per list item: start a new item with '- {k}: ...'",
                           key=True, span=len(str(k)))
                continue
            self.unknown("key", k, allowed, (*path, k), key=True)
        for k in required:
            if k not in spec:
                self.missing.add((*tuple(path), k))
                self.error(f"missing required key '{k}'", path, "missing-key", key=True)

    def raw_at(self, path):
        node = self.data
        for k in path:
            try:
                node = node[k]
            except (KeyError, IndexError, TypeError):
                return None
        return node

    # ------------------------------------------------------------------ expressions
    def expr(self, value, path, locals=None, has_me=True, expect=None, tree=None, by_name=False) -> ExprFn:
        """The compiled function ``f(S, me, L)`` of an expression, carrying ``.source`` and
        ``.type`` (a plain function, not a wrapper: it is called in the game loop). ``tree``: a
        part of the expression at ``path``, already parsed (errors located in the whole text).
        ``by_name``: only generated code calls it, its locals its parameters (``f(S, me, P_x)``,
        ``.params`` naming them), as a hook's (building/effects.py)."""
        text = as_expr(value)
        self.grow_text(path, text)
        outer, spent = self.compiler.bound, self.compiler.spent
        if by_name:
            self.compiler.bound = {k: parameter(k, i) for i, k in enumerate(locals or {})}
        try:
            c = self.compiler.compile(text, locals, has_me, expect, tree)
            fn: Any = c.fn   # (a plain function: given the attributes of an ExprFn here)
            fn.source, fn.type, fn.distinct, fn.access = c.source, c.type, c.distinct, c.access
            fn.chars, fn.elements, fn.known, fn.proven = c.chars, c.elements, c.known, c.proven   # (what a local's binder, a store checks)
            fn.tree = tree if tree is not None else parse(text)   # what analyses read (bare_name...)
            fn.loc = self.smap.loc(tuple(path))   # (building/listing.py names the rule of each function)
            fn.work = self.compiler.spent - spent   # its worst-case operations (a check's charge: building/gameloop.py)
            self.weigh(fn.work, path, c.untyped)
            by_rule(fn, fn.loc)
            if by_name:
                fn.params = tuple(locals or ())
        except ExprError as e:
            self.weigh(self.compiler.spent - spent, path, untyped_work(self.compiler))   # (its step's warning says why)
            self.expr_error(e, path)
            fn = eval("lambda S, me=None, *L: None")  # noqa: S307 - a constant stand-in
            fn.source, fn.type, fn.distinct, fn.tree, fn.access, fn.work = "None", ANY, False, None, NOTHING, 0
            fn.chars, fn.elements, fn.known, fn.proven = 0, (0, 0, 0, 0), False, ANY
        finally:
            self.compiler.bound = outer
        return fn

    def zone_ref(self, value, path, locals=None) -> ZoneFn:
        """``f(S, me, L)`` giving the list of a zone: NAME, NAME[owner] or owner.NAME (a card's
        zone made if missing); ``f.zone`` is its name. The list is the state's own only after
        ``S.own(f.zone)`` (copy on write): a step writing into it asks first."""
        none: Any = lambda S, me, L: []   # noqa: E731 - (a function given a .zone: a ZoneFn)
        none.zone = None
        if value is None and tuple(path) in self.missing:
            return none
        outer, self.compiler.writes = self.compiler.writes, set()   # (plain: the step owns it)
        try:
            src, name = self.fx.target(as_expr(value), path, dict(locals or {}), True, "zone")
        finally:
            self.compiler.writes = outer
        if name is None:
            return none
        fn = eval(compiled("lambda S, me, L: " + src, f"<zone {as_expr(value)[:60]}>", "eval"),
                  self.names.namespace)  # noqa: S307 - generated source
        fn.zone = name
        return fn

    def zone_at_fn(self, value, path, locals=None):
        """``f(S, me, L) -> (list, owner)`` for a zone reference: its list (as zone_ref's) and its
        owner (a seat, a team, a card; None when shared), the owner evaluated once and the list
        the owner's (Targets.target_owner ``em``). Its errors are reported by ``zone_ref``."""
        none: Any = lambda S, me, L: ([], None)   # noqa: E731
        if value is None and tuple(path) in self.missing:
            return none
        before, em = len(self.diags), Emitter()
        outer, self.compiler.writes = self.compiler.writes, set()   # (as zone_ref's: the step owns it)
        try:
            src, name, owner = self.fx.target_owner(as_expr(value), path, dict(locals or {}), True, "zone",
                                                    any_owner=True, em=em)
        finally:
            self.compiler.writes = outer
        del self.diags[before:]
        if name is None:
            return none
        made: dict = {}
        exec(compiled("\n".join(["def _at(S, me, L):", *em.lines, f"    return {src}, {owner[0] if owner else None}"]),
                      f"<zone {as_expr(value)[:60]}>", "exec"), self.names.namespace, made)  # noqa: S102 - generated source
        return made["_at"]

    zone_name = staticmethod(zone_named)   # (the zone a reference names, as zone_ref finds it)

    def effects(self, items, path, locals=None, has_me=True, first=0, by_name=False):
        """``by_name``: a hook that only generated code calls, its locals its parameters (EffectCompiler.compile)."""
        if not items:
            return None
        return self.fx.compile(items, path, locals, has_me, first=first, by_name=by_name)

    # ------------------------------------------------------------------ steps
    def add(self, step, path):
        step.index = len(self.step_list)
        step.loc = self.smap.key_loc(tuple(path))
        step.path = tuple(path)
        self.step_list.append(step)
        return step

    def steps(self, items, path, scope: StepScope) -> Sequence:
        children = []
        if not isinstance(items, list):
            self.error("expected a list of steps", path, "step")
            items = []
        for i, item in enumerate(items):
            ipath = (*path, i)
            kinds = [k for k in item if k in STEP_KINDS] if isinstance(item, dict) else []
            if len(kinds) > 1:
                self.error(f"one step per list item, got {', '.join(kinds)}", ipath, "step")
                continue
            if kinds:
                self.grow(ipath)
                kind = kinds[0]
                rest = {k: v for k, v in item.items() if k != kind}
                build = STEP_KINDS[kind].build
                step = self._weighed(build, self, item[kind], rest, ipath, scope)
                children.append(self.add(step, (*ipath, kind)))
                continue
            if holds_steps(item):   # an if whose then/else holds steps: a step of its own
                self.grow(ipath)
                step = self._weighed(Conditional.from_item, self, item, ipath, scope)
                children.append(self.add(step, (*ipath, "if")))
                continue
            key = item if isinstance(item, str) else (next(iter(item)) if isinstance(item, dict) and item else None)
            if key is not None and key not in EFFECT_KINDS and key not in self.fx.named and key not in ("if", "switch"):
                self.unknown("step or effect", key, [*STEP_KINDS, *EFFECT_KINDS, *self.fx.named], ipath,
                             key=isinstance(item, dict))
                continue
            step = self._weighed(self._effects_step, item, path, scope, i)
            if step is not None:
                children.append(self.add(step, ipath))
        return self.add(Sequence(children), path)

    def _effects_step(self, item, path, scope, i):
        fn = self.fx.compile([item], path, None, scope.has_me, first=i)
        if fn is not None and reads_seat(getattr(fn, "access", NOTHING)):
            self.compiler.access.me()   # (its list's own record is apart: building/seats.py)
        return None if fn is None else Effects(fn, scope.me_var)

    def _weighed(self, build, *args):
        """Build a step (``build(*args)``) and set its ``work``: the worst-case operations of the expressions it
        evaluates itself (the steps inside it have their own), which it counts against the
        game's budget each time it runs (engine/loop.py); and ``pass_steps``, what its for_each passes may count."""
        spent, called, inner, heaviest = self.compiler.spent, self.compiler.called, self._inner_spent, self.heaviest
        self._inner_spent, self.heaviest, passes = (0, 0, 0), HEAVIEST, self.pass_steps
        step = build(*args)
        total, calls, passed = self.compiler.spent - spent, self.compiler.called - called, self.pass_steps - passes
        if step is not None:   # (called: the part of its work its calls of declared effects make; bounded.py)
            step.work, step.called = max(0, total - self._inner_spent[0]), max(0, calls - self._inner_spent[1])
            step.charge, step.heaviest = step.work // STEP_WORK_UNIT, self.heaviest
            step.pass_steps = max(0, passed - self._inner_spent[2])
        self._inner_spent, self.heaviest = (inner[0] + total, inner[1] + calls, inner[2] + passed), heaviest
        return step

    # ------------------------------------------------------------------ the whole ruleset
    def build(self):
        from ..engine.ruleset import Ruleset, card_keys
        d = self.data
        r = Ruleset()
        r.name = str(d.get("game", "game"))
        r.title = str(d.get("title", r.name))
        r.description = d.get("description", "")
        r.path, r.variant, r.hash = self.loaded.path, self.loaded.variant, self.loaded.hash
        r.data = d
        limits = d.get("limits") or {}   # (before the effects: their loops count against it, effects.count_step)
        self.max_steps = min(int(limits.get("steps", DEFAULT_MAX_STEPS)), MAX_STEP_BUDGET)   # (the schema says so)
        players = d.get("players") or {}
        r.min_players, r.max_players = int(players.get("min", 1)), int(players.get("max", players.get("min", 1)))
        if r.min_players > r.max_players:
            self.error(f"players: min ({r.min_players}) is more than max ({r.max_players})", ("players", "min"),
                       "players")
        r.teams_decl = d.get("teams")
        self.check_teams(r.teams_decl, r.min_players, r.max_players)
        r.params_decl = self.params(d.get("params") or {}, r.player_counts,
                                    None if r.variant else reachable_counts(d))
        if not r.variant:
            self.variant_params(d)
        cards, tables, indexes = self.card_tables(d.get("components") or {}, self.error)
        r.cards, r.card_labels = cards, tuple(cards.labels)
        r.widest_label = self.widest_label = max(map(len, cards.labels), default=0)   # (engine/labels.py)
        r.unique_labels = self.unique_labels = len(set(cards.labels)) == len(cards.labels)
        r.card_keys = card_keys(r.card_labels)
        for attr, values in tables.items():
            self.names.namespace["A_" + attr] = values
            self.names.namespace["I_" + attr] = indexes[attr]
        self.names.attrs = dict(cards.attr_types)
        self.names.attr_chars[" label"] = max(map(len, cards.labels), default=0)   # (text() of a card: texts.py)
        self.names.max_list = max(len(cards), r.max_players, 1)
        # the most elements a list (or map) parameter holds, in each and in all, and characters of strings, as its
        # expressions' cost bounds assume; a value given to a game holding more is refused (Ruleset.resolve_params)
        self.names.param_sizes = {name: param_size(name, spec, r.player_counts, max(self.names.max_list, PARAM_LIST_FLOOR))
                                  for name, spec in r.params_decl.items()}
        self.names.param_totals = {name: param_total(name, spec, r.player_counts, self.names.param_sizes[name],
                                                     self.names.params.get(name, "any")) for name, spec in r.params_decl.items()}
        self.names.namespace["_LIST_BOUND"] = list_bound(len(cards))   # what a list variable may hold
        self.names.min_players, self.names.max_players = r.min_players, max(r.max_players, 1)
        r.attr_tables = tables
        for key, section in SECTIONS.items():   # top-level keys owned by mechanic modules
            if key in d:
                section(self, d[key], (key,), r)
        self.declare_zones(d.get("zones") or {}, r)
        self.declare_counters(d.get("counters") or {}, r)
        self.declare_vars(d.get("vars") or {})
        self.check_defines(d.get("define") or {})
        zone_caps(self, r)   # each zone's max: (before any expression reads a zone: its length bounded)
        self.triggers.declare_zones(d.get("triggers"))
        for name, spec in (d.get("effects") or {}).items():
            if name in EFFECT_KINDS or name in STEP_KINDS:
                self.error(f"'{name}' is a built-in kind: choose another name", ("effects", name), "duplicate",
                           key=True)
                continue
            if not name.isidentifier():
                self.error(f"'{name}' is not a valid effect name: use letters, digits and _", ("effects", name),
                           "name", key=True)
                continue
            self.fx.declare(name, spec, ("effects", name))
        for name in list(self.fx.named):
            self.fx.compile_named(name)
        self.triggers.build(self, d.get("triggers"), len(cards))
        r.triggers = self.triggers
        r.counter_start = counter_starts(self, self.counter_decl)
        r.var_start = self.var_starts()
        r.setup = self.effects(d.get("setup"), ("setup",), has_me=False)
        r.setup_loc = self.smap.key_loc(("setup",))   # (where a runtime error of setup is reported)
        root = self.steps(d.get("flow") or [], ("flow",), StepScope(None))
        r.root = root.index
        r.end_checks = [self.expr(c, ("end_when", i), has_me=False, expect=BOOL)
                        for i, c in enumerate(d.get("end_when") or [])]
        r.end_locs = {id(c): self.smap.loc(("end_when", i)) for i, c in enumerate(r.end_checks)}
        conditions = ([getattr(c, "access", NOTHING) for c in r.end_checks]
                      + [getattr(w[1], "access", NOTHING) for w in self.triggers.when])
        # the variables that when-triggers and end conditions read: setting another variable
        # cannot change what they say (steps that only set one may report UNCHANGED)
        names = watched(conditions)
        r.watched_vars = EVERYTHING if names is None else frozenset(v for k, v in names if k == "v")
        # steps and effects that cannot change what those conditions read need no check after them
        quiet = Quiet(names, {n: self.names.namespace.get(f"E_{n}") for n in self.fx.named},
                      self.triggers.enter)
        stale = any(quiet.may_change(getattr(w[2], "access", None)) for w in self.triggers.when)   # (a when-trigger's flag left stale by its effects till the next check: none spared)
        for step in self.step_list:
            if isinstance(step, Effects):
                step.quiet, step.noted = quiet.quiet(step.fn), None if stale else quiet.noted(step.fn)
            else:
                step.settle(quiet, r.watched_vars)
        r.setup_quiet = r.setup is None or quiet.quiet(r.setup)   # (engine/ruleset.py: a start's first check)
        r.invariants = built_invariants(self, d.get("invariants"))   # (asked by validate --playouts, of worlds)
        requirements(self, d.get("requires"), r)   # what a game must meet to start (r.requires)
        r.scoring = Scoring.build(self, d.get("scoring") or {})
        # how good a position is for a seat, for the search agents (play/agents/evaluation.py)
        r.heuristic = self.expr(d["heuristic"], ("heuristic",), has_me=True, expect=NUM) if "heuristic" in d else None
        r.max_steps = self.max_steps
        self.weigh_steps(self.step_list, r.max_steps)   # (a step too costly for the budget: refused, or a warning)
        self.weigh_triggers(self.triggers, r.max_steps, r.max_players)   # (and a trigger's do: or costly if:)
        checked = checks_charge(r)   # (what the checks the loop may ask after a step cost: gameloop.py, not a sequence's nor an effect list's)
        for step in self.step_list:
            step.charge += 0 if isinstance(step, (Sequence, Effects)) else checked
        r.auto_forced = bool(d.get("auto_forced", False))
        r.shows, r.shuffled = self.shows, frozenset(self.shuffled)   # (a show: games keep knowledge; engine/knowledge.py)
        r.asymmetric = bool(d.get("asymmetric", False))   # seats not meant to be alike (play/simulation/anomalies.py)
        r.view = view_hints(self, d.get("view") or {}, r)   # layout hints for the web viewer only
        r.steps = tuple(self.step_list)
        r.namespace = self.names.namespace
        r.names = self.names
        # how clone() copies each zone: 0 a list, 1 a list per player or team, 2 a dict per card
        r.zone_shapes = tuple((z, {"none": 0, "card": 2}.get(self.names.zones[z], 1)) for z in self.names.zones)
        r.owned_counters = tuple(c for c, o in self.names.counters.items() if o != "none")
        # copied on write after a clone (engine/state.py): the lists of zones and owned counters
        r.card_zones = tuple(z for z, shape in r.zone_shapes if shape == 2)
        r.shared_on_clone = frozenset((*(z for z, shape in r.zone_shapes if shape != 2), *r.owned_counters,
                                       *((RECORD,) if self.names.recorded else ()),
                                       *((VIEWS,) if self.names.views else ())))   # (engine/layout.py reindex)
        per_card = [c for c, o in self.names.counters.items() if o == "card"]
        if len(per_card) * len(r.card_labels) > MAX_CARD_COUNTERS:   # each game holds them all, each clone copies them
            self.error(f"{len(per_card)} counters owned by each of {len(r.card_labels):,} cards make "
                       f"{len(per_card) * len(r.card_labels):,} values in every game (limit {MAX_CARD_COUNTERS:,})",
                       ("counters", per_card[-1]), "limit", "fewer cards, or fewer counters with owner: card")
        r.zone_owner = dict(self.names.zones)
        r.counter_owner = dict(self.names.counters)
        r.zone_decl, r.counter_decl, r.var_decl = self.zone_decl, self.counter_decl, self.var_decl
        r.visibility = Visibility(r)   # who sees each zone, counter and variable (engine/visibility.py)
        r.shown_labels = {}   # engine/observation.py: a long public zone's labels while its cards stay
        # the components each zone can hold (determinization deals accordingly)
        r.zone_holds = self.zone_holds()
        r.zone_holds_declared = frozenset(z for z, d in self.zone_decl.items() if isinstance(d, dict) and "holds" in d)
        r.sorted_zones = tuple(z for z in self.names.zones if self.zone_sorted(z))
        start_warnings(self, r)   # (a zone's max that refuses a game of the default values)
        r.effect_names = list(self.fx.named)
        if not any(x.severity == "error" for x in self.diags):
            check_flow(self, root, bool(d.get("end_when")) or self.has_end_game)
        self.unused_warnings(d)
        errors = [x for x in self.diags if x.severity == "error"]
        r.warnings = [x for x in self.diags if x.severity == "warning"]
        if errors:
            raise RulesetError(sorted(self.diags, key=order))
        if self.deciding is not None and self.deciding(self.names):
            return r   # (built again, its moves keeping the record the rules read: building/record.py)
        r.probes = self.probes
        if self.probes is not None:
            instrument_steps(self.probes, r.steps, (Sequence, Effects))
            for name, _ in r.scoring.categories:
                self.probes.add("category", f"scoring category {name}", ("scoring", "categories", name))
        self.generate(r)   # (after the probes: they wrap enter())
        return r

    def card_tables(self, components: dict, error) -> tuple:
        """(the card table, each attribute's values by card, each one's index) of ``components:``;
        its problems said to ``error``."""
        cards = build_cards(components, error)
        tables = cards.tables()
        return cards, tables, {attr: attribute_index(values) for attr, values in tables.items()}

    def generate(self, r) -> None:
        """The ruleset's generated flow code (a checker that wants only the diagnostics skips it)."""
        r.runs, r.resolves, r.advance, r.apply_index, r.flow_source, r.module_source = compile_flow(r, lists=self.fx.functions)


def holds_steps(item) -> bool:
    """Whether a flow list's ``if`` item holds steps in its then or else (at any depth of ifs)."""
    if not (isinstance(item, dict) and "if" in item):
        return False
    for key in ("then", "else"):
        body = item.get(key)
        if isinstance(body, list) and any(isinstance(x, dict) and (any(k in STEP_KINDS for k in x) or holds_steps(x))
                                          for x in body):
            return True
    return False


PARAM_LIST_FLOOR = 64   # elements a list parameter may hold whatever the ruleset's size
