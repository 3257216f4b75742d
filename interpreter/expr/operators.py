"""The compiler's methods for literals and operators: lists, ranges, ``where`` filters,
``if``/``else``, ``and``/``or``/``not``, comparisons, ``in``, arithmetic and calls."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import did_you_mean
from . import known, nesting, runtime, texts, walks
from .builtins import BUILTINS, CORE, SEES_STATE, WALKS, call_args
from .code import Absent, AnyLoop, any_loop, BoolOp, Code, Compare, Const, Copy, Count, Filter, Hoisted, Join, Neg, Not, Size, code, \
    Quotient, filter_split, reading, shape
from .fastpaths import faster_filter, first_from, found_first, scan_first
from .membership import MembershipNodes, comparable
from .named import element_names
from .parser import ExprError, offset_of, unquote
from .types import ANY, BOOL, INT, NONE, NUM, PLAYER, STR, TEAM, elem, is_list, is_numeric, list_of, unify

if TYPE_CHECKING:
    pass

_ARITH = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%"}


def one_type(types, what, node) -> str:
    """The common type of list items / if-else branches; mixing unrelated types is an error."""
    typ = unify(types)
    if ANY in typ and not any(ANY in t for t in types):
        shown = ", ".join(dict.fromkeys(t for t in types if t != NONE))
        raise ExprError(f"{what} must have one type: {shown}", offset_of(node), code="type")
    return typ


class OperatorNodes(MembershipNodes):
    """Compiler methods for literals, operators and calls (mixed into Compiler)."""

    # literals
    def n_int_(self, n, scope):
        value = int(n.children[0])
        self.spanned(n, (value, value))
        return code(repr(value), Const(value)), INT

    def n_float_(self, n, scope):
        value = float(n.children[0])
        if value == float("inf"):   # (a literal is never negative: -x is an operation)
            raise ExprError(f"the number {str(n.children[0])[:20]}... is too large (at most about 1.8e308)",
                            offset_of(n), code="type", span=len(n.children[0]))
        return code(repr(value), Const(value)), NUM

    def n_string(self, n, scope):
        text = unquote(n.children[0])
        self.names.string_literals.add(text)
        texts.charsed(self, n, len(text))
        return code(repr(text), Const(text)), STR

    def n_true(self, n, scope):
        return code("True", Const(True)), BOOL

    def n_false(self, n, scope):
        return code("False", Const(False)), BOOL

    def n_none(self, n, scope):
        return code("None", Const(None)), NONE

    def n_list_(self, n, scope):
        items = [self.node(c, scope) for c in n.children if c is not None]
        typ = list_of(one_type([t for _, t in items], "the items of a list", n) if items else ANY)
        if not items:   # ([] holds nothing: proven of every list type)
            self.know(n, nesting.PROVEN, list_of(NONE))
        self.sized(n, len(items))
        known.declared(self, n)
        nesting.innered(self, n, nesting.deepest(self, zip([c for c in n.children if c is not None], [t for _, t in items])))
        nesting.summed(self, n, list(zip([c for c in n.children if c is not None], [t for _, t in items])))
        if elem(typ) == STR:   # (the longest of its strings)
            texts.holds(self, n, max((texts.chars(self, c) for c in n.children if c is not None), default=0))
        return "[" + ", ".join(s for s, _ in items) + "]", typ

    def n_range(self, n, scope):
        (a, ta), (b, tb) = self.node(n.children[0], scope), self.node(n.children[1], scope)
        for t, c in ((ta, n.children[0]), (tb, n.children[1])):
            if t not in (INT, PLAYER, TEAM, ANY):
                raise ExprError(f"a range needs whole numbers, got {t}", offset_of(c), code="type")
        # as long as its ends can be apart: literals, or what num_players and parameters declare
        # (a range longer than MAX_RANGE is a runtime error, at load where it is in every game)
        known.ranged(self, n, self.span(n.children[0]), self.span(n.children[1]))
        if not self.fact(n, walks.LOOPED):   # (its list is built: where a loop walks it, counted with the loop's turns)
            walks.walked(self, n, self.size(n), walks.WALK_WORK, "a range")
        return f"_range({a}, {b})", list_of(INT)

    def n_call(self, n, scope):
        fname = str(n.children[0])
        args, kwargs = call_args(n)
        builtin = BUILTINS.get(fname)
        if builtin is None and fname in self.names.defines:
            raise ExprError(f"'{fname}' is a define, and a define takes no arguments", offset_of(n),
                            f"write '{fname}' bare: it reads the names where it is used, so a define over 'it' "
                            f"applies to each element of a where, by: or to: (sum(hand, by: {fname}))",
                            code="arity", span=len(fname))
        if builtin is None:
            hint = did_you_mean(fname, BUILTINS)
            raise ExprError(f"unknown function '{fname}'", offset_of(n),
                            f"did you mean '{hint}'?" if hint else None, code="unknown-name", span=len(fname))
        if fname in SEES_STATE:
            self.access.anything()
        if fname not in CORE:
            self.access.helper(fname)
        if args and ("by" in kwargs or "to" in kwargs):   # (its list walked by the loop of its by: or to:)
            self.know(args[0], walks.LOOPED, True)
        src, typ = builtin(self, n, scope, args, kwargs)
        if nesting.recorded(self, n) is None and args:   # (a list of lists built of its arguments' elements)
            nesting.innered(self, n, max(nesting.inner(self, a) for a in args))
        if fname in WALKS:   # a mechanic's helper
            src = code(src, like=src, walks=True)
        return src, typ

    # operators
    def n_where_as(self, n, scope):
        """``L as x where C``: a filter whose element is also named ``x``, so a filter inside C
        (with its own ``it``) can still read it."""
        coll, token, cond = n.children
        name = str(token)
        taken = self.name_taken(name, scope)
        if taken:
            raise ExprError(f"'as {name}': '{name}' is already {taken}", getattr(token, "start_pos", None) or 0,
                            "choose another name for the element", code="name", span=len(name))
        return self.n_where(n, scope, (coll, cond), name)

    def n_where(self, n, scope, parts=None, name=None):
        """``L where C`` (``name``: the element's own name, L as name where C); C reads the element
        under the names the filters L is chained to give it too (expr/named.py)."""
        coll, cond = parts or n.children
        self.know(coll, walks.LOOPED, True)
        src, typ = self.node(coll, scope)
        if not is_list(typ):
            raise ExprError(f"'where' filters a list, got {typ}", offset_of(coll), code="type")
        # a filter of a filter ((L where P) where Q, often through a define): one filter of L by
        # P and Q, no list in between; Q reads the element under P's name
        inner = None if self.plain else shape(src)
        if isinstance(inner, Copy):   # a new list of a tuple's elements: the tuple walked, no copy
            walked = reading(inner.inner, src.uses)
            walked.shape = shape(inner.inner)   # (what is known of the tuple: fastpaths.count_in_bytes)
            walked.binds, src, inner = src.binds, walked, None
        inner = inner if isinstance(inner, Filter) else None
        var = self.fresh() if inner is None else inner.var
        names = (*element_names(coll), name) if name else element_names(coll)
        nesting.bind_element(self, var, coll, typ)
        walks.bound_over(self, var, coll, scope)
        csrc, ctyp = self.in_loop(coll, lambda: self.node(cond, scope.with_element(var, elem(typ), names)))
        self.expect_type(ctyp, BOOL, cond)
        self.sized(n, self.size(coll))
        known.inherited(self, n, coll)   # (no longer than L: its bound declared where L's is)
        walks.spread_as(self, n, coll)
        nesting.innered(self, n, nesting.inner(self, coll))
        texts.holds_of(self, n, [coll])
        if inner is not None:
            src, first_cond = inner.iter, inner.cond
            csrc = code(f"({first_cond}) and ({csrc})", BoolOp("and", (first_cond, csrc)))
        out = None if self.plain else faster_filter(self.names.sorted_zones, var, src, csrc, self.fresh())
        split = None if out or self.plain else filter_split(var, csrc, self.plain)   # (the comprehension's parts)
        out = out or self.filter_source(var, src, csrc)
        return code(out, Filter(var, src, csrc, split), loops=True), typ   # (count(...) > 0 as any(...), first(L where ...))

    def n_cond(self, n, scope):
        a, c, b = (self.node(x, scope) for x in n.children)
        self.expect_type(c[1], BOOL, n.children[1])
        typ = one_type([a[1], b[1]], "the two branches of 'if' ... 'else'", n)
        yes_node, _, no_node = n.children   # (either branch's list or number: the longer, the wider)
        nesting.proven_of(self, n, ((yes_node, a[1]), (no_node, b[1])))
        nesting.either(self, n, ((yes_node, a[1]), (no_node, b[1])))
        self.sized(n, max(self.size(yes_node), self.size(no_node)))
        known.inherited(self, n, yes_node, no_node)
        nesting.innered(self, n, max(nesting.inner(self, yes_node), nesting.inner(self, no_node)))
        texts.holds_of(self, n, [yes_node, no_node])
        one, other = self.span(yes_node), self.span(no_node)
        self.spanned(n, one and other and (min(one[0], other[0]), max(one[1], other[1])))
        if typ == STR:
            texts.either(self, n, yes_node, no_node)
        yes, no = a[0], b[0]
        found = None if self.plain else found_first(c[0])
        if found is not None:   # the branch where the condition found first(L where P) may start from it
            if found[2]:
                yes = first_from(found[0], found[1], yes)
            else:
                no = first_from(found[0], found[1], no)
        return f"({yes} if {c[0]} else {no})", typ

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
        return code(f"({parts[0]} {op} {parts[1]})", BoolOp(op, tuple(parts))), BOOL

    def n_not_(self, n, scope):
        s, t = self.node(n.children[0], scope)
        self.expect_type(t, BOOL, n.children[0])
        return code(f"(not {s})", Not(s)), BOOL

    def n_compare(self, n, scope):
        (a, ta), op, (b, tb) = self.node(n.children[0], scope), str(n.children[1]), self.node(n.children[2], scope)
        if op not in ("==", "!="):
            for t, c in ((ta, n.children[0]), (tb, n.children[2])):
                if not (is_numeric(t) or t == STR):
                    raise ExprError(f"'{op}' compares numbers or strings, got {t}", offset_of(c), code="type")
            if STR in (ta, tb) and ANY not in (ta, tb) and ta != tb:
                raise ExprError(f"'{op}' compares two numbers or two strings, got {ta} and {tb}",
                                offset_of(n.children[2]), code="type")
        elif not comparable(ta, tb):
            raise ExprError(f"comparing {ta} with {tb} is always false", offset_of(n.children[2]), code="type")
        # two lists compared element by element up to the shorter's end, two strings character by character
        walks.compared(self, n, ((n.children[0], ta), (n.children[2], tb)), op)
        # count(X where C) compared with 0 only asks whether one element passes: stop at the first
        hoisted = isinstance(shape(a), Hoisted)   # count(...) lifted out of a filter
        counted = shape(shape(a).inner if hoisted else a)
        zero = shape(b)
        if isinstance(shape(a), Size) and not self.plain and isinstance(zero, Const) and type(zero.value) is int \
                and zero.value == 0 and op in (">", "!=", "=="):   # a zone's list empty or not: its truth, no len()
            empty = code(f"(not {shape(a).iter})", Not(shape(a).iter))
            return (empty if op == "==" else code(f"(not {empty})", Not(empty))), BOOL
        if isinstance(counted, Count) and isinstance(zero, Const) and type(zero.value) is int and zero.value == 0 \
                and op in (">", "!=", "=="):
            var, coll, cond = counted.filter.var, counted.filter.iter, counted.filter.cond
            if hoisted:   # the lifted count is written no more: its name bound to nothing
                self.unhoist(a)
            scan = None if self.plain else scan_first(self, var, coll, cond)   # (a zone's cards are never none)
            if scan is not None:
                self.holds_loop(any_loop(coll, cond))   # (the filter's own loop is left out)
                value = self.hoist(reading(scan, a.uses), scope)
                test = code(f"({value} {'is' if op == '==' else 'is not'} None)", Absent(scan, value, op != "=="))
            else:
                gen = code(f"any(True for {var} in {coll} if {cond})", AnyLoop(var, coll, cond), loops=True)
                test = code(f"(not {gen})", Not(gen), loops=True) if op == "==" else gen
                test.uses = a.uses
            return (test if not hoisted or scan is not None else self.hoist(test, scope)), BOOL
        return code(f"({a} {op} {b})", Compare(op, a, b)), BOOL

    def n_neg(self, n, scope):
        s, t = self.node(n.children[0], scope)
        self.expect_type(t, NUM, n.children[0])
        span = self.span(n.children[0])
        self.spanned(n, span and (-span[1], -span[0]))
        return code(f"(-{s})", Neg(s)), NUM if t == NUM else INT

    def _arith(self, n, scope):
        (a, ta), (b, tb) = self.node(n.children[0], scope), self.node(n.children[1], scope)
        op = _ARITH[n.data]
        if op == "+" and is_list(ta) and is_list(tb):
            self.sized(n, self.size(n.children[0]) + self.size(n.children[1]))
            known.inherited(self, n, *n.children[:2])
            nesting.innered(self, n, max(nesting.inner(self, x) for x in n.children[:2]))
            texts.holds_of(self, n, n.children[:2])
            self.add_cost(self.size(n), n)   # a new list of both
            nesting.proven_of(self, n, ((n.children[0], ta), (n.children[1], tb)))
            return code(f"({a} + {b})", Join(a, b)), list_of(one_type([elem(ta), elem(tb)], "the items of joined lists", n))
        if op == "+" and ta == STR and tb == STR:
            self.names.str_concat = True
            texts.joined(self, n, n.children[0], n.children[1])
            return f"({a} + {b})", STR
        # a value of type any, or one made of it (``v if C else 0`` types as an int, yet may be the list
        # or the string v holds: nesting.held_as), is used as a value of type any is
        ha, hb = nesting.held_as(self, n.children[0], ta), nesting.held_as(self, n.children[1], tb)
        if op == "+" and ANY in (ha, hb) and is_numeric(ta) and is_numeric(tb):   # (they may be strings)
            self.names.str_concat = True
            if ha == hb == ANY:   # (numbers added, or strings or lists joined within texts.ANY_JOIN: texts.plus)
                texts.any_joined(self, n)
                return f"_plus({a}, {b})", ANY if ta == tb == ANY else NUM if NUM in (ta, tb) else INT
        for t, c in ((ta, n.children[0]), (tb, n.children[1])):
            if not is_numeric(t):
                raise ExprError(f"'{op}' needs numbers, got {t}", offset_of(c), code="type")
        if ANY in (ha, hb):   # (a value of unknown type used as a number: checked, so no string or list is made)
            self.names.namespace.setdefault("_num", runtime.CHECKS["_num"])
            a, b = (as_number(x, op) if h == ANY else x for x, h in ((a, ha), (b, hb)))
        self.spanned(n, spans(op, self.span(n.children[0]), self.span(n.children[1])))
        if op == "/":
            return code(f"_div({a}, {b})", Quotient(a, b)), NUM
        if op in ("//", "%"):
            by = shape(b)
            if not self.plain and ta == tb == INT and isinstance(by, Const) and type(by.value) is int and by.value:
                # whole numbers by a whole number other than 0: Python's operator, which then
                # raises nothing _floordiv or _mod would turn into the language's error
                return f"({a} {op} {b})", INT
            return f"_{n.data}({a}, {b})", NUM if NUM in (ta, tb) else INT
        if op == "*" and NUM not in (ta, tb):   # whole numbers stay within 64 bits (runtime._mul)
            return f"_mul({a}, {b})", INT
        return f"({a} {op} {b})", NUM if NUM in (ta, tb) else INT

    n_add = n_sub = n_mul = n_div = n_floordiv = n_mod = _arith


def as_number(x: Code, op: str) -> Code:
    """``x``, a value of type any, checked to be a number before ``op`` uses it (runtime._num):
    what it reads and binds as ``x``, no shape of its own."""
    out = code(f"_num({x}, {op!r})", like=x)
    out.shape = None
    return out


def spans(op: str, a: tuple | None, b: tuple | None) -> tuple | None:
    """The span of ``x op y`` for x in span ``a`` and y in ``b`` (+, - and *; None for the others:
    not known). Infinite ends stand for no bound: a product with 0 is 0 whatever the other is."""
    if a is None or b is None or op not in ("+", "-", "*"):
        return None
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    products = [0 if x == 0 or y == 0 else x * y for x in a for y in b]
    return min(products), max(products)


def divided(src: Any, statements: tuple, result: str) -> tuple[tuple, str]:
    """An expression's function body (its ``statements``, the value ``result`` it returns) where
    the expression ``src`` is a division, ``a / b``: Python's division in a ``try``, and
    ``runtime._div`` called only where it raises (by zero, too large for a float, not numbers),
    to raise the language's error as it did: the same value and the same error as ``_div(a,
    b)``, ``a`` then ``b`` evaluated once each, without a call (some 600 instructions, a roll's
    chance asks one)."""
    s = shape(src)
    if not isinstance(s, Quotient) or result != src:
        return statements, result
    return (*statements, f"_qa = {s.left}", f"_qb = {s.right}", "try:", "    _qv = _qa / _qb",
            "except _DIV_ERRORS:", "    _qv = _div(_qa, _qb)"), "_qv"
