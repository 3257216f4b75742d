"""What each seat saw of every move of an OpenSpiel state's game (its perfect recall), worked
out by replaying the game with the engine's events (adapters/openspiel.py). Each seat recalls
what a log would keep of what it is told (engine/events.py), measured on its own recall as
stored (its JSON text, 4 bytes a character unless it is all ASCII, as a text holding one is
kept in memory): a move's first ``MAX_EVENTS`` events of at most
``MAX_EVENT_SIZE`` bytes together, and the game's first ``MAX_GAME_EVENTS`` of at most
``MAX_GAME_EVENT_SIZE``; the rest is counted, and a move that told the seat more, or any move
after the seat's are recalled, is recalled with ``TRUNCATED`` after its events (not how many:
the hidden ones would count), where a log would stop the game. Each event is redacted for each
seat as it is made (``Told``), and what a seat keeps of a move is its own text, cut by its own
measure: where a seat's recall is cut depends on what that seat is told only, never on the
size of what it is not. What says which seats could tell what a decision chose (the events
naming cards, with their zones: every seat is told those, and how many cards) is kept while
within ``MAX_EVENTS`` events and ``players`` times ``MAX_EVENT_SIZE``; a move's events past it
are recalled by no seat, where every seat can tell it stops."""
from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial

from ..engine import events as bounds
from ..engine.events import Events, Kept, size
from ..play.logs.gamelog import events_out, logged_decision
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
        for k in range(self.done, len(moves)):
            i = moves[k]
            mover, act = S.dec[0], table.actions.ids(S)[i]
            seats = [Seat(Redactor(table.rules, p, S.members), self.kept[p]) for p in range(players)]
            told = partial(Told, seats=seats)   # (logged_decision's events(rules, before))
            line, error = h.replay(S, k, lambda S, i, k=k, told=told: logged_decision(table.rules, S, i, k, told))
            if error is not None:   # (the move was applied once: it cannot fail on the same game)
                raise error
            for p, seat in enumerate(seats):   # what each seat saw of this move (perfect recall)
                seen = seat.redactor.line({**line, "events": ()})
                texts, cut, self.kept[p] = seat.recalled(table.rules)
                head = json.dumps([seen["seat"], seen["action"]], ensure_ascii=False)[:-1]
                self.seen[p].append(f"{head}, [{', '.join(texts)}]" + (f', "{TRUNCATED}"]' if cut else "]"))
                self.acts[p].append((mover, -1 if seen["action"] == HIDDEN else act))
            self.moves.append(i)
        S.ev = None               # (logged_decision leaves the last move's events on)
        self.done = len(moves)


