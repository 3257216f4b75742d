"""Reading a log redacted for one seat (``play --log-for``, ``redact``): it keeps no seed, so it
is read and checked line by line (``read_redacted``), never replayed (replay.py); what the viewer
keeps of it (web/timeline.py) is bounded by what a game's redacted log holds."""
from __future__ import annotations

from sys import intern

from ...errors import ReplayError, figure
from .gamelog import LINE_FIELDS, OLDER
from .replay import read_headed, rules_of


def read_redacted(path, ruleset=None) -> tuple:
    """(the ruleset, the header, (line number, line) for each line after it) of a log redacted for one seat
    (``play --log-for``, ``redact``): read and checked line by line, not replayed (its hidden
    choices are gone): a setup line first, then decisions, then a result or an error line, each
    as the writer writes one (``_redacted_line``: what the timeline keeps is what a game's holds)."""
    where, lines, head = read_headed(path, replaying=False)
    seat = head.get("redacted_for")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < head["players"]:
        raise ReplayError(f"{where}: line 1: not a log redacted for a seat of the game "
                          f"(redacted_for: {seat!r}, {head['players']} players)")
    rules = rules_of(head, where, ruleset)
    body: list = []
    ended, decisions = None, 0   # (the line that ended the game; the decisions read)
    for no, obj in lines:   # (each checked as it is read: a line refused is never kept)
        kind = obj["type"]
        if ended is not None:
            raise ReplayError(f"{where}: line {no}: a '{kind}' line after the {ended[1]} line (line {ended[0]})")
        if kind == "events" and body:
            raise ReplayError(f"{where}: line {no}: an events line after the first decision")
        if kind not in ("events", "decision", "result", "error", "stopped"):
            raise ReplayError(f"{where}: line {no}: unknown line type {kind!r}")
        ended = (no, kind) if kind in ("result", "error", "stopped") else None
        decisions += kind == "decision"
        if decisions > rules.max_steps:   # (each question a game asks counts a step of its budget)
            raise ReplayError(f"{where}: line {no}: more decisions than the game's step budget of "
                              f"{figure(rules.max_steps)} allows (each counts one): not read; was the log edited?")
        _redacted_line(obj, f"{where}: line {no}", decisions, head)
        body.append((no, {k: intern(v) if k in _SHARED and type(v) is str else v for k, v in obj.items()}))
    return rules, head, body


_SHARED = ("type", "prompt", "action")   # (texts many lines repeat: each kept once)
_TYPED = {"n": int, "seat": int, "prompt": str, "action": str}   # (a decision's fields beside its events)


def _redacted_line(obj: dict, where: str, n: int, head: dict) -> None:
    """A redacted log's line (``where``: "PATH: line N"), refused unless it has the fields the writer
    writes on a line of its kind and no other (gamelog.LINE_FIELDS), a decision's of their types:
    the ``n``-th, of a seat of the game (an older format's may lack ``n``, ``prompt``, ``events``)."""
    kind = obj["type"]
    extra = sorted(obj.keys() - LINE_FIELDS.get(kind, obj.keys()))
    if extra:
        raise ReplayError(f"{where}: the {kind} line has {', '.join(map(repr, extra))}, which no writer writes on one")
    if kind == "decision":
        needed = ("seat", "action") if head["format"] in OLDER else (*_TYPED, "events")
        for key in (k for k in (*_TYPED, "events") if k in obj or k in needed):
            typ = _TYPED.get(key, list)
            if not isinstance(obj.get(key), typ) or isinstance(obj.get(key), bool):
                raise ReplayError(f"{where}: the decision has no valid '{key}'")
        if "n" in obj and obj["n"] != n or not 0 <= obj["seat"] < head["players"]:
            raise ReplayError(f"{where}: decision {obj.get('n')!r} of seat {obj['seat']}: not decision {n} of a seat")
    events = obj.get("events", [])
    if not isinstance(events, list) or not all(isinstance(ev, dict) for ev in events):
        raise ReplayError(f"{where}: its 'events' is not a list of events")
    if kind == "result" and not (isinstance(obj.get("scores"), list) and isinstance(obj.get("winners"), list)
                                 and all(isinstance(w, int) and not isinstance(w, bool) for w in obj["winners"])):
        raise ReplayError(f"{where}: the result line has no list of scores and of winning seats")
