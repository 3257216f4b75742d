"""Safe YAML loading that keeps source positions.

Rulesets are untrusted input (design principle 8): the text is only *composed* into a node
tree (never constructed into Python objects), only the standard tags are allowed, and size,
node count (after alias expansion) and nesting depth are bounded. The node tree is then
converted to plain data while a `SourceMap` records where each value came from, so later
stages can report `path:line:col` for any JSON path (principle 7).
"""
from __future__ import annotations

import os
import re
import stat
from bisect import bisect_right
from typing import NamedTuple, Sequence

import yaml
from yaml.composer import Composer
from yaml.nodes import MappingNode, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

try:
    from yaml._yaml import CParser  # libyaml
except ImportError:  # PyYAML built without libyaml
    CParser = None

from ..errors import LINE_BREAK, Diagnostic, Location, RulesetError, register_source

MAX_BYTES = 2_000_000   # a ruleset is a hand-written text; anything bigger is a mistake or an attack
MAX_NODES = 200_000     # nodes after alias expansion: stops "billion laughs" alias bombs
MAX_CHARS = 4 * MAX_BYTES   # characters of text after alias expansion: a long text aliased many times
MAX_DEPTH = 64          # nesting depth (root = 1): also keeps our recursion far from Python's limit
MAX_INT_DIGITS = 100    # digits of a whole number written in YAML (Python refuses > 4,300)
MAX_ERRORS = 100        # errors reported for one ruleset: checking stops at the next one (a file of
                        # thousands of errors would take seconds to check and be read by no one)

_T = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = _T + "str", _T + "int", _T + "float", _T + "bool", _T + "null"
MAP, SEQ, MERGE = _T + "map", _T + "seq", _T + "merge"
_KIND_TAG = {ScalarNode: (STR, INT, FLOAT, BOOL, NULL, MERGE), MappingNode: (MAP,), SequenceNode: (SEQ,)}

_DIGITS = r"[0-9]+(?:_[0-9]+)*"
_INT_RE = re.compile(rf"^[-+]?{_DIGITS}$")
_FLOAT_RE = re.compile(rf"""^(?:[-+]?(?:{_DIGITS}\.(?:{_DIGITS})?|\.{_DIGITS})(?:[eE][-+]?[0-9]+)?
                              |[-+]?{_DIGITS}[eE][-+]?[0-9]+
                              |[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$""", re.X)
_BOOL_RE = re.compile(r"^(?:true|false)$", re.I)
_NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")


class _LimitError(yaml.MarkedYAMLError):
    """A limit hit while composing; carries the mark like any YAML error."""


class RulesetLoader(Composer, BaseResolver):
    """Composer-only loader (it never constructs Python objects) with a reduced, YAML 1.2-like
    set of implicit types: `yes/no/on/off` and timestamps stay strings, integers are decimal.
    The event parser is mixed in below: libyaml's when available (about 10x faster), else
    PyYAML's own, i.e. exactly what SafeLoader/CSafeLoader use."""
    yaml_implicit_resolvers: dict = {}  # our own table, not SafeLoader's YAML 1.1 one

    def __init__(self):
        Composer.__init__(self)
        BaseResolver.__init__(self)
        self._depth = 0

    def compose_node(self, parent, index):
        # Bound nesting while composing: the composer recurses once per level.
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _LimitError(None, None, f"nesting deeper than {MAX_DEPTH} levels",
                                  self.peek_event().start_mark)
            return Composer.compose_node(self, parent, index)
        finally:
            self._depth -= 1


RulesetLoader.add_implicit_resolver(BOOL, _BOOL_RE, list("tTfF"))
RulesetLoader.add_implicit_resolver(INT, _INT_RE, list("-+0123456789"))
RulesetLoader.add_implicit_resolver(FLOAT, _FLOAT_RE, list("-+.0123456789"))
RulesetLoader.add_implicit_resolver(NULL, _NULL_RE, ["~", "n", "N", ""])
RulesetLoader.add_implicit_resolver(MERGE, re.compile(r"^<<$"), ["<"])


