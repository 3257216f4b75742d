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

from . import loop as engine, voids
from ..errors import digits
from ..expr.names import RECORD, VIEWS
from .layout import Tables

if TYPE_CHECKING:
    from .ruleset import Ruleset

FORMAT = 1


class State:
    """One game in progress. The short names are read by generated code at every step."""

    __slots__ = ("rules", "seed", "n", "players", "teams", "tm", "members", "p", "o", "cap",
                 "rng", "stack", "dec", "over", "steps", "ev", "kn", "vd", "sh")
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
    cap: dict | None               # zone -> its max: in this game, evaluated as it starts (engine/capacity.py);
                                   # None where no zone has one
    # --- what changes: each zone, counter and variable in a slot of the ruleset's State class
    # (engine/layout.py), and these
    rng: int                       # the RNG's state (engine/rng.py): a secret, like the seed
    stack: list[list]              # the running steps' frames, outermost first; frame[0] is the step index
    dec: tuple | None              # the pending decision (seat, options), or None
    over: bool                     # the game has ended
    steps: int                     # budget units spent (engine/loop.py)
    ev: list | None                # the events since the caller last took them, when recording
    kn: dict | None                # card -> the seats that know where it is (engine/knowledge.py), if kept
    vd: tuple                      # the cards hands were seen to hold none of (engine/voids.py), kept with kn
    sh: set                        # zones and counters still shared with a clone (copied on write)
    at: list                       # card -> its zone's code, where the ruleset keeps a record (engine/layout.py reindex)
    vw: list                       # the views: each union's cards in card order, where it keeps any (likewise)

    # ------------------------------------------------------------------ the tables by name
    # (engine/layout.py: a dict read from the slots, its assignments written to them)
    @property
    def z(self) -> Tables:
        """Zone -> its cards: a list, a list per owner, or a dict per card."""
        return self.rules.layout.zones_of(self)

    @property
    def c(self) -> Tables:
        """Counter -> its value, or a list of values per owner."""
        return self.rules.layout.counters_of(self)

    @property
    def v(self) -> Tables:
        """Variable -> its value (and the when-triggers' last values, once checked)."""
        return self.rules.layout.vars_of(self)

    # one table by name, for Python steps (no dict of them all)
    def zone(self, name: str):
        return getattr(self, self.rules.layout.zones[name])

    def counter(self, name: str):
        return getattr(self, self.rules.layout.counters[name])

    def set_counter(self, name: str, value) -> None:
        setattr(self, self.rules.layout.counters[name], value)

    def var(self, name: str):
        return getattr(self, self.rules.layout.vars[name])

    def set_var(self, name: str, value) -> None:
        setattr(self, self.rules.layout.vars[name], value)
        if self.kn:   # nobody knows the value it had (engine/knowledge.py)
            self.kn.pop(name, None)

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

    def apply_index(self, i: int) -> "State":
        """Take option ``i`` of the pending decision (the fast path for agents and playouts);
        mutates and returns self. Each ruleset's State class has its own in place of this one,
        written for its rules beside its game loop (building/decision.py)."""
        return self.rules.apply_index(self, i)

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
        asks for its own copy first (``own``); a zone owned by each card is copied now. Each
        ruleset's State class writes its own (engine/layout.py)."""
        raise NotImplementedError("a State is made by its ruleset (Ruleset.new_game)")

    def own(self, name: str) -> list:
        """The list of zone or counter ``name`` to write into: this state's own, copied first if
        it is still shared with a clone (see clone). Every write to a zone's or an owned
        counter's list comes after it: generated code starts a function that writes tables in
        place with ``if S.sh: S.own(...)`` for each (expr/names.py ``owning``, or ``writable``
        in place), Python steps call it (behind ``if S.sh``: a state never cloned shares nothing)."""
        at = self.rules.layout.of[name]
        if name not in self.sh:
            return getattr(self, at)
        self.sh.discard(name)
        table = getattr(self, at)
        # (a zone per player or team, and the views, a list of lists: each list copied)
        table = table[:] if self.rules.zone_owner.get(name, "none") == "none" and name != VIEWS \
            else list(map(list.copy, table))
        setattr(self, at, table)
        return table

    def own_all(self) -> "State":
        """Every zone and counter this state's own (before a writer that touches many: a
        determinization, a playout), in one pass when all are shared (just cloned)."""
        sh = self.sh
        if len(sh) < len(self.rules.shared_on_clone):
            for name in tuple(sh):
                self.own(name)
            return self
        at = self.rules.layout.of
        for name, shape in self.rules.zone_shapes:
            if shape == 0:
                setattr(self, at[name], getattr(self, at[name])[:])
            elif shape == 1:
                setattr(self, at[name], list(map(list.copy, getattr(self, at[name]))))
        for name in self.rules.owned_counters:
            setattr(self, at[name], getattr(self, at[name])[:])
        if RECORD in sh:   # the record of each card's zone (engine/layout.py reindex)
            setattr(self, at[RECORD], self.at[:])   # (a slot of the ruleset's State class alone)
        if VIEWS in sh:
            setattr(self, at[VIEWS], list(map(list.copy, self.vw)))
        sh.clear()
        return self

    def determinize(self, player: int, rng, flaws: list | None = None) -> "State":
        """A full state consistent with everything ``player`` may know, the rest dealt again at
        random with ``rng`` (a ``random.Random``), its seed and RNG drawn from ``rng`` too (never
        the game's: they are secrets), dealt again where it breaks the ruleset's invariants
        (``flaws`` receives the text of the one a world kept after ``WORLD_TRIES`` deals still
        breaks); see engine/knowledge.py."""
        if not (type(player) is int and 0 <= player < self.n):
            from ..errors import GameError
            raise GameError(f"no seat {player!r} to determinize for in a game of {self.n} players "
                            f"(seats 0..{self.n - 1})")
        from .knowledge import determinize
        return determinize(self, player, rng, flaws)

    def to_dict(self) -> dict:
        d = {
            "format": FORMAT, "ruleset": self.rules.name, "hash": self.rules.hash,
            "seed": self.seed, "players": self.n, "teams": [list(m) for m in self.members],
            "params": self.p, "options": self.o,
            "zones": {name: ({c: part for c, part in sorted(zone.items()) if part} if isinstance(zone, dict) else zone)
                      for name, zone in self.z.items()},
            "counters": self.c.copy(), "vars": self.v.copy(), "rng": self.rng,
            "stack": self.stack, "decision": None if self.dec is None else [self.dec[0], list(self.dec[1])],
            "over": self.over, "steps": self.steps,
            "known": None if self.kn is None else {str(k): m for k, m in sorted(self.kn.items(), key=_known_order)},
        }
        if self.vd:   # (only when there are any: a state without them is written as before)
            d["voids"] = voids.to_json(self.vd)
        return d

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
    constants are: its lookups of a parameter then match a key by identity, without comparing
    characters (docs/performance.md). Zones, counters and variables have slots instead."""
    return {sys.intern(k): v for k, v in table.items()}


def team_of_seat(members: tuple, n: int) -> tuple:
    """Each seat's team, from the teams' members."""
    tm = [0] * n
    for t, ms in enumerate(members):
        for seat in ms:
            tm[seat] = t
    return tuple(tm)


def blank(rules, n: int, seed: int, params: dict, options: dict, members: tuple, cap: dict | None = None) -> State:
    """A State with the per-game constants filled in and nothing else (``cap``: the zones' maxes
    for these values, engine/capacity.py ``starts``)."""
    s = rules.layout.cls.__new__(rules.layout.cls)
    s.rules, s.seed, s.n = rules, seed, n
    s.players = list(range(n))   # values of the language: lists (`players + [me]`), never mutated
    s.members = tuple(tuple(m) for m in members)
    s.teams = list(range(len(s.members)))
    s.tm = team_of_seat(s.members, n)
    s.p, s.o, s.cap = interned(params), options, cap
    for at in rules.layout.slots:   # (filled by the ruleset's setup, or from_dict; a trigger's memory none)
        setattr(s, at, None)
    s.rng, s.stack, s.dec, s.over, s.steps, s.ev, s.kn, s.vd = 0, [], None, False, 0, None, None, ()
    s.sh = set()   # nothing shared (State.clone)
    return s


def from_dict(rules, d: dict, cap: dict | None = None) -> State:
    # (the parameters checked as a new game's are: each map's keys in the order a game of these players has them;
    # cap: the zones' maxes in a game of them, engine/capacity.py)
    s = blank(rules, d["players"], d["seed"], rules.resolve_params(d["players"], d["params"]), d["options"], d["teams"],
              cap)
    s.z.update({name: {int(card): list(part) for card, part in zone.items()} if isinstance(zone, dict) else zone
                for name, zone in d["zones"].items()})   # (a zone per card: JSON wrote its keys as text)
    s.c.update(d["counters"])   # (each written to its slot: engine/layout.py Tables)
    s.v.update(d["vars"])
    s.rng = d["rng"]
    s.stack = [list(f) for f in d["stack"]]
    dec = d["decision"]
    s.dec = None if dec is None else (dec[0], tuple(dec[1]))
    s.over, s.steps = d["over"], d["steps"]
    known = d.get("known")
    s.kn = None if known is None else {int(k) if digits(k) else k: m for k, m in known.items()}
    s.vd = voids.from_json(d.get("voids"))
    return s


def _known_order(item) -> tuple:
    """The knowledge record's order: the cards by id, then the private variables by name."""
    return (item[0].__class__ is str, item[0])
