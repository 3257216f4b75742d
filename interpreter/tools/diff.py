"""What a variant changes, rule by rule: the merged data with and without it, compared.

    rulebook diff my_game two_player
    rulebook diff rulesets/my_game.yaml my_variant.yaml --json

Each change is an entry of the ruleset data (``params.plays_per_trick``,
``flow[0].steps[1].steps[1].pass.to``) added, removed or changed. Flow steps are named by
their path and, for people, by the kinds of the steps around them
(``repeat > phase pass > pass``); step lists are aligned by kind, so removing one step does
not show every later one as changed. Indexes count as in the base, except for added entries
(as in the variant). A mapping of plain values of which several entries change
(``players``) is shown whole: ``{min: 3, max: 6} -> {min: 2, max: 2}``.
"""
from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from ..loading.variants import load_data

MAX_SHOWN = 90    # characters of one value in the text form


@dataclass
class Change:
    path: str            # "params.plays_per_trick", "flow[0].steps[2]"
    change: str          # "added" | "removed" | "changed"
    before: object = None
    after: object = None
    where: str = ""      # the steps around it, for flow entries: "repeat > phase pass > pass"

    def to_dict(self) -> dict:
        return {"path": self.path, "change": self.change, "before": self.before, "after": self.after}

    def format(self) -> str:
        where = f"   ({self.where})" if self.where else ""
        if self.change == "added":
            return f"+ {self.path}: {show(self.after)}{where}"
        if self.change == "removed":
            return f"- {self.path}: {show(self.before)}{where}"
        return f"~ {self.path}: {show(self.before)} -> {show(self.after)}{where}"


def diff(path, variant: str, allowed_roots=None) -> tuple[list[Change], str | None]:
    """The changes ``variant`` (a declared name or a file) makes to the ruleset at ``path``,
    and the variant's description if it has one."""
    base = load_data(path, allowed_roots=allowed_roots, keep_ids=True)
    varied = load_data(path, variant, allowed_roots=allowed_roots, keep_ids=True)
    declared = (base.data.get("variants") or {}).get(variant)
    description = declared.get("description") if isinstance(declared, dict) else None
    a = {k: v for k, v in base.data.items() if k != "variants"}
    b = {k: v for k, v in varied.data.items() if k not in ("variants", "extends")}
    out: list[Change] = []
    compare(a, b, [], [], out)
    return out, description


def compare(a, b, path: list, trail: list, out: list) -> None:
    """Append to ``out`` the changes from ``a`` to ``b`` (both plain data) under ``path``."""
    if isinstance(a, dict) and isinstance(b, dict):
        if _flat(a) and _flat(b) and sum(a.get(k) != b.get(k) for k in {*a, *b}) > 1 and path:
            out.append(Change(_name(path), "changed", a, b, _where(trail)))
            return
        for key in [*a, *(k for k in b if k not in a)]:
            p = [*path, key]
            if key not in b:
                out.append(Change(_name(p), "removed", a[key], None, _where(trail)))
            elif key not in a:
                out.append(Change(_name(p), "added", None, b[key], _where(trail)))
            else:
                compare(a[key], b[key], p, trail, out)
        return
    if isinstance(a, list) and isinstance(b, list) and (_steps(a) or _steps(b)):
        _compare_steps(a, b, path, trail, out)
        return
    if a != b or type(a) is not type(b):
        out.append(Change(_name(path), "changed", a, b, _where(trail)))


def _compare_steps(a: list, b: list, path: list, trail: list, out: list) -> None:
    """Steps aligned by their id: when they have one, else by kind (a step removed in the middle
    does not shift the others); an entry with an id is named by it (flow[last].gain.amount)."""
    def at(i, item):
        name = EntryId(item["id"]) if isinstance(item, dict) and "id" in item else i
        return [*path, name], ([*trail, _kind(item)] if _kind(item) else trail)

    def key(x):
        return f"id {x['id']}" if isinstance(x, dict) and "id" in x else _kind(x)

    matcher = SequenceMatcher(None, [key(x) for x in a], [key(x) for x in b], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1 and
                             all(_kind(a[i]).split()[0] == _kind(b[j]).split()[0]
                                 for i, j in zip(range(i1, i2), range(j1, j2)) if _kind(a[i]) and _kind(b[j]))):
            for i, j in zip(range(i1, i2), range(j1, j2)):
                p, t = at(i, a[i])     # paths count steps as in the base (added ones: as in the variant)
                compare(a[i], b[j], p, t, out)
            continue
        for i in range(i1, i2):
            p, t = at(i, a[i])
            out.append(Change(_name(p), "removed", a[i], None, _where(t)))
        for j in range(j1, j2):
            p, t = at(j, b[j])
            out.append(Change(_name(p), "added", None, b[j], _where(t)))


class EntryId(str):
    """A list entry named by its id: written flow[last], not flow.last."""


def _flat(d: dict) -> bool:
    return all(not isinstance(v, (dict, list)) for v in d.values())


def _steps(items: list) -> bool:
    """A list of steps or effects (one-key-first mappings): compared item by item."""
    return bool(items) and all(isinstance(x, (dict, str)) for x in items) and any(isinstance(x, dict) for x in items)


def _kind(item) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        item = {k: v for k, v in item.items() if k != "id"}   # (a name for overlays, not the kind)
    if isinstance(item, dict) and item:
        key = next(iter(item))
        value = item[key]
        return f"{key} {value}" if isinstance(value, (str, int)) and key in ("phase",) else str(key)
    return ""


def _where(trail: list) -> str:
    return " > ".join(trail)


def _name(path: list) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, (int, EntryId)) else (f".{p}" if out else str(p))
    return out


def show(value) -> str:
    """A value in YAML flow style, shortened: {min: 2, max: 2}, [D, H], left(me)."""
    text = _flow(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 3] + "..."


def _flow(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        text = " ".join(v.split())   # folded text on one line
        return text if text and not text.startswith(("{", "[", "'", '"')) else repr(text)
    return str(v)


def format_changes(changes: list[Change], title: str, description: str | None = None) -> str:
    lines = [title] + ([f"  {' '.join(description.split())}"] if description else [])
    if not changes:
        lines.append("  no change")
    lines += ["  " + c.format() for c in changes]
    n = len(changes)
    lines.append(f"{n} change{'s' if n != 1 else ''}")
    return "\n".join(lines) + "\n"
