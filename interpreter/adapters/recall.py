"""What each seat saw of every move of an OpenSpiel state's game (its perfect recall), worked
out by replaying the game with the engine's events (adapters/openspiel.py). Each seat recalls
what a log would keep of what it is told (engine/events.py), measured on its own recall as
stored (its JSON text, 4 bytes a character unless it is all ASCII, as a text holding one is
kept in memory): a move's first ``MAX_EVENTS`` events of at most
``MAX_EVENT_SIZE`` bytes together, and the game's first ``MAX_GAME_EVENTS`` of at most
``MAX_GAME_EVENT_SIZE``; the rest is counted, and a move that told the seat more, or any move
after the seat's are recalled, is recalled with ``TRUNCATED`` after its events (not how many:
the hidden ones would count), where a log would stop the game. So where a seat's recall is cut
depends on what that seat may know only; a move's events, hidden ones included, are kept while
they are within ``players`` times a move's bounds (``KeptEvents``), and a move making more is
cut there for every seat (a stop on a bound is seen by all, as a log's)."""
from __future__ import annotations

import json

from ..engine import events as bounds
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
        self.kept: list[Kept] = [(0, 0)] * table.players   # per seat, the game's events it recalls (Events.kept)

    def copy(self) -> "Recall":
        r = Recall.__new__(Recall)
        r.S, r.moves, r.done, r.seen = self.S.clone(), self.moves[:], self.done, [s[:] for s in self.seen]
        r.acts, r.kept = [a[:] for a in self.acts], self.kept[:]
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
        r.kept = [r.kept[seat]] * len(r.kept)
        return r

    def advance(self, table: Table, h) -> None:
        S, moves, players = self.S, h.moves, table.players

        def move_events(rules, before: Kept) -> KeptEvents:   # (each seat's game is bounded in told())
            full = all(kept == _full() for kept in self.kept)   # (then every event is dropped at once)
            return KeptEvents(rules, _full() if full else (0, 0), players)

        for k in range(self.done, len(moves)):
            i = moves[k]
            mover, act = S.dec[0], table.actions.ids(S)[i]
            line, error = h.replay(S, k, lambda S, i, k=k: logged_decision(table.rules, S, i, k, move_events))
            if error is not None:   # (the move was applied once: it cannot fail on the same game)
                raise error
            dropped = S.ev.dropped   # (as a log writes it, but for the events past the bounds)
            for p in range(players):   # what each seat saw of this move (perfect recall)
                seen = Redactor(table.rules, p, S.members).line(line)
                told, cut = self.told(p, seen["events"])
                told = [seen["seat"], seen["action"], told] + ([TRUNCATED] if dropped or cut else [])
                self.seen[p].append(json.dumps(told, sort_keys=True, ensure_ascii=False))
                self.acts[p].append((mover, -1 if seen["action"] == HIDDEN else act))
            self.moves.append(i)
        S.ev = None               # (logged_decision leaves the last move's events on)
        self.done = len(moves)

    def told(self, seat: int, evs: list) -> tuple[list, bool]:
        """Of a move's events as ``seat`` is told them, those it recalls (within the bounds of
        engine/events.py, its ``kept`` before, measured on their JSON text), and whether some
        were not."""
        n, used = self.kept[seat]
        room = min(bounds.MAX_EVENTS, bounds.MAX_GAME_EVENTS - n)
        size_room = min(bounds.MAX_EVENT_SIZE, bounds.MAX_GAME_EVENT_SIZE - used)
        text = json.dumps(evs, sort_keys=True, ensure_ascii=False)
        wide = 1 if text.isascii() else 4   # (bytes a character: as a text holding one is kept in memory)
        if len(evs) <= room and len(text) * wide <= size_room:
            self.kept[seat] = (n + len(evs), used + len(text) * wide)
            return evs, False
        kept, size = 0, 2 * wide
        for ev in evs[:max(room, 0)]:
            grown = size + (len(json.dumps(ev, sort_keys=True, ensure_ascii=False)) + 2) * wide
            if grown > size_room:
                break
            kept, size = kept + 1, grown
        game = room < bounds.MAX_EVENTS or size_room < bounds.MAX_EVENT_SIZE   # (cut by the game's bounds)
        self.kept[seat] = _full() if game else (n + kept, used + size)   # (what is kept is a beginning)
        return evs[:kept], True


def _full() -> Kept:
    """A recall's ``kept`` once the game's bounds cut it: nothing more is recalled."""
    return bounds.MAX_GAME_EVENTS, bounds.MAX_GAME_EVENT_SIZE
