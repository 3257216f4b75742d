"""A game as a list of positions a viewer steps through: read from a log, or played live.

Position 0 is the table after the setup; position k the table after the k-th decision,
with the log line that led to it (its events, told in words for the seat watching). A live
game (``LiveGame``) grows as its seats decide: the browser chooses for the human seats,
agents for the others, and every position stays reviewable.

A position's state is not kept for every position (a state of 100,000 cards is megabytes):
``Positions`` keeps every line, a state every ``CHECKPOINT`` positions, and replays the
decisions from the nearest one to answer any other.
"""
from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING

from ..errors import GameError
from ..play.agents import make_agents, needs_knowledge, parse_spec
from ..play.logs.gamelog import LogFull, LogWriter, agent_choice, ending, events_out, header, logged_decision
from ..play.display.narrate import choice, event as tell_event, owners, tell, told
from ..play.logs.redact import Redactor
from ..play.logs.replay import replay
from ..play.display.table import Table

if TYPE_CHECKING:
    from ..engine.state import State


CHECKPOINT = 64


class NotYours(GameError):
    """A client asked for a seat that is not its own (the server answers 403)."""


class Stale(GameError):
    """A move that answers another position than the current one (the server answers 409)."""


class Positions:
    """(log line, state) of each position, as a list (``append``, ``len``, an index, a slice):
    every line, and the state of every ``every``-th position, of a line that is not a decision
    (an error: the game's last) and of the latest; another position's state is its checkpoint's
    clone with the decisions since applied again (the game is deterministic: its chance is in
    the state). The last state rebuilt is kept, so stepping on costs one decision."""
    latest: State   # the state of the last position (set by the first append: read only after it)

    def __init__(self, every: int = CHECKPOINT):
        self.every = every
        self.lines: list[dict] = []
        self.states: dict = {}
        self.chosen: dict = {}   # position: the option index taken, where known (a live game)
        self.cache: tuple[int, State] | None = None   # (position, state) last rebuilt

    def append(self, item, index: int | None = None) -> None:
        line, S = item
        k = len(self.lines)
        self.lines.append(line)
        if index is not None:
            self.chosen[k] = index
        if k % self.every == 0 or line.get("type") != "decision":
            self.states[k] = S
        self.latest = S

    def __len__(self) -> int:
        return len(self.lines)

    def __iter__(self):
        return iter(self[:])

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [(self.lines[at], self.state(at)) for at in range(*k.indices(len(self.lines)))]
        if k < 0:
            k += len(self.lines)
        if not 0 <= k < len(self.lines):
            raise IndexError(k)
        return self.lines[k], self.state(k)

    def state(self, k: int):
        """The state at position ``k`` (kept here too: read it, do not change it)."""
        if k == len(self.lines) - 1:
            return self.latest
        if k in self.states:
            return self.states[k]
        base = k - k % self.every
        if self.cache is not None and base <= self.cache[0] <= k:
            base, S = self.cache
        else:
            S = self.states[base]
        S = S.clone()
        for at in range(base + 1, k + 1):   # decision lines (the others' states are kept)
            S.apply(self.chosen[at] if at in self.chosen else self.lines[at]["action"])
        self.cache = (k, S)
        return S


