"""Results kept by the text they were made from, for a process that loads rulesets again and
again: validating a ruleset builds it once per variant, and a test suite, a batch or a server
loads the same games many times. What is kept is a pure function of its key (a file's parsed
data by its content, an expression's tree by its text, a code object by its source), never
changed by those who read it, so sharing it cannot change a result.

Each store is bounded by the characters of the texts it keeps: when the next one would pass
the bound, everything is dropped and kept again from then on (simple, and the texts of most
rulesets fit in it many times over). A store smaller than one ruleset's texts, emptied as it
fills, would give none of them back to the ruleset's next build: ``holding()`` holds every value
the stores make or give while it is open (``rulebook validate``, over a ruleset and its
variants), which is no more than what each build holds in its compiled functions anyway.
"""
from __future__ import annotations

import copy
from contextlib import contextmanager

_MISSING = object()
_held: list[dict] = []   # the open holding() scopes' values by (store, key), the innermost last


@contextmanager
def holding():
    """Within it, every value a store makes or gives is held, whatever the store's bound, until
    the scope ends: the builds of one ruleset's variants get each text's tree and code back."""
    held: dict = {}
    _held.append(held)
    try:
        yield
    finally:
        _held.remove(held)


class _Failed:
    """What is kept for a key whose value could not be made: the error ``make`` raised."""
    __slots__ = ("error",)

    def __init__(self, error: BaseException):
        self.error = error


class Kept:
    """A store of values by key, bounded by the total ``size`` given with each."""

    def __init__(self, limit: int):
        self.limit = limit
        self.size = 0
        self._values: dict = {}

    def get(self, key, make, size: int, keep_errors: tuple = ()):
        """The value kept for ``key``, else ``make()`` kept. An exception ``make`` raises is raised,
        and kept if it is one of ``keep_errors`` (a text that fails fails the same way each time: a
        ruleset aliasing a bad expression many times must not make it be worked through again)."""
        held = _held[-1] if _held else None
        value = self._values.get(key, _MISSING) if held is None else held.get((self, key), _MISSING)
        if value is _MISSING and held is not None:
            value = self._values.get(key, _MISSING)
        if value is _MISSING:
            try:
                value = make()
            except keep_errors as e:
                value = _Failed(e)
            if self.size + size > self.limit:
                self._values.clear()
                self.size = 0
            self._values[key] = value
            self.size += size
        if held is not None:
            held[(self, key)] = value
        if type(value) is _Failed:
            raise copy.copy(value.error)   # (a copy: whoever catches it may add to it)
        return value

    def clear(self) -> None:
        self._values.clear()
        self.size = 0

    def __len__(self) -> int:
        return len(self._values)


_code = Kept(4_000_000)   # (source, file name, mode) -> its code object (about 6 bytes a character)


def compiled(source: str, filename: str, mode: str):
    """``compile(source, filename, mode)``, kept: generated sources repeat (an effect list
    written the same in two places, every variant of a ruleset), and a code object is
    immutable, so one serves every namespace it is run in. A NUL in the file name (an
    expression's text, which a YAML escape can put one in) is written out: compile() refuses it."""
    filename = filename.replace("\x00", "\\x00")
    return _code.get((source, filename, mode), lambda: compile(source, filename, mode), len(source))
