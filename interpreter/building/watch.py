"""Which effects cannot change what the when-triggers and end conditions read.

The engine checks ``when:`` triggers and ``end_when`` conditions after every step that may
have changed the state. An effect list that moves cards between zones those conditions never
read (drawing a card into a hand, while the only when-trigger watches the market) cannot
change their answers, so its step is *quiet*: the engine skips the checks after it, as after
a step that changed nothing.

Both sides are the facts the compilers noted while writing the code (expr/access.py), never
the code's text:

- what a condition reads: the zones, counters and variables its expression names;
- what an effect list may change: the names it writes (reading a watched zone changes
  nothing), plus what the declared effects it calls and the enter triggers of the zones it
  fills may change.

Code that hands the whole state to a helper that may touch anything (``opaque``): such a
condition watches everything, such an effect is never quiet.
"""
from __future__ import annotations

from typing import Iterable

from ..expr.access import Access


class _Everything(frozenset):
    """The names conditions read when they may read anything: every name is in it."""

    def __contains__(self, name) -> bool:
        return True


EVERYTHING = _Everything()


def watched(accesses: Iterable[Access]) -> frozenset | None:
    """The names the conditions read (None: they may read anything)."""
    out: set = set()
    for a in accesses:
        if a.opaque or a.calls or a.zones_entered:
            return None
        out |= a.names
    return frozenset(out)


class Quiet:
    """Decides whether an effect function may change what the watched conditions read."""

    def __init__(self, watched_names: frozenset | None, named: dict, hooks: dict):
        self.watched = watched_names
        self.named = named       # declared effect name -> its function (with .access)
        self.hooks = hooks       # zone -> [(name, cond, fn, table)] (triggers.enter)

    def quiet(self, fn) -> bool:
        if self.watched is None:
            return False
        return not self._may_change(getattr(fn, "access", None), set())

    def may_change(self, access: Access | None) -> bool:
        """Whether code that touches ``access`` may change what the conditions read."""
        return self._may_change(access, set())

    def noted(self, fn) -> tuple | None:
        """The marks of effect function ``fn`` (building/effects.py: where its list and each
        if/switch branch begin) whose own items may change what the conditions read: a step
        running ``fn`` in place notes there that a check is due (None: no marks, or everything
        watched; the step then reports a change whenever ``fn`` is not quiet)."""
        marks, access = getattr(fn, "marks", None), getattr(fn, "access", None)
        if marks is None or self.watched is None or access is None or access.opaque:   # (a condition's
            return None                                                                  # reads are in no mark)
        return tuple(k for k, (_, _, writes) in enumerate(marks)
                     if any(self._may_change(a, set()) for a in writes))

    def _may_change(self, a: Access | None, seen: set) -> bool:
        if a is None or a.opaque or self.watched is None:   # (None: everything is watched)
            return True
        if a.writes & self.watched:   # (reads cannot change a condition's answer)
            return True
        for name in a.calls:
            if ("effect", name) in seen:
                continue
            seen.add(("effect", name))
            if self._may_change(getattr(self.named.get(name), "access", None), seen):
                return True
        for zone in a.zones_entered:
            if ("zone", zone) in seen:
                continue
            seen.add(("zone", zone))
            for _, _, fn, _ in self.hooks.get(zone, ()):
                if fn is not None and self._may_change(getattr(fn, "access", None), seen):
                    return True
        return False


def may_write(access: Access, zone: str, named: dict, enter: dict, built, kind: str = "z") -> bool:
    """Whether code touching ``access`` may write ``zone`` (``kind`` v: the variable so named):
    itself, the declared effects it calls (``named``: name -> function, None while being
    compiled) or the enter triggers of the zones it fills (``enter``, triggers.Triggers.enter);
    the triggers of a zone not in ``built`` are not compiled yet (a declared effect's code,
    compiled first): they may write anything."""
    unknown = object()   # (no access noted: may touch anything)
    hooks = {z: fns if z in built else [(None, None, unknown, None)] for z, fns in enter.items()}
    return Quiet(frozenset({(kind, zone)}), named, hooks).may_change(access)


def reads_seat(access: Access | None) -> bool:
    """Whether code touching ``access`` may read the seat it runs as, ``me``: it reads it (itself,
    or in a declared effect it calls or the enter triggers of a zone it fills: Access ``me``), or
    may touch anything; None (nothing noted): it may."""
    return access is None or access.me or access.opaque
