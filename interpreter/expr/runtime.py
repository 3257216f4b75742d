"""Helpers that compiled expressions call. Each one is total on its documented inputs."""
import operator
import sys
from bisect import bisect_left, bisect_right

from ..errors import digits
from .scanners import scanner

MAX_RANGE = 10_000   # the longest list a range a..b may build
MAX_INT = 2 ** 63 - 1   # whole numbers a product or a stored value may reach (64-bit, as in CEL)
MIN_INT = -MAX_INT - 1   # and the least: -2^63 (a saved state holds both ends)
MAX_STORED = 100_000    # characters of a string stored in a variable
MAX_STORED_LIST = 10_000   # elements of a list stored in a variable (or the number of cards, if more)
MAX_STORED_TEXT = 1_000_000   # characters of all the strings inside a list stored in a variable, together
MAX_STORED_DEPTH = 8   # levels of lists a value stored in a variable nests (a list of lists: 2)


class ExprRuntimeError(Exception):
    """A closed set of runtime errors: division by zero, index out of range, range too long,
    no such player or team, a number too large for a fraction. ``kind``: what went wrong
    without the values the message names (what a seat is told: expr/messages.py ``kind_of``)."""

    kind = "a value the rules cannot use here"

    def __init__(self, message: str, kind: str | None = None):
        super().__init__(message)
        if kind is not None:
            self.kind = kind


def _range(a, b):
    if b - a + 1 > MAX_RANGE:
        raise ExprRuntimeError(f"range {a}..{b} is longer than {MAX_RANGE}")
    return list(range(a, b + 1))


def _at(seq, i):
    if i is None or not -len(seq) <= i < len(seq):
        raise ExprRuntimeError(f"index {i} is out of range for a list of {len(seq)}", "an index out of range")
    return seq[i]


def _dividing(name: str, op, by_zero: str):
    """``op`` (``/``, ``//`` or ``%``) as the language runs it, named ``name``: by zero, or a
    result too large for a float, is the language's error, not Python's."""
    def run(a, b):
        if b == 0:
            raise ExprRuntimeError(by_zero, by_zero)
        try:
            return op(a, b)
        except OverflowError:
            raise ExprRuntimeError("a number is too large for a fraction") from None
    run.__name__ = run.__qualname__ = name
    return run


_div = _dividing("_div", operator.truediv, "division by zero")
# what Python's own ``a / b`` raises where ``_div`` raises the language's error, or its own
# TypeError (operators.divided: then ``_div`` is called to raise it)
_DIV_ERRORS = (ZeroDivisionError, OverflowError, TypeError)
_floordiv = _dividing("_floordiv", operator.floordiv, "division by zero")
_mod = _dividing("_mod", operator.mod, "modulo by zero")


def _mul(a, b):
    """``a * b``: a product of whole numbers outside 64 bits is an error, not a number that
    grows until memory or time runs out (squaring a variable at every step would)."""
    r = a * b
    if r.__class__ is int and not -MAX_INT - 1 <= r <= MAX_INT:
        raise ExprRuntimeError("a whole number beyond 64 bits (-2^63 .. 2^63-1)")
    return r


def _num(v, op):
    """A value of type any that ``op`` (``-``, ``*``, ``/``, ``//``, ``%``) uses as a number: a string or a list is
    an error, not repeated by ``*`` or formatted by ``%`` whatever the length made (none fails as before)."""
    if v.__class__ in (int, float, bool) or v is None:
        return v
    raise ExprRuntimeError(f"'{op}' needs numbers, got {'map' if v.__class__ is dict else type(v).__name__}")


def _whole_num(v, op):
    """A value of type any that ``op`` uses as a whole number (``left()``'s arguments, a turns'
    ``from:``, a count of laps), as the load holds a typed one: no seat 0.5 (none fails as before)."""
    if v.__class__ is int or v is None:
        return v
    raise ExprRuntimeError(f"'{op}' needs whole numbers, got {'map' if v.__class__ is dict else type(v).__name__}")


