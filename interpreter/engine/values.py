"""A value a state holds, checked against what the ruleset declares: a saved state's fields
(engine/saved.py), a variable written by name (engine/layout.py Tables), a scenario's patch."""
from __future__ import annotations

import math

from ..expr.runtime import ExprRuntimeError, MAX_INT, MAX_STORED, MIN_INT, MAX_STORED_DEPTH, MAX_STORED_TEXT, list_bound
from ..expr.types import (ANY, BOOL, CARD, INT, NONE, NUM, PLAYER, STR, TEAM, elem, is_list, is_map, map_value,
                          parse_type)


class Bad(Exception):
    """A field that does not fit (the message names it)."""


def whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def need(ok: object, what: str) -> None:   # (ok: read for its truth)
    if not ok:
        raise Bad(what)


def check_value(v, typ: str, where: str, sizes: dict, depth: int = 0, bounded: bool = True) -> None:
    """A variable's value fits its declared type (None fits any: not set yet); ``bounded``: and what
    it holds in all is within what a variable may (a value a rule stores has passed _stored, which
    keeps it so). A message is written only when it is raised: a list of numbers, strings or
    truths is tested in one pass (``flat``), its elements one by one only to say which fails."""
    if v is None or typ == NONE:
        return
    if is_list(typ) or (typ == ANY and isinstance(v, list)):
        if not isinstance(v, list):
            raise Bad(f"{where}: expected a list, got {shown(v)}")
        longest = sizes.get("list", MAX_STORED)
        if len(v) > longest or bounded and depth == 0 and not within(v, longest):   # (what a stored value may hold in all,
            raise Bad(f"{where}: the list holds more than a variable may, in all")   # as play checks it: runtime.owned)
        if depth >= MAX_STORED_DEPTH:   # (as play stores it: runtime.owned)
            raise Bad(f"{where}: lists nested more than {MAX_STORED_DEPTH} levels deep")
        inner = elem(typ) if is_list(typ) else ANY
        if not flat(v, inner, sizes):   # (else each element, to say which does not fit)
            for x in v:
                check_value(x, inner, where, sizes, depth + 1)
        return
    if typ == BOOL:
        if not isinstance(v, bool):
            raise Bad(f"{where}: expected true or false, got {shown(v)}")
    elif typ == STR:
        if not isinstance(v, str):
            raise Bad(f"{where}: expected a string, got {shown(v)}")
        if len(v) > MAX_STORED:
            raise Bad(f"{where}: the string is too long")
    elif typ == NUM:
        if not number(v):
            raise Bad(f"{where}: expected a number (a whole one within 2^63, or finite), got {shown(v)}")
    elif typ == ANY:
        if not (isinstance(v, (bool, str)) or number(v)):
            raise Bad(f"{where}: not a value of the language: {shown(v)}")
        if isinstance(v, str) and len(v) > MAX_STORED:
            raise Bad(f"{where}: the string is too long")
    elif is_map(typ):   # (a map parameter's value: an option among maps)
        if not (isinstance(v, dict) and all(isinstance(k, str) for k in v)):
            raise Bad(f"{where}: expected a map of {map_value(typ)} values by key, got {shown(v)}")
        if len(v) > sizes.get("list", MAX_STORED) or depth >= MAX_STORED_DEPTH:
            raise Bad(f"{where}: the map holds more than a value may")
        for x in v.values():
            check_value(x, map_value(typ), where, sizes, depth + 1)
    elif typ not in (INT, PLAYER, TEAM, CARD):
        raise Bad(f"{where}: expected a value of type {typ}, got {shown(v)}")
    else:   # int and the whole numbers that name things: players, teams, cards
        if not (whole(v) and MIN_INT <= v <= MAX_INT):
            raise Bad(f"{where}: expected a whole number, got {shown(v)}")
        if typ in sizes and not 0 <= v < sizes[typ]:
            raise Bad(f"{where}: no {typ} {v} (there are {sizes[typ]})")


_NONE, _INT = type(None), {int}


