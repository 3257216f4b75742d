"""Who sees what: the one reading of ``visible:``, built once per ruleset (``Ruleset.visibility``).

Every reader asks it: the observation (engine/observation.py), what seats know of hidden
cards (engine/knowledge.py), who can tell a choice and what a redacted log keeps
(engine/sight.py, play/logs/redact.py), the observation tensors and their encoders
(adapters/tensors.py) and the viewer (play/display/table.py).

The rules. A zone or counter declares ``visible: all | owner | none`` (default ``all``):

- ``all``: every seat, and a spectator, sees each instance;
- ``owner``: the instance of a player is seen by that seat; of a team, by every member of the
  team; a shared one, or one of each card, by no seat (no seat owns it);
- ``none``: no seat.

Whoever does not see an instance sees how many cards it holds (a counter: nothing). A
variable whose name starts with ``_`` is private (no seat sees it); the others are public.

Seats are bits of a mask: bit p set = seat p sees; ``ALL`` (-1) = every seat and a spectator,
whose bit is ``SPECTATOR`` (beyond every seat's). ``seen(members)`` gives the masks of every
instance for one team assignment (``State.members``), built once and kept.
"""
from __future__ import annotations

ALL = -1
SPECTATOR = 1 << 1024   # the bit of a spectator: set only in ALL


def bit(seat: int | None) -> int:
    """The mask bit of ``seat`` (None: a spectator)."""
    return SPECTATOR if seat is None else 1 << seat


class Seen:
    """The masks of one team assignment: ``zone[name]`` and ``counter[name]`` are one mask when
    every instance is seen alike (a shared one, each card's, every player's or team's when
    visible to all or to none), else a tuple of masks, one per player or team."""

    __slots__ = ("zone", "counter")

    def __init__(self, vis: "Visibility", members):
        players = sum(len(m) for m in members)
        team_masks = tuple(sum(1 << p for p in set(m)) for m in members)
        owners = {"player": tuple(1 << p for p in range(players)), "team": team_masks}
        self.zone = {name: _masks(v, kind, owners) for name, (v, kind) in vis.zones.items()}
        self.counter = {name: _masks(v, kind, owners) for name, (v, kind) in vis.counters.items()}

    @staticmethod
    def _of(masks, owner) -> int:
        if masks is None:
            return 0
        if type(masks) is int:
            return masks
        if owner is None:   # every instance at once (a gather of every owner's cards): the
            return 0        # seats see them all only when all do (a tuple: not all alike)
        return masks[owner] if type(owner) is int and 0 <= owner < len(masks) else 0

    def zone_seers(self, name, owner) -> int:
        """The seats that see zone ``name`` of ``owner`` (None: every instance at once)."""
        return self._of(self.zone.get(name) if isinstance(name, str) else None, owner)

    def counter_seers(self, name, owner) -> int:
        """The seats that see counter ``name`` of ``owner``."""
        return self._of(self.counter.get(name) if isinstance(name, str) else None, owner)


def _sees(visible: str, owned_by: int) -> int:
    """The seats that see an instance owned by the seats ``owned_by`` (module docstring)."""
    if visible == "all":
        return ALL
    return owned_by if visible == "owner" else 0


def _masks(visible: str, kind: str, owners: dict):
    if kind in owners and visible == "owner":   # a player's or a team's: seen by its seats
        return tuple(_sees(visible, m) for m in owners[kind])
    return _sees(visible, 0)   # every instance alike: shared, each card's (no seat owns it), or all/none


class _VarSeers(dict):
    """variable -> its seers, ``Visibility.var_seers`` of a name not declared."""

    def __missing__(self, name):
        return Visibility.var_seers(name)


class Visibility:
    """The declared visibility of a ruleset's zones, counters and variables (module docstring)."""

    __slots__ = ("zones", "counters", "vars", "_seen", "_last")

    def __init__(self, rules):
        def decl(d):
            v = (d or {}).get("visible", "all")
            return v if v in ("all", "owner", "none") else "none"   # (the schema allows no other)
        self.zones = {name: (decl(rules.zone_decl.get(name)), kind) for name, kind in rules.zone_owner.items()}
        self.counters = {name: (decl(rules.counter_decl.get(name)), kind) for name, kind in rules.counter_owner.items()}
        self.vars = _VarSeers({name: self.var_seers(name) for name in rules.names.vars})
        self._seen: dict = {}
        self._last: tuple = (None, None)

    def seen(self, members) -> Seen:
        """The masks for the team assignment ``members`` (team -> its seats), built once."""
        last = self._last
        if last[0] is members:
            return last[1]
        key = tuple(map(tuple, members))
        out = self._seen.get(key)
        if out is None:
            out = self._seen[key] = Seen(self, key)
        if type(members) is tuple:   # (a state's, never changed: known by identity next time)
            self._last = (members, out)   # (one assignment: threads read it whole)
        return out

    @staticmethod
    def var_seers(name) -> int:
        """The seats that see variable ``name``: every one, or none for a private ``_name``."""
        return 0 if str(name).startswith("_") else ALL

    def var_public(self, name) -> bool:
        return self.var_seers(name) == ALL

    def zone_public(self, name) -> bool:
        """Whether every seat and a spectator see every instance of zone ``name``."""
        return name in self.zones and _sees(self.zones[name][0], 0) == ALL

    def counter_public(self, name) -> bool:
        return name in self.counters and _sees(self.counters[name][0], 0) == ALL

    def relative(self, members, table: str, name: str) -> tuple[bool, ...]:
        """For an encoding written relative to the viewer (adapters/tensors.py): whether each seat
        sees the instance of its +j owner, for each j (one entry for a shared zone or counter or
        one of each card). Every seat alike by the rules above; a rule that set seats apart could
        not be written relative to the viewer, so it fails here."""
        seen = self.seen(members)
        seers = seen.zone_seers if table == "zone" else seen.counter_seers
        kind = (self.zones if table == "zone" else self.counters)[name][1]
        players = sum(len(m) for m in members)
        own = {p: p for p in range(players)} if kind == "player" else {p: t for t, m in enumerate(members) for p in m}
        owners = {"player": players, "team": len(members)}.get(kind)
        out = []
        for j in range(owners or 1):
            seats = {p for p in range(players)
                     if seers(name, (own[p] + j) % owners if owners else None) >> p & 1}
            if seats and len(seats) != players:
                raise ValueError(f"{table} {name!r}: seen relative +{j} by some seats only")
            out.append(bool(seats))
        return tuple(out)
