"""The labels of a decision's options that are lists, and one option per label among them
(Ruleset.labels and Ruleset.distinct; docs/reference.md "choose").

A list is labelled by its elements' labels joined with ``+`` (``[]`` when it is empty). Lists
whose elements are labelled alike, one by one, are one option (alike cards are interchangeable;
none and the text ``none`` share a label): the first is kept. Two lists whose elements' labels
differ but join into one label (``['a', 'b']`` and ``['a+b']``, ``['[]']`` and ``[]``) cannot
both be offered, as a choice is made by its label: that is a runtime error naming both, where
keeping one would hide the other.

An option's label is at most ``MAX_LABEL`` characters (a card's too: building/components.py),
and the labels a decision's options make ``MAX_OPTION_CHARS`` together, measured before any is
made (``fit``): past either a runtime error at the step, never labels filling the memory. An
option that is one card, whole number, seat, team or yes/no is not counted (``SHORT_LABELS``, of
the type the options are held as, ``held_type``: one made of a value of type any is measured):
a card's label is the card table's, shared, and a number's 20 characters within 64 bits (a
sum in the options' expression may pass them by a few digits).

Whole numbers, seats, teams and yes/no are labelled one to one (and never with a ``+``): lists
of them are compared by value, with no label made. A list of such scalars, or of texts or cards,
is labelled in one join, each of its values labelled once for all the options.
"""
from __future__ import annotations

from itertools import chain

from ..expr.runtime import MAX_INT, ExprRuntimeError
from ..expr.types import BOOL, CARD, INT, PLAYER, STR, TEAM, elem, is_list, walked

MAX_LABEL = 200   # characters of one card's label, and of one option's (docs/security.md)
MAX_OPTION_CHARS = 2_000_000   # characters of a decision's options' labels together (docs/security.md)
SHORT_LABELS = frozenset({INT, PLAYER, TEAM, BOOL, CARD})   # labels of at most MAX_LABEL characters
_PLAIN = frozenset({INT, PLAYER, TEAM, BOOL})   # one label a value, none holding a "+"
_TABLED = _PLAIN | {STR, CARD}                   # one label a value (not num: 1 and 1.0 are one key)
_SCALARS = frozenset({int, bool, float, type(None)})   # labels of at most 24 characters (a float's repr)
_TEXTS = frozenset({str})
_FEW = 16   # options measured by one loop (a builtin's call, max(map(len, L)), costs some 4,000 instructions)
# the longest label of one (a card's: Ruleset.widest_label; a whole number's within 64 bits: a sum
# inside an expression may pass them, unchecked until it is stored, so lists of them are measured)
_WIDEST = {INT: 20, BOOL: 5, CARD: 0}


def labels(rules, options, typ: str) -> list:
    """The labels of ``options``, lists of type ``typ``: where their elements are scalars labelled
    one to one, each value is labelled once and every list joined from a table."""
    if elem(typ) in _TABLED:
        try:
            table = {v: rules.label(v, elem(typ)) for v in set(chain.from_iterable(options))}
        except TypeError:   # (an option that is none)
            pass
        else:
            get = table.__getitem__
            return ["+".join(map(get, o)) if o else "[]" for o in options]
    return [rules.label(o, typ) for o in options]


def _joined_width(typ: str, widest: int) -> int:
    """Characters an element of a list of type ``typ`` adds to its label, its ``+`` included (a
    none's 4 at least; ``widest``: the longest card label)."""
    return max(4, widest if elem(typ) == CARD else _WIDEST[elem(typ)]) + 1


def held_type(options) -> str:
    """The type the elements of compiled options (``.type``, ``.proven``) are labelled as where
    their labels are bounded (``short_labels``, ``fit``): any where they are made of a value of type
    any (expr/nesting.py ``held_as``: ``[w, 1]`` types as a list of int, yet ``w`` may be a string
    of 65,536 characters), else their static type."""
    return elem(walked(options.type, options.proven))


def short_labels(typ: str, options, widest: int) -> bool:
    """Whether options held as of type ``typ`` (``held_type``: not the static type where they are
    made of a value of type any) whose expression's bounds are ``options`` (``Compiled``'s
    ``chars``, the longest text they hold, and ``elements``, how many and how long a list inside)
    have labels within MAX_LABEL and MAX_OPTION_CHARS together, known at load: then ``fit`` is not
    asked (``widest``: the longest card label)."""
    count, inner = (tuple(options.elements) + (None, None))[:2]
    if typ in SHORT_LABELS:
        return True
    if typ == STR:
        each = options.chars
    elif is_list(typ) and elem(typ) in _WIDEST and elem(typ) != INT and inner is not None:
        each = inner * _joined_width(typ, widest)
    else:
        return False
    return each <= MAX_LABEL and count is not None and count * max(each, 4) <= MAX_OPTION_CHARS


