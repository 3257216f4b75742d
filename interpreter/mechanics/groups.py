"""``groups(LIST, by: KEY)``: the elements of LIST grouped by KEY, as ``list[list[T]]``, in
order of first appearance. It compares elements with one another without nesting two ``where``
(whose ``it`` would be the inner element):

    map(groups(hand, by: quality) where count(it) >= 3, to: first(it).quality)
"""
from __future__ import annotations

from ..expr.builtins import check_arity, key_fn, keyed_arg, list_arg, looked_up, register_builtin
from ..expr.nesting import deepest, innered
from ..expr.parser import ExprError, offset_of
from ..expr.types import list_of


def _groups(items, key):
    out: dict = {}
    for x in items:
        k = key(x)
        try:
            out.setdefault(k, []).append(x)
        except TypeError:                       # an unhashable key (a list): compare by value
            out.setdefault(repr(k), []).append(x)
    return list(out.values())


def _groups_by(items, table):
    """_groups() for a key that only looks a table up by the element (an attribute): the same
    groups, without a key call an element."""
    out: dict = {}
    try:
        for x in items:
            k = table[x]
            group = out.get(k)
            if group is None:
                out[k] = [x]
            else:
                group.append(x)
    except TypeError:   # an unhashable value (or a lookup that fails): the general way says which
        return _groups(items, table.__getitem__)
    return list(out.values())


def b_groups(c, n, scope, args, kw):
    check_arity(n, args, kw, "groups", 1, kw=("by",))
    if "by" not in kw:
        raise ExprError("groups() needs by:", offset_of(n), code="arity")
    src, typ = list_arg(c, scope, args[0], "groups")
    var, s, _ = keyed_arg(c, scope, kw, typ, coll=args[0])
    key = key_fn(var, s, c.plain)
    table = looked_up(key)
    c.sized(n, c.size(args[0]))   # (no more groups than elements)
    innered(c, n, deepest(c, [(args[0], typ)]))   # (nor more elements in a group)
    return (f"_groups({src}, {key})" if table is None else f"_groups_by({src}, {table})"), list_of(typ)


register_builtin("groups", b_groups, {"_groups": _groups, "_groups_by": _groups_by})
