"""The dialect generated code is written in: Python's, or C_SLOTS, that of a module the compiled
tier compiles (accel/rulesets.py), whose calls below accel/slots.h makes in C (declared to
Cython by accel/rulesets.py ``DECLARED``; Cython compiles ``S.z_hand`` to the generic attribute
lookup, ``seq.remove(x)`` to a method looked up and called). expr/names.py spells the state's
reads and writes with these names; this module spells the items read and the cards moved.

In C_SLOTS a read of a state's slot is written ``_rb_get(S, 'z_hand')`` (a read at the slot's
offset), a slot assigned whole ``_rb_set(S, 'v_x', value)``, an item read by a computed index
``_rb_at(seq, i)``, and a card taken out of a zone or put into one (mechanics/cards.py) as the
calls of ``sorted_take``, ``sorted_put`` and ``list_take``; an item's assignment keeps Python's
spelling.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

C_SLOTS = "c-slots"
SLOT_READ = "_rb_get"
ITEM_READ = "_rb_at"   # (an item of a list or tuple read by a small whole number, at once)
SLOT_WRITE = "_rb_set"   # (a slot assigned whole)
# a card out of a list kept sorted, into one, out of a list (each given Python's own to fall back on)
SORTED_TAKE, SORTED_PUT, LIST_TAKE = "_rb_take_sorted", "_rb_insort", "_rb_remove"
CALLS = (SLOT_READ, ITEM_READ, SLOT_WRITE, SORTED_TAKE, SORTED_PUT, LIST_TAKE)   # (what slots.h gives)
_dialect: ContextVar[str | None] = ContextVar("dialect", default=None)


@contextmanager
def dialect(name: str | None):
    """Write the code generated inside the block in dialect ``name`` (C_SLOTS; None: Python)."""
    token = _dialect.set(name)
    try:
        yield
    finally:
        _dialect.reset(token)


def in_c() -> bool:
    """Whether the code generated now is written in the compiled tier's dialect."""
    return _dialect.get() == C_SLOTS


def dialect_helpers() -> dict:
    """What the C dialect's calls are, as Python: for code of a module built in it that runs
    while it is built (a board's adjacency, checked at load)."""
    import operator
    return {SLOT_READ: getattr, ITEM_READ: operator.getitem, SLOT_WRITE: setattr,
            SORTED_TAKE: _fall_back, SORTED_PUT: _fall_back, LIST_TAKE: _remove}


def _fall_back(seq, card, python) -> None:
    python(seq, card)


def _remove(seq, card) -> None:
    seq.remove(card)


def item_read(seq: str, index: str) -> str:
    """Source of item ``index`` of ``seq`` read as a value (never an assignment target)."""
    # (a literal index Cython compiles to a list's or tuple's item at once already)
    return f"{ITEM_READ}({seq}, {index})" if in_c() and not index.isdigit() else f"{seq}[{index}]"


def sorted_take(seq: str, card: str) -> str:
    """Source of the statement taking ``card`` out of the list ``seq`` kept in card order
    (expr/runtime.py ``_remove_sorted``)."""
    return f"{SORTED_TAKE}({seq}, {card}, _remove_sorted)" if in_c() else f"_remove_sorted({seq}, {card})"


def sorted_take_inline(seq: str, card: str, at: str, bound: str | None = None) -> str:
    """Source of the statement taking ``card`` out of the list ``seq`` kept in card order as
    ``_remove_sorted`` does, its bisection written in: no call of it (a Python call costs as much as
    the rest), one line as the call is (the dialects' texts keep the same lines). ``at``: a fresh
    local for the place; ``bound``: one the list is read into (``seq`` a read, not a local: read
    again where the card is not found, for list.remove's error). In C_SLOTS ``sorted_take``'s call,
    the same locals bound (to none) before it: a function binds the same names in both dialects, so
    what is decided on a compiled function's locals (FlowSource.declared) is decided alike."""
    if in_c():
        return f"{at} = {f'{bound} = ' if bound else ''}None; {sorted_take(seq, card)}"
    v = bound or seq
    return (f"{v}.pop({at}) if {card}.__class__ is int and ({at} := _bisect_left({f'({bound} := {seq})' if bound else seq}, "
            f"{card})) < len({v}) and {v}[{at}] == {card} else {seq}.remove({card})   # (not there: list.remove's error)")


def sorted_put(seq: str, card: str) -> str:
    """Source of the statement putting ``card`` into the list ``seq`` kept in card order, after
    any equal to it (``_insort``: bisect.insort)."""
    return f"{SORTED_PUT}({seq}, {card}, _insort)" if in_c() else f"_insort({seq}, {card})"


def list_take(seq: str, card: str) -> str:
    """Source of the statement taking ``card`` out of the list ``seq`` (``seq.remove(card)``)."""
    return f"{LIST_TAKE}({seq}, {card})" if in_c() else f"{seq}.remove({card})"
