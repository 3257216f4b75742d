"""Effects: the automatic changes a rule makes (gain, move, set...), compiled to Python.

An effect list in YAML is a list of one-key mappings (``- gain: {counter: safe}``) or bare
names of declared effects. A list compiles to one Python function ``fx(S, me, L)``; the
expressions inside are inlined as Python source (see expr.compiler), so running an effect
never walks a tree. Effects make no decisions: decisions are flow steps.

The effect kinds that change the game (gain, move, deal...) live with their mechanics and
register with ``@effect_kind`` (mechanics/base.py); this module compiles lists of them and
owns the constructs that structure a list: ``if``, ``switch``, ``for_each``, ``with_player``,
``end_game`` and calls of declared effects. EFFECT_KINDS lists every kind (schema, docs, hints).
"""
from __future__ import annotations

from ..errors import digits

from ..expr.access import Access, Recorder
from ..expr.limits import STEP_WORK_UNIT
from ..expr.names import item_read, owning, state_add, state_read, state_write, writable
from ..expr.nesting import local_bounds
from ..expr.runtime import MAX_STORED_LIST
from ..expr.tallies import Tallies
from ..expr.types import ANY, BOOL, INT, NONE, PLAYER, TEAM, elem, walked
from ..loading.kept import compiled
from ..mechanics.base import EFFECT_EMITTERS, EFFECT_KEYS, EFFECT_KINDS, EFFECT_SEAT_NOTED, IF_KEYS, STEP_KINDS, checked_mapping
from ..mechanics.contract import Key, key_names
from .coverage import describe_list
from .seats import written_seats
from .declared import DeclaredEffects, bound_local, parameter
from .targets import Targets
from .emitter import Emitter, per_line
from .rulelines import by_rule
from .watch import may_write


EFFECT_KINDS.update({
    "if": "run effects when a condition holds (then/else)",
    "switch": "run the effects of the case equal to a value",
    "for_each": "run effects once for each element of a list",
    "with_player": "run effects as another player (me = who)",
    "end_game": "end the game at once",
})
EFFECT_KEYS.update({
    "if": IF_KEYS,   # (beside the kind's own key, as switch's)
    "switch": (Key("cases", "mapping VALUE: effects", "the effects run when the value is equal", place="beside"),
               Key("default", "effects", "run when no case is equal", place="beside")),
    "for_each": (Key("in", "expression: list", "the elements", required=True),
                 Key("do", "effects", "run once for each element", required=True),
                 Key("as", "name", "the local (or me, over a list of players) holding the element", default="it")),
    "with_player": (Key("who", "expression: player or team", "who me is (a team: its first member)", required=True),
                    Key("do", "effects", "run with me = who", required=True)),
})


