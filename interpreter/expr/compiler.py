"""Resolve, type-check and compile an expression tree to Python source.

The generated source is built only from the checked tree: user text reaches it only as
``repr()`` of string literals and of declared names used as dict keys, so a ruleset can
never inject code. The source is evaluated once, in a namespace without builtins, into a
``lambda S, me, L: ...``:

- ``S`` the game state (``S.z`` zones, ``S.c`` counters, ``S.v`` variables, ``S.p`` params,
  ``S.tm`` team of each seat, ``S.n`` number of players),
- ``me`` the acting seat (or None),
- ``L`` the local bindings of a hook or effect (``card``, ``led``, effect parameters...).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Callable

from lark import Token, Tree

from . import runtime
from .runtime import _SCAN_OPS, scanner
from .parser import ExprError, offset_of, parse
from .statements import as_statements
from .types import ANY, BOOL, CARD, INT, NONE, NUM, PLAYER, STR, TEAM, elem, is_list, list_of, is_numeric, unify
from ..errors import did_you_mean


@dataclass
class Names:
    """Everything a ruleset declares that an expression may name."""
    zones: dict = field(default_factory=dict)      # name -> owner: "none" | "player" | "team"
    counters: dict = field(default_factory=dict)   # name -> owner
    vars: dict = field(default_factory=dict)       # name -> type
    params: dict = field(default_factory=dict)     # name -> type
    attrs: dict = field(default_factory=dict)      # card attribute -> type
    defines: dict = field(default_factory=dict)    # name -> expression source
    namespace: dict = field(default_factory=dict)  # evaluation globals (attribute tables...)
    max_list: int = 100                            # the longest a zone can be (the number of cards)
    max_players: int = 64                          # the longest the list of players or teams can be
    sorted_zones: set = field(default_factory=set)  # zones declared sorted: true (always in card order)

    def all_names(self):
        return [*self.zones, *self.counters, *self.vars, *self.defines, *CONSTANTS]


@dataclass
class Compiled:
    source: str          # a Python expression over S, me, L
    type: str
    fn: Callable | None = None
    distinct: bool = False   # its values never share a label (a range, combos()...): no need to dedupe

    def __call__(self, S, me=None, L=None):
        return self.fn(S, me, L)


CONSTANTS = {
    "me": ("me", PLAYER),
    "players": ("S.players", list_of(PLAYER)),
    "teams": ("S.teams", list_of(TEAM)),
    "num_players": ("S.n", INT),
    "num_teams": ("len(S.teams)", INT),
}

MAX_COST = 1_000_000   # worst-case operations of one expression (nested filters multiply)

_ARITH = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%"}
MAX_SOURCE = 50_000   # characters of generated Python for one expression, defines expanded
MAX_EXPANSIONS = 500  # uses of defines expanded in one expression (defines using defines multiply)


def _one_type(types, what, node) -> str:
    """The common type of list items / if-else branches; mixing unrelated types is an error."""
    typ = unify(types)
    if ANY in typ and not any(ANY in t for t in types):
        shown = ", ".join(dict.fromkeys(t for t in types if t != NONE))
        raise ExprError(f"{what} must have one type: {shown}", offset_of(node), code="type")
    return typ


class Compiler:
    """Compiles expressions of one ruleset. ``locals`` maps local names to types."""

    def __init__(self, names: Names):
        self.names = names
        self._counter = 0
        self._define_stack: list[str] = []
        self._expansions = 0
        self.used: set[str] = set()   # declared names some expression refers to (unused-name warnings)
        self.cost = 0                 # worst-case operations of the expression being compiled
        self._hoisted = None          # names of loop-invariant calls lifted out of filters
        self._tables = None           # S.c['x'] / S.z['x'] / S.p['x'] read in loops -> a name bound once
        self._tables_above = 1        # tables are named when self._mult exceeds this (inside a loop)
        self._tag = ""                # tells apart the names of expressions compiled to run together
        self._filters: dict = {}      # source of a filter -> its comprehension clauses
        self._parts: dict = {}        # source of a filter -> (element variable, list, condition)
        self._counts: dict = {}       # source of count(filter) -> the filter's clauses
        self._counted: dict = {}      # source of count(filter) -> the filter's source
        self._mapped: dict = {}       # source of map(ZONE, to: attr) -> (attribute table, zone)
        self._unhoisted: dict = {}    # source of a hoisted call -> the call (see hoist)
        self._maps: dict = {}         # source of a map(...) -> the source of its list
        self.lambda_vars: set = set() # element variables bound by a generated lambda
        self._varying: tuple = ()     # sources of locals that change with the element (compile_element)
        self._mult = 1                # how many times the node being compiled may run
        self._sizes: dict = {}        # id(list node) -> the most elements it can have

    # ------------------------------------------------------------------ entry points
    def compile(self, text: str, locals: dict | None = None, has_me: bool = True,
                expect: str | None = None) -> Compiled:
        tree = parse(text)
        scope = _Scope(dict(locals or {}), has_me, [])
        self._expansions = 0
        self.cost, self._mult, self._sizes = 0, 1, {}
        self._hoisted, self._tables, self._tables_above, self._tag = [], {}, 1, ""
        try:
            src, typ = self.node(tree, scope)
            if expect is not None:
                self.expect_type(typ, expect, tree)
            prelude = self.prelude()
            if prelude:
                hoisted_src = "(" + prelude + src + ")[-1]"   # an expression, for code that embeds it
                try:
                    return Compiled(hoisted_src, typ, self.to_function(src, text, self.prelude_lines()),
                                    _labels_distinct(tree))
                except ExprError:   # Python refuses := in some comprehension positions: compile plainly
                    self._hoisted = self._tables = None
                    self.cost, self._mult, self._sizes, self._expansions = 0, 1, {}, 0
                    src, typ = self.node(tree, scope)
        finally:
            self._hoisted = self._tables = None
        fn = self.to_function(src, text)
        return Compiled(src, typ, fn, _labels_distinct(tree))

    def compile_offers(self, texts: list, has_me: bool = True, name: str = "offers") -> Callable | None:
        """One function ``f(S, me, L) -> tuple`` of the indexes of the conditions that hold
        (None: always), for a step that offers alternatives: one call per question instead of
        one per alternative, and the tables the conditions read are looked up once. None if it
        cannot be built (each condition was compiled, and its errors reported, on its own)."""
        self._expansions = 0
        self.cost, self._mult, self._sizes = 0, 1, {}
        self._hoisted, self._tables, self._tables_above, self._tag = [], {}, 0, ""
        tests = []
        try:
            for i, text in enumerate(texts):
                if text is None:
                    tests.append(f"        _r.append({i})")
                    continue
                src, typ = self.node(parse(text), _Scope({}, has_me, []))
                if typ not in (BOOL, ANY):
                    return None
                loops = as_statements(src, "_ok")   # any() over a generator as a loop (statements.py)
                if loops is None:
                    tests.append(f"        if {src}: _r.append({i})")
                else:
                    tests += [f"        {line}" for line in loops] + [f"        if _ok: _r.append({i})"]
            first = [f"        {line}" for line in self.prelude_lines()]
        except ExprError:
            return None
        finally:
            self._hoisted = self._tables = None
        body = "\n".join(["def _expr(S, me, L):", "    try:", *first, "        _r = []", *tests,
                          "        return tuple(_r)", "    except TypeError as e:", "        raise _none_used(e)", ""])
        if len(body) > MAX_SOURCE * max(1, len(texts)):
            return None
        try:
            local: dict = {}
            exec(compile(body, f"<{name}>", "exec"), self.names.namespace, local)  # noqa: S102 - generated
            return local["_expr"]
        except (SyntaxError, RecursionError, MemoryError):
            return None

    def _bindings(self) -> list[tuple[str, str]]:
        """(name, source) a compiled expression binds first: each table it reads in a loop (once,
        so the loop reads a local), then each hoisted call as not computed yet."""
        return ([(name, src) for src, name in (self._tables or {}).items()]
                + [(h, "_U") for h in (self._hoisted or ())])

    def prelude_lines(self) -> list[str]:
        """The bindings as statements (the body of a generated function)."""
        return [f"{name} = {src}" for name, src in self._bindings()]

    def prelude(self) -> str:
        """The bindings as an expression prefix, for code that embeds the expression."""
        return "".join(f"({name} := {src}), " for name, src in self._bindings())

    def table(self, src: str) -> str:
        """``S.c['x']`` (a counter, zone or parameter table) as read here: inside a loop, a name
        the expression binds once before it runs (the table object does not change while an
        expression is evaluated: expressions have no side effects)."""
        if self._tables is None or self._mult <= self._tables_above:
            return src
        name = self._tables.get(src)
        if name is None:
            name = self._tables[src] = f"_t{self._tag}{len(self._tables)}"
        return name

    def compile_element(self, text: str, locals: dict | None = None, has_me: bool = True,
                        element: str = CARD, expect: str | None = None, var: str = "_it",
                        varying: tuple = (), tag: str = ""):
        """Source of an expression about an element ``var`` (as in where / by:), for a mechanic
        that builds its own comprehension: returns (source, type, prelude). The caller puts the
        prelude (see prelude(); it binds names) before the comprehension, once per evaluation.
        ``varying``: locals whose value changes with the element (never hoisted). ``tag`` keeps
        the names of expressions that share one prelude apart."""
        tree = parse(text)
        scope = _Scope(dict(locals or {}), has_me, [(var, element)])
        self._expansions = 0
        self.cost, self._mult, self._sizes = 0, 1, {}   # per element, as element_fn
        self._hoisted, self._tables, self._tables_above, self._tag = [], {}, 0, tag
        self._varying = tuple(f"L[{name!r}]" for name in varying)
        try:
            src, typ = self.node(tree, scope)
            if expect is not None:
                self.expect_type(typ, expect, tree)
            return src, typ, self.prelude()
        finally:
            self._hoisted = self._tables = None
            self._varying = ()
            self._tag = ""

    def to_function(self, src: str, text: str = "", first: list | tuple = ()) -> Callable:
        """The function of a generated source (after the assignments ``first``, the prelude);
        its code is named after the expression's text, so profiles and tracebacks say which
        rule is running."""
        if len(src) > MAX_SOURCE:
            raise ExprError(f"expression is too large once its defines are expanded (limit {MAX_SOURCE} "
                            "characters of code)", 0, code="limit")
        # a def, not a lambda, so that using none as a value (first() of an empty list...) is the
        # language's runtime error rather than Python's TypeError (try costs nothing in 3.11)
        loops = as_statements(src, "_ok")   # any() over a generator as a loop (statements.py)
        result = f"{src}\n" if loops is None else "_ok\n"
        lines = "".join(f"        {line}\n" for line in (*first, *(loops or ())))
        body = (f"def _expr(S, me, L):\n    try:\n{lines}        return {result}"
                f"    except TypeError as e:\n        raise _none_used(e)\n")
        try:
            code = compile(body, f"<expr {text[:60]}>", "exec")
            local: dict = {}
            exec(code, self.names.namespace, local)  # noqa: S102 - source is generated
            return local["_expr"]
        except (SyntaxError, RecursionError, MemoryError):   # e.g. Python's limit of nested parentheses
            raise ExprError("expression is nested too deeply once its defines are expanded", 0,
                            code="limit") from None

    def expect_type(self, typ: str, expect: str, node) -> None:
        if expect == BOOL and typ not in (BOOL, ANY):
            raise ExprError(f"expected a condition (true/false), got {typ}", offset_of(node), code="type")
        if expect in (INT, NUM) and not is_numeric(typ):
            raise ExprError(f"expected a number, got {typ}", offset_of(node), code="type")
        if expect == "list" and not is_list(typ) and typ != ANY:
            raise ExprError(f"expected a list, got {typ}", offset_of(node), code="type")
        if expect == PLAYER and typ not in (PLAYER, INT, TEAM, ANY, NONE):
            raise ExprError(f"expected a player, got {typ}", offset_of(node), code="type")

    def fresh(self) -> str:
        self._counter += 1
        return f"_e{self._counter}"

    # ------------------------------------------------------------------ dispatch
    def node(self, n, scope: "_Scope") -> tuple[str, str]:
        if isinstance(n, Token):  # bare token (should not happen with this grammar)
            raise ExprError(f"unexpected {n.value!r}", n.start_pos or 0)
        method = getattr(self, "n_" + n.data, None)
        if method is None:
            raise ExprError(f"unsupported construct '{n.data}'", offset_of(n))
        self.cost += self._mult
        if self.cost > MAX_COST:
            raise ExprError(f"this expression may take more than {MAX_COST:,} operations to evaluate "
                            "(nested filters over long lists); simplify it", offset_of(n), code="limit")
        src, typ = method(n, scope)
        if n.data == "call":
            src = self.hoist(src, scope)
        return src, typ

    def hoist(self, src: str, scope) -> str:
        """A call that does not depend on the element of the filter around it is computed once
        per evaluation, on first use (lazily, so an empty list still computes nothing)."""
        if scope.elements and self._hoisted is not None and self._invariant(src, scope):
            name = f"_h{self._tag}{len(self._hoisted)}"
            self._hoisted.append(name)
            hoisted = f"({name} if {name} is not _U else ({name} := {src}))"
            self._unhoisted[hoisted] = src
            return hoisted
        return src

    def _invariant(self, src: str, scope) -> bool:
        """Worth hoisting: the call iterates (cheap lookups are not worth the bookkeeping), is not
        inside a generated lambda, and uses neither the element of an enclosing filter nor a local
        that changes with the element."""
        costly = " for " in src or "lambda" in src or (src.startswith("_") and not src.startswith(_CHEAP))
        return (costly and not any(var in self.lambda_vars for var, _ in scope.elements)
                and not any(v in src for v in self._varying)
                and not any(re.search(r"\b" + var + r"\b", src) for var, _ in scope.elements))

    # worst-case cost: the body of a filter or a by: runs once per element of its list
    def size(self, n) -> int:
        return self._sizes.get(id(n), self.names.max_list)

    def sized(self, n, bound: int) -> None:
        self._sizes[id(n)] = max(1, bound)

    def in_loop(self, coll_node, compile_body):
        saved = self._mult
        self._mult = saved * self.size(coll_node)
        try:
            return compile_body()
        finally:
            self._mult = saved

    # literals
    def n_int_(self, n, scope):
        return repr(int(n.children[0])), INT

    def n_float_(self, n, scope):
        return repr(float(n.children[0])), NUM

    def n_string(self, n, scope):
        return repr(str(n.children[0])[1:-1]), STR

    def n_true(self, n, scope):
        return "True", BOOL

    def n_false(self, n, scope):
        return "False", BOOL

    def n_none(self, n, scope):
        return "None", NONE

    def n_list_(self, n, scope):
        items = [self.node(c, scope) for c in n.children if c is not None]
        typ = list_of(_one_type([t for _, t in items], "the items of a list", n) if items else ANY)
        self.sized(n, len(items))
        return "[" + ", ".join(s for s, _ in items) + "]", typ

    def n_range(self, n, scope):
        (a, ta), (b, tb) = self.node(n.children[0], scope), self.node(n.children[1], scope)
        for t, c in ((ta, n.children[0]), (tb, n.children[1])):
            if t not in (INT, PLAYER, TEAM, ANY):
                raise ExprError(f"a range needs whole numbers, got {t}", offset_of(c), code="type")
        lo, hi = n.children
        if all(isinstance(x, Tree) and x.data == "int_" for x in (lo, hi)):
            self.sized(n, int(hi.children[0]) - int(lo.children[0]) + 1)
        else:
            self.sized(n, runtime.MAX_RANGE)
        return f"_range({a}, {b})", list_of(INT)

    # names
    def n_name(self, n, scope):
        name = str(n.children[0])
        return self.resolve_name(name, scope, n)

    def resolve_name(self, name: str, scope: "_Scope", node) -> tuple[str, str]:
        # 1. the implicit element of where / by: its attributes or per-owner values
        for var, typ in reversed(scope.elements):
            if name == "it":
                return var, typ
            found = self.member(var, typ, name, node)
            if found is not None:
                return found
        # 2. local bindings
        if name in scope.locals:
            return f"L[{name!r}]", scope.locals[name]
        # 3. constants
        if name in CONSTANTS:
            if name == "me" and not scope.has_me:
                raise ExprError("'me' has no meaning here: no player is acting", offset_of(node), code="unknown-name")
            if name in ("players", "teams"):
                self.sized(node, self.names.max_players)
            return CONSTANTS[name]
        names = self.names
        if name in names.vars:
            self.used.add(name)
            return f"S.v[{name!r}]", names.vars[name]
        if name in names.zones or name in names.counters:
            self.used.add(name)
            return self.owned(name, "me", PLAYER, scope, node, implicit=True)
        if name in names.defines:
            self.used.add(name)
            return self.define(name, scope, node)
        if name == "params":
            raise ExprError("write params.NAME to use a parameter", offset_of(node), code="unknown-name")
        candidates = [*names.all_names(), *scope.locals, "params"]
        if scope.elements:
            candidates += ["it", *names.attrs]
        hint = did_you_mean(name, candidates)
        hint = f"did you mean '{hint}'?" if hint else None
        if hint is None and any(t == CARD for _, t in scope.elements) and names.attrs:
            hint = "a card's attributes are " + ", ".join(sorted(names.attrs))
        raise ExprError(f"unknown name '{name}'", offset_of(node), hint, code="unknown-name", span=len(name))

    def define(self, name, scope, node):
        if name in self._define_stack:
            cycle = [*self._define_stack[self._define_stack.index(name):], name]
            through = f" (through {' -> '.join(cycle)})" if len(cycle) > 2 else ""
            e = ExprError(f"define '{name}' refers to itself{through}", offset_of(node),
                          "a define may not use itself, directly or through other defines", code="cycle",
                          span=len(name))
            e.cycle = frozenset(cycle)   # the same cycle met again is reported once (build.py)
            raise e
        self._expansions += 1
        if self._expansions > MAX_EXPANSIONS:
            raise ExprError(f"defines are expanded more than {MAX_EXPANSIONS} times in this expression",
                            offset_of(node), code="limit")
        self._define_stack.append(name)
        try:
            tree = parse(self.names.defines[name])
            src, typ = self.node(tree, scope)
            if len(src) > MAX_SOURCE:
                raise ExprError(f"expands to too much code (limit {MAX_SOURCE} characters)", 0, code="limit")
        except ExprError as e:
            if e.code == "cycle":   # the chain already says where: keep it, point at this use
                e.offset, e.span = offset_of(node), len(name)
                raise
            raise ExprError(f"in define '{name}': {e.message}", offset_of(node), e.hint, e.code) from None
        finally:
            self._define_stack.pop()
        return f"({src})", typ

    def member(self, var: str, typ: str, name: str, node=None):
        """``name`` read off an element of type ``typ`` (card attribute, or a player's value)."""
        if typ == CARD and name in self.names.attrs:
            return f"A_{name}[{var}]", self.names.attrs[name]
        self.used.add(name)
        owner = self.names.zones.get(name) or self.names.counters.get(name)
        if owner is not None and (typ in (PLAYER, TEAM) and owner in ("player", "team")
                                  or typ == CARD and owner == "card"):
            return self.owned(name, var, typ, None, node)
        return None

    def owned(self, name, who_src, who_type, scope, node, implicit=False):
        """The value of zone/counter ``name`` owned by ``who_src``."""
        names = self.names
        is_zone = name in names.zones
        owner = names.zones[name] if is_zone else names.counters[name]
        base = self.table(f"S.z[{name!r}]" if is_zone else f"S.c[{name!r}]")
        typ = list_of(CARD) if is_zone else INT
        if owner == "none":
            return base, typ
        if implicit and scope is not None and not scope.has_me:
            raise ExprError(f"'{name}' belongs to each {owner}: write {name}[p] (no player is acting here)",
                            offset_of(node), code="unknown-name")
        if owner == "card":
            if who_type not in (CARD, ANY):
                raise ExprError(f"'{name}' belongs to each card: write {name}[c] or c.{name} with a card c",
                                offset_of(node) if node is not None else 0, code="type")
            return f"{base}[{who_src}]", typ
        if who_type == TEAM:
            if owner == "player":
                raise ExprError(f"'{name}' belongs to each player, not to a team",
                                offset_of(node) if node is not None else 0, code="type")
            return f"{base}[{who_src}]", typ
        if who_type != PLAYER:   # a whole number, not known to be a seat: checked when evaluated
            who_src = f"_seat(S, {who_src})"
        if owner == "team":
            return f"{base}[S.tm[{who_src}]]", typ
        return f"{base}[{who_src}]", typ

    # postfix
    def n_attr(self, n, scope):
        target, attr = n.children
        attr = str(attr)
        if isinstance(target, Tree) and target.data == "name" and str(target.children[0]) == "params" \
                and "params" not in scope.locals:
            if attr not in self.names.params:
                hint = did_you_mean(attr, self.names.params)
                raise ExprError(f"unknown parameter '{attr}'", offset_of(n.children[1]),
                                f"did you mean '{hint}'?" if hint else None, code="unknown-name", span=len(attr))
            self.used.add("params." + attr)
            return self.table(f"S.p[{attr!r}]"), self.names.params[attr]
        src, typ = self.node(target, scope)
        if typ == ANY:
            typ = CARD if attr in self.names.attrs else PLAYER
        found = self.member(f"({src})" if not src.isidentifier() else src, typ, attr, n.children[1])
        if found is None:
            pool = self.names.attrs if typ == CARD else [*self.names.zones, *self.names.counters]
            hint = did_you_mean(attr, pool)
            raise ExprError(f"{typ} has no attribute '{attr}'", offset_of(n.children[1]),
                            f"did you mean '{hint}'?" if hint else None, code="unknown-name", span=len(attr))
        return found

    def n_index(self, n, scope):
        target, index = n.children
        isrc, itype = self.node(index, scope)
        if isinstance(target, Tree) and target.data == "name":
            name = str(target.children[0])
            shadowed = name in scope.locals or any(name == "it" for _ in scope.elements)
            owner = self.names.zones.get(name) or self.names.counters.get(name)
            if owner == "none" and name in self.names.counters and not shadowed:
                raise ExprError(f"'{name}' is a shared counter, a number: it cannot be indexed",
                                offset_of(index), code="type")
            if not shadowed and owner is not None and owner != "none":   # a shared zone indexes as a list
                self.used.add(name)
                want = (CARD, ANY) if owner == "card" else (PLAYER, TEAM, INT, ANY)
                if itype not in want:
                    raise ExprError(f"'{name}[...]' needs a {'card' if owner == 'card' else 'player'}, got {itype}",
                                    offset_of(index), code="type")
                return self.owned(name, isrc, itype, scope, n)
        src, typ = self.node(target, scope)
        if not is_list(typ) and typ != ANY:
            raise ExprError(f"cannot index a {typ}", offset_of(index), code="type")
        if itype not in (INT, PLAYER, TEAM, ANY):
            raise ExprError(f"a list index must be a whole number, got {itype}", offset_of(index), code="type")
        return f"_at({src}, {isrc})", elem(typ)

    def n_call(self, n, scope):
        fname = str(n.children[0])
        args, kwargs = call_args(n)
        builtin = BUILTINS.get(fname)
        if builtin is None:
            hint = did_you_mean(fname, BUILTINS)
            raise ExprError(f"unknown function '{fname}'", offset_of(n),
                            f"did you mean '{hint}'?" if hint else None, code="unknown-name", span=len(fname))
        return builtin(self, n, scope, args, kwargs)

    # operators
    def n_where(self, n, scope):
        coll, cond = n.children
        src, typ = self.node(coll, scope)
        if not is_list(typ):
            raise ExprError(f"'where' filters a list, got {typ}", offset_of(coll), code="type")
        var = self.fresh()
        csrc, ctyp = self.in_loop(coll, lambda: self.node(cond, scope.with_element(var, elem(typ))))
        self.expect_type(ctyp, BOOL, cond)
        self.sized(n, self.size(coll))
        inner = _unwrap(src)
        if inner in self._parts:
            # a filter of a filter ((L where P) where Q, often through a define): one filter of
            # L by P and Q (P's element renamed), no list in between
            first_var, first_list, first_cond = self._parts[inner]
            joined = _renamed(first_cond, first_var, var)
            if joined is not None:
                src, csrc = first_list, f"({joined}) and ({csrc})"
        out = _faster_filter(self.names.sorted_zones, var, src, csrc, self.fresh())
        out = out or f"[{var} for {var} in {src} if {csrc}]"
        self._filters[out] = f"{var} in {src} if {csrc}"   # for count(...) > 0 -> any(...)
        self._parts[out] = (var, src, csrc)                 # for first(L where ATTR == X)
        return out, typ

    def n_cond(self, n, scope):
        a, c, b = (self.node(x, scope) for x in n.children)
        self.expect_type(c[1], BOOL, n.children[1])
        typ = _one_type([a[1], b[1]], "the two branches of 'if' ... 'else'", n)
        return f"({a[0]} if {c[0]} else {b[0]})", typ

    def n_or_(self, n, scope):
        return self._bool_op(n, scope, "or")

    def n_and_(self, n, scope):
        return self._bool_op(n, scope, "and")

    def _bool_op(self, n, scope, op):
        parts = []
        for c in n.children:
            s, t = self.node(c, scope)
            self.expect_type(t, BOOL, c)
            parts.append(s)
        return f"({parts[0]} {op} {parts[1]})", BOOL

    def n_not_(self, n, scope):
        s, t = self.node(n.children[0], scope)
        self.expect_type(t, BOOL, n.children[0])
        return f"(not {s})", BOOL

    def n_compare(self, n, scope):
        (a, ta), op, (b, tb) = self.node(n.children[0], scope), str(n.children[1]), self.node(n.children[2], scope)
        if op not in ("==", "!="):
            for t, c in ((ta, n.children[0]), (tb, n.children[2])):
                if not (is_numeric(t) or t == STR):
                    raise ExprError(f"'{op}' compares numbers or strings, got {t}", offset_of(c), code="type")
            if STR in (ta, tb) and ANY not in (ta, tb) and ta != tb:
                raise ExprError(f"'{op}' compares two numbers or two strings, got {ta} and {tb}",
                                offset_of(n.children[2]), code="type")
        elif not _comparable(ta, tb):
            raise ExprError(f"comparing {ta} with {tb} is always false", offset_of(n.children[2]), code="type")
        # count(X where C) compared with 0 only asks whether one element passes: stop at the first
        call = _unwrap(self._unhoisted.get(a, a))   # count(...) lifted out of a filter, or a define's
        if call in self._counts and b == "0" and op in (">", "!=", "=="):
            var, coll, cond = self._parts[self._counted[call]]
            scan = _scan(self, var, coll, cond)   # (a zone's cards are never none)
            if scan is not None:
                test = f"({self.hoist(scan, scope)} {'is' if op == '==' else 'is not'} None)"
            else:
                gen = f"any(True for {self._counts[call]})"
                test = f"(not {gen})" if op == "==" else gen
            return (test if a not in self._unhoisted or scan is not None else self.hoist(test, scope)), BOOL
        return f"({a} {op} {b})", BOOL

    def n_in_(self, n, scope):
        return self._member(n, scope, "in")

    def n_not_in(self, n, scope):
        return self._member(n, scope, "not in")

    def _member(self, n, scope, op):
        right = n.children[1]
        if isinstance(right, Tree) and right.data == "call" and str(right.children[0]) in MEMBERSHIP:
            # `x in f(...)` for a built-in that can answer membership without building its list
            (a, ta) = self.node(n.children[0], scope)
            saved, self._hoisted = self._hoisted, None   # compiled for its checks only
            try:
                _, tb = self.node(right, scope)
            finally:
                self._hoisted = saved
            test, bsrc = MEMBERSHIP[str(right.children[0])](self, right, scope)
            if _comparable(ta, elem(tb)):
                found = f"{test}({self.hoist(bsrc, scope)}, {a})"
                return (found if op == "in" else f"(not {found})"), BOOL
        (a, ta), (b, tb) = self.node(n.children[0], scope), self.node(right, scope)
        if not is_list(tb) and tb not in (STR, ANY):
            raise ExprError(f"'{op}' needs a list on its right, got {tb}", offset_of(n.children[1]), code="type")
        if tb == STR and ta not in (STR, ANY):
            raise ExprError(f"'{op}' with a str on its right needs a str on its left, got {ta}",
                            offset_of(n.children[0]), code="type")
        if is_list(tb) and not _comparable(ta, elem(tb)):
            raise ExprError(f"'{op}' looks for a {ta} in a list of {elem(tb)}: always false",
                            offset_of(n.children[0]), code="type")
        mapped = self._mapped.get(_unwrap(b))
        if mapped is not None and elem(tb) in (INT, STR, PLAYER, CARD, TEAM, BOOL):
            # x in map(ZONE, to: attr), the map not lifted out of a filter: look for x in the
            # zone's attribute with a plain loop, no list built (x is computed once either way;
            # of these types no value is a NaN, the one thing `in` finds and `==` does not)
            table, zone = mapped
            found = f"({_scan_call(self, zone, [('Eq', table, a)])} is not None)"
            return (found if op == "in" else f"(not {found})"), BOOL
        return f"({a} {op} {b})", BOOL

    def n_neg(self, n, scope):
        s, t = self.node(n.children[0], scope)
        self.expect_type(t, NUM, n.children[0])
        return f"(-{s})", NUM if t == NUM else INT

    def _arith(self, n, scope):
        (a, ta), (b, tb) = self.node(n.children[0], scope), self.node(n.children[1], scope)
        op = _ARITH[n.data]
        if op == "+" and is_list(ta) and is_list(tb):
            self.sized(n, self.size(n.children[0]) + self.size(n.children[1]))
            return f"({a} + {b})", list_of(_one_type([elem(ta), elem(tb)], "the items of joined lists", n))
        if op == "+" and ta == STR and tb == STR:
            return f"({a} + {b})", STR
        for t, c in ((ta, n.children[0]), (tb, n.children[1])):
            if not is_numeric(t):
                raise ExprError(f"'{op}' needs numbers, got {t}", offset_of(c), code="type")
        if op in ("/", "//", "%"):
            return f"_{n.data}({a}, {b})", NUM if op == "/" or NUM in (ta, tb) else INT
        if op == "*" and NUM not in (ta, tb):   # whole numbers stay within 64 bits (runtime._mul)
            return f"_mul({a}, {b})", INT
        return f"({a} {op} {b})", NUM if NUM in (ta, tb) else INT

    n_add = n_sub = n_mul = n_div = n_floordiv = n_mod = _arith


def _comparable(a, b):
    if ANY in (a, b) or NONE in (a, b) or a == b:
        return True
    if is_numeric(a) and is_numeric(b):
        return True
    return is_list(a) and is_list(b)


class _Scope:
    __slots__ = ("locals", "has_me", "elements")

    def __init__(self, locals, has_me, elements):
        self.locals, self.has_me, self.elements = locals, has_me, elements

    def with_element(self, var, typ):
        return _Scope(self.locals, self.has_me, [*self.elements, (var, typ)])


# ---------------------------------------------------------------------- built-in functions
def _arity(n, args, kwargs, fname, lo, hi=None, kw=()):
    hi = lo if hi is None else hi
    if not lo <= len(args) <= hi:
        want = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise ExprError(f"{fname}() takes {want} argument{'s' if hi != 1 else ''}, got {len(args)}",
                        offset_of(n), code="arity")
    for k in kwargs:
        if k not in kw:
            hint = f"it accepts {', '.join(k2 + ':' for k2 in kw)}" if kw else "it takes no named arguments"
            raise ExprError(f"{fname}() has no argument '{k}:'", offset_of(kwargs[k]), hint, code="arity")


def _coll(c, scope, node, fname):
    src, typ = c.node(node, scope)
    if not is_list(typ) and typ != ANY:
        raise ExprError(f"{fname}() needs a list, got {typ}", offset_of(node), code="type")
    return src, typ


def key_fn(var: str, src: str) -> str:
    """The source of a one-argument key function: the table's own lookup (a C-level call) when
    the key only looks an attribute (or a table bound before) up by the element; else a lambda."""
    m = _LOOKUP.match(src)
    if m is not None and m.group(2) == var:
        return f"_lookup({m.group(1)})"
    return f"lambda {var}: {src}"


_LOOKUP = re.compile(r"^(A_\w+|_t\w+)\[(\w+)\]$")


def _keyed(c, scope, kwargs, typ, key="by", coll=None, lam=True):
    """Compile ``by: expr`` with the list element bound; returns (var, src, type).
    ``lam``: the body becomes a lambda's, so nothing inside may be hoisted; a builder that puts
    the body in a comprehension passes lam=False."""
    var = c.fresh()
    if lam:
        c.lambda_vars.add(var)
    body = lambda: c.node(kwargs[key], scope.with_element(var, elem(typ)))  # noqa: E731
    s, t = c.in_loop(coll, body) if coll is not None else body()
    return var, s, t


def _unwrap(src: str) -> str:
    """A source without the parentheses a define's expansion puts around it."""
    return src[1:-1] if src.startswith("(") and src.endswith(")") else src


def b_count(c, n, scope, args, kw):
    _arity(n, args, kw, "count", 1)
    src, _ = _coll(c, scope, args[0], "count")
    inner = _unwrap(src)
    while inner in c._maps:   # a map has as many elements as its list: count that, skip the mapping
        src = c._maps[inner]
        inner = _unwrap(src)
    out = f"len({src})"
    if inner in c._parts:   # count(L where comparisons): a loop that counts, no list built
        var, coll, cond = c._parts[inner]
        tests = _tests(var, cond)
        if tests is not None:
            out = _scan_call(c, coll, tests, counting=True)
    if inner in c._filters:
        c._counts[out] = c._filters[inner]
        c._counted[out] = inner
    return out, INT


def b_first(c, n, scope, args, kw):
    """first(L where P) stops at the first element that passes (a generator, not the whole list);
    first(ZONE where ATTR == X), X not reading the element, is a plain loop (``_first_eq``)."""
    src, typ = _unary_list("first", "_first")(c, n, scope, args, kw)
    inner = _unwrap(src[len("_first("):-1])
    clauses = c._filters.get(inner)
    if clauses is not None:
        var, coll, cond = c._parts[inner]
        zone = _ZONE.fullmatch(coll)
        lookup = _attr_equals(var, cond) if zone else None
        if lookup is not None:   # X is evaluated only if the zone has an element, as the filter would
            if zone.group(1) in c.names.sorted_zones:   # in card order: the cards with X, by bisection
                index = "I_" + lookup[0][2:]
                return f"(_first_sorted({coll}, {lookup[0]}, {index}, {lookup[1]}) if {coll} else None)", typ
            return f"(_first_eq({coll}, {lookup[0]}, {lookup[1]}) if {coll} else None)", typ
        scan = _scan(c, var, coll, cond)
        if scan is not None:
            return scan, typ
        return f"next(({var} for {clauses}), None)", typ
    return src, typ


def _scan(c, var: str, coll: str, cond: str) -> str | None:
    """``first(ZONE where T1 OP X1 and T2 OP X2 ...)`` as a call of a plain loop (runtime.scanner),
    when each test compares a table looked up by the element with a value that cannot fail and
    does not read the element (a constant, a name, a variable); else None. Evaluating those
    values once before the loop changes nothing: they have no side effects and raise nothing."""
    if cond is None or not _scannable(coll):
        return None
    tests = _tests(var, cond)
    return None if tests is None else _scan_call(c, coll, tests)


def _tests(var: str, cond: str) -> list | None:
    """(operator, table, value) for each term of ``cond`` when it is a conjunction of up to 4
    comparisons of a table looked up by the element with a value that cannot fail; else None."""
    tree = _parsed(cond)
    parts = _conjuncts(tree)
    if tree is None or len(parts) > 4:
        return None
    tests = []
    for part in parts:
        if not (isinstance(part, ast.Compare) and len(part.ops) == 1):
            return None
        table, value = _looked_up(part.left, var), part.comparators[0]
        if table is None or type(part.ops[0]).__name__ not in _SCAN_OPS or not _cannot_fail(value, var):
            return None
        tests.append((type(part.ops[0]).__name__, table, ast.unparse(value)))
    return tests


def _scannable(coll: str) -> bool:
    """A list a plain loop may walk: a zone read or bound before the loop, or the players
    (their elements are never none, so a loop's None says "not found")."""
    return bool(_ZONE.fullmatch(coll) or _BOUND_ZONE.fullmatch(coll) or _ELEMENT_ZONE.fullmatch(coll)) \
        or coll == "S.players"


def _scan_call(c, coll: str, tests: list, counting: bool = False) -> str:
    """The call of runtime.scanner's loop for (operator, table, value) tests over ``coll``
    (``counting``: the loop that counts the elements that pass)."""
    name, fn = scanner(tuple(op for op, _, _ in tests), counting)
    c.names.namespace.setdefault(name, fn)
    return f"{name}({coll}, {', '.join(f'{table}, {value}' for _, table, value in tests)})"


_NEGATED = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}   # (not so < and >=: a NaN is neither)


