"""Completion: at a key, the keys accepted there (as the builder checks them, else the
schema); at a value, the schema's choices, or inside an expression the names in scope:
zones, counters and their keys, variables, defines, constants, the locals of that place,
the elements named with ``as`` there (lsp/as_names.py), parameters (after ``params.``) and map keys, card attributes and their values, functions."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from lsprotocol import types

from ..expr.builtins import BUILTINS
from ..expr.names import CONSTANTS
from ..loading.schema import load_schema
from .checking import Checked
from .as_names import names_at
from .scans import WINDOW, compared_at, indexed_at, owner_at
from .hover import function_doc, key_doc
from .positions import Context

Kind = types.CompletionItemKind
ELEMENT_WORDS = ("where", "by:", "to:")   # an implicit element 'it' is in scope after these


def complete(ctx: Context, checked: Checked | None) -> list[types.CompletionItem]:
    if ctx.at_key:
        return _keys(ctx, checked)
    choices = _schema_at((*ctx.path, ctx.key)).get("enum")
    if choices:
        return [types.CompletionItem(label=str(c), kind=Kind.EnumMember) for c in choices]
    return _names(ctx, checked) if checked is not None and checked.names is not None else []


# ---------------------------------------------------------------------- keys
@lru_cache(maxsize=1)
def _schema() -> dict:
    return load_schema()


def _resolve(node: dict) -> dict:
    schema = _schema()
    while isinstance(node, dict) and "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node if isinstance(node, dict) else {}


def _schema_at(path: tuple) -> dict:
    """The schema of the value at a data path ({} where it says nothing)."""
    node = _resolve(_schema())
    for seg in path:
        if isinstance(seg, int):
            node = _resolve(node.get("items", {}))
        elif seg in node.get("properties", {}):
            node = _resolve(node["properties"][seg])
        else:
            extra = node.get("additionalProperties")
            node = _resolve(extra) if isinstance(extra, dict) else {}
        if not node:
            return {}
    return node


def _accepted(path: tuple, checked: Checked | None) -> list[str]:
    """The keys the builder accepted at ``path`` in the last check; for a place that was not
    there then, those of the same kind of step written elsewhere."""
    if checked is None:
        return []
    if path in checked.allowed:
        return list(checked.allowed[path])
    if len(path) >= 2 and isinstance(path[-2], int):   # the mapping of a step kind (pick: {...})
        for p, keys in checked.allowed.items():
            if len(p) >= 2 and p[-1] == path[-1] and isinstance(p[-2], int):
                return list(keys)
    return []


def _keys(ctx: Context, checked: Checked | None) -> list[types.CompletionItem]:
    node = _schema_at(ctx.path)
    props = node.get("properties", {})
    names = list(dict.fromkeys([*props, *_accepted(ctx.path, checked)]))
    out = []
    for k in names:
        doc = key_doc(k, ctx.path)
        out.append(types.CompletionItem(
            label=k, kind=Kind.Property, detail=(props.get(k) or {}).get("description"), insert_text=f"{k}: ",
            documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=doc) if doc else None))
    return out


# ---------------------------------------------------------------------- expressions
def _locals(path: tuple, checked: Checked) -> tuple:
    """The locals of the expression at ``path`` in the last check; for a new one, those of the
    expression written nearest to it (the longest common path)."""
    if path in checked.locals_at:
        return tuple(checked.locals_at[path][0])
    best, depth = (), 0
    for p, (names, *_) in checked.locals_at.items():
        n = 0
        while n < min(len(p), len(path)) and p[n] == path[n]:
            n += 1
        if n > depth:
            best, depth = tuple(names), n
    return best


def _item(label, kind, detail=None, doc=None, sort="1"):
    return types.CompletionItem(
        label=label, kind=kind, detail=detail, sort_text=f"{sort}{label}",
        documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=doc) if doc else None)


def _names(ctx: Context, checked: Checked) -> list[types.CompletionItem]:
    names = checked.names
    assert names is not None
    data = checked.data or {}
    text = ctx.before[-WINDOW:]
    owner = owner_at(text)
    params: dict = data["params"] if isinstance(data.get("params"), dict) else {}
    indexed = indexed_at(text)
    if indexed:   # params.MAP[ or FAMILY[: the keys, quoted
        name, quoted = indexed
        keys = names.map_keys(name[7:]) if name.startswith("params.") else names.keyed.get(name)
        if keys:
            quote = "" if quoted else "'"
            return [_item(f"{quote}{k}{quote}", Kind.EnumMember, f"a key of {name}") for k in keys]
    if owner == "params":
        return [_item(p, Kind.Constant, _param_detail(spec), (spec or {}).get("doc") if isinstance(spec, dict) else None)
                for p, spec in params.items()]
    if owner in names.keyed:
        return [_item(str(k), Kind.EnumMember, f"{owner}.{k}") for k in names.keyed[owner]]
    compared = compared_at(text)
    if compared and compared[0] in names.attrs:
        values = names.namespace.get("A_" + compared[0]) or ()
        unquoted = "'" not in text[compared[1]:]
        return [_item(f"'{v}'" if isinstance(v, str) and unquoted else str(v), Kind.Value)
                for v in dict.fromkeys(v for v in values if v is not None)]
    out = [_item(a, Kind.Field, f"card attribute ({t})", sort="2") for a, t in names.attrs.items()]
    if owner:   # p.hand, c.rank: what an element owns or has
        return out + [_item(z, Kind.Variable, "zone") for z in names.zones] + \
            [_item(c, Kind.Variable, "counter") for c in names.counters]
    out += [_item(z, Kind.Variable, f"zone (owner: {o})") for z, o in names.zones.items()]
    out += [_item(c, Kind.Variable, f"counter (owner: {o})") for c, o in names.counters.items()]
    out += [_item(k, Kind.Module, "counter family: " + ", ".join(map(str, keys))) for k, keys in names.keyed.items()]
    out += [_item(v, Kind.Variable, f"variable ({t})") for v, t in names.vars.items()]
    out += [_item(d, Kind.Constant, f"define: {src}") for d, src in names.defines.items()]
    out += [_item(c, Kind.Keyword, str(t)) for c, (_, t) in CONSTANTS.items()]
    out += [_item(n, Kind.Variable, "local") for n in _locals((*ctx.path, ctx.key), checked)]
    out += [_item(n, Kind.Variable, f"element of {listed} (as {n})") for n, listed in names_at(text).items()]
    if any(w in text for w in ELEMENT_WORDS):
        out.append(_item("it", Kind.Keyword, "the element of where / by: / to:"))
    out.append(_item("params", Kind.Module, "the parameters: params.NAME"))
    out += [_item(f"params.{p}", Kind.Constant, _param_detail(spec)) for p, spec in params.items()]
    for fn in BUILTINS:
        doc = function_doc(fn)
        sig = re.search(r"`(" + re.escape(fn) + r"\([^`]*\))`", doc or "")
        out.append(_item(fn, Kind.Function, sig.group(1) if sig else f"{fn}(...)", doc, sort="3"))
    return out


def entry_ids(declared: dict, list_name: str) -> list[types.CompletionItem]:
    """The ids of a list's entries (navigation.id_declarations), each with where it is declared."""
    return [_item(str(name), Kind.Reference, f"an entry of {list_name} ({Path(loc.path).name}:{loc.line})")
            for name, (loc, _) in declared.items()]


def _param_detail(spec) -> str:
    if isinstance(spec, dict):
        shown = {k: v for k, v in spec.items() if k != "doc"}
        return "parameter " + str(shown)[:80]
    return f"parameter = {str(spec)[:80]}"
