"""A ruleset's parameters: the value one has for a game of N players (its ``by_players:``
entry, else its ``default:``), its values over the player counts a game can have (what its
type and the checks at load read), and the check of a value given for one (``--set``,
``new_game``'s options, a saved state's): of the parameter's type at every level, each map
with the keys of the map it replaces, in that map's order (so a game and its reload list a
map's keys alike)."""
from __future__ import annotations

import json
import math
from typing import TypeGuard

from ..errors import RulesetError, UsageError, digits
from ..expr.runtime import MAX_STORED
from ..expr.types import (ANY, BOOL, INT, NONE, NUM, STR, elem, is_list, is_map, list_of, map_of, map_value, parse_type,
                          unify)
from ..loading.jsondata import JSONInputError, loads as json_loads
from ..loading.source import load_yaml


def playable_counts(lo: int, hi: int, teams_decl) -> list[int]:
    """The player counts a game can have: min to max, and only those with teams declared when
    teams are declared by player count (a teams variant for 4 or 6 players refuses 5)."""
    counts = range(lo, hi + 1)
    if isinstance(teams_decl, dict) and isinstance(teams_decl.get("by_players"), dict):
        return [n for n in counts if str(n) in teams_decl["by_players"]]
    return list(counts)


def _counts(players: dict, teams) -> list:
    lo, hi = players.get("min", 1), players.get("max", players.get("min", 1))
    ok = all(isinstance(x, int) and not isinstance(x, bool) for x in (lo, hi))
    return playable_counts(lo, hi, teams) if ok else []


def variant_counts(data: dict) -> dict:
    """The player counts of the games of each variant a ruleset declares (its overlay's
    players: merged into the ruleset's, its teams: or the ruleset's), by variant name."""
    players: dict = data["players"] if isinstance(data.get("players"), dict) else {}
    variants = data.get("variants")
    out = {}
    for name, overlay in (variants.items() if isinstance(variants, dict) else ()):
        own = overlay.get("players", {}) if isinstance(overlay, dict) else None
        if isinstance(own, dict):
            out[name] = _counts({**players, **own}, overlay.get("teams", data.get("teams")))
    return out


def reachable_counts(data: dict) -> set:
    """The player counts some game of a ruleset has: its own, and those of the variants it
    declares (``variant_counts``)."""
    players: dict = data["players"] if isinstance(data.get("players"), dict) else {}
    return set(_counts(players, data.get("teams"))).union(*variant_counts(data).values())


def read_entry(key) -> bool:
    """Whether a ``by_players:`` key is one a game reads: a player count as written plainly
    (``2``; ``02`` is read by no game: a game of 2 players reads the entry ``2``)."""
    return digits(str(key)) and str(int(key)) == str(key)


def reached_entries(data: dict, smap) -> set:
    """Where each ``by_players:`` entry of a ruleset's parameters that one of its games reads is
    written: (resolved file path, line, column) of its key (validate: an entry of a base that a
    file extending it reads is no warning of the base's)."""
    from pathlib import Path
    reachable, out = reachable_counts(data), set()
    for name, spec in (data.get("params") or {}).items():
        for key in by_players(spec) or ():
            loc = smap.key_loc(("params", name, "by_players", key)) if read_entry(key) and int(key) in reachable else None
            if loc is not None:
                out.add((str(Path(loc.path).resolve()), loc.line, loc.col))
    return out


def by_players(spec) -> dict | None:
    """A parameter's values by player count (its ``by_players:``), None when it has none."""
    return (spec.get("by_players") or {}) if isinstance(spec, dict) and "by_players" in spec else None


def value_for(name: str, spec, players: int):
    """The parameter's value in a game of ``players``: its entry for that count, else its
    default (UsageError when it has neither)."""
    table = by_players(spec)
    if table is not None:
        if str(players) in table:
            return table[str(players)]
        if "default" in spec:
            return spec["default"]
        raise UsageError(f"parameter '{name}' has no value for {players} players")
    if isinstance(spec, dict):
        return spec["default"] if "default" in spec else spec.get("value")
    return spec