class _PyLoader(RulesetLoader, Reader, Scanner, Parser):
    def __init__(self, stream):
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        RulesetLoader.__init__(self)


_LOADER: type[RulesetLoader] = _PyLoader   # (the C parser's below when yaml has it)
if CParser is not None:
    class _CLoader(RulesetLoader, CParser):
        def __init__(self, stream):
            CParser.__init__(self, stream)
            RulesetLoader.__init__(self)

    _LOADER = _CLoader


class _File:
    """One source text; turns character indexes into 1-based line/col."""
    __slots__ = ("path", "text", "starts")

    def __init__(self, path: str, text: str):
        self.path, self.text = path, text
        self.starts = [0] + [m.end() for m in LINE_BREAK.finditer(text)]

    def location(self, index: int) -> Location:
        line = bisect_right(self.starts, index)
        return Location(self.path, line, index - self.starts[line - 1] + 1)


_COLLECTION = "collection"


class _Entry(NamedTuple):
    file: _File
    start: int               # index of the value (after any anchor/tag)
    end: int                 # index just past the value
    key: int | None          # index of the mapping key, if the value is a mapping entry
    style: str = _COLLECTION  # scalar style: "" plain, "'", '"', "|", ">"
    value: str = ""          # scalar source value, for expr_loc


class SourceMap:
    """Where each node of the loaded data came from, keyed by JSON path (a tuple of keys
    and list indexes, e.g. ("flow", 0, "repeat")). Entries carry their own file, so maps
    of different files can be overlaid (variants) and still point at the right file."""

    def __init__(self, path: str = "<data>", entries: dict | None = None):
        self.path = path
        self._entries: dict[tuple, _Entry] = entries if entries is not None else {}

    @classmethod
    def empty(cls, path: str = "<data>") -> "SourceMap":
        """A map for data built in code: every lookup gives None."""
        return cls(path)

    @classmethod
    def overlay(cls, base: "SourceMap", top: "SourceMap") -> "SourceMap":
        """Paths present in `top` resolve to the top file, all others to `base`."""
        return cls(top.path, {**base._entries, **top._entries})

    def entries(self) -> dict:
        """The map's entries by path (for building a map of merged data: loading/patches.py)."""
        return self._entries

    def subtree(self, prefix: Sequence) -> "SourceMap":
        """The entries under ``prefix``, re-rooted (an inline variant overlays the root)."""
        prefix = tuple(prefix)
        n = len(prefix)
        return SourceMap(self.path, {p[n:]: e for p, e in self._entries.items() if p[:n] == prefix})

    def __contains__(self, path: Sequence) -> bool:
        return tuple(path) in self._entries

    def _find(self, path: Sequence) -> tuple[_Entry | None, bool]:
        """The entry for `path`, else for its longest known prefix; and whether it is exact."""
        path = tuple(path)
        for n in range(len(path), -1, -1):
            entry = self._entries.get(path[:n])
            if entry is not None:
                return entry, n == len(path)
        return None, False

    def loc(self, path: Sequence) -> Location | None:
        entry, _ = self._find(path)
        return entry.file.location(entry.start) if entry else None

    def key_loc(self, path: Sequence) -> Location | None:
        entry, exact = self._find(path)
        if entry is None:
            return None
        return entry.file.location(entry.key if exact and entry.key is not None else entry.start)

    def bare_key(self, path: Sequence) -> bool:
        """Whether the key at ``path`` is written with no value inside { } (``{doc: the deck,
        faceup}``): most likely the rest of a text a comma cut, not a key misspelt."""
        path = tuple(path)
        entry, parent = self._entries.get(path), self._entries.get(path[:-1]) if path else None
        return (entry is not None and parent is not None and entry.style == "" and entry.start == entry.end
                and parent.style == _COLLECTION and parent.file.text[parent.start:parent.start + 1] == "{")

    def span(self, path: Sequence) -> int:
        """Length of a scalar's text on its first line (a caret width); 1 for the rest."""
        entry, exact = self._find(path)
        if entry is None or not exact or entry.style == _COLLECTION:
            return 1
        text = entry.file.text[entry.start:entry.end]
        return max(1, len(LINE_BREAK.split(text, 1)[0].rstrip()))

    def expr_loc(self, path: Sequence, offset: int) -> Location | None:
        """Location of character `offset` of the string value at `path` (e.g. the column of a
        syntax error inside an expression). None only for an empty map."""
        entry, exact = self._find(path)
        if entry is None:
            return None
        if not exact or entry.style == _COLLECTION:
            return entry.file.location(entry.start)
        text, start, end = entry.file.text, entry.start, entry.end
        if entry.style in ("'", '"'):
            start, end = start + 1, end - 1
        elif entry.style in ("|", ">"):
            # content starts on the line after the indicator
            brk = LINE_BREAK.search(text, start, end)
            start = brk.end() if brk else end
        index = _align(text, start, end, entry.value, offset)
        if index is None:  # an escape we could not follow: plain arithmetic
            index = start + offset
        return entry.file.location(index)