def _negated(cond: str) -> str | None:
    """A single equality test with its operator negated (``T[x] == v`` -> ``T[x] != v``: what
    all(L, by: C) looks for to say no), else None."""
    tree = _parsed(cond)
    if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and type(tree.ops[0]) in _NEGATED):
        return None
    tree.ops = [_NEGATED[type(tree.ops[0])]()]
    return ast.unparse(tree)


def _conjuncts(node) -> list:
    """The terms of ``A and B and ...``, nested ands flattened (``(A and B) and C``)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [term for value in node.values for term in _conjuncts(value)]
    return [node]


def _looked_up(node, var: str) -> str | None:
    """The source of T when ``node`` is ``T[var]`` with T an attribute table or a table bound
    before the loop (``A_rank``, ``_t0``, ``S.c['x']``); else None."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id == var):
        return None
    table = node.value
    if isinstance(table, ast.Name) and (table.id.startswith("A_") or re.fullmatch(r"_t\w*", table.id)):
        return table.id
    if (isinstance(table, ast.Subscript) and isinstance(table.value, ast.Attribute)
            and isinstance(table.value.value, ast.Name) and table.value.value.id == "S"
            and table.value.attr in ("c", "p") and isinstance(table.slice, ast.Constant)):
        return ast.unparse(table)
    return None


