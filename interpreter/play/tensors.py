"""Observation tensors: a fixed-size numeric encoding of what one seat may see, for the
reinforcement-learning adapters.

The layout depends only on the ruleset and the player count (``layout.pieces`` lists each
piece's name, offset and size; docs/rl.md shows them). Seats are written relative to the
viewer: "seat +k" is the k-th seat to its left, so the viewer is always +0 (teams likewise).
In order:

- ``seat``: the viewer's own seat, one-hot;
- ``to_move``: who decides now, relative, one-hot (the last slot: nobody, the game is over);
- ``prompt``: which step asks, one-hot over the ruleset's asking steps (last slot: none);
- for each zone, for each owner (one for a shared zone; each player or team, relative; a zone
  owned by each card is one piece): ``zone:NAME+k`` multi-hot over the cards the zone can
  hold (zeros when the viewer may not see it) and ``size:NAME+k`` its number of cards; a
  zone owned by each card gives the cards it holds (when visible) and the number of cards on
  each card;
- for each counter, its value for each owner (0 where the viewer may not see it);
- each public variable that is a number, a yes/no or a seat (relative, +1; 0 for none).

Values are the numbers themselves (no scaling); the tensor is float32.
"""
from __future__ import annotations

from array import array

import numpy as np

from ..expr.types import BOOL, INT, NUM, PLAYER, TEAM
from .float32 import F32, var_value
from .seat_encoder import compile_seat



class TensorLayout:
    def __init__(self, rules, players: int):
        self.rules, self.n = rules, players
        self.teams = len(rules.team_members(players))
        ncards = len(rules.card_labels)
        self.asking = [s.index for s in rules.steps if getattr(s, "asks", False)]
        self.ask_slot = {i: k for k, i in enumerate(self.asking)}
        self.pieces: list = []
        self.size = 0
        self._seat = self._add("seat", players)
        self._to_move = self._add("to_move", players + 1)
        self._prompt = self._add("prompt", len(self.asking) + 1)
        self.zones = []   # (name, kind, pos table, [(relative k, multi-hot offset, size offset)])
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
            self.zones.append((name, kind, pos, blocks, rules.zone_sight[name][0]))
        self.counters = []
        for name, kind in rules.counter_owner.items():
            owners = {"none": 1, "player": players, "team": self.teams, "card": ncards}[kind]
            sight = (rules.counter_decl.get(name) or {}).get("visible", "all")
            self.counters.append((name, kind, self._add(f"counter:{name}", owners), sight))
        self.vars = []
        for name, typ in rules.names.vars.items():
            if not name.startswith("_") and typ in (INT, NUM, BOOL, PLAYER, TEAM):
                self.vars.append((name, typ, self._add(f"var:{name}", 1)))
        self._encode = self._compile()

    def _add(self, name: str, size: int) -> int:
        offset = self.size
        self.pieces.append((name, offset, size))
        self.size += size
        return offset

    def encode(self, S, player: int) -> np.ndarray:
        """The tensor of what ``player`` sees in ``S``."""
        return np.frombuffer(self._encode(S, player), F32)

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
                 f"    t[{self._seat} + p] = 1.0",
                 "    cur = S.dec[0] if S.dec is not None else -1",
                 f"    t[{self._to_move} + ((cur - p) % {n} if cur >= 0 else {n})] = 1.0",
                 "    team = S.tm[p]",
                 f"    t[{self._prompt} + (ASK.get(S.stack[-1][0], {asking}) if S.dec is not None else {asking})] = 1.0",
                 "    z = S.z", "    c = S.c", "    v = S.v"]
        for k, (name, kind, pos, blocks, sight) in enumerate(self.zones):
            ns[f"P{k}"] = pos
            if kind == "card":
                _, hot, size = blocks[0]
                lines.append(f"    for o, h in z[{name!r}].items():")
                lines.append("        if h:")
                lines.append(f"            t[{size} + o] = len(h)")
                if sight == "all":
                    lines.append(f"            for x in h: t[{hot} + P{k}[x]] = 1.0")
                continue
            for j, hot, size in blocks:
                owner = "" if kind == "none" else f"[{rel(j, n if kind == 'player' else teams, kind)}]"
                lines.append(f"    h = z[{name!r}]{owner}")
                lines.append(f"    t[{size}] = len(h)")
                if sight == "all" or (sight == "owner" and kind != "none" and j == 0):
                    lines.append(f"    for x in h: t[{hot} + P{k}[x]] = 1.0")
        for name, kind, offset, sight in self.counters:
            if sight != "all" and not (sight == "owner" and kind in ("player", "team")):
                continue
            if kind == "none":
                lines.append(f"    t[{offset}] = c[{name!r}]")
            elif kind == "card":   # one value per card: copied in one C-level slice assignment
                lines.append(f"    x = c[{name!r}]")
                lines.append(f"    t[{offset}:{offset} + len(x)] = array('f', x)")
            else:
                owners = n if kind == "player" else teams
                lines.append(f"    x = c[{name!r}]")
                for j in range(owners if sight == "all" else 1):
                    lines.append(f"    t[{offset + j}] = x[{rel(j, owners, kind)}]")
        for name, typ, offset in self.vars:
            lines.append(f"    x = v.get({name!r})")
            lines.append(f"    if x is not None: t[{offset}] = {var_value(typ, 'x', 'p', 'team', n, teams)}")
        lines.append("    return a")
        exec(compile("\n".join(lines) + "\n", f"<tensor encoder {self.rules.name}>", "exec"), ns)  # noqa: S102
        return ns["encode"]

    INCREMENTAL_FROM = 1024   # floats: a smaller tensor is cheaper written in full each call (its long blocks kept)

    def encoder(self, incremental: bool | None = None):
        """An ``encode(S, seat)`` for one consumer (an env, an observer), with the reference's
        values: for a large tensor (``incremental``: None decides by size), one that keeps
        what it wrote last and rewrites only what changed (below); for a small one, an encoder
        per seat (and its team) that writes the whole tensor with one ``struct.pack_into``
        (play/seat_encoder.py). Not for sharing between threads."""
        if incremental is None:
            incremental = self.size >= self.INCREMENTAL_FROM
        if incremental:
            return _compile_incremental(self)
        seats: dict = {}
        kept: list = []   # shared by the seats' encoders: a block is kept by its owner

        def encode(S, player):
            key = (player, S.tm[player])
            raw = seats.get(key)
            if raw is None:
                raw = seats[key] = compile_seat(self, player, key[1], kept)
            return raw(S, player)
        return encode

    def describe(self) -> list[dict]:
        return [{"name": name, "offset": offset, "size": size} for name, offset, size in self.pieces]