def _stored(v, longest=MAX_STORED_LIST, deep=False):
    """A value about to be stored in a variable or added to a counter, within the bounds that
    keep a game's values small whatever a ruleset repeats: whole numbers of 64 bits, strings of
    MAX_STORED characters, lists of ``longest`` elements (doubling a list at every step would
    fill the memory). ``longest`` is the ruleset's list_bound(): what its cost model assumes
    a list variable holds. A list stored is the variable's own copy: a zone's list, which a move
    changes in place, read bare (``set: {seen: deck}``) would otherwise change with the zone,
    where a value of the language never changes (``deep``: a list whose elements may be lists,
    each copied too, or strings: ``owned``, every depth within ``longest`` elements in all)."""
    c = v.__class__
    if c is int:
        if -MAX_INT - 1 <= v <= MAX_INT:
            return v
        raise ExprRuntimeError("a whole number beyond 64 bits (-2^63 .. 2^63-1)")
    if c is float:   # finite, as a log and a saved state hold numbers (NaN fails both tests)
        if -_MAX_FLOAT <= v <= _MAX_FLOAT:
            return v
        raise beyond_bounds(v)
    if c is list:
        if len(v) > longest:
            raise ExprRuntimeError(f"a list of {len(v)} elements, more than {longest} (a variable or a local may hold)")
        if deep:
            try:   # a list of strings (the usual deep value): every bound holds where they join, so
                # each alone; their lengths summed first (in C), so no join is ever longer than _JOINED
                if sum(map(len, v)) <= _JOINED:
                    "".join(v)   # (a TypeError unless every element is a string)
                    return v[:]
            except TypeError:   # (an element that is not a string: owned's walk)
                pass
            return owned(v, [longest - len(v), longest, MAX_STORED_TEXT])
        return v[:]
    if c is str and len(v) > MAX_STORED:
        raise too_long(v)
    return v


def too_long(v: str) -> ExprRuntimeError:
    """The error of a string longer than a variable, or a local (building/declared.py
    ``bound_local``), may hold."""
    return ExprRuntimeError(f"a string of {len(v)} characters, more than {MAX_STORED} (a variable or a local may hold)")


_MAX_FLOAT = sys.float_info.max
_JOINED = min(MAX_STORED, MAX_STORED_TEXT)   # strings this long together are within owned's bounds


def owned(v: list, room: list | None = None, level: int = 1) -> list:
    """A copy of list ``v`` and of every list in it, at any depth (a variable's own value).
    ``room``: [how many more elements the lists in it may hold, all depths together, how many
    in all, and how many more characters its strings may hold together] (a value to store: a
    list or a string doubled inside a list at every step would fill the memory as surely as one
    doubled outright), counted down, each string in it checked against MAX_STORED and all of
    them against MAX_STORED_TEXT, and the lists nested at most MAX_STORED_DEPTH levels (``level``:
    ``v``'s), as a saved state's variables are (engine/values.py); ExprRuntimeError past any."""
    out = v[:]
    for i, x in enumerate(out):
        if x.__class__ is list:
            if room is not None:
                room[0] -= len(x)
                if room[0] < 0:
                    raise ExprRuntimeError(f"a list of lists holding more than {room[1]} elements in all "
                                           "(a variable or a local may hold)")
                if level >= MAX_STORED_DEPTH:
                    raise ExprRuntimeError(f"lists nested more than {MAX_STORED_DEPTH} levels deep "
                                           "(a variable or a local may hold)", "lists nested too deeply")
            out[i] = owned(x, room, level + 1)
        elif room is not None and x.__class__ is str:
            if len(x) > MAX_STORED:
                raise too_long(x)
            room[2] -= len(x)
            if room[2] < 0:
                raise ExprRuntimeError(f"a list holding strings of more than {MAX_STORED_TEXT} characters in all "
                                       "(a variable may hold)")
    return out


