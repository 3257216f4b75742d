"""Market built-ins: choosing sets of cards from an open display by their values.

A card market is an ordinary shared zone (``visible: all``); refilling it, discarding
special cards drawn into it and "show a card, take all of its value" are written with
existing constructs (a ``when:`` trigger, an ``on_enter`` trigger, ``choose`` + ``move``;
see docs/mechanics/diams.md). What the language lacked is here, as built-in functions:

``combos(LIST, by: VALUE, total: N)``
    The distinct multisets of elements of LIST whose values (``by:``, evaluated per
    element, like ``sum(by:)``) add up to N, as ``list[list[T]]``. Identical cards (same
    label) are interchangeable, so each multiset appears once; elements whose value is not
    a positive number never take part. Enumerated by backtracking over the groups of
    identical elements (largest value first), pruned by the sum still reachable, so a
    15-card market answers in well under a millisecond. At most MAX_COMBOS sets are
    returned (the language stays bounded). A ``choose`` over the result labels each
    option by its cards' labels joined with ``+`` ("4+2+2").

        choose: {options: "combos(market, by: quality, total: given.quality)", as: taken}

``sums(LIST, by: VALUE)``
    The totals that some non-empty sub-multiset of LIST reaches (values as for combos),
    ascending, as ``list[int]``: a cheap test of whether combos() has anything to offer
    (a bitset over the reachable sums, no enumeration):

        hand where quality in sums(market, by: quality)

``groups(LIST, by: KEY)``
    The elements of LIST grouped by KEY, as ``list[list[T]]``, in order of first
    appearance. It compares elements with one another without nesting two ``where``
    (whose ``it`` would be the inner element):

        map(groups(hand, by: quality) where count(it) >= 3, to: first(it).quality)
"""
from __future__ import annotations

from itertools import compress

from ..expr.arity import check_arity, list_arg
from ..expr.builtins import ASKED, call_args, key_fn, keyed_arg, register_builtin
from ..expr.code import KeyLookup, shape
from ..expr.known import inherited
from ..expr.nesting import deepest, innered
from ..expr.parser import ExprError, offset_of
from ..expr.runtime import ExprRuntimeError
from ..expr.types import CARD, INT, NUM, elem, list_of
from ..expr.walks import GROUP_WORK, grouped_by, walked
from .market_actions import v_combos
from .market_costs import BITS_PER_OP, COPY_WORK, MADE_WORK, MAX_SEARCH_WORK, MAX_SUM, TURN_WORK, largest_value, search_bound, \
    set_bound, sums_bound, sums_work, weights_of

MAX_COMBOS = 10_000       # the most sets combos() returns
MAX_GROUPS = 400          # distinct elements combos() considers (the backtracking depth)
_ALL_SUMS = (1 << (MAX_SUM + 1)) - 1