def values_over(name: str, spec, counts) -> list:
    """The values the parameter takes in games of these player counts, each once, in count
    order (a count with no value left out: the load reports it; no counts at all, as when
    min is above max, an error of its own: every value written)."""
    table = by_players(spec)
    if table is None or not counts:
        return [value_for(name, spec, 0)] if table is None else [*table.values(), *(
            [spec["default"]] if "default" in spec else [])]
    out: dict = {}
    for n in counts:
        try:
            v = value_for(name, spec, n)
        except UsageError:
            continue
        out.setdefault(id(v), v)
    return list(out.values())


def type_of_value(v) -> str:
    """The type a parameter's value gives its expressions (an empty map: a map of nothing yet,
    which a map joins; ``settled`` makes it a map of anything when nothing does)."""
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, float):
        return NUM
    if isinstance(v, str):
        return STR
    if isinstance(v, list):
        return list_of(unify([type_of_value(x) for x in v]) if v else ANY)
    if isinstance(v, dict) and all(isinstance(k, str) for k in v):   # any text key: "2" as well as T
        return map_of(unify([type_of_value(x) for x in v.values()]) if v else NONE)   # values by key
    return ANY


def joined_type(values: list) -> str:
    """The type an undeclared parameter's values (and choices) give its expressions: 1 and 2.5 a
    num, [] and [1] a list of int, a null any."""
    return settled(unify([type_of_value(v) for v in values]))


def settled(typ: str) -> str:
    """A type with its maps of nothing (empty maps no other map joined) maps of anything."""
    return typ.replace(f"[{NONE}]", f"[{ANY}]")


def declared_type(spec, values) -> str | None:
    """The type a parameter's ``type:`` gives its expressions, None where it names none: ``list``,
    a list of what its values' elements are (as a list parameter's type is where none is
    declared: [1, 2] a list of int); ValueError for a type the language does not have."""
    declared = spec.get("type") if isinstance(spec, dict) else None
    if not declared:
        return None
    if declared != "list":
        return parse_type(str(declared))
    typ = unify([type_of_value(v) for v in values if isinstance(v, list)])
    return settled(typ) if is_list(typ) else list_of(ANY)


def _shape(v) -> str:
    """The type of a value with an empty list or map (or null) of any type that joins it."""
    if isinstance(v, list):
        return list_of(unify([_shape(x) for x in v]))
    if isinstance(v, dict):
        return map_of(unify([_shape(x) for x in v.values()]))
    return NONE if v is None else type_of_value(v)