def list_bound(cards: int) -> int:
    """The most elements a list variable of a ruleset with ``cards`` cards may hold."""
    return max(MAX_STORED_LIST, cards)


def _mapget(m, k):
    """A map parameter's value for key ``k``."""
    try:
        return m[k]
    except (KeyError, TypeError):
        shown = k if isinstance(k, str) else repr(k)
        raise ExprRuntimeError(f"'{shown}' is not a key of the map (" + (f"its keys: {', '.join(m)})" if m else "it has none)"),
                               "a key not in the map") from None


def _ckey(name, keys, k):
    """The counter of family ``name`` for key ``k`` (``NAME.KEY``), ``k`` checked as one of its keys."""
    if k not in keys:
        shown = k if isinstance(k, str) else repr(k)
        raise ExprRuntimeError(f"'{shown}' is not a key of {name} (its keys: {', '.join(keys)})", f"a key not of {name}")
    return f"{name}.{k}"


def _seat(S, p):
    """``p`` checked as a seat (for whole numbers that are not known to be players)."""
    if p is not None and not (type(p) is int and 0 <= p < S.n):
        raise ExprRuntimeError(f"there is no player {p} (players are 0 to {S.n - 1})", "no such player")
    return p


def _card(S, c):
    """``c`` checked as a card: the owner of a zone owned by each card that a move fills (none
    or another value would be kept as a key of no card)."""
    if not (type(c) is int and 0 <= c < len(S.rules.card_labels)):
        raise ExprRuntimeError(f"a zone owned by each card is filled for a card, not {'none' if c is None else repr(c)}")
    return c


def _team(S, t):
    """``t`` checked as a team index."""
    if t is not None and not (type(t) is int and 0 <= t < len(S.members)):
        raise ExprRuntimeError(f"there is no team {t} (teams are 0 to {len(S.members) - 1})", "no such team")
    return t


# _highest and _lowest stay two loops: an operator passed in would cost a call per element
# in the helpers every winner and every by: runs
def _highest(seq, key):
    best = None
    best_key = None
    for x in seq:
        k = key(x)
        if best_key is None or k > best_key:
            best, best_key = x, k
    return best


def _lowest(seq, key):
    best = None
    best_key = None
    for x in seq:
        k = key(x)
        if best_key is None or k < best_key:
            best, best_key = x, k
    return best


def _ties(name: str, pick):
    """The elements whose key is the ``pick`` (max or min) of all, in order; named ``name``."""
    def run(seq, key):
        keys = [key(x) for x in seq]
        if not keys:
            return []
        m = pick(keys)
        return [x for x, k in zip(seq, keys) if k == m]
    run.__name__ = run.__qualname__ = name
    return run


_top = _ties("_top", max)
_bottom = _ties("_bottom", min)


def _sole(name: str, pick):
    """``one(top(L, by: K))`` (or bottom): the element whose key is the ``pick`` of all when no
    other's equals it, else None, as ``_one`` of ``_ties`` gives it without building the ties;
    every key computed first, as there (the first to fail is the same one)."""
    def run(seq, key):
        keys = [key(x) for x in seq]
        if not keys:
            return None
        m = pick(keys)
        if m != m or keys.count(m) != 1:   # (count finds m itself first: a NaN, equal to nothing, is no one)
            return None
        return seq[keys.index(m)]
    run.__name__ = run.__qualname__ = name
    return run


_one_top = _sole("_one_top", max)
_one_bottom = _sole("_one_bottom", min)


def _one(seq):
    return seq[0] if len(seq) == 1 else None


def _lookup(table):
    """``table[x]`` as a function of x, without a Python frame per call (a key function)."""
    return table.__getitem__


def _first(seq):
    return seq[0] if seq else None


class ValueCodes(dict):
    """An attribute's value -> its index among the attribute's values (the counts of ``_tally``);
    any other value -> ``other``, the index of a count that stays 0."""
    __slots__ = ("other",)

    def __init__(self, codes: dict, other: int):
        super().__init__(codes)
        self.other = other

    def __missing__(self, value):
        return self.other