def layout(rules, players: int) -> TensorLayout:
    """The tensor layout of ``rules`` with ``players`` seats (cached on the ruleset)."""
    cache = rules.__dict__.setdefault("_tensor_layouts", {})
    if players not in cache:
        cache[players] = TensorLayout(rules, players)
    return cache[players]



# ---------------------------------------------------------------- the incremental encoder
# One tensor for all seats, ``A``, written with absolute owners (owner k's block where the
# layout has "+k") and everything any seat may see; then the tensor of seat p is one numpy
# gather, ``A[G]``, with G the seat's index map: a piece's "+k" block is owner (p + k)'s (or
# its team's), a hidden slot reads the constant 0 after the layout, the seat's one-hot a
# constant 1, a seat-valued variable its value relative to p (one slot per viewer).
# A keeps a memo: a copy of the content each piece was last written from (a zone's list, a
# counter's list, the variables). A call compares the content with the memo (C-level list
# equality) and rewrites A only where it differs: a multi-hot block flips the cards that came
# or went (it holds the memo's cards, so those are its only wrong slots). So a call costs the
# comparisons, what changed since the previous call (of any seat, on any state: the memo is
# by value) and the gather; the output is the reference encoder's.

def _sync_values(a, off, size, old, new) -> None:
    """Make a's ``size`` values at ``off`` those of ``new`` (they were ``old``'s), comparing
    in runs of 64, then of 8, so that a long list with a few changes costs a few writes."""
    n = len(new)
    if old is None or len(old) != n:
        a[off:off + size] = array("f", bytes(4 * size))
        a[off:off + n] = array("f", new)
        return
    for s in range(0, n, 64):
        e = s + 64
        if new[s:e] != old[s:e]:
            for u in range(s, min(e, n), 8):
                v = u + 8
                if new[u:v] != old[u:v]:
                    for i in range(u, min(v, n)):
                        if new[i] != old[i]:
                            a[off + i] = new[i]


SHORT = 24   # cards: a shorter list is written again in full, a longer one by its changes