class EffectCompiler(DeclaredEffects, Targets):
    """Compiles effect lists for one ruleset; ``ctx`` is the ruleset compiler (errors, expressions)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.named: dict = {}        # name -> (params: dict name->type, body, path)
        self._compiling: list[str] = []
        self._done: set[str] = set()
        self._too_deep = False   # (a chain past MAX_CALL_DEPTH reported: declared.py call)
        self.weight: dict[str, int] = {}   # declared effect -> worst-case operations of one call (compile_named)
        self.pass_weight: dict[str, int] = {}   # declared effect -> the steps its for_each passes may count a call
        self.heaviest: dict[str, tuple] = {}   # declared effect -> its costliest expression (bounded.py HEAVIEST)
        self.sites: dict[str, set] = {}    # declared effect -> the paths of the items calling it (call)
        self.functions: list = []          # every effect list compiled (engine/effectlines.py maps their lines)

    # ------------------------------------------------------------------ entry points
    def compile(self, items, path, locals=None, has_me=True, name="fx", first=0, params=None, by_name=False):
        """Return a function ``f(S, me, L)`` running the effect list, or None when it is empty.
        ``first`` is the list index of items[0] in the YAML list at ``path`` (for locations).
        ``params``: the Python names of its parameters, in place of ``L`` (a declared effect's,
        ``f(S, me, P_suit)``; the compiler's ``bound`` says how its expressions read them).
        ``by_name``: its locals are its parameters, those it reads (a hook's, called only by
        generated code: ``f(S, me, P_card)``); ``fn.params`` names them in order."""
        if not items:
            return None
        if by_name:
            compiler = self.ctx.compiler
            outer, compiler.bound = compiler.bound, {k: parameter(k, i) for i, k in enumerate(locals or {})}
            try:
                return self.compile(items, path, locals, has_me, name, first, dict(compiler.bound))
            finally:
                compiler.bound = outer
        marks = len(self.ctx.diags), (len(self.ctx.probes.items) if self.ctx.probes is not None else 0)
        src, access, body = self._source(items, path, locals, has_me, name, first, params)
        try:
            code = compiled(src, f"<effects {'/'.join(map(str, path))}>", "exec")
        except SyntaxError:
            if any(d.severity == "error" for d in self.ctx.diags):
                return lambda S, me, L: None   # an error was reported: this code never runs
            # Python refuses a hoisted := where the effect code embeds it (in a comprehension's
            # iterable): build the list again without hoisting, forgetting the first attempt
            self._forget(*marks)
            self.ctx.compiler.hoisting = False
            try:
                src, access, body = self._source(items, path, locals, has_me, name, first, params)
            finally:
                self.ctx.compiler.hoisting = True
            code = compiled(src, f"<effects {'/'.join(map(str, path))}>", "exec")
        ns = self.ctx.names.namespace
        local_ns: dict = {}
        exec(code, ns, local_ns)  # noqa: S102 - source is generated from checked effect data
        fn = local_ns[name]
        fn.access = access   # what it may change (watch.py: steps that need no checks after)
        fn.code, fn.loc = src, self.ctx.smap.loc((*path, first)) or self.ctx.smap.loc(tuple(path))   # (listing.py)
        # its statements, for a step that writes them in place (flowgen.py), and whether they bind
        # a for_each's element in L (then L must be set there, even to None)
        fn.body, fn.binds_local = (body[0], None), body[1]
        # where its list and each branch begin, with what their own items may write: a step
        # running it in place notes there whether a change the checks can see was made
        # (watch.Quiet.noted, flowgen.FlowSource.noting)
        fn.marks = body[2]
        # where each event's line begins its append (line, column): a step writing the list in place
        # without binding ``me`` binds it there, for the payload (flowgen.FlowSource.effects)
        fn.events = body[3]
        # where it calls a declared effect (line, depth, name, its parameters bound as written): a
        # step writing the list in place may write the effect's body there (FlowSource.effects)
        fn.calls = body[4]
        # whether running it may end the game: a step running it tests ``S.over`` after it only then
        # (flowgen.FlowSource.ended)
        fn.ends = self.may_end(access)
        # whether running it may count a pass against the budget and test it (a for_each): a step
        # running it tests the budget at the count the reference has then (flowgen.FlowSource.next_step)
        fn.counts = body[5] or self.may_end(access, "counts")
        # where each statement of its body comes from (the location of its effect item), and each line
        # of its code from the def: a runtime error's line names the item that failed (engine/effectlines.py)
        fn.owners, fn.lines = body[6], body[7]
        self.functions.append(fn)
        if isinstance(params, dict):   # (a hook's: the locals it reads, in their order)
            fn.params = tuple(k for k in params if k in access.locals)
        return by_rule(fn, fn.loc, src)

    def _source(self, items, path, locals, has_me, name, first, params=None) -> tuple[str, Access, tuple]:
        """(the function's source, what it touches, (its statements unindented, whether they bind
        a local in ``L``, its marks, its events, its calls of declared effects: compile))."""
        em = Emitter()
        compiler = self.ctx.compiler
        outer, compiler.writes = compiler.writes, set()   # (a named effect compiled meanwhile has its own)
        loops, compiler.tallies = compiler.tallies, []      # (and reads no tally of its caller's loops)
        try:
            with self.access.apart(), self.access.recording() as notes:
                self.probe(em, "effects", describe_list(path, items), (*path, first) if name == "fx" else path)
                self.block(em, items, path, dict(locals or {}), has_me, first, marked=True)
            writes = compiler.writes
        finally:
            compiler.writes, compiler.tallies = outer, loops
        # copy on write: the tables this function writes in place are the state's own first
        own = owning(writes)
        head = ["    L = None", *own] if params is not None and em.local_dict else own   # (a for_each's locals: a dict of its own)
        if isinstance(params, dict):   # a hook's locals: those it reads are its parameters
            params = [v for k, v in params.items() if k in notes.locals]
        args = "L" if params is None else ", ".join(params)
        src = f"def {name}(S, me{', ' + args if args else ''}):\n" + ("\n".join([*head, *em.lines]) or "    pass") + "\n"
        marks = tuple((len(own) + at, depth - 1, tuple(writes)) for at, depth, writes in em.marks)
        events = tuple((len(own) + at, column - 4) for at, column in em.events)
        calls = tuple((len(own) + at, depth - 1, *rest) for at, depth, *rest in em.calls)
        owners = (None,) * len(own) + tuple(em.owners)   # (the item of each statement, and of each line from the def)
        lines = (None,) * (1 + len(head) - len(own)) + per_line((*own, *em.lines), owners)
        return src, notes.frozen(), (tuple(line[4:] for line in (*own, *em.lines)), em.local_dict, marks, events,
                                     calls, em.counts, owners, lines)

    def may_end(self, access: Access, what: str = "ends") -> bool:
        """Whether code touching ``access`` may end the game: it has an ``end_game`` (in any
        branch), may touch anything, calls a declared effect that may (``ends``, each compiled
        before its callers), or fills a zone whose enter triggers may or are not all compiled
        yet (a declared effect's or a trigger's own code, compiled first). ``what="counts"``:
        whether the code it runs elsewhere (those effects, those triggers, their costly
        conditions) may count against the budget."""
        if what == "ends" and access.ends or access.opaque:
            return True
        ns, triggers = self.ctx.names.namespace, self.ctx.triggers
        return any(getattr(ns.get(f"E_{name}"), what, True) for name in access.calls) or any(
            zone not in triggers.live or triggers.hooks_may(zone, what) for zone in access.zones_entered)

    @property
    def access(self) -> Recorder:   # where an effect kind notes what its lines touch (expr/access.py)
        return self.ctx.compiler.access

    def writable(self, name: str, is_zone: bool = True) -> str:
        """The list of zone or counter ``name`` to write into, in the function being built."""
        self.access.write("z" if is_zone else "c", name)
        return writable(name, is_zone, self.ctx.compiler.writes)

    def _forget(self, diags: int, probes: int) -> None:
        """Drop the diagnostics and coverage probes recorded after these marks."""
        del self.ctx.diags[diags:]
        if self.ctx.probes is not None:
            del self.ctx.probes.items[probes:]
            del self.ctx.probes.counts[probes:]

    def probe(self, em, kind: str, what: str, path) -> None:
        """Emit a coverage counter here when the ruleset is built with coverage (building/coverage.py)."""
        if self.ctx.probes is not None:
            em.line(self.ctx.probes.line(kind, what, path))

    # ------------------------------------------------------------------ statements
    def block(self, em, items, path, locals, has_me, first=0, marked=False):
        """The effect list ``items``; ``marked``: a list or branch whose start is marked
        (em.marks) with what each of its items may write, but an if or a switch, whose branches
        are marked themselves."""
        items = items if isinstance(items, list) else [items]
        writes: list[Access] = []
        if marked:
            em.marks.append((len(em.lines), em.depth, writes))
        if not items:
            em.line("pass")
        outer = em.item
        for i, item in enumerate(items, first):
            em.item = self.ctx.smap.key_loc((*path, i))   # (its lines name it: Emitter.owners)
            if not marked or isinstance(item, dict) and ("if" in item or "switch" in item):
                self.item(em, item, (*path, i), locals, has_me)
                continue
            with self.access.recording() as notes:
                self.item(em, item, (*path, i), locals, has_me)
            writes.append(notes.frozen())
        em.item = outer

    def item(self, em, item, path, locals, has_me):
        self.ctx.grow(path)   # (building/bounded.py)
        if isinstance(item, str):
            kind, spec = item, None
        elif isinstance(item, dict) and item:
            if "if" in item:
                return self.e_if(em, item, path, locals, has_me)
            if "switch" in item:
                return self.e_switch(em, item, path, locals, has_me)
            body = [k for k in item if k != "doc"]   # beside any effect, doc: quotes its rule (explain)
            if len(body) != 1:
                self.ctx.error(f"an effect is one key (its kind), got {', '.join(item)}", path, "effect")
                return
            kind = body[0]
            spec = item[kind]
            path = (*path, kind)
        else:
            self.ctx.error("an effect is a mapping like {gain: {...}} or the name of a declared effect",
                           path, "effect")
            return
        if kind in EFFECT_KEYS:   # a mapping of the kind's declared keys (mechanics/contract.py Key)
            spec = checked_mapping(self.ctx, spec, path, EFFECT_KEYS[kind])
            if spec is None:
                return
        method = getattr(self, "e_" + kind, None) if kind in EFFECT_KINDS else None
        if method is not None:   # a construct of the effect language itself
            return method(em, spec, path, locals, has_me)
        if kind in EFFECT_EMITTERS:
            if kind not in EFFECT_SEAT_NOTED:   # (its lines may name the acting seat themselves: effect_kind)
                self.access.me()
            return EFFECT_EMITTERS[kind](self, em, spec, path, locals, has_me)
        if kind in self.named:
            return self.call(em, kind, spec, path, locals, has_me)   # (called as me: Access.actor)
        if kind in STEP_KINDS:   # a step where only effects can run (a hook, a trigger, a choice's then)
            self.ctx.error(f"'{kind}' is a step, and only effects can run here: steps go in a flow list "
                           "(flow:, steps:), where an if: may hold them in its then/else", path, "step",
                           key=True)
            return
        self.ctx.unknown("effect", kind, [*EFFECT_KINDS, *self.named], path, key=True)

    def expr(self, text, path, locals, has_me, expect=None, tree=None):
        c = self.ctx.expr(text, path, locals, has_me, expect, tree)
        return c.source, c.type

    def name(self, value, path, what="name"):
        """A declared name written in YAML: a plain identifier, or None (after an error)."""
        if isinstance(value, str) and value.isidentifier():
            return value
        self.ctx.error(f"expected a {what} (a plain name), got {value!r:.40}", path, "type")
        return None

    def event(self, em, payload: str, unless_empty: str | None = None) -> None:
        """Log an event when the game records them (``unless_empty``: not when that list is empty).
        Where its append begins is noted (``em.events``): the payload may name ``me``."""
        when = f" and {unless_empty}" if unless_empty else ""
        ev = state_read("ev")
        head = f"{'    ' * em.depth}if {ev} is not None{when}: "
        em.events.append((len(em.lines), len(head)))
        em.line(head.lstrip() + f"{ev}.append({payload})")

    # ------------------------------------------------------------------ control
    def indented(self, em, header, items, path, locals, has_me, probe: tuple[str, str] | None = None):
        """Emit ``header`` (an if/else/for line) and the effect list under it (``probe``: the
        (kind, what) of its coverage counter)."""
        em.line(header)
        em.depth += 1
        if probe is not None:
            self.probe(em, *probe, path)
        self.block(em, items, path, locals, has_me, marked=True)
        em.depth -= 1

    def e_if(self, em, item, path, locals, has_me):
        self.ctx.check_keys(item, ("if", "doc", *key_names(EFFECT_KEYS["if"], "beside")), path)
        cond, _ = self.expr(item["if"], (*path, "if"), locals, has_me, BOOL)
        text = str(item["if"])[:70]
        self.indented(em, f"if {cond}:", item.get("then", []), (*path, "then"), locals, has_me,
                      ("then", f"if {text}: then"))
        if item.get("else"):
            self.indented(em, "else:", item["else"], (*path, "else"), locals, has_me, ("else", f"if {text}: else"))

    def e_switch(self, em, item, path, locals, has_me):
        self.ctx.check_keys(item, ("switch", "doc", *key_names(EFFECT_KEYS["switch"], "beside")), path)
        value, typ = self.expr(item["switch"], (*path, "switch"), locals, has_me)
        cases = item.get("cases") or {}
        if not isinstance(cases, dict) or not cases:
            self.ctx.error("switch needs cases: {VALUE: [effects], ...}", (*path, "cases"), "effect")
            return
        v = em.fresh("_v")
        em.line(f"{v} = {value}")
        whole = typ in (INT, PLAYER, TEAM)
        for i, (key, body) in enumerate(cases.items()):
            if whole and key is not None and not digits(str(key), signed=True):   # (none: a case of none)
                self.ctx.error(f"this switch's value is a whole number ({typ}): a case is one, got {str(key)[:40]!r}",
                               (*path, "cases", key), "type", key=True)
                continue
            lit = repr(int(key)) if whole and key is not None else repr(key)
            self.indented(em, f"{'if' if i == 0 else 'elif'} {v} == {lit}:", body, (*path, "cases", key),
                          locals, has_me, ("case", f"switch {str(item['switch'])[:50]}: case {key}"))
        if item.get("default"):
            self.indented(em, "else:", item["default"], (*path, "default"), locals, has_me,
                          ("case", f"switch {str(item['switch'])[:50]}: default"))

    def e_for_each(self, em, spec, path, locals, has_me):
        given = self.ctx.expr(spec["in"], (*path, "in"), locals, has_me, "list")
        src, typ = given.source, given.type
        var = self.name(spec.get("as", "it"), (*path, "as"), "name for the element")
        if var is None:
            return
        if var == "me":   # (each element a seat: a whole number, or a value of type any checked as one)
            if elem(typ) not in (PLAYER, INT, ANY, NONE):
                self.ctx.error(f"for_each as: me goes over players, and this list holds {elem(typ)}", (*path, "in"),
                               "type", "give a list of players (or use as: NAME)")
            self.access.keeps()   # (kept, and given back after the loop: the body reads each element's me)
            saved = em.fresh("_me")
            em.line(f"{saved} = me")
            em.line(f"for me in {src}:")
            em.depth += 1
            seats, never = written_seats(given.tree, self.ctx.names.min_players, self.ctx.names.max_players)
            if never is not None:
                self.ctx.error(f"for_each as: me goes over players, and no game has a player {never}", (*path, "in"),
                               "type", f"players are 0 to {self.ctx.names.max_players - 1} at most")
            if elem(typ) == ANY or elem(typ) == INT and not seats:   # (each checked as a seat, as the loop reaches it)
                em.line("me = _seat(S, me)")
            count, spent, passes = self.count_step(em, path), self.ctx.compiler.spent, self.ctx.pass_steps
            self.probe(em, "for_each", f"for_each {str(spec['in'])[:60]}", (*path, "do"))
            with self.access.asked():
                self.block(em, spec["do"], (*path, "do"), locals, True)
            self.charge_pass(em, count, self.ctx.compiler.spent - spent, given, passes)
            em.depth -= 1
            em.line(f"me = {saved}")
            return
        inner = dict(locals)
        inner[var] = elem(typ)
        em.local_dict = True
        em.line("L = dict(L) if L else {}")
        at, depth = len(em.lines), em.depth
        em.line(f"for _x in {src}:")
        em.depth += 1
        compiler = self.ctx.compiler
        count, spent, passes = self.count_step(em, path), compiler.spent, self.ctx.pass_steps
        self.probe(em, "for_each", f"for_each {str(spec['in'])[:60]}", (*path, "do"))
        _, deep, _, each = given.elements   # (an element: as long as a list inside, what one holds in all)
        bound = bound_local('_x', walked(elem(typ), elem(given.proven)), given.chars, deep, each, self.ctx.compiler)   # (an element of a list made
        # of a value of type any, [0, x], checked as the type its reads assume: declared.py argument)
        em.line(f"L[{var!r}] = {self.argument(bound, elem(given.proven), (deep, deep), elem(typ), f'for_each element {var!r} is read as {elem(typ)}')}")
        outer, sizes = compiler.bound, compiler.local_sizes
        compiler.bound = {k: v for k, v in outer.items() if k != var}   # (the element hides a parameter)
        compiler.local_sizes = {**{k: v for k, v in sizes.items() if k != var}, **local_bounds(compiler, {var: elem(typ)})}
        loop = Tallies(var, elem(typ), em.fresh("_k"))
        try:
            self.tallied(em, loop, spec["do"], (*path, "do"), inner, has_me)
        finally:
            compiler.bound, compiler.local_sizes = outer, sizes
        self.charge_pass(em, count, compiler.spent - spent, given, passes)
        em.depth -= 1
        for name, make in loop.made.values():   # (made before the loop, its counts read in it)
            em.insert(at, depth, f"{name} = {make}")

    def tallied(self, em, loop, items, path, locals, has_me):
        """A for_each's body, its counts by the loop's element read from ``loop``'s tallies
        (expr/tallies.py); compiled again without those of the zones it may write (the first
        compile undone: its lines, diagnostics, probes and counted work)."""
        ctx, compiler = self.ctx, self.ctx.compiler
        probes = len(ctx.probes.items) if ctx.probes is not None else 0
        lines, marks, diags, spent, called, work, errors = (len(em.lines), len(em.marks), len(ctx.diags),
                                                            compiler.spent, compiler.called, ctx.work, ctx.errors)
        passes = ctx.pass_steps
        events, calls = len(em.events), len(em.calls)
        compiler.tallies.append(loop)
        try:
            with self.access.recording() as notes:
                self.block(em, items, path, locals, has_me)
            named = {n: ctx.names.namespace.get(f"E_{n}") for n in self.named}
            written = {zone for zone, _ in loop.made
                       if may_write(notes.frozen(), zone, named, ctx.triggers.enter, ctx.triggers.live)}
            if written:
                del em.lines[lines:], em.owners[lines:], em.marks[marks:], em.events[events:], em.calls[calls:]
                self._forget(diags, probes)
                compiler.spent, compiler.called, ctx.work, ctx.errors, ctx.pass_steps = spent, called, work, errors, passes
                loop.refused |= written
                loop.made.clear()
                self.block(em, items, path, locals, has_me)
        finally:
            compiler.tallies.pop()

    def count_step(self, em, path) -> int:
        """Emit: one more step against the game's step budget (a pass of an effect loop), so
        that loops nested in effects cannot run for ever either (engine.over_budget); the index
        of the line counting it (``charge_pass``)."""
        ns = self.ctx.names.namespace
        loc = f"_loc{len(ns)}"
        ns[loc] = self.ctx.smap.loc(path)
        em.counts = True
        em.line(state_add("steps", 1))
        em.line(f"if {state_read('steps')} > {self.ctx.max_steps}: _over_budget(S, {loc})")   # (the flow's too)
        return len(em.lines) - 2

    def charge_pass(self, em, at: int, work: int, given, passes: int) -> None:
        """A pass of a for_each counts, as a step run does, one and its body's charge (``work``, the
        worst-case operations of the body's expressions and of the declared effects it calls, over
        STEP_WORK_UNIT), before the body runs: the line ``count_step`` wrote at ``at`` counting it.
        (The body's work stays in the enclosing step's charge too: one pass over-counted at most.)
        Weighed at load (the ruleset compiler's ``pass_steps``, ``passes`` before the body: what
        bounded.py ``weigh_steps`` adds to a step's or a trigger's charge): as many passes at most as
        ``given``, its compiled list, has elements at the longest the compiler weighs it, each counting
        one, the body's charge and the passes of the loops in the body. A list whose bound the ruleset
        does not declare (``given.known``, expr/known.py: a list variable, a range an end of which reads
        what declares no bound, what is built of one), weighed at MAX_STORED_LIST or more, at one pass:
        its real length is not known at load (docs/reference.md Limits); a range of known ends, a list
        written out, a zone and what is built of those (a filter of one...) at their bound, however long."""
        if work >= STEP_WORK_UNIT:
            em.lines[at] = em.lines[at].replace(state_add("steps", 1), state_add("steps", 1 + work // STEP_WORK_UNIT))
        ctx = self.ctx
        size = given.elements[0] if given.known or given.elements[0] < MAX_STORED_LIST else 1
        ctx.pass_steps = passes + size * (1 + work // STEP_WORK_UNIT + ctx.pass_steps - passes)

    def e_with_player(self, em, spec, path, locals, has_me):
        who, typ = self.expr(spec["who"], (*path, "who"), locals, has_me, PLAYER)
        saved, w = em.fresh("_me"), em.fresh("_w")
        self.access.keeps()   # (kept, and given back after the list: the list reads who's me)
        em.line(f"{w} = {who}" if who == "me" else f"{w} = {'_team' if typ == TEAM else '_seat'}(S, {who})")   # (checked)
        if typ == TEAM:   # a team acts through its first member
            em.line(f"{w} = None if {w} is None else {item_read(state_read('members'), w)}[0]")
        em.line(f"if {w} is not None:")
        em.depth += 1
        em.line(f"{saved} = me")
        em.line(f"me = {w}")
        with self.access.asked():
            self.block(em, spec["do"], (*path, "do"), locals, True)
        em.line(f"me = {saved}")
        em.depth -= 1

    def e_end_game(self, em, spec, path, locals, has_me):
        self.ctx.has_end_game = True
        self.access.end()   # (what it may do: compile's ``ends``)
        em.line(state_write("over", "True"))
        self.event(em, "{'ev': 'end_game'}")
