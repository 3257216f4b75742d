"""What a seat can tell of copies: cards that share a label. A seat sees a card's label, never
which card of that label it is, so the knowledge record (engine/knowledge.py, ``S.kn``: card ->
the seats that know its place) is kept as a seat could keep it, by count: where a seat knew k
cards of a label in a hidden zone, it knows k of them there, whichever copies the record names.

- Cards leave a zone for one a seat sees, the zone they left hidden from it (a card played from
  a hand to the table): the seat sees their labels, not which copies went. Of k cards of a label
  it knew there, m of that label leaving, it knows k - m (none if fewer) still there (``recount``).
- A seat is told of cards (a `show`, a card chosen into a public variable: engine/knowledge.py
  ``tell``): it sees their labels. Of k cards of a label it knew in the zone and t told there,
  it knows max(k, t) there: the told ones, which the rules may name (the variable a choice set),
  then the lowest it knew (``told``). Told where a card is, it is not told where among the
  zone's cards: the seat no longer knows that zone's order (``order_key``; a determinized world
  deals the order of a zone whose every card the seat knows only where it could not know it).

Which copies the record keeps, among those a seat's count allows, tells the seat nothing: two
states that differ only in which copy went where give it the same observation and worlds dealt
alike (tests/test_knowledge_copies.py). The true game's cards keep their ids.
"""
from __future__ import annotations


def held(S, zone: str, owner) -> list:
    """The cards of ``zone`` (of ``owner``) now."""
    kind, table = S.rules.zone_owner[zone], S.zone(zone)
    return table if kind == "none" else table.get(owner, ()) if kind == "card" else table[owner]


def recount(S, cards, zone: str, owner, seats: int) -> None:
    """``cards`` left ``zone`` (of ``owner``) for a zone the seats of ``seats`` see, which see
    their labels but not which copy each is: a seat that knew k cards of a label in the zone, m
    of which left, knows that k - m (none if fewer) are still there; where more of its known
    cards of that label still are, it forgets the excess (those of highest id)."""
    kn, labels = S.kn, S.rules.card_labels
    moved = set(cards)
    gone: dict = {}   # label -> the moved cards of it
    for c in cards:
        gone.setdefault(labels[c], []).append(c)
    left: dict = {}   # label -> the cards of it still in the zone that some seat of ``seats`` knows
    for c in held(S, zone, owner):
        if c not in moved and labels[c] in gone and kn.get(c, 0) & seats:
            left.setdefault(labels[c], []).append(c)
    for label, still in left.items():
        still.sort()
        went = gone[label]
        for bit in _bits(seats):
            mine = [c for c in still if kn.get(c, 0) & bit]
            knew = len(mine) + sum(1 for c in went if kn.get(c, 0) & bit)
            unknown(kn, mine[max(0, knew - len(went)):], bit)


def told(S, place: tuple, cards: set, seats: int) -> None:
    """The seats of ``seats``, which do not see the zone ``place`` (zone, owner), are told of
    ``cards`` there (module docstring): each knows the told cards there, and of the copies of
    their labels it knew there as many as it can count; and no longer knows the zone's order
    (whether it knew the card told, of copies, it cannot tell: every seat told)."""
    kn, labels = S.kn, S.rules.card_labels
    copies: dict = {}   # label -> the zone's cards of it
    wanted = {labels[c] for c in cards}
    for c in held(S, *place):
        if labels[c] in wanted:
            copies.setdefault(labels[c], []).append(c)
    for same in copies.values():
        mine = sorted(c for c in same if c in cards)
        if len(same) == 1:   # (no copy of it there: the card itself)
            kn[mine[0]] = kn.get(mine[0], 0) | seats
            continue
        for bit in _bits(seats):
            if all(kn.get(c, 0) & bit for c in mine):
                continue
            knew = sorted(c for c in same if kn.get(c, 0) & bit)
            for c in mine:
                kn[c] = kn.get(c, 0) | bit
            others = [c for c in knew if c not in cards]
            unknown(kn, others[max(0, len(knew) - len(mine)):], bit)
    key = order_key(*place)
    kn[key] = kn.get(key, 0) | seats


def order_key(zone: str, owner) -> str:
    """The knowledge record's key of the seats told of a card in ``zone`` (of ``owner``): they
    know where the card is, not its place among the zone's cards, so not the zone's order. Never
    a card id or a private variable's name (``@`` starts no name); kept for as long as the game."""
    return f"@{zone}" if owner is None else f"@{zone}[{owner}]"


def unknown(kn: dict, cards, bit: int) -> None:
    """The seat of ``bit`` no longer knows where ``cards`` are."""
    for c in cards:
        m = kn[c] & ~bit
        if m:
            kn[c] = m
        else:
            del kn[c]


def _bits(seats: int):
    """Each seat's bit of the bitmask ``seats``."""
    while seats:
        bit = seats & -seats
        seats ^= bit
        yield bit