class GameView:
    """Positions (log line, state) of one game, and how each looks from a seat."""
    mode = "log"

    def __init__(self, rules, positions: Positions, humans=()):
        self.rules = rules
        self.table = Table(rules)
        self.positions = positions
        self.n, self.members = positions.latest.n, positions.latest.members
        self.owners = owners(rules, self.members)   # a team's things named as the team's
        self.humans = list(humans)
        self.lock = threading.Lock()
        self.error: str | None = None

    def describe(self) -> dict:
        S = self.positions[-1][1]
        return {"mode": self.mode, "ruleset": self.rules.name, "title": self.rules.title,
                "variant": self.rules.variant, "players": S.n, "humans": self.humans,
                "length": len(self.positions), "over": S.over, "error": self.error}

    def seat_of(self, value, mine: list | None = None):
        """'all', None (a spectator) or a seat number, from a query string. A live game shows
        its client only its own seats (``mine``: the seats its token plays; None: every human
        seat) and the spectator's view (NotYours)."""
        if value in (None, "", "spectator"):
            return None
        if value == "all":
            if self.mode != "log":
                raise NotYours("'all' shows hidden cards: only for reading a log")
            return "all"
        if not (isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 6):
            raise GameError(f"no seat {str(value)[:20]!r}")
        seat = int(value)
        if not 0 <= seat < self.n:
            raise GameError(f"no seat {seat} in a game of {self.n} players")
        mine = self.humans if mine is None else mine
        if self.mode == "play" and seat not in mine:
            raise NotYours(f"seat {seat} is not yours: this page plays seat{'s' if len(mine) > 1 else ''} "
                           f"{', '.join(map(str, mine)) or 'none'} (or watches as a spectator)")
        return seat

    def view(self, at: int, seat) -> dict:
        """The table at position ``at`` as ``seat`` sees it, with what led there in words."""
        at = max(0, min(at, len(self.positions) - 1))
        line, S = self.positions[at]
        lines = self.positions.lines
        me = None if seat == "all" else seat
        shown = line if seat == "all" else Redactor(self.rules, seat, self.members).line(line)
        out = self.table.render(S, seat)
        if self.humans:   # what the others did since this seat (a spectator: a human seat) last decided, in words
            out["since"] = self._since(at, seat, me)
        if at + 1 < len(lines):   # what was chosen here, as this seat may know it
            following = lines[at + 1]
            if seat != "all":
                following = Redactor(self.rules, seat, self.members).line(following)
            out["chosen"] = following.get("action")
        said, summary = told(shown, me, self.owners)   # (the summary drawn as a table, not said)
        out.update(at=at, length=len(self.positions), mode=self.mode, humans=self.humans, summary=summary,
                   line=_line(shown), said=" ".join(said) or choice(shown, me, self.owners),
                   events=[{"text": text, "cards": cards_of(ev)} for ev in shown.get("events") or ()
                           if (text := tell_event(ev, me, self.owners))])
        return out


    def _since(self, at: int, seat, me) -> list[str]:
        lines = self.positions.lines
        own = [seat] if seat in self.humans else self.humans   # (the other human seats: other people)
        first = at
        while first > 1 and lines[first - 1].get("seat") not in own:
            first -= 1
        out: list[str] = []
        known: dict = {}   # (told in order: a set to what was told is not told again)
        for line in lines[max(1, first):at + 1]:
            shown = line if seat == "all" else Redactor(self.rules, seat, self.members).line(line)
            said = tell(shown, me, self.owners, known) or choice(shown, me, self.owners)
            if said:
                out.append(said)
        return out


class LogView(GameView):
    """A full log, replayed and verified (a redacted log cannot be: it lacks hidden choices;
    web/timeline.py shows it as its seat saw it). Its positions' lines are the replay's, not the
    log's (replay.py ``_replayed``): a seat is told what the replay hides, whatever the log's
    format lacks."""

    def __init__(self, path, ruleset=None):
        positions = Positions()
        replay(path, ruleset, positions)
        super().__init__(positions.latest.rules, positions)


