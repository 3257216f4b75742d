"""Triggers: when something happens and a condition holds, run effects.

    triggers:
      closing_card:                        # a name, for explain and for variants to override
        on_enter: [hand, market]           # a card entered one of these zones (any owner)
        if: "card.kind == 'closing'"       # optional; locals: card
        do: [{set: {round_ending: true}}]  # me = the zone's owner (a team: its first member),
                                           #      or the acting player for a shared zone
      three_of_a_kind:
        when: "count(built where kind == 'tower') >= 3"   # a condition becoming true
        per_player: true                   # checked for each player (me = that player)
        do: [...]

``on_enter`` fires for every card that any effect or step puts into the zone. ``when``
fires on the rising edge: when the condition holds now and did not at the previous check
(checks run before every step). The previous values are kept in the state, so cloning and
replay stay exact. A trigger's effects may not trigger themselves endlessly: a chain deeper
than MAX_CHAIN is a runtime error.
"""
from __future__ import annotations

from ..engine.invariants import weight
from ..engine.loop import over_budget
from ..engine.sight import reads_public
from ..errors import raised_in, tag_origin
from ..expr.limits import STEP_WORK_UNIT
from ..expr.runtime import ExprRuntimeError
from ..expr.types import BOOL, CARD
from ..expr.names import state_read, table_ref, var_ref, var_write
from ..expr.reuse import global_names
from .contract import TRIGGER_KEYS, key_names, required_names

MAX_CHAIN = 50