def _cannot_fail(node, var: str) -> bool:
    """A constant, a name other than the element, or a variable (``S.v['x']``): its value is
    known before the loop and computing it cannot raise."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id != var and not node.id.startswith("_h")   # a lifted call is computed lazily
    return (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name) and node.value.value.id == "S"
            and node.value.attr == "v" and isinstance(node.slice, ast.Constant))


def _renamed(cond: str, old: str, new: str) -> str | None:
    """``cond`` with the element ``old`` read as ``new`` (renamed in the syntax tree, never in
    the text: a string may hold the name); None if it does not parse."""
    tree = _parsed(cond)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == old:
            node.id = new
    return ast.unparse(tree)


def _attr_compare(node, var: str):
    """(attribute table, X) when ``node`` is ``A_attr[var] == X`` with X not reading the
    element ``var`` and binding no name; else None."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
        return None
    left, right = node.left, node.comparators[0]
    if not (isinstance(left, ast.Subscript) and isinstance(left.value, ast.Name) and left.value.id.startswith("A_")
            and isinstance(left.slice, ast.Name) and left.slice.id == var):
        return None
    if any(isinstance(x, ast.NamedExpr) or isinstance(x, ast.Name) and x.id == var for x in ast.walk(right)):
        return None
    return left.value.id, right


