"""Expressions about one element at a time (a card of a hand, of a where: list): a card key
(a trick's follow: and rank:), an element function, a filter and a selector over a whole list.
Mixed into the Builder (building/builder.py)."""
from __future__ import annotations

from typing import Any, Callable

from ..expr import ExprError
from ..expr.names import Scope
from ..expr.nesting import proven
from ..expr.parser import as_expr, parse
from ..expr.types import ANY, BOOL, CARD
from ..loading.kept import compiled
from .rulelines import by_rule


class Elements:
    """Builder methods (building/builder.py) compiling expressions about one element."""
    compiler: Any                   # (the Builder's: expr/compiler.py Compiler)
    names: Any                      # (the Builder's: expr/names.py Names)
    error: Callable[..., None]      # (the Builder's: report an error at a path)
    expr_error: Callable[..., None]  # (the Builder's: report an expression's error at a path)
    smap: Any                       # (the Builder's: the source map, locating a path)

    def card_key(self, value, path, locals=None):
        """A trick's key (follow:, rank:): a plain attribute is its table's ``__getitem__``; a
        key over the card's attributes and constants a function card -> value; one that reads
        the state (parameters, variables, counters, zones) or a local (``locals``: the led card)
        a function ``f(S, me, L, card)`` marked ``reads_state`` (called with ``me`` None: a key
        is the same for every seat, so it cannot read ``me``)."""
        text = as_expr(value)
        tree, spent = None, self.compiler.spent
        try:
            tree = parse(text)
            with self.compiler.access.recording() as notes:
                src, typ = self.compiler.with_sets(*self.compiler.node(tree, Scope(dict(locals or {}), False, [("_it", CARD)])))
        except ExprError as e:
            if self._reads_me(tree, locals):
                self.error("a trick's key is the same for every seat: it cannot read 'me' (nor a counter "
                           "or zone of the acting player's, unqualified); name the seat or use a variable",
                           path, "type")
            else:
                if e.code == "unknown-name" and not (e.hint or "").startswith("did you mean"):
                    e.hint = (f"a trick's key reads the card's attributes ({', '.join(sorted(self.names.attrs))}), the state "
                              "(parameters, variables, counters and zones: a trump named in play) and "
                              + (", ".join(f"'{k}'" for k in locals) + ", " if locals else "")
                              + "never 'me' nor a hook's other locals")
                self.expr_error(e, path)
            return lambda card: 0
        attribute = self._plain_attribute(tree, set())
        if attribute is not None:
            return self.names.namespace["A_" + attribute].__getitem__   # a plain attribute: a tuple lookup
        seen = notes.frozen()   # what the key reads, noted while its names were resolved
        if not (seen.reads or seen.fixed or seen.locals or seen.me or seen.opaque):   # the card's attributes and constants only
            return eval("lambda _it: " + src, self.names.namespace)  # noqa: S307 - generated source
        body = f"def _key(S, me, L, _it):\n    return {src}\n"
        local: dict = {}
        exec(compiled(body, f"<key {text[:60]}>", "exec"), self.names.namespace, local)  # noqa: S102 - generated source
        fn = local["_key"]
        # called by the trick's generated code with the state (building/flowgen.py key), listed by
        # `rulebook compile` under its rule (building/listing.py)
        fn.reads_state, fn.code, fn.source, fn.loc = True, body, text, self.smap.loc(tuple(path))
        # what it reads (engine/sight.py reads_unseen) and its worst-case operations a card (a
        # void's charge: engine/voids.py led_cards)
        fn.access, fn.tree, fn.work = seen, tree, self.compiler.spent - spent
        return by_rule(fn, fn.loc)

    def _reads_me(self, tree, locals) -> bool:
        """Whether ``tree`` compiles once ``me`` is given: what it lacked was the acting player."""
        if tree is None:
            return False
        try:
            self.compiler.node(tree, Scope(dict(locals or {}), True, [("_it", CARD)]))
        except ExprError:
            return False
        return True

    def _plain_attribute(self, tree, seen: set) -> str | None:
        """The card attribute a key's tree names as it stands (``rank``, ``it.rank``, or a
        define that is one of these), else None: read from the tree, where a bare name is the
        element's attribute before anything else (expr/names.py resolve_name)."""
        if tree.data == "name":
            name = str(tree.children[0])
            if name in self.names.attrs:
                return name
            define = self.names.defines.get(name)
            if define is None or name in seen:
                return None
            try:
                return self._plain_attribute(parse(define), seen | {name})
            except ExprError:
                return None
        if tree.data == "attr" and tree.children[0].data == "name" and str(tree.children[0].children[0]) == "it":
            name = str(tree.children[1])
            return name if name in self.names.attrs else None
        return None

    def element_fn(self, value, path, locals=None, element=CARD, expect=None):
        """``f(S, me, L, x)``: an expression with the element x implicit (as in where / by:),
        carrying ``.type`` and ``.proven`` (expr/nesting.py ``proven``: what a store checks)."""
        try:
            tree = parse(as_expr(value))
            src, typ = self.compiler.with_sets(*self.compiler.node(tree, Scope(dict(locals or {}), True, [("_it", element)])))
            made = proven(self.compiler, tree, typ)
            if expect is not None:
                self.compiler.expect_type(typ, expect, tree)
        except ExprError as e:
            self.expr_error(e, path)
            fn: Any = lambda S, me, L, x: None  # noqa: E731 - a stand-in
            fn.type = fn.proven = ANY
            return fn
        code = compiled("lambda S, me, L, _it: " + src, f"<expr {as_expr(value)[:60]}>", "eval")
        fn = eval(code, self.names.namespace)  # noqa: S307 - generated source
        fn.type, fn.proven = typ, made
        return fn

    def card_filter(self, value, path, locals=None):
        return self.element_fn(value, path, locals, CARD, BOOL)

    def card_selector(self, value, path, locals=None):
        """``f(S, me, L, cards) -> the cards that pass``: a filter over a whole list in one call
        (the tables it reads looked up once). Errors are reported by card_filter."""
        fn = self.card_filter(value, path, locals)
        try:
            src, _, prelude = self.compiler.compile_element(as_expr(value), locals, True, CARD, BOOL)
            code = compiled(f"lambda S, me, L, _src: ({prelude}[_it for _it in _src if ({src})],)[-1]",
                           f"<where {as_expr(value)[:60]}>", "eval")
            return eval(code, self.names.namespace)  # noqa: S307 - generated source
        except (ExprError, SyntaxError):
            return lambda S, me, L, cards: [c for c in cards if fn(S, me, L, c)]
