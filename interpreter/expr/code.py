"""Generated source with what the compiler knows of it: the shape it built, the element
variables it reads, whether it binds a name.

The compiler writes Python source, and some of its rewrites (fastpaths.py, statements.py) want
to know the shape of a piece it wrote: is this condition ``A_rank[_e1] == 3 and ...``, is this
list a zone read by a seat. The compiler says so as it writes each construct: a ``Code`` is the
text (a ``str``, so every other use of it is unchanged) carrying a ``shape``, one of the small
typed nodes below, built from the parts it was written from. A rewrite reads the shape, never
the text; text built any other way (a mechanic's built-in, an f-string of parts) has no shape,
and no rewrite applies to it.

``uses``: the element variables (of filters, ``by:``...) and the locals (``L['x']``) the text
reads; ``binds``: it binds a name with ``:=`` (a call lifted out of a loop, compiler.hoist); both
noted by ``Compiler.node`` as each name is resolved. ``loops``: the text holds a loop (a
comprehension, a generator, a lambda), noted where one is written and passed up by
``Compiler.node``; ``walks``: it is a call of a library helper that goes over a list
(``_distinct``, ``_highest``, a scanner, a mechanic's helper). The two say whether a call is worth
lifting out of a loop (compiler.hoist).
"""
from __future__ import annotations

from dataclasses import make_dataclass
from typing import Any


class Code(str):
    """Python source (module docstring); ``shape`` None: nothing known of its form."""
    shape: Any = None
    uses: frozenset = frozenset()
    binds: bool = False
    loops: bool = False
    walks: bool = False
    access: Any = None   # what it reads (access.py), noted only for an element's expression (compile_element)


def code(text: str, shape: Any = None, like: Any = None, loops: bool = False, walks: bool = False) -> Code:
    """``text`` as Code with ``shape`` (or the shape, uses, binds, loops and walks of ``like``:
    the same construct in parentheses); ``loops``, ``walks``: as the module docstring says."""
    out = Code(text)
    if like is not None and isinstance(like, Code):
        out.shape, out.uses, out.binds = like.shape, like.uses, like.binds
        out.loops, out.walks = like.loops, like.walks
    if shape is not None:
        out.shape = shape
    out.loops, out.walks = out.loops or loops, out.walks or walks
    return out


def reading(text: str, uses: frozenset) -> Code:
    """``text`` as Code that reads the element variables ``uses`` (a rewrite of code that did);
    what ``text`` is known to loop or walk stays known."""
    out = Code(text)
    out.uses = uses
    if isinstance(text, Code):
        out.loops, out.walks = text.loops, text.walks
    return out


def any_loop(*parts: Any) -> bool:
    """Whether one of ``parts`` holds a loop (``Code.loops``)."""
    return any(isinstance(part, Code) and part.loops for part in parts)


def shape(src: Any) -> Any:
    return src.shape if isinstance(src, Code) else None


# ---------------------------------------------------------------------- shapes
_DEFAULTS = {"None": None, "False": False}   # the defaults a node's field may have


def _shape(name: str, fields: str) -> Any:
    """A typed node: the frozen dataclass ``name`` with ``fields`` (names split by spaces;
    ``x=None``, ``x=False``: a field with that default). One table below, each node said by the
    comment above it, not a class statement each: the nodes differ only in their fields (typed
    Any: a class made at run time, whose fields a type checker cannot read)."""
    spec: list = []
    for f in fields.split():
        key, _, default = f.partition("=")
        spec.append((key, Any, _DEFAULTS[default]) if default else (key, Any))
    cls = make_dataclass(name, spec, frozen=True)
    cls.__module__ = __name__   # (pickled with the Code that carries it: found here)
    return cls


