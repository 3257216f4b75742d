"""Go to definition, find references and rename for declared names (zones, counters,
variables, parameters, defines, named effects), across the files of an ``extends:`` chain;
definition and references of the ``id:`` of list entries; and the document's outline (its declarations and its flow as symbols)."""
from __future__ import annotations

import re
from itertools import islice
from pathlib import Path
from typing import Iterator

from lsprotocol import types

from ..errors import Location, RulebookError
from ..loading.resources import resolved, within
from ..loading.schema import load_schema
from ..loading.source import SourceMap, load_yaml
from ..loading.variants import MAX_EXTENDS, resolve_extends
from .checking import Checked
from .positions import Context, word_at

# the top-level sections that declare names, in the order a bare name resolves (docs/language.md §5)
SECTIONS = {"vars": "variable", "zones": "zone", "counters": "counter", "define": "define",
            "effects": "effect", "params": "parameter"}
RENAMABLE = ("zones", "counters", "define", "vars", "params", "effects")
PROSE = {"description", "doc", "title", "prompt", "game", "version", "extends"}   # text for people, not names
_NAME = re.compile(r"^[A-Za-z_]\w*$")


def target(line: str, col: int, ctx: Context, checked: Checked) -> tuple[str, str] | None:
    """(section, name) of the declared name under the cursor, if it is one."""
    found = word_at(line, col)
    data = checked.data or {}
    if found is None:
        return None
    word, start = found
    if ctx.at_key and len(ctx.path) == 1 and ctx.path[0] in SECTIONS:
        return ctx.path[0], word
    if ctx.key is not None and len(ctx.path) == 1 and ctx.path[0] in SECTIONS and ctx.before.strip() == "":
        return ctx.path[0], word
    if line[:start].endswith("params."):
        return ("params", word) if word in (data.get("params") or {}) else None
    for section in SECTIONS:
        if section != "params" and isinstance(data.get(section), dict) and word in data[section]:
            return section, word
    return None


def definition(section: str, name: str, checked: Checked) -> Location | None:
    """Where the merged ruleset declares it: the file of the chain that wrote it last."""
    if checked.smap is None or (section, name) not in checked.smap:
        return None
    return checked.smap.key_loc((section, name))


def chain_files(checked: Checked) -> list[str]:
    """The files the checked ruleset was merged from (itself first)."""
    files = [checked.path]
    if checked.smap is not None:
        for entry in checked.smap.entries().values():
            if entry.file.path not in files:
                files.append(entry.file.path)
    return files


_EXTENDS = re.compile(r"""^extends\s*:\s*['"]?([^'"\s#]+)""", re.M)
MAX_SIBLINGS = 200   # YAML files of a folder looked at for variant files extending a ruleset
HEAD = 10_000        # the characters of a file read for its extends: line


def extending(files: list[str], read) -> list[str]:
    """The files of the folders of ``files`` whose ``extends:`` names one of them (or one of
    those found so far): the variant files built on a base, those extending ``files`` first,
    then those extending them, and so on (each in name order). ``read(path)``: a file's text (its
    first ``HEAD`` characters are enough), asked once a file: the files each one names are
    found once, then followed from ``files``. A name of the folder that leads out of it (a link)
    is not read."""
    chain = {str(Path(f).resolve()) for f in files}
    folders = {Path(f).resolve().parent for f in files}
    candidates = sorted({str(p) for d in folders for p in _resolved(islice(d.glob("*.y*ml"), MAX_SIBLINGS))
                         if within(p, [d])} - chain)
    named: dict[str, list[str]] = {}   # a file -> the candidates whose extends: names it
    for c in candidates:
        m = _EXTENDS.search(read(c)[:HEAD])
        base = resolved(Path(c).parent / m.group(1)) if m else None
        if base is not None:
            named.setdefault(str(base), []).append(c)
    found: list[str] = []
    reached, level = set(chain), sorted(chain)
    while level:
        level = sorted({c for f in level for c in named.get(f, ()) if c not in reached})
        reached.update(level)
        found += level
    return found


def _resolved(paths) -> Iterator[Path]:
    for p in paths:
        r = resolved(p)
        if r is not None:
            yield r


