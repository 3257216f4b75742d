"""The targets of effects: a zone or a counter an effect writes, named as ``NAME``, ``NAME[owner]``
or ``owner.NAME`` (a family's counter ``tokens[k]``), compiled to the Python that can be assigned and
the source of its owner. Mixed into the EffectCompiler (building/effects.py)."""
from __future__ import annotations

from typing import Any

from lark import Token, Tree

from ..expr import ExprError, parse
from ..expr.code import Const, Local, Name, Var, shape
from ..expr.names import item_read, state_read
from ..expr.parser import as_expr, offset_of, unquote
from ..expr.types import INT, TEAM


class CounterName(str):
    """The name of a counter as an effect logs it: its text is the family's name; a family's counter for
    a computed key is known only when the effect runs, so its repr (what the event line writes) is ``source``."""
    source: str | None   # the Python computing the counter's name (None: a plain name, its repr its own)

    def __new__(cls, text, source=None):
        obj = super().__new__(cls, text)
        obj.source = source
        return obj

    def __repr__(self):
        return self.source if self.source is not None else super().__repr__()


def named(tree) -> tuple[Any, str | None]:
    """The node of a reference (parsed) that names its zone or counter, and that name: ``NAME``,
    ``NAME[owner]``, ``owner.NAME`` (``players[1].hand``: hand), in brackets or not; (the
    reference, None) when it is none of those."""
    node = tree.children[0] if isinstance(tree, Tree) and tree.data == "index" else tree
    if isinstance(node, Tree) and node.data == "attr":
        return node, str(node.children[1])
    if isinstance(node, Tree) and node.data == "name":
        return node, str(node.children[0])
    return node, None


def zone_named(value) -> str | None:
    """The zone a zone reference (its text) names, as a step's ``zone_ref`` finds it: ``hand``
    for ``hand``, ``hand[1]``, ``(hand[1])``, ``players[1].hand``; None when it names none (the
    reference's compile says why)."""
    try:
        return named(parse(as_expr(value)))[1]
    except ExprError:
        return None