# The bindings an expression's code needs first (compiler.prelude): ``tables``, (bound name, kind z/c/p, name) of each
# table its loops read; ``hoisted``, the names of the calls lifted out of them; ``access``, what the whole expression
# reads (access.py), if noted.
Prelude = _shape("Prelude", "tables hoisted access=None")
# A literal (a number, a string, true/false, none).
Const = _shape("Const", "value")
# ``-x`` (``operand`` a Code).
Neg = _shape("Neg", "operand")
# ``a / b`` (``_div(a, b)``; ``left``, ``right`` Codes): operators.divided writes it as statements.
Quotient = _shape("Quotient", "left right")
# A bare name: ``me``, or an element variable (``fresh``: one the compiler made, ``_eN``).
Name = _shape("Name", "id fresh=False")
# A local binding, ``L['name']``.
Local = _shape("Local", "name")
# A variable, ``S.v['name']``.
Var = _shape("Var", "name")
# A zone's, counter's or parameter's table (``kind`` z, c, p): ``S.z['x']``, or the local name it is bound to before a
# loop (``bound``, compiler.table). ``tagged``: bound under a tag (expressions sharing one prelude,
# compiler.compile_element).
Table = _shape("Table", "kind name bound tagged=False")
# A zone's list: its table (a Table Code), ``owner`` the Code of its owner (None: shared), ``per_card``: a zone owned by
# each card, read with ``.get(owner) or []``.
Zone = _shape("Zone", "table owner=None per_card=False")
# ``S.players`` (``what`` players) or ``S.teams``.
Seats = _shape("Seats", "what")
# ``T[i]``: an attribute table (``A_rank``: ``kind`` attr), a table bound before a loop (bound), or a counter's table
# (state: ``S.c['x']``), looked up by ``index`` (a Code).
Lookup = _shape("Lookup", "table index kind")
# ``L where C`` as the compiler wrote it (a comprehension or a faster form): its element variable, the list it walks and
# its condition (Codes); ``split``: (the terms asked once, the terms asked of each element), joined, when it is written as
# the comprehension of compiler.filter_source (statements.py writes the same loop as statements), else None.
Filter = _shape("Filter", "var iter cond split=None")
# ``count(L where C)``: ``filter`` the Filter counted.
Count = _shape("Count", "filter")
# ``len(L)`` of a zone's list read from the state (``iter``: never none, a list).
Size = _shape("Size", "iter")
# ``map(L, to: E)``: ``iter`` the list mapped (as many elements); ``lookup`` (table, Lookup kind) when E only looks a
# table up by the element and L is a list a plain loop may walk.
Mapped = _shape("Mapped", "iter lookup=None")
# ``top(L, by: K)`` or ``bottom`` (``helper`` _top or _bottom): ``iter`` the list, ``key`` the key function (Codes).
Ranked = _shape("Ranked", "helper iter key")
# A call lifted out of a loop (compiler.hoist): ``inner`` the call, ``name`` the name it is kept in once computed.
Hoisted = _shape("Hoisted", "inner name=None")
# ``_lookup(T)``: a key function that looks the element up in the table T (builtins.key_fn).
KeyLookup = _shape("KeyLookup", "table")
# ``(left OP right)``, OP a Python comparison (== != < <= > >=).
Compare = _shape("Compare", "op left right")
# ``(a and b)`` or ``(a or b)``; ``parts`` Codes.
BoolOp = _shape("BoolOp", "op parts")
# ``not operand``.
Not = _shape("Not", "operand")
# A call of a scanner (fastpaths.scan_call) returning the first element of ``coll`` that passes ``tests``, a tuple of
# (operator, table, value).
Scan = _shape("Scan", "coll tests")
# ``(value is None)`` (``present``: ``is not None``) where ``value`` is ``scan`` (a Scan Code) or that call hoisted:
# whether ``count(L where ...)`` is 0.
Absent = _shape("Absent", "scan value present")
# ``any(True for var in iter if cond)``: whether some element passes.
AnyLoop = _shape("AnyLoop", "var iter cond")
# ``sum([body for var in iter])`` of whole numbers (builtins.b_sum).
Summed = _shape("Summed", "var iter body")
# ``(a + b)`` of two lists.
Join = _shape("Join", "left right")
# ``list(inner)``: a new list of a tuple's elements (a board's neighbours); a loop walks ``inner`` itself.
Copy = _shape("Copy", "inner")
# ``table[index]``: a tuple of cards (never none) in ``table``, a tuple of them fixed at load (a board's neighbours).
Cards = _shape("Cards", "table index")
# ``(value is not None and value in found)`` (``negated``: ``not in``): whether the card ``value`` is one of the bytes
# ``found``, the cards of some lists (fastpaths.member_of_cards).
InBytes = _shape("InBytes", "value found negated=False")
# ``(value is not None and <its code in the record> ...)`` (``negated``: ``not in``): whether the card ``value`` is in
# recorded zones, ``codes`` theirs (fastpaths.record_codes: a code, or a tuple of bools by code).
InRecord = _shape("InRecord", "value codes negated=False")