def _flip(q: str, h: str, old: str, indent: str, hot: int, end: int) -> list:
    """Make the block of A at hot..end hold the cards of ``h`` (it holds those of ``old``): a
    short list is written again in full, a long one flips the cards that came or went."""
    return [f"{indent}if len({h}) < {SHORT}:",
            f"{indent}    a[{hot}:{end}] = array('f', bytes({4 * (end - hot)}))",
            f"{indent}    for x in {h}: a[{q}[x]] = 1.0",
            f"{indent}else:",
            f"{indent}    for x in set({h}).symmetric_difference({old}):",
            f"{indent}        q = {q}[x]",
            f"{indent}        a[q] = 1.0 - a[q]"]


def _compile_incremental(L: "TensorLayout"):
    n, teams, ncards, size = L.n, L.teams, len(L.rules.card_labels), L.size
    zero, one = size, size + 1                    # two constant slots after the layout
    aux = {}                                      # var name -> its first slot (one per viewer)
    extra = size + 2
    for name, typ, offset in L.vars:
        aux[name] = extra
        extra += {PLAYER: n, TEAM: teams}.get(typ, 1)
    A = array("f", bytes(4 * extra))
    A[one] = 1.0
    memo: list = []                               # the memo's first values (A is all zeros)
    ns = {"array": array, "float": float, "a": memoryview(A), "m": memo, "VALUES": _sync_values,   # (see _compile)
          "MOVER": [L._to_move + w for w in range(n)] + [L._to_move + n]}   # [-1]: nobody
    gather = list(range(size))                    # the index map of seat 0, team 0; hidden: zero
    body = []

    def slot(initial):
        memo.append(initial)
        return len(memo) - 1

    for z, (name, kind, pos, blocks, sight) in enumerate(L.zones):
        if kind == "card":
            _, hot, sz = blocks[0]
            held = sum(1 for i in pos if i >= 0)
            if sight != "all":
                gather[hot:hot + held] = [zero] * held
                body += [f"    d = z[{name!r}]",
                         f"    if d != m[{slot({})}]:",
                         f"        a[{sz}:{sz + ncards}] = array('f', bytes({4 * ncards}))",
                         "        for o, h in d.items():",
                         f"            if h: a[{sz} + o] = len(h)",
                         f"        m[{len(memo) - 1}] = {{o: h[:] for o, h in d.items()}}"]
                continue
            ns[f"Q{z}"] = [hot + i for i in pos]
            k = slot({})
            body += [f"    d = z[{name!r}]",
                     f"    if d != m[{k}]:",
                     f"        a[{hot}:{hot + held}] = array('f', bytes({4 * held}))",
                     f"        a[{sz}:{sz + ncards}] = array('f', bytes({4 * ncards}))",
                     "        for o, h in d.items():",
                     "            if h:",
                     f"                a[{sz} + o] = len(h)",
                     f"                for x in h: a[Q{z}[x]] = 1.0",
                     f"        m[{k}] = {{o: h[:] for o, h in d.items()}}"]
            continue
        seen = sight == "all" or (sight == "owner" and kind != "none")   # by some seat
        for j, hot, sz in blocks:
            ns[f"Q{z}_{j}"] = [hot + i for i in pos]
            if not seen:
                gather[hot:sz] = [zero] * (sz - hot)
        if kind == "none":
            _, hot, sz = blocks[0]
            if not seen:
                body.append(f"    a[{sz}] = len(z[{name!r}])")
                continue
            k = slot([])
            body += [f"    h = z[{name!r}]",
                     f"    if h != m[{k}]:",
                     f"        a[{sz}] = len(h)",
                     *_flip(f"Q{z}_0", "h", f"m[{k}]", "        ", hot, sz),
                     f"        m[{k}] = h[:]"]
            continue
        owners = len(blocks)
        sizes = ", ".join(f"a[{sz}]" for _, _, sz in blocks) + ("," if owners == 1 else "")
        if not seen:
            body.append(f"    {sizes} = map(len, z[{name!r}])")
            continue
        k = slot([[]] * owners)
        body += [f"    zl = z[{name!r}]",
                 f"    if zl != m[{k}]:",
                 f"        o = m[{k}]",
                 f"        {sizes} = map(len, zl)"]
        for j, hot, sz in blocks:
            body += [f"        if zl[{j}] != o[{j}]:",
                     *_flip(f"Q{z}_{j}", f"zl[{j}]", f"o[{j}]", "            ", hot, sz)]
        body.append(f"        m[{k}] = list(map(list.copy, zl))")
    for name, kind, offset, sight in L.counters:
        owners = {"none": 1, "player": n, "team": teams, "card": ncards}[kind]
        if sight != "all" and not (sight == "owner" and kind in ("player", "team")):
            gather[offset:offset + owners] = [zero] * owners
            continue
        if kind == "none":
            body.append(f"    a[{offset}] = c[{name!r}]")
            continue
        k = slot(None)
        body += [f"    x = c[{name!r}]",
                 f"    if x != m[{k}]:"]
        if kind == "card":
            body.append(f"        VALUES(a, {offset}, {ncards}, m[{k}], x)")
        else:
            body.append(f"        {', '.join(f'a[{offset + j}]' for j in range(owners))}{',' if owners == 1 else ''} = x")
        body.append(f"        m[{k}] = x[:]")
    if L.vars:
        ns["NAMES"] = tuple(name for name, _, _ in L.vars)
        k = slot(None)
        body += ["    xs = tuple(map(S.v.get, NAMES))",
                 f"    if xs != m[{k}]:"]
        for i, (name, typ, offset) in enumerate(L.vars):
            body.append(f"        x = xs[{i}]")
            if typ in (PLAYER, TEAM):
                count = n if typ == PLAYER else teams
                body += ["        if x is None:",
                         f"            a[{aux[name]}:{aux[name] + count}] = array('f', bytes({4 * count}))",
                         "        else:"]
                body += [f"            a[{aux[name] + w}] = {var_value(typ, 'x', w, w, n, teams)}" for w in range(count)]
            else:
                body.append(f"        a[{aux[name]}] = 0.0 if x is None else {var_value(typ, 'x', 0, 0, n, teams)}")
        body.append(f"        m[{k}] = xs")
    k = slot((None, None))                       # who decides and which step asks: one-hots
    body += ["    d = S.dec",
             f"    w = (d[0], ASK.get(S.stack[-1][0], {L._prompt + len(L.asking)})) if d is not None "
             f"else (-1, {L._prompt + len(L.asking)})",
             f"    if w != m[{k}]:",
             f"        o = m[{k}]",
             "        if o[0] is not None:",
             "            a[MOVER[o[0]]] = 0.0",
             "            a[o[1]] = 0.0",
             "        a[MOVER[w[0]]] = 1.0",
             "        a[w[1]] = 1.0",
             f"        m[{k}] = w"]
    ns["ASK"] = {i: L._prompt + j for i, j in L.ask_slot.items()}
    lines = ["def sync(S):", "    z = S.z", "    c = S.c", *body]
    exec(compile("\n".join(lines) + "\n", f"<tensor encoder {L.rules.name}>", "exec"), ns)  # noqa: S102
    sync = ns["sync"]
    everything = np.frombuffer(A, dtype=np.float32)
    maps: dict = {}

    def index_map(p, team):
        g = list(gather)
        for i in range(n):
            g[L._seat + i] = one if i == p else zero
        for j in range(n):
            g[L._to_move + j] = L._to_move + (p + j) % n
        for name, kind, pos, blocks, sight in L.zones:
            if kind not in ("player", "team"):
                continue
            owners, me = (n, p) if kind == "player" else (teams, team)
            for j, hot, sz in blocks:
                w = blocks[(me + j) % owners]
                g[sz] = w[2]
                visible = sight == "all" or (sight == "owner" and j == 0)
                g[hot:sz] = range(w[1], w[2]) if visible else [zero] * (sz - hot)
        for name, kind, offset, sight in L.counters:
            if kind in ("player", "team") and g[offset] != zero:
                owners, me = (n, p) if kind == "player" else (teams, team)
                g[offset:offset + owners] = [offset + (me + j) % owners if sight == "all" or j == 0 else zero
                                             for j in range(owners)]
        for name, typ, offset in L.vars:
            g[offset] = aux[name] + {PLAYER: p, TEAM: team}.get(typ, 0)
        return np.array(g, dtype=np.intp)

    def encode(S, p):
        sync(S)
        key = (p, S.tm[p])
        g = maps.get(key)
        if g is None:
            g = maps[key] = index_map(p, S.tm[p])
        return everything.take(g)
    return encode
