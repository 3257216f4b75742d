"""A ruleset's requirements (``requires:``): the conditions on a game's parameters, options and
player count that it must meet to start.

Each requirement is checked when a game starts (``Ruleset._start``: after its parameters, options
and teams are resolved, before its setup), and a game that fails one is refused as a player count
the ruleset is not for is: a ``Refused`` (a UsageError) saying its message, located at the
requirement. Its condition reads nothing of a game's state (building/requirements.py refuses one
that does), so it is evaluated on ``Seats``: the few values of a game that are fixed before it
starts. The same evaluation gives ``validate`` its warning for a player count whose default
values already fail one (``default_failures``).
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from ..errors import Location, Refused, UsageError
from ..expr.messages import describe
from ..expr.runtime import RUNTIME_ERRORS
from ..expr.textual import as_text
from .state import team_of_seat


class Placeholder(NamedTuple):
    fn: Callable                # the compiled expression of a {expr} in a message, f(S, me, L)
    card: bool                  # its value is a card (written as its label)
    text: str                   # the expression, as written


class Requirement(NamedTuple):
    fn: Callable                # the compiled condition, f(S, me, L)
    text: str                   # its text, as written
    message: str                # what a refusal says, as written ({expr} placeholders in it)
    loc: Location | None        # where it is written
    reads: tuple                # what it reads of a game (num_players, params.NAME...), in the order written
    pieces: tuple = ()          # the message: its texts, and a Placeholder for each {expr} (building/requirements.py)


class Seats:
    """What a requirement may read of a game about to start: its seats, teams, parameters and
    options (the names a blank state gives them, engine/state.py ``blank``)."""
    __slots__ = ("rules", "n", "players", "members", "teams", "tm", "p", "o")

    def __init__(self, rules, players: int, params: dict, options: dict, members):
        self.rules, self.n, self.players, self.p, self.o = rules, players, list(range(players)), params, options
        self.members = tuple(tuple(m) for m in members)
        self.teams = list(range(len(self.members)))
        self.tm = team_of_seat(self.members, players)


def unmet(rules, players: int, params: dict, options: dict, members) -> tuple[Requirement, str] | None:
    """The first requirement of ``rules`` a game of these values does not meet, with why: its
    message, or what went wrong evaluating it (a runtime error: the game is refused too)."""
    if not rules.requires:
        return None
    seats = Seats(rules, players, params, options, members)
    for req in rules.requires:
        try:
            met = req.fn(seats, None, None)
        except RUNTIME_ERRORS as e:
            return req, f"its condition could not be evaluated: {describe(e)}"
        if not met:
            return req, said(req, seats)
    return None


def said(req: Requirement, seats: Seats) -> str:
    """The message of a requirement a game fails, its placeholders filled in with their values
    as text() writes them; one that stops with a runtime error is left as written, and the error
    said after the message."""
    out, failed = [], ""
    for piece in req.pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        try:
            out.append(as_text(piece.fn(seats, None, None), seats.rules.card_labels if piece.card else None))
        except RUNTIME_ERRORS as e:
            out.append("{" + piece.text + "}")
            failed = failed or f" ({{{piece.text}}} could not be evaluated: {describe(e)})"
    return "".join(out) + failed


def check(rules, players: int, params: dict, options: dict, members) -> None:
    """Refuse (``Refused``) a game of ``rules`` with these values that fails a requirement."""
    found = unmet(rules, players, params, options, members)
    if found is None:
        return
    req, why = found
    variant = f" (variant {rules.variant})" if rules.variant else ""
    here = _values(req, players, params, options)
    raise Refused(f"{rules.name}{variant} refuses this game: {why}", req.loc,
                  hint=f"it requires {req.text}" + (f"; here {here}" if here else ""))


def default_failures(rules) -> list[tuple[Requirement, int, str]]:
    """(requirement, player count, why) for each player count whose default values (no
    parameter given, no option) fail a requirement: the first it fails."""
    out = []
    for n in rules.player_counts:
        try:
            params, members = rules.resolve_params(n, {}), rules.team_members(n)
        except UsageError:   # a count without a parameter's value or teams: refused for that already
            continue
        found = unmet(rules, n, params, {}, members)
        if found is not None:
            out.append((found[0], n, found[1]))
    return out


def _values(req: Requirement, players: int, params: dict, options: dict) -> str:
    """The values a requirement read of the game refused: "num_players is 10, params.ranks is 2";
    an option given in place of the parameter that is its default (``skill()``: the option skill,
    else params.skill) as the option: "the option skill is [0.4, 1.0]"."""
    given = {name[len("options."):] for name in req.reads
             if name.startswith("options.") and (options or {}).get(name[len("options."):]) is not None}
    shown = []
    for name in req.reads:
        kind, _, key = name.partition(".")
        if name == "num_players":
            shown.append(f"num_players is {players}")
        elif kind == "params" and key in params and key not in given:
            shown.append(f"{name} is {_plain(params[key])}")
        elif kind == "options" and key in given:
            shown.append(f"the option {key} is {_plain(options[key])}")
    return ", ".join(shown)


def _plain(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."
