"""List entries named by ``id:``, and overlays that change one entry instead of the whole list.

Any mapping in a list may carry ``id: NAME`` (a step, a phase, a card, a table row). A
variant (or an ``extends`` file) then writes, where the base has that list,
``{$patch: [OP, ...]}`` instead of a new list, each OP one of

    {id: NAME, with: {...}}          merged into the entry (deep, as every overlay merges)
    {id: NAME, replace: {...}}       the entry replaced (it keeps its id)
    {before: NAME, insert: [...]}    entries inserted before it
    {after: NAME, insert: [...]}     ... or after it
    {append: [...]}                  entries added at the end
    {remove: NAME}                   the entry removed

in the order written, so a change of the base's other entries reaches the variant. The ids
are names for overlays only: ``strip_ids`` takes them out before the ruleset is built.

Each change finds its entry through an index of the list (id -> first position), made again
only after an insert or a removal moved entries; what one overlay's changes do is counted
(``Plans.charge``) and bounded by MAX_PATCH_WORK, so thousands of aliased changes of a long
list are a located error, never minutes of work.

The merged data's source map must still point into the right file for every entry: each
patched list leaves a *plan* (where each entry of the new list came from: the base's entry
at a path, or the overlay's at a path), and ``remap`` moves the source map's entries to
match, so an error in an inserted step is located in the variant's file and one in an
untouched step in the base's.
"""
from __future__ import annotations

from ..errors import did_you_mean


MAX_PATCH_WORK = 2_000_000   # what one overlay's patches may do, counted as Plans counts it (docs/security.md)


class PatchError(Exception):
    """A patch that cannot apply: ``path`` is where it is written in the overlay's map."""

    def __init__(self, message: str, path: tuple, hint: str | None = None, code: str = "variant"):
        super().__init__(message)
        self.message, self.path, self.hint, self.code = message, path, hint, code


class Plans(list):
    """What one overlay's patches leave: each patched list's plan (out_path, origins) for
    ``remap``, the lists patched so far (``made``: a list patched again, by a second ``with:``
    of its entry, starts from where its entries came from, not from the base), and the work
    done (``charge``): each change, each entry of a patched list, inserted, or indexed again
    after an insert or a removal moved it, each key of a mapping merged, and for each patched
    list a pass over the source map (``per_list``, what ``remap`` does for it), counted after
    YAML aliases are expanded: a few thousand aliased changes of a long list cannot take
    minutes."""

    def __init__(self, per_list: int = 0):
        super().__init__()
        self.work, self.per_list = 0, per_list
        self.made: dict[int, tuple[list, list]] = {}

    def charge(self, work: int, path: tuple) -> None:
        self.work += work
        if self.work > MAX_PATCH_WORK:
            raise PatchError(f"this overlay's changes do too much work: more than {MAX_PATCH_WORK:,} entries touched "
                             "(each change 1, each entry of a list it patches or inserts 1, each again where a later "
                             "change finds its entry after an insert or a removal moved them, each key of a mapping "
                             "merged 1, each entry of the source maps for each list patched; counted after YAML "
                             "aliases are expanded)",
                             path, "change fewer entries, or write the list anew", "limit")


class _Changed:
    """An entry changed by ``with:`` (each merged once every change is applied: the entry's
    final place is known then)."""
    __slots__ = ("item", "withs")

    def __init__(self, item, withs: tuple):
        self.item, self.withs = item, withs


def _name(item):
    """The id an entry is found by: its own, or the last ``with:`` that gives one."""
    if isinstance(item, _Changed):
        for w in reversed(item.withs):
            if "id" in w:
                return w["id"]
        item = item.item
    return item.get("id") if isinstance(item, dict) else None


def _hashable(name) -> bool:
    try:
        hash(name)
    except TypeError:
        return False
    return True


def is_patch(value) -> bool:
    return isinstance(value, dict) and set(value) == {"$patch"}