class Seat:
    """One seat's recall of the move being replayed: each event's JSON text as the seat is told
    it (a ``forced`` event's kept as it is until the move is done: who may read its action is
    known once it is applied, engine/loop.py), kept while the texts kept are within the seat's
    bounds (``kept``: the game's events it recalled before the move); ``more``: some were not."""
    __slots__ = ("redactor", "room", "size_room", "kept", "held", "chars", "ascii", "more", "before")

    def __init__(self, redactor: Redactor, before: Kept):
        n, used = before
        self.redactor, self.before = redactor, before
        self.room = min(bounds.MAX_EVENTS, bounds.MAX_GAME_EVENTS - n)
        self.size_room = min(bounds.MAX_EVENT_SIZE, bounds.MAX_GAME_EVENT_SIZE - used)
        self.held: list = []   # (texts, and forced events still to redact)
        self.chars, self.ascii, self.more = 0, True, self.room <= 0 or self.size_room <= 0

    def tell(self, plain: dict, ev: dict) -> None:
        """Keep ``ev`` (``plain``: as a log writes it) as the seat is told it, unless what it
        keeps already passes its bounds (its texts alone: a forced event held counts nothing)."""
        if self.more:
            return
        told = ev if ev.get("ev") == "forced" else self.redactor.event(plain)
        if told is None:   # not for this seat to know of (a hidden counter's change): not kept, not counted
            return
        if len(self.held) >= self.room:
            self.more = True
            return
        if told is ev:
            self.held.append(ev)
            return
        text = json.dumps(told, sort_keys=True, ensure_ascii=False)
        chars, ascii = self.chars + len(text) + 2, self.ascii and text.isascii()
        if chars * (1 if ascii else 4) > self.size_room:
            self.more = True
            return
        self.chars, self.ascii = chars, ascii
        self.held.append(text)

    def recalled(self, rules) -> tuple[list[str], bool, Kept]:
        """The texts of the events the seat recalls of the move (a beginning of those it is
        told, within its bounds, measured on the text of their list), whether some were not,
        and the game's events it has recalled with them (all, once the game's bounds cut it)."""
        texts = [h if type(h) is str else
                 json.dumps(self.redactor.event(events_out(rules, [h])[0]), sort_keys=True, ensure_ascii=False)
                 for h in self.held]
        chars, ascii, used = 0, True, 0
        for k, text in enumerate(texts):
            chars += len(text) + (2 if k else 0)
            ascii = ascii and text.isascii()
            grown = (chars + 2) * (1 if ascii else 4)
            if grown > self.size_room:
                del texts[k:]
                break
            used = grown
        cut = self.more or len(texts) < len(self.held)
        n, before = self.before
        game = self.room < bounds.MAX_EVENTS or self.size_room < bounds.MAX_EVENT_SIZE   # (the game's bounds)
        return texts, cut, _full() if cut and game else (n + len(texts), before + (used or 2))


_SEEN = ("ev", "from", "to", "from_owner", "to_owner", "shown_to", "var", "who")   # what engine/sight.py reads


class Told(Events):
    """``S.ev`` while a move is replayed for the recall: each event told to each seat as it is
    made (``Seat.tell``), nothing of it kept but what the seat keeps; the list holds what
    says who can tell what a decision, or a forced move, chose (engine/sight.py ``Choice``):
    each event naming cards, with the fields that say where they went (every seat is told
    those, and how many cards, redact.py), while the move's events are at most ``MAX_EVENTS``
    and those within ``players`` times ``MAX_EVENT_SIZE``. Past it the move's events are
    recalled by no seat (where that falls every seat can tell). It never stops the game."""
    __slots__ = ("seats", "made", "past")

    def __init__(self, rules, before: Kept = (0, 0), seats: Sequence[Seat] = ()) -> None:   # (each seat's before: Seat)
        super().__init__(rules)
        self.size_room *= len(seats)
        self.seats, self.made, self.past = seats, 0, False

    def append(self, ev) -> None:
        if self.past:
            return
        self.made += 1
        moved = "cards" in ev or "card" in ev
        if moved:
            shown = {k: ev[k] for k in _SEEN if k in ev}
            if "cards" in ev:
                cards = ev["cards"]
                shown["cards"] = list(cards) if isinstance(cards, (list, tuple)) else cards
            if "card" in ev:
                shown["card"] = ev["card"]
            grown = self.size + size(shown, self.each)
        if self.made > bounds.MAX_EVENTS or moved and grown > self.size_room:
            self.past = True
            for seat in self.seats:
                seat.more = True
            return
        if moved:
            self.size = grown
            list.append(self, shown)
        plain = events_out(self.seats[0].redactor.rules, [ev])[0] if ev.get("ev") != "forced" else ev
        for seat in self.seats:
            seat.tell(plain, ev)

    def grew(self, ev: dict, key: str, value) -> None:
        # (a forced move's seen_by, given once its move is made: the event is told as it is, and
        # counted in no seat's recall here, so it never stops the game)
        ev[key] = value


def _full() -> Kept:
    """A recall's ``kept`` once the game's bounds cut it: nothing more is recalled."""
    return bounds.MAX_GAME_EVENTS, bounds.MAX_GAME_EVENT_SIZE
