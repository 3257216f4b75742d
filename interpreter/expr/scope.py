"""What is in scope at a node of an expression: its locals (with the bound of those whose binder
knows how long they can be), whether a player is acting, the elements of the filters around it."""
from __future__ import annotations


class Scope:
    __slots__ = ("locals", "has_me", "elements", "named", "bound", "sizes")

    def __init__(self, locals, has_me, elements, named=None, bound=None, sizes=None):
        self.locals, self.has_me, self.elements = locals, has_me, elements
        self.named = named or {}   # an element's own names (L as x where ...: expr/named.py) -> (var, type)
        self.bound = bound or {}   # a local read as this Python source instead of L['name'] (compile_element)
        self.sizes = sizes or {}   # a local that may hold lists -> the most elements it may have, where its
                                   # binder knows (Compiler.local_sizes); another is as long as a zone

    def with_element(self, var, typ, names=()):
        named = {**self.named, **{name: (var, typ) for name in names}} if names else self.named
        return Scope(self.locals, self.has_me, [*self.elements, (var, typ)], named, self.bound, self.sizes)
