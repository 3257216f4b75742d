"""The shape of a running step's frame, slot by slot: each step kind declares it beside its
slot constants (``Step.frame_shape``, interpreter/mechanics/), and a saved state's frames are
held to it (engine/saved.py), so that what reads a frame outside the flow (an observation, a
determinization, the question a person is shown) finds what it reads: a seat where a seat is
kept, a list of cards where cards are, a position within the list it is a position in.

A frame is ``[step index, slot 1, slot 2, ...]``; ``frame_shape`` gives slot 1 on. A slot is
one of: a whole number in a range (``whole``), a seat (``seat``), a card (``card``), a value of
the step's options' type (``option``), a list of one slot (``listof``: of seats, of cards...,
or one a seat), a fixed row of slots (``row``: a card put aside with its giver and receiver).
A list holds at most what a variable may (``values.sizes_of``), but a list of seats, which the
flow makes from an expression (a turns' order, a trick's, a pass's givers: each seat any number
of times), at most what one expression may build, ``MAX_COST`` elements.
Any may allow none. A step may check its slots together too (``frame_fault``: a pay's units
owed, one entry a cost and each at least what is left of it). What the flow does with values that fit (a count past its end, a seat
whose hand is empty) is the flow's: it goes on, or fails as a located runtime error.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..expr.limits import MAX_COST
from ..expr.runtime import MAX_INT
from ..expr.types import CARD, INT, PLAYER
from .values import Bad, check_value, flat, whole as _whole


@dataclass(frozen=True)
class Slot:
    what: str                        # what the slot holds, as an error names it
    kind: str                        # whole, seat, card, option, list, row
    none: bool = False               # none fits too
    low: int | None = 0              # whole: the least (None: no least)
    high: Callable[[Any], int] | None = None   # whole: the most, a function of the step (None: 2^63)
    upto: tuple[int, ...] = ()       # whole: at most each of these slots (a list's length, a number's value)
    of: tuple = ()                   # list: its element's slot; row: its items' slots
    per_seat: bool = False           # list: exactly one element a seat
    none_with: int | None = None     # none exactly where that slot is none
    later: bool = False              # absent until the step writes it (the frame's last slots only)
    held: bool = False               # card: one the step holds outside every zone (a pass's card put aside)
    counted: bool = False            # whole: at most the game's step budget (each one counts a step: a pay's units)


def whole(what: str, low: int | None = 0, high: Callable[[Any], int] | None = None, upto: tuple[int, ...] = (),
          none: bool = False, later: bool = False, counted: bool = False) -> Slot:
    return Slot(what, "whole", none=none, low=low, high=high, upto=upto, later=later, counted=counted)


def seat(what: str, none: bool = False) -> Slot:
    return Slot(what, "seat", none=none)


def card(what: str, held: bool = False) -> Slot:
    """A card id; ``held``: a card the step holds outside every zone, so in no zone and in no
    other such slot (a saved state's cards sit in one place at a time)."""
    return Slot(what, "card", held=held)


def option(what: str) -> Slot:
    """A value of the step's options' type (``option_type``), or none."""
    return Slot(what, "option", none=True)


def listof(what: str, item: Slot, none: bool = False, per_seat: bool = False, none_with: int | None = None) -> Slot:
    return Slot(what, "list", none=none, of=(item,), per_seat=per_seat, none_with=none_with)


def row(what: str, *items: Slot) -> Slot:
    return Slot(what, "row", of=items)


class At:
    """Where a slot is, as a message names it (``stack[3][2], order (step 4, turns)``): written
    only when a message is, so that a saved state of many frames that fit writes none."""
    __slots__ = ("where", "k", "what", "step", "inner")

    def __init__(self, where: str | Callable[[], str], k: int, what: str, step, inner: tuple = ()):
        self.where, self.k, self.what, self.step, self.inner = where, k, what, step, inner

    def within(self, what: str) -> At:   # an item of a row
        return At(self.where, self.k, self.what, self.step, (*self.inner, what))

    def __str__(self) -> str:
        where = self.where if isinstance(self.where, str) else self.where()
        return ", ".join((f"{where}[{self.k}], {self.what} (step {self.step.index}, {self.step.kind})", *self.inner))


def check_frame(step, frame: list, where: str | Callable[[], str], sizes: dict, placed: set) -> None:
    """Raise values.Bad naming the slot of ``frame`` (a frame of ``step``) that does not fit
    the step's ``frame_shape`` (``sizes``: values.sizes_of, the seats and cards there are;
    ``placed``: the cards found in a place so far, the zones' and the held ones, added to).
    ``where``: the frame's place, or what writes it (called only for a message)."""
    shape = step.frame_shape
    least = sum(1 for s in shape if not s.later)
    if not least <= len(frame) - 1 <= len(shape):
        raise Bad(f"{where if isinstance(where, str) else where()}: a frame of step "
                  f"{frame[0]} ({step.kind}) holds {_slots(least, len(shape))} after its index "
                  f"({', '.join(s.what for s in shape) or 'none'}), not {len(frame) - 1}")
    for k, slot in enumerate(shape[:len(frame) - 1], 1):
        value = frame[k]
        if slot.none_with is not None and (value is None) != (frame[slot.none_with] is None):
            raise Bad(f"{At(where, k, slot.what, step)}: none exactly where slot {slot.none_with} is none, "
                      f"got {_short(value)}")
        _check(step, slot, value, frame, At(where, k, slot.what, step), sizes, placed)
    fault = step.frame_fault(frame)   # (the slots together)
    if fault:
        raise Bad(f"{where if isinstance(where, str) else where()}: a frame of step {frame[0]} ({step.kind}): {fault}")


def _check(step, slot: Slot, v, frame, at: At, sizes: dict, placed: set) -> None:
    """Raise values.Bad when ``v`` does not fit ``slot``; the message (``at`` written) only then,
    and a list of plain values is tested in one pass (``_flat``), its elements one by one only
    to say which does not fit."""
    if v is None and (slot.none or slot.none_with is not None):
        return
    if v is None and slot.kind != "option":
        raise Bad(f"{at}: expected {_described(slot)}, got none")
    kind = slot.kind
    if kind == "whole":
        low, high = _span(step, slot, frame, sizes)
        if not (_whole(v) and low <= v <= high):
            raise Bad(f"{at}: expected {_described(slot)}{_range(low, high)}, got {_short(v)}")
    elif kind in ("seat", "card"):
        count = sizes[PLAYER if kind == "seat" else CARD]
        if not (_whole(v) and 0 <= v < count):
            raise Bad(f"{at}: expected {_described(slot)} (0 to {count - 1}), got {_short(v)}")
        if slot.held:
            if v in placed:
                raise Bad(f"{at}: card {v} is in two places")
            placed.add(v)
    elif kind == "option":
        if not flat([v], step.option_type, sizes):   # (a plain value fits in one test, else each part checked)
            check_value(v, step.option_type, str(at), sizes)
    elif kind == "list":
        if not isinstance(v, list):
            raise Bad(f"{at}: expected {_described(slot)}, got {_short(v)}")
        longest = MAX_COST if slot.of[0].kind == "seat" else sizes["list"]
        if len(v) > longest:
            raise Bad(f"{at}: expected {_described(slot)}, at most {longest:,} of them, got {len(v):,}")
        if slot.per_seat and len(v) != sizes[PLAYER]:
            raise Bad(f"{at}: expected one value a seat ({sizes[PLAYER]}), got {len(v)}")
        if not _flat(step, slot.of[0], v, frame, sizes):
            for x in v:
                _check(step, slot.of[0], x, frame, at, sizes, placed)
    else:   # a row
        if not (isinstance(v, list) and len(v) == len(slot.of)):
            raise Bad(f"{at}: expected {_described(slot)}, got {_short(v)}")
        for item, x in zip(slot.of, v):
            _check(step, item, x, frame, at.within(item.what), sizes, placed)


def _span(step, slot: Slot, frame, sizes: dict) -> tuple[int, int]:
    """The least and the most a whole number of ``slot`` may be in ``frame``."""
    low = slot.low if slot.low is not None else -MAX_INT
    high = min([MAX_INT if slot.high is None else slot.high(step), *(_bound(frame[k]) for k in slot.upto),
                *((sizes["steps"],) if slot.counted else ())])
    return low, high


def _flat(step, item: Slot, v: list, frame, sizes: dict) -> bool:
    """Whether every element of the list ``v`` fits ``item``, tested in one pass where its
    elements are plain values (``values.flat``: whole numbers, seats, cards not held aside, an
    option of a plain type; none only where the item allows it); False where it cannot tell."""
    if item.none_with is not None or item.held or item.kind in ("list", "row"):
        return False
    if item.kind == "option":
        return flat(v, step.option_type, sizes)
    if item.kind == "whole":
        low, high = _span(step, item, frame, sizes)
        plain = [x for x in v if x is not None] if item.none else v
        return flat(plain, INT, sizes, none=False) and (not plain or low <= min(plain) and max(plain) <= high)
    return flat(v, PLAYER if item.kind == "seat" else CARD, sizes, none=item.none)


def stacking(steps, root: int) -> tuple[frozenset, tuple]:
    """Which step's frame may sit directly over which, as the flow tree says: (the steps whose
    frame may be the stack's bottom, and for each step's index those whose frame may sit directly
    over its own). A step pushes the frame of a child (``children()``) or of a continuation
    (``pushed_over()``: an attempt's target and report) over its own, and a child that takes its
    parent's place (``takes_place``: a sequence's last step, a branch's alternative, an attempt's
    outcome) stands where the parent's frame was, in turn; an effect list (``inline``) has no frame
    at rest. A saved state's stack is held to it (engine/saved.py), so that a step reading or
    writing the frame below its own (an attempt's target and report) finds its parent's."""
    def placed(step) -> set:   # the steps whose frame may stand where ``step``'s was pushed
        out, todo = set(), [step]
        while todo:
            s = todo.pop()
            if s.index not in out and not s.inline:
                out.add(s.index)
                todo += [c for c in s.children() if s.takes_place(c)]
        return out
    over = tuple(frozenset().union(*(placed(c) for c in s.children() if not s.takes_place(c)),
                                   *(placed(c) for c in s.pushed_over())) for s in steps)
    return frozenset(placed(steps[root])), over


def _bound(v) -> int:
    """What a slot bounds another by: a list's length, a number's value (anything else: nothing)."""
    if isinstance(v, list):
        return len(v)
    return v if _whole(v) else MAX_INT


_WORDS = {"whole": "a whole number", "seat": "a seat", "card": "a card id", "option": "an option's value"}


def _described(slot: Slot) -> str:
    if slot.kind == "list":
        return f"a list{' or none' if slot.none else ''}, each {_described(slot.of[0])}"
    elif slot.kind == "row":
        text = f"[{', '.join(s.what for s in slot.of)}]"
    else:
        text = _WORDS[slot.kind]
    return f"{text} or none" if slot.none else text


def _range(low: int, high: int) -> str:
    if high == MAX_INT:
        return "" if low == -MAX_INT else f" ({low} or more)"
    return f" ({low} to {high})"


def _slots(least: int, most: int) -> str:
    if most == 0:
        return "no slot"
    count = f"{least}" if least == most else f"{least} to {most}"
    return f"{count} slot{'' if most == 1 else 's'}"


def _short(v) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."