def _parsed(cond: str):
    try:
        return ast.parse(cond, mode="eval").body
    except (SyntaxError, RecursionError, MemoryError):
        return None


def _faster_filter(sorted_zones, var: str, src: str, cond: str, name: str) -> str | None:
    """``L where ATTR == X and ...`` (X not reading the element) written to do less per element;
    None when the condition does not start that way. X is computed only if L has an element,
    as the plain filter would (it computes X first, for the first element).

    - L is a zone kept in card order: the cards with X are found by bisection
      (``_in_sorted``), the rest of the condition is asked of them only;
    - otherwise X is computed once rather than per element (unless it is a constant or a
      name: nothing to save)."""
    tree = _parsed(cond)
    parts = _conjuncts(tree)
    found = _attr_compare(parts[0], var)
    if found is None:
        return None
    table, value = found[0], ast.get_source_segment(cond, found[1])
    zone = _ZONE.fullmatch(src)
    if zone is not None and zone.group(1) in sorted_zones:
        rest = " and ".join(f"({ast.unparse(p)})" for p in parts[1:])
        return (f"[{var} for {var} in (_in_sorted({src}, {table}, I_{table[2:]}, {value}) if {src} else [])"
                f"{' if ' + rest if rest else ''}]")
    if isinstance(found[1], (ast.Constant, ast.Name)):
        return None
    parts[0].comparators[0] = ast.Name(id=name, ctx=ast.Load())
    z = name + "z"
    return (f"[{var} for {z} in ({src},) if {z} for {name} in ({value},) for {var} in {z} "
            f"if {ast.unparse(tree)}]")


