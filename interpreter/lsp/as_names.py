"""The names given to elements with ``as`` (``L as x where C``) in scope at a cursor, read off
the expression's text before it (written or being written: it need not parse), for completion
and hover. Their reach is the language's (docs/language.md, expr/named.py): the rest of the
filter's condition and the filters chained to it, up to the bracket around the filter, and the
``by:`` or ``to:`` of a call whose list argument the filter is; an inner name hides an outer one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .scans import WINDOW

_TOKEN = re.compile(r"'[^']*'?|\"[^\"]*\"?|[A-Za-z_]\w*|[()\[\],:]|\S")
PER_ELEMENT = ("by", "to")   # a call's keyword arguments read once per element of its list
MAX_LISTED = 200             # characters of a list's text shown for the name of its elements


@dataclass
class _Group:
    """A bracket open before the cursor (or the whole expression): the names given in it."""
    start: int                  # its first token (after the bracket, or after its last comma)
    call: bool                  # a call's parentheses: f(...)
    commas: int = 0
    keyword: str | None = None  # the keyword argument being written (after a comma)
    names: dict[str, tuple[int, int, int]] = field(default_factory=dict)   # name -> (argument, the list's tokens)


def _body(before: str) -> str:
    """The expression's text: a YAML scalar's opening quote left out."""
    return before[1:] if before[:1] in "\"'" and before.count(before[:1]) % 2 == 1 else before


def names_at(before: str) -> dict[str, str]:
    """The names given with ``as`` in scope at the end of ``before`` (an expression's text up to
    the cursor), each with the text of the list whose elements it names (its first ``MAX_LISTED``
    characters), the innermost last; of a longer expression, its last ``WINDOW`` characters
    (scans.py). A list is kept by its tokens, and its text cut out only for the names in scope."""
    text = _body(before)[-WINDOW:]
    groups = [_Group(0, False)]
    tokens = list(_TOKEN.finditer(text))
    for i, tok in enumerate(tokens):
        t, top = tok.group(), groups[-1]
        if t in "([":
            call = t == "(" and i > 0 and _is_name(tokens[i - 1].group())
            groups.append(_Group(i + 1, call))
        elif t in ")]":
            if len(groups) > 1:
                groups.pop()
        elif t == ",":
            top.commas, top.keyword, top.start = top.commas + 1, None, i + 1
        elif t == ":" and i > 0 and top.commas and top.keyword is None:
            top.keyword = tokens[i - 1].group()
        elif t == "as" and i + 2 < len(tokens) and tokens[i + 2].group() == "where":
            first = top.start   # (a keyword argument's name left out: by: L as x where ...)
            if first + 1 < i and _is_name(tokens[first].group()) and tokens[first + 1].group() == ":":
                first += 2
            top.names[tokens[i + 1].group()] = (top.commas, first, i - 1)
    out: dict[str, str] = {}
    for g in groups:
        for name, (arg, first, last) in g.names.items():
            if arg == g.commas or (g.call and arg == 0 and g.keyword in PER_ELEMENT):
                out.pop(name, None)
                out[name] = _listed(text, tokens, first, last)
    return out


def _is_name(token: str) -> bool:
    return token[:1].isascii() and (token[:1].isalpha() or token[:1] == "_")   # (a token: [A-Za-z_]\w* whole)


def _listed(text: str, tokens: list, first: int, last: int) -> str:
    """The text of the tokens ``first`` to ``last``, cut at ``MAX_LISTED`` characters."""
    if first > last:
        return ""
    start, end = tokens[first].start(), tokens[last].end()
    return text[start:end] if end - start <= MAX_LISTED else text[start:start + MAX_LISTED - 1] + "…"


def name_doc(before: str, word: str) -> str | None:
    """Hover of ``word`` written after ``before``: an element's name given with ``as`` (where it
    is read in its reach, or given), with the list it names the elements of."""
    body = _body(before)
    given = _given(body)
    listed = names_at(before + word + " where " if given else before).get(word)
    if listed is None:
        return None
    return (f"**element `{word}`**: each element of `{listed}`, named with `as {word}` (read in its filter's "
            "condition, in filters chained to it and in the by: or to: of a call over it)")


def _given(body: str) -> bool:
    """Whether ``body`` ends with the word ``as`` and white space (the name after it is being given)."""
    stripped = body.rstrip()
    return len(stripped) < len(body) and stripped.endswith("as") and (
        len(stripped) == 2 or not (stripped[-3].isalnum() or stripped[-3] == "_"))