class LiveGame(GameView):
    """A game being played: ``human`` seats decide in the browser, agents decide the others."""
    mode = "play"

    def __init__(self, rules, players: int, seed: int, agents: str, options: dict | None = None,
                 log=None, force: bool = False):
        """``log``: a path (or text stream) the game's log is written to as it is played, line
        by line (an existing file only with ``force``): ``rulebook replay`` and ``view`` read it."""
        specs = parse_spec(agents)
        humans = [i for i, (name, _) in enumerate(specs if len(specs) > 1 else specs * players)
                  if name == "human"]
        self.agents = make_agents(agents, players, seed)
        S = rules.new_game(players, seed, options, record=True, knowledge=needs_knowledge(self.agents))
        setup = {"type": "events", "events": events_out(rules, S.ev)}
        self.kept = S.ev.kept()   # the game's events its positions keep (MAX_GAME_EVENTS, their size)
        S.ev = None
        positions = Positions()
        positions.append((setup, S.clone()))
        super().__init__(rules, positions, humans)
        self.state = S
        self.log = None
        self.names = [getattr(a, "name", type(a).__name__) for a in self.agents]
        if log is not None:
            self.log = LogWriter(log, None, force)
            self._write(header(rules, players, seed, self.names, dict((options or {}).get("params") or {}),
                               json.loads(json.dumps(S.o))))
            self._write(setup)
        if S.over:   # (over before its first decision)
            self._ended()
        self.run_agents()

    def _write(self, line: dict) -> None:
        if self.log is not None:
            try:
                self.log.write(line)
            except LogFull as e:   # (the log ended with a stopped line: the game stops with it)
                self.error, self.log = e.summary or e.message, None
                return
            if self.log.f is not None:
                self.log.f.flush()   # a game stopped at any point keeps every decision made

    def stop(self) -> None:
        """The server stops: a game not over ends its log with a ``stopped`` line (play/logs/gamelog.py)."""
        if self.log is not None:
            self._write({"type": "stopped", "decisions": len(self.positions) - 1})
            self.log.close()
            self.log = None

    def waiting_for(self):
        S = self.state
        return None if S.over or self.error else S.current_player()

    def act(self, seat: int, index: int, at: int, mine: list | None = None) -> None:
        """The human at ``seat`` takes option ``index`` of the pending decision; then the agents
        play. ``at``: the position the move answers (the page's; ``len(positions) - 1`` for the
        latest), always named: another one is refused (Stale), so a move sent twice is played
        once, from the page (``POST /api/act``) as from Python. ``mine``: the seats the client
        may play (its token's; None: every human seat)."""
        S = self.state
        if at is None:
            raise GameError('a move names the position it answers: {"seat": S, "index": I, "at": K}, K the position '
                            "the move answers (the latest: the length of the game's positions less one)")
        for name, value in (("seat", seat), ("index", index), ("at", at)):
            if type(value) is not int:   # (not 0.0 for 0, nor true for 1)
                raise GameError(f"{name} is a whole number, not {json.dumps(value, default=repr)[:20]}")
        if seat not in self.humans:
            raise NotYours(f"seat {seat} is not played here (the human seats: {self.humans})")
        if mine is not None and seat not in mine:
            raise NotYours(f"seat {seat} is another person's: this page plays seat{'s' if len(mine) > 1 else ''} "
                           f"{', '.join(map(str, mine)) or 'none'}")
        if at != len(self.positions) - 1:
            raise Stale(f"this move answers position {at}, but the game is at position {len(self.positions) - 1}")
        if self.error or S.over:
            raise GameError("the game is over")
        if S.current_player() != seat:
            raise GameError(f"it is not seat {seat}'s decision (seat {S.current_player()} decides)")
        if not 0 <= index < len(S.dec[1]):
            raise GameError(f"no option {index} (options 0 to {len(S.dec[1]) - 1})")
        self._decide(index)
        self.run_agents()

    def run_agents(self, limit: int = 100_000) -> None:
        """Let the agents decide until a human seat must, or the game ends."""
        S = self.state
        while limit and not S.over and not self.error and S.current_player() not in self.humans:
            seat = S.current_player()
            i, failed = agent_choice(self.agents[seat], self.names[seat], S, seat, len(self.positions))
            if failed is not None:   # the agent failed, not the rules: the game ends with its error line
                self.positions.append((failed[0], S.clone()))
                self._write(failed[0])
                self._ended(*failed)
                return
            self._decide(i)
            limit -= 1

    def _decide(self, index: int) -> None:
        S = self.state
        line, error = logged_decision(self.rules, S, index, len(self.positions), before=self.kept)
        self.kept = S.ev.kept()
        S.ev = None
        self.positions.append((line, S.clone()), index)
        self._write(line)
        self._ended(line, error)

    def _ended(self, line: dict | None = None, error=None) -> None:
        """After a decision (``line``, and ``error`` if the rules failed on it) or a start that
        ended the game: a game over gets its result, or the error of its scoring (a position of
        its own, as a log's last line: gamelog.ending); a game ended closes its log."""
        S = self.state
        if error is None and S.over:
            line, error = ending(S, len(self.positions) - 1)
            self._write(line)
            if error is not None:
                self.positions.append((line, S.clone()))
        if error is not None and line is not None:   # (shown to every client: as a spectator reads the line)
            self.error = Redactor(self.rules, None, self.members).line(line)["message"]
        if (S.over or error is not None) and self.log is not None:
            self.log.close()
            self.log = None


def _line(line: dict) -> dict:
    return {k: line.get(k) for k in ("type", "n", "seat", "prompt", "action", "message") if k in line}


def cards_of(ev: dict) -> list:
    listed = ev.get("cards")
    cards = listed if isinstance(listed, list) else []
    return [str(c) for c in cards] + ([str(ev["card"])] if isinstance(ev.get("card"), str) else []) + (
        [str(ev["space"])] if isinstance(ev.get("space"), str) else [])
