"""Effects: the automatic changes a rule makes (gain, move, set...), compiled to Python.

An effect list in YAML is a list of one-key mappings (``- gain: {counter: safe}``) or bare
names of declared effects. A list compiles to one Python function ``fx(S, me, L)``; the
expressions inside are inlined as Python source (see expr.compiler), so running an effect
never walks a tree. Effects make no decisions: decisions are flow steps.

Every effect kind is one method ``e_<kind>`` below; EFFECT_KINDS lists them for the schema,
the docs and did-you-mean.
"""
from __future__ import annotations

from lark import Tree

from ..errors import did_you_mean
from ..expr import ExprError, parse
from ..expr.parser import offset_of
from ..expr.compiler import _Scope
from ..expr.runtime import MAX_INT
from .watch import mentions
from ..expr.types import INT, PLAYER, TEAM, ANY, NONE, NUM, BOOL, STR, is_list, is_numeric, elem, parse_type

EFFECT_KINDS = {
    "gain": "add to a counter (optionally taken from a limited supply counter)",
    "lose": "remove from a counter, never below zero (optionally returned to a supply)",
    "transfer": "move up to an amount from one counter to another",
    "set": "set variables to the values of expressions",
    "random": "set a variable to a random element of a list (chance)",
    "move": "move cards from one zone to another",
    "shuffle": "shuffle a zone (chance)",
    "deal": "deal cards one at a time from a zone to each player's zone",
    "gather": "move every card of some zones (all owners) into one zone",
    "reset": "set counters (every owner's) back to their start values",
    "if": "run effects when a condition holds (then/else)",
    "switch": "run the effects of the case equal to a value",
    "for_each": "run effects once for each element of a list",
    "with_player": "run effects as another player (me = who)",
    "end_game": "end the game at once",
}


def fits(value: str, declared: str) -> bool:
    """Whether a value of static type ``value`` may be stored where ``declared`` is expected
    (none fits anything; numbers, players and teams are all whole numbers)."""
    if ANY in (value, declared) or value in (NONE, declared):
        return True
    if is_numeric(value) and is_numeric(declared):
        return value != NUM or declared == NUM
    if is_list(value) and is_list(declared):
        return fits(elem(value), elem(declared))
    return False


def _scope(locals, has_me):
    return _Scope(dict(locals or {}), has_me, [])


EFFECT_PLUGINS: dict = {}


def effect_kind(name: str, doc: str):
    """Register an effect kind from a mechanic's own module.

    The function is called as ``fn(fx, em, spec, path, locals, has_me)`` at compile time and
    emits Python lines with ``em.line(...)``; ``fx`` is the EffectCompiler (``fx.expr``,
    ``fx.target``, ``fx.event``, ``fx.ctx`` for errors)."""
    def register(fn):
        EFFECT_KINDS[name] = doc
        EFFECT_PLUGINS[name] = fn
        return fn
    return register


class _Emitter:
    def __init__(self):
        self.lines: list[str] = []
        self.depth = 1
        self.tmp = 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def fresh(self, base="_t") -> str:
        self.tmp += 1
        return f"{base}{self.tmp}"


