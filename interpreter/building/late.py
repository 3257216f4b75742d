"""Frames pushed late: new frames entered at once one inside another (a turn's `until`, its
attempt, the attempt's target), pushed in one go once the tests before them are passed.

A run that enters a new frame and runs it in place (``FlowSource.run_new``) may leave the
pushing of that frame to the frame's entry (``pushes_late``), which pushes it once its tests
are passed, with the frames of the steps it enters at once above it: one ``extend`` by a tuple of
frames where the reference appends each in turn. Every line that returns or may raise before
that push pushes first what the reference has pushed by then (``Late.before``), so the state
at a decision, at a budget's stop and after an error is the reference's."""
from __future__ import annotations

from ..expr.code import Name, shape
from ..expr.names import state_read


class Late:
    """What the lines before a new frame's entry leave to it: the frames the reference has
    pushed by then and these lines have not (``outer``: the sources of constant frames,
    outermost first), pushed with the entry's own in one go; and ``seats``: the variables known
    to hold a seat there (a turns' player just set from its order of seats, which nothing
    written since writes: building/flowgen.py ``enters``)."""
    __slots__ = ("outer", "seats")

    def __init__(self, outer: tuple = (), seats: frozenset = frozenset()):
        self.outer, self.seats = outer, seats

    def before(self, pad: str) -> list:
        """Lines pushing the outer frames alone: where the entry returns before its own frame is
        pushed (the reference pushed it and popped it again, or never made it)."""
        return pushed(self.outer, pad)

    def push(self, pad: str, *frames: str) -> list:
        """Lines pushing the outer frames, then ``frames`` (the entry's own, then those of the
        steps it enters at once), in one go."""
        return pushed((*self.outer, *frames), pad)

    def inside(self, own: str) -> Late:
        """For the entry of a step that this entry enters at once: this entry's own frame (a
        constant, ``own``) not pushed yet either."""
        return Late((*self.outer, own), self.seats)

    def seat(self, fn, me_var: str | None) -> bool:
        """Whether compiled expression ``fn``, evaluated as the seat ``me_var`` holds, is ``me`` read
        bare (expr/code.py shapes) from a variable known here to hold a seat."""
        form = shape(getattr(fn, "source", None))
        return isinstance(form, Name) and form.id == "me" and me_var in self.seats

    def after(self, fn) -> Late:
        """As it stands after effect list ``fn`` ran in place: its frames pushed already (none
        outer), and no variable it may write known to hold a seat (none, where its compiler's
        record is incomplete or it hands the state on: expr/access.py)."""
        access = getattr(fn, "access", None)
        if access is None or access.opaque or access.calls or access.zones_entered:
            return Late()
        return Late((), self.seats - {name for kind, name in access.writes if kind == "v"})


def pushed(frames: tuple, pad: str) -> list:
    """Lines pushing ``frames`` (sources, outermost first): one ``append``, or one ``extend`` by
    them all; none for none."""
    stack = state_read("stack")
    if not frames:
        return []
    if len(frames) == 1:
        return [f"{pad}{stack}.append({frames[0]})"]
    return [f"{pad}{stack}.extend(({', '.join(frames)}))"]
