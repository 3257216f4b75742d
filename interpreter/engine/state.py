"""The State of one game: plain data, cheap to clone, JSON round-trippable.

Everything that changes during a game is in a State: zones, counters, variables, the RNG,
and where the game is in its flow (a stack of small frames, one per running step). The
compiled Ruleset is referenced for behaviour but is not part of the data.
"""
from __future__ import annotations

import hashlib
import json
import sys
from typing import TYPE_CHECKING

from . import loop as engine

if TYPE_CHECKING:
    from .ruleset import Ruleset

FORMAT = 1


class State:
    """One game in progress. The short names are read by generated code at every step."""

    __slots__ = ("rules", "seed", "n", "players", "teams", "tm", "members", "p", "o",
                 "z", "c", "v", "rng", "stack", "dec", "over", "steps", "ev", "kn", "sh")
    # --- fixed for the game
    rules: Ruleset                 # the compiled rules (behaviour, not data)
    seed: int                      # the game's seed: a secret, never shown to a seat
    n: int                         # the number of seats
    players: list[int]             # the seats 0..n-1, as the language's list value (never mutated)
    teams: list[int]               # the teams 0..t-1, likewise
    tm: tuple[int, ...]            # seat -> its team
    members: tuple[tuple[int, ...], ...]   # team -> its seats
    p: dict                        # parameter values in effect
    o: dict                        # game options in effect (skill, resolve...)
    # --- what changes
    z: dict                        # zone -> its cards: a list, a list per owner, or a dict per card
    c: dict                        # counter -> its value, or a list of values per owner
    v: dict                        # variable -> its value
    rng: int                       # the RNG's state (engine/rng.py): a secret, like the seed
    stack: list[list]              # the running steps' frames, outermost first; frame[0] is the step index
    dec: tuple | None              # the pending decision (seat, options), or None
    over: bool                     # the game has ended
    steps: int                     # budget units spent (engine/loop.py)
    ev: list | None                # the events since the caller last took them, when recording
    kn: dict | None                # card -> the seats that know where it is (engine/knowledge.py), if kept
    sh: set                        # zones and counters still shared with a clone (copied on write)

    # ------------------------------------------------------------------ the game API
    def current_player(self) -> int:
        """The seat that must decide now, or -1 when the game is over."""
        return -1 if self.dec is None else self.dec[0]

    def legal_actions(self) -> list[str]:
        """The labels of the options of the pending decision, in a stable order."""
        if self.dec is None:
            return []
        return self.rules.steps[self.stack[-1][0]].labels(self, self.dec[1])

    def prompt(self) -> str | None:
        if self.dec is None:
            return None
        return self.rules.steps[self.stack[-1][0]].prompt

    def apply(self, action) -> "State":
        """Take the option with this label (str) or index (int); mutates and returns self."""
        engine.apply(self, action)
        return self

    # take option i of the pending decision; mutates and returns self
    apply_index = engine.apply_index

    def is_terminal(self) -> bool:
        return self.over

    def scores(self) -> list:
        return self.rules.scoring.scores(self)

    def breakdown(self) -> list[dict]:
        return self.rules.scoring.breakdown(self)

    def winners(self) -> list[int]:
        return self.rules.scoring.winners(self) if self.over else []

    def observation(self, player: int | None) -> dict:
        """What seat ``player`` may see; None: what a spectator sees (only what is public)."""
        if player is not None and (not isinstance(player, int) or isinstance(player, bool)
                                   or not 0 <= player < self.n):
            from ..errors import GameError
            raise GameError(f"no seat {player!r} in a game of {self.n} players (seats 0..{self.n - 1}, "
                            "or None for a spectator)")
        from .observation import observe
        return observe(self, player)

    # ------------------------------------------------------------------ plain data
    def clone(self) -> "State":
        """An independent copy. Zones and counters are copied on write: the two states share
        their lists (each names them in ``sh``) until one of them writes one, and every writer
        asks for its own copy first (``own``); a zone owned by each card is copied now."""
        new = State.__new__(State)
        new.rules, new.seed, new.n, new.players, new.teams = self.rules, self.seed, self.n, self.players, self.teams
        new.tm, new.members, new.p, new.o = self.tm, self.members, self.p, self.o
        z = new.z = self.z.copy()
        for name in self.rules.card_zones:
            z[name] = {c: part[:] for c, part in z[name].items() if part}
        new.c = self.c.copy()
        new.v = self.v.copy()
        new.rng, new.dec, new.over, new.steps = self.rng, self.dec, self.over, self.steps
        new.stack = [f[:] for f in self.stack]   # frame contents are replaced, never mutated
        new.ev = None
        new.kn = None if self.kn is None else self.kn.copy()
        shared = self.rules.shared_on_clone
        self.sh = set(shared)
        new.sh = set(shared)
        return new

    def own(self, name: str) -> list:
        """The list of zone or counter ``name`` to write into: this state's own, copied first if
        it is still shared with a clone (see clone). Every write to a zone's or an owned
        counter's list comes after it: generated code starts a function that writes tables in
        place with ``if S.sh: S.own(...)`` for each (expr/names.py ``owning``, or ``writable``
        in place), Python steps call it (behind ``if S.sh``: a state never cloned shares nothing)."""
        z = self.z
        if name not in self.sh:
            return z[name] if name in z else self.c[name]
        self.sh.discard(name)
        if name in z:
            zone = z[name]
            zone = z[name] = zone[:] if self.rules.zone_owner[name] == "none" else list(map(list.copy, zone))
            return zone
        counter = self.c[name] = self.c[name][:]
        return counter

    def own_all(self) -> "State":
        """Every zone and counter this state's own (before a writer that touches many: a
        determinization, a playout), in one pass when all are shared (just cloned)."""
        sh = self.sh
        if len(sh) < len(self.rules.shared_on_clone):
            for name in tuple(sh):
                self.own(name)
            return self
        z, c = self.z, self.c
        for name, shape in self.rules.zone_shapes:
            if shape == 0:
                z[name] = z[name][:]
            elif shape == 1:
                z[name] = list(map(list.copy, z[name]))
        for name in self.rules.owned_counters:
            c[name] = c[name][:]
        sh.clear()
        return self

    def determinize(self, player: int, rng) -> "State":
        """A full state consistent with everything ``player`` may know, the rest dealt again at
        random with ``rng`` (a ``random.Random``), its seed and RNG drawn from ``rng`` too (never
        the game's: they are secrets); see engine/knowledge.py."""
        if not (type(player) is int and 0 <= player < self.n):
            from ..errors import GameError
            raise GameError(f"no seat {player!r} to determinize for in a game of {self.n} players "
                            f"(seats 0..{self.n - 1})")
        from .knowledge import determinize
        return determinize(self, player, rng)

    def to_dict(self) -> dict:
        return {
            "format": FORMAT, "ruleset": self.rules.name, "hash": self.rules.hash,
            "seed": self.seed, "players": self.n, "teams": [list(m) for m in self.members],
            "params": self.p, "options": self.o,
            "zones": {name: ({c: part for c, part in sorted(zone.items()) if part} if isinstance(zone, dict) else zone)
                      for name, zone in self.z.items()},
            "counters": self.c, "vars": self.v, "rng": self.rng,
            "stack": self.stack, "decision": None if self.dec is None else [self.dec[0], list(self.dec[1])],
            "over": self.over, "steps": self.steps,
            "known": None if self.kn is None else {str(c): m for c, m in sorted(self.kn.items())},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def _key(self):
        return self.to_json()

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self._key() == other._key()

    def __hash__(self) -> int:
        return int(self.digest()[:15], 16)

    def digest(self) -> str:
        """A stable hash of the state's data, the same on every machine."""
        return hashlib.sha256(self.to_json().encode()).hexdigest()

    def __repr__(self) -> str:
        return f"<State {self.rules.name} players={self.n} steps={self.steps} over={self.over}>"


def interned(table: dict) -> dict:
    """``table`` keyed by the one object of each name (``sys.intern``), as the generated code's
    constants are: its lookups (``S.c['coins']``) then match a key by identity, without
    comparing characters (docs/performance.md)."""
    return {sys.intern(k): v for k, v in table.items()}


def blank(rules, n: int, seed: int, params: dict, options: dict, members: tuple) -> State:
    """A State with the per-game constants filled in and nothing else."""
    s = State.__new__(State)
    s.rules, s.seed, s.n = rules, seed, n
    s.players = list(range(n))   # values of the language: lists (`players + [me]`), never mutated
    s.members = tuple(tuple(m) for m in members)
    s.teams = list(range(len(s.members)))
    tm = [0] * n
    for t, ms in enumerate(s.members):
        for p in ms:
            tm[p] = t
    s.tm = tuple(tm)
    s.p, s.o = interned(params), options
    s.z, s.c, s.v = {}, {}, {}
    s.rng, s.stack, s.dec, s.over, s.steps, s.ev, s.kn = 0, [], None, False, 0, None, None
    s.sh = set()   # nothing shared (State.clone)
    return s


def from_dict(rules, d: dict) -> State:
    s = blank(rules, d["players"], d["seed"], d["params"], d["options"], d["teams"])
    s.z, s.c, s.v, s.rng = interned(d["zones"]), interned(d["counters"]), interned(d["vars"]), d["rng"]
    for name, zone in s.z.items():   # a zone per card: JSON wrote its keys as text
        if isinstance(zone, dict):
            s.z[name] = {int(c): list(part) for c, part in zone.items()}
    s.stack = [list(f) for f in d["stack"]]
    dec = d["decision"]
    s.dec = None if dec is None else (dec[0], tuple(dec[1]))
    s.over, s.steps = d["over"], d["steps"]
    known = d.get("known")
    s.kn = None if known is None else {int(c): m for c, m in known.items()}
    return s
