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

from contextlib import nullcontext
from dataclasses import dataclass
from itertools import compress
from typing import Any, Callable, Protocol

from lark import Token

from ..loading.kept import compiled
from . import known, nesting, runtime, texts, walks
from .access import NOTHING, Access, Recorder
from .builtins import labels_distinct
from .code import Code, Hoisted, Prelude, Table, bound_tables, code, filter_split
from .limits import LONGEST, MAX_COST, MAX_EXPANSIONS, MAX_SOURCE  # noqa: F401 (the limits, importable from here)
from .names import NameNodes, Names, Scope, table_ref
from .operators import OperatorNodes, divided
from .parser import ExprError, offset_of, parse
from .statements import as_statements, plain_offers, shared_offers
from .types import ANY, BOOL, CARD, INT, NONE, NUM, PLAYER, TEAM, elem, fits, is_list, is_numeric


class ExprFn(Protocol):
    """A compiled expression as the builder hands it to a step (building/builder.py ``expr``): the
    plain function ``f(S, me, L)`` (no wrapper: the game loop calls it) carrying its source,
    type and whether its values never share a label."""
    source: str
    type: str
    distinct: bool
    tree: Any        # its parse tree (None if it did not compile): what analyses of it read
    access: Access   # what it reads of the state (expr/access.py)
    chars: int       # the longest string its value is or holds (Compiled.chars)

    def __call__(self, S: Any, me: Any = None, L: Any = None) -> Any: ...


class ZoneFn(Protocol):
    """A compiled zone reference (building/builder.py ``zone_ref``): ``f(S, me, L)`` gives the
    zone's list; ``zone`` is its name (None: no zone)."""
    zone: str | None

    def __call__(self, S: Any, me: Any, L: Any) -> list: ...


@dataclass
class Compiled:
    source: str          # a Python expression over S, me, L
    type: str
    fn: Callable
    distinct: bool = False   # its values never share a label (a range, combos()...): no need to dedupe
    access: Access = NOTHING  # what it reads of the state, noted as it was compiled (access.py)
    chars: int = 0           # the longest string its value is or holds (texts.widest: a local's binder checks it)
    elements: tuple = (0, 0, 0, 0)  # its value's most elements, in a list inside, in all, in an element's all (nesting.lengths)
    known: bool = False      # its value's most elements is a bound the ruleset declares (known.py: a for_each's passes)
    proven: str = ANY        # the type its value is proven of (nesting.proven: [] is of every list type)
    untyped: int = 0         # of its worst-case operations, those its comparisons of values of type any walk (walks.py)

    def __call__(self, S, me=None, L=None):
        return self.fn(S, me, L)


