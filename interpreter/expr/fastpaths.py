"""Faster forms of generated code: filters, first() and count() as plain loops or bisections.

The compiler first writes every construct the plain way (a comprehension, a generator);
these rewrites recognise the common shapes the compiler noted as it wrote them (code.py: each
piece of source carries its shape, never parsed back) and give an equivalent that does less
per element: ``first(ZONE where ATTR == X)`` as a loop that stops, a filter of a zone kept in
card order as a bisection, comparisons as one generated loop (``scanners.scanner``). Each is
tested against the plain form (tests/test_expressions.py).
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any

from .code import Absent, Cards, Compare, Const, Hoisted, InBytes, InRecord, Join, Local, Name, Neg, Not, Scan, Seats, Table, Var, Zone, code, \
    conjuncts, lookup, lookup_table, reads, shape, walkable, zone_name
from .names import item_read, record_read
from .scanners import SCAN_OPS, scanner

_OPS = {"==": "Eq", "!=": "NotEq", "<": "Lt", "<=": "LtE", ">": "Gt", ">=": "GtE"}   # (runtime._SCAN_OPS)


def scan_first(c, var: str, coll: str, cond: str | None) -> str | None:
    """``first(ZONE where T1 OP X1 and T2 OP X2 ...)`` as a call of a plain loop (scanners.scanner),
    when each test compares a table looked up by the element with a value that cannot fail and
    does not read the element (a constant, a name, a variable); else None. Evaluating those
    values once before the loop changes nothing: they have no side effects and raise nothing."""
    if cond is None or not walkable(coll):
        return None
    tests = comparison_tests(var, cond)
    return None if tests is None else scan_call(c, coll, tests)


def comparison_tests(var: str, cond: str) -> list | None:
    """(operator, table, value) for each term of ``cond`` when it is a conjunction of up to 4
    comparisons of a table looked up by the element with a value that cannot fail; else None."""
    parts = conjuncts(cond)
    if len(parts) > 4:
        return None
    tests = []
    for part in parts:
        s = shape(part)
        if not isinstance(s, Compare):
            return None
        table = lookup_table(s.left, var)
        if table is None or not cannot_fail(s.right, var):
            return None
        tests.append((_OPS[s.op], table, s.right))
    return tests


def scan_call(c, coll: str, tests: list, counting: bool = False) -> str:
    """The call of scanners.scanner's loop for (operator, table, value) tests over ``coll``
    (``counting``: the loop that counts the elements that pass)."""
    name, fn = scanner(tuple(op for op, _, _ in tests), counting)
    c.names.namespace.setdefault(name, fn)
    return code(f"{name}({coll}, {', '.join(f'{table}, {value}' for _, table, value in tests)})",
                None if counting else Scan(coll, tuple(tests)), walks=True)


def found_first(cond: Any) -> tuple | None:
    """(name, Scan, whether the 'if' branch is the one where it is not none) when ``cond`` asks
    whether a hoisted scan for ``first(L where P)`` found one (``count(L where P) == 0``, negated
    or not): in the branch taken after it, that name holds its answer."""
    s, negated = shape(cond), False
    while isinstance(s, Not):
        s, negated = shape(s.operand), not negated
    if not isinstance(s, Absent):
        return None
    value = shape(s.value)
    if not (isinstance(value, Hoisted) and value.name is not None and isinstance(shape(s.scan), Scan)):
        return None
    return value.name, shape(s.scan), s.present != negated


def first_from(name: str, known: Any, branch: Any) -> Any:
    """``first(L where P and Q)`` in a branch where ``name`` is known to hold ``first(L where P)``
    (not none): that element when it passes Q too (every element before it fails P), else the
    scan as written. Q's tests are what the scan would ask of that element first; their values
    cannot fail (fastpaths.comparison_tests)."""
    s = shape(branch)
    scan = shape(s.inner) if isinstance(s, Hoisted) else s
    k = len(known.tests)
    if not (isinstance(scan, Scan) and scan.coll == known.coll and len(scan.tests) > k
            and scan.tests[:k] == known.tests):
        return branch
    test = " and ".join(f"({table}[{name}] {SCAN_OPS[op]} {value})" for op, table, value in scan.tests[k:])
    return f"({name} if {test} else {branch})"


_NEGATED = {"==": "!=", "!=": "=="}   # (not so < and >=: a NaN is neither)


def negated(cond: str) -> str | None:
    """A single equality test with its operator negated (``T[x] == v`` -> ``T[x] != v``: what
    all(L, by: C) looks for to say no), else None."""
    s = shape(cond)
    if not (isinstance(s, Compare) and s.op in _NEGATED):
        return None
    op = _NEGATED[s.op]
    return code(f"({s.left} {op} {s.right})", Compare(op, s.left, s.right))


def cannot_fail(value, var: str) -> bool:
    """A constant (negated or not), a name other than the element, a variable (``S.v['x']``) or
    a local binding (``L['x']``: the compiler only reads a local where it is bound): its value
    is known before the loop and computing it cannot raise. (A negated name or
    variable can: ``-bid`` with ``bid`` none, which the plain filter never computes when no
    element reaches the comparison.)"""
    s = shape(value)
    if isinstance(s, Neg):
        return isinstance(shape(s.operand), Const)
    if isinstance(s, Name):
        return s.id != var
    return isinstance(s, (Const, Var, Local))


def attr_equals(var: str, cond):
    """(attribute table, X) when the filter ``cond`` is exactly ``A_attr[var] == X`` with X not
    reading the element ``var`` and binding no name; else None."""
    s = shape(cond)
    if not (isinstance(s, Compare) and s.op == "=="):
        return None
    left = lookup(s.left, var)
    if left is None or left.kind != "attr" or reads(s.right, var):
        return None
    return left.table, s.right


def faster_filter(sorted_zones, var: str, src: str, cond: str, name: str) -> str | None:
    """``L where ATTR == X and ...`` (X not reading the element) written to do less per element;
    None when the condition does not start that way. X is computed only if L has an element,
    as the plain filter would (it computes X first, for the first element).

    - L is a zone kept in card order: the cards with X are found by bisection
      (``_in_sorted``), the rest of the condition is asked of them only;
    - otherwise X is computed once rather than per element (unless it is a constant or a
      name: nothing to save)."""
    parts = conjuncts(cond)
    found = attr_equals(var, parts[0])
    if found is None:
        return None
    table, value = found
    zone = zone_name(src)
    rest = " and ".join(f"({p})" for p in parts[1:])
    if zone is not None and zone in sorted_zones:
        return (f"[{var} for {var} in (_in_sorted({src}, {table}, I_{table[2:]}, {value}) if {src} else [])"
                f"{' if ' + rest if rest else ''}]")
    if isinstance(shape(value), (Const, Name)):
        return None
    z = name + "z"
    test = f"({shape(parts[0]).left} == {name})" + (f" and {rest}" if rest else "")
    return (f"[{var} for {z} in ({src},) if len({z}) for {name} in ({value},) for {var} in {z} "   # (len: none fails)
            f"if {test}]")


def pure_value(value) -> bool:
    """A value ``x in A + B`` may look for in each list: a name, a whole number or a plain
    string (negated or not), a variable; computing it twice cannot raise."""
    s = shape(value)
    if isinstance(s, Neg):
        s = shape(s.operand)
        return isinstance(s, Name) or isinstance(s, Const) and type(s.value) is int
    if isinstance(s, Const):
        if isinstance(s.value, str):   # (quoted plainly: no quote nor backslash in it)
            text = repr(s.value)
            return text.startswith("'") and "\\" not in text
        return not isinstance(s.value, float)
    if isinstance(s, Zone) and s.owner is None:
        s = shape(s.table)
    if isinstance(s, Table):   # a table bound before the loop (a local name)
        return s.bound
    return isinstance(s, (Name, Var))


def pure_list(part) -> bool:
    """A list read plainly: a shared zone, a table bound before the loop, the players or teams."""
    s = shape(part)
    if isinstance(s, Zone) and s.owner is None:
        s = shape(s.table)
    if isinstance(s, Table):
        return not s.tagged and (s.bound or s.kind == "z")
    return isinstance(s, Seats)


def member_of_cards(value: str, op: str, found: str) -> str:
    """``x in A + B`` (or ``not in``) for a card ``x`` and lists of cards, all numbered below 256
    (Names.max_list), looked for in ``found``, the bytes of the lists' cards (``bytes([*A, *B])``,
    built once before the loop, 60% of the cost of a set of them: `in` is one scan in C); a
    none, which no list of cards holds, is never in it. ``x`` a plain read (pure_value)."""
    if op == "in":
        return code(f"({value} is not None and {value} in {found})", InBytes(value, found))
    return code(f"({value} is None or {value} not in {found})", InBytes(value, found, True))


def count_in_bytes(c, var: str, coll, cond) -> str | None:
    """``count(T[i] where it in A + B)`` (or ``not in``) over a tuple of cards fixed at load (a
    board's neighbours, code.Cards), the lists' cards the bytes ``found`` (member_of_cards): the
    tuple read as bytes, made once at build, and its cards in ``found`` deleted in C
    (``translate(None, found)`` deletes every byte found, so what is left is what is not in it;
    a card twice in the tuple is counted twice, as the filter counts it). Only for ``i`` a read
    that cannot fail (it is read twice) and a table of cards numbered below 256; else None."""
    s, test = shape(coll), shape(cond)
    if not (isinstance(s, Cards) and isinstance(test, InBytes) and isinstance(shape(test.value), Name)
            and shape(test.value).id == var and cannot_fail(s.index, var)):
        return None
    table = bytes_table(c.names.namespace, s.table)
    if table is None:
        return None
    left = f"len({table}[{s.index}].translate(None, {test.found}))"
    return left if test.negated else f"(len({table}[{s.index}]) - {left})"


def count_in_record(c, var: str, coll, cond) -> str | None:
    """``count(T[i] where it in A + B)`` (or ``not in``) over a tuple of cards fixed at load (a
    board's neighbours, code.Cards) and recorded zones (member_of_record): the codes of the
    tuple's cards read from the record in one C call (an ``itemgetter`` made at build for each
    tuple) and counted in C, ``T_get[i](S.at).count(k)``, or ``len(T[i])`` less the count of the
    one code outside them (0, in no recorded zone, where the zones are all those recorded). Only
    where one code's count answers and for ``i`` a read that cannot fail (it is read twice);
    else None."""
    s, test = shape(coll), shape(cond)
    if not (isinstance(s, Cards) and isinstance(test, InRecord) and isinstance(shape(test.value), Name)
            and shape(test.value).id == var and cannot_fail(s.index, var)):
        return None
    inside = {test.codes} if type(test.codes) is int else {k for k, x in enumerate(test.codes) if x}
    outside = set(range(len(c.names.recorded) + 1)) - inside
    if test.negated:
        inside, outside = outside, inside
    if min(len(inside), len(outside)) != 1:
        return None
    twin = s.table + "_get"
    if twin not in c.names.namespace:   # (a getter of one item gives the item: a slice of the record there)
        c.names.namespace[twin] = tuple(itemgetter(*row) if len(row) > 1 else itemgetter(slice(row[0], row[0] + 1) if row else slice(0))
                                        for row in c.names.namespace[s.table])
    codes = f"{item_read(twin, s.index)}({record_read()})"
    if len(inside) == 1:
        return f"{codes}.count({min(inside)})"
    return f"(len({item_read(s.table, s.index)}) - {codes}.count({min(outside)}))"


def bytes_table(namespace: dict, name: str) -> str | None:
    """The name of the tuple of bytes of the tuples of cards ``namespace[name]``, put in the
    namespace once; None when a value in them is not a card numbered below 256."""
    twin = name + "_bytes"
    if twin not in namespace:
        rows = namespace[name]
        if not all(type(v) is int and 0 <= v < 256 for row in rows for v in row):
            return None
        namespace[twin] = tuple(bytes(row) for row in rows)
    return twin


def cards_bytes(parts: list) -> str:
    """The bytes of the cards of the lists ``parts`` (member_of_cards)."""
    return "bytes([" + ", ".join(f"*{part}" for part in parts) + "])"


def shared_zones(lists) -> list | None:
    """The names of the shared zones ``lists`` reads, one zone or several joined (``A + B``),
    each read plainly (a table bound before a loop too); None for any other list."""
    names = []
    for part in (joined_lists(lists) or [lists]) if isinstance(shape(lists), Join) else [lists]:
        s = shape(part)
        table = shape(s.table) if isinstance(s, Zone) and s.owner is None and not s.per_card else None
        if not isinstance(table, Table) or table.kind != "z" or table.tagged:
            return None
        names.append(table.name)
    return names


def member_of_record(names, value: str, op: str, zones: list) -> str:
    """``x in A + B`` (or ``not in``) for a card ``x`` (a plain read: pure_value) and shared zones
    whose cards the record of each card's zone keeps (engine/layout.py): one item of the record
    read, where the list would be walked. A none is in no zone."""
    codes = record_codes(names.recorded, zones)
    at = item_read(record_read(), value)
    if type(codes) is tuple:
        name = "_IN_" + "_".join(str(k) for k, inside in enumerate(codes) if inside)
        names.namespace[name] = codes
        test = item_read(name, at)
    else:
        test = f"{at} == {codes}"
    text = f"({value} is not None and {test})" if op == "in" else f"({value} is None or not {test})"
    return code(text, InRecord(value, codes, op != "in"))


def record_codes(recorded: dict, zones: list) -> int | tuple:
    """The code of ``zones`` in the record when they are one zone, else a table of bools by code
    saying which are theirs (an item of a tuple costs less than a search of the codes)."""
    codes = {recorded[z] for z in zones}
    return min(codes) if len(codes) == 1 else tuple(k in codes for k in range(len(recorded) + 1))


def member_of_joined(value: str, lists: str) -> str | None:
    """``x in A + B + C`` over lists as ``(x in A or x in B or x in C)``: the same answer, found
    in the same order, without building the joined list. None unless x and every part are plain
    reads that cannot fail (a part that raises would otherwise be skipped once x is found)."""
    parts = joined_lists(lists) if pure_value(value) else None
    return None if parts is None else "(" + " or ".join(f"{value} in {part}" for part in parts) + ")"


def joined_lists(lists: str) -> list | None:
    """The parts of ``A + B + C`` when each is a plain read that cannot fail (a shared zone, a
    table bound before the loop, the seats); else None."""
    if not isinstance(shape(lists), Join):
        return None
    parts: list = []

    def leaves(src) -> bool:
        s = shape(src)
        if isinstance(s, Join):
            return leaves(s.left) and leaves(s.right)
        parts.append(src)
        return pure_list(src)

    return parts if leaves(lists) else None