def _align(text: str, i: int, end: int, value: str, offset: int) -> int | None:
    """Index in `text` of `value[offset]`, scanning from `i`. The value differs from its source
    only by removed indentation, folded line breaks (whitespace) and escapes, so each
    non-space character is found by scanning forward."""
    offset = max(0, min(offset, len(value)))
    pos = i
    for ch in value[:offset + 1]:
        if ch.isspace():
            pos = i
            if i < end and text[i].isspace():
                i += 1
        else:
            pos = text.find(ch, i, end)
            if pos < 0:
                return None
            i = pos + 1
    return i if offset == len(value) else pos


def _skip_properties(text: str, start: int) -> int:
    """Skip an anchor (&a) and/or tag (!!str) before a node, so locations point at the value
    (unless the value is on a later line: then the anchor is the better place to point)."""
    i = start
    while i < len(text) and text[i] in "&!":
        while i < len(text) and not text[i].isspace():
            i += 1
        while i < len(text) and text[i] in " \t":
            i += 1
    return start if i >= len(text) or text[i] in "\r\n#" else i


def _show_tag(tag: str) -> str:
    return "!!" + tag[len(_T):] if tag.startswith(_T) else tag


class _Converter:
    def __init__(self, file: _File):
        self.file = file
        self.entries: dict[tuple, _Entry] = {}
        self.measured: dict[int, tuple[int, int, int]] = {}
        self.active: set[int] = set()

    def error(self, node, message: str, code: str, hint: str | None = None,
              at_tag: bool = False) -> RulesetError:
        start = node.start_mark.index
        if not at_tag:
            start = _skip_properties(self.file.text, start)
        return RulesetError(message, self.file.location(start), code, hint=hint)

    def measure(self, node) -> tuple[int, int, int]:
        """(nodes after alias expansion, depth, characters of its texts after alias expansion)
        of `node`, memoised per node so an alias bomb is rejected after visiting each distinct
        node once; also checks tags."""
        key = id(node)
        if key in self.measured:
            return self.measured[key]
        if key in self.active:
            raise self.error(node, "an alias refers to a node that contains it", "limit")
        if node.tag not in _KIND_TAG[type(node)]:
            raise self.error(node, f"tag '{_show_tag(node.tag)}' not allowed", "tag",
                             hint="only plain YAML data (strings, numbers, booleans, null, "
                                  "mappings and lists) is allowed", at_tag=True)
        size, depth, chars = 1, 0, 0
        if isinstance(node, ScalarNode):
            chars = len(node.value)
        else:
            self.active.add(key)
            children = node.value if isinstance(node, SequenceNode) else [n for kv in node.value for n in kv]
            for child in children:
                s, d, c = self.measure(child)
                size, depth, chars = size + s, max(depth, d), chars + c
            self.active.discard(key)
        depth += 1
        if size > MAX_NODES:
            raise self.error(node, f"too many nodes after alias expansion (limit {MAX_NODES})", "limit")
        if chars > MAX_CHARS:
            raise self.error(node, f"too much text after alias expansion (limit {MAX_CHARS:,} characters)", "limit")
        if depth > MAX_DEPTH:
            raise self.error(node, f"nesting deeper than {MAX_DEPTH} levels", "limit")
        self.measured[key] = (size, depth, chars)
        return size, depth, chars

    def convert(self, node, path: tuple, key_node=None):
        text = self.file.text
        start = _skip_properties(text, node.start_mark.index)
        key = _skip_properties(text, key_node.start_mark.index) if key_node is not None else None
        if isinstance(node, ScalarNode):
            style = node.style or ""  # plain: libyaml says "", PyYAML None
            self.entries[path] = _Entry(self.file, start, node.end_mark.index, key, style, node.value)
            return self.scalar(node)
        self.entries[path] = _Entry(self.file, start, node.end_mark.index, key)
        if isinstance(node, SequenceNode):
            return [self.convert(item, path + (i,)) for i, item in enumerate(node.value)]
        return {k: self.convert(v, path + (k,), kn) for k, kn, v in self.items(node)}

    def items(self, node) -> list[tuple[str, object, object]]:
        """(key, key node, value node) of a mapping with merge keys (<<) applied: explicit
        keys win over merged ones, and earlier merge sources over later ones."""
        explicit: dict[str, tuple] = {}
        merged: dict[str, tuple] = {}
        for knode, vnode in node.value:
            if knode.tag == MERGE:
                sources = vnode.value if isinstance(vnode, SequenceNode) else [vnode]
                for src in sources:
                    if not isinstance(src, MappingNode):
                        raise self.error(src, "a merge key (<<) needs a mapping or a list of mappings", "type")
                    for k, kn, vn in self.items(src):
                        merged.setdefault(k, (kn, vn))
                continue
            if not isinstance(knode, ScalarNode):
                raise self.error(knode, "a mapping key must be a plain value, not a list or mapping", "type")
            k = knode.value  # keys are always strings, as the user wrote them ("3: 6" -> "3")
            if k in explicit:
                first = self.file.location(_skip_properties(self.file.text, explicit[k][0].start_mark.index))
                raise self.error(knode, f"duplicate key '{k}'", "duplicate-key",
                                 hint=f"first defined at line {first.line}, column {first.col}")
            explicit[k] = (knode, vnode)
        rest = [(k, kn, vn) for k, (kn, vn) in merged.items() if k not in explicit]
        return rest + [(k, kn, vn) for k, (kn, vn) in explicit.items()]

    def scalar(self, node):
        tag, v = node.tag, node.value
        if tag in (STR, MERGE):
            return v
        if tag == NULL and _NULL_RE.match(v):
            return None
        if tag == BOOL and _BOOL_RE.match(v):
            return v.lower() == "true"
        if tag == INT and _INT_RE.match(v):
            if len(v.lstrip("+-").replace("_", "")) > MAX_INT_DIGITS:
                raise self.error(node, f"a whole number of more than {MAX_INT_DIGITS} digits", "limit",
                                 hint="numbers in a ruleset fit in 64 bits (about 19 digits)")
            return int(v)
        if tag == FLOAT and (_FLOAT_RE.match(v) or _INT_RE.match(v)):
            s = v.lower()
            return float(s.replace(".", "") if s.endswith(("inf", "nan")) else s)  # ".inf" -> "inf"
        raise self.error(node, f"'{v}' is not a valid {_show_tag(tag)[2:]}", "type")


