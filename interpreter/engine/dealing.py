"""How a determinization deals the hidden cards into the hidden places (engine/knowledge.py
``_dealt`` gathers the pool and the places): each place takes exactly its number of cards, only
cards of the components it can hold and none a void bans it (engine/voids.py), every fitting
deal equally likely where the fitting sets nest."""
from __future__ import annotations

from ..errors import GameError
from . import voids


def deal(pool: list, slots: list, kinds, labels, rng, tries: int = 50,
          banned: list | None = None) -> tuple[list[list], frozenset]:
    """The pool dealt into the slots at random, each slot taking exactly its number of cards and
    only cards of the components it can hold; and the slots whose cards are already in a
    uniformly random order (a cut of one shuffled set: shuffling them again changes nothing
    of the deal's distribution).

    When the sets of slots the components fit are nested or apart (every slot holds every
    card; or a pile holds anything, hands all but one component, a third place fewer still),
    every fitting deal is equally likely: the cards that fit fewest slots take random places
    among them first (``_deal_nested``). Otherwise the cards that fit fewest slots go first,
    each to a slot chosen in proportion to the room it has left; the real deal is one that
    fits, so a few tries find one.

    ``banned``: for each slot, the cards it may not take (engine/voids.py): each card's class is
    then its component and the slots that ban it, dealt as the components are."""
    fit: dict = {}   # component -> the slots that may hold it
    for kind in {kinds[c] for c in pool}:
        fit[kind] = frozenset(i for i, (_, _, holds) in enumerate(slots) if holds is None or kind in holds)
        if not fit[kind]:   # the real deal fits, unless a card sits where no hidden zone may hold it
            c = next(c for c in pool if kinds[c] == kind)
            raise GameError(f"cannot determinize: card {labels[c]!r} is hidden where no hidden zone's holds: "
                            "lists it (a state patched, or a ruleset that moves it where it may not be)")
    if banned is not None:
        kinds, fit = voids.classes(pool, kinds, fit, banned)
    if _nested(set(fit.values())):
        dealt = _deal_nested(pool, slots, fit, kinds, rng)
        if dealt is None:
            raise GameError("cannot determinize: the hidden cards do not fit the hidden zones' holds: "
                            "more cards of some components than places that may hold them")
        return dealt
    out = _deal_tried(pool, slots, fit, kinds, rng, tries)
    if out is None:
        raise GameError(f"cannot determinize: no deal of the hidden cards into the zones' holds: found in {tries} tries")
    return out, frozenset()


def _nested(sets) -> bool:
    """Whether any two of the sets are nested or disjoint (a laminar family)."""
    sets = list(sets)
    return all(not (a & b) or a <= b or b <= a for i, a in enumerate(sets) for b in sets[i + 1:])


def _deal_nested(pool, slots, fit, kinds, rng):
    """A uniform deal when the fitting sets nest: the cards of the smallest set first, at random
    places among the room left in it (a group that fills its room exactly: shuffled and cut).
    What one group takes leaves the same room to the sets around it wherever it went, so every
    fitting deal is equally likely. With the deal, the places that took a cut of one shuffled
    group and nothing else. None when the cards cannot fit (then none can)."""
    sets = set(fit.values())
    groups: dict
    if len(sets) == 1:   # every card fits the same places (the pool is sorted: the groups too)
        groups = {sets.pop(): pool}
    else:
        groups = {}
        for c in pool:
            groups.setdefault(fit[kinds[c]], []).append(c)
    room = [n for _, n, _ in slots]
    out: list = [[] for _ in slots]
    sources = [0] * len(slots)   # how many groups each place took cards from
    cut = set()                  # places that took a cut of a shuffled group: their order is random
    for places in sorted(groups, key=lambda f: (len(f), sorted(f))):
        cards, order = groups[places], sorted(places)
        left = sum(room[i] for i in order)
        if len(cards) > left:
            return None
        if len(cards) == left:
            cards = cards[:]
            rng.shuffle(cards)
            at = 0
            for i in order:
                if room[i]:
                    out[i] += cards[at:at + room[i]]
                    at += room[i]
                    room[i] = 0
                    sources[i] += 1
                    cut.add(i)
            continue
        spots = [i for i in order for _ in range(room[i])]
        for c, i in zip(cards, rng.sample(spots, len(cards))):
            out[i].append(c)
            room[i] -= 1
            sources[i] += 1
    return out, frozenset(i for i in cut if sources[i] == 1)


def _deal_tried(pool, slots, fit, kinds, rng, tries):
    """A deal found by placing the least fitting cards first (None after ``tries`` failures)."""
    places = {kind: sorted(f) for kind, f in fit.items()}   # (in slot order)
    for _ in range(tries):
        cards = pool[:]
        rng.shuffle(cards)
        fits = [places[kinds[c]] for c in cards]
        order = sorted(range(len(cards)), key=lambda k: len(fits[k]))   # (stable: ties stay shuffled)
        room = [n for _, n, _ in slots]
        out: list = [[] for _ in slots]
        for k in order:
            open_ = [i for i in fits[k] if room[i]]
            if not open_:
                break
            pick = rng.randrange(sum(room[i] for i in open_))
            for i in open_:
                pick -= room[i]
                if pick < 0:
                    break
            out[i].append(cards[k])
            room[i] -= 1
        else:
            return out
    return None
