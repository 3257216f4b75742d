"""A value a state holds, checked against what the ruleset declares: a saved state's fields
(engine/saved.py), a variable written by name (engine/layout.py Tables), a scenario's patch."""
from __future__ import annotations

import math

from ..expr.runtime import MAX_INT, MAX_STORED, MAX_STORED_TEXT, list_bound
from ..expr.types import ANY, BOOL, CARD, NONE, NUM, PLAYER, STR, TEAM, elem, is_list


class Bad(Exception):
    """A field that does not fit (the message names it)."""


def whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def need(ok: object, what: str) -> None:   # (ok: read for its truth)
    if not ok:
        raise Bad(what)


def check_value(v, typ: str, where: str, sizes: dict, depth: int = 0) -> None:
    """A variable's value fits its declared type (None fits any: not set yet)."""
    if v is None or typ == NONE:
        return
    if is_list(typ) or (typ == ANY and isinstance(v, list)):
        need(isinstance(v, list) and len(v) <= sizes.get("list", MAX_STORED), f"{where}: expected a list")
        need(depth < 8, f"{where}: nested too deeply")
        if depth == 0:   # (what a stored value may hold in all, as play checks it: runtime.owned)
            need(within(v, sizes.get("list", MAX_STORED)), f"{where}: the list holds more than a variable may, in all")
        for x in v:
            check_value(x, elem(typ) if is_list(typ) else ANY, where, sizes, depth + 1)
        return
    if typ == BOOL:
        need(isinstance(v, bool), f"{where}: expected true or false, got {v!r}")
    elif typ == STR:
        need(isinstance(v, str) and len(v) <= MAX_STORED, f"{where}: expected a string")
    elif typ == NUM:
        need(number(v), f"{where}: expected a number (a whole one within 2^63, or finite), got {v!r}")
    elif typ == ANY:
        need(isinstance(v, (bool, str)) or number(v), f"{where}: not a value of the language: {v!r}")
        need(not isinstance(v, str) or len(v) <= MAX_STORED, f"{where}: the string is too long")
    else:   # int and the whole numbers that name things: players, teams, cards
        need(whole(v) and abs(v) <= MAX_INT, f"{where}: expected a whole number, got {v!r}")
        if typ in sizes:
            need(0 <= v < sizes[typ], f"{where}: no {typ} {v} (there are {sizes[typ]})")


def within(v: list, longest: int) -> bool:
    """Whether the lists in ``v``, ``v`` too, hold at most ``longest`` elements together and the
    strings in them at most MAX_STORED_TEXT characters together (runtime._stored's bounds)."""
    elements, text, todo = 0, 0, [v]
    while todo:
        x = todo.pop()
        elements += len(x)
        for y in x:
            if isinstance(y, list):
                todo.append(y)
            elif isinstance(y, str):
                text += len(y)
    return elements <= longest and text <= MAX_STORED_TEXT


def number(v) -> bool:
    """A number the language holds: a whole one within 64 bits, or a finite fraction."""
    if isinstance(v, bool):
        return False
    return (isinstance(v, int) and abs(v) <= MAX_INT) or (isinstance(v, float) and math.isfinite(v))


def sizes_of(rules, players: int, teams: int) -> dict:
    """How many there are of each thing a whole number names, and a list's longest."""
    return {PLAYER: players, TEAM: teams, CARD: len(rules.card_labels), "list": list_bound(len(rules.card_labels))}


def var_problem(S, name: str, value) -> str | None:
    """What is wrong with ``value`` as the value of ``S``'s variable ``name`` (its declared
    type; a seat, team or card that exists), or None: what a saved state's variables are held
    to, for a state written from outside it (a scenario's patch, a card variable by name)."""
    try:
        check_value(value, S.rules.names.vars.get(name, ANY), f"variable '{name}'",
                     sizes_of(S.rules, S.n, len(S.members)))
    except Bad as e:
        return str(e)
    return None
