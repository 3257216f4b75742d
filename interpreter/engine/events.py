"""The events a game records between two decisions (``S.ev``: a log's line, a live game's
move), bounded: a step budget of millions of steps may make an event at each, and what records
them keeps every one of a decision's until the decision is done (the events line, its
``seen_by``, a seat's redacted copy), and a log or a live game every one of the game's, so past
``MAX_EVENTS`` in a decision, or ``MAX_GAME_EVENTS`` in the game, the game stops, located at the
step or effect that made the event, never a list filling the memory nor an event dropped."""
from __future__ import annotations

from ..expr.runtime import ExprRuntimeError

MAX_EVENTS = 100_000   # events recorded between two decisions (docs/security.md)
MAX_GAME_EVENTS = 1_000_000   # events a recorded game keeps over the whole game (docs/security.md)


class Events(list):
    """``S.ev`` while a game records its events: a list whose ``append`` refuses the one past
    ``MAX_EVENTS``, or past ``MAX_GAME_EVENTS`` with the game's ``before`` (those recorded
    before this decision: a live game keeps them all), raising the runtime error the engine
    locates at the running rule."""
    __slots__ = ("room",)

    def __init__(self, before: int = 0) -> None:
        super().__init__()
        self.room = min(MAX_EVENTS, MAX_GAME_EVENTS - before)

    def append(self, ev) -> None:
        if len(self) >= self.room:
            raise self.full()
        list.append(self, ev)

    def full(self) -> ExprRuntimeError:
        if len(self) >= MAX_EVENTS:
            said = f"more than {MAX_EVENTS} events since the last decision"   # (no value of the game: a seat is told it whole)
            return ExprRuntimeError(f"{said}: a game that records its events (a log, a live game) keeps each "
                                    f"decision's, and stops past this many", kind=said)
        said = f"more than {MAX_GAME_EVENTS} events in the game"
        return ExprRuntimeError(f"{said}: a game that records its events (a log, a live game) keeps them all, "
                                f"and stops past this many", kind=said)


class KeptEvents(Events):
    """``S.ev`` where what reads the events can do with the first ``MAX_EVENTS`` of a decision
    (an adapter's perfect recall, adapters/recall.py): the ones past it are counted
    (``dropped``), not kept, and the game plays on as it does unrecorded."""
    __slots__ = ("dropped",)

    def __init__(self, before: int = 0) -> None:
        super().__init__()
        self.dropped = 0

    def append(self, ev) -> None:
        if len(self) >= MAX_EVENTS:
            self.dropped += 1
        else:
            list.append(self, ev)
