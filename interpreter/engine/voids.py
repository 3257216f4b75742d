"""What the table learnt of a hand that could not follow: the cards a hand was seen to hold none of.

A ``tricks`` step offers a card that does not follow the led one only when the hand holds no
card that does (mechanics/tricks.py; ``playable:`` only narrows the cards that follow). So when
a player plays such a card, every seat that sees the trick's table learns that the player's
hand held, at that moment, none of the cards whose follow value was the led card's. A game that
keeps knowledge (``S.kn``, engine/knowledge.py) records it in ``S.vd``: a tuple of entries
``(zone, owner, cards, seats)``, the hand zone instance, a frozenset of concrete cards (so a
later change of trump or of a variable the follow key reads does not change what was learnt)
and the bitmask of the seats that learnt it; entries of one instance and the same seats are one
(their cards joined). Plain tuples and frozensets: a clone shares them, every change makes a new
tuple. A game without knowledge keeps none (``S.vd`` empty); a playout's or a look ahead's copy
drops both records (engine/knowledge.py ``unknowing``).

The cards are read where the play is resolved, before the card leaves the hand: the state the
hand's options were read in, before the table's enter triggers run (a trigger that deals into
the hand then drops the record it finds). A key that reads only the card finds them in a table
of the game's cards by value made at the ruleset's first void (``follow_index``); a key that
reads the state is read for every card of the game where that work is within ``VOID_WORK``
worst-case operations, and learns nothing past it (``led_cards``): never charged to the step
budget, so a game plays the same steps whether it keeps knowledge or not. A key that reads what not every seat sees (a hidden zone's cards, a
hidden counter, a private variable: engine/sight.py ``reads_unseen``) records nothing: which
cards it names would tell of it.

The fact holds while the hand only loses cards. When any card enters it (a draw, a pass, a
new deal: every move of cards reaches ``know``, which calls ``gained``), every entry of that
instance is dropped, whatever card came in: a sound rule, simple to keep, that forgets what
the table could still tell (a hand void of hearts that draws a spade is still void of hearts).

A determinization for a seat (engine/knowledge.py ``_dealt``) never deals one of those cards
into a hand the seat saw go void (``banned``); its world keeps the entries the seat saw
(``seen_by``). A saved state writes them under ``voids`` (only when there are any: a state
saved without that field loads with none) and ``check`` holds them to the ruleset at load.
"""
from __future__ import annotations

from ..errors import GameError
from ..expr.limits import MAX_COST
from ..expr.runtime import RUNTIME_ERRORS
from .values import Bad, need, whole
from .visibility import ALL

_UNREAD = object()   # (a card a key cannot read: never in a hand, never one learnt)
VOID_WORK = MAX_COST   # worst-case operations a void's reading of a state-reading key may take: one expression's


def follow_index(follow, n: int) -> tuple:
    """For a follow key that reads only the card (an attribute's table, a function of the card's
    attributes): each card's value and, by value, the frozenset of the cards that have it. Made
    once for a ruleset, at its first void (``n`` cards, one key read each). A value that equals
    nothing (NaN) or that cannot be a dict key has no set (``led_cards`` reads ``values`` for it)."""
    values = []
    for c in range(n):
        try:
            values.append(follow(c))
        except RUNTIME_ERRORS:
            values.append(_UNREAD)
    groups: dict = {}
    for c, v in enumerate(values):
        try:
            if v is not _UNREAD and v == v:
                groups.setdefault(v, []).append(c)
        except TypeError:   # (unhashable)
            continue
    return tuple(values), {v: frozenset(cards) for v, cards in groups.items()}


def led_cards(S, follow, index, led, card) -> frozenset | None:
    """The cards a hand that played ``card`` on ``led`` is seen to hold none of: those whose
    follow value equals ``led``'s, read in the state the hand's options were read in (before the
    card leaves it); None when ``card`` follows. A key that reads only the card finds them in
    ``index`` (``follow_index``); one that reads the state reads every card of the game where
    the key's worst-case operations a card times the cards are within ``VOID_WORK``, and past
    it nothing is learnt (an empty set: sound, the table only knows less). Uncharged: the
    record is kept only where a game keeps knowledge, which must not change its steps."""
    if getattr(follow, "reads_state", False):
        L = {"led": led}
        want = follow(S, None, L, led)
        if follow(S, None, L, card) == want:
            return None
        n = len(S.rules.card_labels)
        if n * max(1, follow.work) > VOID_WORK:
            return frozenset()
        out = []
        for c in range(n):
            try:
                if follow(S, None, L, c) == want:
                    out.append(c)
            except RUNTIME_ERRORS:
                continue
        return frozenset(out)
    want = follow(led)
    if follow(card) == want:
        return None
    values, groups = index
    try:
        return groups.get(want, frozenset())
    except TypeError:   # (an unhashable value: compared with each card's)
        return frozenset(c for c, v in enumerate(values) if v is not _UNREAD and v == want)


def record(S, zone: str, owner, cards: frozenset, table: str) -> None:
    """The seats that see ``table`` (the trick's: who saw the play) learnt that ``zone`` of
    ``owner`` holds none of ``cards``."""
    seats = S.rules.visibility.seen(S.members).zone_seers(table, None)
    if not seats or not cards:   # (a face-down trick: nobody saw what did not follow)
        return
    full = (1 << S.n) - 1
    seats = full if seats == ALL else seats & full
    kept = []
    for entry in S.vd:
        if entry[0] == zone and entry[1] == owner and entry[3] == seats:
            cards = cards | entry[2]   # (one entry an instance and its seats)
        else:
            kept.append(entry)
    kept.append((zone, owner, cards, seats))
    S.vd = tuple(kept)


