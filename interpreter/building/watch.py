"""Which effects cannot change what the when-triggers and end conditions read.

The engine checks ``when:`` triggers and ``end_when`` conditions after every step that may
have changed the state. An effect list that moves cards between zones those conditions never
read (drawing a card into a hand, while the only when-trigger watches the market) cannot
change their answers, so its step is *quiet*: the engine skips the checks after it, as after
a step that changed nothing.

Both sides are read from generated source, where every zone, counter and variable is named
literally (``S.z['market']``, ``S.c['coins']``, ``S.v['round']``):

- what a condition reads: the names its source mentions;
- what an effect list may change: the names its source mentions, plus what the declared
  effects it calls (``E_name``) and the enter triggers of the zones it fills
  (``_triggers.entered(S, 'zone', ...)``) may change.

A call that hands the whole state ``S`` to any other function (a mechanic's helper) may read
or change anything: such a condition watches everything, such an effect is never quiet.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ..loading.kept import Kept

_NAMED = re.compile(r"S\.([zcv])\['([\w.]+)'\]")   # (a family's counters are NAME.KEY)
_UNNAMED = re.compile(r"\bS\.[zcv]\b(?!\[')")       # a table reached some other way: anything may be touched
# functions given S that change nothing a condition can read (the RNG, the step count, errors,
# the seats' knowledge of hidden cards)
# or only read it (runtime helpers of the expression language)
_HARMLESS = frozenset({"_below", "_shuffle", "_over_budget", "_know", "_show", "_seat", "_card", "_team", "_partner", "_members",
                       "_combos", "_combos_by"})


class _Everything(frozenset):
    """The names conditions read when they may read anything: every name is in it."""

    def __contains__(self, name) -> bool:
        return True


EVERYTHING = _Everything()


@dataclass(frozen=True)
class Mentions:
    """What one piece of generated code names: ``names`` {(kind, name)} with kind z, c or v."""
    names: frozenset
    calls: frozenset        # declared effects it calls (E_name -> name)
    zones_entered: frozenset  # zones whose enter triggers it calls
    opaque: bool            # it hands S to some other function: anything may be read or changed


def mentions(src: str) -> Mentions:
    """What ``src`` names, kept by its source (loading/kept.py)."""
    return _mentions.get(src, lambda: _mentions_of(src), len(src))


_mentions = Kept(2_000_000)   # source -> its Mentions


def _mentions_of(src: str) -> Mentions:
    names = frozenset(_NAMED.findall(src))
    calls, zones, opaque = set(), set(), bool(_UNNAMED.search(src))
    try:
        tree = ast.parse(src)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return Mentions(names, frozenset(), frozenset(), True)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not any(isinstance(a, ast.Name) and a.id == "S" for a in node.args):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "entered" and isinstance(func.value, ast.Name) \
                and func.value.id == "_triggers" and len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
            zones.add(node.args[1].value)
        elif isinstance(func, ast.Name) and func.id.startswith("E_"):
            calls.add(func.id[2:])
        elif not (isinstance(func, ast.Name) and func.id in _HARMLESS):
            opaque = True
    return Mentions(names, frozenset(calls), frozenset(zones), opaque)


def watched(sources) -> frozenset | None:
    """The names the conditions read (None: they may read anything)."""
    out: set = set()
    for src in sources:
        m = mentions(src)
        if m.opaque or m.calls or m.zones_entered:
            return None
        out |= m.names
    return frozenset(out)


class Quiet:
    """Decides whether an effect function may change what the watched conditions read."""

    def __init__(self, watched_names: frozenset | None, named: dict, hooks: dict):
        self.watched = watched_names
        self.named = named       # declared effect name -> its function (with .mentions)
        self.hooks = hooks       # zone -> [(name, cond, fn, table)] (triggers.enter)
        self._memo: dict = {}

    def quiet(self, fn) -> bool:
        if self.watched is None:
            return False
        return not self._may_change(getattr(fn, "mentions", None), set())

    def _may_change(self, m: Mentions | None, seen: set) -> bool:
        if m is None or m.opaque or self.watched is None:   # (None: everything is watched)
            return True
        if m.names & self.watched:
            return True
        for name in m.calls:
            if ("effect", name) in seen:
                continue
            seen.add(("effect", name))
            if self._may_change(getattr(self.named.get(name), "mentions", None), seen):
                return True
        for zone in m.zones_entered:
            if ("zone", zone) in seen:
                continue
            seen.add(("zone", zone))
            for _, _, fn, _ in self.hooks.get(zone, ()):
                if fn is not None and self._may_change(getattr(fn, "mentions", None), seen):
                    return True
        return False
