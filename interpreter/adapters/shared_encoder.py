"""The encoder of a large observation tensor (adapters/tensors.py), kept between calls and
rewritten where the state changed.

One tensor for all seats, ``A``, written with absolute owners (owner k's block where the
layout has "+k") and everything any seat may see; then the tensor of seat p is a gather of A
by the seat's index map G: a piece's "+k" block is owner (p + k)'s (or its team's), a hidden
slot reads a block of zeros after the layout, the seat's one-hot a constant 1, a seat-valued
variable its value relative to p (one slot per viewer). G is a few dozen runs of consecutive
slots (blocks move whole), so the gather is one ``bytearray.join`` of the seat's kept
memoryviews of A, a memcpy a run: 16 k instructions for a tensor of 6,082 floats in 58 runs,
where numpy's ``A.take(G)`` costs 80 k (13 an element).
A keeps a memo: a copy of the content each piece was last written from (a zone's list, a
counter's list, the variables). A call compares the content with the memo (C-level list
equality) and rewrites A only where it differs: a multi-hot block flips the cards that came
or went (it holds the memo's cards, so those are its only wrong slots). So a call costs the
comparisons, what changed since the previous call (of any seat, on any state: the memo is
by value) and the gather; the output is the reference encoder's.

What changed in a long list is found by comparisons done in C (list equality of slices), never
a Python step a card: a slice costs about a thousand instructions and 14 an element, a
comparison 13 an element, a Python step about 60, a set of 150 cards about 86 k. A short zone
(under SHORT cards) is written again whole, which costs as little as finding its changes.
"""
from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from ..expr.names import counter_ref, var_ref, zone_ref
from ..expr.types import PLAYER, TEAM
from ..loading.kept import compiled
from .float32 import var_value


