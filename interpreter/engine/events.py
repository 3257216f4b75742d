"""The events a game records between two decisions (``S.ev``: a log's line, a live game's
move), bounded: a step budget of millions of steps may make an event at each, and what records
them keeps every one of a decision's until the decision is done (the events line, its
``seen_by``, a seat's redacted copy), and a log or a live game every one of the game's, so past
``MAX_EVENTS`` in a decision, or ``MAX_GAME_EVENTS`` in the game, the game stops, located at the
step or effect that made the event, never a list filling the memory nor an event dropped.

One event may be large (a text of 100,000 characters set, 100,000 cards moved), so what is
kept is bounded by its size as well, in bytes, counted as the event is appended: at least the
length of the JSON any writer makes of it (a log's line, ``ensure_ascii=False``; the web
viewer's, ASCII escapes: the longer, character for character, and at least the UTF-8 bytes of
the other) and at least what keeping it takes: each value counts its JSON with the ``", "``
after it. A text counts its characters as escaped (``"`` and ``\\`` two, a control character
or one outside ASCII 6, one outside the BMP 12: ``\\ud83d\\ude00``), ``WIDE`` each at least
unless it is printable ASCII (what a character may take kept: 4 bytes in memory), its quotes
and its separator; each number, seat or card the widest one writes and its separator
(``NUMBER_WIDTH``, ``FLOAT_WIDTH`` for a number with a fraction, or the ruleset's widest card
label as text: a card is written by its label), a field's name as a text and its ``": "``,
every text at least that width and every list or record that width of its own beside what it
holds (an empty text, list or record costs memory to keep: its reference, its object, its
place in a line); past ``MAX_EVENT_SIZE`` in a decision, or ``MAX_GAME_EVENT_SIZE`` in the
game, the game stops the same way. A game that records nothing (``S.ev`` None) counts
nothing."""
from __future__ import annotations

from json.encoder import encode_basestring_ascii
from weakref import WeakKeyDictionary

from ..expr.runtime import ExprRuntimeError

MAX_EVENTS = 100_000   # events recorded between two decisions (docs/security.md)
MAX_GAME_EVENTS = 1_000_000   # events a recorded game keeps over the whole game (docs/security.md)
MAX_EVENT_SIZE = 10_000_000   # their size between two decisions: bytes (docs/security.md)
MAX_GAME_EVENT_SIZE = 50_000_000   # their size over the whole game (docs/security.md)
NUMBER_WIDTH = 22   # the widest whole number a game stores and its separator ("-9223372036854775807, ")
FLOAT_WIDTH = 26    # the widest number with a fraction JSON writes and its separator ("-3.3333333333333335e-301, ")
WIDE = 6   # what a character of a text not printable ASCII counts at least: as JSON escapes it (12 outside the BMP)
QUOTED = 4   # what a text counts besides its characters: its quotes and its separator (a name: ``": "``)

_INT = {int}
Kept = tuple[int, int]   # a game's events recorded so far: (how many, their size)


def unit(rules) -> int:
    """The size a number or a card of ``rules``' events counts for: ``NUMBER_WIDTH``, or its
    widest card label written as a text (``text_size``, its quotes and separator)."""
    each = _UNITS.get(rules)
    if each is None:
        each = _UNITS[rules] = max(NUMBER_WIDTH, max(map(text_size, rules.card_labels), default=0) + QUOTED)
    return each


_UNITS: WeakKeyDictionary = WeakKeyDictionary()   # (a ruleset's: worked out once, not at each decision)


def text_size(text: str) -> int:
    """What a text's characters count for (without its quotes, nor the floor of a value): as
    JSON escapes them (``ensure_ascii``: at least the UTF-8 bytes of the text unescaped), at
    least ``WIDE`` each unless it is all printable ASCII."""
    if text.isascii() and text.isprintable():
        return len(text) + text.count('"') + text.count("\\")
    escaped = len(encode_basestring_ascii(text)) - 2
    return escaped if escaped > WIDE * len(text) else WIDE * len(text)


def size(value, each: int) -> int:
    """The size of an event (or of one of its values, with the separator after it): a text's
    characters (``text_size``) and ``QUOTED``, at least ``each``; ``each`` for every other value
    in it (a number, a card, a seat; a number with a fraction at least ``FLOAT_WIDTH``), and
    ``each`` more for each list or record (itself, whatever it holds: lists nested deep, or
    holding empty ones, count each of them); a dict's key counts as a text (``QUOTED``: its
    quotes and ``": "``), one not a text as ``each`` and ``QUOTED``."""
    kind = type(value)
    if kind is str:
        return max(text_size(value) + QUOTED, each)
    if kind is dict:   # (an event: its fields' names, mostly, and short values: those written here)
        n = each   # (the record itself: kept whatever it holds)
        for k, v in value.items():
            t = type(v)
            if t is int or v is None:
                n += each
            elif t is str and 2 * len(v) + QUOTED <= each and v.isascii() and v.isprintable():
                n += each   # (its characters 2 each at most, escaped)
            else:
                n += size(v, each)
            if type(k) is str and k.isascii() and k.isidentifier():   # (written as it is)
                n += len(k) + QUOTED
            else:
                n += (text_size(k) if type(k) is str else each) + QUOTED
        return n
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
        grown = self.size + len(key) + QUOTED + size(value, self.each)
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