class Triggers:
    def __init__(self):
        self.enter: dict[str, list] = {}   # zone -> [(name, cond, fn, per-card table or None)]
        self.live: dict = {}               # zone -> the cards some hook may fire for (None: any card)
        self.when: list = []               # [(name, cond, fn, per_player)]
        self.origins: dict = {}            # id(condition or effects) -> (trigger, its location)
        # (path, do: or if:, per player) of each part counted when it fires or is asked (bounded.py weigh_triggers)
        self.parts: list = []
        self.depth = 0
        self.hidden_when: tuple | None = None   # (the ruleset, the when-triggers reading what not every seat sees)

    def declare_zones(self, spec: dict) -> None:
        """First pass: which zones have enter triggers (effects compile calls only for those)."""
        for t in (spec or {}).values():
            if isinstance(t, dict) and "on_enter" in t:
                zones = t["on_enter"] if isinstance(t["on_enter"], list) else [t["on_enter"]]
                for z in zones:
                    if isinstance(z, str):
                        self.enter.setdefault(z, [])

    def build(self, ctx, spec: dict, ncards: int = 0) -> None:
        self._build(ctx, spec, ncards)
        for zone, hooks in self.enter.items():
            tables = [table for _, _, fn, table in hooks if fn is not None]
            self.live[zone] = (None if any(t is None for t in tables)
                               else frozenset(c for c in range(ncards) if any(t[c] for t in tables)))

    def live_name(self, namespace: dict, zone: str) -> str | None:
        """The name, put into ``namespace``, of the set of cards that may fire a hook of
        ``zone`` when they enter it, for generated code to test before it calls ``entered``
        (a move of cards that fire nothing costs no call); None where any card may (a
        condition that reads the state), or before ``build`` decided it (a named effect's or a
        trigger's own code, compiled first: they call ``entered`` as it is)."""
        live = self.live.get(zone)
        if live is None:
            return None
        name = f"_live{list(self.live).index(zone)}"
        namespace[name] = live
        return name

    @staticmethod
    def _per_card(ctx, cond, ncards: int):
        """The value of an ``if:`` for every card, computed once, when it reads nothing but the
        entering card (its attributes) and constants (``card.kind == 'closing'``), as its Access
        record says: a card that fires no hook of a zone then costs nothing when it enters. None
        otherwise (evaluated at each entry), also when it raises for some card (the error shows
        when it enters)."""
        if cond is None:
            return (True,) * ncards
        a = getattr(cond, "access", None)
        if a is None or a.reads or a.fixed or a.opaque or a.me or not a.locals <= {"card"}:
            return None
        try:   # (no state and no seat: it reads neither)
            return tuple(bool(cond(None, None, {"card": c})) for c in range(ncards))
        except Exception:   # noqa: BLE001 - decided at each entry instead, as before
            return None

    def _build(self, ctx, spec: dict, ncards: int) -> None:
        for name, t in (spec or {}).items():
            path = ("triggers", name)
            if not isinstance(t, dict):
                ctx.error("a trigger is a mapping (on_enter | when, if, do)", path, "schema")
                continue
            ctx.check_keys(t, key_names(TRIGGER_KEYS), path, required=required_names(TRIGGER_KEYS))
            if ("on_enter" in t) == ("when" in t):
                ctx.error("a trigger has exactly one of on_enter: or when:", path, "schema", key=True)
                continue
            if "on_enter" in t:
                zones = t["on_enter"] if isinstance(t["on_enter"], list) else [t["on_enter"]]
                locals_ = {"card": CARD}
                cond = ctx.expr(t["if"], (*path, "if"), locals_, True, BOOL) if "if" in t else None
                fn = _weighed(ctx, t.get("do"), (*path, "do"), locals_, True)
                self._origin(name, cond, ctx.smap.loc((*path, "if")), fn, ctx.smap.loc((*path, "do")))
                table = self._per_card(ctx, cond, ncards)
                asked = table is None and fn is not None   # (no effects: the if: is never asked)
                self.parts += [((*path, "do"), fn, False), *([((*path, "if"), cond, False)] if asked else [])]
                for z in zones:
                    if not isinstance(z, str) or z not in ctx.names.zones:
                        ctx.unknown("zone", z, ctx.names.zones, (*path, "on_enter"))
                        continue
                    self.enter.setdefault(z, []).append((name, cond, fn, table))
            else:
                per = bool(t.get("per_player", False))
                cond = ctx.expr(t["when"], (*path, "when"), None, per, BOOL)
                if "if" in t:
                    ctx.error("a when: trigger has its condition in when:", (*path, "if"), "schema", key=True)
                fn = _weighed(ctx, t.get("do"), (*path, "do"), None, per)
                self._origin(name, cond, ctx.smap.loc((*path, "when")), fn, ctx.smap.loc((*path, "do")))
                self.when.append((name, cond, fn, per, f"_when_{len(self.when)}"))
                self.parts.append(((*path, "do"), fn, per))

    def _origin(self, name, cond, cond_loc, fn, fn_loc) -> None:
        for part, loc in ((cond, cond_loc), (fn, fn_loc)):
            if part is not None:
                self.origins[id(part)] = (f"trigger {name}", loc)

    # ------------------------------------------------------------------ runtime
    def entered(self, S, zone: str, owner, by_team: bool, cards, me) -> None:
        """Cards entered ``zone`` (of ``owner``: a seat, a team index if by_team, or None)."""
        hooks = self.enter.get(zone)
        if not hooks:
            return
        live = self.live.get(zone)
        if live is not None and live.isdisjoint(cards):
            return        # no hook fires for any of these cards (decided per card at load)
        who = me if owner is None else (S.members[owner][0] if by_team else owner)
        self._guarded(S, hooks, _run_hooks, S, who, hooks, cards)

    def fire(self, S, fn, me) -> None:
        """Run a when-trigger's effects (``me``: its player, or None), counted in the chain."""
        self._guarded(S, ((None, None, fn, None),), fn, S, me, None)

    def fire_charged(self, S, k: int, fn, me) -> None:
        """``fire`` when-trigger k's effects ``fn``, counted against the step budget first as a step
        run is (``_charged``: one, and its effects' worst-case operations, ``work``, over 100):
        what ``watch_source`` writes. The charge is read from the function the trigger was built
        with (``self.when``): ``fn`` may be the compiled module's, which holds no attributes."""
        _charged(S, self.when[k][2], 1)
        self.fire(S, fn, me)

    def _guarded(self, S, hooks, run, *args) -> None:
        """``run(*args)``, one link further down the chain of triggers; an error it raises is noted
        at the trigger of ``hooks`` (name, condition, effects, table) it arose in, and raised again."""
        self._chain(S)
        try:
            run(*args)
        except Exception as e:   # noqa: BLE001 - noted where it arose, raised again
            any(self._note(e, cond, fn) for _, cond, fn, _ in hooks)
            raise
        finally:
            self.depth -= 1

    def _note(self, e, cond, fn) -> bool:
        """Note on ``e`` the trigger it arose in (its condition or its effects: the one whose code
        is on the traceback), so that the error is located there rather than at the step; whether
        it did."""
        for part in (cond, fn):
            origin = self.origins.get(id(part))
            if origin is not None and raised_in(e, part):
                tag_origin(e, origin[0], origin[1], part)
                return True
        return False

    def failed(self, e: Exception, k: int) -> Exception:
        """``e``, raised by when-trigger k's condition (``watch_source``), located at the
        condition."""
        origin = self.origins.get(id(self.when[k][1]))
        if origin is not None:
            tag_origin(e, origin[0], origin[1])
        return e

    def watch_source(self, g, pad: str, plain: bool = False) -> list:
        """The check of the when-triggers, written for this ruleset and indented by ``pad``: the
        generated game loop runs it after every change (building/flowgen.py). Each trigger's
        condition asked (a per-player one for each seat), its last value compared, its effects
        fired on the rising edge (it holds now and did not: False, or never checked), in the
        declared order. A game's condition is written in where its record allows; ``plain``
        (the reference loop): each called by its function. The names they use: ``_T`` these
        triggers, F<n> their functions; and locals ``h``, ``now``, ``before``, ``p``. (What the
        conditions cost is counted by the trips after which the loop asks them: building/gameloop.py
        ``checks_charge``; a firing, each time: ``fire_charged``.)"""
        g.bind({"_T": self})
        lines: list[str] = []
        for k, (_name, cond, fn, per, key) in enumerate(self.when):
            fire = None if fn is None else f"_T.fire_charged(S, {k}, {g.fn(fn)}, {'p' if per else 'None'})"
            if per:
                lines += ["try:",
                          f"    now = [True if {g.fn(cond)}(S, p, None) else False for p in S.players]",
                          "except Exception as e:",
                          f"    raise _T.failed(e, {k})",
                          f"before = {var_ref(key)} or [False] * {state_read('n')}",
                          var_write(key, "now", memory=True)]
                if fire is not None:
                    lines += ["for p in S.players:", "    if now[p] and not before[p]:", f"        {fire}"]
                continue
            # the rising edge: holds now, and held not (False, or never checked: None) before
            inline = None if plain else _inline(g, cond)
            lines += ["try:",
                      f"    h = {inline or f'{g.fn(cond)}(S, None, None)'}",
                      *(["except TypeError as e:   # (as the condition's function: none used is the language's error)",
                         f"    raise _T.failed(_none_used(e), {k})"] if inline else []),
                      "except Exception as e:",
                      f"    raise _T.failed(e, {k})",
                      "if h:",
                      f"    if {table_ref('v', key)} is not True:",   # (read: in the compiler's dialect)
                      f"        {var_write(key, 'True', memory=True)}",
                      *([f"        {fire}"] if fire is not None else []),
                      f"elif {table_ref('v', key)} is not False:",
                      f"    {var_write(key, 'False', memory=True)}"]
        return [pad + line for line in lines]

    def recheck(self, S) -> int:
        """The last value each when-trigger keeps, asked again on ``S`` where its condition reads
        what not every seat sees (a determinized world, engine/knowledge.py: the kept one was the
        true game's); none (never checked) where the world cannot answer it. What they weigh
        (engine/invariants.py ``weight``, each seat's asking of one per seat)."""
        kept = self.hidden_when   # (found once for a ruleset: a search deals worlds again and again)
        if kept is None or kept[0] is not S.rules:
            kept = self.hidden_when = (S.rules, tuple(w for w in self.when if not reads_public(S.rules, w[1].access)))
        for _name, cond, _fn, per, key in kept[1]:
            try:
                now = [bool(cond(S, p, None)) for p in S.players] if per else bool(cond(S, None, None))
            except Exception:   # noqa: BLE001 - a value the world holds as none: as never checked
                now = None
            S.set_var(key, now)
        return sum(weight(w[1]) * (S.n if w[3] else 1) for w in kept[1])

    def hooks_may(self, zone: str, what: str) -> bool:
        """Whether a card entering ``zone`` may run code that ``what`` (an effect function's
        attribute: ``ends`` the game, ``counts`` against the budget), its hooks' effects
        unknown counted as may; a hook's firing counts (``_charged``), as a costly condition asked
        at entry does."""
        return any(fn is not None and (getattr(fn, what, True) or what == "counts")
                   for _, cond, fn, table in self.enter.get(zone, ()))

    def _chain(self, S):
        self.depth += 1
        if self.depth > MAX_CHAIN:
            self.depth = 0
            raise ExprRuntimeError(f"triggers set each other off more than {MAX_CHAIN} times in a chain")


