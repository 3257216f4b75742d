"""A compiler that reuses what it compiled before, for a process that builds the same ruleset
again and again (the language server checks it at every pause in typing, and builds each of
its variants too): most expressions of a check were compiled, with the same declarations, by
the check before.

An expression's compile is a pure function of its text, its locals (and the bounds their binder
gave them: ``local_sizes``), ``has_me``, ``expect``, what the ruleset declares (``Names``:
zones, counters, parameters, attributes, defines...), the tables of the namespace a compile reads (each card attribute's values, a board's
neighbours: mechanics' functions derive tables from them or need them), the compiler's mode
(``hoisting``, ``plain``) and the number of element variables made so far (their names are in
the code). What it does besides its result is recorded with it and done again when it is
reused: the names it used, the work it counted, the budgets it drew on, what it noted of the
state (access.py), the helpers and tables its code calls put in the namespace if missing (as
the compile puts them, or found them put by an earlier one), the state of one
expression it leaves (a caller may compile a node of the same tree next; not the sizes of its
nodes, which a walk of a tree sets before it reads them). A compile that a ruleset-wide budget
(did-you-means, define expansions) cut short is not reused, nor one made in the middle of
another (a target's lvalue, an element's filter, a define's expansion), nor one in a
``for_each``'s body (which may read the loop's tallies, tallies.py). Only the code object
is kept of a function: a reused one is made anew in the namespace of the builder asking.
"""
from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, fields
from types import CodeType, FunctionType
from typing import Any

from ..loading.kept import Kept
from .access import NOTHING, Access
from .compiler import Compiled, Compiler
from .limits import MAX_RULESET_EXPANSIONS, MAX_SUGGESTION_WORK
from .names import NEIGHBOURS, Names
from .parser import ExprError, parse

_kept = Kept(1_000_000)   # key -> _Compile, bounded by the characters of the texts
_digests: dict[int, tuple[Any, str]] = {}   # id of a namespace table -> (the table, a digest of it)

# what a compile adds to (counted, in this order), and grows (sets of the compiler); besides, it
# leaves the state of one expression (cost, sizes...) as a caller compiling a node of the same tree next reads it
_COUNTED = ("spent", "total_expansions", "suggestion_work", "_counter", "_expansions_made", "_binds")
_GROWN = ("used", "made", "lambda_vars")


@dataclass
class _Compile:
    """One compile: its outcome and what it did besides (module docstring)."""
    outcome: tuple | ExprError   # (code object, def's text, body, the Compiled's other fields by name) or the error
    counted: tuple               # how much it added to each of _COUNTED
    left: tuple | None           # the values it left of the state of one expression (None: nothing compiled)
    grown: tuple                 # what it added to each of _GROWN, and to the string literals
    namespace: dict              # what its code calls of the namespace (and what it put there)
    str_concat: bool             # it joins strings
    access: Access               # what it noted, in every record open
    noted: bool                  # it noted anything
    keep: bool                   # no budget of the whole ruleset was passed


def _whole(text: str, tree) -> bool:
    """Whether a tree given with its text is the text's whole tree (a part of a larger
    expression is compiled with the larger one's offsets: not reused)."""
    try:
        return isinstance(text, str) and parse(text) is tree
    except ExprError:
        return False