class Compiler(NameNodes, OperatorNodes):
    """Compiles expressions of one ruleset. ``locals`` maps local names to types. The node methods are
    grouped by kind: names (names.py), literals and operators (operators.py), built-in calls (builtins.py).

    ``plain=True`` is the reference compile: every construct in the plain form the compiler
    writes first, with none of the faster forms (no calls lifted out of filters, no tables
    bound before loops, none of fastpaths.py's rewrites, no fused filters, no membership
    without the list, no loops as statements). It keeps what docs/language.md §7 says is not
    evaluated (`first(L where C)`, `count(L where C) > 0`, `count(map(...))`), so optimised
    code can be checked against it on any state (tests/test_fuzz_expressions.py)."""

    def __init__(self, names: Names, plain: bool = False):
        self.names, self.plain = names, plain
        self._counter = 0
        self._define_stack: list[str] = []
        self._roots: list = []        # the tree being compiled, then the defines' expanded in it (expr/named.py)
        self._expansions = 0
        self.total_expansions = 0     # over every expression this compiler compiles (a ruleset's)
        self.suggestion_work = 0      # names compared for did-you-means so far (names.suggest)
        self.spent = 0                # worst-case operations of everything compiled (step weights)
        self.called = 0               # of those, the calls of declared effects (building/declared.py)
        self.used: set[str] = set()   # declared names some expression refers to (unused-name warnings)
        self.cost = 0                 # worst-case operations of the expression being compiled
        self._hoisted: list[str] | None = None      # names of loop-invariant calls lifted out of filters
        self._eager: dict[str, str] = {}            # of those, the ones computed before the expression: their code
        self._tables: dict[tuple[str, str], str] | None = None  # (kind z/c/p, name) read in loops -> a bound name
        self._tables_above = 1        # tables are named when self._mult exceeds this (inside a loop)
        self._asked: dict[str, int] = {}  # a bound table's name -> how often the code kept asks for it (release)
        self._tag = ""                # tells apart the names of expressions compiled to run together
        self.lambda_vars, self.spread_over = set[str](), set[str]()   # elements a generated lambda binds; whose zones a loop walks (walks.py)
        self._varying: tuple = ()     # sources of locals that change with the element (compile_element)
        self._mult = 1                # how many times the node being compiled may run
        self._sizes: dict = {}        # (expansion, id(list node)) -> the most elements it can have;
                                      # (expansion, id(number node), SPAN) -> its least and greatest value
        self._expansion = 0           # which expansion of a define is being compiled (0: none): a
        self._expansions_made = 0     # define's tree is shared (parse), its names may resolve
                                      # otherwise at another use, so its sizes are kept per use
        self.lvalue = False           # compiling the target of a move: a card's zone is made if missing
        self.writes: set[str] | None = None  # a set: the function being built owns the tables it writes
                                             # at its top (names.writable), the lvalues are plain; None: each checks
        self.hoisting = True          # off: no := bindings (code that embeds them where Python refuses)
        self.access = Recorder()      # where each name resolved and each write is noted (access.py)
        self._uses: list[set] = []    # per node being compiled: the elements and locals it reads (code.py)
        self._loops: list[bool] = []  # per node being compiled: whether a node inside it wrote a loop (code.py)
        self._node_access = False     # each node's Code carries what it reads (compile_element)
        self._binds = 0               # calls hoisted so far (a node that made one binds a name)
        self.made: set[str] = set()   # the element variables fresh() made
        self.bound: dict[str, str] = {}   # locals read as a plain Python name, not L['name'] (a declared
                                          # effect's parameters: building/effects.py)
        self.local_sizes: dict[str, int] = {}   # the locals whose binder bounds them -> that bound (nesting.py)
        self.tallies: list = []       # the for_each loops around, whose counts may read tallies (tallies.py)

    # the shapes of what was compiled so far, which the built-in functions (builtins.py) read and add to
    filters = property(lambda self: self._filters, doc="source of a filter -> its comprehension clauses")
    parts = property(lambda self: self._parts, doc="source of a filter -> (element variable, list, condition)")
    counts = property(lambda self: self._counts, doc="source of count(filter) -> the filter's clauses")
    counted = property(lambda self: self._counted, doc="source of count(filter) -> the filter's source")
    mapped = property(lambda self: self._mapped, doc="source of map(ZONE, to: attr) -> (attribute table, zone)")
    unhoisted = property(lambda self: self._unhoisted, doc="source of a hoisted call -> the call")
    maps = property(lambda self: self._maps, doc="source of a map(...) -> the source of its list")

    # ------------------------------------------------------------------ entry points
    def compile(self, text: str, locals: dict | None = None, has_me: bool = True,
                expect: str | None = None, tree=None) -> Compiled:
        """``tree``: a part of an expression already parsed (its errors' offsets in the whole text)."""
        tree = parse(text) if tree is None else tree
        with self.access.recording() as notes:
            result = self._compile(text, tree, locals, has_me, expect)
        t = result.type
        result.access, result.chars, result.untyped = notes.frozen(), texts.widest(self, tree, t), walks.untyped_work(self)
        result.elements, result.known, result.proven = nesting.lengths(self, tree, t), known.known(self, tree), nesting.proven(self, tree, t)
        return result

    def scope(self, locals: dict | None, has_me: bool, elements: list | None = None,
              bound: dict | None = None) -> Scope:
        """The scope of an expression with these locals: those that are parameters of the function
        being built (``self.bound``) read by name, the others from ``L``; sized as ``local_sizes`` says."""
        params = {k: v for k, v in self.bound.items() if k in (locals or ())}
        return Scope(dict(locals or {}), has_me, elements or [], None, {**params, **(bound or {})}, self.local_sizes)

    def _compile(self, text: str, tree, locals: dict | None, has_me: bool, expect: str | None) -> Compiled:
        scope = self.scope(locals, has_me)
        # its locals that are bound are its function's parameters, in place of L (builder.expr by_name)
        params = tuple(scope.bound.values())
        self._expansions, self.cost, self._mult, self._sizes = 0, 0, 1, {}
        self._hoisted, self._tables, self._tables_above, self._tag = *self._binding_lists(), 1, ""
        try:
            src, typ = self.node(tree, scope)
            if expect is not None:
                self.expect_type(typ, expect, tree)
            prelude = self.prelude()
            if prelude:
                hoisted_src = "(" + prelude + src + ")[-1]"   # an expression, for code that embeds it
                try:
                    return Compiled(hoisted_src, typ, self.to_function(src, text, self.prelude_lines(), params),
                                    labels_distinct(tree))
                except ExprError:   # Python refuses := in some comprehension positions: compile plainly
                    self._hoisted = self._tables = None
                    self.cost, self._mult, self._sizes, self._expansions, self.set_cells = 0, 1, {}, 0, 0
                    src, typ = self.with_sets(*self.node(tree, scope))   # (its sets kept without :=)
        finally:
            self._hoisted = self._tables = None
        fn = self.to_function(src, text, (), params)
        return Compiled(src, typ, fn, labels_distinct(tree))

    def compile_offers(self, texts: list, has_me: bool = True, name: str = "offers") -> Callable | None:
        """One function ``f(S, me, L) -> tuple`` of the indexes of the conditions that hold
        (None: always), for a step that offers alternatives: one call per question instead of
        one per alternative, and the tables the conditions read are looked up once. None if it
        cannot be built (each condition was compiled, and its errors reported, on its own)."""
        self._expansions = 0
        self.cost, self._mult, self._sizes = 0, 1, {}
        self._hoisted, self._tables, self._tables_above, self._tag = *self._binding_lists(), 0, ""
        conds: list = []   # (index, lines that ask the condition, the test after them); None: always
        try:
            for i, text in enumerate(texts):
                if text is None:
                    conds.append((i, (), None))
                    continue
                src, typ = self.node(parse(text), Scope({}, has_me, []))
                if typ not in (BOOL, ANY):
                    return None
                loops = None if self.plain else as_statements(src, "_ok")   # any() as a loop (statements.py)
                conds.append((i, (), src) if loops is None else (i, tuple(loops), "_ok"))
            first = [f"        {line}" for line in self.prelude_lines()]
        except ExprError:
            return None
        finally:
            self._hoisted = self._tables = None
        tests = [f"        {line}" for line in (plain_offers(conds) if self.plain else shared_offers(conds))]
        body = "\n".join(["def _expr(S, me, L):", "    try:", *first, "        _r = []", *tests,
                          "        return tuple(_r)", "    except TypeError as e:", "        raise _none_used(e)", ""])
        if len(body) > MAX_SOURCE * max(1, len(texts)):
            return None
        try:
            local: dict = {}
            exec(compiled(body, f"<{name}>", "exec"), self.names.namespace, local)  # noqa: S102 - generated
            fn = local["_expr"]
            fn.code = body   # what it runs, for `rulebook compile` (building/listing.py)
            return fn
        except (SyntaxError, RecursionError, MemoryError):
            return None

    def _binding_lists(self) -> tuple[list[str] | None, dict[tuple[str, str], str] | None]:
        self._eager, self._asked = {}, {}
        return ([], {}) if self.hoisting and not self.plain else (None, None)

    def _bindings(self) -> list[tuple[str, str]]:
        """(name, source) a compiled expression binds first: each table it reads in a loop (once,
        so the loop reads a local; not one that the code kept no longer asks for: ``release``), then
        each hoisted call as not computed yet."""
        return ([(bound, table_ref(kind, name)) for (kind, name), bound in self._asked_tables()]
                + [(h, self._eager.get(h, "_U")) for h in (self._hoisted or ())])

    def _asked_tables(self) -> list:
        return [(key, bound) for key, bound in (self._tables or {}).items() if self._asked.get(bound, 0) > 0]

    def prelude_lines(self) -> list[str]:
        """The bindings as statements (the body of a generated function)."""
        return [f"{name} = {src}" for name, src in self._bindings()]

    def prelude(self, access: Access | None = None) -> Code:
        """The bindings as an expression prefix, for code that embeds the expression; its shape
        says what they bind (code.Prelude), with ``access``, what the expression reads."""
        tables = tuple((bound, kind, name) for (kind, name), bound in self._asked_tables())
        return code("".join(f"({name} := {src}), " for name, src in self._bindings()),
                    Prelude(tables, tuple(self._hoisted or ()), access))

    def table(self, kind: str, name: str) -> Code:
        """``S.c['x']`` (the table of a zone, counter or parameter: ``kind`` z, c or p) as read
        here: inside a loop, a name the expression binds once before it runs (the table object
        does not change while an expression is evaluated: expressions have no side effects)."""
        src = table_ref(kind, name)
        if self._tables is None or self._mult <= self._tables_above:
            return code(src, Table(kind, name, False))
        bound = self._tables.get((kind, name))
        if bound is None:
            bound = self._tables[kind, name] = f"_t{self._tag}{len(self._tables)}"
        self._asked[bound] = self._asked.get(bound, 0) + 1
        return code(bound, Table(kind, name, True, bool(self._tag)))

    def release(self, src: Code) -> None:
        """``src``, a list a rewrite leaves out of its code (zones read from the record instead:
        operators.py), asks once fewer for each table it read bound before the loop: one that
        no code kept asks for is not bound (``_bindings``)."""
        for bound in bound_tables(src):
            self._asked[bound] = self._asked.get(bound, 1) - 1

    def compile_element(self, text: str, locals: dict | None = None, has_me: bool = True,
                        element: str = CARD, expect: str | None = None, var: str = "_it",
                        varying: tuple = (), tag: str = "", bound: dict | None = None):
        """Source of an expression about an element ``var`` (as in where / by:), for a mechanic
        that builds its own comprehension: returns (source, type, prelude). The caller puts the
        prelude (see prelude(); it binds names) before the comprehension, once per evaluation.
        ``varying``: locals whose value changes with the element (never hoisted). ``tag`` keeps
        the names of expressions that share one prelude apart. ``bound``: local name -> the
        Python source that gives its value where the caller puts the expression (read there
        instead of ``L['name']``)."""
        tree = parse(text)
        scope = self.scope(locals, has_me, [(var, element)], bound)
        self._expansions = 0
        self.cost, self._mult, self._sizes = 0, 1, {}   # per element, as element_fn
        self._hoisted, self._tables, self._tables_above, self._tag = *self._binding_lists(), 0, tag
        self._varying = tuple(f"L[{name!r}]" for name in varying)
        self._node_access = True
        try:
            with self.access.recording() as notes:
                src, typ = self.node(tree, scope)
            if expect is not None:
                self.expect_type(typ, expect, tree)
            return src, typ, self.prelude(notes.frozen())
        finally:
            self._hoisted = self._tables = None
            self._varying = ()
            self._tag = ""
            self._node_access = False

    def to_function(self, src: str, text: str = "", first: list | tuple = (), params: tuple = ()) -> Callable:
        """The function of a generated source (after the assignments ``first``, the prelude;
        ``params``: its parameters in place of ``L``, those of locals read by name);
        its code is named after the expression's text, so profiles and tracebacks say which
        rule is running."""
        if len(src) > MAX_SOURCE:
            raise ExprError(f"expression is too large once its defines are expanded (limit {MAX_SOURCE} "
                            "characters of code)", 0, code="limit")
        # a def, not a lambda, so that using none as a value (first() of an empty list...) is the
        # language's runtime error rather than Python's TypeError (try costs nothing in 3.11)
        loops = None if self.plain else as_statements(src, "_ok")   # any() as a loop (statements.py)
        result = f"{src}" if loops is None else "_ok"
        statements = (*first, *(loops or ()))
        if not self.plain:   # a division as statements, no call (operators.divided)
            statements, result = divided(src, statements, result)
        lines = "".join(f"        {line}\n" for line in statements)
        args = ", ".join(("S", "me", *params)) if params else "S, me, L"
        body = (f"def _expr({args}):\n    try:\n{lines}        return {result}\n"
                f"    except TypeError as e:\n        raise _none_used(e)\n")
        try:
            code = compiled(body, f"<expr {text[:60]}>", "exec")
            local: dict = {}
            exec(code, self.names.namespace, local)  # noqa: S102 - source is generated
            fn = local["_expr"]
            fn.code = body   # what it runs, for `rulebook compile` (building/listing.py)
            fn.body = (statements, result)   # the same, for code that writes it in place (flowgen.py)
            return fn
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
        if is_list(expect) and not (typ == ANY or is_list(typ) and fits(typ, expect)):   # list[card]: no ids as numbers
            raise ExprError(f"expected a list of {elem(expect)}s ({expect}), got {typ}", offset_of(node), code="type",
                            hint="a number is no card: cards come from zones ('deck where rank == 3') and card "
                                 "variables" if elem(expect) == CARD and is_list(typ) and is_numeric(elem(typ)) else None)
        if expect == PLAYER and typ not in (PLAYER, INT, TEAM, ANY, NONE):
            raise ExprError(f"expected a player, got {typ}", offset_of(node), code="type")

    def fresh(self) -> str:
        self._counter += 1
        self.made.add(f"_e{self._counter}")
        return f"_e{self._counter}"

    def uses(self, what: str) -> None:
        """The node being compiled reads an element variable (or a local that changes with it)."""
        if self._uses:
            self._uses[-1].add(what)

    def holds_loop(self, loops: bool) -> None:
        """Whether the code of the node being compiled holds a loop, where its parts do not tell
        (code.py ``loops``): a lambda it writes around a part (builtins.key_fn), or a part's loop
        it leaves out (count(map(L, ...)) is len(L))."""
        if self._loops:
            self._loops[-1] = loops

    # ------------------------------------------------------------------ dispatch
    def node(self, n, scope: "Scope") -> tuple[Code, str]:
        if isinstance(n, Token):  # bare token (should not happen with this grammar)
            raise ExprError(f"unexpected {n.value!r}", n.start_pos or 0)
        method = getattr(self, "n_" + n.data, None)
        if method is None:
            raise ExprError(f"unsupported construct '{n.data}'", offset_of(n))
        self.cost += self._mult
        self.spent += self._mult
        if self.cost > MAX_COST:
            raise ExprError(f"this expression may take more than {MAX_COST:,} operations to evaluate "
                            "(nested filters over long lists); simplify it", offset_of(n), LONGEST, code="limit")
        binds = self._binds
        if not self._uses:   # the expression's own tree, not a node in it
            self._roots = [n]
        self._uses.append(set())
        self._loops.append(False)
        try:
            with self.access.recording() if self._node_access else nullcontext() as notes:
                src, typ = method(n, scope)
        finally:
            used, looped = self._uses.pop(), self._loops.pop()
        if self._uses:
            self._uses[-1] |= used
        out = code(src, like=src, loops=looped)   # (its own: a Code met before keeps its facts)
        out.uses, out.binds = frozenset(used), self._binds > binds
        if notes is not None:
            out.access = notes.frozen()
        if out.loops and self._loops:
            self._loops[-1] = True
        nesting.carried(self, n, typ)   # (made of a value of type any: proven of no type)
        return (self.hoist(out, scope) if n.data == "call" else out), typ

    def hoist(self, src: Code, scope, eager: bool = False) -> Code:
        """A call that does not depend on the element of the filter around it is computed once
        per evaluation, on first use (lazily, so an empty list still computes nothing); ``eager``:
        code that cannot fail is computed before the expression, no test of it per element."""
        if scope.elements and self._hoisted is not None and self._invariant(src, scope):
            name = f"_h{self._tag}{len(self._hoisted)}"
            self._hoisted.append(name)
            self._binds += 1
            if eager:
                self._eager[name] = src
            hoisted = code(name if eager else f"({name} if {name} is not _U else ({name} := {src}))", Hoisted(src, name),
                           loops=src.loops)
            hoisted.uses, hoisted.binds = src.uses, True
            return hoisted
        return src

    def unhoist(self, src: Code) -> None:
        """``src``, a call just lifted (``hoist``), is dropped from the code (a rewrite keeps its
        inner call instead): its name, the last lifted, is no longer bound before the expression."""
        name = src.shape.name
        if self._hoisted and self._hoisted[-1] == name:
            self._hoisted.pop()
            self._eager.pop(name, None)

    def filter_source(self, var: str, src: Code, cond: Code, body: str | None = None) -> str:
        """``[var for var in src if cond]`` (``body``: ``[body for ...]``, a map of the filter).
        Specialised, the leading terms of ``cond`` that do not read the element are asked once,
        at the first element, as the plain filter first asks them (so never of an empty list, and
        their errors raised as it raises them); the element is then asked only the rest."""
        once, rest = filter_split(var, cond, self.plain)
        out = var if body is None else body
        if not once:
            return f"[{out} for {var} in {src} if {cond if body is None else f'({cond})'}]"
        whole = self.fresh()
        return f"[{out} for {whole} in ({src},) if not {whole} or ({once}) for {var} in {whole}{' if ' + rest if rest else ''}]"

    def _invariant(self, src: Code, scope) -> bool:
        """Worth hoisting: the call holds a loop or is a helper that walks a list (``loops``,
        ``walks``: cheap lookups are not worth the bookkeeping), is not inside a generated lambda,
        and uses neither the element of an enclosing filter nor a local that changes with the
        element (``src.uses``); all noted as the code was written (code.py)."""
        return ((src.loops or src.walks) and not any(var in self.lambda_vars for var, _ in scope.elements)
                and not any(v in src.uses for v in self._varying)
                and not any(var in src.uses for var, _ in scope.elements))

    def add_cost(self, operations: int, node, why: str = "nested filters over long lists") -> None:
        """Count work a construct does beyond one operation (joining two lists copies both)."""
        self.cost += self._mult * operations
        self.spent += self._mult * operations
        if self.cost > MAX_COST:
            raise ExprError(f"this expression may take more than {MAX_COST:,} operations to evaluate "
                            f"({why}); simplify it", offset_of(node), LONGEST, code="limit")

    def size(self, n) -> int:   # (worst-case cost: the body of a filter or a by: runs once per element of its list)
        return self._sizes.get((self._expansion, id(n)), self.names.max_list)

    def sized(self, n, bound: int) -> None:
        self._sizes[self._expansion, id(n)] = max(1, bound)

    def span(self, n) -> tuple | None:
        """(least, greatest) a number node can be in any game (either end may be infinite), where
        what it reads declares it: a literal, num_players, a parameter with min:/max: or choices:,
        sums and products of those (operators.py); None: not known."""
        return self._sizes.get((self._expansion, id(n), SPAN))

    def spanned(self, n, span: tuple | None) -> None:
        if span is not None:
            self._sizes[self._expansion, id(n), SPAN] = span

    def fact(self, n, kind: str, anywhere: bool = False):
        """What is known of node ``n`` (``kind``: nesting.py's), None: nothing; ``anywhere``: of a name, also in a define."""
        return self._sizes.get((kind, n) if anywhere else (self._expansion, id(n), kind))

    def know(self, n, kind: str, value, anywhere: bool = False) -> None:   # (what fact reads)
        self._sizes[(kind, n) if anywhere else (self._expansion, id(n), kind)] = value

    def in_loop(self, coll_node, compile_body):
        saved, self._mult = self._mult, self._mult * walks.spread(self, coll_node)
        try:
            with walks.walking(self, coll_node):   # (a card's zone spread over a loop's cards: once)
                return compile_body()
        finally:
            self._mult = saved


