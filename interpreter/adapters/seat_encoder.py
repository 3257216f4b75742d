"""One seat's observation tensor for a small layout (adapters/tensors.py), written by generated code.

The tensor of one seat is written into one buffer by a single ``struct.pack_into`` whose format
lays the pieces out: a number is an "f" slot, a zone's multi-hot and the one-hots (bytes
chosen from a table) are "Ns" fields, everything between them pad bytes, which the packing
writes as zeros (nothing is cleared first; no array, memoryview or numpy view is made a call).
A long zone's multi-hot is a kept block (a bytearray shared by the encoders of one consumer's
seats, with the list it was written from), brought up to date when the zone's list differs:
the cards that came when the list grew at its end, the one that left or came when one did,
else every slot again (``_bring``). Written after the packing, slot by slot: a short list (a
copy and a comparison cost more than writing it) and a zone owned by each card. A counter
owned by each card is a kept block too, its values that changed written (``_recount``). A
counter of every seat is kept packed while unchanged, shared by the seats' encoders (its values in absolute
order twice: a seat's own order starts at its first value); six variables or more are kept
packed while unchanged too (in the seat's own memo, M:
their order is the seat's). The seat's relative owners are constants.
"""
from __future__ import annotations

import struct
from array import array

import numpy as np

from ..expr.names import counter_ref, var_ref, zone_ref
from ..expr.types import NUM
from ..loading.kept import compiled
from .float32 import F32, var_value

SHORT_BLOCK = 3   # cards: a list this short is written slot by slot (no kept bytes)
VARS_KEPT = 6     # variables: fewer are packed again every call (some change at every turn)


def _onehots(count: int) -> list:
    return [array("f", [1.0 if i == k else 0.0 for i in range(count)]).tobytes() for k in range(count)]


def _bring(w, h: list, pos: list) -> None:
    """Make the kept block ``w`` hold the cards of ``h`` (it holds those of ``w[0]``, whose sum
    is ``w[3]``): the card that left when one did (a card played from a hand: the difference of
    the sums, checked by taking it from the kept list, the encoder's own copy), the card that
    came when one did (the difference of the sums, put in the kept list where ``h`` has it:
    at its end without a search, a pile taking one; anywhere, a sorted zone), the cards that came when the list grew at its end (a pile taking a
    trick), else every slot written again (on the zeros of ``w[4]``). (Keeping the sum spares
    one ``sum`` a call, and removing in place a copy and a search: 7.1 k instructions for a
    card gone from a hand of 12 became 4.4 k.)"""
    old = w[0]
    k, n = len(old), len(h)
    if n == k - 1:   # (the most frequent: asked first)
        total = sum(h)
        gone = w[3] - total
        try:
            old.remove(gone)
        except ValueError:
            pass
        else:
            if old == h:
                w[2][pos[gone]] = 0.0
                w[3] = total
                return
    elif n == k + 1:   # (one card put anywhere: at the end, no search)
        total = sum(h)
        came = total - w[3]
        if h[-1] == came:
            old.append(came)
        else:
            try:
                old.insert(h.index(came), came)
            except ValueError:
                pass
        if old == h:
            w[2][pos[came]] = 1.0
            w[3] = total
            return
    elif n > k and h[:k] == old:
        came = h[k:]
        view = w[2]
        for x in came:
            view[pos[x]] = 1.0
        old += came
        w[3] += sum(came)
        return
    w[1][:] = w[4]
    view = w[2]
    for x in h:
        view[pos[x]] = 1.0
    w[0], w[3] = h[:], (total if n == k - 1 or n == k + 1 else sum(h))   # (the sum known when one card went or came)


FEW = 8   # values: as many changed are written one by one, more the whole list again


def _recount(w, x: list) -> None:
    """Make the kept bytes ``w[1]`` of a counter owned by each card hold the values of ``x`` (they
    hold those of ``w[0]``). Made from a list, ``array('f', x)`` costs some 400 instructions a
    value (23.5 k for 58) and ``struct`` 210; ``bytes(x)`` 60 (whole numbers 0..255 only), so
    the values changed are found as the bytes that differ from those of ``w[0]`` (kept as one
    int, ``w[3]``: the highest set bit of the xor names the last), and each written alone
    through the float view ``w[2]``. Else (a value out of a byte, or many changed: a new game)
    the whole list written again."""
    try:
        now = int.from_bytes(bytes(x), "little")
    except (TypeError, ValueError):   # (a value that is no whole number in 0..255)
        now = None
    was, old = w[3], w[0]
    if now is not None and was is not None:
        diff, view = now ^ was, w[2]
        for _ in range(FEW):
            i = (diff.bit_length() - 1) >> 3
            view[i] = old[i] = x[i]
            diff &= (1 << 8 * i) - 1   # (the bytes below the one written)
            if not diff:
                w[3] = now
                return
    w[1][:] = array("f", x)
    w[0], w[3] = x[:], now


