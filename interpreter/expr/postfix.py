"""The compiler's methods for the postfix nodes: an attribute (``x.y``: a card's attribute, a
player's zone or counter, a parameter) and an index (``x[i]``: an owner's zone or counter, a
counter family's key, a map parameter's key, a list's item).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lark import Tree

from ..errors import did_you_mean
from . import texts, walks
from .nesting import element_of, innered, may_hold_lists, totalled
from .parser import ExprError, offset_of, unquote
from .types import ANY, CARD, INT, PLAYER, STR, TEAM, elem, is_list, is_map, map_value

if TYPE_CHECKING:
    from .code import Code
    from .names import Names, Scope


class PostfixNodes:
    """Compiler methods for attributes and indexing (mixed into Compiler through names.NameNodes)."""

    # what these methods use of the Compiler (set in Compiler.__init__, documented there)
    names: Names
    used: set[str]
    cost: int
    _expansions: int
    _hoisted: list[str] | None
    access: Any
    acting: Code   # the acting player, as an owner (names.ME)

    if TYPE_CHECKING:   # the Compiler's methods these call (compiler.py, names.py)
        def node(self, n: Any, scope: Scope) -> tuple[Code, str]: ...
        def sized(self, n: Any, bound: int) -> None: ...
        def size(self, n: Any) -> int: ...
        def spanned(self, n: Any, span: tuple | None) -> None: ...
        def table(self, kind: str, name: str) -> Code: ...
        def suggest(self, name: str, candidates) -> str | None: ...
        def member(self, var: str, typ: str, name: str, node=None): ...
        def owned(self, name, who_src, who_type, scope, node, implicit=False, base=None): ...
        def family(self, name, who_src, who_type, scope, node, implicit=False): ...
        def family_member(self, name, key_node, who_src, who_type, scope, node, implicit=False): ...

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
            self.access.fixed("params." + attr)
            if attr in self.names.param_sizes:   # (a list's length: bounded at each game's start)
                self.sized(n, self.names.param_sizes[attr])
                innered(self, n, self.names.param_sizes[attr])   # (so is each list or map inside it)
            if attr in self.names.param_totals and may_hold_lists(self.names.params[attr]):   # (all of them, its strings)
                totalled(self, n, *self.names.param_totals[attr])
            self.spanned(n, self.names.param_spans.get(attr))   # (a number's least and greatest)
            chars = self.names.param_chars.get(attr)   # (a text's longest, or its strings': its choices', its max_length:)
            held = is_list(self.names.params[attr]) or is_map(self.names.params[attr])
            (texts.holds if held else texts.kept)(self, n, chars)
            return self.table("p", attr), self.names.params[attr]
        src, typ = self.node(target, scope)
        if is_map(typ):   # params.price.red: a map has keys, not attributes
            read = _written(target)
            raise ExprError(f"a map is read by key, not as an attribute: '{attr}'", offset_of(n.children[1]),
                            f"write {read}['{attr}']" if read else f"read it by key: ['{attr}']",
                            code="type", span=len(attr))
        if typ == ANY:
            typ = CARD if attr in self.names.attrs else PLAYER
        found = self.member(f"({src})" if not src.isidentifier() else src, typ, attr, n.children[1])
        if found is None:
            pool = self.names.attrs if typ == CARD else [*self.names.zones, *self.names.counters]
            hint = did_you_mean(attr, pool)
            raise ExprError(f"{typ} has no attribute '{attr}'", offset_of(n.children[1]),
                            f"did you mean '{hint}'?" if hint else None, code="unknown-name", span=len(attr))
        self.sized(n, self.size(n.children[1]))   # (a card's list attribute: as long as member() says)
        walks.spread_as(self, n, n.children[1])   # (c.zone of a loop's card c: its share of the cards)
        texts.kept(self, n, texts.recorded(self, n.children[1]))   # (a card's text attribute: as its longest)
        return found

    def n_index(self, n, scope):
        target, index = n.children
        family = self._family_index(target, index, scope, n)
        if family is not None:
            return family
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
        if is_map(typ):   # a map parameter: the value of one key
            param = str(target.children[1]) if getattr(target, "data", None) == "attr" else ""
            keys = self.names.map_keys(param)   # (those of every player count's map)
            if itype not in (STR, ANY):
                literal = str(index.children[0]) if getattr(index, "data", None) == "int_" else None
                hint = (f"its keys are text: params.{target.children[1]}['{literal}']"
                        if literal and keys and literal in keys else None)
                raise ExprError(f"a map is read by key (a str), got {itype}", offset_of(index), hint, code="type")
            if getattr(index, "data", None) == "string" and keys is not None:   # a key written: one of some map
                key = unquote(str(index.children[0]))
                if key not in keys:
                    close = self.suggest(key, keys)
                    anywhere = " for any player count" if len(self.names.param_keys[param]) > 1 else ""
                    raise ExprError(f"the map has no key '{key}'{anywhere} (its keys: {', '.join(keys)})", offset_of(index),
                                    f"did you mean '{close}'?" if close else None, code="unknown-name")
            element_of(self, n, target, map_value(typ))
            return f"_mapget({src}, {isrc})", map_value(typ)
        if not is_list(typ) and typ != ANY:
            raise ExprError(f"cannot index a {typ}", offset_of(index), code="type")
        if itype not in (INT, PLAYER, TEAM, ANY):
            raise ExprError(f"a list index must be a whole number, got {itype}", offset_of(index), code="type")
        element_of(self, n, target, elem(typ))
        return f"_at({src}, {isrc})", elem(typ)

    def _family_index(self, target, index, scope, n):
        """``tokens[k]`` (the acting player's), ``tokens[p]`` (p's values), ``tokens[p][k]`` and
        ``p.tokens[k]`` for a counter family; None for anything else."""
        keyed = self.names.keyed
        if not keyed or not isinstance(target, Tree):
            return None
        if target.data == "name" and str(target.children[0]) in keyed and str(target.children[0]) not in scope.locals:
            name = str(target.children[0])
            if self._is_key(index, scope):
                return self.family_member(name, index, self.acting, PLAYER, scope, n, implicit=True)
            osrc, otype = self.node(index, scope)
            if otype not in (PLAYER, TEAM, INT, CARD, ANY):
                raise ExprError(f"'{name}[...]' needs a key (a str) or an owner, got {otype}", offset_of(index),
                                code="type")
            return self.family(name, osrc, otype, scope, n)
        if target.data == "index" and isinstance(target.children[0], Tree) and target.children[0].data == "name" \
                and str(target.children[0].children[0]) in keyed and self._is_key(index, scope):
            name = str(target.children[0].children[0])
            osrc, otype = self.node(target.children[1], scope)
            return self.family_member(name, index, osrc, otype, scope, n)
        if target.data == "attr" and str(target.children[1]) in keyed and self._is_key(index, scope):
            osrc, otype = self.node(target.children[0], scope)
            return self.family_member(str(target.children[1]), index, f"({osrc})", otype, scope, n)
        return None

    def _is_key(self, node, scope) -> bool:
        """Whether an index is a family's key (a str, or a value of no known type: checked as a
        key when read), not an owner."""
        if getattr(node, "data", None) == "string":
            return True
        saved, self._hoisted = (self.cost, self._expansions, self._hoisted), None   # compiled for its type only
        try:
            return self.node(node, scope)[1] in (STR, ANY)
        finally:
            self.cost, self._expansions, self._hoisted = saved


def _written(n) -> str | None:
    """The text of a name, an attribute or an index of literals or names (``params.nest['a']``),
    as a hint writes it again; None for anything else."""
    kind = n.data if isinstance(n, Tree) else None
    if kind == "name":
        return str(n.children[0])
    if kind in ("string", "int_"):
        text = unquote(str(n.children[0])) if kind == "string" else None
        return str(n.children[0]) if text is None else f'"{text}"' if "'" in text else f"'{text}'"
    if kind not in ("attr", "index"):
        return None
    target, key = _written(n.children[0]), str(n.children[1]) if kind == "attr" else _written(n.children[1])
    return None if target is None or key is None else f"{target}.{key}" if kind == "attr" else f"{target}[{key}]"