# generated source that reads the state, the acting player or locals (else it depends only on
# its element, attribute tables and constants)
READS_STATE = re.compile(r"\b(S|me|L)\b")

_ELEMENT_ZONE = re.compile(r"(?:S\.z\['\w+'\]|_t\w+)\[_e\d+\]")   # the zone of a card being filtered
_BOUND_ZONE = re.compile(r"_t\w+(?:\[(?:me|\d+)\])?")   # a zone's table bound before a loop
_ZONE = re.compile(r"S\.z\['(\w+)'\](?:\[(?:me|\d+|S\.v\['\w+'\])\])?")   # a zone read twice costs nothing


def _attr_equals(var: str, cond: str):
    """(attribute table, source of X) when the filter ``cond`` is exactly ``A_attr[var] == X``
    and X does not read the element nor bind a name; else None."""
    found = _attr_compare(_parsed(cond), var)
    return None if found is None else (found[0], ast.get_source_segment(cond, found[1]))


def b_sum(c, n, scope, args, kw):
    _arity(n, args, kw, "sum", 1, kw=("by",))
    src, typ = _coll(c, scope, args[0], "sum")
    if "by" in kw:
        var, s, t = _keyed(c, scope, kw, typ, coll=args[0], lam=False)
        c.expect_type(t, NUM, kw["by"])
        return f"sum([{s} for {var} in {src}])", t
    if not is_numeric(elem(typ)):
        raise ExprError(f"sum() of a list of {elem(typ)}: add by: to say what to add up", offset_of(n), code="type")
    return f"sum({src})", elem(typ)