def apply(base: list, patch: dict, out_path: tuple, top_path: tuple, where, plans: list | None, merge) -> list:
    """The list ``base`` changed by ``patch``. ``out_path``: where the list is in the merged
    data; ``top_path``: where the patch is written in the overlay; ``where``: where ``base`` is,
    ("base", path) or ("top", path) (a list inside an entry inserted by the overlay).
    ``merge(base, overlay, out_path, top_path, plans, where)`` merges one entry; ``plans``
    receives (out_path, origins) for the source map, an origin being where the entry is
    written: ("base", path), ("top", path), or ("with", the entry's origin, the change's path)."""
    ops = patch["$patch"]
    at = (*top_path, "$patch")
    if not isinstance(ops, list):
        raise PatchError("$patch takes a list of changes ({id: NAME, with: {...}}, {after: NAME, insert: [...]}...)",
                         at)
    counted = plans if isinstance(plans, Plans) else Plans()
    counted.charge(len(base) + len(ops) + counted.per_list, at)
    kind, path = where
    prior = counted.made.get(id(base))
    if prior is not None and prior[0] is base:   # patched before (an earlier with: of its entry)
        entries: list[list] = [[item, origin] for item, origin in zip(base, prior[1])]
    else:
        entries = [[item, (kind, (*path, j))] for j, item in enumerate(base)]   # [entry, origin]
    index: dict = {}          # id -> the position of the first entry with it
    stale = [True]            # (index made again at the next find after entries moved)

    def find(name, here):
        if stale[0]:
            counted.charge(len(entries), here)
            index.clear()
            for k, (item, _) in enumerate(entries):
                n = _name(item)
                if _hashable(n):
                    index.setdefault(n, k)
            stale[0] = False
        found = index.get(name) if _hashable(name) else None
        if found is not None:
            return found
        known = [str(_name(item)) for item, _ in entries if _name(item) is not None]
        close = did_you_mean(str(name), known)
        raise PatchError(f"no entry with id '{name}' in this list (ids: {', '.join(known) or 'none'})", here,
                         f"did you mean '{close}'?" if close else None)

    for k, op in enumerate(ops):
        here = (*at, k)
        if not isinstance(op, dict) or not op:
            raise PatchError("a change is a mapping: {id: NAME, with: {...}}, {before: NAME, insert: [...]}, "
                             "{after: NAME, insert: [...]}, {append: [...]}, {remove: NAME}", here)
        if "remove" in op:
            j = find(op["remove"], (*here, "remove"))
            del entries[j]
            stale[0] = True
        elif "append" in op or "insert" in op:
            key = "append" if "append" in op else "insert"
            new = op[key]
            if not isinstance(new, list):
                raise PatchError(f"{key}: takes a list of entries", (*here, key))
            if key == "append":
                pos = len(entries)
            elif "before" in op:
                pos = find(op["before"], (*here, "before"))
            elif "after" in op:
                pos = find(op["after"], (*here, "after")) + 1
            else:
                raise PatchError("insert: needs before: NAME or after: NAME", here)
            if new:
                counted.charge(len(new), (*here, key))
                entries[pos:pos] = [[item, ("top", (*here, key, m))] for m, item in enumerate(new)]
                stale[0] = True
        elif "id" in op and "replace" in op:
            j = find(op["id"], (*here, "id"))
            if not isinstance(op["replace"], dict):
                raise PatchError("replace: takes a mapping (the new entry)", (*here, "replace"))
            entries[j] = [{**op["replace"], "id": op["id"]}, ("top", (*here, "replace"))]
        elif "id" in op and "with" in op:
            j = find(op["id"], (*here, "id"))
            change = op["with"]
            if not isinstance(change, dict):
                raise PatchError("with: takes a mapping (what changes in the entry)", (*here, "with"))
            item, origin = entries[j]
            withs = (*item.withs, change) if isinstance(item, _Changed) else (change,)
            entries[j] = [_Changed(item.item if isinstance(item, _Changed) else item, withs),
                          ("with", origin, (*here, "with"))]
            if "id" in change:
                stale[0] = True
        else:
            raise PatchError("a change says what to do: with:, replace:, insert: (with before: or after:), "
                             "append: or remove:", here)
    counted.charge(len(entries), at)
    out, origins = [], []
    for i, (item, origin) in enumerate(entries):
        if isinstance(item, _Changed):
            changes = []
            o = origin
            while o[0] == "with":
                changes.append(o[2])
                o = o[1]
            value = item.item
            for change, change_path in zip(item.withs, reversed(changes[:len(item.withs)])):
                value = merge(value, change, (*out_path, i), change_path, plans, _where(origin))
            item = value
        out.append(item)
        origins.append(origin)
    counted.made[id(out)] = (out, origins)
    if plans is not None:
        plans.append((out_path, origins))
    return out


def _where(origin):
    """Where an entry's value is written: ("base" | "top", path). (A loop: an entry may take
    as many ``with:`` changes as a file holds, each wrapping its origin once.)"""
    while origin[0] == "with":
        origin = origin[1]
    return origin


def remap(base_entries: dict, top_entries: dict, merged_entries: dict, plans: list) -> dict:
    """The merged source map's entries with each patched list's entries where they now are
    (outer lists first: a change inside a changed entry is fixed up after the entry moved)."""
    entries = dict(merged_entries)
    maps = {"base": base_entries, "top": top_entries}
    under = _Under()
    for out_path, origins in sorted(plans, key=lambda p: len(p[0])):
        n = len(out_path)
        for p in [p for p in entries if len(p) > n and p[:n] == out_path and isinstance(p[n], int)]:
            del entries[p]
        for i, origin in enumerate(origins):
            target = (*out_path, i)
            kind, path = _where(origin)
            _copy(under(maps[kind], path), path, target, entries)
            changes = []
            while origin[0] == "with":
                changes.append(origin[2])
                origin = origin[1]
            for change in reversed(changes):   # the changes written over the entry, in order
                _copy(under(top_entries, change), change, target, entries, keys_only=True)
    return entries


class _Under:
    """The entries of a source map under a path, from an index by prefix made once per source
    and prefix length (a patch of thousands of entries would otherwise scan the whole map for
    each: quadratic)."""

    def __init__(self):
        self.tables: dict = {}

    def __call__(self, source: dict, prefix: tuple) -> list:
        key = (id(source), len(prefix))
        table = self.tables.get(key)
        if table is None:
            n = len(prefix)
            table = self.tables[key] = {}
            for p, e in source.items():
                if len(p) >= n:
                    table.setdefault(p[:n], []).append((p, e))
        return table.get(prefix, ())


def _copy(found, prefix: tuple, target: tuple, into: dict, keys_only: bool = False) -> None:
    """The entries ``found`` under ``prefix`` moved under ``target`` (``keys_only``: not the
    prefix's own entry: a `with:` mapping is not where the entry starts)."""
    n = len(prefix)
    for p, e in found:
        if len(p) > n or not keys_only:
            key = (*target, *p[n:])   # (mypy reads a starred tuple inside [] as 3.11 syntax)
            into[key] = e


def strip_ids(value, strip: bool = True):
    """A copy of the data (its mappings and lists new, its scalars shared) without the ``id:``
    of list entries (names for overlays, not part of the rules); ``strip=False``: with them."""
    if isinstance(value, dict):
        return {k: strip_ids(v, strip) for k, v in value.items()}
    if isinstance(value, list):
        return [strip_ids({k: v for k, v in x.items() if k != "id"} if strip and isinstance(x, dict) else x, strip)
                for x in value]
    return value
