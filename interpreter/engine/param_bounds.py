"""What the cost model assumes of a parameter's value in any game, and the check that holds a
value given to a game (``--set``, ``new_game``'s ``params``, a log's header, a saved state) to
it (Ruleset.resolve_params): the most elements each list or map in it holds (``param_size``),
the most elements and characters it holds at every depth together (``param_total``), the least
and greatest a number can be (``param_span``) and the longest a string can be (``param_chars``).
Where a parameter declares ``choices:``, a value given is one of them, so each bound is its
values' and choices' own, exactly; else what its declaration allows (the cards, the players or 64
elements a list, what a list variable's strings hold together)."""
from __future__ import annotations

import math

from ..errors import UsageError
from ..expr.nesting import in_all
from ..expr.runtime import MAX_STORED, MAX_STORED_TEXT
from ..expr.walks import levels
from .params import held_texts, is_number, values_over


def sized_values(name: str, spec, counts) -> list:
    """The list and map values a parameter's declaration gives games of these player counts,
    and its choices: what bounds the length of a value given for it (builder.py)."""
    choices = spec.get("choices") or () if isinstance(spec, dict) else ()
    return [v for v in (*values_over(name, spec, counts), *choices) if isinstance(v, (list, dict))]


def param_size(name: str, spec, counts, floor: int) -> int:
    """The most elements a parameter's value, and each list or map inside it at any depth, may
    hold in a game of these player counts (what its expressions' cost bounds assume; a value given
    to a game holding more is refused: Ruleset.resolve_params): where it declares ``choices:``, its
    longest value or choice (a value given is one of them: 0 where none is a list or a map); else
    that or ``floor`` (the cards, the players, 64), whichever is larger."""
    sizes = [longest(v) for v in sized_values(name, spec, counts)]
    chosen = isinstance(spec, dict) and isinstance(spec.get("choices"), list) and spec["choices"]
    return max(sizes, default=0) if chosen else max([floor, *sizes])


def longest(v) -> int:
    """The most elements any list or map in ``v`` holds, ``v`` itself or one inside it at any
    depth (0: none): what a parameter's value is checked against (Ruleset.resolve_params)."""
    most, todo = 0, [v]
    while todo:
        x = todo.pop()
        if isinstance(x, (list, dict)):
            most = max(most, len(x))
            todo.extend(x.values() if isinstance(x, dict) else x)
    return most

def chosen(spec) -> bool:
    """Whether a parameter declares choices (a value given is one of them)."""
    return isinstance(spec, dict) and isinstance(spec.get("choices"), list) and bool(spec["choices"])


def held_size(v) -> tuple[int, int]:
    """(the elements of every list and map in ``v``, ``v`` itself included, at every depth
    together; the characters of every string it is or holds, a map's keys included): what a
    comparison of it with another value reads at most, element by element and character by
    character."""
    elements, chars, todo = 0, 0, [v]
    while todo:
        x = todo.pop()
        if isinstance(x, str):
            chars += len(x)
        elif isinstance(x, (list, dict)):
            elements += len(x)
            todo.extend([*x, *x.values()] if isinstance(x, dict) else x)
    return elements, chars


def param_total(name: str, spec, counts, size: int, typ: str) -> tuple[int, int]:
    """The most elements (at every depth together) and characters (of all its strings together)
    a parameter's value may hold in a game of these player counts (``held_size``), as the walks
    of its expressions weigh it (expr/walks.py ``elements``): where it declares ``choices:``, the
    most its values and choices hold; else each list or map of ``size`` elements, as deep as its
    type ``typ`` says (any: a level of lists inside, ``walks.levels``), and its strings
    MAX_STORED_TEXT characters together (a list variable's), or as much as its values hold."""
    held = [held_size(v) for v in (*values_over(name, spec, counts), *(spec["choices"] if chosen(spec) else ()))]
    most = tuple(max(h[i] for h in held) if held else 0 for i in (0, 1))
    if chosen(spec):
        return most[0], most[1]
    deep = in_all(size, size, typ)
    deep = sum(size * size ** k for k in range(levels(typ) + 1)) if deep is None else deep
    return max(most[0], deep), max(most[1], MAX_STORED_TEXT)


def within(name: str, value, size: int | None, total: tuple[int, int] | None) -> None:
    """A value given for parameter ``name`` holds no more than its expressions' cost bounds
    assume: ``size`` elements in each list or map at any depth, ``total`` elements and characters
    at every depth together (None: not bounded); UsageError otherwise."""
    if size is not None and isinstance(value, (list, dict)) and longest(value) > size:
        raise UsageError(f"parameter '{name}' holds at most {size:,} elements in this ruleset, in each "
                         f"list or map at any depth (the cost bounds of its expressions assume so), "
                         f"got {longest(value):,}")
    held = held_size(value)
    for most, got, what in zip(total or (), held, ("elements", "characters of strings")):
        if got > most:
            raise UsageError(f"parameter '{name}' holds at most {most:,} {what} in this ruleset at every depth "
                             f"together (the cost bounds of its expressions assume so), got {got:,}")


def param_span(spec, values: list) -> tuple | None:
    """(least, greatest) a number parameter can be in any game: its values written (``values``) and
    what an override may give, which its min: and max: and choices: bound (Ruleset.resolve_params
    refuses the rest); an end no declaration bounds is infinite. None: not a number parameter."""
    choices = spec.get("choices") if isinstance(spec, dict) else None
    if not values or not all(is_number(v) for v in [*values, *(choices or ())]):
        return None
    bounds = [spec.get(k) if isinstance(spec, dict) and is_number(spec.get(k)) else None for k in ("min", "max")]
    if choices:   # (an override is one of them, and within min: and max:)
        given = (min(choices), max(choices))
    else:
        given = (-math.inf, math.inf)
    lo = given[0] if bounds[0] is None else max(bounds[0], given[0])
    hi = given[1] if bounds[1] is None else min(bounds[1], given[1])
    return min(lo, *values), max(hi, *values)


def param_chars(spec, values: list) -> int | None:
    """The most characters a text parameter, or a string a list or map parameter holds at any
    depth (``held_texts``), can have in any game: its longest choice's (the longest string in them),
    or its max_length: (what an override may be: Ruleset.resolve_params refuses the rest), the
    values written included (none counts no character: a variant's ``{max_length: 3}`` in place of
    a bare value; a null whose choices are texts and nulls is as long as the longest of them). None:
    a parameter of other values, or one no declaration bounds (MAX_STORED)."""
    held = [held_texts(v) for v in values]
    if not isinstance(spec, dict) or None in held or not (any(v is not None for v in values) or "max_length" in spec
                                                          or "choices" in spec):
        return None
    choices, most = spec.get("choices"), spec.get("max_length")
    chosen = [held_texts(c) for c in choices] if isinstance(choices, list) and choices else [None]
    bounds = [] if None in chosen else [max((len(t) for c in chosen for t in c or ()), default=0)]
    if is_number(most) and 0 <= most <= MAX_STORED:
        bounds.append(int(most))   # (40.0, an error at load, weighed as 40: no second fault)
    return max([min(bounds), *(len(t) for h in held for t in h or ())]) if bounds else None