def _minmax(fname):
    def build(c, n, scope, args, kw):
        if len(args) >= 2 and not kw:
            parts = [c.node(a, scope) for a in args]
            for (s, t), a in zip(parts, args):
                c.expect_type(t, NUM, a)
            return f"{fname}({', '.join(s for s, _ in parts)})", unify([t for _, t in parts])
        _arity(n, args, kw, fname, 1, kw=("by",))
        src, typ = _coll(c, scope, args[0], fname)
        if "by" in kw:
            var, s, t = _keyed(c, scope, kw, typ, coll=args[0], lam=False)
            c.expect_type(t, NUM, kw["by"])
            return f"{fname}([{s} for {var} in {src}], default=0)", t
        if not (is_numeric(elem(typ)) or elem(typ) == STR):
            raise ExprError(f"{fname}() of a list of {elem(typ)}: add by: to say what to compare",
                            offset_of(n), code="type")
        return f"{fname}({src}, default=0)", elem(typ)
    return build


def _extreme(fname, helper):
    def build(c, n, scope, args, kw):
        _arity(n, args, kw, fname, 1, kw=("by",))
        src, typ = _coll(c, scope, args[0], fname)
        if "by" not in kw:
            if not is_numeric(elem(typ)):
                raise ExprError(f"{fname}() needs by: to order a list of {elem(typ)}", offset_of(n), code="arity")
            var, s = "_x", "_x"
        else:
            var, s, t = _keyed(c, scope, kw, typ, coll=args[0], lam=True)
            if not (is_numeric(t) or t == STR):
                raise ExprError(f"by: must give a number, got {t}", offset_of(kw["by"]), code="type")
        result = elem(typ) if fname in ("highest", "lowest") else typ
        c.sized(n, c.size(args[0]))
        return f"{helper}({src}, {key_fn(var, s)})", result
    return build


