"""The checks every built-in function makes of its arguments: how many, which named ones, and a
list where it needs one (expr/builtins.py, and the built-ins a mechanic adds)."""
from __future__ import annotations

from .parser import ExprError, offset_of
from .types import ANY, is_list


def check_arity(n, args, kwargs, fname, lo, hi=None, kw=()):
    hi = lo if hi is None else hi
    for k in kwargs:   # (first: text(x: 1) names its x:, not the argument it lacks)
        if k not in kw:
            hint = f"it accepts {', '.join(k2 + ':' for k2 in kw)}" if kw else "it takes no named arguments"
            raise ExprError(f"{fname}() has no argument '{k}:'", offset_of(kwargs[k]), hint, code="arity")
    if not lo <= len(args) <= hi:
        want = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise ExprError(f"{fname}() takes {want} argument{'s' if hi != 1 else ''}, got {len(args)}",
                        offset_of(n), code="arity")


def list_arg(c, scope, node, fname):
    src, typ = c.node(node, scope)
    if not is_list(typ) and typ != ANY:
        raise ExprError(f"{fname}() needs a list, got {typ}", offset_of(node), code="type")
    return src, typ
