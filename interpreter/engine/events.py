"""The events a game records between two decisions (``S.ev``: a log's line, a live game's
move), bounded: a step budget of millions of steps may make an event at each, and what records
them keeps every one of a decision's until the decision is done (the events line, its
``seen_by``, a seat's redacted copy), and a log or a live game every one of the game's, so past
``MAX_EVENTS`` in a decision, or ``MAX_GAME_EVENTS`` in the game, the game stops, located at the
step or effect that made the event, never a list filling the memory nor an event dropped.

One event may be large (a text of 100,000 characters set, 100,000 cards moved), so what is
kept is bounded by its size as well, in bytes, counted as the event is appended: a text counts
its characters, ``WIDE`` each unless it is printable ASCII (what a character may take kept: 4
bytes in memory or in UTF-8, 6 as a JSON escape), each number or card the widest either writes
(``NUMBER_WIDTH``, or the ruleset's widest card label: a card is written by its label), a
field's name its characters, every text at least that width and every list or record that
width of its own beside what it holds (an empty text, list or record costs memory to keep: its
reference, its object, its place in a line); past
``MAX_EVENT_SIZE`` in a decision, or ``MAX_GAME_EVENT_SIZE`` in the game, the game stops the
same way. A game that records nothing (``S.ev`` None) counts nothing."""
from __future__ import annotations

from ..expr.runtime import ExprRuntimeError

MAX_EVENTS = 100_000   # events recorded between two decisions (docs/security.md)
MAX_GAME_EVENTS = 1_000_000   # events a recorded game keeps over the whole game (docs/security.md)
MAX_EVENT_SIZE = 10_000_000   # their size between two decisions: bytes (docs/security.md)
MAX_GAME_EVENT_SIZE = 50_000_000   # their size over the whole game (docs/security.md)
NUMBER_WIDTH = 20   # characters of the widest whole number a game stores ("-9223372036854775807")
FLOAT_WIDTH = 24    # characters of the widest number with a fraction JSON writes ("-3.3333333333333335e-301")
WIDE = 6   # what a character of a text not printable ASCII counts: the most it takes kept

_INT = {int}
Kept = tuple[int, int]   # a game's events recorded so far: (how many, their size)


def unit(rules) -> int:
    """The size a number or a card of ``rules``' events counts for."""
    return max(NUMBER_WIDTH, rules.widest_label)


def text_size(text: str, each: int) -> int:
    """What a text counts for: its characters, ``WIDE`` each unless it is all printable ASCII,
    and at least ``each`` (what any value counts)."""
    n = len(text) if text.isascii() and text.isprintable() else WIDE * len(text)
    return n if n > each else each


def size(value, each: int) -> int:
    """The size of an event (or of one of its values): its texts' (``text_size``), ``each``
    for every other value in it (a number, a card, a seat, nothing; a number with a fraction at
    least ``FLOAT_WIDTH``), and
    ``each`` more for each list or record (itself, whatever it holds: lists nested deep, or
    holding empty ones, count each of them); a record's key, a name, counts its characters."""
    kind = type(value)
    if kind is dict:   # (an event: its fields' names and values, mostly numbers, names or nothing)
        n = each   # (the record itself: kept whatever it holds)
        for k, v in value.items():
            # (a key is a name: an event's field, a map's key; the scalars without a call of size:
            # Events.append sizes each event here)
            t = type(v)
            n += len(k) + (each if t is int or v is None else text_size(v, each) if t is str else size(v, each))
        return n
    if kind is str:
        return text_size(value, each)
    if kind is list or kind is tuple:
        if len(value) > 8 and set(map(type, value)) == _INT:   # (cards, seats: in one pass in C)
            return (len(value) + 1) * each
        n = each   # (the list itself: a list of lists nested deep costs each of them)
        for v in value:
            n += each if type(v) is int else size(v, each)
        return n
    if kind is float:   # (its JSON may take 24 characters: -3.3333333333333335e-301)
        return each if each > FLOAT_WIDTH else FLOAT_WIDTH
    return each


class Events(list):
    """``S.ev`` while a game records its events: a list whose ``append`` refuses the one past
    ``MAX_EVENTS`` or ``MAX_EVENT_SIZE``, or past ``MAX_GAME_EVENTS`` or ``MAX_GAME_EVENT_SIZE``
    with the game's ``before`` (those recorded before this decision, as ``kept()`` gave them: a
    live game keeps them all), raising the runtime error the engine locates at the running rule.
    ``rules``: the ruleset (its widest card label: what a card counts for)."""
    __slots__ = ("room", "size", "size_room", "each", "before")

    def __init__(self, rules, before: Kept = (0, 0)) -> None:
        super().__init__()
        self.before = before
        self.room = min(MAX_EVENTS, MAX_GAME_EVENTS - before[0])
        self.size = 0
        self.size_room = min(MAX_EVENT_SIZE, MAX_GAME_EVENT_SIZE - before[1])
        self.each = unit(rules)

    def append(self, ev) -> None:
        grown = self.size + size(ev, self.each)
        if len(self) >= self.room or grown > self.size_room:
            raise self.full(grown)
        self.size = grown
        list.append(self, ev)

    def grew(self, ev: dict, key: str, value) -> None:
        """The event ``ev``, appended, given a field known only once its move is made (a forced
        move's ``seen_by``): counted as ``append`` counts one, refused past the bounds so."""
        grown = self.size + len(key) + size(value, self.each)
        if grown > self.size_room:
            raise self.full(grown)
        self.size = grown
        ev[key] = value

    def kept(self) -> Kept:
        """The game's events recorded up to now: those before this decision and this one's."""
        return self.before[0] + len(self), self.before[1] + self.size

    def full(self, grown: int) -> ExprRuntimeError:
        # (no value of the game in the message: a seat is told it whole)
        if len(self) >= MAX_EVENTS or grown > MAX_EVENT_SIZE:
            said = (f"more than {MAX_EVENTS} events" if len(self) >= MAX_EVENTS else
                    f"events of more than {MAX_EVENT_SIZE} bytes") + " since the last decision"
            return ExprRuntimeError(f"{said}: a game that records its events (a log, a live game) keeps each "
                                    f"decision's, and stops past this many", kind=said)
        said = (f"more than {MAX_GAME_EVENTS} events" if len(self) >= self.room else
                f"events of more than {MAX_GAME_EVENT_SIZE} bytes") + " in the game"
        return ExprRuntimeError(f"{said}: a game that records its events (a log, a live game) keeps them all, "
                                f"and stops past this many", kind=said)


class KeptEvents(Events):
    """``S.ev`` where what reads the events can do with the first of them (an adapter's perfect
    recall, adapters/recall.py): those within the bounds of ``Events`` are kept, their size
    bound ``share`` times larger (the seats' recalls, each bounded by what it is told), the rest
    counted (``dropped``), and the game plays on as it does unrecorded."""
    __slots__ = ("dropped",)

    def __init__(self, rules, before: Kept = (0, 0), share: int = 1) -> None:
        super().__init__(rules, before)
        self.size_room *= share
        self.dropped = 0

    def grew(self, ev: dict, key: str, value) -> None:
        self.size += len(key) + size(value, self.each)   # (the next event checks the bounds)
        ev[key] = value

    def append(self, ev) -> None:
        if self.dropped:   # (once one is dropped, the later ones are: what is kept is a beginning)
            self.dropped += 1
            return
        grown = self.size + size(ev, self.each)
        if len(self) >= self.room or grown > self.size_room:
            self.dropped += 1
        else:
            self.size = grown
            list.append(self, ev)