def _combos(S, items, key, total, cards: bool):
    """The distinct multisets of ``items`` whose ``key`` values sum to ``total``."""
    if not isinstance(total, (int, float)) or isinstance(total, bool) or total <= 0:
        return []
    labels = S.rules.card_labels if cards else None
    by_label: dict = {}
    for x in items:
        v = key(x)
        if not isinstance(v, (int, float)) or isinstance(v, bool) or v <= 0 or v > total:
            continue
        g = labels[x] if cards else repr(x)  # type: ignore[index]  # (labels is not None when cards)
        slot = by_label.get(g)
        if slot is None:
            by_label[g] = (v, g, [x])
        else:
            slot[2].append(x)
    groups = sorted(by_label.values(), key=lambda t: (-t[0], t[1]))
    if len(groups) > MAX_GROUPS:
        raise ExprRuntimeError(f"combos() of more than {MAX_GROUPS} different elements")
    reachable = sum(g[0] * len(g[2]) for g in groups)
    if total > reachable:   # no set adds up to it (and a bitset as wide as the total fills the memory)
        return []
    if reachable <= MAX_SUM and all(g[0].__class__ is int for g in groups) and float(total).is_integer():
        # (its bitsets are as wide as the sum of the values)
        return _combos_whole([g[0] for g in groups], [g[2] for g in groups], int(total))
    reach = [0] * (len(groups) + 1)          # reach[i]: the sum of everything from group i on
    for i in range(len(groups) - 1, -1, -1):
        v, _, members = groups[i]
        reach[i] = reach[i + 1] + v * len(members)
    out: list = []
    taken: list = []
    eps = 1e-9
    left = MAX_SEARCH_WORK   # (the search's work still allowed: a turn a call, an element a set made)

    def walk(i, remaining):
        nonlocal left
        left -= 2 * MADE_WORK   # (the call, and its turn of the caller's loop)
        if left < 0:   # large totals of many values: bounded like any expression
            _searched(total)
        if abs(remaining) < eps:
            made = [x for part in taken for x in part]
            left -= MADE_WORK + COPY_WORK * len(made)
            out.append(made)
            return
        if i == len(groups) or reach[i] < remaining - eps or len(out) >= MAX_COMBOS:
            return
        v, _, members = groups[i]
        whole = remaining.__class__ is int and v.__class__ is int   # (exact beyond 2^53)
        most = min(len(members), remaining // v if whole else int((remaining + eps) // v))
        for k in range(most, -1, -1):          # more of the larger values first
            if k:
                left -= TURN_WORK + COPY_WORK * k
                taken.append(members[:k])
            walk(i + 1, remaining - k * v)
            if k:
                taken.pop()
            if len(out) >= MAX_COMBOS:
                return

    walk(0, total)
    _counted(left)
    return out


def _combos_by(S, items, table, weights, total):
    """combos() of cards by a key that only looks an attribute up (``table``, the attribute's
    values by card, none of them fractional; ``weights``, the same with each value that never
    takes part written as 0: ``_weights``): the same sets in the same order as ``_combos(S,
    items, table.__getitem__, total, True)``, without a call or a type test a card. The groups
    are made as tuples (minus the value, label, cards) that sort in combos()' order by
    themselves (a label is one group's), and a total that is not whole or past MAX_SUM (whose
    values the weights leave out) goes the general way."""
    if total.__class__ is not int or not 0 < total <= MAX_SUM:
        return _combos(S, items, table.__getitem__, total, True)
    labels = S.rules.card_labels
    by_label: dict = {}
    reachable = 0
    for x in items:
        v = weights[x]
        if v and v <= total:
            g = labels[x]
            slot = by_label.get(g)
            if slot is None:
                by_label[g] = (-v, g, [x])
                reachable += v
            else:
                slot[2].append(x)
                reachable -= slot[0]   # (a group counts its first card's value)
    if len(by_label) > MAX_GROUPS:   # (the general way raises the error)
        return _combos(S, items, table.__getitem__, total, True)
    if total > reachable:
        return []
    if reachable > MAX_SUM:
        return _combos(S, items, table.__getitem__, total, True)
    groups = sorted(by_label.values())
    return _combos_whole([-g[0] for g in groups], [g[2] for g in groups], total)


def _combos_whole(values, members, total):
    """combos() when every value is a whole number (groups by decreasing value: ``values[j]``
    of each of ``members[j]``): the same sets in the same order, but a bitset of the totals
    each suffix of groups can reach prunes every branch that leads to no set, so the work is
    proportional to the sets found."""
    # (counts bounded by conditionals and counted down by while: a min() or range() call costs
    # more than the few bytecodes it spares, and this runs for each group on each step)
    n = len(values)
    sizes = [len(m) for m in members]
    mask = (1 << (total + 1)) - 1
    reach = [0] * (n + 1)                    # reach[i]: bit t set when groups i.. can make t
    reach[n] = 1
    # the search's work still allowed (MAX_SEARCH_WORK), counted as it goes: a turn (of a loop
    # below, or a call) and its shift or bit test of a bitset up to the total's bits, and each
    # element of each set made
    turn = TURN_WORK + total // BITS_PER_OP
    left = MAX_SEARCH_WORK
    for i in range(n - 1, -1, -1):
        v = values[i]
        below = reach[i + 1]
        acc = below
        most = total // v
        if most > sizes[i]:
            most = sizes[i]
        left -= (most + 1) * turn
        if left < 0:
            _searched(total)
        shift = 0
        while most:
            shift += v
            acc |= below << shift
            most -= 1
        reach[i] = acc & mask
    out: list = []
    if not reach[0] >> total & 1:
        _counted(left)
        return out

    def walk(i, remaining, taken):     # take some of a group j >= i after the cards taken, then go on after it
        nonlocal left
        spent = i   # (the turns counted since the last test of left: counted out at each set made, and at the end)
        while values[i] > remaining:   # (by decreasing value: none of these fits; some later one does)
            i += 1
        spent = MADE_WORK + (i - spent) * turn
        for j in range(i, n):
            v = values[j]
            after = reach[j + 1]
            k = remaining // v
            if k > sizes[j]:
                k = sizes[j]
            spent += (k + 1) * turn
            while k:                    # more of the larger values first
                rest = remaining - k * v
                if after >> rest & 1:   # (a new list a step: no method call to grow and cut one)
                    left -= spent + MADE_WORK + COPY_WORK * (len(taken) + k)   # (the set so far copied, with these k)
                    spent = 0
                    if left < 0:
                        _searched(total)
                    if rest:
                        walk(j + 1, rest, taken + members[j][:k])
                    else:
                        out.append(taken + members[j][:k])
                    if len(out) >= MAX_COMBOS:
                        return
                k -= 1
            if not after >> remaining & 1:     # nothing after group j makes the rest: none of j taken is a dead end
                break
        left -= spent
        if left < 0:
            _searched(total)

    walk(0, total, [])
    _counted(left)
    return out


searched = 0   # the work the last search counted (what benchmarks/walk_costs.py and the tests read)


def _counted(left: int) -> None:
    global searched
    searched = MAX_SEARCH_WORK - left


def _searched(total):
    raise ExprRuntimeError(f"combos() searched more than {MAX_SEARCH_WORK:,} operations' worth of ways to reach {total}")


def _sum_bits(items, key) -> int:
    """Bit t is set when some non-empty sub-multiset of ``items`` adds up to t (bit 0 always)."""
    bits = 1
    if len(items) <= 64:          # at most 64 values of at most MAX_SUM: the int stays under 1 MB
        for v in map(key, items):
            if v.__class__ is int and 0 < v <= MAX_SUM:
                bits |= bits << v
        return bits & _ALL_SUMS
    for v in map(key, items):     # a long list: keep only the totals up to MAX_SUM as it grows
        if v.__class__ is int and 0 < v <= MAX_SUM:
            bits = (bits | bits << v) & _ALL_SUMS
    return bits


def _sum_bits_of(items, weights) -> int:
    """_sum_bits() for a key that only looks an attribute up: ``weights`` is the attribute's
    table with each value _sum_bits() skips written as 0 (``bits | bits << 0`` is ``bits``),
    so the loop asks nothing of a value (``_weights``)."""
    bits = 1
    if len(items) <= 64:
        for x in items:
            bits |= bits << weights[x]
        return bits & _ALL_SUMS
    for x in items:
        bits = (bits | bits << weights[x]) & _ALL_SUMS
    return bits


def _weights(c, key: str) -> str | None:
    """The name of the weights table of a key ``_lookup(A_attr)`` (made once per ruleset), or
    None for any other key."""
    looked = _looked_up(key)
    table = None if looked is None or not looked.startswith("A_") else c.names.namespace.get(looked)
    if type(table) is not tuple:
        return None
    name = "W" + looked[1:]  # type: ignore[index]  # (a str: a table was found under it)
    if name not in c.names.namespace:
        c.names.namespace[name] = weights_of(table)
    return name


def _looked_up(key: str) -> str | None:
    """The table a key function only looks up by the element (``_lookup(T)``, builtins.key_fn,
    as its shape says: expr/code.py), or None for any other key."""
    s = shape(key)
    return s.table if isinstance(s, KeyLookup) else None


def _sums(items, key):
    """The distinct totals of the non-empty sub-multisets of ``items`` (whole positive values)."""
    return _sums_of_bits(_sum_bits(items, key))


def _sums_by(items, weights):
    """_sums() for a key that only looks an attribute up (``_weights``)."""
    return _sums_of_bits(_sum_bits_of(items, weights))


def _sums_of_bits(bits: int) -> list:
    kept = _SUMS_OF_BITS.get(bits)   # a market's few values give few distinct bitsets: remember them
    if kept is not None:
        return kept[0][:]
    digits = bin(bits)[:1:-1]             # digit t is 1 when the total t is reachable
    if digits.count("1", 1) * 3 > len(digits):   # many totals: every digit picked or not in C
        out = list(compress(range(1, len(digits)), digits.encode().translate(_BIT_VALUES)[1:]))
    else:   # few: found one after the other (the work is the totals', the digits scanned in C)
        out, find = [], digits.find
        t = find("1", 1)
        while t > 0:
            out.append(t)
            t = find("1", t + 1)
    _remember(bits, out, len(out) + len(digits) // 64 + 1)
    return out[:]


def _remember(bits: int, out: list, weight: int) -> None:
    """Keeps ``out`` for ``bits``, counted as ``weight`` elements (its totals and the key's
    machine words), the oldest forgotten first while all kept count more than MAX_MEMO_ELEMENTS."""
    global _memo_elements
    if weight > MAX_MEMO_ELEMENTS:
        return
    _memo_elements += weight
    _SUMS_OF_BITS[bits] = (out, weight)
    while _memo_elements > MAX_MEMO_ELEMENTS:
        _memo_elements -= _SUMS_OF_BITS.pop(next(iter(_SUMS_OF_BITS)))[1]


_BIT_VALUES = bytes.maketrans(b"01", b"\0\1")   # (a binary digit's character -> its value)


def _has_sum(bits: int, x) -> bool:
    """``x in sums(...)`` from the bitset, as list membership answers it (3.0 and true count as 3 and 1)."""
    if x.__class__ is not int:
        if isinstance(x, bool):
            x = int(x)
        elif isinstance(x, float) and x.is_integer():
            x = int(x)
        else:
            return False
    return x > 0 and bits >> x & 1 == 1


# The memo holds answers of a pure function (the same input always gives the same output), so
# sharing it between rulesets, games and states cannot change a result.
# It is bounded by the elements it holds, not by its entries: a ruleset's totals may each be
# tens of thousands long (up to MAX_SUM), and 4,096 of them grew a process to 2 GB.
MAX_MEMO_ELEMENTS = 1_000_000   # totals (and the keys' machine words) the memo keeps, all games together
_SUMS_OF_BITS: dict = {}    # reachable-sums bitset -> (the sorted totals, the elements they count)
_memo_elements = 0          # what the entries of _SUMS_OF_BITS count together


def _groups(items, key):
    """The elements of ``items`` grouped by ``key``, the groups in the order of their first
    elements; one group a key, keys told apart by type and value (``_group_key``)."""
    out: dict = {}
    for x in items:
        out.setdefault(_group_key(key(x)), []).append(x)
    return list(out.values())


def _group_key(k):
    """A group's key: one for equal values of one type, at every depth of a list (true, 1 and 1.0
    are three keys, as ``[1]`` and ``'[1]'`` are two: no list is keyed by its text)."""
    c = k.__class__
    if c is list or c is tuple:
        return list, tuple(map(_group_key, k))
    if c is dict:
        return dict, frozenset((name, _group_key(v)) for name, v in k.items())
    return c, k


def _groups_by(items, table):
    """_groups() for a key that only looks a table up by the element (an attribute), whose values
    a dict tells apart as _groups does (``_keys_apart``): the same groups, without a key call an
    element."""
    out: dict = {}
    try:
        for x in items:
            k = table[x]
            group = out.get(k)
            if group is None:
                out[k] = [x]
            else:
                group.append(x)
    except TypeError:   # an unhashable value (or a lookup that fails): the general way says which
        return _groups(items, table.__getitem__)
    return list(out.values())


def _keys_apart(table) -> bool:
    """Whether a table's values, as keys of a dict, are told apart as _group_key tells them: no
    truth or fraction beside another number (true and 1, 1 and 1.0: one key of a dict)."""
    kinds = set(map(type, table))
    return not ((bool in kinds or float in kinds) and len(kinds & {bool, int, float}) > 1)


def b_combos(c, n, scope, args, kw):
    check_arity(n, args, kw, "combos", 1, kw=("by", "total"))
    for k in ("by", "total"):
        if k not in kw:
            raise ExprError(f"combos() needs {k}:", offset_of(n), code="arity")
    src, typ = list_arg(c, scope, args[0], "combos")
    var, s, t = keyed_arg(c, scope, kw, typ, coll=args[0])
    c.expect_type(t, NUM, kw["by"])
    tsrc, ttype = c.node(kw["total"], scope)
    c.expect_type(ttype, NUM, kw["total"])
    key = key_fn(var, s, c.plain)
    table = _looked_up(key)
    weights = _weights(c, key)
    most = set_bound(c, typ, kw["by"], args[0], kw["total"], tsrc)   # (a set: some of the list's elements)
    innered(c, n, deepest(c, [(args[0], typ)]) if most is None else min(most, deepest(c, [(args[0], typ)])))
    c.sized(n, MAX_COMBOS)   # (the most sets it returns: a filter over them runs its body that often)
    items = c.size(args[0])
    walked(c, n, items, GROUP_WORK, "combos()")   # (each element put in its group, as groups() does)
    reached = min(MAX_SUM, items * largest_value(c, typ, kw["by"], args[0]))
    c.add_cost(search_bound(items, reached), n, f"combos() of up to {items:,} elements: its search, counted as it "
               f"runs, up to {MAX_SEARCH_WORK:,} operations")
    if weights is not None and elem(typ) == CARD and not any(v.__class__ is float for v in c.names.namespace[table]):
        return f"_combos_by(S, {src}, {table}, {weights}, {tsrc})", list_of(typ)   # (no call a card)
    return f"_combos(S, {src}, {key}, {tsrc}, {elem(typ) == CARD})", list_of(typ)


def _sums_args(c, n, scope, args, kw):
    """(source of the list, source of the key, the list's type) of a sums() call, checked."""
    check_arity(n, args, kw, "sums", 1, kw=("by",))
    src, typ = list_arg(c, scope, args[0], "sums")
    if "by" in kw:
        var, s, t = keyed_arg(c, scope, kw, typ, coll=args[0])
        c.expect_type(t, NUM, kw["by"])
        return src, key_fn(var, s, c.plain), typ
    c.expect_type(elem(typ), NUM, args[0])
    return src, "lambda _x: _x", typ


def b_sums(c, n, scope, args, kw):
    src, key, typ = _sums_args(c, n, scope, args, kw)
    weights = _weights(c, key)
    items, largest = c.size(args[0]), largest_value(c, typ, kw.get("by"), args[0])
    c.sized(n, sums_bound(items, largest))
    c.add_cost(sums_work(items, largest, listed=not c.fact(n, ASKED)), n,
               f"sums() of up to {items:,} values of up to {largest:,}: the bitset of their totals")
    return (f"_sums({src}, {key})" if weights is None else f"_sums_by({src}, {weights})"), list_of(INT)


def m_sums(c, n, scope):
    """``x in sums(L, by: K)``: a bit test on the reachable totals, no list built."""
    args, kw = call_args(n)
    src, key, _ = _sums_args(c, n, scope, args, kw)
    weights = _weights(c, key)
    return "_has_sum", (f"_sum_bits({src}, {key})" if weights is None else f"_sum_bits_of({src}, {weights})")


def b_groups(c, n, scope, args, kw):
    check_arity(n, args, kw, "groups", 1, kw=("by",))
    if "by" not in kw:
        raise ExprError("groups() needs by:", offset_of(n), code="arity")
    src, typ = list_arg(c, scope, args[0], "groups")
    var, s, t = keyed_arg(c, scope, kw, typ, coll=args[0])
    key = key_fn(var, s, c.plain)
    table = _looked_up(key)
    if table is not None and not _keys_apart(c.names.namespace.get(table, (True, 1))):
        table = None   # (its values keyed as _groups keys them)
    walked(c, n, c.size(args[0]), GROUP_WORK, "groups()")
    grouped_by(c, n, kw["by"], t, c.size(args[0]), "groups()")   # (a key that may be a list: written out)
    c.sized(n, c.size(args[0]))   # (no more groups than elements)
    inherited(c, n, args[0])
    innered(c, n, deepest(c, [(args[0], typ)]))   # (nor more elements in a group)
    return (f"_groups({src}, {key})" if table is None else f"_groups_by({src}, {table})"), list_of(typ)


register_builtin("combos", b_combos, {"_combos": _combos, "_combos_by": _combos_by},
                 distinct=True, vocabulary=v_combos,   # (distinct multisets)
                 sees_state=False)   # (its helpers read only the cards' labels off the state)
register_builtin("sums", b_sums, {"_sums": _sums, "_sum_bits": _sum_bits, "_has_sum": _has_sum,
                                  "_sums_by": _sums_by, "_sum_bits_of": _sum_bits_of},
                 distinct=True, member=m_sums)
register_builtin("groups", b_groups, {"_groups": _groups, "_groups_by": _groups_by})
