"""Positions: the engine's 1-based ``path:line:col`` (columns in characters) as LSP ranges
(0-based, columns in the client's code units), and where a cursor is in a ruleset's YAML.

``context_at`` reads the block structure of the text by indentation, line by line, so it
answers while the author types a text that does not parse yet.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types

from ..errors import Location
from ..loading.source import MAX_DEPTH

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def path_of(uri: str) -> str:
    """The file path of a ``file:`` URI (resolved, as the loader names files)."""
    parsed = urlparse(uri)
    return str(Path(unquote(parsed.path)).resolve()) if parsed.scheme == "file" else uri


def uri_of(path: str) -> str:
    return Path(path).resolve().as_uri()


def client_range(codec, lines: list[str], line: int, col: int, width: int) -> types.Range:
    """The range of ``width`` characters from 0-based ``line``, ``col`` (characters), in the
    client's units; clipped to the line."""
    text = lines[line] if 0 <= line < len(lines) else ""
    text = text.rstrip("\r\n")
    col = max(0, min(col, len(text)))
    end = max(col, min(col + max(width, 0), len(text)))
    start = codec.position_to_client_units(lines, types.Position(line=line, character=col)) if text else \
        types.Position(line=max(line, 0), character=0)
    stop = codec.position_to_client_units(lines, types.Position(line=line, character=end)) if text else start
    return types.Range(start=start, end=stop)


def location_range(codec, lines: list[str], loc: Location | None, span: int = 1) -> types.Range:
    """An engine location (1-based) and caret width as an LSP range; no location: the top."""
    if loc is None:
        return client_range(codec, lines, 0, 0, 0)
    return client_range(codec, lines, loc.line - 1, loc.col - 1, span)


def word_at(line: str, col: int) -> tuple[str, int] | None:
    """The name (letters, digits, _) under or just before character ``col``, and its start."""
    for m in WORD.finditer(line):
        if m.start() <= col <= m.end():
            return m.group(), m.start()
    return None


@dataclass
class Context:
    """Where a cursor is: the data path of the mapping or list it is in (keys and list
    indexes), whether it is writing a key, and the text of the value before it."""
    path: tuple
    at_key: bool
    key: str | None = None      # the key whose value the cursor is in
    before: str = ""            # the value's text before the cursor


_KEY = re.compile(r"""(?P<key>[A-Za-z_$][\w$-]*|'[^']*'|"[^"]*")\s*:(?:\s+|$)""")
_BLOCK = re.compile(r"^[|>][-+0-9]*\s*(#.*)?$")


def _split(content: str):
    """A line's content as (columns of the dashes opening list items, the key or None, the
    key's column, the value's text, the value's column), columns relative to the content."""
    dashes, i, end = [], 0, len(content)
    while content.startswith("- ", i) or (i == end - 1 and content[i] == "-"):
        dashes.append(i)
        i += 2
        while i < end and content[i] == " ":
            i += 1
    m = _KEY.match(content, i)
    if m:
        return dashes, m.group("key").strip("'\""), i, content[m.end():], m.end()
    return dashes, None, i, content[i:], i


def context_at(text: str, line: int, col: int) -> Context:
    """The context of 0-based (``line``, ``col``) in ``text``, in time linear in the text: each
    mapping or list item open holds the counts of the list items under it, and no more of them
    are held than a ruleset may nest (the loader's ``MAX_DEPTH``: below that, a text does not load
    and its places are not told apart)."""
    lines = text.split("\n", line + 1)[:line + 1]
    stack: list[tuple[int, object, bool, dict]] = []   # (column, key or list index, whether a list item,
    top: dict[int, int] = {}                            #  column -> the last index of a list item under it)
    block = None                                        # (column of the key, its path): a | or > scalar
    for n, raw in enumerate(lines):
        raw = raw.rstrip("\r")
        last = n == line
        if last:
            raw = raw[:col]
        content = raw.lstrip(" ")
        indent = len(raw) - len(content)
        if not last and (not content or content.startswith("#")):
            continue
        if block is not None:
            if indent > block[0] or (last and not content):
                if last:
                    return Context(block[1][:-1], False, str(block[1][-1]), content)
                continue
            block = None
        dashes, key, kcol, value, vcol = _split(content)
        first_dash = bool(dashes)
        while stack and (stack[-1][0] > indent or (stack[-1][0] == indent and (stack[-1][2] or not first_dash))):
            stack.pop()
        for d in dashes[:max(0, MAX_DEPTH - len(stack))]:
            counts = stack[-1][3] if stack else top
            index = counts[indent + d] = counts.get(indent + d, -1) + 1
            stack.append((indent + d, index, True, {}))
        path = tuple(entry[1] for entry in stack)
        if last:
            if key is None:
                return Context(path, True, None, value)
            return Context(path, False, key, value)
        if key is not None and len(stack) < MAX_DEPTH:
            stack.append((indent + kcol, key, False, {}))
            if _BLOCK.match(value.strip()):
                block = (indent + kcol, (*path, key))
    return Context((), True)