# ---------------------------------------------------------------------- reading shapes
def conjuncts(src: Any, op: str = "and") -> list:
    """The terms of ``A and B and ...`` (nested ands flattened), as Codes; ``op="or"``: of
    ``A or B or ...``."""
    s = shape(src)
    if isinstance(s, BoolOp) and s.op == op:
        return [term for part in s.parts for term in conjuncts(part, op)]
    return [src]


def filter_split(var: str, cond: Any, plain: bool) -> tuple[str, str]:
    """``cond`` of a filter of element ``var`` as (its leading terms that do not read the element,
    asked once; the rest), each joined by ``and`` ("": none). Plain: nothing asked once."""
    terms = conjuncts(cond)
    k = 0
    while not plain and k < len(terms) and isinstance(terms[k], Code) and var not in terms[k].uses:
        k += 1
    if k == 0:
        return "", str(cond)
    return " and ".join(f"({t})" for t in terms[:k]), " and ".join(f"({t})" for t in terms[k:])


def zone_name(src: Any) -> str | None:
    """The zone of ``S.z['x']``, ``S.z['x'][me]``, ``S.z['x'][3]`` or ``S.z['x'][S.v['k']]``
    (read from the state itself, not a table bound before a loop); else None."""
    s = shape(src)
    if not isinstance(s, Zone) or s.per_card or shape(s.table).bound:
        return None
    return shape(s.table).name if s.owner is None or owner_kind(s.owner) in ("me", "int", "var") else None


def owner_kind(owner: Any) -> str | None:
    s = shape(owner)
    if isinstance(s, Name):
        return "me" if s.id == "me" else "element" if s.fresh else None
    if isinstance(s, Const) and type(s.value) is int and s.value >= 0:
        return "int"
    if isinstance(s, Var):
        return "var"
    return None


def bound_tables(src: Any) -> list:
    """The names of the tables bound before a loop that the list ``src`` reads: a shared zone's,
    or each of zones joined (``A + B``)."""
    s = shape(src)
    if isinstance(s, Join):
        return bound_tables(s.left) + bound_tables(s.right)
    if isinstance(s, Zone) and s.owner is None:
        return bound_tables(s.table)
    return [str(src)] if isinstance(s, Table) and s.bound else []


def walkable(src: Any) -> bool:
    """A list a plain loop may walk: a zone read from the state or from a table bound before the
    loop (shared, or of ``me``, a seat number, a variable's seat (unbound only), or an element of
    the filter around), or the players (their elements are never none)."""
    s = shape(src)
    if isinstance(s, Seats):
        return s.what == "players"
    if not isinstance(s, Zone):
        return False
    kind = owner_kind(s.owner) if s.owner is not None else None
    if s.per_card:
        return kind == "element"
    if s.owner is None or kind in ("me", "int", "element"):
        return True
    return kind == "var" and not shape(s.table).bound


def lookup(src: Any, var: str) -> Any:
    """The Lookup when ``src`` is ``T[var]`` (a seat's zone read by the element from a table
    bound before the loop is one too); else None."""
    s = shape(src)
    if isinstance(s, Zone) and s.owner is not None and not s.per_card and shape(s.table).bound:
        s = Lookup(s.table, s.owner, "bound")
    if not (isinstance(s, Lookup) and isinstance(shape(s.index), Name) and shape(s.index).id == var):
        return None
    return s


def lookup_table(src: Any, var: str, attributes_or_bound: bool = False) -> str | None:
    """T when ``src`` is ``T[var]`` (``lookup``); ``attributes_or_bound``: only an attribute
    table or a table bound before the loop (a name a C-level key function can take)."""
    s = lookup(src, var)
    return None if s is None or attributes_or_bound and s.kind == "state" else s.table


def reads(src: Any, var: str) -> bool:
    """Whether ``src`` reads the element variable ``var`` (or binds a name: conservative)."""
    return not isinstance(src, Code) or var in src.uses or src.binds
