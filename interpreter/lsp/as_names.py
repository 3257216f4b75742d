"""The names given to elements with ``as`` (``L as x where C``) in scope at a cursor, read off
the expression's text before it (written or being written: it need not parse), for completion
and hover. Their reach is the language's (docs/language.md, expr/named.py): the rest of the
filter's condition and the filters chained to it, up to the bracket around the filter, and the
``by:`` or ``to:`` of a call whose list argument the filter is; an inner name hides an outer one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r"'[^']*'?|\"[^\"]*\"?|[A-Za-z_]\w*|[()\[\],:]|\S")
_KEYWORD = re.compile(r"^[A-Za-z_]\w*\s*:\s*")
PER_ELEMENT = ("by", "to")   # a call's keyword arguments read once per element of its list


@dataclass
class _Group:
    """A bracket open before the cursor (or the whole expression): the names given in it."""
    start: int                  # where its text starts (after the bracket, or after its last comma)
    call: bool                  # a call's parentheses: f(...)
    commas: int = 0
    keyword: str | None = None  # the keyword argument being written (after a comma)
    names: dict[str, tuple[int, str]] = field(default_factory=dict)   # name -> (argument, list text)


def _body(before: str) -> str:
    """The expression's text: a YAML scalar's opening quote left out."""
    return before[1:] if before[:1] in "\"'" and before.count(before[:1]) % 2 == 1 else before


def names_at(before: str) -> dict[str, str]:
    """The names given with ``as`` in scope at the end of ``before`` (an expression's text up to
    the cursor), each with the text of the list whose elements it names, the innermost last."""
    text = _body(before)
    groups = [_Group(0, False)]
    tokens = list(_TOKEN.finditer(text))
    for i, tok in enumerate(tokens):
        t, top = tok.group(), groups[-1]
        if t in "([":
            call = t == "(" and i > 0 and re.fullmatch(r"[A-Za-z_]\w*", tokens[i - 1].group()) is not None
            groups.append(_Group(tok.end(), call))
        elif t in ")]":
            if len(groups) > 1:
                groups.pop()
        elif t == ",":
            top.commas, top.keyword, top.start = top.commas + 1, None, tok.end()
        elif t == ":" and i > 0 and top.commas and top.keyword is None:
            top.keyword = tokens[i - 1].group()
        elif t == "as" and i + 2 < len(tokens) and tokens[i + 2].group() == "where":
            listed = _KEYWORD.sub("", text[top.start:tok.start()].strip())
            top.names[tokens[i + 1].group()] = (top.commas, listed)
    out: dict[str, str] = {}
    for g in groups:
        for name, (arg, listed) in g.names.items():
            if arg == g.commas or (g.call and arg == 0 and g.keyword in PER_ELEMENT):
                out.pop(name, None)
                out[name] = listed
    return out


def name_doc(before: str, word: str) -> str | None:
    """Hover of ``word`` written after ``before``: an element's name given with ``as`` (where it
    is read in its reach, or given), with the list it names the elements of."""
    given = re.search(r"\bas\s+$", _body(before)) is not None
    listed = names_at(before + word + " where " if given else before).get(word)
    if listed is None:
        return None
    return (f"**element `{word}`**: each element of `{listed}`, named with `as {word}` (read in its filter's "
            "condition, in filters chained to it and in the by: or to: of a call over it)")