def mixed(name: str, value, path: tuple = ()) -> tuple[tuple, str] | None:
    """Where a list in ``value`` (at any depth) mixes elements of types no list the language
    writes mixes ([1, "2"], [[1], ["a"]]; [1, 2.5] is a list of num) and why: (the path of the
    first element that does not fit those before it, the message); None where none does."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, x in items:
        inner = mixed(name, x, (*path, k))
        if inner is not None:
            return inner
    found = unlike(name, value, path) if isinstance(value, list) else None
    return None if found is None else ((*path, found[0]), found[1])


def unlike(name: str, values: list, path: tuple | None = None) -> tuple[int, str] | None:
    """The index of the first of ``values`` (the list at ``path`` in the parameter's value; None:
    its ``choices:``, each a value of its own) whose type does not join those before it
    (``misfit``), and why, as an override of their type is told; None where all join."""
    i = misfit(values)
    if i is None:
        return None
    joined, x = shape_of(values[:i]), values[i]
    try:
        _like(name, x, None, joined, () if path is None else (*path, i))
    except UsageError as e:
        return i, e.message
    return i, f"parameter '{name}': {'choices mix' if path is None else 'a list mixes'} {joined} and {settled(_shape(x))}"


def misfit(values: list) -> int | None:
    """The index of the first of ``values`` whose type does not join the types of those before
    it (1 and 2.5 join as num, [] and [1] as a list of int; 1 and "a", [1] and ["a"] do not); None
    where all join."""
    joined = NONE
    for i, x in enumerate(values):
        shape = _shape(x)
        both = unify([joined, shape])
        if ANY in both and ANY not in joined and ANY not in shape:
            return i
        joined = both
    return None


def shape_of(values: list) -> str:
    """The type values of one type join in (``misfit``), its empty maps maps of anything."""
    return settled(unify([_shape(x) for x in values]))


def quoted_number(value, typ: str | None) -> str | None:
    """The hint for text written where a number is wanted that reads as one (``"8"``)."""
    try:
        number = isinstance(value, str) and "_" not in value and math.isfinite(float(value))
    except ValueError:
        number = False
    return "a number is written without quotes" if number and typ in (INT, NUM) else None


def param_type(spec, current) -> str | None:
    """The declared type of a parameter, else the type of its default value (None: any)."""
    if isinstance(spec, dict) and spec.get("type"):
        return str(spec["type"])
    for t, py in (("bool", bool), ("int", int), ("num", float), ("str", str), ("list", list), ("map", dict)):
        if isinstance(current, py):
            return t
    return None


def plain_value(name: str, value) -> None:
    """A parameter's value is plain JSON data, as a log and a saved state hold it: no NaN or
    infinity, no date, bytes or set (YAML gives them), no list that holds itself (an alias)."""
    try:
        json.dumps(value, allow_nan=False)
    except (ValueError, TypeError, RecursionError) as e:
        why = "a list or map that holds itself" if "ircular" in str(e) else \
            "NaN or an infinity" if isinstance(e, ValueError) else f"a value of no JSON type ({e})"
        raise UsageError(f"parameter '{name}': {why} is not a value a game can hold") from None


class Unreadable(ValueError):
    """A value that is neither JSON nor YAML: its text says why, when more than that."""


def read_value(text: str):
    """A value written on a command line: JSON (1e3, [1, 2]), or else YAML read as a ruleset is
    (loading/source.py: flow syntax [D, H], {a: 1}; a map's keys text as written; ``yes``, ``no``
    and dates text; plain data only, nesting bounded); Unreadable otherwise."""
    try:
        return json_loads(text)
    except JSONInputError:
        pass
    try:
        return load_yaml(text, "<value>")[0]
    except RulesetError as e:
        if e.diagnostics[0].code == "limit" and "nest" in e.message:
            raise Unreadable("the value nests too deeply") from None
        at = e.loc.col if e.loc is not None and e.loc.line == 1 and e.loc.col > 1 else None
        raise Unreadable(e.message + (f" (at character {at})" if at else "")) from None


def _a(kind: str) -> str:
    """A kind with its article: an int, a map."""
    return ("an " if kind[:1] in "aeiou" else "a ") + kind


def _kind(typ: str) -> str:
    return "list" if is_list(typ) else "map" if is_map(typ) else typ


def _fits(value, typ: str) -> bool:
    if typ in (INT, NUM):
        return (isinstance(value, (int, float) if typ == NUM else int) and not isinstance(value, bool)
                and (not isinstance(value, float) or math.isfinite(value)))
    if typ == BOOL:
        return isinstance(value, bool)
    if typ == STR:
        return isinstance(value, str)
    return isinstance(value, list) if is_list(typ) else isinstance(value, dict) if is_map(typ) else True


def _like(name: str, value, current, typ: str, path: tuple):   # (path: keys and list indexes)
    """``value`` checked against the type ``typ`` and the value ``current`` it replaces: a map
    has the keys of the map it replaces, in its order (keys sorted where none is replaced, as a
    saved game holds them); a list's elements are each like the one at their place (beyond its
    end, like its first)."""
    at = name + "".join(f"[{k}]" if isinstance(k, int) else f"[{k!r}]" for k in path)   # nested[0][0]
    if not (_fits(value, typ) or (value is None and current is None)):
        if not path:
            raise UsageError(f"parameter '{name}' expects {_kind(typ)}, got {value!r}")
        if len(path) == 1 and isinstance(path[0], int):   # (an element of the list)
            raise UsageError(f"parameter '{name}' is a list of {_kind(typ)}, got {value!r} in it")
        raise UsageError(f"parameter '{name}': {at} is {_a(_kind(typ))}, got {value!r}")
    where = f"parameter '{name}'" + (f": {at}" if path else "")
    if isinstance(value, dict):
        odd = next((k for k in value if not isinstance(k, str)), None)
        if odd is not None:
            raise UsageError(f"{where}: a map's keys are text, got {odd!r} (write '{json.dumps(odd)}')")
        if isinstance(current, dict):
            if set(value) != set(current):
                had = f"a map with the keys {', '.join(current)}" if current else "an empty map"
                raise UsageError(f"{where} is {had}, got {', '.join(value) or 'none'}")
            keys = list(current)
        else:
            keys, current = sorted(value), {}
        return {k: _like(name, value[k], current.get(k), map_value(typ), (*path, k)) for k in keys}
    if isinstance(value, list):
        was = current if isinstance(current, list) else []
        return [_like(name, v, was[i] if i < len(was) else (was[0] if was else None), elem(typ), (*path, i))
                for i, v in enumerate(value)]
    return value


def check_param(name, value, spec, current, typ: str | None = None, read: bool = True):
    """An override (a string from --set, or a Python value) checked against the parameter's
    type (``typ``, the type its values give its expressions; else the declared one, or its
    current value's), bounds and choices, and the value it replaces (``_like``); the value,
    its maps in the order of those it replaces; UsageError with the reason otherwise.
    ``read``: a string where the type is not text is read as a value written on a command
    line (not for a value a ruleset writes: its ``"8"`` is text)."""
    want = param_type(spec, current)
    if read and isinstance(value, str) and want not in ("str", None):
        try:
            value = read_value(value)
        except Unreadable as e:
            why = str(e)
            raise UsageError(f"parameter '{name}' expects {want}" + (f": {why}" if "nests" in why else
                                                                     f", got {value!r}" + (f": {why}" if why else ""))) from None
    plain_value(name, value)
    if value is None and isinstance(spec, dict) and isinstance(spec.get("choices"), list) and None in spec["choices"]:
        return None   # (a null its choices name, whatever value it replaces; elsewhere only a null's: _like)
    if typ is None:
        typ = declared_type(spec, [current]) or settled(type_of_value(current))
    value = _like(name, value, current, typ, ())
    found = mixed(name, value)   # (of one type at every depth, as a list the ruleset writes: [1, "a"] is not)
    if found is not None:
        raise UsageError(found[1])
    if isinstance(spec, dict):
        lo, hi = (b if is_number(b) else None for b in (spec.get("min"), spec.get("max")))   # a bad bound is refused at load
        bounded = (lo is not None or hi is not None) and value is not None   # (null, no value, is no number they bound)
        if bounded and not is_number(value):
            raise UsageError(f"parameter '{name}' expects a number, got {value!r}")
        if bounded and ((lo is not None and value < lo) or (hi is not None and value > hi)):
            bounds = (f"between {lo} and {hi}" if lo is not None and hi is not None
                      else f"at least {lo}" if lo is not None else f"at most {hi}")
            raise UsageError(f"parameter '{name}' must be {bounds}, got {value!r}")
        if "choices" in spec and not any(same(value, c) for c in spec["choices"]):
            raise UsageError(f"parameter '{name}' is one of {', '.join(map(str, spec['choices']))}, got {value!r}")
        most, longest = spec.get("max_length"), held_length(value)
        if isinstance(most, int) and longest > most:   # (a bad bound is refused at load)
            raise UsageError(f"parameter '{name}' has at most {most:,} characters, got {longest:,}" if isinstance(value, str)
                             else f"parameter '{name}' holds strings of at most {most:,} characters, got one of {longest:,}")
    longest_text(name, value)
    return value


def longest_text(name: str, value) -> None:
    """A parameter's value holds no string (nor key) longer than a variable may (MAX_STORED): its
    expressions weigh each at that at most (expr/texts.py); UsageError otherwise."""
    todo = [value]
    while todo:
        x = todo.pop()
        if isinstance(x, str) and len(x) > MAX_STORED:
            raise UsageError(f"parameter '{name}' holds a string of {len(x):,} characters, more than "
                             f"{MAX_STORED:,} (a variable may hold)")
        if isinstance(x, (list, dict)):
            todo.extend([*x, *x.values()] if isinstance(x, dict) else x)


def held_texts(value) -> list | None:
    """The strings a parameter's value is, or holds as elements or map values at any depth (what
    ``max_length:`` bounds; not the keys of a map); None where it is or holds another value than
    a string or none."""
    found, todo = [], [value]
    while todo:
        x = todo.pop()
        if isinstance(x, str):
            found.append(x)
        elif isinstance(x, (list, dict)):
            todo.extend(x.values() if isinstance(x, dict) else x)
        elif x is not None:
            return None
    return found


def held_length(value) -> int:
    """The most characters a string a parameter's value is or holds has (``held_texts``; 0: none)."""
    return max(map(len, held_texts(value) or ()), default=0)


def is_number(v) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def same(a, b) -> bool:
    """Whether two values are the same value of a parameter: equal, a bool equal to no number
    (Python's True == 1: ``choices: [1, 2]`` does not hold true)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b