def fit(rules, options, typ: str):
    """``options`` (held as of type ``typ``: ``held_type``), once each of their labels is found at most MAX_LABEL characters and all of
    them at most MAX_OPTION_CHARS, measured without making them; else an ExprRuntimeError."""
    if typ in SHORT_LABELS:
        return options
    if not isinstance(options, (list, tuple)):
        options = list(options)
    if len(options) <= _FEW:   # (a few: one loop, cheaper than the calls of the passes in C below)
        for o in options:
            if not (o.__class__ in _SCALARS or o.__class__ is str and len(o) <= MAX_LABEL):
                break
        else:   # (numbers and short texts: _FEW labels of MAX_LABEL at most, within MAX_OPTION_CHARS)
            return options
    kinds = set(map(type, options))   # (one pass in C: most options are numbers, or texts)
    if kinds <= _SCALARS and 24 * len(options) <= MAX_OPTION_CHARS:   # (a number's label: at most 24 characters)
        return options
    if kinds == _TEXTS and max(map(len, options)) <= MAX_LABEL and sum(map(len, options)) <= MAX_OPTION_CHARS:
        return options
    if is_list(typ) and elem(typ) in _WIDEST:   # (a list of short labels: bounded by its length alone)
        try:
            longest = max(map(len, options), default=0) * _joined_width(typ, rules.widest_label)
            if elem(typ) == INT and not (-MAX_INT - 1 <= min(chain.from_iterable(options), default=0)
                                         and max(chain.from_iterable(options), default=0) <= MAX_INT):
                longest = MAX_LABEL + 1   # (a sum past 64 bits: wider than 20 characters, measured below)
        except TypeError:   # (an option that is none: measured below)
            longest = MAX_LABEL + 1
        if longest <= MAX_LABEL and longest * len(options) <= MAX_OPTION_CHARS:
            return options
    _measure(rules, options, typ)
    return options


def _measure(rules, options, typ: str) -> None:
    """An ExprRuntimeError when a label of ``options`` is longer than MAX_LABEL characters, or
    all of them than MAX_OPTION_CHARS, each measured without making it."""
    total = 0
    for o in options:
        n = _width(rules, o, typ, MAX_LABEL)
        if n > MAX_LABEL:
            said = f"an option's label of more than {MAX_LABEL} characters"
            raise ExprRuntimeError(f"{said} (it names the option in actions and logs: offer a shorter value, "
                                   "or an index into the long ones)", said)
        total += n
        if total > MAX_OPTION_CHARS:
            said = f"options whose labels hold more than {MAX_OPTION_CHARS} characters together"
            raise ExprRuntimeError(f"{said} ({len(options)} options)", said)


def _width(rules, value, typ, room: int) -> int:
    """The characters of ``value``'s label (Ruleset.label's), counted up to just past ``room``."""
    if value is None:
        return 4
    if isinstance(value, str):
        return len(value)
    if typ == CARD and type(value) is int:
        return len(rules.card_labels[value])
    if isinstance(value, (list, tuple, set, dict)):
        if not value:
            return 2
        joined = is_list(typ) and not isinstance(value, (set, dict))   # (else Python's text of it: a bound)
        of, sep = (elem(typ), 1) if joined else (typ, 4)
        n = -1
        for v in (value.items() if isinstance(value, dict) else value):
            n += sep + _width(rules, v, of, room - n)
            if n > room:
                break
        return n
    if typ in (PLAYER, TEAM):
        return len(rules.label(value, typ))
    return len(str(value))


def distinct(rules, options, typ: str) -> list:
    """One option per label among ``options``, lists of type ``typ``, the first of each kept;
    ExprRuntimeError where two lists whose elements differ share a label."""
    of = elem(typ)
    if of in _PLAIN:
        try:
            if len(dict.fromkeys(map(tuple, options))) == len(options):   # (no two alike: the usual case)
                return list(options)
            firsts: dict = {}
            for o in options:
                firsts.setdefault(tuple(o), o)
            return list(firsts.values())
        except TypeError:   # (an option that is none: labelled as one)
            pass
    kept: dict = {}   # label -> (the labels of its elements, the first option so labelled)
    for o in options:
        key = _key(rules, o, typ)
        shown = _label(key)
        first = kept.setdefault(shown, (key, o))[0]
        if first != key and isinstance(first, tuple) and isinstance(key, tuple):   # (not a none among lists)
            raise ExprRuntimeError(f"the options {_shown(first)} and {_shown(key)} share the label {shown!r}: "
                                   "a choice is made by its label, so one would hide the other",
                                   "two options share a label")
    return [o for _, o in kept.values()]


def _key(rules, value, typ):
    """The labels of a value's elements, nested as the value is (a scalar: its label)."""
    if is_list(typ) and isinstance(value, (list, tuple)):
        of = elem(typ)
        if of in (STR, CARD) and None not in value:   # (a text is its label; a card's, read from the table)
            return tuple(value) if of == STR else tuple([rules.card_labels[c] for c in value])
        return tuple([_key(rules, v, of) for v in value])
    return rules.label(value, typ)


def _label(key) -> str:
    """The label of a value of this key (Ruleset.label's)."""
    if isinstance(key, tuple):
        return "+".join([_label(k) for k in key]) if key else "[]"
    return key


def _shown(key) -> str:
    if isinstance(key, tuple):
        return "[" + ", ".join(_shown(k) for k in key) + "]"
    return repr(key)
