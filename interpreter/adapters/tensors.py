"""Observation tensors: a fixed-size numeric encoding of what one seat may see, for the
reinforcement-learning adapters.

The layout depends only on the ruleset and the player count (``layout.pieces`` lists each
piece's name, offset and size; docs/rl.md shows them). Seats are written relative to the
viewer: "seat +k" is the k-th seat to its left, so the viewer is always +0 (teams likewise).
In order:

- ``seat``: the viewer's own seat, one-hot;
- ``to_move``: who decides now, relative, one-hot (the last slot: nobody, the game is over);
- ``prompt``: which step asks the viewer, one-hot over the ruleset's asking steps (last slot:
  a step not listed); zeros when the viewer is not asked, as observation() shows the prompt to
  the seat asked alone;
- for each zone, for each owner (one for a shared zone; each player or team, relative; a zone
  owned by each card is one piece): ``zone:NAME+k`` multi-hot over the cards the zone can
  hold (zeros when the viewer may not see it; where cards share a label, the copies of a label
  the zone holds are written as the first copies of it, in card order: a seat sees labels, not
  which copy is which) and ``size:NAME+k`` its number of cards; a
  zone owned by each card gives the cards it holds (when visible) and the number of cards on
  each card, zeros for a card the viewer does not see where it lies (engine/sight.py
  ``card_seen``, as observation() leaves it out);
- for each counter, its value for each owner (0 where the viewer may not see it; a counter of
  each card, 0 for a card the viewer does not see where it lies);
- each public variable that is a number, a yes/no or a seat (relative, +1; 0 for none).

Values are the numbers themselves (no scaling); the tensor is float32.
"""
from __future__ import annotations

from array import array
from operator import itemgetter

import numpy as np

from ..expr.names import counter_ref, var_ref, zone_ref
from ..engine.sight import card_seen, public_cards, unsure_cards
from ..expr.types import BOOL, INT, NUM, PLAYER, TEAM
from ..loading.kept import compiled
from .float32 import F32, var_value
from .seat_encoder import compile_seat
from .shared_encoder import compile_shared



