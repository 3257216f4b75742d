"""A compiler that reuses what it compiled before, for a process that builds the same ruleset
again and again (the language server checks it at every pause in typing, and builds each of
its variants too): most expressions of a check were compiled, with the same declarations, by
the check before.

An expression's compile is a pure function of its text, its locals, ``has_me``, ``expect``,
what the ruleset declares (``Names``: zones, counters, parameters, attributes, defines...),
the compiler's mode (``hoisting``, ``plain``) and the number of element variables made so far
(their names are in the code). What it does besides its result is recorded with it and done
again when it is reused: the names it used, the work it counted, the budgets it drew on, what it
noted of the state (access.py), the helpers it put in the namespace, the state of one
expression it leaves (a caller may compile a node of the same tree next; not the sizes of its
nodes, which a walk of a tree sets before it reads them). A compile that a ruleset-wide budget
(did-you-means, define expansions) cut short is not reused, nor one made in the middle of
another (a target's lvalue, an element's filter, a define's expansion). Only the code object
is kept of a function: a reused one is made anew in the namespace of the builder asking.
"""
from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass
from types import CodeType, FunctionType
from typing import Any

from ..loading.kept import Kept
from .access import NOTHING, Access
from .compiler import Compiled, Compiler
from .limits import MAX_RULESET_EXPANSIONS, MAX_SUGGESTION_WORK
from .names import Names
from .parser import ExprError, parse

_kept = Kept(1_000_000)   # key -> _Compile, bounded by the characters of the texts

# what a compile adds to (counted), and grows (sets of the compiler); besides, it leaves the
# state of one expression (cost, sizes...) as a caller compiling a node of the same tree next reads it
_COUNTED = ("spent", "total_expansions", "suggestion_work", "_counter", "_expansions_made", "_binds")
_GROWN = ("used", "made", "lambda_vars")


@dataclass
class _Compile:
    """One compile: its outcome and what it did besides (module docstring)."""
    outcome: tuple | ExprError   # (source, type, distinct, access, code object, its def's text) or the error
    counted: tuple               # (one of _COUNTED, how much it added) when it added
    left: tuple | None           # the values it left of the state of one expression (None: nothing compiled)
    grown: tuple                 # (one of _GROWN or string_literals, what it added) when it did
    namespace: dict              # the helpers it put in the namespace
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
                or self._uses or self._loops or not isinstance(text, str)):
            return None
        key = (text, tuple((locals or {}).items()), has_me, expect, self.hoisting, self.plain, self._counter,
               self._declared())
        try:
            hash(key)
        except TypeError:   # (a local's type that is not a plain value)
            return None
        return key

    def _declared(self) -> str:
        """A print of everything the ruleset declares that a compile reads (taken again only
        when it changed: the declarations are made before the expressions are compiled)."""
        n = self.names
        now = (n.zones, n.counters, n.keyed, n.param_keys, n.vars, n.params, n.param_sizes, n.attrs,
               n.defines, n.max_list, n.max_players, n.sorted_zones)
        if now != self._seen:
            self._seen = copy.deepcopy(now)
            self._print = hashlib.sha256(repr((*now[:-1], sorted(n.sorted_zones))).encode()).hexdigest()
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
                outcome = (c.source, c.type, c.distinct, c.access, fn.__code__, fn.code)
            except ExprError as e:
                outcome = e.with_traceback(None)
        access = notes.frozen()
        return _Compile(
            outcome, tuple((k, d) for k in _COUNTED if (d := getattr(self, k) - counted[k])),
            (self.cost, self._expansions, self._mult, self._hoisted, self._tables, self._tables_above,
             self._tag) if parsed else None,
            tuple((k, new) for k, new in [*((k, getattr(self, k) - grown[k]) for k in _GROWN),
                                          ("string_literals", self.names.string_literals - literals)] if new),
            {k: v for k, v in self.names.namespace.items() if k not in namespace},
            self.names.str_concat and not joins, access, access != NOTHING,
            self.suggestion_work <= MAX_SUGGESTION_WORK and self.total_expansions <= MAX_RULESET_EXPANSIONS)

    def _fits(self, entry: _Compile) -> bool:
        """Whether the compile kept is what compiling now would do: the budgets of the whole
        ruleset it drew on are not passed."""
        counted = dict(entry.counted)
        return (entry.keep and self.suggestion_work + counted.get("suggestion_work", 0) <= MAX_SUGGESTION_WORK
                and self.total_expansions + counted.get("total_expansions", 0) <= MAX_RULESET_EXPANSIONS)

    def _replay(self, entry: _Compile) -> Compiled:
        """Do what the compile kept did, and give its outcome."""
        for k, delta in entry.counted:
            setattr(self, k, getattr(self, k) + delta)
        for k, values in entry.grown:
            (self.names.string_literals if k == "string_literals" else getattr(self, k)).update(values)
        for name, value in entry.namespace.items():
            self.names.namespace.setdefault(name, value)
        if entry.str_concat:
            self.names.str_concat = True
        if entry.left is not None:
            (self.cost, self._expansions, self._mult, self._hoisted, self._tables, self._tables_above,
             self._tag) = entry.left
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
        if a.me:
            record.me()
        if a.opaque:
            record.anything()

    def _outcome(self, entry: _Compile) -> Compiled:
        if isinstance(entry.outcome, ExprError):
            raise copy.copy(entry.outcome)   # (a copy: whoever catches it may add to it)
        source, typ, distinct, access, code, body = entry.outcome
        assert isinstance(code, CodeType)
        fn: Any = FunctionType(code, self.names.namespace, code.co_name)   # (what exec of its def makes)
        fn.code = body
        return Compiled(source, typ, fn, distinct, access)
