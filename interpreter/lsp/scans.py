"""What the text of an expression before the cursor ends with, read backwards from its end in
time linear in it (a regular expression searched for at its end tries every start and takes
time quadratic in a long line): the names completion offers depend on it (completion.py). Of
a longer expression, only its last ``WINDOW`` characters before the cursor are read (there,
and by as_names.py): a name given with ``as`` further back is not offered."""
from __future__ import annotations

WINDOW = 4_000   # characters of an expression before the cursor that completion and hover read
FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")   # a name's first character


def word_start(text: str, end: int) -> int:
    """Where the run of word characters (letters, digits, _: a regular expression's ``\\w``)
    ending at ``end`` starts."""
    while end > 0 and (text[end - 1].isalnum() or text[end - 1] == "_"):
        end -= 1
    return end


def space_start(text: str, end: int) -> int:
    """Where the run of white space ending at ``end`` starts."""
    while end > 0 and text[end - 1].isspace():
        end -= 1
    return end


def name_before(text: str, end: int) -> int | None:
    """The start of the longest name (``[A-Za-z_]\\w*``) ending at ``end``, or None."""
    start = word_start(text, end)
    return next((i for i in range(start, end) if text[i] in FIRST), None)


def owner_at(text: str) -> str | None:
    """What the word being written at the end follows with a dot: ``p.hand.`` -> ``p.hand``,
    ``params.`` -> ``params``; None after no dot."""
    dot = word_start(text, len(text)) - 1
    owners: list[str] = []
    while dot >= 0 and text[dot] == ".":
        start = name_before(text, dot)
        if start is None:
            break
        owners.append(text[start:dot])
        if start != word_start(text, dot):   # (a name that begins inside a word: 2abc.)
            break
        dot = start - 1
    return ".".join(reversed(owners)) or None


def indexed_at(text: str) -> tuple[str, bool] | None:
    """The name indexed at the end (``params.MAP[`` or ``FAMILY[``, then a key being written),
    and whether the key is opened with a quote."""
    i = word_start(text, len(text))
    quoted = i > 0 and text[i - 1] == "'"
    bracket = space_start(text, i - quoted) - 1
    if bracket < 0 or text[bracket] != "[":
        return None
    start = word_start(text, bracket)
    if start < bracket and text.endswith("params.", 0, start):
        return "params." + text[start:bracket], quoted
    first = name_before(text, bracket)
    return (text[first:bracket], quoted) if first is not None else None


def compared_at(text: str) -> tuple[str, int] | None:
    """The card attribute compared at the end (``ATTR == 'x``, ``ATTR != x``, ``ATTR in [x, y``)
    and where its name starts."""
    bracket = text.find("[", text.rfind("]") + 1)
    while bracket >= 0:   # ATTR in [ with no ] after it: the first of them
        word = space_start(text, bracket)
        if text.endswith("in", 0, word):
            end = space_start(text, word - 2)
            first = name_before(text, end)
            if first is not None:
                return text[first:end], first
        bracket = text.find("[", bracket + 1)
    i = word_start(text, len(text))
    op = space_start(text, i - (i > 0 and text[i - 1] == "'"))
    if text[max(0, op - 2):op] not in ("==", "!="):
        return None
    end = space_start(text, op - 2)
    first = name_before(text, end)
    return (text[first:end], first) if first is not None else None