def b_any_all(fname):
    def build(c, n, scope, args, kw):
        _arity(n, args, kw, fname, 1, kw=("by",))
        src, typ = _coll(c, scope, args[0], fname)
        if "by" in kw:
            var, s, t = _keyed(c, scope, kw, typ, coll=args[0], lam=False)
            c.expect_type(t, BOOL, kw["by"])
            # stops at the first element that decides: a plain loop when the condition is
            # comparisons (scanner), else a generator that yields only then
            scan = _scan(c, var, src, s if fname == "any" else _negated(s))
            if scan is not None:
                return f"({scan} {'is not' if fname == 'any' else 'is'} None)", BOOL
            if fname == "any":
                return f"any(True for {var} in {src} if {s})", BOOL
            return f"(not any(True for {var} in {src} if not ({s})))", BOOL
        if elem(typ) == BOOL:
            return f"{fname}({src})", BOOL
        # a list of things: any = not empty, all = always (vacuous) -> only any makes sense
        if fname == "all":
            raise ExprError("all() of a list that is not of conditions: add by: CONDITION", offset_of(n), code="type")
        return f"(len({src}) > 0)", BOOL
    return build


def _unary_list(fname, helper, result_elem=True):
    def build(c, n, scope, args, kw):
        _arity(n, args, kw, fname, 1)
        src, typ = _coll(c, scope, args[0], fname)
        c.sized(n, c.size(args[0]))
        return f"{helper}({src})", elem(typ) if result_elem else typ
    return build


def b_distinct(c, n, scope, args, kw):
    """distinct(L); distinct(map(ZONE, to: attr)) over a zone kept in card order jumps over the
    runs of cards that share the value (runtime._distinct_sorted)."""
    src, typ = _unary_list("distinct", "_distinct", result_elem=False)(c, n, scope, args, kw)
    mapped = c._mapped.get(_unwrap(src[len("_distinct("):-1]))
    if mapped is not None and mapped[0].startswith("A_"):
        zone = _ZONE.fullmatch(mapped[1])
        if zone is not None and zone.group(1) in c.names.sorted_zones:
            return f"_distinct_sorted({mapped[1]}, {mapped[0]}, I_{mapped[0][2:]})", typ
    return src, typ