STOPPED = f"more than {MAX_ERRORS} errors: checking stopped here (fix these, then check again)"


def stopped_at(loc: Location | None) -> Diagnostic:
    """The error that ends a list of MAX_ERRORS errors, at the next one: checking went no further."""
    return Diagnostic(STOPPED, loc, "limit")


def load_yaml(text: str | bytes, path: str = "<string>") -> tuple[object, SourceMap]:
    """Parse untrusted YAML text into plain data (dict, list, str, int, float, bool, None)
    and its SourceMap. Every problem is raised as a located RulesetError."""
    path = str(path)
    if isinstance(text, bytes):
        text = _decode(text, path)
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise RulesetError(f"file too large (limit {MAX_BYTES} bytes)", Location(path, 1, 1), "limit")
    register_source(path, text)
    file = _File(path, text)
    try:
        root = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        loc = file.location(mark.index) if mark else Location(path, 1, 1)
        hint = None
        if e.context and e.problem_mark and e.context_mark:
            where = file.location(e.context_mark.index)
            hint = f"{e.context} at line {where.line}, column {where.col}"
            opener = {"while parsing a flow mapping": "{", "while parsing a flow sequence": "["}.get(e.context)
            if opener:
                hint = (f"the '{opener}' at line {where.line}, column {where.col} is not closed "
                        "(or a ',' is missing between two items)")
        hint = _yaml_hint(e, text) or hint
        # libyaml (PyYAML >= 6.0.4 with the C parser) has its own nesting limit: a limit too
        too_deep = "maximum nesting depth" in str(e.problem or "")
        code = "limit" if isinstance(e, _LimitError) or too_deep else "yaml-syntax"
        raise RulesetError(e.problem or e.context or "invalid YAML", loc, code, hint=hint) from None
    except yaml.reader.ReaderError as e:  # non-printable characters
        at = e.position   # (the C parser's: of the text's UTF-8 bytes; a column counts characters)
        at = len(text.encode("utf-8")[:at].decode("utf-8", "ignore")) if _LOADER is not _PyLoader else at
        raise RulesetError(f"character {e.character!r} not allowed in a ruleset",
                           file.location(at), "encoding") from None
    except (yaml.YAMLError, RecursionError) as e:  # anything else PyYAML may raise
        raise RulesetError(f"invalid YAML: {e}", Location(path, 1, 1), "yaml-syntax") from None
    conv = _Converter(file)
    if root is None:  # empty document: the caller decides what that means
        conv.entries[()] = _Entry(file, 0, 0, None)
        return None, SourceMap(path, conv.entries)
    conv.measure(root)
    data = conv.convert(root, ())
    return data, SourceMap(path, conv.entries)


