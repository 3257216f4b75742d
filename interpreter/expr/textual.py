"""``text(x)``: a value written as text, for a label or a message ("you have " + text(n)).

``as_text`` is the one way a value is written: text() calls it when a game runs, and a
requirement's message fills in its ``{expr}`` placeholders with it (engine/requires.py). A whole
number (a player, a team) is its digits, a fraction the shortest decimal that reads back as it
(``3.5``, ``0.30000000000000004`` for ``0.1 + 0.2``, ``2.5e-30`` for a tiny one; a whole one
without ``.0``; an overflow to an infinity is a runtime error, as storing it is), a condition
``true`` or ``false``, a text itself, a card its label, ``none`` ``none``. A list or a map is
refused at load (its elements are written one by one: ``map(L, to: text(it))``), and so is a
value of no known type (``any``).
"""
from __future__ import annotations

from math import isfinite

from . import nesting, runtime, texts
from .arity import check_arity
from .parser import ExprError, offset_of
from .runtime import beyond_bounds
from .types import ANY, CARD, STR, is_list, is_map


def as_text(value, labels=None) -> str:
    """``value`` written as text; ``labels``: the card labels, when the value is a card."""
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if labels is not None:
        return labels[value]
    if isinstance(value, float):   # (an overflow to inf or nan is no number of the language)
        if not isfinite(value):
            raise beyond_bounds(value)
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


def _text(value) -> str:
    if value.__class__ is int:   # (the most written: no test of the others first)
        return str(value)
    return as_text(value)


def _card_text(S, card) -> str:
    return as_text(card, S.rules.card_labels)


def has_text(typ: str) -> bool:
    """Whether values of type ``typ`` are written as text (a list or a map is not, nor a value
    whose type is not known: a card there would be written as its number)."""
    return not (is_list(typ) or is_map(typ) or typ == ANY)


WRITES = "a number, a condition, a text, a card, a player or a team"   # (what has_text accepts, in words)


def text_source(src: str, typ: str, node) -> str:
    """The source of ``src`` (of type ``typ``) written as text; ExprError (at ``node``) for a
    type that has no text (a list, a map)."""
    if not has_text(typ):
        hint = "write each element's: map(L, to: text(it))" if is_list(typ) else \
            "declare its type (a variable's type:, a parameter's)" if typ == ANY else None
        raise ExprError(f"text() writes {WRITES}, got {typ}", offset_of(node), hint, code="type")
    return f"_card_text(S, {src})" if typ == CARD else f"_text({src})"


def b_text(c, n, scope, args, kw):
    check_arity(n, args, kw, "text", 1)
    src, typ = c.node(args[0], scope)
    if typ != ANY and nesting.held_as(c, args[0], typ) == ANY:   # (a value of type any is refused alike)
        raise ExprError(f"text() writes {WRITES}, got a value made of one of type any, which may be a list",
                        offset_of(args[0]), "declare its type (a variable's type:, a parameter's)", code="type")
    out = text_source(src, typ, args[0])
    texts.written(c, n, args[0], typ)
    if typ != STR:
        c.names.str_concat = True   # (a text no literal writes: the strings of the game are unbounded)
    return out, STR


runtime.HELPERS.update({"_text": _text, "_card_text": _card_text})
