"""The answer to a keystroke inside an expression: when an edit changed one line and only the
expressions on it, those expressions are compiled again against the declarations of the last
check (its builder), and their diagnostics replace the line's. The whole file is then checked
again in the background (service.py), whose diagnostics replace these: this answers at
once what the author is typing, the full check keeps everything exact."""
from __future__ import annotations

from ..errors import Diagnostic, RulebookError
from ..loading.source import SourceMap, load_yaml
from .checking import Checked


def changed_line(old: str, new: str) -> int | None:
    """The 0-based line where ``new`` differs from ``old`` if it is one line, else None."""
    a, b = old.split("\n"), new.split("\n")
    if len(a) != len(b):
        return None
    diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    return diff[0] if len(diff) == 1 else None


def quick(checked: Checked, old: str, new: str) -> list[Diagnostic] | None:
    """The diagnostics of ``new`` (the text checked last edited on one line) with the line's
    expressions compiled again, or None when the edit is not of that kind."""
    builder, smap = checked.builder, checked.smap
    line = changed_line(old, new)
    if builder is None or smap is None or line is None:
        return None
    start = sum(len(x) + 1 for x in old.split("\n")[:line])
    end = start + len(old.split("\n")[line])
    on_line = [(p, e) for p, e in smap.entries().items()
               if e.file.path == checked.path and start <= e.start < end and e.style != "collection"]
    try:
        data, fragment = load_yaml("\n" * line + new.split("\n")[line], checked.path)
    except RulebookError:
        return None
    if not on_line or any(e.end > end for _, e in on_line) or len(on_line) != sum(1 for e in fragment.entries().values() if e.style != "collection"):
        return None   # keys or values added or taken away: check it all
    changed = []
    for p, e in on_line:
        match = _counterpart(p, data, fragment)
        if match is None:
            return None
        if fragment.entries()[match[0]].value != e.value:
            changed.append((p, e, match[0], match[1]))
    if not changed or any(p not in checked.locals_at or p[:1] == ("define",) or not checked.locals_at[p][3]
                          for p, *_ in changed):
        return None   # a key, a name or a define (compiled at each use) changed: check it all
    spans = [(e.file.location(e.start).col, e.file.location(e.end).col) for _, e, _, _ in changed]
    mine = [d for d in checked.diagnostics if d.loc is not None and d.loc.path == checked.path
            and d.loc.line == line + 1]
    if any(not any(a <= d.loc.col <= b for a, b in spans) for d in mine if d.loc is not None):
        return None   # a diagnostic of an unchanged value of the line, which may have moved
    entries = {**smap.entries(), **{p: fragment.entries()[fp] for p, _, fp, _ in changed}}
    builder.smap = SourceMap(smap.path, entries)
    before = len(builder.diags)
    try:
        for p, _, _, value in changed:
            locals_, has_me, expect, _ = checked.locals_at[p]
            builder.expr(value, p, locals_, has_me, expect)
    except RulebookError:   # a limit of the whole build (its errors, its work): check it all
        return None
    finally:
        builder.smap = smap
        fresh = builder.diags[before:]
        del builder.diags[before:]
    return [d for d in checked.diagnostics if not any(d is m for m in mine)] + fresh


def _counterpart(path: tuple, data, fragment: SourceMap):
    """(path in the one-line fragment, its value) of the expression at ``path`` of the file:
    the fragment's path is the end of the file's, its first list index aside."""
    for n in range(1, len(path) + 1):
        tail = path[-n:]
        candidates = [tail] + ([(0, *tail[1:])] if isinstance(tail[0], int) else [])
        for fp in candidates:
            value = data
            try:
                for seg in fp:
                    value = value[seg]
            except (KeyError, IndexError, TypeError):
                continue
            if isinstance(value, (str, int, float, bool)) and fp in fragment:
                return fp, value
    return None