def gained(S, zone: str, owner) -> None:
    """Cards entered ``zone`` of ``owner`` (None: every instance at once): what was learnt of
    that hand no longer holds (module docstring). Called where ``S.vd`` is not empty."""
    vd = tuple(entry for entry in S.vd if entry[0] != zone or (owner is not None and entry[1] != owner))
    if len(vd) != len(S.vd):
        S.vd = vd


def banned(S, seat: int, slots: list) -> list | None:
    """For each slot a determinization of ``S`` deals into (its first item the list it refills:
    a zone instance's own list, or a new one for a step's cards held aside), the cards ``seat``
    saw that hand go without; None when none applies. (Found by the list: no place is noted
    for a deal where nothing is void.)"""
    bit = 1 << seat
    out: list | None = None
    for zone, owner, cards, seats in S.vd:
        if not seats & bit:   # (a play this seat could not see)
            continue
        hand = S.zone(zone)[owner]
        for i, slot in enumerate(slots):
            if slot[0] is hand:
                if out is None:
                    out = [frozenset()] * len(slots)
                out[i] = out[i] | cards
    return out


def classes(pool: list, kinds, fit: dict, banned: list) -> tuple[dict, dict]:
    """For a deal (engine/knowledge.py ``_deal``): each card of ``pool`` by its class, its
    component and the slots that ban it (``banned``), and each class's slots: its component's
    (``fit``) less those; GameError where a class has none left."""
    out: dict = {}   # card -> the slots that ban it, in slot order
    for i, no in enumerate(banned):
        for c in no:
            out[c] = out.get(c, ()) + (i,)
    classes = {c: (kinds[c], out.get(c, ())) for c in pool}
    fits = {}
    for kind in set(classes.values()):
        fits[kind] = fit[kind[0]].difference(kind[1])
        if not fits[kind]:   # (a crafted state: play records only what holds; the caller deals without them)
            raise GameError("cannot determinize: a card no hidden hand may hold (a void recorded everywhere)")
    return classes, fits


def seen_by(S, seat: int) -> tuple:
    """The entries of ``S`` that ``seat`` learnt and that still hold in ``S`` (a world dealt
    for it: an entry its deal could not keep is left out)."""
    bit, out = 1 << seat, []
    for entry in S.vd:
        zone, owner, cards, seats = entry
        if seats & bit and cards.isdisjoint(S.zone(zone)[owner]):
            out.append(entry)
    return tuple(out)


def to_json(vd: tuple) -> list:
    """The entries as a saved state writes them: ``[zone, owner, [card ids], seats]``, in that
    order (the same facts, the same text, whatever order they were learnt in)."""
    return sorted([zone, owner, sorted(cards), seats] for zone, owner, cards, seats in vd)


def from_json(data) -> tuple:
    """The entries read back from a saved state (checked first: ``check``)."""
    return tuple((zone, owner, frozenset(cards), seats) for zone, owner, cards, seats in data or ())


def check(rules, d: dict, players: int, n_owners: dict) -> None:
    """Raise Bad (engine/values.py) for the first entry of a saved state's ``voids`` that does
    not fit: a hand zone instance of this game (a zone owned by each player or team), card ids
    that exist, the seats of this game, one entry an instance and its seats, and a hand that
    holds none of the cards it is recorded to hold none of."""
    voids = d.get("voids")
    if voids is None:
        return
    need(isinstance(voids, list), "voids: expected a list of [zone, owner, [card ids], seats]")
    need(not voids or d["known"] is not None,
         "voids: what the table learnt of hands is kept with the record of what seats know (known), which is null")
    n_cards, seen = len(rules.card_labels), set()
    for i, entry in enumerate(voids):
        where = f"voids[{i}]"
        need(isinstance(entry, list) and len(entry) == 4, f"{where}: expected [zone, owner, [card ids], seats]")
        zone, owner, cards, seats = entry
        kind = rules.zone_owner.get(zone) if isinstance(zone, str) else None
        need(kind in ("player", "team"), f"{where}: {zone!r} is not a zone of the ruleset owned by each player or team")
        need(whole(owner) and 0 <= owner < n_owners[kind], f"{where}: no {kind} {owner!r} in this game "
             f"({kind}s 0 to {n_owners[kind] - 1})")
        need(isinstance(cards, list) and cards, f"{where}: expected a list of card ids, not empty")
        for c in cards:
            need(whole(c) and 0 <= c < n_cards, f"{where}: no card {c!r} (card ids are 0 to {n_cards - 1})")
        need(len(set(cards)) == len(cards), f"{where}: a card listed twice")
        need(whole(seats) and 0 < seats < 2 ** players, f"{where}: expected a bitmask of seats, not none of them")
        need((zone, owner, seats) not in seen, f"{where}: a second entry of zones.{zone}[{owner}] for the same seats")
        seen.add((zone, owner, seats))
        held = set(d["zones"][zone][owner]).intersection(cards)
        if held:
            raise Bad(f"{where}: zones.{zone}[{owner}] holds card {min(held)} ({rules.card_labels[min(held)]}), "
                      "which it is recorded to hold none of")
