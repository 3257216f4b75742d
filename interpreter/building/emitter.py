"""The lines of one generated function as an effect list is compiled: indentation and fresh names
(``em`` to the effect kinds, mechanics/base.py ``effect_kind``)."""
from __future__ import annotations


class Emitter:
    def __init__(self):
        self.lines: list[str] = []
        self.depth = 1
        self.tmp = 0
        self.local_dict = False   # the lines bind a local in ``L`` (a for_each): L must be a dict
        self.counts = False   # the lines count a pass against the step budget and test it (a for_each)
        # (line index, depth, what its items write) where the list and each if/switch branch
        # begin (EffectCompiler.block): its direct items, those of an if or switch inside not
        self.marks: list[tuple[int, int, list]] = []
        self.events: list[tuple[int, int]] = []   # (line index, column) where an event's append begins
        # (line index, depth, name, its parameters bound: (Python name, source) as written) of each
        # line calling a declared effect (declared.py call): a step may write its body there instead
        self.calls: list[tuple[int, int, str, tuple]] = []
        # the location of the effect item each line comes from (``item``: the one being written), the
        # innermost: a runtime error's line names the item that failed (engine/effectlines.py)
        self.owners: list = []
        self.item = None

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)
        self.owners.append(self.item)

    def insert(self, at: int, depth: int, text: str) -> None:
        """A line put before line ``at`` (its statement's own, written after what follows it): the
        marks of the lines after it move with them."""
        self.lines.insert(at, "    " * depth + text)
        self.owners.insert(at, self.item)
        self.marks = [(k + 1 if k > at else k, d, w) for k, d, w in self.marks]
        self.events = [(k + 1 if k >= at else k, c) for k, c in self.events]
        self.calls = [(k + 1 if k >= at else k, d, name, args) for k, d, name, args in self.calls]

    def fresh(self, base="_t") -> str:
        self.tmp += 1
        return f"{base}{self.tmp}"


def per_line(statements, owners) -> tuple:
    """``owners`` (one for each of ``statements``) repeated for each line of its statement."""
    return tuple(x for text, at in zip(statements, owners) for x in (at,) * (text.count("\n") + 1))