def flat(v: list, typ: str, sizes: dict, none: bool = True) -> bool:
    """Whether every element of ``v`` is a value of the scalar type ``typ`` (or none, where
    ``none``), tested in one pass (what check_value says of each, at a tenth of the cost; whole
    numbers in passes in C: their classes, the least, the most); False for any other type."""
    if typ in (INT, PLAYER, TEAM, CARD):
        low, high = (0, sizes[typ] - 1) if typ in sizes else (MIN_INT, MAX_INT)
        kinds = set(map(type, v))
        if _NONE in kinds:
            if not none:
                return False
            kinds.discard(_NONE)
            v = [x for x in v if x is not None]
        return kinds <= _INT and (not v or low <= min(v) and max(v) <= high)
    if not none and None in v:
        return False
    if typ == STR:
        return all(x is None or x.__class__ is str and len(x) <= MAX_STORED for x in v)
    if typ == BOOL:
        return all(x is None or x.__class__ is bool for x in v)
    return typ == NUM and all(x is None or number(x) for x in v)


def shown(v) -> str:
    """A value as a message quotes it: its repr, cut after 60 characters."""
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


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
    return (isinstance(v, int) and MIN_INT <= v <= MAX_INT) or (isinstance(v, float) and math.isfinite(v))


def sizes_of(rules, players: int, teams: int) -> dict:
    """How many there are of each thing a whole number names, a list's longest, and the game's step budget."""
    return {PLAYER: players, TEAM: teams, CARD: len(rules.card_labels), "list": list_bound(len(rules.card_labels)),
            "steps": rules.max_steps}


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


def as_declared(S, name: str, value):
    """``value``, about to be stored in ``S``'s variable ``name`` where the load cannot prove it
    of the variable's declared type (a value of type any, a list of any: expr/types.py
    ``unproven``), held to what a saved state's variables are (``check_value``): itself, or the
    runtime error, located where it is stored, naming the declared type and what was given
    (``variable 'L' is declared list[int]: expected a whole number, got [1]``). Generated code
    calls it as ``_typed``."""
    typ = S.rules.names.vars[name]
    return as_typed(S, typ, f"variable '{name}' is {_declared(S.rules, name, typ)}", value)


def _declared(rules, name: str, typ: str) -> str:
    """How variable ``name`` came to be of type ``typ``, for a message: ``declared list[int]``, or,
    where its ``vars:`` entry says any (its type unwritten too) and a step's ``as:`` narrowed it
    (building/declarations.py ``declare_var``), ``list[int] (declared any, narrowed by an as:)``."""
    decl = rules.var_decl.get(name)
    if decl is None or parse_type(str(decl.get("type", ANY))) != ANY or typ == ANY:
        return f"declared {typ}"
    return f"{typ} (declared any, narrowed by an as:)"


def as_typed(S, typ: str, where: str, value):
    """``value``, held to type ``typ`` where the load cannot prove it of it (``as_declared``; a
    declared effect's argument, generated code's ``_argument``): itself, or the runtime error
    ``where``: what does not fit."""
    try:   # (its bounds kept by _stored, as the rule stores it: not walked again)
        check_value(value, typ, where, sizes_of(S.rules, S.n, len(S.members)), bounded=False)
    except Bad as e:   # (what a seat is told: no value of the game, expr/messages.py kind_of)
        raise ExprRuntimeError(str(e), "a value not of its declared type") from None
    return value


def as_whole(name: str, value, subject: str | None = None):
    """``value``, of type any, about to be stored in counter ``name`` or added to it or taken from
    it (a ``set``, a gain's, a lose's or a transfer's amount, its start): itself, or the runtime
    error of one that is no whole number (none too: a counter is never none), as a saved state's
    counters are held to (generated code calls it as ``_whole``). ``subject``: what the message
    says holds whole numbers, where it is no counter (a pay's ``any:`` with no counter to pay from)."""
    subject = subject or f"counter '{name}' holds whole numbers"
    try:
        need(value is not None, f"{subject}: expected a whole number, got none")
        check_value(value, INT, subject, {})
    except Bad as e:
        raise ExprRuntimeError(str(e), "a counter given no whole number") from None
    return value
