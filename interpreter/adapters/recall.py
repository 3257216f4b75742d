"""What each seat saw of every move of an OpenSpiel state's game (its perfect recall), worked
out by replaying the game with the engine's events (adapters/openspiel.py). The events a log
keeps are recalled and the rest counted: a move's first ``MAX_EVENTS`` of at most
``MAX_EVENT_SIZE`` together, and the game's first ``MAX_GAME_EVENTS`` of at most
``MAX_GAME_EVENT_SIZE`` (engine/events.py); a move that made more, or any move after the game's
are recalled, is recalled with ``TRUNCATED`` after its events (not how many: the hidden ones
would count), where a log would stop the game."""
from __future__ import annotations

import json

from ..engine.events import Kept, KeptEvents
from ..play.logs.gamelog import logged_decision
from ..play.logs.redact import HIDDEN, Redactor
from .common import Table


TRUNCATED = "more events not recalled"   # (past a move's bounds, or the game's: engine/events.py)


class Recall:
    """A game replayed from its start with its events, and what each seat saw of its moves."""
    __slots__ = ("S", "moves", "done", "seen", "acts", "kept")

    def __init__(self, table: Table, S):
        self.S = S
        self.moves: list = []
        self.done = 0
        self.seen: list[list] = [[] for _ in range(table.players)]
        # per seat, each move as it saw it: (the seat that moved, the action's id or -1 where hidden)
        self.acts: list[list[tuple[int, int]]] = [[] for _ in range(table.players)]
        self.kept: Kept = (0, 0)   # the game's events recalled (Events.kept)

    def copy(self) -> "Recall":
        r = Recall.__new__(Recall)
        r.S, r.moves, r.done, r.seen = self.S.clone(), self.moves[:], self.done, [s[:] for s in self.seen]
        r.acts, r.kept = [a[:] for a in self.acts], self.kept
        return r

    def rebased(self, world, seat: int) -> "Recall":
        """This recall, its later moves replayed in ``world`` (``seat``'s determinization of
        the state it has recalled up to): what ``seat`` saw so far stays, and stands for what
        the other seats saw too (theirs would tell what ``seat`` may not know); what comes is
        the world's."""
        r = self.copy()
        r.S = world.clone()
        r.seen = [r.seen[seat][:] for _ in r.seen]
        r.acts = [r.acts[seat][:] for _ in r.acts]
        return r

    def advance(self, table: Table, h) -> None:
        S, moves = self.S, h.moves
        for k in range(self.done, len(moves)):
            i = moves[k]
            mover, act = S.dec[0], table.actions.ids(S)[i]
            line, error = h.replay(S, k, lambda S, i, k=k: logged_decision(table.rules, S, i, k, KeptEvents, self.kept))
            if error is not None:   # (the move was applied once: it cannot fail on the same game)
                raise error
            dropped = S.ev.dropped   # (as a log writes it, but for the events past the bounds)
            self.kept = S.ev.kept()
            for p in range(table.players):   # what each seat saw of this move (perfect recall)
                seen = Redactor(table.rules, p, S.members).line(line)
                told = [seen["seat"], seen["action"], seen["events"]] + ([TRUNCATED] if dropped else [])
                self.seen[p].append(json.dumps(told, sort_keys=True))
                self.acts[p].append((mover, -1 if seen["action"] == HIDDEN else act))
            self.moves.append(i)
        S.ev = None               # (logged_decision leaves the last move's events on)
        self.done = len(moves)