def _first_difference(new, old, lo: int, hi: int) -> int:
    """The first index from ``lo`` where two lists differ, or ``hi`` if they agree on [lo, hi):
    a bisection whose halves are compared in C (list equality), down to a few elements
    looked at one by one. Slicing costs about 14 instructions an element and a thousand a
    slice, a comparison about 13 an element, a Python step about 60: the slices made add up to
    about hi - lo elements, in a dozen slices."""
    while hi - lo > 16:
        mid = (lo + hi + 1) >> 1
        if new[lo:mid] == old[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    while lo < hi and new[lo] == old[lo]:
        lo += 1
    return lo


_UNSET = object()   # a memo's value before the first call (equal to nothing)

RUN = 64   # values: a long list of values is kept in runs of this many too


def _sync_values(a, off: int, size: int, memo: list, new: list) -> None:
    """Make a's ``size`` values at ``off`` those of ``new``. ``memo`` is [the values last written
    (a list of its own), the same in runs of RUN]: each run of ``new`` is compared with its
    kept run (one slice a run, not two), and where they differ, value by value; both are
    brought up to date in place. A list of another length is written whole."""
    old, runs = memo
    n = len(new)
    if old is None or len(old) != n:
        a[off:off + size] = array("f", bytes(4 * size))
        a[off:off + n] = array("f", new)
        memo[0] = new[:]
        memo[1] = [new[s:s + RUN] for s in range(0, n, RUN)]
        return
    for r, run in enumerate(runs):
        s = r * RUN
        got = new[s:s + RUN]
        if got != run:   # each value that differs found by bisection (C-level slice compares)
            i, end = 0, len(got)
            while True:
                i = _first_difference(got, run, i, end)
                if i == end:
                    break
                a[off + s + i] = old[s + i] = got[i]
                i += 1
                if got[i:] == run[i:]:
                    break
            runs[r] = got


FEW = 8   # cards: as many gone (or come) as this are found one at a time


def _changed_cards(new: list, old: list):
    """The cards in one of two different lists and not in the other (a zone's lists: each card
    at most once), ``old`` (the memo's, a list of its own) brought up to date in place. Up to
    FEW cards gone, or come, wherever they are: each at the first place the lists differ,
    found by a bisection of single cards (valid when no card moved within the list) and
    removed from (or put into) ``old`` in place, the result checked by one list comparison
    (undone if it fails): a card taken from a supply or a few put back cost a few hundred
    instructions each and no slice. Else after the lists' common start, the one run of cards
    that went or came when the rest is the same; else the lists' symmetric difference as sets
    (which costs about 600 instructions a card of 150)."""
    k, n = len(old), len(new)
    if 0 < abs(n - k) <= FEW:
        done: list = []   # (place, card): in order
        gone = n < k
        while len(old) != n:
            lo, hi = 0, min(len(old), n)
            while lo < hi:
                mid = (lo + hi) >> 1
                if new[mid] == old[mid]:
                    lo = mid + 1
                else:
                    hi = mid
            if gone:
                done.append((lo, old.pop(lo)))
            else:
                old.insert(lo, new[lo])
                done.append((lo, new[lo]))
        if old == new:
            return [x for _, x in done]
        for at, x in reversed(done):   # (cards moved within the list too: undone)
            if gone:
                old.insert(at, x)
            else:
                del old[at]
    changed = _changed_run(new, old, k, n)
    old[:] = new
    return changed


def _changed_run(new: list, old: list, k: int, n: int):
    """(_changed_cards) the one run of cards gone or come, else the sets' difference."""
    i = _first_difference(new, old, 0, min(k, n))
    if n < k:
        if new[i:] == old[i + k - n:]:
            return old[i:i + k - n]
    elif n > k and new[i + n - k:] == old[i:]:
        return new[i:i + n - k]
    return set(new).symmetric_difference(old)


SHORT = 24   # cards: a shorter list is written again in full, a longer one by its changes


class _Zeros(dict):
    """n -> an array of n float zeros, made once (a block written again in full is cleared
    first: a new ``array('f', bytes(4 * n))`` each time costs its two allocations)."""

    def __missing__(self, n: int):
        z = self[n] = array("f", bytes(4 * n))
        return z


def _flip(q: str, h: str, old: str, indent: str, hot: int, end: int) -> list:
    """Make the block of A at hot..end hold the cards of ``h`` (it holds those of ``old``, a memo's
    list, brought up to date in place): a short list is written again in full, a long one flips
    the cards that came or went."""
    return [f"{indent}if len({h}) < {SHORT}:",
            f"{indent}    a[{hot}:{end}] = Z[{end - hot}]",
            f"{indent}    for x in {h}: a[{q}[x]] = 1.0",
            f"{indent}    {old}[:] = {h}",
            f"{indent}else:",
            f"{indent}    for x in CHANGED({h}, {old}):",
            f"{indent}        q = {q}[x]",
            f"{indent}        a[q] = 1.0 - a[q]"]


def compile_shared(L):
    """The ``encode(S, seat)`` of one consumer of the layout ``L`` (module docstring)."""
    n, teams, ncards, size = L.n, L.teams, len(L.rules.card_labels), L.size
    zero, one = size, size + 1                    # two constant slots after the layout
    aux = {}                                      # var name -> its first slot (one per viewer)
    extra = size + 2
    for name, typ, _offset in L.vars:
        aux[name] = extra
        extra += {PLAYER: n, TEAM: teams}.get(typ, 1)
    zeros = extra                                 # then as many zeros as a tensor has slots:
    extra += size                                 # a hidden run reads consecutive ones (_runs)
    A = array("f", bytes(4 * extra))
    A[one] = 1.0
    memo: list = []                               # the memo's first values (A is all zeros)
    ns: dict[str, Any] = {   # (see _compile)
        "array": array, "float": float, "a": memoryview(A), "m": memo, "Z": _Zeros(),
        "VALUES": _sync_values, "CHANGED": _changed_cards,
        "MOVER": [L.to_move_at + w for w in range(n)] + [L.to_move_at + n]}   # [-1]: nobody
    gather = list(range(size))                    # the index map of seat 0, team 0; hidden: zero
    body = []

    def slot(initial):
        memo.append(initial)
        return len(memo) - 1

    for z, (name, kind, pos, blocks, seen) in enumerate(L.zones):   # (seen: per block, by the viewer)
        if kind == "card":
            _, hot, sz = blocks[0]
            held = sum(1 for i in pos if i >= 0)
            if not seen[0]:
                gather[hot:hot + held] = [zero] * held
                body += [f"    d = {zone_ref(name)}",
                         f"    if d != m[{slot({})}]:",
                         f"        a[{sz}:{sz + ncards}] = Z[{ncards}]",
                         "        for o, h in d.items():",
                         f"            if h: a[{sz} + o] = len(h)",
                         f"        m[{len(memo) - 1}] = {{o: h[:] for o, h in d.items()}}"]
                continue
            ns[f"Q{z}"] = [hot + i for i in pos]
            k = slot({})
            body += [f"    d = {zone_ref(name)}",
                     f"    if d != m[{k}]:",
                     f"        a[{hot}:{hot + held}] = Z[{held}]",
                     f"        a[{sz}:{sz + ncards}] = Z[{ncards}]",
                     "        for o, h in d.items():",
                     "            if h:",
                     f"                a[{sz} + o] = len(h)",
                     f"                for x in h: a[Q{z}[x]] = 1.0",
                     f"        m[{k}] = {{o: h[:] for o, h in d.items()}}"]
            continue
        some = any(seen)   # by some seat
        for j, hot, sz in blocks:
            ns[f"Q{z}_{j}"] = [hot + i for i in pos]
            if not some:
                gather[hot:sz] = [zero] * (sz - hot)
        if kind == "none":
            _, hot, sz = blocks[0]
            if not some:
                body.append(f"    a[{sz}] = len({zone_ref(name)})")
                continue
            k = slot([])
            body += [f"    h = {zone_ref(name)}",
                     f"    if h != m[{k}]:",
                     f"        a[{sz}] = len(h)",
                     *_flip(f"Q{z}_0", "h", f"m[{k}]", "        ", hot, sz)]
            continue
        owners = len(blocks)
        sizes = ", ".join(f"a[{sz}]" for _, _, sz in blocks) + ("," if owners == 1 else "")
        if not some:
            body.append(f"    {sizes} = map(len, {zone_ref(name)})")
            continue
        k = slot([[] for _ in range(owners)])   # (each owner's list its own: brought up to date in place)
        body += [f"    zl = {zone_ref(name)}",
                 f"    if zl != m[{k}]:",
                 f"        o = m[{k}]",
                 f"        {sizes} = map(len, zl)"]
        for j, hot, sz in blocks:
            body += [f"        if zl[{j}] != o[{j}]:",
                     *_flip(f"Q{z}_{j}", f"zl[{j}]", f"o[{j}]", "            ", hot, sz)]
    for name, kind, offset, seen in L.counters:
        owners = {"none": 1, "player": n, "team": teams, "card": ncards}[kind]
        if not any(seen):
            gather[offset:offset + owners] = [zero] * owners
            continue
        if kind == "none":
            body.append(f"    a[{offset}] = {counter_ref(name)}")
            continue
        if kind == "card":   # the memo: [the values, the same in runs], brought up to date in place
            k = slot([None, []])
            body += [f"    x = {counter_ref(name)}",
                     f"    if x != m[{k}][0]:",
                     f"        VALUES(a, {offset}, {ncards}, m[{k}], x)"]
            continue
        k = slot(None)
        body += [f"    x = {counter_ref(name)}",
                 f"    if x != m[{k}]:",
                 f"        {', '.join(f'a[{offset + j}]' for j in range(owners))}{',' if owners == 1 else ''} = x",
                 f"        m[{k}] = x[:]"]
    if L.vars:
        # each variable written again only when it changed (the turn's seat changes at every
        # turn, the others seldom); a seat's or a team's one slot per viewer from a table of
        # rows by value (one slice assignment, not one item a viewer)
        k = slot((_UNSET,) * len(L.vars))
        body += ["    xs = (" + "".join(f"{var_ref(name)}, " for name, _, _ in L.vars) + ")",
                 f"    if xs != m[{k}]:",
                 f"        o = m[{k}]"]
        for i, (name, typ, _offset) in enumerate(L.vars):
            body += [f"        x = xs[{i}]", f"        if x != o[{i}]:"]
            if typ in (PLAYER, TEAM):
                count = n if typ == PLAYER else teams
                # (var_value's seat or team, as numbers)
                rows: dict[int | None, array] = {None: array("f", bytes(4 * count))}
                rows.update({v: array("f", [(v - w) % count + 1 for w in range(count)]) for v in range(count)})
                ns[f"ROWS{i}"] = rows
                body += [f"            r = ROWS{i}.get(x)",
                         "            if r is not None:",
                         f"                a[{aux[name]}:{aux[name] + count}] = r",
                         "            else:"]
                body += [f"                a[{aux[name] + w}] = {var_value(typ, 'x', w, w, n, teams)}" for w in range(count)]
            else:
                body.append(f"            a[{aux[name]}] = 0.0 if x is None else {var_value(typ, 'x', 0, 0, n, teams)}")
        body.append(f"        m[{k}] = xs")
    k = slot((None, None))                       # who decides and which step asks: one-hots
    body += ["    d = S.dec",
             f"    w = (d[0], ASK.get(S.stack[-1][0], {L.prompt_at + len(L.asking)})) if d is not None "
             f"else (-1, {L.prompt_at + len(L.asking)})",
             f"    if w != m[{k}]:",
             f"        o = m[{k}]",
             "        if o[0] is not None:",
             "            a[MOVER[o[0]]] = 0.0",
             "            a[o[1]] = 0.0",
             "        a[MOVER[w[0]]] = 1.0",
             "        a[w[1]] = 1.0",
             f"        m[{k}] = w"]
    ns["ASK"] = {i: L.prompt_at + j for i, j in L.ask_slot.items()}
    lines = ["def sync(S):", *body]   # (each table read from its slot: expr/names.py)
    exec(compiled("\n".join(lines) + "\n", f"<tensor encoder {L.rules.name}>", "exec"), ns)  # noqa: S102
    sync = ns["sync"]
    maps: dict = {}

    def index_map(p, team):
        g = list(gather)
        for i in range(n):
            g[L.seat_at + i] = one if i == p else zero
        for j in range(n):
            g[L.to_move_at + j] = L.to_move_at + (p + j) % n
        for _name, kind, _pos, blocks, seen in L.zones:
            if kind not in ("player", "team"):
                continue
            owners, me = (n, p) if kind == "player" else (teams, team)
            for j, hot, sz in blocks:
                w = blocks[(me + j) % owners]
                g[sz] = w[2]
                g[hot:sz] = range(w[1], w[2]) if seen[j] else [zero] * (sz - hot)
        for _name, kind, offset, seen in L.counters:
            if kind in ("player", "team") and any(seen):
                owners, me = (n, p) if kind == "player" else (teams, team)
                g[offset:offset + owners] = [offset + (me + j) % owners if seen[j] else zero
                                             for j in range(owners)]
        for name, typ, offset in L.vars:
            g[offset] = aux[name] + {PLAYER: p, TEAM: team}.get(typ, 0)
        return g

    def encode(S, p):
        sync(S)
        key = (p, S.tm[p])
        parts = maps.get(key)
        if parts is None:
            parts = maps[key] = [raw[4 * a:4 * b] for a, b in _runs(index_map(p, S.tm[p]), zero, zeros)]
        return view(join(parts), np.float32)
    raw = memoryview(A).cast("B")
    join, view = bytearray().join, np.frombuffer
    return L.seat_only(encode)   # (what the seat alone is shown: tensors.py)


def _runs(g: list, zero: int, zeros: int) -> list:
    """The index map ``g`` as runs [start, end) of consecutive slots of A, slot ``zero`` (hidden)
    read at position i as ``zeros + i`` (a block of zeros as long as the tensor) so that a
    hidden stretch is one run too."""
    out: list = []
    for i, x in enumerate(g):
        if x == zero:
            x = zeros + i
        if out and out[-1][1] == x:
            out[-1][1] = x + 1
        else:
            out.append([x, x + 1])
    return out
