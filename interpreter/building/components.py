"""Components: the cards (and other pieces with attributes) of a game, as one table.

Each card is an integer id; its attributes are tuples indexed by id (``A_suit[card]``), so
zones are lists of small ints, cheap to copy and to serialise. A component declares cards
as the product of attribute value lists (``attributes: {suit: [D, H], rank: 1..15}``),
as an explicit ``cards:`` list, or both; ``copies`` repeats each card.
"""
from __future__ import annotations

import itertools
import math
import re
import string

from ..engine.labels import MAX_LABEL   # (one card's label, as one option's)
from ..expr.types import ANY, BOOL, INT, NUM, STR

_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
MAX_CARDS = 100_000


class CardTable:
    def __init__(self):
        self.kinds: list[str] = []          # component name of each card
        self.rows: list[dict] = []          # attribute values of each card
        self.by_component: dict[str, list[int]] = {}
        self.labels: list[str] = []
        self.attr_types: dict[str, str] = {"kind": STR}

    def __len__(self):
        return len(self.rows)

    def tables(self) -> dict[str, tuple]:
        """Attribute name -> tuple of values by card id (None where a card lacks it)."""
        names = list(self.attr_types)
        out: dict[str, tuple] = {}
        for name in names:
            if name == "kind":
                out[name] = tuple(self.kinds)
            else:
                out[name] = tuple(row.get(name) for row in self.rows)
        return out


def expand_values(spec, error, path):
    """A value list: a YAML list, or a range string 'a..b'."""
    if isinstance(spec, list):
        return spec
    if isinstance(spec, str):
        m = _RANGE.match(spec)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            if b - a + 1 > MAX_CARDS or b < a:
                error(f"bad range '{spec}'", path, "range")
                return []
            return list(range(a, b + 1))
    error("attribute values are a list or a range like 1..15", path, "type")
    return []


def _type_of(values) -> str:
    kinds = {type(v) for v in values if v is not None}
    if kinds == {bool}:
        return BOOL
    if kinds == {int}:
        return INT
    if kinds and kinds <= {int, float}:
        return NUM
    if kinds == {str}:
        return STR
    return ANY


def build_cards(components: dict, error) -> CardTable:
    """Build the card table from the ``components:`` section; report problems via ``error``."""
    table = CardTable()
    values_by_attr: dict[str, list] = {}
    for name, spec in (components or {}).items():
        path = ("components", name)
        spec = spec or {}
        ids = table.by_component.setdefault(name, [])
        rows: list[dict] = []
        attrs = spec.get("attributes") or {}
        if attrs:
            keys = list(attrs)
            lists = [expand_values(attrs[k], error, (*path, "attributes", k)) for k in keys]
            if math.prod(map(len, lists)) > MAX_CARDS:   # counted before any card is made
                error(f"too many cards (limit {MAX_CARDS}): the attributes make "
                      f"{' x '.join(str(len(v)) for v in lists)} combinations", path, "limit")
                return table
            for combo in itertools.product(*lists):
                rows.append(dict(zip(keys, combo)))
        for i, row in enumerate(_same_attributes(name, spec.get("cards") or [], error)):
            if not isinstance(row, dict):
                error("a card is a mapping of attribute: value", (*path, "cards", i), "type")
                continue
            row = dict(row)
            n = _copies(row.pop("copies", 1), error, (*path, "cards", i, "copies"))
            if len(rows) + n > MAX_CARDS:
                error(f"too many cards (limit {MAX_CARDS})", (*path, "cards", i), "limit")
                return table
            rows.extend(dict(row) for _ in range(n))
        if not attrs and not spec.get("cards"):
            rows.append({})
        copies = _copies(spec.get("copies", 1), error, (*path, "copies"))
        template = spec.get("label")
        if not _labels_fit(template, name, rows, error, path):
            return table
        for row in rows:
            for _ in range(copies):
                card = len(table.rows)
                if card >= MAX_CARDS:
                    error(f"too many cards (limit {MAX_CARDS})", path, "limit")
                    return table
                ids.append(card)
                table.rows.append(row)
                table.kinds.append(name)
                table.labels.append(_label(template, name, row, error, path))
        for row in rows:
            for k, v in row.items():
                values_by_attr.setdefault(k, []).append(v)
    for k, vs in values_by_attr.items():
        if k == "kind":
            error("'kind' is reserved: it is the component name of a card", ("components",), "reserved")
            continue
        table.attr_types[k] = _type_of(vs)
    return table


