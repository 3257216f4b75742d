"""The longest a string can be, as the cost model bounds it, and what its work is charged.

Joining two strings copies both, comparing them reads up to the shorter's end, and looking for
one inside the other reads both: work per character, done in C (docs/reference.md "Limits").
Each string node has a bound in characters: a literal its own length, ``a + b`` the sum of
theirs, ``text(x)`` the widest that x's type is written as, an ``if`` ... ``else`` the longer
branch, an element of a list whose strings are known (INSIDE: a literal list, a map() to
strings, what passes them on) the longest of them, and any other (a text variable, a
parameter, an element of another list, a card's label) the longest a variable may store
(MAX_STORED), or the longest string the expression built before it where that is longer (an
element of a list of strings joined there). The constants are the most
measured over strings of 10 to 400,000 characters (``python benchmarks/walk_costs.py --text``)
with room to spare: a join 0.11 operations a character (0.9 at 10 characters, with the call's
own), a comparison 0.6 at most, a search up to 14 where the needle is long and nearly the
text (3.4 for a needle of at most 100 characters).
"""
from __future__ import annotations

from typing import Any

from .runtime import MAX_STORED, ExprRuntimeError
from .types import ANY, CARD, NUM, STR, elem, holds_growing, is_list

JOIN_CHARS = 4      # characters a join copies an operation beyond its own (measured 9 past 1,000)
COMPARE_CHARS = 128  # characters a comparison reads an operation beyond its own (measured 250 to 330 past 1,000)
SEARCH_WORK = 16   # operations a character of both strings a search ('in' of a string) is charged: measured up to 14
                   # (a needle of 99% of the text, all but one character alike: 14 ms for 100,000 characters)
SHORT_SEARCH_WORK = 4   # ... where the needle has at most SHORT_NEEDLE characters: measured up to 3.4
SHORT_NEEDLE = 100
WRITE_WORK = 64    # operations text() of a whole number, a condition, a card... is charged: measured 13 to 46
FRACTION_WORK = 320   # text() of a number that may be a fraction (its shortest decimal found): measured 185 to 234
WIDEST = 20        # the most characters text() writes a whole number, a condition, none, a player or a team as
WIDEST_NUMBER = 310   # ... a number that may be a fraction: a whole one is written without .0 (-1.79e308, 309 digits)
ANY_JOIN = 1_000   # the most characters or elements '+' of two values of type any joins (plus: a runtime error past it)

CHARS = "chars"    # (the key of a string node's bound among the facts of the nodes, Compiler.fact)
INSIDE = "text inside"   # (... of the longest string inside a list node, where known)
_LONGEST = ("longest", "text")   # (the longest string the expression has built so far)


def recorded(c: Any, n: Any) -> int | None:
    return c.fact(n, CHARS)


def chars(c: Any, n: Any) -> int:
    """The most characters the string value of node ``n`` can have."""
    found = c.fact(n, CHARS)
    return found if found is not None else max(MAX_STORED, c.fact(*_LONGEST, anywhere=True) or 0)


def charsed(c: Any, n: Any, bound: int) -> None:
    """Node ``n``'s string has at most ``bound`` characters."""
    c.know(n, CHARS, bound)
    if bound > MAX_STORED and bound > (c.fact(*_LONGEST, anywhere=True) or 0):
        c.know(*_LONGEST, bound, anywhere=True)