def _tally(tallies, owner, cards, codes, n):
    """How many of ``cards`` have each value of an attribute (``codes``: each card's value as
    its index, of ``n``), kept in ``tallies[owner]``: ``count(ZONE where ATTR == x)`` read for
    any x without walking the zone again (expr/tallies.py, in a loop that cannot change it)."""
    counts = [0] * n
    for x in cards:
        counts[codes[x]] += 1
    tallies[owner] = counts
    return counts


# first(seq where table[it] == value) as a plain loop: a third of the cost of a generator and
# next() (a supply of 200 cards searched for one kind of card)
_first_eq = scanner(("Eq",))[1]


def attribute_index(table) -> dict:
    """value -> the runs of consecutive card numbers with that attribute value, as (first, last)
    pairs in card order (for zones kept sorted: the 21 copies of a tile are one run); and under
    the key ``_RUN_END``, for each card, the last card of its run. NaN is left out: it equals
    nothing, itself included."""
    index: dict = {}
    ends = list(range(len(table)))
    for card, value in enumerate(table):
        try:
            if value != value:
                continue
            runs = index.setdefault(value, [])
        except TypeError:   # an unhashable value: never looked up
            continue
        if runs and runs[-1][1] == card - 1:
            runs[-1][1] = card
        else:
            runs.append([card, card])
    for runs in index.values():
        for first, last in runs:
            ends[first:last + 1] = [last] * (last - first + 1)
    out: dict[object, tuple] = {value: tuple((first, last) for first, last in runs) for value, runs in index.items()}
    out[_RUN_END] = tuple(ends)
    return out


_RUN_END = object()   # the key of attribute_index's table of run ends (no attribute value equals it)


def _runs_with(index, value) -> tuple:
    """The runs of cards whose attribute (``index``: attribute_index of its table) equals ``value``."""
    try:
        return index.get(value, ())
    except TypeError:          # an unhashable value equals no attribute value
        return ()


def _first_sorted(seq, table, index, value):
    """``first(seq where table[it] == value)`` for a zone kept in card order: the runs of cards
    with that value are known, so each is looked for by bisection, lowest first (the first
    found is the first in the zone). Many runs: the plain loop is cheaper."""
    try:   # (_runs_with, in place: a Python call a move of one card)
        runs = index.get(value, ())
    except TypeError:
        runs = ()
    n = len(seq)
    if len(runs) * 8 > n or not n:
        return _first_eq(seq, table, value)
    low = seq[0]
    for first, last in runs:
        if last < low:   # a run below the zone's first card (of another component sharing the attribute)
            continue
        i = bisect_left(seq, first)
        if i == n:       # this run and the later ones are above the zone's last card
            return None
        if seq[i] <= last:
            return seq[i]
    return None


def _in_sorted(seq, table, index, value):
    """``seq where table[it] == value`` for a zone kept in card order, in its order: a slice
    of the zone for each run of cards with the value (see _first_sorted)."""
    runs = _runs_with(index, value)
    n = len(seq)
    if len(runs) * 8 > n:
        return [x for x in seq if table[x] == value]
    if len(runs) == 1:
        return seq[bisect_left(seq, runs[0][0]):bisect_right(seq, runs[0][1])]
    out = []
    for first, last in runs:
        i = bisect_left(seq, first)
        if i < n and seq[i] <= last:
            out += seq[i:bisect_right(seq, last, i)]
    return out


def _remove_sorted(seq, card):
    """``seq.remove(card)`` for a zone kept in card order: the card found by bisection, not by
    comparing every card before it (a supply of 200 cards); list.remove's error where it is
    not there."""
    if card.__class__ is int:
        i = bisect_left(seq, card)
        if i < len(seq) and seq[i] == card:
            del seq[i]
            return
    seq.remove(card)


