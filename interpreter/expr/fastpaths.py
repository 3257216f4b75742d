"""Faster forms of generated code: filters, first() and count() as plain loops or bisections.

The compiler first writes every construct the plain way (a comprehension, a generator);
these rewrites recognise the common shapes in that Python source and give an equivalent
that does less per element: ``first(ZONE where ATTR == X)`` as a loop that stops, a filter
of a zone kept in card order as a bisection, comparisons as one generated loop
(``runtime.scanner``). Each is tested against the plain form (tests/test_expressions.py).
"""
from __future__ import annotations

import ast
import re

from ..loading.kept import Kept
from .runtime import SCAN_OPS, scanner


def unwrap(src: str) -> str:
    """A source without the parentheses a define's expansion puts around it."""
    return src[1:-1] if src.startswith("(") and src.endswith(")") else src


def scan_first(c, var: str, coll: str, cond: str | None) -> str | None:
    """``first(ZONE where T1 OP X1 and T2 OP X2 ...)`` as a call of a plain loop (runtime.scanner),
    when each test compares a table looked up by the element with a value that cannot fail and
    does not read the element (a constant, a name, a variable); else None. Evaluating those
    values once before the loop changes nothing: they have no side effects and raise nothing."""
    if cond is None or not scannable(coll):
        return None
    tests = comparison_tests(var, cond)
    return None if tests is None else scan_call(c, coll, tests)


def comparison_tests(var: str, cond: str) -> list | None:
    """(operator, table, value) for each term of ``cond`` when it is a conjunction of up to 4
    comparisons of a table looked up by the element with a value that cannot fail; else None."""
    tree = parsed(cond)
    parts = conjuncts(tree)
    if tree is None or len(parts) > 4:
        return None
    tests = []
    for part in parts:
        if not (isinstance(part, ast.Compare) and len(part.ops) == 1):
            return None
        table, value = looked_up(part.left, var), part.comparators[0]
        if table is None or type(part.ops[0]).__name__ not in SCAN_OPS or not cannot_fail(value, var):
            return None
        tests.append((type(part.ops[0]).__name__, table, ast.unparse(value)))
    return tests


def scannable(coll: str) -> bool:
    """A list a plain loop may walk: a zone read or bound before the loop, or the players
    (their elements are never none, so a loop's None says "not found")."""
    return bool(ZONE.fullmatch(coll) or _BOUND_ZONE.fullmatch(coll) or _ELEMENT_ZONE.fullmatch(coll)) \
        or coll == "S.players"


def scan_call(c, coll: str, tests: list, counting: bool = False) -> str:
    """The call of runtime.scanner's loop for (operator, table, value) tests over ``coll``
    (``counting``: the loop that counts the elements that pass)."""
    name, fn = scanner(tuple(op for op, _, _ in tests), counting)
    c.names.namespace.setdefault(name, fn)
    return f"{name}({coll}, {', '.join(f'{table}, {value}' for _, table, value in tests)})"


_NEGATED = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}   # (not so < and >=: a NaN is neither)


def negated(cond: str) -> str | None:
    """A single equality test with its operator negated (``T[x] == v`` -> ``T[x] != v``: what
    all(L, by: C) looks for to say no), else None."""
    tree = fresh(cond)
    if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and type(tree.ops[0]) in _NEGATED):
        return None
    tree.ops = [_NEGATED[type(tree.ops[0])]()]
    return ast.unparse(tree)


def conjuncts(node) -> list:
    """The terms of ``A and B and ...``, nested ands flattened (``(A and B) and C``)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [term for value in node.values for term in conjuncts(value)]
    return [node]


def looked_up(node, var: str) -> str | None:
    """The source of T when ``node`` is ``T[var]`` with T an attribute table or a table bound
    before the loop (``A_rank``, ``_t0``, ``S.c['x']``); else None."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id == var):
        return None
    table = node.value
    if isinstance(table, ast.Name) and (table.id.startswith("A_") or re.fullmatch(r"_t\w*", table.id)):
        return table.id
    if (isinstance(table, ast.Subscript) and isinstance(table.value, ast.Attribute)
            and isinstance(table.value.value, ast.Name) and table.value.value.id == "S"
            and table.value.attr in ("c", "p") and isinstance(table.slice, ast.Constant)):
        return ast.unparse(table)
    return None


def cannot_fail(node, var: str) -> bool:
    """A constant (negated or not), a name other than the element, a variable (``S.v['x']``) or
    a local binding (``L['x']``: the compiler only reads a local where it is bound): its value
    is known before the loop and computing it cannot raise. (A negated name or
    variable can: ``-bid`` with ``bid`` none, which the plain filter never computes when no
    element reaches the comparison.)"""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return isinstance(node.operand, ast.Constant)
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id != var and not node.id.startswith("_h")   # a lifted call is computed lazily
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "L":
        return isinstance(node.slice, ast.Constant)
    return (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name) and node.value.value.id == "S"
            and node.value.attr == "v" and isinstance(node.slice, ast.Constant))


