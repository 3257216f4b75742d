"""What a compiled function reads and changes of the state, recorded while it is compiled.

The compiler resolves every zone, counter and variable an expression names (names.py); the
effect compiler writes every change and every call of a declared effect (building/effects.py).
Each notes it in an ``Access`` as it emits the code, so an analysis (which steps are quiet,
building/watch.py; whether a price reads only public values, engine/sight.py) reads these
facts, never the generated text.

Names are ``(kind, name)`` with kind ``z`` (zone), ``c`` (counter: a family's are NAME.KEY) or
``v`` (variable). ``fixed``: what else of a game it reads, which nothing changes while it is
played: its parameters (``params.NAME``) and its seats (``players``, ``num_players``, ``teams``,
``num_teams``, ``team``: a seat's team). ``me``: it reads the seat it runs as, or hands it to code
that may (a declared effect that reads it, a zone's enter triggers); ``keeps_me``: it sets ``me``
for a list inside it and gives the seat back after (``with_player``, ``for_each`` as ``me``: what
that list reads is its own seat's). ``locals``: the local bindings (``card``, an effect's
parameters...) it reads. ``ends``: it ends the game (``end_game``). ``opaque``: the code hands the whole state to a helper that may read or change
anything, or reaches a table by a name computed when it runs: any name may be touched. ``attributes``: the card
attributes it reads (noted where a name is resolved to one); ``helpers``: the built-ins a mechanic added that it calls
(what they read of a card, its number included, is theirs to know).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

Name = tuple[str, str]   # (kind z/c/v, name)


@dataclass(frozen=True)
class Access:
    """What one compiled function reads and writes of the state (module docstring)."""
    reads: frozenset[Name] = frozenset()
    writes: frozenset[Name] = frozenset()
    calls: frozenset[str] = frozenset()          # declared effects it calls
    zones_entered: frozenset[str] = frozenset()  # zones whose enter triggers it runs
    opaque: bool = False
    fixed: frozenset[str] = frozenset()          # parameters and seats it reads
    me: bool = False                             # it reads the acting seat
    locals: frozenset[str] = frozenset()         # local bindings it reads
    attributes: frozenset[str] = frozenset()     # card attributes it reads
    helpers: frozenset[str] = frozenset()        # built-ins a mechanic added that it calls
    ends: bool = False                           # it ends the game (end_game)
    keeps_me: bool = False                       # it sets me for a list inside it, and gives it back

    @property
    def actor(self) -> bool:
        """Whether its code may name the acting seat, ``me``: it reads it, keeps it (``keeps_me``),
        hands it on (a declared effect called, a zone's enter triggers run as it), or may touch
        anything. (An effect's events, whose payloads may name it too, are not counted:
        building/effects.py ``event``.)"""
        return self.me or self.keeps_me or self.opaque or bool(self.calls or self.zones_entered)

    @property
    def names(self) -> frozenset[Name]:
        """Every name it reads or writes."""
        return self.reads | self.writes


NOTHING = Access()


@dataclass(eq=False)   # (told apart by identity: records open at once may hold the same)
class _Notes:
    """An Access being gathered (mutable while its function is compiled)."""
    reads: set = field(default_factory=set)
    writes: set = field(default_factory=set)
    calls: set = field(default_factory=set)
    zones_entered: set = field(default_factory=set)
    opaque: bool = False
    fixed: set = field(default_factory=set)
    me: bool = False
    locals: set = field(default_factory=set)
    attributes: set = field(default_factory=set)
    helpers: set = field(default_factory=set)
    ends: bool = False
    keeps_me: bool = False

    def frozen(self) -> Access:
        return Access(frozenset(self.reads), frozenset(self.writes), frozenset(self.calls),
                      frozenset(self.zones_entered), self.opaque, frozenset(self.fixed), self.me,
                      frozenset(self.locals), frozenset(self.attributes), frozenset(self.helpers), self.ends,
                      self.keeps_me)


class Recorder:
    """Where the compilers note what the code they emit touches. Each function being compiled
    opens a record (``recording``); a note goes to every record open, so an effect list's
    record holds what the expressions inside it touch. ``apart`` starts a function compiled
    meanwhile on its own (a declared effect compiled at its first call): its notes stay its own.
    ``asked``: the code compiled meanwhile reads ``me`` as the seat a step asks (building/seats.py
    ``asking``), or one an effect sets (``keeps``), another than the acting seat of the records
    open: its ``me`` is not theirs."""

    def __init__(self) -> None:
        self._open: list[_Notes] = []
        self._me_from = 0   # the records from this one on are those whose me is the acting seat

    @contextmanager
    def recording(self) -> Iterator[_Notes]:
        notes = _Notes()
        self._open.append(notes)
        try:
            yield notes
        finally:
            self._open.remove(notes)

    @contextmanager
    def apart(self) -> Iterator[None]:
        outer, self._open, me_from, self._me_from = self._open, [], self._me_from, 0
        try:
            yield
        finally:
            self._open, self._me_from = outer, me_from

    @contextmanager
    def asked(self) -> Iterator[None]:
        """A ``me`` read meanwhile is noted in the records opened meanwhile only (class docstring)."""
        outer, self._me_from = self._me_from, len(self._open)
        try:
            yield
        finally:
            self._me_from = outer

    def read(self, kind: str, name: str) -> None:
        for notes in self._open:
            notes.reads.add((kind, name))

    def write(self, kind: str, name: str) -> None:
        for notes in self._open:
            notes.writes.add((kind, name))

    def call(self, effect: str) -> None:
        for notes in self._open:
            notes.calls.add(effect)

    def enter(self, zone: str) -> None:
        """A zone filled: its enter triggers run as the acting seat (``me``)."""
        for notes in self._open:
            notes.zones_entered.add(zone)
        self.me()

    def _note(self, field: str, item: object = True) -> None:
        """ITEM added to every open record's set FIELD; a flag FIELD (no ITEM) raised."""
        for notes in self._open:
            if item is True:
                setattr(notes, field, True)
            else:
                getattr(notes, field).add(item)

    def fixed(self, what: str) -> None:
        """A parameter (``params.NAME``) or the seats (module docstring: ``fixed``)."""
        self._note("fixed", what)

    def me(self) -> None:
        """The acting seat (of the records open since ``asked``, where it is another seat)."""
        for notes in self._open[self._me_from:]:
            notes.me = True

    def keeps(self) -> None:
        """The code sets ``me`` for a list inside it and gives it back after (module docstring):
        it names the seat, without reading it; the list is compiled ``asked``."""
        self._note("keeps_me")

    def local(self, name: str) -> None:
        """A local binding."""
        self._note("locals", name)

    def attribute(self, name: str) -> None:
        """A card attribute."""
        self._note("attributes", name)

    def helper(self, name: str) -> None:
        """A built-in a mechanic added (module docstring: ``helpers``)."""
        self._note("helpers", name)

    def end(self) -> None:
        """The code ends the game (module docstring: ``ends``)."""
        self._note("ends")

    def anything(self) -> None:
        """The code may touch any name (module docstring: ``opaque``)."""
        self._note("opaque")
