"""The checks every built-in function makes of its arguments: how many, which named ones, and a
list where it needs one (expr/builtins.py, and the built-ins a mechanic adds)."""
from __future__ import annotations

from . import texts
from .code import code
from .parser import ExprError, offset_of
from .runtime import ExprRuntimeError
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
    """A built-in's list argument: its source and type. A value of type any is checked a list
    where it is read (``_listed``), as the load checks a typed one: a text is not walked
    character by character (the cost model weighs it as a list, at 10,000 elements, and a
    text holds 100,000 characters: ``sum(v, by: ...)`` of one ran ten times its charge)."""
    src, typ = c.node(node, scope)
    if not is_list(typ) and typ != ANY:
        raise ExprError(f"{fname}() needs a list, got {typ}", offset_of(node), code="type")
    if typ == ANY and texts.chars(c, node) > 0:   # (one that may be a text: a card attribute of lists is not)
        c.names.namespace.setdefault("_listed", _listed)
        src = code(f"_listed({src}, {fname!r})", like=src)
        src.shape = None
    return src, typ


def _listed(v, fname):
    """``v``, of type any, that ``fname()`` reads as a list: itself, or the runtime error of a
    text, a number or a truth (none fails as before)."""
    if v.__class__ is list or v.__class__ is tuple or v is None:
        return v
    raise ExprRuntimeError(f"{fname}() needs a list, got {'map' if v.__class__ is dict else type(v).__name__}")