def compile_seat(L, seat: int, team: int, kept: list):
    """The encoder of ``seat`` (and its ``team``) of the layout ``L`` (adapters/tensors.py), its kept
    blocks in ``kept``, shared by the encoders of one consumer's seats."""
    n, teams, asking = L.n, L.teams, len(L.asking)
    buffer = array("f", bytes(4 * L.size))
    movers = _onehots(n + 1)
    ns = {"array": array, "float": float, "t": memoryview(buffer), "K": kept, "ASK": L.ask_slot,
          "MOVE": [movers[(w - seat) % n] for w in range(n)] + [movers[n]],   # [-1]: nobody
          "PROMPT": _onehots(asking + 1), "COPY": np.frombuffer(buffer, F32).copy, "M": [],
          "BRING": _bring, "RECOUNT": _recount}
    pre = ["    d = S.dec"]   # (each table read from its slot: expr/names.py)
    post: list = []
    # (offset in floats, bytes, format code, source of the value)
    fields = [(L.seat_at + seat, 4, "f", "1.0"),
              (L.to_move_at, 4 * (n + 1), f"{4 * (n + 1)}s", "MOVE[d[0] if d is not None else -1]"),
              (L.prompt_at, 4 * (asking + 1), f"{4 * (asking + 1)}s",
               f"PROMPT[ASK.get(S.stack[-1][0], {asking}) if d is not None else {asking}]")]
    used = [0]

    def keep(held=None, counter=None):
        """A kept entry, shared by the seats' encoders: a zone's block (``held`` slots) is [the list
        it was written from, the bytearray of its floats, a float view of it, the list's sum,
        its zeros]
        (module docstring); a counter's of every seat, [the list it was written from, its bytes];
        a counter's owned by each card (``counter`` values), [the list, the bytearray of its
        floats, a float view of it, the list's bytes as an int or None] (``_recount``)."""
        if used[0] == len(kept):
            if counter is not None:
                block = bytearray(4 * counter)
                kept.append([None, block, memoryview(block).cast("f"), None])
            elif held is None:
                kept.append([None, b""])
            else:
                block = bytearray(4 * held)
                # (its zeros a bytearray: bytes assigned to a bytearray's slice are first copied into
                # one, 1.1 k instructions more for 60 floats)
                kept.append([[], block, memoryview(block).cast("f"), 0, bytearray(4 * held)])
        used[0] += 1
        return used[0] - 1

    def me(kind):
        return seat if kind == "player" else team

    def mine(count: int) -> int:
        """A slot of this seat's own memo: [the values it was packed from, their bytes, their packer]."""
        ns["M"].append([None, b"", struct.Struct(f"={count}f").pack])
        return len(ns["M"]) - 1

    for k, (name, kind, pos, blocks, seen) in enumerate(L.zones):   # (seen: per block, by the viewer)
        ns[f"P{k}"] = pos
        held = sum(1 for i in pos if i >= 0)
        if kind == "card":
            _, hot, size = blocks[0]
            post += [f"    for o, h in {zone_ref(name)}.items():", "        if h:", f"            t[{size} + o] = len(h)"]
            if seen[0]:
                post.append(f"            for x in h: t[{hot} + P{k}[x]] = 1.0")
            continue
        owners = n if kind == "player" else teams
        first = None
        if kind != "none":   # one kept block per owner, shared by the seats' encoders
            first = used[0]
            for _ in blocks:
                keep(held)
        for j, hot, size in blocks:
            h = f"h{k}_{j}"
            owner = "" if kind == "none" else f"[{(me(kind) + j) % owners}]"
            pre.append(f"    {h} = {zone_ref(name)}{owner}")
            fields.append((size, 4, "f", f"len({h})"))
            if held and seen[j]:
                m = keep(held) if first is None else first + (me(kind) + j) % owners
                b = f"b{k}_{j}"
                # a long list's block is kept, brought up to date by what changed, and packed
                pre += [f"    if len({h}) > {SHORT_BLOCK}:",
                        f"        w = K[{m}]",
                        f"        if {h} != w[0]:",
                        f"            BRING(w, {h}, P{k})",
                        f"        {b} = w[1]",
                        "    else:",
                        f"        {b} = b''"]
                fields.append((hot, 4 * held, f"{4 * held}s", b))
                post += [f"    if len({h}) <= {SHORT_BLOCK}:",   # (a short list: written slot by slot)
                         f"        for x in {h}: t[{hot} + P{k}[x]] = 1.0"]
    for i, (name, kind, offset, seen) in enumerate(L.counters):
        if not any(seen):
            continue
        x = f"c{i}"
        if kind == "none":
            fields.append((offset, 4, "f", counter_ref(name)))
            continue
        pre.append(f"    {x} = {counter_ref(name)}")
        if kind == "card":   # one value per card, kept as bytes, the values changed written (_recount)
            m = keep(counter=len(L.rules.card_labels))
            pre += [f"    w = K[{m}]",
                    f"    if {x} != w[0]:",
                    f"        RECOUNT(w, {x})",
                    f"    {x} = w[1]"]
            size = 4 * len(L.rules.card_labels)
            fields.append((offset, size, f"{size}s", x))
            continue
        owners = n if kind == "player" else teams
        if not all(seen) or owners == 1:   # (the viewer's own: each seen value a number)
            fields += [(offset + j, 4, "f", f"{x}[{(me(kind) + j) % owners}]") for j in range(owners) if seen[j]]
            continue
        # packed again only when the values change, by the first seat to see it: the seats'
        # encoders share the bytes, of the owners in absolute order twice, and each packs the
        # ``owners`` values from its own (the field's size truncates the rest). Kept per seat in
        # its own order, every seat packed again at each change (a count of tricks won: every trick).
        # The values packed once and the bytes repeated: packing them twice cost 3.2 k instructions
        # for 4 seats, once and the bytes doubled 2.0 k (valgrind)
        ns[f"ONCE{owners}"] = struct.Struct(f"={owners}f").pack
        m = keep()
        first = (me(kind) % owners) * 4
        pre += [f"    w = K[{m}]",
                f"    if {x} != w[0]:",
                f"        w[0] = {x}[:]",
                f"        w[1] = ONCE{owners}(*{x}) * 2",
                f"    {x} = w[1]" + (f"[{first}:]" if first else "")]
        fields.append((offset, 4 * owners, f"{4 * owners}s", x))
    # the variables are the layout's last slots; many change seldom (a round's, a trick's):
    # then kept packed in the seat's memo, else (few, or a num's -0.0, which equals 0.0 but is
    # written otherwise) each packed as a number
    kept_vars = len(L.vars) >= VARS_KEPT and all(typ != NUM for _, typ, _ in L.vars)
    values = []
    for i, (name, typ, offset) in enumerate(L.vars):
        x = f"xs[{i}]" if kept_vars else f"v{i}"
        if not kept_vars:
            pre.append(f"    {x} = {var_ref(name)}")
        value = var_value(typ, x, seat, team, n, teams)
        values.append(f"0 if {x} is None else {value}")
        if not kept_vars:
            fields.append((offset, 4, "f", values[-1]))
    if kept_vars:
        m = mine(len(L.vars))
        assert [offset for _, _, offset in L.vars] == list(range(L.vars[0][2], L.vars[0][2] + len(L.vars)))
        pre += ["    xs = (" + "".join(f"{var_ref(name)}, " for name, _, _ in L.vars) + ")",
                f"    w = M[{m}]",
                "    if xs != w[0]:",
                "        w[0] = xs",
                f"        w[1] = w[2]({', '.join(values)})",
                "    xs = w[1]"]
        fields.append((L.vars[0][2], 4 * len(L.vars), f"{4 * len(L.vars)}s", "xs"))
    fields.sort()
    fmt, args, at = ["="], [], 0
    for offset, size, code, src in fields:
        slot = 4 * offset
        assert slot >= at, (offset, src)   # no two fields overlap
        if slot > at:
            fmt.append(f"{slot - at}x")
        fmt.append(code)
        args.append(src)
        at = slot + size
    if 4 * L.size > at:
        fmt.append(f"{4 * L.size - at}x")
    ns["PACK"] = struct.Struct("".join(fmt)).pack_into
    lines = ["def encode(S, p):", *pre, f"    PACK(t, 0, {', '.join(args)})", *post, "    return COPY()"]
    exec(compiled("\n".join(lines) + "\n", f"<tensor encoder {L.rules.name} seat {seat}>", "exec"), ns)  # noqa: S102
    return L.seat_only(ns["encode"])   # (what the seat alone is shown: tensors.py)
