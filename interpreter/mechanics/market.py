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

from lark import Tree

from ..expr.arity import check_arity, list_arg
from ..expr.builtins import ASKED, call_args, key_fn, keyed_arg, register_builtin
from ..expr.code import KeyLookup, shape
from ..expr.named import element_names
from ..expr.nesting import deepest, innered
from ..expr.parser import ExprError, offset_of
from ..expr.runtime import ExprRuntimeError
from ..expr.types import CARD, INT, NUM, elem, list_of
from .market_actions import v_combos

MAX_COMBOS = 10_000       # the most sets combos() returns
MAX_GROUPS = 400          # distinct elements combos() considers (the backtracking depth)
MAX_SUM = 100_000         # the largest total sums() tracks, and combos() reaches by bitset
MAX_SEARCH = 200_000      # branches combos() may try when totals are too large for a bitset
_ALL_SUMS = (1 << (MAX_SUM + 1)) - 1
# the work sums() is weighed (sums_work; docs/reference.md "Limits"), in the cost model's operations
# (one: an element a filter's test runs on, about 5 ns here); each measured with room to spare
VALUE_WORK = 20      # a value's turn of the loop, beyond its by: (measured 8 to 20)
BITS_PER_OP = 128    # bits of a bitset an operation shifts, ors or masks (measured 200 to 300)
TOTAL_WORK = 32      # a total found in the bitset's digits and listed (measured 4 to 28)
_INF = float("inf")


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
    tried = [0]

    def walk(i, remaining):
        tried[0] += 1
        if tried[0] > MAX_SEARCH:   # large totals of many values: bounded like any expression
            raise ExprRuntimeError(f"combos() tried more than {MAX_SEARCH:,} ways to reach {total}")
        if abs(remaining) < eps:
            out.append([x for part in taken for x in part])
            return
        if i == len(groups) or reach[i] < remaining - eps or len(out) >= MAX_COMBOS:
            return
        v, _, members = groups[i]
        whole = remaining.__class__ is int and v.__class__ is int   # (exact beyond 2^53)
        most = min(len(members), remaining // v if whole else int((remaining + eps) // v))
        for k in range(most, -1, -1):          # more of the larger values first
            if k:
                taken.append(members[:k])
            walk(i + 1, remaining - k * v)
            if k:
                taken.pop()
            if len(out) >= MAX_COMBOS:
                return

    walk(0, total)
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
    for i in range(n - 1, -1, -1):
        v = values[i]
        below = reach[i + 1]
        acc = below
        most = total // v
        if most > sizes[i]:
            most = sizes[i]
        shift = 0
        while most:
            shift += v
            acc |= below << shift
            most -= 1
        reach[i] = acc & mask
    out: list = []
    if not reach[0] >> total & 1:
        return out

    def walk(i, remaining, taken):     # take some of a group j >= i after the cards taken, then go on after it
        while values[i] > remaining:   # (by decreasing value: none of these fits; some later one does)
            i += 1
        for j in range(i, n):
            v = values[j]
            after = reach[j + 1]
            k = remaining // v
            if k > sizes[j]:
                k = sizes[j]
            while k:                    # more of the larger values first
                rest = remaining - k * v
                if after >> rest & 1:   # (a new list a step: no method call to grow and cut one)
                    if rest:
                        walk(j + 1, rest, taken + members[j][:k])
                    else:
                        out.append(taken + members[j][:k])
                    if len(out) >= MAX_COMBOS:
                        return
                k -= 1
            if not after >> remaining & 1:     # nothing after group j makes the rest: none of j taken is a dead end
                return

    walk(0, total, [])
    return out


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


def weights_of(table: tuple) -> tuple:
    """An attribute's table with each value that no sum or set takes (not a whole number from
    1 to MAX_SUM) written as 0."""
    return tuple(v if v.__class__ is int and 0 < v <= MAX_SUM else 0 for v in table)


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
    out = _SUMS_OF_BITS.get(bits)   # a market's few values give few distinct bitsets: remember them
    if out is None:
        digits = bin(bits)[:1:-1]             # digit t is 1 when the total t is reachable
        if digits.count("1", 1) * 3 > len(digits):   # many totals: every digit picked or not in C
            out = list(compress(range(1, len(digits)), digits.encode().translate(_BIT_VALUES)[1:]))
        else:   # few: found one after the other (the work is the totals', the digits scanned in C)
            out, find = [], digits.find
            t = find("1", 1)
            while t > 0:
                out.append(t)
                t = find("1", t + 1)
        if len(_SUMS_OF_BITS) >= 4096:
            _SUMS_OF_BITS.clear()
        _SUMS_OF_BITS[bits] = out
    return out[:]


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
_SUMS_OF_BITS: dict = {}    # reachable-sums bitset -> the sorted totals


def _groups(items, key):
    out: dict = {}
    for x in items:
        k = key(x)
        try:
            out.setdefault(k, []).append(x)
        except TypeError:                       # an unhashable key (a list): compare by value
            out.setdefault(repr(k), []).append(x)
    return list(out.values())


def _groups_by(items, table):
    """_groups() for a key that only looks a table up by the element (an attribute): the same
    groups, without a key call an element."""
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
    innered(c, n, deepest(c, [(args[0], typ)]))   # (a set: some of the list's elements)
    c.sized(n, MAX_COMBOS)   # (the most sets it returns: a filter over them runs its body that often)
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
    items, largest = c.size(args[0]), _largest(c, typ, kw.get("by"), args[0])
    c.sized(n, sums_bound(items, largest))
    c.add_cost(sums_work(items, largest, listed=not c.fact(n, ASKED)), n,
               f"sums() of up to {items:,} values of up to {largest:,}: the bitset of their totals")
    return (f"_sums({src}, {key})" if weights is None else f"_sums_by({src}, {weights})"), list_of(INT)


def sums_bound(items: int, largest: int) -> int:
    """The most totals sums() returns of a list of ``items`` values none of which it takes past
    ``largest``: distinct whole numbers from 1 to MAX_SUM, one per non-empty sub-multiset at
    most (2^items - 1), and none past ``items`` times the largest value."""
    most = MAX_SUM if items >= 17 else min(MAX_SUM, 2 ** items - 1)
    return min(most, items * largest)


def sums_work(items: int, largest: int, listed: bool) -> int:
    """The most operations sums() of a list of ``items`` values none of which it takes past
    ``largest`` does beyond its by: (_sum_bits): a value's turn (VALUE_WORK), and its shift and
    or of the bitset of the totals so far, as wide as they reach (up to 64 values unmasked, the
    mask after them; beyond 64 values kept to MAX_SUM bits and masked at each), BITS_PER_OP bits
    an operation; ``listed``: the bitset's digits scanned (a quarter of an operation each) and
    each total it can return listed, TOTAL_WORK each (``x in sums(...)``, a bit test, lists none:
    _sums_of_bits)."""
    v, short = min(max(largest, 0), MAX_SUM), min(items, 64)
    shifted = v * short * (short + 1) + short * v       # (two passes of widths v, 2v, ..., then the mask)
    if items > 64:
        under = min(items, MAX_SUM // v) if v else items   # (values before the totals reach MAX_SUM)
        shifted = max(shifted, 3 * (v * under * (under + 1) // 2 + (items - under) * MAX_SUM + items * v))
    work = items * VALUE_WORK + shifted // BITS_PER_OP
    return work + min(MAX_SUM, items * v) // 4 + sums_bound(items, v) * TOTAL_WORK if listed else work


def _largest(c, typ: str, by, coll) -> int:
    """The largest value sums() of a list of type ``typ`` takes (it takes none past MAX_SUM): of
    a card attribute ``by:`` reads of the element (of list ``coll``), its largest whole value; of
    a ``by:`` whose values the ruleset bounds (a parameter's max:, a literal...: its span,
    operators.py), its greatest."""
    weights = _attribute_weights(c, typ, by, coll)
    if weights is not None:
        return max(weights, default=0)
    span = c.span(by) if by is not None else None
    top = span[1] if span is not None else _INF
    return MAX_SUM if top >= MAX_SUM else max(0, int(top))


def _attribute_weights(c, typ: str, by, coll) -> tuple | None:
    """The weights of the card attribute that ``by:`` reads of the element of a list of cards
    (``coll``), bare or of a name it goes by (None: any other by:), read off the tree: the
    reference compile bounds sums() as the optimised."""
    target = by.children[0] if isinstance(by, Tree) and by.data == "attr" else None
    if isinstance(target, Tree) and target.data == "name" and str(target.children[0]) in ("it", *element_names(coll)):   # (it.rank)
        by = Tree("name", [by.children[1]])
    attr = str(by.children[0]) if isinstance(by, Tree) and by.data == "name" else None
    table = c.names.namespace.get(f"A_{attr}") if elem(typ) == CARD and attr in c.names.attrs else None
    return weights_of(table) if type(table) is tuple else None


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
    var, s, _ = keyed_arg(c, scope, kw, typ, coll=args[0])
    key = key_fn(var, s, c.plain)
    table = _looked_up(key)
    c.sized(n, c.size(args[0]))   # (no more groups than elements)
    innered(c, n, deepest(c, [(args[0], typ)]))   # (nor more elements in a group)
    return (f"_groups({src}, {key})" if table is None else f"_groups_by({src}, {table})"), list_of(typ)


register_builtin("combos", b_combos, {"_combos": _combos, "_combos_by": _combos_by},
                 distinct=True, vocabulary=v_combos,   # (distinct multisets)
                 sees_state=False)   # (its helpers read only the cards' labels off the state)
register_builtin("sums", b_sums, {"_sums": _sums, "_sum_bits": _sum_bits, "_has_sum": _has_sum,
                                  "_sums_by": _sums_by, "_sum_bits_of": _sum_bits_of},
                 distinct=True, member=m_sums)
register_builtin("groups", b_groups, {"_groups": _groups, "_groups_by": _groups_by})