def _distinct_sorted(seq, table, index):
    """``distinct(map(seq, to: attr))`` for a zone kept in card order: after reading a card's
    value the loop jumps past the rest of its run (a supply of 84 tiles of 4 kinds is 4 steps)."""
    out, seen, ends, i, n = [], set(), index[_RUN_END], 0, len(seq)
    while i < n:
        card = seq[i]
        value = table[card]
        if value not in seen:
            seen.add(value)
            out.append(value)
        i = bisect_right(seq, ends[card], i + 1)
    return out


def _last(seq):
    return seq[-1] if seq else None


def _distinct(seq):
    try:
        return list(dict.fromkeys(seq))
    except TypeError:   # lists (of lists...): compared by value, first occurrences kept
        seen: set = set()
        out = []
        for x in seq:
            key = _by_value(x)
            if key not in seen:
                seen.add(key)
                out.append(x)
        return out


def _by_value(x):
    """A hashable stand-in for a value that holds lists or maps, equal where the values are equal."""
    if isinstance(x, (list, tuple)):
        flat = tuple(x)
        try:   # (a list of plain values: copied and hashed in C, about 2 operations an element)
            hash(flat)
            return flat
        except TypeError:
            return tuple(_by_value(v) for v in x)
    if isinstance(x, dict):
        return frozenset((k, _by_value(v)) for k, v in x.items())
    return x


def _partner(S, p):
    team = S.tm[p]
    for q in S.members[team]:
        if q != p:
            return q
    return None


def _members(S, t):
    return list(S.members[t])


def beyond_bounds(v: float) -> ExprRuntimeError:
    """The language's error for a number it cannot hold: an overflow to an infinity (or NaN)."""
    return ExprRuntimeError(f"a number beyond the language's bounds (an overflow to {v})")


def none_used() -> ExprRuntimeError:
    """The language's error for none used as a value (a number, a list...)."""
    return ExprRuntimeError("none used as a value (the first() of an empty list, a variable not set yet, "
                            "no partner...): check it with '!= none' first")


def _none_used(e: TypeError) -> Exception:
    """A TypeError inside an expression: none used as a value becomes the language's error."""
    return none_used() if "NoneType" in str(e) else e


# What a compiled rule may raise when the state does not fit it (none used as a number, an
# index past the end...): the engine reports these as located runtime errors.
RUNTIME_ERRORS = (ExprRuntimeError, ZeroDivisionError, TypeError, KeyError, IndexError, ValueError,
                  AttributeError, OverflowError, RecursionError)

HELPERS = {f.__name__: f for f in (_ckey, _mapget, _range, _at, _div, _floordiv, _mod, _highest, _lowest, _top, _bottom,
                                   _one, _one_top, _one_bottom, _first, _first_sorted, _in_sorted, _remove_sorted, _distinct_sorted, _last,
                                   _distinct, _partner, _members, _seat, _card, _team, _none_used, _lookup, _mul,
                                   _stored)}
HELPERS["_first_eq"] = _first_eq   # (made by scanner: its own name is _scan_eq)
HELPERS["_owned"] = owned
stored = _stored   # (what a mechanic's own code stores or adds to a counter: mechanics/pay.py)
HELPERS["_tally"] = _tally
HELPERS["_DIV_ERRORS"] = _DIV_ERRORS
CHECKS = {"_num": _num, "_whole_num": _whole_num}   # (put in the namespace by the code that calls them)
HELPERS["_itemgetter"] = operator.itemgetter   # (an attribute's values of a zone's cards, in C: membership._mapped_values)
HELPERS["_bisect_left"] = bisect_left   # (a card out of a sorted zone, written in: cdialect.sorted_take_inline)


def stored_source(src: str, deep: bool = False) -> str:
    """The source of a value to store or add, checked against the language's bounds when it is
    not a small literal (``_stored``; ``deep``: a list whose elements may be lists)."""
    if digits(src, signed=True) and abs(int(src)) <= MAX_INT:
        return src
    return f"_stored({src}, _LIST_BOUND{', True' if deep else ''})"
