"""AskOnce: the base of the steps that ask one question and are done once it is answered
(choose, branch, grid): the end of their generated run, and their frame's slot of the seat asked."""
from __future__ import annotations

from ..expr.names import state_read, state_write
from ..engine.frames import seat
from .base import Step

SEAT_ASKED = 1   # the slot of a step's frame holding the seat it asked (None before asking)


class AskOnce(Step):
    """A step that asks one question and is done once it is answered (choose, branch).
    Frame: [index, SEAT_ASKED]. Its run exists only as the Python its kind's generator writes
    (``flow_source``, ending with ``asked_source``); its resolve removes the frame (no second
    run just to pop it)."""
    asks = True
    run = Step.run
    fresh_frame = (None,)
    frame_shape = (seat("the seat asked", none=True),)

    def none_source(self, g, pad: str) -> list:
        """Lines for a question with no option (``if_none``). Specialised: a skip nobody counts written in."""
        if self.if_none == "skip" and self.none_probe is None and not g.plain:
            return [f"{pad}{state_read('stack')}.pop()", f"{pad}return U"]
        return [f"{pad}return {g.step(self)}.no_option(S)"]

    def asked_source(self, g, found: list | tuple = ()) -> list:
        """The end of the run, once ``who`` and ``options`` (a tuple) are known (``found``: the
        lines finding the options, for the seat ``who`` once it is someone, where they read the
        seat asked): no seat, the step does not apply; no option, ``if_none``; else the question."""
        return ["    if who is None:   # nobody is asked: the step does not apply",
                f"        {state_read('stack')}.pop()",
                "        return U", *found,
                "    if not options:", *self.none_source(g, "        "),
                f"    frame[{SEAT_ASKED}] = who",
                f"    {state_write('dec', '(who, options)')}",
                "    return U"]

    def reask(self, S, frame):
        frame[SEAT_ASKED] = None