class TensorLayout:
    def __init__(self, rules, players: int):
        self.rules, self.n = rules, players
        members = rules.team_members(players)
        self.teams = len(members)
        self.team_of = [0] * players   # seat -> its team (the teams are the player count's: State.tm)
        for t, ms in enumerate(members):
            for p in ms:
                self.team_of[p] = t
        vis = rules.visibility   # (engine/visibility.py) whether the viewer sees its +k owner's
        ncards = len(rules.card_labels)
        self.asking = [s.index for s in rules.steps if getattr(s, "asks", False)]
        self.ask_slot = {i: k for k, i in enumerate(self.asking)}
        self.pieces: list = []
        self.size = 0
        # the offsets of the three fixed features (read by the compiled encoders)
        self.seat_at = self._add("seat", players)
        self.to_move_at = self._add("to_move", players + 1)
        self.prompt_at = self._add("prompt", len(self.asking) + 1)
        # (name, kind, pos table, [(relative k, multi-hot offset, size offset)], seen by the viewer: per k)
        self.zones = []
        for name, kind in rules.zone_owner.items():
            holds = rules.zone_holds.get(name)
            held = [c for c in range(ncards) if holds is None or rules.cards.kinds[c] in holds]
            pos = [-1] * ncards
            for i, c in enumerate(held):
                pos[c] = i
            owners = {"none": 1, "player": players, "team": self.teams}.get(kind, 1)
            blocks = []
            for k in range(owners):
                suffix = f"+{k}" if kind in ("player", "team") else ""
                hot = self._add(f"zone:{name}{suffix}", len(held))
                size = self._add(f"size:{name}{suffix}", ncards if kind == "card" else 1)
                blocks.append((k, hot, size))
            self.zones.append((name, kind, pos, blocks, vis.relative(members, "zone", name)))
        self.counters = []   # (name, kind, offset, seen by the viewer: per relative owner k)
        for name, kind in rules.counter_owner.items():
            owners = {"none": 1, "player": players, "team": self.teams, "card": ncards}[kind]
            self.counters.append((name, kind, self._add(f"counter:{name}", owners), vis.relative(members, "counter", name)))
        self.vars = []
        for name, typ in rules.names.vars.items():
            if vis.var_public(name) and typ in (INT, NUM, BOOL, PLAYER, TEAM):
                self.vars.append((name, typ, self._add(f"var:{name}", 1)))
        self.card_zones = [(name, blocks[0][1], blocks[0][2], pos) for name, kind, pos, blocks, seen in self.zones
                           if kind == "card"]
        self.card_counters = [(name, offset) for name, kind, offset, seen in self.counters if kind == "card" and any(seen)]
        self.copies = self._copies()
        reference = self._compile()
        self._encode = self.seat_only(lambda S, p: np.frombuffer(reference(S, p), F32))

    def _copies(self):
        """Where cards share a label (copies, which a seat cannot tell apart): the multi-hot
        slots of each label's copies, label by label, as (the slots, each group's first index
        among them, each slot's group, each slot's rank in its group); None without copies."""
        labels = self.rules.card_labels
        if len(set(labels)) == len(labels):
            return None
        slots: list = []
        starts: list = []
        group: list = []
        rank: list = []
        for _name, _kind, pos, blocks, seen in self.zones:
            by_label: dict = {}
            for c, i in enumerate(pos):
                if i >= 0:
                    by_label.setdefault(labels[c], []).append(i)
            for j, hot, _size in blocks:
                if not seen[j]:   # (zeros for every viewer)
                    continue
                for at in by_label.values():
                    if len(at) > 1:
                        starts.append(len(slots))
                        group += [len(starts) - 1] * len(at)
                        rank += range(len(at))
                        slots += [hot + i for i in at]
        if not slots:
            return None
        return (np.array(slots, np.intp), np.array(starts, np.intp), np.array(group, np.intp),
                np.array(rank, np.float32))

    def canonical(self, t: np.ndarray) -> np.ndarray:
        """``t`` with the copies of each label in each multi-hot block written as the first
        copies of that label (as many as the block holds): which copy lies where is not
        something a seat sees (it sees labels), so no tensor tells it."""
        idx, starts, group, rank = self.copies
        counts = np.add.reduceat(t[idx], starts)
        # (written as float32 by the comparison itself: a boolean array assigned is converted
        # in a slow loop, three times the whole rewrite)
        t[idx] = np.less(rank, counts[group], out=np.empty(len(idx), np.float32), casting="unsafe")
        return t

    def _add(self, name: str, size: int) -> int:
        offset = self.size
        self.pieces.append((name, offset, size))
        self.size += size
        return offset

    def encode(self, S, player: int) -> np.ndarray:
        """The tensor of what ``player`` sees in ``S``."""
        t = self._encode(S, player)
        return t if self.copies is None else self.canonical(t)

    def seat_only(self, fn):
        """``fn`` (an encoder: the reference's, or one made for speed) with what observation()
        shows one seat alone cleared where it is not the viewer's: the step that asks, for a seat
        not asked; what a card owns, where the viewer does not see the card (engine/sight.py).
        Every encoder is made through it (adapters/seat_encoder.py, shared_encoder.py): one rule."""
        at, none, ask = self.prompt_at, len(self.asking), self.ask_slot
        zones, counters = self.card_zones, self.card_counters
        seen, unsure = public_cards(self.rules), unsure_cards(self.rules)   # (what lies on the first: always shown)
        values = itemgetter(*unsure) if len(unsure) > 1 else (lambda x: [x[c] for c in unsure])

        def encode(S, p):
            t = fn(S, p)
            d = S.dec
            if d is None or d[0] != p:   # (the one slot the encoder set)
                t[at + (ask.get(S.stack[-1][0], none) if d is not None else none)] = 0.0
            if zones or counters:
                bit = 1 << p
                for name, hot, size, pos in zones:
                    for o, h in S.zone(name).items():   # (one table, not the dict of them all)
                        if h and o not in seen and not card_seen(S, o, bit):
                            t[size + o] = 0.0
                            for x in h:
                                t[hot + pos[x]] = 0.0
                for name, offset in counters:
                    x = S.counter(name)
                    if unsure and any(values(x)):
                        for i in unsure:
                            if x[i] and not card_seen(S, i, bit):
                                t[offset + i] = 0.0
            return t
        return encode

    def _compile(self):
        """The reference encoder as one generated Python function, the layout's offsets and each
        zone's card positions written in (names from the ruleset reach it only through repr())."""
        n, teams, asking = self.n, self.teams, len(self.asking)
        ns = {"array": array, "ZERO": bytes(4 * self.size), "ASK": self.ask_slot, "float": float,
              "memoryview": memoryview}

        def rel(j, owners, kind="player"):
            """The source of the owner seen as +j (of ``owners``), for a player or a team."""
            return f"({'p' if kind == 'player' else 'team'} + {j}) % {owners}"

        # written through a memoryview: its item assignment converts a number to a float in
        # about half the instructions of the array's own (which parses a format string)
        lines = ["def encode(S, p):", "    a = array('f', ZERO)", "    t = memoryview(a)",
                 f"    t[{self.seat_at} + p] = 1.0",
                 "    cur = S.dec[0] if S.dec is not None else -1",
                 f"    t[{self.to_move_at} + ((cur - p) % {n} if cur >= 0 else {n})] = 1.0",
                 "    team = S.tm[p]",
                 f"    t[{self.prompt_at} + (ASK.get(S.stack[-1][0], {asking}) if S.dec is not None else {asking})] = 1.0"]
        # (each table read from its slot: expr/names.py)
        for k, (name, kind, pos, blocks, seen) in enumerate(self.zones):
            ns[f"P{k}"] = pos
            if kind == "card":
                _, hot, size = blocks[0]
                lines.append(f"    for o, h in {zone_ref(name)}.items():")
                lines.append("        if h:")
                lines.append(f"            t[{size} + o] = len(h)")
                if seen[0]:
                    lines.append(f"            for x in h: t[{hot} + P{k}[x]] = 1.0")
                continue
            for j, hot, size in blocks:
                owner = "" if kind == "none" else f"[{rel(j, n if kind == 'player' else teams, kind)}]"
                lines.append(f"    h = {zone_ref(name)}{owner}")
                lines.append(f"    t[{size}] = len(h)")
                if seen[j]:
                    lines.append(f"    for x in h: t[{hot} + P{k}[x]] = 1.0")
        for name, kind, offset, seen in self.counters:
            if not any(seen):
                continue
            if kind == "none":
                lines.append(f"    t[{offset}] = {counter_ref(name)}")
            elif kind == "card":   # one value per card: copied in one C-level slice assignment
                lines.append(f"    x = {counter_ref(name)}")
                lines.append(f"    t[{offset}:{offset} + len(x)] = array('f', x)")
            else:
                owners = n if kind == "player" else teams
                lines.append(f"    x = {counter_ref(name)}")
                for j in (j for j in range(owners) if seen[j]):
                    lines.append(f"    t[{offset + j}] = x[{rel(j, owners, kind)}]")
        for name, typ, offset in self.vars:
            lines.append(f"    x = {var_ref(name)}")
            lines.append(f"    if x is not None: t[{offset}] = {var_value(typ, 'x', 'p', 'team', n, teams)}")
        lines.append("    return a")
        exec(compiled("\n".join(lines) + "\n", f"<tensor encoder {self.rules.name}>", "exec"), ns)  # noqa: S102
        return ns["encode"]

    INCREMENTAL_FROM = 1024   # floats: a smaller tensor is cheaper written in full each call (its long blocks kept)

    def encoder(self, incremental: bool | None = None) -> "Encoders":
        """An ``encode(S, seat)`` for one consumer (an env, an observer), with the reference's
        values, by seat: ``encoder[seat](S, seat)`` (a dict's lookup, no Python call) or
        ``encoder(S, seat)``. For a large tensor (``incremental``: None decides by size), one
        function for every seat that keeps what it wrote last and rewrites only what changed
        (adapters/shared_encoder.py); for a small one, an encoder per seat (and its team) that
        writes the whole tensor with one ``struct.pack_into`` (adapters/seat_encoder.py),
        compiled when first asked. Not for sharing between threads."""
        if incremental is None:
            incremental = self.size >= self.INCREMENTAL_FROM
        if incremental:
            shared = self.copies_alike(compile_shared(self))
            return Encoders(lambda seat: shared)
        kept: list = []   # shared by the seats' encoders: a block is kept by its owner
        return Encoders(lambda seat: self.copies_alike(compile_seat(self, seat, self.team_of[seat], kept)))

    def copies_alike(self, encode):
        """``encode``, its tensors written with copies alike (``canonical``) where cards share
        a label; itself where none do."""
        if self.copies is None:
            return encode
        canonical = self.canonical
        return lambda S, p: canonical(encode(S, p))

    def private_pieces(self) -> list[tuple[int, int]]:
        """(offset, size) of the pieces the viewer sees and a spectator does not: the multi-hot
        of its own zone and its counter where they are visible to their owner. The rest of a
        tensor is public (or zeros)."""
        vis, out = self.rules.visibility, []
        for name, _kind, _pos, blocks, seen in self.zones:
            if not vis.zone_public(name):
                out += [(hot, size - hot) for j, hot, size in blocks if seen[j]]
        for name, _kind, offset, seen in self.counters:
            if not vis.counter_public(name):
                out += [(offset + j, 1) for j in range(len(seen)) if seen[j]]
        return out

    def describe(self) -> list[dict]:
        return [{"name": name, "offset": offset, "size": size} for name, offset, size in self.pieces]


class Encoders(dict):
    """One consumer's encoders, by seat (``TensorLayout.encoder``): each made when first asked."""
    __slots__ = ("make",)

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, seat: int):
        fn = self[seat] = self.make(seat)
        return fn

    def __call__(self, S, player: int) -> np.ndarray:
        return self[player](S, player)


def layout(rules, players: int) -> TensorLayout:
    """The tensor layout of ``rules`` with ``players`` seats (cached on the ruleset)."""
    cache = rules.__dict__.setdefault("_tensor_layouts", {})
    if players not in cache:
        cache[players] = TensorLayout(rules, players)
    return cache[players]