def _same_attributes(name, cards, error) -> list:
    """The cards of one ``cards:`` list, each with the attributes its siblings have: a list
    attribute left out is the empty list (a room with no exits); any other left out is an
    error naming the card and the attribute (it would read as none and fail in play, far
    from here). ``attr: null`` says none on purpose."""
    if not isinstance(cards, list):
        return cards
    listed = [r for r in cards if isinstance(r, dict)]
    names = dict.fromkeys(k for r in listed for k in r if k != "copies")
    lists = {k for k in names if all(isinstance(r[k], list) for r in listed if k in r)}
    out = []
    for i, row in enumerate(cards):
        if isinstance(row, dict):
            row = {**row, **{k: [] for k in lists if k not in row}}
            missing = [k for k in names if k not in row]
            if missing:
                k = missing[0]
                error(f"card {i + 1} of '{name}' has no attribute '{k}' (other cards of "
                      f"'{name}' have it)", ("components", name, "cards", i), "missing-key",
                      hint=f"give it '{k}: ...', or '{k}: null' if it has none on purpose")
        out.append(row)
    return out


def _copies(value, error, path) -> int:
    """A ``copies:`` count: a whole number, 0 or more (else an error and 1)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    error(f"copies is a whole number (0 or more), got {value!r:.40}", path, "type")
    return 1


def _labels_fit(template, name, rows, error, path) -> bool:
    """Whether every label of these cards is at most MAX_LABEL characters, measured from the
    lengths of its parts before any is built (else a located error): a long attribute repeated
    by a template, or written by the default label, on every card would fill the memory."""
    if template is not None and not isinstance(template, str):
        return True   # _label reports the template
    try:
        parts = None if template is None else [(t, f) for t, f, _, _ in string.Formatter().parse(template)]
    except ValueError:
        return True
    widths: dict[int, int] = {}

    def width(v) -> int:   # len(str(v)), a list or a map measured once however many cards hold it
        if isinstance(v, str):
            return len(v)
        if not isinstance(v, (list, dict)):
            return len(str(v))
        if id(v) not in widths:
            widths[id(v)] = len(str(v))
        return widths[id(v)]

    for i, row in enumerate(rows):
        if parts is None:
            n = len(name) + (2 + len(row) - 1 + sum(map(width, row.values())) if row else 0)
        else:
            n = sum(len(text) + (0 if not field else len(name) if field == "kind" and "kind" not in row
                                 else width(row.get(field, ""))) for text, field in parts)
        if n > MAX_LABEL:
            error(f"the label of card {i + 1} of '{name}' would be {n} characters (limit {MAX_LABEL})",
                  (*path, "label") if parts is not None else path, "limit",
                  hint="a card's label names it in actions and logs: keep long attributes out of it"
                  if parts is not None else "without a label:, a card is named by its component and all its "
                  "attribute values: give the component a short one, such as label: \"{rank}{suit}\"")
            return False
    return True


def _label(template, name, row, error, path):
    if template is None:
        return name + ("" if not row else "(" + ",".join(str(v) for v in row.values()) + ")")
    try:
        parts = list(string.Formatter().parse(template))
        fields = [f for _, f, _, _ in parts if f]
        # plain {name} only: no {x.attr}, {x[0]}, conversions or format specs (no width bombs)
        if not all(f.isidentifier() for f in fields) or any(spec or conv for _, _, spec, conv in parts):
            raise ValueError(template)
        values = {f: row.get(f, "") for f in fields}
        if "kind" not in row:   # {kind}: the component's name, unless an attribute is called kind
            values["kind"] = name
        return template.format(**values)
    except (ValueError, KeyError, IndexError, AttributeError):
        error(f"bad label template {template!r}: use {{attribute}} placeholders", (*path, "label"), "label")
        return name