def bases(path: str, read) -> list[str]:
    """The files ``path`` extends, read from their ``extends:`` lines (a file that does not load,
    such as a variant whose change names no entry, has no source map to tell them), each
    followed only where loading would follow it (loading/variants.py ``resolve_extends``: the
    allowed folders, or a bundled ruleset)."""
    found: list[str] = []
    while len(found) < MAX_EXTENDS and (m := _EXTENDS.search(read(path)[:HEAD])):
        try:
            path = str(resolve_extends(Path(path), m.group(1)))
        except RulebookError:
            break
        if path in found:
            break
        found.append(path)
    return found


def _scalars(data, path=()) -> Iterator[tuple[tuple, object]]:
    if isinstance(data, dict):
        for k, v in data.items():
            if k not in PROSE:
                yield from _scalars(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _scalars(v, (*path, i))
    else:
        yield path, data


_PATCHING = {"$patch", "$replace", "with", "replace", "insert", "append"}   # (the keys of a $patch change)


def place(path: tuple) -> tuple:
    """The kind of place a data path is, as every file of a chain writes it: its last two keys
    (list indexes, an inline variant's ``variants: NAME`` and a ``$patch`` change's own keys
    left out): ``(move, from)``, ``(define, best)``, ``(end_when,)``."""
    if len(path) > 2 and path[0] == "variants":
        path = path[2:]
    patched = "$patch" in path or "$replace" in path
    keys = [k for k in path if isinstance(k, str) and not (patched and k in _PATCHING)]
    return tuple(keys[-2:])


def name_places(checked: Checked) -> frozenset:
    """The places (``place``) where the check read a name: its expressions and the keys that
    name a declaration (``from: deck``, ``counter: coins``)."""
    triggers = (checked.data or {}).get("triggers")
    entered = [("triggers", name, "on_enter") for name, t in triggers.items() if isinstance(t, dict)] \
        if isinstance(triggers, dict) else []   # (zones the trigger mechanic reads itself)
    return frozenset(place(p) for p in (*checked.locals_at, *checked.named_at, *entered))


def references(section: str, name: str, files: dict[str, str], places: frozenset) -> list[tuple[Location, int]]:
    """Every place the name is written in ``files`` (path -> text): its declaration, and its
    uses in expressions and name lists (``params.NAME`` for a parameter), as (location,
    length); a text is looked into only at the ``places`` a name is read (name_places), not
    in data that may hold the same word (a card's attribute, a label)."""
    if section == "params":
        pattern = re.compile(r"(?<![\w.'\"])params\.(" + re.escape(name) + r")\b")
    else:
        pattern = re.compile(r"(?<![\w'\"$])(?<!params\.)(" + re.escape(name) + r")(?![\w'\"])")
    out: list[tuple[Location, int]] = []
    for path, text in files.items():
        try:
            data, smap = load_yaml(text, path)
        except RulebookError:
            continue
        if not isinstance(data, dict):
            continue
        declared = data.get(section)
        if isinstance(declared, dict) and name in declared:
            loc = smap.key_loc((section, name))
            if loc is not None:
                out.append((loc, len(name)))
        ids = {where for _, _, where, _ in _ids(data, (), (), top=True)}   # (their own names, not uses)
        for where, value in _scalars(data):
            if not isinstance(value, str) or where in ids or place(where) not in places:
                continue
            for m in pattern.finditer(value):
                loc = smap.expr_loc(where, m.start(1))
                if loc is not None:
                    out.append((loc, len(name)))
        if section == "vars":   # set: {NAME: ...} names a variable by its key
            out += [(loc, len(name)) for loc in _set_keys(data, smap, name)]
    return sorted(set(out))


def _set_keys(data, smap: SourceMap, name: str, path=()) -> Iterator[Location]:
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "set" and isinstance(v, dict) and name in v:
                loc = smap.key_loc((*path, k, name))
                if loc is not None:
                    yield loc
            yield from _set_keys(v, smap, name, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _set_keys(v, smap, name, (*path, i))


def id_rename_problem(list_key: tuple, new: str, files: dict[str, str]) -> str | None:
    """Why ``new`` cannot be the new id of an entry of that list, or None."""
    if not _NAME.match(new):
        return f"'{new}' is not a name (letters, digits and _, not starting with a digit)"
    if id_references(list_key, new, files, declared_only=True):
        return f"'{new}' is already the id of an entry of this list"
    return None


def rename_problem(section: str, new: str, checked: Checked) -> str | None:
    """Why ``new`` cannot be the new name, or None."""
    if section not in RENAMABLE:
        return f"a {SECTIONS.get(section, section)} cannot be renamed"
    if not _NAME.match(new):
        return f"'{new}' is not a name (letters, digits and _, not starting with a digit)"
    data = checked.data or {}
    for s in SECTIONS:
        if isinstance(data.get(s), dict) and new in data[s] and (s == "params") == (section == "params"):
            return f"'{new}' is already a {SECTIONS[s]}"
    return None


# ---------------------------------------------------------------------- ids of list entries
PATCH_NAMES = ("id", "before", "after", "remove")   # the keys of a $patch change that name an entry
_ID_KEY = re.compile(r"\b(?:" + "|".join(PATCH_NAMES) + r")\s*:")


def _ids(node, path: tuple, list_key: tuple, top: bool = False) -> Iterator[tuple[tuple, object, tuple, bool]]:
    """(the list's key, the id, the data path of its value, whether it declares it) of every
    ``id:`` of a list entry and every name of one in a ``$patch`` (loading/patches.py). A list's
    key is where it is in the merged ruleset, an entry with an id named ``#ID`` in it, so that
    a change written in a variant meets the entry its base declares."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            named = isinstance(item, dict) and isinstance(item.get("id"), (str, int))
            if named:
                yield list_key, item["id"], (*path, i, "id"), True
            yield from _ids(item, (*path, i), (*list_key, f"#{item['id']}" if named else i))
    elif isinstance(node, dict) and set(node) == {"$patch"} and isinstance(node["$patch"], list):
        for k, op in enumerate(node["$patch"]):
            here = (*path, "$patch", k)
            if not isinstance(op, dict):
                continue
            for key in PATCH_NAMES:
                if isinstance(op.get(key), (str, int)):
                    yield list_key, op[key], (*here, key), False
            entry = (*list_key, f"#{op.get('id')}")
            for key, within in (("with", entry), ("replace", entry), ("insert", list_key), ("append", list_key)):
                if key in op:
                    yield from _ids(op[key], (*here, key), within)
    elif isinstance(node, dict):
        for key, value in node.items():
            if top and key == "variants" and isinstance(value, dict):   # an inline variant overlays the root
                for name, overlay in value.items():
                    yield from _ids(overlay, (key, name), ())
            elif key == "$replace":
                yield from _ids(value, (*path, key), list_key)
            elif key not in PROSE:
                yield from _ids(value, (*path, key), (*list_key, key))


def _id_places(text: str, path: str) -> Iterator[tuple[tuple, object, Location, bool]]:
    """The ids of a file's text with the location of each."""
    try:
        data, smap = load_yaml(text, path)
    except RulebookError:
        return
    for list_key, name, where, declares in _ids(data, (), (), top=True):
        loc = smap.expr_loc(where, 0)
        if loc is not None:
            yield list_key, name, loc, declares


def id_at(text: str, path: str, line: int, col: int) -> tuple[tuple, object] | None:
    """(the list's key, the id) of the id of a list entry under 0-based (``line``, ``col``)."""
    lines = text.split("\n", line + 1)
    if line >= len(lines) or not _ID_KEY.search(lines[line]):   # (the file is parsed only where an id may be)
        return None
    for list_key, name, loc, _ in _id_places(text, path):
        if loc.line - 1 == line and loc.col - 1 <= col <= loc.col - 1 + len(str(name)):
            return list_key, name
    return None


def id_references(list_key: tuple, name, files: dict[str, str], declared_only: bool = False) -> list[tuple[Location, int]]:
    """Where the entry's id is written in ``files`` (path -> text): its ``id:`` and the changes
    of variants that name it (``declared_only``: the ``id:`` alone), as (location, length)."""
    return sorted({(loc, len(str(name))) for path, text in files.items()
                   for key, n, loc, declares in _id_places(text, path)
                   if key == list_key and n == name and (declares or not declared_only)})


def id_declarations(list_key: tuple, files: dict[str, str]) -> dict[object, tuple[Location, object]]:
    """The ids the entries of that list declare in ``files`` (path -> text), each with where and
    the entry itself (as the file that declares it writes it)."""
    out: dict[object, tuple[Location, object]] = {}
    for path, text in files.items():
        try:
            data, smap = load_yaml(text, path)
        except RulebookError:
            continue
        for key, name, where, declares in _ids(data, (), (), top=True):
            loc = smap.expr_loc(where, 0) if declares and key == list_key else None
            if loc is not None:
                out.setdefault(name, (loc, _at(data, where[:-1])))
    return out


def _at(data, path: tuple):
    for seg in path:
        data = data[seg]
    return data


_CURSOR = "__rulebook_cursor__"   # (a name no ruleset writes: where the cursor is, in a copy of the text)


def patch_list_at(text: str, path: str, line: int, key: str) -> tuple | None:
    """The key of the list a ``$patch`` change names an entry of, the cursor being in the value
    of its ``key`` (id:, after:, before:, remove:) on 0-based ``line``, written as a block."""
    lines = text.split("\n")
    m = re.match(r"^(\s*(?:-\s+)*" + re.escape(key) + r"\s*:).*$", lines[line]) if line < len(lines) else None
    if m is None:
        return None
    lines[line] = f"{m.group(1)} {_CURSOR}"
    for list_key, name, _, declares in _id_places("\n".join(lines), path):
        if name == _CURSOR and not declares:
            return list_key
    return None


def list_name(list_key: tuple) -> str:
    """A list's key as people read it: ``flow.#rounds.steps``."""
    return ".".join(map(str, list_key)) or "(the top)"


# ---------------------------------------------------------------------- outline
STEP_KINDS = {k for k in load_schema()["$defs"]["step"]["properties"] if k != "steps"}
STEP_LISTS = ("steps", "then", "else", "do", "options", "outcomes", "setup")


def symbols(text: str, path: str, to_range) -> list[types.DocumentSymbol]:
    """The document's declarations (one symbol per section, its names inside) and its flow as
    an outline: each step by its kind, the steps inside it nested. ``to_range(start, end)``:
    the LSP range of two source indexes."""
    try:
        data, smap = load_yaml(text, path)
    except RulebookError:
        return []
    if not isinstance(data, dict):
        return []
    entries = smap.entries()

    def sym(name, detail, where, kind, children=()):
        e = entries.get(where)
        if e is None:
            return None
        start = e.key if e.key is not None else e.start
        rng = to_range(start, e.end)
        sel = to_range(start, start + len(str(where[-1]))) if where and e.key is not None else rng
        return types.DocumentSymbol(name=str(name) or "-", detail=detail, kind=kind, range=rng,
                                    selection_range=sel, children=[c for c in children if c] or None)

    out = []
    for section, what in SECTIONS.items():
        decl = data.get(section)
        if isinstance(decl, dict):
            kids = [sym(n, what, (section, n), types.SymbolKind.Variable) for n in decl]
            out.append(sym(section, None, (section,), types.SymbolKind.Namespace, kids))
    if isinstance(data.get("flow"), list):
        out.append(sym("flow", None, ("flow",), types.SymbolKind.Namespace, _steps(data["flow"], ("flow",), sym)))
    return [s for s in out if s]


def _steps(items, path, sym) -> list:
    out = []
    for i, item in enumerate(items):
        where = (*path, i)
        if isinstance(item, str):
            out.append(sym(item, "effect", where, types.SymbolKind.Event))
            continue
        if not isinstance(item, dict) or not item:
            continue
        kind = next((k for k in item if k in STEP_KINDS), next(iter(item)))
        value = item[kind]
        detail = value if isinstance(value, (str, int, float)) else None
        kids = []
        for holder, nested in [(where, item), ((*where, kind), value)]:
            if isinstance(nested, dict):
                for key in STEP_LISTS:
                    if isinstance(nested.get(key), list):
                        kids += _steps(nested[key], (*holder, key), sym)
        out.append(sym(kind, str(detail) if detail is not None else None, where, types.SymbolKind.Function, kids))
    return out