class Reusing(Compiler):
    """A Compiler whose ``compile`` of a whole expression reuses an equal compile made before,
    in this process, by any builder (module docstring)."""

    def __init__(self, names: Names, plain: bool = False):
        super().__init__(names, plain)
        self._seen: tuple | None = None   # the declarations last fingerprinted, and their print
        self._print = ""
        self._attrs: tuple = (None, ())   # the card attributes, and the names of their tables and the board's

    def compile(self, text: str, locals: dict | None = None, has_me: bool = True,
                expect: str | None = None, tree=None) -> Compiled:
        key = self._key(text, locals, has_me, expect) if tree is None or _whole(text, tree) else None
        if key is None:
            return super().compile(text, locals, has_me, expect, tree)
        made: list = []   # (the compile made now, if it was not kept)
        entry = _kept.get(key, lambda: self._recorded(made, text, locals, has_me, expect), len(text))
        if made:
            return self._outcome(entry)
        if not self._fits(entry):
            return super().compile(text, locals, has_me, expect)
        return self._replay(entry)

    def _key(self, text, locals, has_me, expect) -> tuple | None:
        """What the compile of a whole expression depends on; None when it is made in the middle
        of another (its result would depend on that one too)."""
        if (self.lvalue or self._varying or self._node_access or self._define_stack or self._expansion
                or self._uses or self._loops or self.tallies or not isinstance(text, str)):
            return None
        key = (text, tuple((locals or {}).items()), has_me, expect, self.hoisting, self.plain, self._counter,
               self._declared(), tuple((k, v) for k, v in self.bound.items() if k in (locals or ())),
               tuple((k, v) for k, v in self.local_sizes.items() if k in (locals or ())))
        try:
            hash(key)
        except TypeError:   # (a local's type that is not a plain value)
            return None
        return key

    def _declared(self) -> str:
        """A print of everything the ruleset declares that a compile reads (taken again only
        when it changed: the declarations are made before the expressions are compiled)."""
        n, ns = self.names, self.names.namespace
        if self._attrs[0] is not n.attrs or len(self._attrs[1]) != len(n.attrs) + 1:   # (attributes are only added)
            self._attrs = (n.attrs, (*("A_" + a for a in n.attrs), NEIGHBOURS))
        tables = tuple(map(ns.get, self._attrs[1]))
        declared = (n.zones, n.counters, n.keyed, n.param_keys, n.vars, n.params, n.param_sizes, n.param_totals, n.attrs,
                    n.defines, n.max_list, n.max_players, n.min_players, n.param_spans, n.param_chars, n.zone_sizes,
                    n.sorted_zones)
        if (declared, tables) != self._seen:   # (the tables: the same objects, mostly, never changed)
            self._seen = (copy.deepcopy(declared), tables)
            text = repr((*declared[:-1], sorted(n.sorted_zones), [_digest(t) for t in tables]))
            self._print = hashlib.sha256(text.encode()).hexdigest()
        return self._print

    def _recorded(self, made: list, text, locals, has_me, expect) -> _Compile:
        """Compile, noting what the compile did besides its result (and that it was made, in ``made``)."""
        made.append(text)
        counted = {k: getattr(self, k) for k in _COUNTED}
        grown = {k: set(getattr(self, k)) for k in _GROWN}
        literals, namespace, joins = set(self.names.string_literals), set(self.names.namespace), self.names.str_concat
        try:
            parsed = bool(parse(text))
        except ExprError:
            parsed = False
        outcome: tuple | ExprError
        with self.access.recording() as notes:
            try:
                c = super().compile(text, locals, has_me, expect)
                fn: Any = c.fn   # (to_function's: it carries its def's text)
                outcome = (fn.__code__, fn.code, fn.body, {f.name: getattr(c, f.name) for f in fields(c) if f.name != "fn"})
            except ExprError as e:
                outcome = e.with_traceback(None)
        access = notes.frozen()
        ns = self.names.namespace
        calls = global_names(outcome[0]) if isinstance(outcome, tuple) else set()
        return _Compile(
            outcome, tuple(getattr(self, k) - counted[k] for k in _COUNTED),
            (self.cost, self._expansions, self._mult, self._hoisted, self._tables, self._tables_above,
             self._tag, dict(self._asked)) if parsed else None,
            (*(frozenset(getattr(self, k) - grown[k]) for k in _GROWN), frozenset(self.names.string_literals - literals)),
            {k: v for k, v in ns.items() if k not in namespace or k in calls},
            self.names.str_concat and not joins, access, access != NOTHING,
            self.suggestion_work <= MAX_SUGGESTION_WORK and self.total_expansions <= MAX_RULESET_EXPANSIONS)

    def _fits(self, entry: _Compile) -> bool:
        """Whether the compile kept is what compiling now would do: the budgets of the whole
        ruleset it drew on are not passed."""
        return (entry.keep and self.suggestion_work + entry.counted[2] <= MAX_SUGGESTION_WORK
                and self.total_expansions + entry.counted[1] <= MAX_RULESET_EXPANSIONS)

    def _replay(self, entry: _Compile) -> Compiled:
        """Do what the compile kept did, and give its outcome."""
        spent, expansions, suggestions, counter, made, binds = entry.counted   # (_COUNTED)
        self.spent += spent
        self.total_expansions += expansions
        self.suggestion_work += suggestions
        self._counter += counter
        self._expansions_made += made
        self._binds += binds
        used, made_vars, lambda_vars, literals = entry.grown   # (_GROWN, string literals)
        if used:
            self.used |= used
        if made_vars:
            self.made |= made_vars
        if lambda_vars:
            self.lambda_vars |= lambda_vars
        if literals:
            self.names.string_literals |= literals
        for name, value in entry.namespace.items():
            self.names.namespace.setdefault(name, value)
        if entry.str_concat:
            self.names.str_concat = True
        if entry.left is not None:
            (self.cost, self._expansions, self._mult, self._hoisted, self._tables, self._tables_above,
             self._tag, asked) = entry.left
            self._asked = dict(asked)
            self._sizes = {}
        if entry.noted:
            self._noted(entry.access)
        return self._outcome(entry)

    def _noted(self, a: Access) -> None:
        """Note again, in every record open, what a compile noted."""
        record = self.access
        for kind, name in a.reads:
            record.read(kind, name)
        for kind, name in a.writes:
            record.write(kind, name)
        for effect in a.calls:
            record.call(effect)
        for zone in a.zones_entered:
            record.enter(zone)
        for what in a.fixed:
            record.fixed(what)
        for name in a.locals:
            record.local(name)
        for name in a.attributes:
            record.attribute(name)
        for name in a.helpers:
            record.helper(name)
        if a.me:
            record.me()
        if a.opaque:
            record.anything()

    def _outcome(self, entry: _Compile) -> Compiled:
        if isinstance(entry.outcome, ExprError):
            raise copy.copy(entry.outcome)   # (a copy: whoever catches it may add to it)
        code, text, body, kept = entry.outcome
        assert isinstance(code, CodeType)
        fn: Any = FunctionType(code, self.names.namespace, code.co_name)   # (what exec of its def makes)
        fn.code, fn.body = text, body
        return Compiled(fn=fn, **kept)


def global_names(code: CodeType) -> set[str]:
    """The global names a generated function's code (and the code inside it) reads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= global_names(const)
    return names


def _digest(table) -> str:
    """A digest of a namespace table, kept by the table's identity (the card tables of one
    ruleset are the same objects from build to build: building/builder.py card_tables)."""
    if table is None:
        return ""
    kept = _digests.get(id(table))
    if kept is None or kept[0] is not table:
        if len(_digests) > 4096:
            _digests.clear()
        kept = _digests[id(table)] = (table, hashlib.sha256(repr(table).encode()).hexdigest())
    return kept[1]