class EffectCompiler:
    """Compiles effect lists for one ruleset; ``ctx`` is the ruleset compiler (errors, expressions)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.named: dict = {}        # name -> (params: dict name->type, body, path)
        self._compiling: list[str] = []
        self._done: set[str] = set()

    # ------------------------------------------------------------------ entry points
    def compile(self, items, path, locals=None, has_me=True, name="fx", first=0):
        """Return a function ``f(S, me, L)`` running the effect list, or None when it is empty.

        ``first`` is the list index of items[0] in the YAML list at ``path`` (for locations)."""
        if not items:
            return None
        em = _Emitter()
        self.block(em, items, path, dict(locals or {}), has_me, first)
        src = f"def {name}(S, me, L):\n" + ("\n".join(em.lines) or "    pass") + "\n"
        ns = self.ctx.names.namespace
        try:
            code = compile(src, f"<effects {'/'.join(map(str, path))}>", "exec")
        except SyntaxError:
            if any(d.severity == "error" for d in self.ctx.diags):
                return lambda S, me, L: None   # an error was reported: this code never runs
            raise
        local_ns: dict = {}
        exec(code, ns, local_ns)  # noqa: S102 - source is generated from checked effect data
        fn = local_ns[name]
        fn.mentions = mentions(src)   # what it may change (watch.py: steps that need no checks after)
        return fn

    def declare(self, name, spec, path):
        """Record a declared effect: a list, or {params: {name: type}, do: [...]}."""
        params, body, body_path = {}, spec, path
        if isinstance(spec, dict):
            for pname, ptype in (spec.get("params") or {}).items():
                try:
                    params[pname] = parse_type(str(ptype))
                except ValueError as e:
                    self.ctx.error(str(e), (*path, "params", pname), "type")
                    params[pname] = ANY
            body, body_path = spec.get("do", []), (*path, "do")
        self.named[name] = (params, body, body_path)

    def compile_named(self, name):
        """Compile a declared effect into the namespace as E_<name> (once; cycles are errors)."""
        if name in self._done:
            return
        params, body, path = self.named[name]
        self._compiling.append(name)
        fn = self.compile(body, path, params, True, name=f"E_{name}")
        self._compiling.pop()
        self.ctx.names.namespace[f"E_{name}"] = fn or (lambda S, me, L: None)
        self._done.add(name)

    # ------------------------------------------------------------------ statements
    def block(self, em, items, path, locals, has_me, first=0):
        if not isinstance(items, list):
            items = [items]
        if not items:
            em.line("pass")
        for i, item in enumerate(items, first):
            self.item(em, item, (*path, i), locals, has_me)

    def item(self, em, item, path, locals, has_me):
        if isinstance(item, str):
            kind, spec = item, None
        elif isinstance(item, dict) and item:
            if "if" in item:
                return self.e_if(em, item, path, locals, has_me)
            if "switch" in item:
                return self.e_switch(em, item, path, locals, has_me)
            if len(item) != 1:
                self.ctx.error(f"an effect is one key (its kind), got {', '.join(item)}", path, "effect")
                return
            (kind, spec), = item.items()
            path = (*path, kind)
        else:
            self.ctx.error("an effect is a mapping like {gain: {...}} or the name of a declared effect",
                           path, "effect")
            return
        method = getattr(self, "e_" + kind, None) if kind in EFFECT_KINDS else None
        if method is not None:
            return method(em, spec, path, locals, has_me)
        if kind in EFFECT_PLUGINS:
            return EFFECT_PLUGINS[kind](self, em, spec, path, locals, has_me)
        if kind in self.named:
            return self.call(em, kind, spec, path, locals, has_me)
        self.ctx.unknown("effect", kind, [*EFFECT_KINDS, *self.named], path, key=True)

    def expr(self, text, path, locals, has_me, expect=None):
        c = self.ctx.expr(text, path, locals, has_me, expect)
        return c.source, c.type

    def _spec(self, spec, path, required=(), optional=()):
        if not isinstance(spec, dict):
            self.ctx.error(f"expected a mapping with {', '.join(required) or 'options'}", path, "effect")
            return None
        for k in required:
            if k not in spec:
                takes = ", ".join(f"{x}:" for x in required) + (
                    f" (and optionally {', '.join(f'{x}:' for x in optional)})" if optional else "")
                self.ctx.error(f"missing required key '{k}'", path, "missing-key",
                               f"{path[-1]} takes {takes}" if isinstance(path[-1], str) else None, key=True)
                return None
        for k in spec:
            if k not in required and k not in optional:
                self.ctx.unknown("key", k, [*required, *optional], (*path, k), key=True)
        return spec

    def target(self, text, path, locals, has_me, want):
        """A zone or counter written as NAME, NAME[owner] or owner.NAME -> (python lvalue, name)."""
        src, name, _ = self.target_owner(text, path, locals, has_me, want)
        return src, name

    def target_owner(self, text, path, locals, has_me, want):
        """As target(), plus the Python source of its owner: (seat or team source, is_team) or None."""
        names = self.ctx.names
        pool = names.counters if want == "counter" else names.zones
        try:
            tree = parse(str(text))
        except ExprError as e:
            self.ctx.expr_error(e, path)
            return "_dummy[0]", None, None
        node = tree
        if isinstance(node, Tree) and node.data == "index":
            node = node.children[0]
        if isinstance(node, Tree) and node.data == "attr":
            name = str(node.children[1])
        elif isinstance(node, Tree) and node.data == "name":
            name = str(node.children[0])
        else:
            self.ctx.error(f"expected a {want} (NAME, NAME[player] or player.NAME)", path, "type")
            return "_dummy[0]", None, None
        if name not in pool:
            self.ctx.unknown(want, name, pool, path, offset=offset_of(node) if node is not tree else 0)
            return "_dummy[0]", None, None
        before = len(self.ctx.diags)
        src, _ = self.expr(str(text), path, locals, has_me)
        if len(self.ctx.diags) > before:   # reported (e.g. 'me' where no player acts): no lvalue
            return "_dummy[0]", None, None
        # checked; now the plain subscript an assignment needs (compile() may put a prelude first)
        self.ctx.compiler.cost = 0
        try:
            src, _ = self.ctx.compiler.node(tree, _scope(locals, has_me))
        except ExprError as e:    # reported once already (a broken define is reported where first used)
            if not any(d.severity == "error" for d in self.ctx.diags):
                self.ctx.expr_error(e, path)
            return "_dummy[0]", None, None
        owner = None
        if pool[name] in ("player", "team"):
            by_team = pool[name] == "team"
            if tree.data == "name":
                owner = ("S.tm[me]" if by_team else "me", by_team)
            else:
                key_node = tree.children[1] if tree.data == "index" else tree.children[0]
                try:
                    key_src, key_type = self.ctx.compiler.node(key_node, _scope(locals, has_me))
                except ExprError as e:
                    self.ctx.expr_error(e, path)
                    return "_dummy[0]", None, None
                if by_team and key_type != TEAM:
                    key_src = f"S.tm[{key_src}]"
                owner = (key_src, by_team)
        return src, name, owner

    def name(self, value, path, what="name"):
        """A declared name written in YAML: a plain identifier, or None (after an error)."""
        if isinstance(value, str) and value.isidentifier():
            return value
        self.ctx.error(f"expected a {what} (a plain name), got {value!r:.40}", path, "type")
        return None

    def event(self, em, payload: str, unless_empty: str | None = None) -> None:
        """Log an event when the game records them (``unless_empty``: not when that list is empty)."""
        when = f" and {unless_empty}" if unless_empty else ""
        em.line(f"if S.ev is not None{when}: S.ev.append({payload})")

    # ------------------------------------------------------------------ counters
    @staticmethod
    def take(em, amount: str, src: str, dst: str | None) -> str:
        """Emit: move up to ``amount`` out of counter ``src`` (into ``dst``); the moved amount's name."""
        a = em.fresh("_a")
        em.line(f"{a} = max(0, min({_bounded(amount)}, {src}))")
        em.line(f"{src} -= {a}")
        if dst is not None:
            em.line(f"{dst} += {a}")
        return a

    def e_gain(self, em, spec, path, locals, has_me):
        spec = self._spec(spec, path, ("counter",), ("amount", "from"))
        if spec is None:
            return
        dst, name = self.target(spec["counter"], (*path, "counter"), locals, has_me, "counter")
        amount, _ = self.expr(spec.get("amount", 1), (*path, "amount"), locals, has_me, INT)
        if "from" in spec:   # a limited supply gives what it has
            src, _ = self.target(spec["from"], (*path, "from"), locals, has_me, "counter")
            a = self.take(em, amount, src, dst)
        else:
            a = em.fresh("_a")
            em.line(f"{a} = {_bounded(amount)}")
            em.line(f"{dst} += {a}")
        self.event(em, f"{{'ev': 'gain', 'counter': {name!r}, 'who': me, 'amount': {a}}}")

    def e_lose(self, em, spec, path, locals, has_me):
        spec = self._spec(spec, path, ("counter",), ("amount", "to"))
        if spec is None:
            return
        src, name = self.target(spec["counter"], (*path, "counter"), locals, has_me, "counter")
        amount, _ = self.expr(spec.get("amount", 1), (*path, "amount"), locals, has_me, INT)
        dst = self.target(spec["to"], (*path, "to"), locals, has_me, "counter")[0] if "to" in spec else None
        a = self.take(em, amount, src, dst)
        self.event(em, f"{{'ev': 'lose', 'counter': {name!r}, 'who': me, 'amount': {a}}}")

    def e_transfer(self, em, spec, path, locals, has_me):
        spec = self._spec(spec, path, ("from", "to"), ("amount",))
        if spec is None:
            return
        src, sname = self.target(spec["from"], (*path, "from"), locals, has_me, "counter")
        dst, dname = self.target(spec["to"], (*path, "to"), locals, has_me, "counter")
        amount, _ = self.expr(spec.get("amount", 1), (*path, "amount"), locals, has_me, INT)
        a = self.take(em, amount, src, dst)
        self.event(em, f"{{'ev': 'transfer', 'from': {sname!r}, 'to': {dname!r}, 'who': me, 'amount': {a}}}")

    def e_reset(self, em, spec, path, locals, has_me):
        names = spec if isinstance(spec, list) else [spec]
        counters = self.ctx.names.counters
        for i, name in enumerate(names):
            name = self.name(name, (*path, i) if isinstance(spec, list) else path, "counter name")
            if name is None:
                continue
            p = (*path, i) if isinstance(spec, list) else path
            if name not in counters:
                self.ctx.unknown("counter", name, counters, p)
                continue
            self.ctx.compiler.used.add(name)
            start = (self.ctx.counter_decl.get(name) or {}).get("start", 0)
            src, _ = self.expr(start, ("counters", name, "start"), {}, False, INT)
            if counters[name] == "none":
                em.line(f"S.c[{name!r}] = {src}")
            else:
                em.line(f"S.c[{name!r}] = [{src}] * len(S.c[{name!r}])")
        self.event(em, f"{{'ev': 'reset', 'counters': {list(names)!r}}}")

    # ------------------------------------------------------------------ variables
    def e_set(self, em, spec, path, locals, has_me):
        if not isinstance(spec, dict) or not spec:
            self.ctx.error("set takes a mapping of variable: expression", path, "effect")
            return
        for var, text in spec.items():
            self.ctx.compiler.used.add(var)
            if var not in self.ctx.names.vars:
                self.ctx.unknown("variable", var, self.ctx.names.vars, (*path, var), key=True)
                continue
            src, typ = self.expr(text, (*path, var), locals, has_me)
            want = self.ctx.names.vars[var]
            if not fits(typ, want):
                self.ctx.error(f"variable '{var}' is declared {want}, got {typ}", (*path, var), "type")
            em.line(f"S.v[{var!r}] = {_bounded(src) if _can_grow(typ) else src}")
            self.event(em, f"{{'ev': 'set', 'var': {var!r}, 'value': S.v[{var!r}]}}")

    def e_random(self, em, spec, path, locals, has_me):
        spec = self._spec(spec, path, ("var", "from"))
        if spec is None:
            return
        var = self.name(spec["var"], (*path, "var"), "variable name")
        if var is None:
            return
        self.ctx.compiler.used.add(var)
        if var not in self.ctx.names.vars:
            self.ctx.unknown("variable", var, self.ctx.names.vars, (*path, "var"))
            return
        src, typ = self.expr(spec["from"], (*path, "from"), locals, has_me, "list")
        t = em.fresh()
        em.line(f"{t} = {src}")
        em.line(f"S.v[{var!r}] = {t}[_below(S, len({t}))] if {t} else None")
        self.event(em, f"{{'ev': 'random', 'var': {var!r}, 'value': S.v[{var!r}]}}")

    # ------------------------------------------------------------------ cards
    def e_move(self, em, spec, path, locals, has_me):
        spec = self._spec(spec, path, ("from", "to"), ("cards", "count", "bottom"))
        if spec is None:
            return
        src, sname = self.target(spec["from"], (*path, "from"), locals, has_me, "zone")
        dst, dname, downer = self.target_owner(spec["to"], (*path, "to"), locals, has_me, "zone")
        s, d, cs = em.fresh("_s"), em.fresh("_d"), em.fresh("_c")
        em.line(f"{s} = {src}")
        em.line(f"{d} = {dst}")
        if "cards" in spec:
            csrc, _ = self.expr(spec["cards"], (*path, "cards"), locals, has_me, "list")
            em.line(f"{cs} = list({csrc})")
            em.line(f"for _x in {cs}: {s}.remove(_x)")
        elif "count" in spec:
            n, _ = self.expr(spec["count"], (*path, "count"), locals, has_me, INT)
            k = em.fresh("_k")
            em.line(f"{k} = max(0, min({n}, len({s})))")
            em.line(f"{cs} = {s}[len({s}) - {k}:][::-1]")   # the top of a pile is its end
            em.line(f"del {s}[len({s}) - {k}:]")
        else:
            em.line(f"{cs} = {s}[:]")
            em.line(f"{s}.clear()")
        bottom = spec.get("bottom")
        if bottom and dname and self.ctx.zone_sorted(dname):
            self.ctx.warn(f"zone '{dname}' is kept sorted: bottom: has no effect on where the cards go",
                          (*path, "bottom"), "sorted")
            bottom = False
        if bottom:
            em.line(f"{d}[0:0] = {cs}[::-1]")   # under the pile: the first card moved ends lowest
            self.notify(em, dname, cs, downer)
        else:
            self.put(em, d, cs, dname, downer)
        self.event(em, f"{{'ev': 'move', 'from': {sname!r}, 'to': {dname!r}, 'cards': {cs}}}", cs)   # no empty moves

    def put(self, em, dst_var, cards_var, zone_name, owner=None):
        if zone_name and self.ctx.zone_sorted(zone_name):
            em.line(f"for _x in {cards_var}: _insort({dst_var}, _x)")
        else:
            em.line(f"{dst_var}.extend({cards_var})")
        self.notify(em, zone_name, cards_var, owner)

    def notify(self, em, zone_name, cards_var, owner):
        """Call the enter triggers of the zone, if it has any (known at compile time)."""
        if zone_name in self.ctx.triggers.enter:
            who, by_team = owner if owner is not None else ("None", False)
            em.line(f"_triggers.entered(S, {zone_name!r}, {who}, {by_team}, {cards_var}, me)")

    def e_shuffle(self, em, spec, path, locals, has_me):
        src, name = self.target(spec, path, locals, has_me, "zone")
        em.line(f"_shuffle(S, {src})")
        if name and self.ctx.zone_sorted(name):   # the draws are made all the same (the same games)
            self.ctx.warn(f"zone '{name}' is kept sorted: shuffling it does not change its order", path, "sorted")
            em.line(f"{src}.sort()")

    def e_deal(self, em, spec, path, locals, has_me):
        spec = self._spec(spec, path, ("from", "to", "count"), ("players", "start"))
        if spec is None:
            return
        src, _ = self.target(spec["from"], (*path, "from"), locals, has_me, "zone")
        to = self.name(spec["to"], (*path, "to"), "zone name")
        if to is None:
            return
        self.ctx.compiler.used.add(to)
        if to not in self.ctx.names.zones:
            self.ctx.unknown("zone", to, self.ctx.names.zones, (*path, "to"))
            return
        if self.ctx.names.zones[to] == "none":
            self.ctx.error(f"deal: '{to}' must be a zone owned by each player or team", (*path, "to"), "type")
            return
        n, _ = self.expr(spec["count"], (*path, "count"), locals, has_me, INT)
        who, _ = self.expr(spec.get("players", "players"), (*path, "players"), locals, has_me, "list")
        s, w, k = em.fresh("_s"), em.fresh("_w"), em.fresh("_k")
        em.line(f"{s} = {src}")
        em.line(f"{w} = {who}")
        if "start" in spec:
            st, _ = self.expr(spec["start"], (*path, "start"), locals, has_me, PLAYER)
            i = em.fresh("_i")
            em.line(f"{i} = {w}.index({st}) if {st} in {w} else 0")
            em.line(f"{w} = {w}[{i}:] + {w}[:{i}]")
        zone = f"S.z[{to!r}]"
        key = "S.tm[_p]" if self.ctx.names.zones[to] == "team" else "_p"
        em.line(f"{k} = {n}")
        em.line(f"for _r in range({k}):")
        em.line(f"    for _p in {w}:")
        if to in self.ctx.triggers.enter:
            em.line(f"        if {s}: {zone}[{key}].append({s}[-1]); "
                    f"_triggers.entered(S, {to!r}, {key}, {self.ctx.names.zones[to] == 'team'}, [{s}.pop()], me)")
        else:
            em.line(f"        if {s}: {zone}[{key}].append({s}.pop())")
        if self.ctx.zone_sorted(to):
            em.line(f"for _h in {zone}: _h.sort()")
        self.event(em, f"{{'ev': 'deal', 'to': {to!r}, 'count': {k}}}")

    def e_gather(self, em, spec, path, locals, has_me):
        spec = self._spec(spec, path, ("from", "to"))
        if spec is None:
            return
        dst, dname = self.target(spec["to"], (*path, "to"), locals, has_me, "zone")
        froms = spec["from"] if isinstance(spec["from"], list) else [spec["from"]]
        d = em.fresh("_d")
        em.line(f"{d} = {dst}")
        for i, zname in enumerate(froms):
            if self.name(zname, (*path, "from", i) if isinstance(spec["from"], list) else (*path, "from"),
                         "zone name") is None:
                continue
            self.ctx.compiler.used.add(zname)
            zpath = (*path, "from", i) if isinstance(spec["from"], list) else (*path, "from")
            if zname not in self.ctx.names.zones:
                self.ctx.unknown("zone", zname, self.ctx.names.zones, zpath)
                continue
            if self.ctx.names.zones[zname] == "none":
                em.line(f"{d}.extend(S.z[{zname!r}]); S.z[{zname!r}].clear()")
            else:
                # filter(None, ...) skips the empty ones in C (a zone per card: hundreds of them)
                em.line(f"for _h in filter(None, S.z[{zname!r}]): {d}.extend(_h); _h.clear()")
        if dname and self.ctx.zone_sorted(dname):
            em.line(f"{d}.sort()")
        self.event(em, f"{{'ev': 'gather', 'to': {dname!r}}}")

    # ------------------------------------------------------------------ control
    def indented(self, em, header, items, path, locals, has_me):
        """Emit ``header`` (an if/else/for line) and the effect list under it."""
        em.line(header)
        em.depth += 1
        self.block(em, items, path, locals, has_me)
        em.depth -= 1

    def e_if(self, em, item, path, locals, has_me):
        for k in item:
            if k not in ("if", "then", "else"):
                self.ctx.unknown("key", k, ["if", "then", "else"], (*path, k), key=True)
        cond, _ = self.expr(item["if"], (*path, "if"), locals, has_me, BOOL)
        self.indented(em, f"if {cond}:", item.get("then", []), (*path, "then"), locals, has_me)
        if item.get("else"):
            self.indented(em, "else:", item["else"], (*path, "else"), locals, has_me)

    def e_switch(self, em, item, path, locals, has_me):
        for k in item:
            if k not in ("switch", "cases", "default"):
                self.ctx.unknown("key", k, ["switch", "cases", "default"], (*path, k), key=True)
        value, typ = self.expr(item["switch"], (*path, "switch"), locals, has_me)
        cases = item.get("cases") or {}
        if not isinstance(cases, dict) or not cases:
            self.ctx.error("switch needs cases: {VALUE: [effects], ...}", (*path, "cases"), "effect")
            return
        v = em.fresh("_v")
        em.line(f"{v} = {value}")
        for i, (key, body) in enumerate(cases.items()):
            lit = repr(int(key)) if typ in (INT, PLAYER, TEAM) and str(key).lstrip("-").isdigit() else repr(key)
            self.indented(em, f"{'if' if i == 0 else 'elif'} {v} == {lit}:", body, (*path, "cases", key),
                          locals, has_me)
        if item.get("default"):
            self.indented(em, "else:", item["default"], (*path, "default"), locals, has_me)

    def e_for_each(self, em, spec, path, locals, has_me):
        spec = self._spec(spec, path, ("in", "do"), ("as",))
        if spec is None:
            return
        src, typ = self.expr(spec["in"], (*path, "in"), locals, has_me, "list")
        var = self.name(spec.get("as", "it"), (*path, "as"), "name for the element")
        if var is None:
            return
        if var == "me":
            saved = em.fresh("_me")
            em.line(f"{saved} = me")
            em.line(f"for me in {src}:")
            em.depth += 1
            self.count_step(em, path)
            self.block(em, spec["do"], (*path, "do"), locals, True)
            em.depth -= 1
            em.line(f"me = {saved}")
            return
        inner = dict(locals)
        inner[var] = elem(typ)
        em.line("L = dict(L) if L else {}")
        em.line(f"for _x in {src}:")
        em.depth += 1
        self.count_step(em, path)
        em.line(f"L[{var!r}] = _x")
        self.block(em, spec["do"], (*path, "do"), inner, has_me)
        em.depth -= 1

    def count_step(self, em, path):
        """Emit: one more step against the game's step budget (a pass of an effect loop), so
        that loops nested in effects cannot run for ever either (engine.over_budget)."""
        ns = self.ctx.names.namespace
        loc = f"_loc{len(ns)}"
        ns[loc] = self.ctx.smap.loc(path)
        em.line("S.steps += 1")
        em.line(f"if S.steps > S.rules.max_steps: _over_budget(S, {loc})")

    def e_with_player(self, em, spec, path, locals, has_me):
        spec = self._spec(spec, path, ("who", "do"))
        if spec is None:
            return
        who, typ = self.expr(spec["who"], (*path, "who"), locals, has_me, PLAYER)
        saved, w = em.fresh("_me"), em.fresh("_w")
        em.line(f"{w} = {who}")
        if typ == TEAM:   # a team acts through its first member
            em.line(f"{w} = None if {w} is None else S.members[{w}][0]")
        em.line(f"if {w} is not None:")
        em.depth += 1
        em.line(f"{saved} = me")
        em.line(f"me = {w}")
        self.block(em, spec["do"], (*path, "do"), locals, True)
        em.line(f"me = {saved}")
        em.depth -= 1

    def e_end_game(self, em, spec, path, locals, has_me):
        self.ctx.has_end_game = True
        em.line("S.over = True")
        self.event(em, "{'ev': 'end_game'}")

    # ------------------------------------------------------------------ declared effects
    def call(self, em, name, spec, path, locals, has_me):
        if name in self._compiling:
            self.ctx.error(f"effect '{name}' calls itself (effects may not recurse)", path, "cycle")
            return
        params = self.named[name][0]
        args = spec or {}
        if not isinstance(args, dict):
            self.ctx.error(f"effect '{name}' takes a mapping of arguments", path, "effect")
            return
        parts = []
        missing = [k for k in params if k not in args]
        for k, v in args.items():
            if k not in params:
                close = did_you_mean(str(k), params) or (missing[0] if len(missing) == 1 else None)
                takes = f"its arguments: {', '.join(params)}" if params else "it takes no arguments"
                self.ctx.error(f"effect '{name}' has no argument '{k}'", (*path, k), "unknown-name",
                               f"did you mean '{close}'?" if close else takes, key=True, span=len(str(k)))
                continue
            src, typ = self.expr(v, (*path, k), locals, has_me)
            if not fits(typ, params[k]):
                self.ctx.error(f"argument '{k}' of effect '{name}' is declared {params[k]}, got {typ}", (*path, k),
                               "type")
            parts.append(f"{k!r}: {src}")
        unknown = [k for k in args if k not in params]
        for k in missing:
            if len(missing) == 1 and len(unknown) == 1:
                continue   # a misspelt argument: reported once, with its did-you-mean
            self.ctx.error(f"effect '{name}' needs argument '{k}'", path, "missing-key")
        self.compile_named(name)
        self.ctx.compiler.used.add(name)
        em.line(f"E_{name}(S, me, {{{', '.join(parts)}}})")


def _can_grow(typ: str) -> bool:
    """Values of this type could grow without bound if stored again and again (docs/language.md §1)."""
    return typ in (INT, ANY, STR) or is_list(typ)


def _bounded(src: str) -> str:
    """The source of a value to store or add, checked against the language's bounds when it is
    not a small literal (runtime._stored)."""
    if src.lstrip("-").isdigit() and abs(int(src)) <= MAX_INT:
        return src
    return f"_stored({src})"