class Targets:
    """EffectCompiler methods (building/effects.py) compiling the zone or counter an effect writes."""
    ctx: Any       # (the EffectCompiler's: the ruleset compiler)
    expr: Any      # (the EffectCompiler's: an expression -> (source, type))
    access: Any    # (the EffectCompiler's: where what a function touches is noted)

    def target(self, text, path, locals, has_me, want, em=None):
        """A zone or counter written as NAME, NAME[owner] or owner.NAME -> (python lvalue, name)
        (``em``: as target_owner's)."""
        src, name, _ = self.target_owner(text, path, locals, has_me, want, em=em)
        return src, name

    def target_owner(self, text, path, locals, has_me, want, any_owner=False, tree=None, em=None, varies=False):
        """As target(), plus the Python source of its owner: (seat or team source, is_team) or None.
        ``any_owner``: a zone owned by each card has an owner too, (card source, None). ``tree``:
        the target as a part of the expression at ``path``, already parsed (a branch of an if).
        ``em``: the emitter of the effect writing it, where the owner (and a family's key) is
        evaluated once, into a local, before the write: the target and the owner are both that
        value (an event, the knowledge, the triggers name where the write went, not where the
        expression points after it; a target that reads what the write changes is not asked again).
        ``varies``: the effect runs what may set a variable before its last use of the owner (a
        zone's ``on_enter`` triggers, between the cards of a deal): a variable is bound too."""
        names = self.ctx.names
        pool = names.counters if want == "counter" else names.zones
        if tree is not None:
            text = str(text)[tree.meta.start_pos:tree.meta.end_pos]
        else:
            try:
                tree = parse(str(text))
            except ExprError as e:
                self.ctx.expr_error(e, path)
                return "_dummy[0]", None, None
        if want == "counter" and names.keyed:
            member = self._family_target(tree, text, path, locals, has_me, em, varies)
            if member is not None:
                return member
        node, name = named(tree)
        if name is None:
            self.ctx.error(f"expected a {want} (NAME, NAME[player] or player.NAME)", path, "type",
                           offset=offset_of(tree))
            return "_dummy[0]", None, None
        if name in names.keyed:
            self.ctx.error(f"'{name}' is a family of counters: name one, {name}[KEY] (its keys: "
                           f"{', '.join(names.keyed[name])})", path, "type", offset=offset_of(node))
            return "_dummy[0]", None, None
        if name not in pool:
            self.ctx.unknown(want, name, pool, path, offset=offset_of(node))
            return "_dummy[0]", None, None
        before = len(self.ctx.diags)
        src, _ = self.expr(str(text), path, locals, has_me, tree=tree)
        if len(self.ctx.diags) > before:   # reported (e.g. 'me' where no player acts): no lvalue
            return "_dummy[0]", None, None
        scope, written = self.ctx.compiler.scope(locals, has_me), tree
        key_src = key_type = None
        owned = pool[name] in ("player", "team") or any_owner and pool[name] == "card"
        if pool[name] != "none" and tree.data != "name":   # its owner, written: evaluated once (em)
            at, spent = (1,) if tree.data == "index" else (0,), self.ctx.compiler.spent
            try:
                key_src, key_type = self.ctx.compiler.with_sets(*self.ctx.compiler.node(_child(tree, at), scope))
            except ExprError as e:
                self.ctx.expr_error(e, path)
                return "_dummy[0]", None, None
            if not owned:   # (weighed as before: a card's zone with no owner asked weighs its key once)
                self.ctx.compiler.spent = spent
            written, key_src = self._once(em, tree, at, key_src, key_type, scope, varies)
        # checked; now the plain subscript an assignment needs (compile() may put a prelude first)
        self.ctx.compiler.cost = 0
        self.ctx.compiler.lvalue = True
        try:
            src, _ = self._lvalue(tree, written, scope)
        except ExprError as e:    # reported once already (a broken define is reported where first used)
            if not any(d.severity == "error" for d in self.ctx.diags):
                self.ctx.expr_error(e, path)
            return "_dummy[0]", None, None
        finally:
            self.ctx.compiler.lvalue = False
        owner = None
        if owned:
            by_team = (pool[name] == "team") if pool[name] != "card" else None
            if key_src is None:
                self.access.me()   # (the acting seat's)
                owner = (item_read(state_read("tm"), "me") if by_team else "me", by_team)
            else:
                if by_team and key_type != TEAM:   # (a card-owned zone's key is its card)
                    key_src = item_read(state_read("tm"), key_src)
                owner = (key_src, by_team)
        return src, name, owner

    def _once(self, em, tree, at, src, typ, scope, varies=False):
        """The part of ``tree`` at ``at`` (child indexes), compiled to ``src`` of type ``typ``,
        evaluated once: given an emitter, a local bound to it before the target is written,
        and ``tree`` with that local in its place (``scope`` names it) -> (tree, its source).
        A local, a parameter, ``me`` or a constant is itself already, and so is a variable (no
        write of a zone or a counter changes it) unless ``varies`` (target_owner's)."""
        if em is None or isinstance(shape(src), (Const, Local, Name) if varies else (Const, Local, Name, Var)):
            return tree, src
        local = em.fresh("_o")
        em.line(f"{local} = {src}")
        scope.named = {**scope.named, local: (local, typ)}
        return _swapped(tree, at, Tree("name", [Token("NAME", local)])), local

    def _lvalue(self, tree, written, scope):
        """The target's source, compiled from ``written`` (``tree`` with locals in place of the
        parts _once bound), weighed as ``tree``: the work a step counts against the game's
        budget (builder._weighed) is the target as written, a local bound or not."""
        compiler = self.ctx.compiler
        spent = compiler.spent
        out = compiler.node(written, scope)
        if written is not tree:
            compiler.spent = spent
            compiler.node(tree, scope)
        return out

    def _family_target(self, tree, text, path, locals, has_me, em=None, varies=False):
        """A counter of a family as a target: ``tokens[k]``, ``tokens[p][k]`` or ``p.tokens[k]`` ->
        (lvalue source, its name: a CounterName whose repr is the source of the name when the
        key is computed, owner); None when the target is not one."""
        names = self.ctx.names
        if not (isinstance(tree, Tree) and tree.data == "index"):
            return None
        inner, key = tree.children
        if isinstance(inner, Tree) and inner.data == "name" and str(inner.children[0]) in names.keyed:
            family, owner_node = str(inner.children[0]), None
        elif isinstance(inner, Tree) and inner.data == "index" and getattr(inner.children[0], "data", None) == "name" \
                and str(inner.children[0].children[0]) in names.keyed:
            family, owner_node = str(inner.children[0].children[0]), inner.children[1]
        elif isinstance(inner, Tree) and inner.data == "attr" and str(inner.children[1]) in names.keyed:
            family, owner_node = str(inner.children[1]), inner.children[0]
        else:
            return None
        keys = names.keyed[family]
        kind = names.counters.get(f"{family}.{keys[0]}", "none") if keys else "none"
        before = len(self.ctx.diags)
        self.expr(str(text), path, locals, has_me, tree=tree)   # checked, errors located
        if len(self.ctx.diags) > before:
            return "_dummy[0]", None, None
        scope, written = self.ctx.compiler.scope(locals, has_me), tree
        compiler = self.ctx.compiler
        try:   # its owner and its key, each evaluated once (target_owner's em)
            osrc = otype = ksrc = None
            if owner_node is not None:
                at, spent, cost = (0, 1) if inner.data == "index" else (0, 0), compiler.spent, compiler.cost
                osrc, otype = compiler.with_sets(*compiler.node(owner_node, scope))
                if kind not in ("player", "team"):   # (weighed once, in the target: no owner asked of a card's)
                    compiler.spent, compiler.cost = spent, cost
                written, osrc = self._once(em, written, at, osrc, otype, scope, varies)
            if getattr(key, "data", None) != "string":
                ksrc, ktype = compiler.with_sets(*compiler.node(key, scope))
                written, ksrc = self._once(em, written, (1,), ksrc, ktype, scope, varies)
            compiler.cost, compiler.lvalue = 0, True
            src, typ = self._lvalue(tree, written, scope)
            if typ != INT:   # the whole family for an owner (tokens[p]): not one counter
                raise ExprError(f"'{family}[...]' here names one counter of the family: {family}[KEY] or "
                                f"{family}[p][KEY]", offset_of(tree), code="type")
            if ksrc is None:
                name = CounterName(f"{family}.{unquote(key.children[0])}")
            else:
                name = CounterName(family, f"_ckey({family!r}, {tuple(keys)!r}, {ksrc})")
            owner = None
            if kind in ("player", "team"):
                by_team = kind == "team"
                if osrc is None:
                    self.access.me()
                    owner = (item_read(state_read("tm"), "me") if by_team else "me", by_team)
                else:
                    owner = (item_read(state_read("tm"), osrc) if by_team and otype != TEAM else osrc, by_team)
        except ExprError as e:
            self.ctx.expr_error(e, path)
            return "_dummy[0]", None, None
        finally:
            compiler.lvalue = False
        return src, name, owner



def _child(tree, at):
    """The node of ``tree`` at ``at``, a path of child indexes."""
    for i in at:
        tree = tree.children[i]
    return tree


def _swapped(tree, at, node):
    """A copy of ``tree`` with ``node`` in place of the node at ``at`` (the rest shared)."""
    if not at:
        return node
    children = list(tree.children)
    children[at[0]] = _swapped(children[at[0]], at[1:], node)
    return Tree(tree.data, children, tree.meta)