def renamed(cond: str, old: str, new: str) -> str | None:
    """``cond`` with the element ``old`` read as ``new`` (renamed in the syntax tree, never in
    the text: a string may hold the name); None if it does not parse."""
    tree = fresh(cond)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == old:
            node.id = new
    return ast.unparse(tree)


def attr_compare(node, var: str):
    """(attribute table, X) when ``node`` is ``A_attr[var] == X`` with X not reading the
    element ``var`` and binding no name; else None."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
        return None
    left, right = node.left, node.comparators[0]
    if not (isinstance(left, ast.Subscript) and isinstance(left.value, ast.Name) and left.value.id.startswith("A_")
            and isinstance(left.slice, ast.Name) and left.slice.id == var):
        return None
    if any(isinstance(x, ast.NamedExpr) or isinstance(x, ast.Name) and x.id == var for x in ast.walk(right)):
        return None
    return left.value.id, right


def parsed(cond: str):
    """The syntax tree of a generated condition (None if it does not parse), kept by its
    source and shared: read it, never change it (``fresh`` gives a tree to rewrite)."""
    return _trees.get(cond, lambda: fresh(cond), len(cond))


_trees = Kept(300_000)   # source -> its tree (parsed): about 80 bytes a character


def fresh(cond: str):
    """A syntax tree of ``cond`` of one's own, to rewrite (None if it does not parse)."""
    try:
        return ast.parse(cond, mode="eval").body
    except (SyntaxError, RecursionError, MemoryError):
        return None


def faster_filter(sorted_zones, var: str, src: str, cond: str, name: str) -> str | None:
    """``L where ATTR == X and ...`` (X not reading the element) written to do less per element;
    None when the condition does not start that way. X is computed only if L has an element,
    as the plain filter would (it computes X first, for the first element).

    - L is a zone kept in card order: the cards with X are found by bisection
      (``_in_sorted``), the rest of the condition is asked of them only;
    - otherwise X is computed once rather than per element (unless it is a constant or a
      name: nothing to save)."""
    tree = fresh(cond)
    parts = conjuncts(tree)
    found = attr_compare(parts[0], var)
    if found is None:
        return None
    table, value = found[0], ast.get_source_segment(cond, found[1])
    zone = ZONE.fullmatch(src)
    if zone is not None and zone.group(1) in sorted_zones:
        rest = " and ".join(f"({ast.unparse(p)})" for p in parts[1:])
        return (f"[{var} for {var} in (_in_sorted({src}, {table}, I_{table[2:]}, {value}) if {src} else [])"
                f"{' if ' + rest if rest else ''}]")
    if isinstance(found[1], (ast.Constant, ast.Name)):
        return None
    parts[0].comparators[0] = ast.Name(id=name, ctx=ast.Load())
    z = name + "z"
    return (f"[{var} for {z} in ({src},) if len({z}) for {name} in ({value},) for {var} in {z} "   # (len: none fails)
            f"if {ast.unparse(tree)}]")


# generated source that reads the state, the acting player or locals (else it depends only on
# its element, attribute tables and constants)
READS_STATE = re.compile(r"\b(S|me|L)\b")


# the zone of a card being filtered (a zone per card is a dict: read with .get)
_ELEMENT_ZONE = re.compile(r"(?:S\.z\['\w+'\]|_t\w+)\[_e\d+\]|\((?:S\.z\['\w+'\]|_t\w+)\.get\(_e\d+\) or \[\]\)")


_BOUND_ZONE = re.compile(r"_t\w+(?:\[(?:me|\d+)\])?")   # a zone's table bound before a loop


ZONE = re.compile(r"S\.z\['(\w+)'\](?:\[(?:me|\d+|S\.v\['\w+'\])\])?")   # a zone read twice costs nothing


def attr_equals(var: str, cond: str):
    """(attribute table, source of X) when the filter ``cond`` is exactly ``A_attr[var] == X``
    and X does not read the element nor bind a name; else None."""
    found = attr_compare(parsed(cond), var)
    return None if found is None else (found[0], ast.get_source_segment(cond, found[1]))


# what ``x in A + B`` may look for in each list: names and state reads (pure, never raising)
_PURE_VALUE = re.compile(r"-?\w+|'[^'\\]*'|S\.v\['\w+'\]")
_PURE_LIST = re.compile(r"_t\d+|S\.z\['\w+'\]|S\.(?:players|teams)")


def member_of_joined(value: str, lists: str) -> str | None:
    """``x in A + B + C`` over lists as ``(x in A or x in B or x in C)``: the same answer, found
    in the same order, without building the joined list (a define joining three zones, asked
    of each neighbour of a position). None unless x and every part are plain reads that cannot fail
    (a part that raises would otherwise be skipped once x is found)."""
    if _PURE_VALUE.fullmatch(unwrap(value)) is None:
        return None
    tree = parsed(lists)
    parts: list = []

    def leaves(node) -> bool:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return leaves(node.left) and leaves(node.right)
        text = ast.get_source_segment(lists, node)
        parts.append(text)
        return text is not None and _PURE_LIST.fullmatch(text) is not None

    if tree is None or not isinstance(tree, ast.BinOp) or not leaves(tree):
        return None
    return "(" + " or ".join(f"{value} in {part}" for part in parts) + ")"