def b_map(c, n, scope, args, kw):
    _arity(n, args, kw, "map", 1, kw=("to",))
    if "to" not in kw:
        raise ExprError("map() needs to: EXPR", offset_of(n), code="arity")
    src, typ = _coll(c, scope, args[0], "map")
    var, s, t = _keyed(c, scope, kw, typ, key="to", coll=args[0], lam=False)
    c.sized(n, c.size(args[0]))
    inner, out = _unwrap(src), None
    if inner in c._parts:   # map(L where C, ...): one pass, no list in between
        first_var, first_list, first_cond = c._parts[inner]
        cond = _renamed(first_cond, first_var, var)
        if cond is not None:
            out = f"[{s} for {var} in {first_list} if {cond}]"
    out = out or f"[{s} for {var} in {src}]"
    c._maps[out] = src   # count(map(L, ...)) is count(L)
    table = _looked_up(_parsed(s), var)
    if table is not None and _scannable(src) and out.endswith(f" in {src}]"):
        c._mapped[out] = (table, src)   # x in map(ZONE, to: attr): a plain loop (_member)
    return out, list_of(t)


def _seat(fname, template, result=PLAYER, lo=1, hi=1):
    def build(c, n, scope, args, kw):
        _arity(n, args, kw, fname, lo, hi)
        parts = [c.node(a, scope) for a in args]
        for (s, t), a in zip(parts, args):
            c.expect_type(t, PLAYER, a)
        return template.format(*[s for s, _ in parts], k=parts[1][0] if len(parts) > 1 else "1"), result
    return build


def _of_player(fname, template, result):
    """team(p) / partner(p): a player argument; a whole number is checked to be a seat."""
    def build(c, n, scope, args, kw):
        _arity(n, args, kw, fname, 1)
        s, t = c.node(args[0], scope)
        if t not in (PLAYER, INT, ANY, NONE):
            raise ExprError(f"{fname}() takes a player, got {t}", offset_of(args[0]), code="type")
        return template.format(s if t == PLAYER else f"_seat(S, {s})"), result
    return build


def b_members(c, n, scope, args, kw):
    _arity(n, args, kw, "members", 1)
    s, t = c.node(args[0], scope)
    if t not in (TEAM, INT, ANY, NONE):
        hint = "write members(team(p)) for a player's team" if t == PLAYER else None
        raise ExprError(f"members() takes a team, got {t}", offset_of(args[0]), hint, code="type")
    return f"_members(S, {s if t == TEAM else f'_team(S, {s})'})", list_of(PLAYER)


def b_abs(c, n, scope, args, kw):
    _arity(n, args, kw, "abs", 1)
    s, t = c.node(args[0], scope)
    c.expect_type(t, NUM, args[0])
    return f"abs({s})", t


BUILTINS = {
    "count": b_count,
    "sum": b_sum,
    "min": _minmax("min"),
    "max": _minmax("max"),
    "highest": _extreme("highest", "_highest"),
    "lowest": _extreme("lowest", "_lowest"),
    "top": _extreme("top", "_top"),
    "bottom": _extreme("bottom", "_bottom"),
    "any": b_any_all("any"),
    "all": b_any_all("all"),
    "one": _unary_list("one", "_one"),
    "first": b_first,
    "last": _unary_list("last", "_last"),
    "distinct": b_distinct,
    "map": b_map,
    "abs": b_abs,
    "left": _seat("left", "((({0}) + {k}) % S.n)", lo=1, hi=2),
    "right": _seat("right", "((({0}) - {k}) % S.n)", lo=1, hi=2),
    "team": _of_player("team", "S.tm[{0}]", TEAM),
    "partner": _of_player("partner", "_partner(S, {0})", PLAYER),
    "members": b_members,
}


DISTINCT_BUILTINS: set = set()   # built-ins whose results never hold two values with the same label
MEMBERSHIP: dict = {}            # built-in -> fn(compiler, call node, scope) -> (test helper, source of its set)


def call_args(n) -> tuple[list, dict]:
    """The positional argument nodes and the keyword argument nodes of a call node."""
    fname = str(n.children[0])
    argnode = n.children[1] if len(n.children) > 1 else None
    args, kwargs = [], {}
    for a in (argnode.children if argnode is not None else []):
        if isinstance(a, Tree) and a.data == "kwarg":
            key = str(a.children[0])
            if key in kwargs:
                raise ExprError(f"{fname}() has '{key}:' twice", offset_of(a), code="arity")
            kwargs[key] = a.children[1]
        else:
            args.append(a)
    return args, kwargs


def _labels_distinct(tree) -> bool:
    """Whether an expression's list can never hold two values with the same label."""
    return tree.data == "range" or (tree.data == "call" and str(tree.children[0]) in DISTINCT_BUILTINS)


def register_builtin(name: str, build, helpers: dict | None = None, distinct: bool = False,
                     member=None) -> None:
    """Add a built-in function from a mechanic's module.

    ``build(compiler, node, scope, args, kwargs) -> (python source, type)`` checks and compiles
    a call; ``helpers`` are runtime functions the generated source may call (names start with _).
    ``distinct``: its list never holds two values with the same label (a choose over it skips
    removing duplicates). ``member(compiler, node, scope) -> (test, source)``: how to answer
    ``x in f(...)`` without building the list: ``test(value of source, x)`` must equal
    ``x in f(...)`` for every x."""
    BUILTINS[name] = build
    if distinct:
        DISTINCT_BUILTINS.add(name)
    if member is not None:
        MEMBERSHIP[name] = member
    if helpers:
        runtime.HELPERS.update(helpers)


_CHEAP = ("_first(", "_last(", "_one(", "_partner(", "_members(", "_at(", "_div(", "_floordiv(", "_mod(",
          "_seat(", "_team(")


class _Unset:
    """The value of a hoisted sub-expression not computed yet in this evaluation."""
    __slots__ = ()


_UNSET = _Unset()


def base_namespace() -> dict:
    """The globals every compiled expression sees: a closed whitelist, no Python builtins."""
    ns = {"__builtins__": {}, "_U": _UNSET, "len": len, "sum": sum, "min": min, "max": max, "abs": abs,
          "any": any, "all": all, "next": next, "tuple": tuple, "range": range, "list": list, "dict": dict, "enumerate": enumerate,
          "zip": zip, "filter": filter, "_INF": float("inf"),
          "TypeError": TypeError}
    ns.update(runtime.HELPERS)
    return ns


def compile_expression(text: str, names: Names | None = None, locals: dict | None = None,
                       has_me: bool = True, expect: str | None = None) -> Compiled:
    """Compile one expression with the given declarations (a convenience for tests and tools)."""
    names = names or Names()
    if not names.namespace:
        names.namespace = base_namespace()
    return Compiler(names).compile(text, locals, has_me, expect)
