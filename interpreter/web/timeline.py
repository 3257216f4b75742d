"""A log redacted for one seat, as that seat saw the game: a timeline of what happened.

A redacted log (``play --log-for SEAT``, ``redact``) cannot be replayed: the other seats'
hidden choices and cards are not in it, so there is no table to draw. What it holds is what
the seat saw happen, and that is what the viewer shows: position 0 is the setup, position k the
k-th decision; each is told in words (play/display/narrate.py, which tells a redacted line no more
than it holds), with its events one by one, the whole story beside it, and the result at the end.
"""
from __future__ import annotations

import threading

from ..errors import GameError, ReplayError
from ..play.display.narrate import choice, event as tell_event, owners, tell
from ..play.logs.redacted import read_redacted
from ..play.logs.replay import log_lines
from .games import LogView, cards_of


class TimelineView:
    """The lines of a redacted log, and how each reads for the seat it was redacted for."""
    mode = "timeline"
    humans: list = []

    def __init__(self, path, ruleset=None):
        self.rules, head, numbered = read_redacted(path, ruleset)
        self.seat, self.players = head["redacted_for"], head["players"]   # (not its seed: a secret)
        lines = [line for _, line in numbered]
        self.ending = lines[-1] if lines and lines[-1]["type"] in ("result", "error", "stopped") else None
        self.positions = [line for line in lines if line["type"] in ("events", "decision")] or [{"type": "events"}]
        if self.ending is not None and self.ending["type"] == "error":
            self.positions.append(self.ending)
        self.owners = owners(self.rules, self.rules.team_members(self.players))
        told = {id(line): no for no, line in numbered}
        self.story = []
        known: dict = {}   # (told in order: a set to what the story last told is not told again)
        for line in self.positions:   # told once now: a line the words cannot be made of is refused here
            try:
                self.story.append(self._said(line, known))
                for ev in line.get("events") or ():
                    tell_event(ev, self.seat, self.owners)
            except (TypeError, ValueError, AttributeError, KeyError, IndexError) as e:
                raise ReplayError(f"{path}: line {told.get(id(line), '?')}: an event of this line cannot be told "
                                  f"({type(e).__name__}: {e}); was the log edited?") from None
        self.lock = threading.Lock()
        self.error = self.ending.get("message") if self.ending is not None and self.ending["type"] == "error" else None
        self._ended = self.ending is not None and self.ending["type"] != "stopped"   # (a game stopped is not over)

    def _said(self, line: dict, known: dict) -> str:
        said = tell(line, self.seat, self.owners, known) or choice(line, self.seat, self.owners)
        if said:
            return said
        return "The game is set up." if line.get("type") == "events" else str(line.get("message", ""))

    def describe(self) -> dict:
        return {"mode": self.mode, "ruleset": self.rules.name, "title": self.rules.title,
                "variant": self.rules.variant, "players": self.players, "humans": [], "seat": self.seat, "length": len(self.positions),
                "over": self._ended, "error": self.error}

    def seat_of(self, value, mine=None):
        """The log's own seat: it holds what that seat saw, and no other view of the game."""
        if value in (None, "", "spectator", "all", str(self.seat)):
            return self.seat
        raise GameError(f"this log holds what seat {self.seat} saw: it is shown as seat {self.seat} sees it")

    def view(self, at: int, seat=None) -> dict:
        at = max(0, min(at, len(self.positions) - 1))
        line = self.positions[at]
        out = {"mode": self.mode, "title": self.rules.title, "variant": self.rules.variant,
               "at": at, "length": len(self.positions), "seat": self.seat, "humans": [],
               "said": self.story[at], "story": self.story,
               "line": {k: line.get(k) for k in ("type", "n", "seat", "prompt", "action", "message") if k in line},
               "events": [{"text": text, "cards": cards_of(ev)} for ev in line.get("events") or ()
                          if (text := tell_event(ev, self.seat, self.owners))],
               "over": self._ended and at == len(self.positions) - 1}
        if out["over"] and self.ending is not None and self.ending["type"] == "result":   # (over: it is)
            out["result"] = {"scores": self.ending.get("scores"), "winners": self.ending.get("winners") or [],
                             "breakdown": self.ending.get("breakdown")}
        return out


def open_log(path, ruleset=None):
    """The viewer's game of a log: a full log replayed and verified (its tables, position by
    position), a log redacted for a seat as that seat's timeline."""
    if "redacted_for" in next(log_lines(path))[1]:   # (its header: the first line read alone)
        return TimelineView(path, ruleset)
    return LogView(path, ruleset)