def joined(c: Any, n: Any, left: Any, right: Any) -> None:
    """Node ``n`` joins the strings of ``left`` and ``right``: a new string of both, copied."""
    bound = chars(c, left) + chars(c, right)
    charsed(c, n, bound)
    c.add_cost(bound // JOIN_CHARS, n, f"'+' builds a string of up to {bound:,} characters")


def any_joined(c: Any, n: Any) -> None:
    """Node ``n`` is ``a + b`` of two values of type any: numbers added, or strings or lists joined,
    up to ANY_JOIN characters or elements (``plus`` refuses more as it runs): weighed as that join
    (a list's element an operation), not as two strings of MAX_STORED characters each."""
    c.names.namespace.setdefault("_plus", plus)
    charsed(c, n, ANY_JOIN)
    c.sized(n, ANY_JOIN)
    c.add_cost(ANY_JOIN, n, f"'+' of two values of type any joins up to {ANY_JOIN:,} characters or elements")


def plus(a, b):
    """``a + b`` of two values of type any (any_joined): two strings, or two lists, joined only if
    they hold at most ANY_JOIN characters or elements together, checked before they are copied."""
    if a.__class__ in (str, list) and b.__class__ is a.__class__ and len(a) + len(b) > ANY_JOIN:
        what = "characters" if a.__class__ is str else "elements"
        raise ExprRuntimeError(f"'+' of two values of type any joins at most {ANY_JOIN} {what}, got {len(a) + len(b)} "
                               "(declare their type str, or a list type such as list[int], to join longer ones)")
    return a + b


def compared(c: Any, n: Any, left: Any, right: Any, op: str) -> None:
    """Node ``n`` compares two strings: read up to the shorter's end."""
    shorter = min(chars(c, left), chars(c, right))
    c.add_cost(compared_work(c, left, right), n, f"'{op}' compares strings of up to {shorter:,} characters")


def compared_work(c: Any, left: Any, right: Any) -> int:
    """The operations comparing the strings of ``left`` and ``right`` is charged (``compared``)."""
    return min(chars(c, left), chars(c, right)) // COMPARE_CHARS


def searched(c: Any, n: Any, needle: Any, hay: Any, op: str, more: str = "") -> None:
    """Node ``n`` looks for the string of ``needle`` inside that of ``hay``: both read (a needle
    longer than the text is no search: as long as the text at most). ``more``: said after the
    characters where it is too costly."""
    both, work = search_work(c, needle, hay)
    c.add_cost(work, n, f"'{op}' searches strings of up to {both:,} characters{more}")


def search_work(c: Any, needle: Any, hay: Any) -> tuple[int, int]:
    """(the characters a search of ``needle`` inside ``hay`` reads, the operations it is charged)."""
    longest = min(chars(c, needle), chars(c, hay))
    both = longest + chars(c, hay)
    return both, both * (SHORT_SEARCH_WORK if longest <= SHORT_NEEDLE else SEARCH_WORK)


def written(c: Any, n: Any, arg: Any, typ: str) -> None:
    """Node ``n`` is text(``arg``), a value of type ``typ``: as wide as it is written."""
    if typ == STR:
        charsed(c, n, chars(c, arg))
        return
    c.add_cost(FRACTION_WORK if typ in (NUM, ANY) else WRITE_WORK, n, "text() writes a value")
    if typ == CARD:   # (a card: its label, as long as the longest the game's cards have)
        charsed(c, n, c.names.attr_chars.get(" label", MAX_STORED))
    else:
        charsed(c, n, WIDEST_NUMBER if typ in (NUM, ANY) else WIDEST)


def attribute(c: Any, n: Any, attr: str) -> None:
    """Node ``n`` reads card attribute ``attr``, of strings (or of type any): as long as the longest
    a card has (0: none has a string)."""
    longest = c.names.attr_chars.get(attr)
    if longest is None:
        longest = c.names.attr_chars[attr] = max(
            (len(v) for v in c.names.namespace.get(f"A_{attr}", ()) if isinstance(v, str)), default=0)
    charsed(c, n, longest)


def kept(c: Any, n: Any, bound: int | None) -> None:
    """Node ``n`` is what another node whose bound is ``bound`` (None: unrecorded) gives (a define's use)."""
    if bound is not None:
        charsed(c, n, bound)


def inside(c: Any, n: Any) -> int | None:
    """The longest string inside list node ``n``, where known (None: as any string)."""
    return c.fact(n, INSIDE)


def holds(c: Any, n: Any, bound: int | None) -> None:
    """List node ``n`` holds strings of at most ``bound`` characters (None: not known)."""
    if bound is not None:
        c.know(n, INSIDE, bound)


def holds_of(c: Any, n: Any, parts: list) -> None:
    """List node ``n`` holds the strings of list nodes ``parts`` (the longest of theirs, known where all are)."""
    found = [inside(c, p) for p in parts]
    known = [x for x in found if x is not None]
    holds(c, n, max(known, default=0) if len(known) == len(found) else None)


def widest(c: Any, n: Any, typ: str) -> int:
    """The longest string the value of node ``n``, of type ``typ``, is or holds (0: none). A
    local it is bound to is read as MAX_STORED at most: past that, the binder checks it
    (building/effects.py ``bound_local``)."""
    if typ == STR:
        return chars(c, n)
    if is_list(typ) and elem(typ) == STR and inside(c, n) is not None:
        return inside(c, n) or 0
    return max(MAX_STORED, c.fact(*_LONGEST, anywhere=True) or 0) if holds_growing(typ) else 0


def either(c: Any, n: Any, yes: Any, no: Any) -> None:
    """Node ``n`` is one of two strings (``if`` ... ``else``): the longer."""
    charsed(c, n, max(chars(c, yes), chars(c, no)))