def _inline(g, cond) -> str | None:
    """A when-condition (a game's: no ``me``, no locals) as code the generated module can hold:
    its source, with the globals its code reads (a card's table, a runtime helper, the
    conversion of its TypeError) put into the module's namespace; None (call its function)
    where its record may be incomplete or a name would mean something else there."""
    a, source = getattr(cond, "access", None), getattr(cond, "source", None)
    names = {k: cond.__globals__[k] for k in global_names(cond.__code__) if k in cond.__globals__}
    if (not isinstance(source, str) or a is None or a.opaque or a.me or a.locals or "_none_used" not in names
            or not g.bind(names)):
        return None
    return source


def _weighed(ctx, items, path, locals_, has_me):
    """A trigger's ``do:`` compiled (None for none), its ``work`` the worst-case operations of its
    expressions and of the declared effects it calls (the compiler's count while it compiles:
    triggers compile before the flow, so no step's charge holds it), ``called`` the part its
    calls make, ``heaviest`` its costliest expression and ``pass_steps`` what its for_each passes
    may count (a step's, building/builder.py ``_weighed``: what bounded.py ``weigh_triggers``
    weighs and names); counted, one and its work over 100, each time it fires (``_charged``; the
    passes as they run)."""
    spent, called, outer, passes = ctx.compiler.spent, ctx.compiler.called, ctx.heaviest, ctx.pass_steps
    ctx.heaviest = (0, (), ())   # (none yet: bounded.py HEAVIEST)
    try:
        fn = ctx.effects(items, path, locals_, has_me)
        if fn is not None:
            fn.work, fn.called, fn.heaviest = ctx.compiler.spent - spent, ctx.compiler.called - called, ctx.heaviest
            fn.pass_steps = ctx.pass_steps - passes
    finally:
        ctx.heaviest = outer
    return fn


def _run_hooks(S, who, hooks, cards) -> None:
    """Each of ``hooks`` whose condition holds, for each card that entered (``card`` its local);
    each firing counted against the step budget first as a step run is (one, and its effects'
    charge), and a condition asked that may cost more than 100 operations its charge
    (``_charged``)."""
    for card in cards:   # a list made for this call by the move (hooks cannot change it)
        L = {"card": card}
        for _, cond, fn, table in hooks:
            if fn is not None and (table[card] if table is not None else cond is None or (
                    cond.work < STEP_WORK_UNIT or _charged(S, cond)) and cond(S, who, L)):
                _charged(S, fn, 1)
                fn(S, who, L)


def _charged(S, part, base: int = 0) -> bool:
    """Count a trigger's costly ``if:`` or its ``do:`` (``part``) against the step budget (``base``,
    one for a firing of its ``do:``, and its worst-case operations over 100), the game stopped at
    it where that passes the budget; True."""
    S.steps += base + part.work // STEP_WORK_UNIT
    if S.steps > S.rules.max_steps:
        over_budget(S, S.rules.triggers.origins[id(part)][1])
    return True