SPAN = "span"   # (the key of a number node's span among the facts of the nodes, Compiler._sizes)


class _Unset:
    """The value of a hoisted sub-expression not computed yet in this evaluation."""
    __slots__ = ()


_UNSET = _Unset()


def base_namespace() -> dict:
    """The globals every compiled expression sees: a closed whitelist, no Python builtins."""
    ns = {"__builtins__": {}, "_U": _UNSET, "len": len, "sum": sum, "min": min, "max": max, "abs": abs,
          "any": any, "all": all, "next": next, "sorted": sorted, "tuple": tuple, "range": range, "list": list, "dict": dict, "enumerate": enumerate, "int": int,
          "bytes": bytes,   # (cards as bytes: fastpaths.member_of_cards)
          "zip": zip, "filter": filter, "_INF": float("inf"),
          "TypeError": TypeError, "_compress": compress}   # (_compress: a C-level loop: grid prices)
    ns.update(runtime.HELPERS)
    return ns


def compile_expression(text: str, names: Names | None = None, locals: dict | None = None,
                       has_me: bool = True, expect: str | None = None) -> Compiled:
    """Compile one expression with the given declarations (a convenience for tests and tools)."""
    names = names or Names()
    if not names.namespace:
        names.namespace = base_namespace()
    return Compiler(names).compile(text, locals, has_me, expect)
