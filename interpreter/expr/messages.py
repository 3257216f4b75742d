"""Python exceptions raised by generated code, said in the language's terms.

The type checker refuses most mistakes at load; what is left reaches run time through `any`
variables and none values. An author reads "'+' cannot combine int and str", not Python's
"unsupported operand type(s) for +: 'int' and 'str'"."""
from __future__ import annotations

import re

from .runtime import ExprRuntimeError

# Python type names as the language names them
_TYPES = {"NoneType": "none", "str": "str", "int": "int", "float": "number", "Fraction": "number",
          "bool": "bool", "list": "list", "tuple": "list", "dict": "map", "frozenset": "set",
          "set": "set", "Card": "card"}

_OPERAND = re.compile(r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'")
_COMPARE = re.compile(r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'")
_UNARY = re.compile(r"bad operand type for unary (\S+): '(\w+)'")
_NOT_ITERABLE = re.compile(r"'(\w+)' object is not iterable")
_NOT_SUBSCRIPTABLE = re.compile(r"'(\w+)' object is not subscriptable")
_UNHASHABLE = re.compile(r"unhashable type: '(\w+)'")
_CONCAT = re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+')
_NO_ATTRIBUTE = re.compile(r"'(\w+)' object has no attribute '(\w+)'")
_NOT_IN_ZONE = "list.remove(x): x not in list"   # (a card taken out of a zone: mechanics/cards.py)


def _t(name: str) -> str:
    return _TYPES.get(name, name)


def _none_hint(types: tuple[str, ...]) -> str:
    return (" (a value is none: the first() of an empty list, a variable not set yet, no partner...)"
            if "NoneType" in types else "")


# what went wrong, by the error's class, without the values it names (ExprRuntimeError says its own)
_KINDS: tuple = ((ZeroDivisionError, "division by zero"), (RecursionError, "the expression nests too deeply"),
                 (MemoryError, "out of memory"), (OverflowError, "a number too large"),
                 (IndexError, "an index out of range"), (KeyError, "no such entry"),
                 ((TypeError, AttributeError), "a value of the wrong type"), (ValueError, "a value out of range"))


def kind_of(e: Exception) -> str:
    """What went wrong, in the words of ``describe`` but without a value of the game: what a seat
    is told of a runtime error whose message may name a card or value hidden from it
    (engine/loop.py ``located``, play/logs/redact.py)."""
    if isinstance(e, ExprRuntimeError):
        return e.kind
    if isinstance(e, ValueError) and str(e) == _NOT_IN_ZONE:
        return "a card not in the zone it is taken from"
    return next((said for cls, said in _KINDS if isinstance(e, cls)), "an error of the rules")


def describe(e: Exception) -> str:
    """One line saying what went wrong, without Python's vocabulary."""
    if isinstance(e, ExprRuntimeError):
        return str(e)
    text = str(e)
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, RecursionError):
        return "the expression nests too deeply"
    if isinstance(e, MemoryError):
        return "out of memory: a value grew too large"
    if isinstance(e, OverflowError):
        return "a number is too large"
    if isinstance(e, IndexError):
        return "index out of range"
    if isinstance(e, KeyError):
        return f"no entry {text}"
    if isinstance(e, (TypeError, AttributeError)):
        for pattern, say in (
                (_OPERAND, lambda op, a, b: f"'{op}' cannot combine {_t(a)} and {_t(b)}"),
                (_COMPARE, lambda op, a, b: f"'{op}' cannot compare {_t(a)} with {_t(b)}"),
                (_CONCAT, lambda a, b: f"'+' cannot combine {_t(a)} and {_t(b)}")):
            m = pattern.search(text)
            if m:
                return say(*m.groups()) + _none_hint(m.groups())
        m = _UNARY.search(text)
        if m:
            return f"'{m.group(1)}' needs a number, got {_t(m.group(2))}" + _none_hint(m.groups())
        m = _NOT_ITERABLE.search(text) or _NOT_SUBSCRIPTABLE.search(text)
        if m:
            return f"a list was needed, got {_t(m.group(1))}" + _none_hint(m.groups())
        m = _UNHASHABLE.search(text)
        if m:
            return f"a {_t(m.group(1))} cannot be an element of a set or a key of a map"
        m = _NO_ATTRIBUTE.search(text)
        if m:
            return f"{_t(m.group(1))} has no attribute '{m.group(2)}'" + _none_hint(m.groups())
        if "NoneType" in text:
            return "a value is none where a number, card or player was needed (the first() of an empty list, " \
                   "a variable not set yet, no partner...)"
        return "a value has the wrong type for this operation"
    if isinstance(e, ValueError):
        if text == _NOT_IN_ZONE:
            return ("a card is not in the zone it is taken from (it lies in another zone, or is none: "
                    "the first() of an empty list, a variable not set yet...)")
        return "a value is out of range for this operation"
    return f"{type(e).__name__}: {text}"
