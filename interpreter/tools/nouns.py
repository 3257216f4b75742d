"""The words explain builds phrases from: names as words, plurals, code in backticks, and a
list in words (``Noun``), shared by tools/phrases.py and tools/call_phrases.py."""
from __future__ import annotations

from contextvars import ContextVar


class Unphrasable(Exception):
    """A node with no words: shown as its source text."""


# the titles of the zones, counters and variables of the ruleset being explained
# (play/display/words.py), set by tools/explain.py for the time it explains one
TITLES: ContextVar[dict | None] = ContextVar("TITLES", default=None)


def words(name) -> str:
    """A name as words: its title in the ruleset explained, else with spaces for underscores."""
    title = (TITLES.get() or {}).get(name)
    return title if title is not None else str(name).replace("_", " ").strip() or str(name)


def plural(word: str) -> str:
    if word == "entry" or (word.endswith("y") and word[-2:-1] not in tuple("aeiou")):
        return word[:-1] + "ies"
    return word if word.endswith("s") else word + "s"


def code(text) -> str:
    text = " ".join(str(text).split())
    return f"`{text}`" if "`" not in text else text


class Noun:
    """A list in words: its element (``card``), what kind of value that is (card, player,
    team, value), a tail (" in your hand whose rank is 3") and, for a named list, its name
    (``head``: "*showable*", read "the cards in *showable*")."""
    __slots__ = ("singular", "kind", "tail", "head")

    def __init__(self, singular: str, kind: str, tail: str = "", head: str = ""):
        self.singular, self.kind, self.tail, self.head = singular, kind, tail, head

    def in_phrase(self) -> str:
        """Where the noun's elements are, as a phrase (" in the hand"), or its tail."""
        return f" in {self.head}{self.tail}" if self.head else self.tail

    def the(self) -> str:
        return self.head + self.tail if self.head else f"the {plural(self.singular)}{self.tail}"
    __str__ = the

    def many(self, quantity: str = "") -> str:
        """ "3 cards in your hand" ("1 card", "no cards"...)."""
        word = self.singular if quantity in ("1", "a", "one", "at least one") else plural(self.singular)
        return f"{quantity} {word}{self.in_phrase()}".strip()

    def each(self, var: str = "") -> str:
        return f"each {self.singular}{' ' + var if var else ''}{self.in_phrase()}"

    def more(self, tail: str) -> "Noun":
        return Noun(self.singular, self.kind, self.tail + tail, self.head)
