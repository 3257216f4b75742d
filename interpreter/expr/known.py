"""Whether a list's bound is one the ruleset declares, and a range's length from its ends.

The cost model bounds every list (Compiler.size). Some bounds are what the ruleset itself
declares, so that load knows the list's length in any game to be no more: a range whose ends
read only literals, ``num_players`` and parameters that declare their bounds (as long as its
ends can be apart), a list written out (its items), a zone (the game's cards, or its ``max:``),
and what is built of such lists and sized from them (``inherited``: a filter, ``map``,
``distinct``, ``top``, ``bottom`` or ``groups`` of one, ``+`` or ``if``/``else`` of two). Others
stand for a length load cannot know (a list variable, what a local is given, a range an end of
which reads what declares no bound, what is built of one of these: as long as they may be at
all). The flag is never set where the bound could be below the list's real length. A
``for_each`` is weighed at load as many passes as its list's bound where the bound is known, and
at one pass where it is not and reaches ``MAX_STORED_LIST`` (building/effects.py ``charge_pass``).

A range longer than ``MAX_RANGE`` is a runtime error where it is evaluated; one that is that
long in every game (``1..20000``, ``0..params.n`` where ``n`` has ``min: 20000``) is an error
at load, located at the range.
"""
from __future__ import annotations

import math
from typing import Any

from ..errors import figure
from .parser import ExprError, offset_of
from .runtime import MAX_RANGE

KNOWN = "known"   # (the key of a list node's fact: its bound is declared by the ruleset, Compiler.fact)


def known(c: Any, n: Any) -> bool:
    """Whether node ``n``'s bound (Compiler.size) is one the ruleset declares."""
    return bool(c.fact(n, KNOWN))


def declared(c: Any, n: Any, yes: bool = True) -> None:
    """Node ``n``'s bound is one the ruleset declares (``yes``)."""
    if yes:
        c.know(n, KNOWN, True)


def inherited(c: Any, n: Any, *parts: Any) -> None:
    """Node ``n`` is sized from the lists ``parts`` (as long as one, as the longer of them, or as
    all together): its bound is declared where each of theirs is (a filter, ``map`` or ``distinct``
    of a range of known ends; ``A + B`` of two lists written out; ``X if C else Y`` of two zones)."""
    declared(c, n, all(known(c, p) for p in parts))


def ranged(c: Any, n: Any, lo: tuple | None, hi: tuple | None) -> None:
    """Size range node ``n`` whose ends span ``lo`` and ``hi`` (Compiler.span: least and greatest,
    None where not known): as long as its ends can be apart, at most ``MAX_RANGE``, its bound
    known, where both ends are bounded; else ``MAX_RANGE``, not known. A range longer than
    ``MAX_RANGE`` in every game can never be built: an error (one in a branch no game takes too:
    it says so, not that it runs)."""
    if lo is None or hi is None or not (-math.inf < lo[0] and hi[1] < math.inf):
        c.sized(n, MAX_RANGE)
        return
    least = hi[0] - lo[1] + 1   # (its shortest: -inf where an end has no bound that way)
    if least > MAX_RANGE:
        least = math.ceil(hi[0]) - math.floor(lo[1]) + 1   # (its ends are whole numbers: so is its count)
        exact = lo[0] == lo[1] and hi[0] == hi[1]
        said = figure(least, "" if exact else "at least")
        meta = getattr(n, "meta", None)
        raise ExprError(f"this range can never be built: it would hold {said} numbers"
                        f"{'' if exact else ' in every game (as its ends declare)'}, "
                        f"and a range may hold at most {MAX_RANGE:,}", offset_of(n),
                        "a range builds its whole list where it is evaluated: go over shorter ranges "
                        "(one after another, or one inside another)", code="limit",
                        span=meta.end_pos - meta.start_pos if meta is not None and not meta.empty else 1)
    c.sized(n, min(MAX_RANGE, math.floor(hi[1]) - math.ceil(lo[0]) + 1))
    declared(c, n)
