"""A game's start, kept: the state a new game of a ruleset starts from before its setup runs
(blank() and the ruleset's _fill(): every zone, counter and variable at its start value)
depends on the number of players, the parameters and the options alone, never on the seed
(no start value can read the RNG or the seed). ``Ruleset.new_game`` keeps it by those
(``Ruleset._starts``) and gives each game a copy of its own (engine/layout.py ``fresh``)."""
from __future__ import annotations

from ..expr.runtime import owned
from ..expr.types import BOOL, CARD, INT, NUM, PLAYER, STR, TEAM

UNSET = object()   # what plain_copy() gives for a value that is not plain data
SCALARS = frozenset({INT, NUM, BOOL, STR, CARD, PLAYER, TEAM})   # the types of a variable that holds no list


def own_values(table: dict) -> dict:
    """A copy of a game's parameters or options, each list or mapping in it a new one (its keys
    the same objects: the parameters' are interned, engine/state.py ``interned``)."""
    return {k: owned(v) if v.__class__ is list else own_values(v) if v.__class__ is dict else v
            for k, v in table.items()}


class Kept(dict):
    """A kept start's parameters or options: the dict, and how a game copies each list and mapping
    in it (``copies``: (key, its copier), worked out once from the value, which never changes),
    so that a game's copy (``own``, engine/layout.py ``fresh``) is the dict copied at once and
    only those values copied after it: what ``own_values`` gives, with no look at each value."""
    __slots__ = ("copies",)

    def __init__(self, table: dict):
        super().__init__(table)
        self.copies = tuple((k, _copier(v)) for k, v in table.items() if v.__class__ is list or v.__class__ is dict)

    def own(self) -> dict:
        """A game's own copy (a plain dict; its keys the same objects)."""
        out = self.copy()
        for k, copy in self.copies:
            out[k] = copy(out[k])
        return out


def _copier(value):
    """The copy ``own_values`` makes of a list or mapping like ``value``: a list holding no list
    sliced, a list of such lists each sliced (both in C), any other ``owned`` or ``own_values``."""
    if value.__class__ is dict:
        return own_values
    if not any(v.__class__ is list for v in value):
        return list.copy
    if all(v.__class__ is list and not any(x.__class__ is list for x in v) for v in value):
        return _rows
    return owned


def _rows(value: list) -> list:
    return list(map(list.copy, value))


_PLAIN = (str, int, float, bool, type(None))


def plain_copy(value, depth: int = 0):
    """A copy of a value of plain data (dicts, lists, text, numbers, yes/no, none, each of that
    type exactly) as new objects, or ``UNSET`` for any other value."""
    if value.__class__ in _PLAIN:
        return value
    if depth < 100:
        if value.__class__ is list:
            out = [plain_copy(v, depth + 1) for v in value]
            return UNSET if UNSET in out else out
        if value.__class__ is dict:
            pairs = [(plain_copy(k, depth + 1), plain_copy(v, depth + 1)) for k, v in value.items()]
            return UNSET if any(UNSET in pair for pair in pairs) else dict(pairs)
    return UNSET


def given_key(players: int, options: dict) -> str | None:
    """new_game's options as the caller gave them, as a key of the start their checked values
    found (``Ruleset._starts``): their ``repr`` when they are plain data of a few hundred values
    at most (a list that holds itself, or a long one, is looked at by the checks each time);
    else None. The checks and the parameters' resolution give the same for the same data."""
    todo, seen = [options], 0
    while todo:
        value = todo.pop()
        seen += 1
        if seen > 400:
            return None
        if value.__class__ is dict:
            todo += value
            todo += value.values()
        elif value.__class__ is list:
            todo += value
        elif value.__class__ not in _PLAIN:
            return None
    try:
        return repr((players, options))
    except ValueError:   # (an integer of more digits than Python writes: the checks say what is wrong)
        return None

