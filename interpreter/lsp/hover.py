"""Hover: a key's reference entry (docs/reference.md, the schema's description), a function's
row of the built-in tables (docs/language.md §6, reference.md's functions of the mechanics),
a parameter's value and ``doc:``, a declared name's declaration."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from ..expr.builtins import BUILTINS
from ..expr.names import CONSTANTS
from ..loading.schema import load_schema
from .checking import Checked
from .positions import Context

_ROW = re.compile(r"^\|(.+)\|\s*$")
_TICKED = re.compile(r"`([^`]+)`")


def docs_dir() -> Path:
    """docs/ of a checkout, else the copy an install ships inside the package (pyproject)."""
    package = Path(__file__).resolve().parent.parent
    root = package.parent
    return root / "docs" if (root / "pyproject.toml").is_file() else package / "docs"


@lru_cache(maxsize=1)
def reference() -> tuple[dict, dict, dict]:
    """(table rows by the names they document, by section; sections by heading word;
    built-in functions' rows by function name), read once from the docs."""
    keys: dict[str, list] = {}
    sections: dict[str, str] = {}
    functions: dict[str, str] = {}
    told: set[str] = set()   # the functions language.md has told
    for name in ("reference.md", "language.md"):
        try:
            text = (docs_dir() / name).read_text(encoding="utf-8")
        except OSError:
            continue
        heading, header = "", ""
        body: list[str] = []
        for line in text.splitlines():
            if line.startswith("#"):
                if heading and body:
                    sections.setdefault(heading.split()[-1].strip("`").lower(), "\n".join(body).strip())
                heading, header, body = line.lstrip("#").strip(), "", []
                continue
            if len(body) < 12:
                body.append(line)
            m = _ROW.match(line)
            if not m:
                header = ""
                continue
            cells = [c.strip() for c in m.group(1).split("|")]
            if not header:
                header = line
                continue
            if set(cells[0]) <= set("-: "):
                continue
            entry = f"**{heading}**\n\n{header}\n|{'|'.join('---' for _ in cells)}|\n{line}"
            for ticked in _TICKED.findall(cells[0]):
                fn = re.match(r"^(\w+)\(", ticked)
                if fn and fn.group(1) not in told:   # (a function's row in language.md, its reference, first)
                    if name == "language.md":
                        told.add(fn.group(1))
                    functions[fn.group(1)] = entry if name == "language.md" else functions.get(fn.group(1), entry)
                elif re.fullmatch(r"[\w$]+", ticked):
                    keys.setdefault(ticked, []).append((heading.lower(), entry))
        if heading and body:
            sections.setdefault(heading.split()[-1].strip("`").lower(), "\n".join(body).strip())
    return keys, sections, functions


@lru_cache(maxsize=1)
def kind_docs() -> dict[str, str]:
    """Each step and effect kind's one-line doc, and each top-level key's, from the schema."""
    schema = load_schema()
    out = {k: v.get("description", "") for k, v in schema["properties"].items()}
    for d in schema.get("$defs", {}).values():
        out.update({k: v.get("description", "") for k, v in d.get("properties", {}).items()})
    return out


def key_doc(key: str, path: tuple) -> str | None:
    """The reference entry of a key written at ``path``: the rows documenting it (the row of
    the section about the path's top-level key first), or a step kind's section."""
    keys, sections, _ = reference()
    parts = []
    if kind_docs().get(key):
        parts.append(f"`{key}`: {kind_docs()[key]}")
    rows = keys.get(key, [])
    top = str(path[0]).lower()[:4] if path else "top-level"
    rows = sorted(rows, key=lambda r: 0 if top in r[0] else 1)
    if rows:
        parts.append(rows[0][1])
    elif key in sections:
        parts.append(sections[key])
    return "\n\n".join(parts) or None


def function_doc(name: str) -> str | None:
    if name not in BUILTINS:
        return None
    return reference()[2].get(name) or f"`{name}(...)`: a built-in function"


def name_doc(word: str, ctx: Context, checked: Checked, params_before: bool) -> str | None:
    """What a name in an expression is: a parameter (after ``params.``) with its value and doc,
    a zone, counter, variable or define with its declaration, a card attribute, a function."""
    data = checked.data or {}
    if params_before:
        spec = (data.get("params") or {}).get(word)
        if spec is None and word not in (data.get("params") or {}):
            return None
        doc = spec.get("doc") if isinstance(spec, dict) else None
        return f"**parameter `{word}`**" + (f": {doc}" if doc else "") + f"\n\n```json\n{_show(spec)}\n```"
    for section, what in (("zones", "zone"), ("counters", "counter"), ("vars", "variable"), ("define", "define"),
                          ("effects", "effect")):
        decl = data.get(section)
        if isinstance(decl, dict) and word in decl:
            return f"**{what} `{word}`**\n\n```json\n{_show(decl[word])}\n```"
    names = checked.names
    if names is not None and word in names.attrs:
        return f"**card attribute `{word}`** ({names.attrs[word]})"
    if word in CONSTANTS:
        return f"**`{word}`** ({CONSTANTS[word][1]})"
    return function_doc(word)


def id_doc(name, list_name: str, declared) -> str:
    """The entry an id names: its list, where it is declared and what it is (``declared``:
    (location, the entry) or None)."""
    head = f"**entry `{name}`** of the list `{list_name}`"
    if declared is None:
        return f"{head}: no entry of this list has this id"
    loc, entry = declared
    return f"{head}, declared at {Path(loc.path).name}:{loc.line}\n\n```json\n{_show(entry)}\n```"


def expression_type(checked: Checked, text: str, offset: int) -> str | None:
    """The type of the expression written at ``offset`` of the checked document's ``text``
    (as the last check compiled it; None once the text has changed since)."""
    if checked.smap is None or checked.text != text:
        return None
    for path, e in checked.smap.entries().items():
        if e.file.path == checked.path and e.start <= offset <= e.end and path in checked.types:
            return f"the expression's type: `{checked.types[path]}`"
    return None


def _show(value) -> str:
    text = json.dumps(value, indent=1, default=str)
    return text if len(text) < 1500 else text[:1500] + "\n..."
