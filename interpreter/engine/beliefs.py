"""What a determinized world (engine/knowledge.py) holds of the counters and variables its seat
cannot see: values the seat may believe, never the true ones.

The seat sees what ``observation(seat)`` shows (engine/visibility.py): a counter instance
visible to it, and every public variable; those stay as they are. Every other value is replaced,
whatever it truly is:

- a private variable (``_name``: no seat sees one) whose value the seat knows, because its own
  decision stored it and nothing wrote it since (``S.kn``, engine/knowledge.py), is kept; of
  the list a simultaneous choice revealed into it, the seat's own entry alone, none for the others;
- any other private variable of a type whose values the ruleset declares
  is drawn uniformly among them with the determinization's generator: ``bool`` (false, true),
  ``player`` (a seat), ``team`` (a team), ``card`` (a card of the game; none in a game of no
  cards); and none among them where the variable may hold none: its start is none and the
  setup does not set it (``_ender: player``, set when a seat ends the game). One the setup
  sets is taken never to hold none again (a later ``set`` of none is not looked for);
- a private variable of any other type (``int``, ``num``, ``str``, a list, ``any``): the value
  the game starts with (its ``start:``, else none);
- a counter instance the seat does not see (another seat's or team's ``visible: owner``, each
  one of ``visible: none``, each card's of ``visible: owner``): the value the game starts with
  (counters declare no bounds to draw from).

"The value the game starts with" is the one a game of the same seats, parameters and options
holds before its setup runs (``Ruleset.started``): it depends on no seed (engine/start.py), so a
world holds the same whatever the hidden values are. A counter that the rules tie to hidden
cards (a sum of the values in a hidden hand) is reset too, so it need not agree with the cards
the world dealt.
"""
from __future__ import annotations

from ..expr.runtime import owned
from ..expr.types import BOOL, CARD, PLAYER, TEAM


def believed(D, seat: int, rng) -> None:
    """Replace in ``D`` (a determinization's own copy) every counter and variable ``seat`` does
    not see by what it may believe (module docstring)."""
    rules = D.rules
    kept = rules.start_values
    hidden = kept.get((D.members, seat))
    if hidden is None:   # (found once for a team assignment and a seat)
        hidden = kept[(D.members, seat)] = _hidden(rules, D.members, seat)
    counters, private = hidden
    if not counters and not private:
        return
    bit, kn = 1 << seat, D.kn or {}
    start = _start(D)
    for at, instances in counters:
        value = getattr(start, at)
        if instances is None:   # every instance (a shared counter: its one value)
            setattr(D, at, value[:] if value.__class__ is list else value)
            continue
        values = getattr(D, at)[:]   # (one value per player or team)
        for i in instances:
            values[i] = value[i]
        setattr(D, at, values)
    for name, at, typ, entries, set_up in private:
        if kn.get(name, 0) & bit:   # its own choice: kept (of a simultaneous one, its own entry alone)
            value = getattr(D, at)
            if entries and value.__class__ is list:   # (a list of one entry a seat; none: nothing to keep apart)
                setattr(D, at, [value[s] if s == seat else None for s in range(len(value))])
            continue
        value = getattr(start, at)
        setattr(D, at, _drawn(D, typ, rng, value, value is None and not set_up))


def _hidden(rules, members, seat: int) -> tuple:
    """What ``seat`` does not see: the slot of each counter hidden from it, with the instances it
    does not see (None: all of them); the name, slot and type of each private variable, whether
    a simultaneous choice reveals into it, and whether the setup may set it."""
    bit, vis, layout = 1 << seat, rules.visibility, rules.layout
    counters: list[tuple] = []
    for name, masks in vis.seen(members).counter.items():
        if type(masks) is int:   # every instance alike: seen by the seat, or not one of them
            if not masks & bit:
                counters.append((layout.counters[name], None))
            continue
        unseen = tuple(i for i, m in enumerate(masks) if not m & bit)
        if unseen:
            counters.append((layout.counters[name], unseen))
    setup = getattr(rules.setup, "access", None)   # (None: no setup, or one that records nothing)
    everything = setup is not None and bool(setup.opaque or setup.calls)
    written = setup.writes if setup is not None else frozenset()
    # (the variables a simultaneous choice reveals into: one entry a seat, each seat knowing its own)
    entries = revealed_into(rules)
    private = tuple((name, layout.vars[name], typ, name in entries, everything or ("v", name) in written)
                    for name, typ in rules.names.vars.items() if not vis.vars[name] & bit)
    return tuple(counters), private


def replaced(rules, members, seat: int) -> frozenset:
    """The names (expr/access.py: ``("c", counter)``, ``("v", variable)``) of the values a world
    of ``seat`` replaces by beliefs: each counter an instance of which is hidden from it, each
    private variable (even one a world keeps, where the seat's own choice stored it)."""
    bit, vis = 1 << seat, rules.visibility
    names = {("c", name.split(".")[0]) for name, masks in vis.seen(members).counter.items()
             if (not masks & bit if type(masks) is int else any(not m & bit for m in masks))}
    return frozenset(names | {("v", name) for name in rules.names.vars if not vis.vars[name] & bit})


def revealed_into(rules) -> set:
    """The private variables a simultaneous choice reveals into: a list, one entry a seat, of
    which each seat that chose knows its own (a saved state's ``known`` checked against it)."""
    return {step.choice_var() for step in rules.steps if getattr(step, "private_choice", False)}


def _drawn(D, typ: str, rng, start, none: bool):
    """A value of ``typ`` drawn among the values the type declares (and none with them where
    ``none``), else ``start``."""
    many = (2 if typ == BOOL else D.n if typ == PLAYER else len(D.members) if typ == TEAM
            else len(D.rules.card_labels) if typ == CARD else 0)   # (a game of no cards: none, its start)
    if not many:
        return owned(start) if start.__class__ is list else start   # (the kept start's list: a copy)
    if not none:
        return rng.random() < 0.5 if typ == BOOL else rng.randrange(many)
    k = rng.randrange(many + 1)
    return None if k == many else k == 1 if typ == BOOL else k


def _start(D):
    """The state a game of ``D``'s seats, parameters and options holds before its setup: kept
    by the ruleset for the last game asked of (a search determinizes one game again and again)."""
    rules = D.rules
    kept = rules.start_values
    last = kept.get("last")
    if last is not None and last[0] is D.p and last[1] is D.o and last[2] is D.members:
        return last[3]
    S = rules.started(D)
    kept["last"] = (D.p, D.o, D.members, S)   # (one assignment: threads read it whole)
    return S
