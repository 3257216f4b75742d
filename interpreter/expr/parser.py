"""Parsing expressions with Lark. The grammar is loaded once and cached."""
from __future__ import annotations

from functools import lru_cache

from lark import Lark, Tree, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..loading.kept import Kept
from ..loading.resources import cache_file, resource_dir

MAX_LENGTH = 2000   # characters in one expression
MAX_DEPTH = 40      # nesting of the syntax tree
KEPT_CHARACTERS = 50_000   # texts whose trees parse() keeps (a tree takes 100-600 bytes a character)


class ExprError(Exception):
    """An error inside one expression; ``offset`` is the 0-based character position in it."""

    def __init__(self, message: str, offset: int = 0, hint: str | None = None, code: str = "expr",
                 span: int = 1):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint
        self.code = code
        self.span = span      # characters the caret underlines (a whole name, when one is wrong)

    # set on some errors only, read with getattr (names.py)
    cycle: frozenset[str]   # the defines of a cycle: the same cycle met again is reported once
    once: bool              # about the whole ruleset: reported once, not for each expression


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The LALR parser of the grammar. Building its tables takes longer than the rest of a
    small ruleset's load, so Lark keeps them in a file of the user's cache folder
    (resources.cache_file), checked against the grammar, the options and Lark's version at each
    start and built again when any differs; without a usable folder they are built each time."""
    grammar = (resource_dir("grammars") / "expression.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False,
                cache=cache_file("expression-grammar.lark") or False)


_TOKEN_NAMES = {
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COMMA": "','", "DOT": "'.'",
    "NAME": "a name", "INT": "a number", "FLOAT": "a number", "STRING": "a string",
    "COMP_OP": "a comparison", "$END": "the end of the expression", "COLON": "':'",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'",
}


# what an author most likely meant by a character the language does not have
_CHAR_HINTS = {
    "=": "to compare, write '=='",
    "&": "write 'and'", "|": "write 'or'", "!": "write 'not' (or '!=' to compare)",
    "#": "expressions have no comments", ";": "an expression is one formula: no ';'",
    "{": "lists are written with [ ]",
}


def _describe(expected) -> str:
    names = sorted({_TOKEN_NAMES.get(t, repr(t.lower()) if t.isupper() and len(t) > 2 and not t.startswith("__")
                                      else repr(t))
                    for t in expected if not t.startswith("__") and t != "AS"})   # (AS: only before a where)
    if not names:
        return ""
    if len(names) > 6:
        names = names[:6] + ["..."]
    return "expected " + ", ".join(names)


def parse(text: str) -> Tree:
    """Parse one expression; raise ExprError with a character offset on failure.

    Trees are kept by their text (``_parsed``): a ruleset names the same define and writes
    the same condition many times, and validating its variants builds it again, so most texts
    are parsed once a process. A tree is shared by everyone who parses its text, so nothing
    may change one (nothing does: the compiler reads trees and writes Python source)."""
    if not isinstance(text, str):
        raise ExprError(f"expected an expression string, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ExprError(f"expression is too long ({len(text)} characters, limit {MAX_LENGTH})", 0, code="limit")
    if not text.strip():
        raise ExprError("empty expression", 0, code="expr-syntax")
    return _trees.get(text, lambda: _parsed(text), len(text), keep_errors=(ExprError,))


_trees = Kept(KEPT_CHARACTERS)   # text -> its tree (parse)


def _parsed(text: str) -> Tree:
    """The tree of a text parse() checked, or its ExprError (kept like a tree: parse)."""
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as e:
        pos = e.pos_in_stream or 0   # (typed optional by lark; a character error always has it)
        ch = text[pos]
        rest = text[pos + 1:]
        if ch in "'\"" and 0 <= rest.find("\n") < rest.find(ch):   # closed, but on another line
            raise ExprError("a string cannot hold a line break (a label or a text is one line)",
                            pos + 1 + rest.find("\n"), code="expr-syntax") from None
        if ch in "'\"":
            raise ExprError(f"unexpected character {ch!r}: this string is never closed", pos,
                            f"a string starts and ends with the same quote: {ch}A{ch}", code="expr-syntax") from None
        raise ExprError(f"unexpected character {ch!r}", pos, _CHAR_HINTS.get(ch),
                        code="expr-syntax") from None
    except UnexpectedEOF as e:
        raise ExprError("unexpected end of expression", len(text), _describe(e.expected) or None,
                        code="expr-syntax") from None
    except UnexpectedToken as e:
        tok = e.token
        if tok.type == "$END":
            raise ExprError("unexpected end of expression", len(text.rstrip()), _describe(e.expected) or None,
                            code="expr-syntax") from None
        raise ExprError(f"unexpected {tok.value!r}", tok.start_pos or 0, _describe(e.expected) or None,
                        code="expr-syntax") from None
    except UnexpectedInput as e:  # pragma: no cover - other lark errors
        raise ExprError("syntax error", getattr(e, "pos_in_stream", 0) or 0, code="expr-syntax") from None
    _check_depth(tree)
    return tree


def _check_depth(tree: Tree) -> None:
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ExprError(f"expression is nested too deeply (limit {MAX_DEPTH})", offset_of(node), code="limit")
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))


def bare_name(tree) -> str | None:
    """The name an expression's tree is, when it is one name alone (``me``, ``players``), else
    None: how analyses ask what an expression is, rather than reading its generated code."""
    return str(tree.children[0]) if isinstance(tree, Tree) and tree.data == "name" else None


def offset_of(node) -> int:
    if isinstance(node, Token):
        return node.start_pos or 0
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return meta.start_pos
    for child in getattr(node, "children", ()):
        if isinstance(child, (Tree, Token)):
            return offset_of(child)
    return 0


_ESCAPES = {"\\": "\\", "'": "'", '"': '"'}


def unquote(token) -> str:
    """The text of a string literal: its quotes dropped, \\ \\' \\" read as \\ ' "."""
    body = str(token)[1:-1]
    if "\\" not in body:
        return body
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            nxt = body[i + 1]   # the grammar never ends a string on a lone backslash
            if nxt not in _ESCAPES:
                raise ExprError(f"unknown escape '\\{nxt}' in a string: the escapes are \\\\, \\' and \\\"",
                                (getattr(token, "start_pos", 0) or 0) + i + 1, code="expr-syntax")
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def quote(text: str) -> str:
    """A string literal whose text is ``text`` (the inverse of unquote)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def as_expr(value) -> str:
    """YAML scalars are expressions; numbers, booleans and lists of literals are accepted as is."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(quote(v) if isinstance(v, str) else as_expr(v) for v in value) + "]"
    return str(value)
