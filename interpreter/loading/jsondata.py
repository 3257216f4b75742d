"""JSON from outside the program (logs, saved states, run records), parsed with bounds.

A log line or a saved state is untrusted input: Python's json module recurses once per level
of nesting, so ``[[[[...]]]]`` a hundred thousand deep is a RecursionError, and a deep value
would also be walked recursively later. Nothing the program writes nests deeper than a few
levels; MAX_DEPTH leaves room for any of it. The collector is off while the json module
builds a value (``loads``): it would walk every list made so far, again and again."""
from __future__ import annotations

import gc
import json
from sys import intern

MAX_DEPTH = 64   # levels of arrays and objects in one JSON value


class JSONInputError(ValueError):
    """The text is not JSON, or nests deeper than MAX_DEPTH (``msg`` says which)."""

    def __init__(self, msg: str):
        super().__init__(msg)
        self.msg = msg


def too_deep(text: str) -> bool:
    """Brackets outside strings nest deeper than MAX_DEPTH (checked before parsing; the same
    holds for YAML's flow syntax, whose parser recurses too)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _unique(pairs: list) -> dict:
    """A JSON object's pairs as a dict, refused when a key appears twice (json keeps the last:
    a line could say one thing to one reader and another to the next); its keys interned (json
    shares a key only within one text: the many lines of a log name the same few, kept once)."""
    d = {intern(k): v for k, v in pairs}
    if len(d) != len(pairs):
        seen: set = set()
        for k, _ in pairs:
            if k in seen:
                raise ValueError(f"the key {json.dumps(k, ensure_ascii=False)} appears twice in one object")
            seen.add(k)
    return d


def loads(text: str, unique: bool = False):
    """json.loads, but JSONInputError for bad JSON, NaN or Infinity, or too deep a value;
    ``unique``: also for an object that names a key twice."""
    if too_deep(text):
        raise JSONInputError(f"nested more than {MAX_DEPTH} levels deep")
    collecting = gc.isenabled()   # (the collector walks every list made so far, again and again:
    gc.disable()                  # 16 MB of "[]," parsed in 7 s with it, 1.2 s without)
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique if unique else None)
    except RecursionError:   # (the depth check makes this unreachable; kept as a guard)
        raise JSONInputError(f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as e:
        if "int_max_str_digits" in str(e):   # (Python's own words: "use sys.set_int_max_str_digits()")
            raise JSONInputError("a number of more than 4,300 digits") from None
        raise JSONInputError(getattr(e, "msg", str(e))) from None
    finally:
        if collecting:
            gc.enable()
