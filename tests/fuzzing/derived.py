"""What a State keeps besides the data ``to_json`` writes, checked against what it is derived
from (worked out here on its own, never by the engine's code that keeps it).

Every slot of a State (engine/state.py, and the slots engine/layout.py adds for the ruleset):

- data written by ``to_json``: ``seed``, ``n``, ``members``, ``p``, ``o`` (fixed for the game);
  each zone, counter and variable (a when-trigger's memory once checked), ``rng``, ``stack``,
  ``dec``, ``over``, ``steps``, ``kn``;
- ``rules``: the behaviour, no data; ``ev``: the events since last taken (compared on their own);
- derived, fixed for the game: ``players`` (the seats ``0..n-1``), ``teams`` (``0..t-1``) and
  ``tm`` (each seat's team), from ``n`` and ``members``;
- derived, kept by every move (``seats``/``stale`` check them): ``at``, the record of each card's
  zone (card -> the code of the recorded zone holding it, 0 in none), from the recorded zones;
  ``vw``, the views (each the cards of a union of recorded zones, in card order), from those zones;
- ``sh``: the tables a state still shares with a clone, copied before written (``State.own``):
  a list held by a state and its clone alike must be named in the ``sh`` of each (``unshared``).
"""
from __future__ import annotations

from interpreter.expr.names import RECORD, VIEWS


def derived(S) -> tuple:
    """The record and the views of ``S`` as plain lists (None where the ruleset keeps none)."""
    layout = S.rules.layout
    return (list(S.at) if layout.recorded else None,
            [list(view) for view in S.vw] if layout.views else None)


def record(S) -> list:
    """The record of each card's zone as the zones say it (card -> the code of its recorded zone,
    0 in none); AssertionError where a card is in two recorded zones."""
    at = [0] * len(S.rules.card_labels)
    for name, code in S.rules.names.recorded.items():
        for card in list.__iter__(S.zone(name)):   # (the list as held: no adapter's draw)
            assert at[card] == 0, f"card {S.rules.card_labels[card]} in two recorded zones"
            at[card] = code
    return at


def views(S) -> list:
    """Each view as the zones of its union say it: their cards in card order."""
    return [sorted(card for zone in union for card in list.__iter__(S.zone(zone))) for union in S.rules.names.views]


def seats(S) -> str | None:
    """What is wrong with the seats' and teams' lists of ``S`` (from ``n`` and ``members``), or None."""
    team = {seat: t for t, members in enumerate(S.members) for seat in members}
    if sorted(team) != list(range(S.n)) or sum(map(len, S.members)) != S.n:
        return f"the teams' members {S.members} are not the seats 0..{S.n - 1}, each once"
    if S.players != list(range(S.n)) or S.teams != list(range(len(S.members))):
        return f"the seats {S.players} or the teams {S.teams} are not those of {S.n} seats in {len(S.members)} teams"
    if S.tm != tuple(team[seat] for seat in range(S.n)):
        return f"each seat's team {S.tm} is not as the members {S.members} say"
    return None


def stale(S) -> str | None:
    """What in the record, the views, the seats or ``sh`` of ``S`` disagrees with what it is
    derived from, in words, or None."""
    rules = S.rules
    if rules.names.recorded:
        try:
            at = record(S)
        except AssertionError as e:   # (a card in two recorded zones)
            return str(e)
        if not isinstance(S.at, list) or len(S.at) != len(at):
            return f"the record is {S.at!r}, not a list of {len(at)} cards"
        if S.at != at:
            card = next(c for c, (x, y) in enumerate(zip(S.at, at)) if x != y)
            zone = {code: name for name, code in rules.names.recorded.items()}
            return (f"card {rules.card_labels[card]} is in {zone.get(at[card], 'no recorded zone')}, "
                    f"the record says {zone.get(S.at[card], 'no recorded zone')}")
    if rules.names.views and list(map(list, S.vw)) != views(S):
        wanted = views(S)
        i = next((i for i, (x, y) in enumerate(zip(S.vw, wanted)) if list(x) != y), len(wanted))
        if i == len(wanted):
            return f"{len(S.vw)} views kept, not {len(wanted)}"
        held, labels = list(S.vw[i]), rules.card_labels
        extra, missing = sorted(set(held) - set(wanted[i])), sorted(set(wanted[i]) - set(held))
        said = [*([f"holds {', '.join(labels[c] for c in extra)}, not in its zones"] if extra else []),
                *([f"lacks {', '.join(labels[c] for c in missing)}, in its zones"] if missing else [])]
        return f"the view of {' + '.join(rules.names.views[i])} " + (" and ".join(said) or f"holds its cards out of order: {held}")
    if not S.sh <= rules.shared_on_clone:
        return f"sh names {sorted(S.sh - rules.shared_on_clone)}, no table a clone shares"
    return seats(S)


def _lists(value) -> list:
    """The lists a table's value is made of: itself, and each owner's or card's list in it."""
    if value.__class__ is dict:
        return list(value.values())
    if isinstance(value, list):
        return [value, *(part for part in value if isinstance(part, list))]
    return []


def unshared(S, T) -> list:
    """The tables (by name; the record and the views so called) whose list, or one list of them
    (a zone per owner or card), ``S`` holds as ``T`` does without naming them in ``S.sh``: ``S``
    would write ``T``'s in place."""
    out = []
    for name, a in S.rules.layout.of.items():
        if name in S.sh:
            continue
        theirs = {id(part) for part in _lists(getattr(T, a))}
        if any(id(part) in theirs for part in _lists(getattr(S, a))):
            out.append({RECORD: "the record", VIEWS: "the views"}.get(name, name))
    return out