def _yaml_hint(e, text: str) -> str | None:
    """A plainer hint for the YAML mistakes people make most (PyYAML's words are terse)."""
    mark, problem = e.problem_mark, e.problem or ""
    at = text[mark.index] if mark is not None and mark.index < len(text) else ""
    if "cannot start any token" in problem and at == "\t":
        return "YAML indents with spaces, never tabs"
    if "mapping values are not allowed" in problem:
        return ("check the indentation of this line against the key above it; a value that "
                "contains ': ' needs quotes")
    if "found duplicate anchor" in problem:
        return "each &anchor name may be declared once"
    return None


def _decode(raw: bytes, path: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise RulesetError("file is not UTF-8 text", Location(path, line, col), "encoding") from None


def load_file(path) -> tuple[object, SourceMap]:
    """Read and load a YAML file; an unreadable file is a RulesetError without location."""
    path = str(path)
    return load_bytes(read_file(path), path)


def read_file(path: str, limit: int = MAX_BYTES, head: bool = False) -> bytes:
    """The bytes of a file (a regular file, at most ``limit``; ``head``: its first ``limit``
    bytes, however long it is); an unreadable file is a RulesetError without location."""
    try:
        # a regular file only: a named pipe or a device would block for ever, or never end
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise RulesetError(f"cannot read file: {path}: not a regular file", code="io")
        with open(path, "rb") as f:
            raw = f.read(limit + 1)  # never read more than the limit allows
    except (OSError, ValueError) as e:   # (ValueError: a path with a NUL byte)
        raise RulesetError(f"cannot read file: {path!r}: {getattr(e, 'strerror', None) or e}", code="io") from None
    if len(raw) > limit:
        if head:
            return raw[:limit]
        raise RulesetError(f"file too large (limit {limit} bytes)", Location(path, 1, 1), "limit")
    return raw


def load_bytes(raw: bytes, path: str) -> tuple[object, SourceMap]:
    """Load the YAML text of a file already read (``read_file``)."""
    return load_yaml(_decode(raw, path), path)
