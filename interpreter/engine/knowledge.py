"""What each seat knows about where the hidden cards are, and determinization: a full state
that a seat cannot tell from the real one.

Knowledge. A seat sees the zones declared visible to it (``visible: all``, or ``owner`` and
it owns them); of the others it sees only how many cards they hold. But it may know where
a hidden card is: it saw the card leave a zone it could see (a card taken from the public
market into a hand, a card it passed to a neighbour). A game started with
``new_game(..., knowledge=True)`` keeps that in ``S.kn``: card -> a bitmask of the seats
that know the card's zone while the card is in a zone hidden from them. Every move of cards
updates it (``know``): the seats that could see the zone the cards left know the zone they
entered; a card entering a zone everyone sees is known to all and leaves the table; a seat
that sees neither zone cannot tell which cards moved, so it forgets where the cards it knew
in the zone left are (they may be among those that went); a seat that sees the cards arrive,
not leave, knows copies of their labels by count (engine/copies.py). Some
rules tell seats where cards lie (``tell``): a card shown to one seat (mechanics/show.py), a
card chosen into a public variable while it stays in its owner's hidden hand (mechanics/choose.py,
a simultaneous choice once revealed: every seat now knows it is there). A game
without knowledge has ``S.kn = None`` and pays one comparison a move.

The same record says which seats know the value of a private variable (``_name``, which no
observation shows), under the variable's name (a card is a number, a variable a name): the seat
whose own decision stored it (a ``choose ... as: _x`` it answered), or, for the list a
simultaneous choice reveals into one, each seat that chose, which knows its own entry
(mechanics/choose.py). A variable no rule has written yet is not known for it: whether a rule
wrote it may be hidden itself (a write under an ``if:`` that reads a hidden card), so its start
tells nothing the worlds may keep. Any other write of the variable clears it (expr/names.py
``var_write``, ``State.set_var``): the rules may have set it from what the seat cannot see. A
saved state keeps it in ``known``, by the variable's name; a state saved without such entries
loads with nobody knowing a private value.

Determinization (``determinize(S, seat, rng)``): a copy of the state in which every card
the seat can neither see nor knows the place of is dealt again at random among the places
those cards occupy (the hidden zones keep their sizes; a card a step holds aside, such as a
card passed face down, takes part through the step's ``hidden_cards``), each hidden zone's
order is shuffled (one whose cards the seat all knows too, where a ``shuffle`` effect may name
the zone or the seat was told of a card there: it knows where they are, not in which order;
otherwise it keeps the order the seat saw the cards go in), and the seed and the RNG are drawn again from ``rng`` (the game's own
would deal the true hands again, and the chance to come as the real game will draw it).
The result depends only on what the seat may know and on ``rng``: the cards to deal are sorted before they are
shuffled, so two states that differ only in hidden facts give the same determinization.
A zone that says what it ``holds`` (the components of its cards) only ever gets
cards of those (the closing card of a pile is never dealt into a hand). The counters and
variables the seat sees are kept, and so is a private variable it knows (above); the others
(private variables, counters hidden from it) hold what it may believe, never their true values
(engine/beliefs.py). What running steps and triggers kept of hidden values is the world's too
(each step's ``hidden_values``, after the beliefs): a simultaneous choice's other choices drawn
among the options the world allows, a pick's cards picked so far that the seat cannot place
named among the world's cards where they went, a repeat's count (a turns step's laps, its lap's
seats still to play; a pass's givers and count, a pay's units owed) that read a private variable,
a hidden counter or the cards of a zone instance the seat does not see counted again on the
world's (engine/sight.py ``unseen_by``; what the seat saw, the one read when the loop started),
a when-trigger's last value asked again, each on the world's own deal (its sorted zones in order,
its record of each card's zone made first); the count of steps run starts again at 0. A world that breaks one of the ruleset's ``invariants:`` (a
position the rules never reach) is dealt again (``determinize``). A hand the seat saw fail to
follow is dealt none of the cards it was shown to lack (engine/voids.py: ``S.vd``, kept with
``S.kn`` and dropped for a hand any card enters, which ``know`` sees).
"""
from __future__ import annotations


from ..errors import GameError
from ..expr.limits import MAX_COST
from .beliefs import believed, replaced
from .dealing import deal
from .invariants import first_broken, weight
from .layout import reindex
from .loop import located, reask
from .rng import seed_state
from . import voids
from .copies import order_key, recount, told
from .sight import place_of
from .visibility import ALL


def seers(S, zone: str, owner) -> int:
    """The bitmask of the seats that see ``zone`` (of ``owner``); -1 means every seat
    (engine/visibility.py)."""
    return S.rules.visibility.seen(S.members).zone_seers(zone, owner)


def know(S, cards, src: str, src_owner, dst: str, dst_owner, held: bool = False) -> None:
    """Cards moved from ``src`` (of ``src_owner``) to ``dst``: who knows where they are now.
    ``held``: a step held them aside since they left ``src`` (a pass), so the cards in ``src``
    now are not in question."""
    if S.vd and cards:   # what the table learnt of the hand they entered no longer holds (engine/voids.py)
        voids.gained(S, dst, dst_owner)
    kn = S.kn
    seen = S.rules.visibility.seen(S.members)
    full = (1 << S.n) - 1
    into = seen.zone_seers(dst, dst_owner)
    mask = seen.zone_seers(src, src_owner)
    mask = full if mask == ALL else mask & full
    # a seat that sees neither zone cannot tell which cards left: of the cards it knew were
    # there, it no longer knows which still are (a card drawn from a deck it knew some of)
    blind = 0 if into == ALL else full & ~mask & ~into
    if blind and kn and not held:
        _forget(S, src, src_owner, blind)
    # a seat that sees the cards arrive but not the zone they left sees their labels, not which
    # copies of those labels went: of the copies it knew there, it keeps what it can count
    by_label = full & ~mask if into == ALL else into & full & ~mask
    if by_label and kn:
        recount(S, cards, src, src_owner, by_label)
    if into == ALL:
        for c in cards:
            kn.pop(c, None)
        return
    # seats that see the destination see the cards there anyway; the others lose track of a
    # card that leaves a zone they could not see, even if they knew it was there
    mask &= ~into
    for c in cards:
        if mask:
            kn[c] = mask
        else:
            kn.pop(c, None)


def _forget(S, zone: str, owner, seats: int) -> None:
    """The seats of ``seats`` no longer know where the cards of ``zone`` (of ``owner``) are."""
    kind, kn = S.rules.zone_owner[zone], S.kn
    table = S.zone(zone)
    cards = table if kind == "none" else table.get(owner, ()) if kind == "card" else table[owner]
    for c in cards:
        m = kn.get(c)
        if m and m & seats:
            m &= ~seats
            if m:
                kn[c] = m
            else:
                del kn[c]


def unknowing(S) -> None:
    """Keep no record in ``S`` (its own copy: a playout's, a look ahead's) of what seats know,
    nor so of what the table learnt of hands, kept only with it (``S.vd``: engine/voids.py)."""
    S.kn = None
    S.vd = ()


def tell(S, cards, mask: int) -> None:
    """The seats of ``mask`` now know where ``cards`` lie (a card shown to one seat, a secret
    choice revealed to all), until the cards move; nothing for a game without knowledge. A seat
    is told a card by its label, not which copy of it, nor where among the zone's cards it lies
    (engine/copies.py ``told``)."""
    kn = S.kn
    if kn is None:
        return
    here: dict = {}   # (zone, owner) -> the cards told there
    for c in cards:
        place = place_of(S, c)
        if place is not None:   # (None: held aside by a running step)
            here.setdefault(place, set()).add(c)
    for place, those in here.items():
        unseen = mask & ~seers(S, *place)   # (the seats that see the zone need no record)
        if unseen:
            told(S, place, those, unseen)


def _instances(S, name: str):
    """(owner, the zone's list) for each instance of a zone: the shared one, each player's or
    team's, or each card's that holds something (in card order)."""
    zone = S.zone(name)
    kind = S.rules.zone_owner[name]
    if kind == "none":
        return [(None, zone)]
    if kind == "card":
        return sorted(zone.items())
    return list(enumerate(zone))


def unplaced_cards(S, seat: int) -> set:
    """The cards in zones hidden from ``seat`` whose place it does not know (those a
    determinization deals again)."""
    bit, kn = 1 << seat, S.kn or {}
    return {c for name in S.rules.zone_owner for owner, cards in _instances(S, name)
            if not seers(S, name, owner) & bit for c in cards if not kn.get(c, 0) & bit}


TRIES = 200   # deals tried for a world where another seat's pending question can be asked
WORLD_TRIES = 50   # worlds dealt again where they break the ruleset's invariants (docs/agents.md)
# the worst-case operations (weights: invariants.weight) a determinization may spend checking its
# worlds, their invariants and the values counted again on them (docs/security.md): WORLD_TRIES
# askings of Go Fish's invariants (300,352) and more
WORLD_WORK = 16 * MAX_COST
# the flaw of a world dealt without what the table saw of hands that could not follow (engine/voids.py)
VOIDS_FLAW = "a hand seen to hold none of some cards (a void): no deal of the hidden cards keeps it"


def determinize(S, seat: int, rng, flaws: list | None = None):
    """A full state ``seat`` cannot tell from ``S`` (module docstring); ``rng`` is a
    ``random.Random`` that decides the deal. The seat's own pending decision is kept as it is
    (it sees its options). Another seat's is asked again in the world: the seat sees who is
    asked (the observation's ``current_player``) and which step asks, not the options, which
    may read what it cannot see (the cards dealt again, a private variable the world does not
    hold). A deal where the same step asks the same seat again is kept; the flow that led there
    may have revealed something of the asker's hand (a branch taken because it held a card of
    some kind), so deals where it does not are dealt again, up to ``TRIES`` times. When none
    does (the step reads what every world resets: a quality the asker chose into a private
    variable), the first world where the same seat is asked with nothing of the seat's
    observation changed is kept (the flow went on from the step, which had nothing to ask).

    A world that breaks one of the ruleset's ``invariants:`` (engine/invariants.py: a position
    the rules never reach, such as a hand holding a set the rules lay down at once) is dealt
    again, up to ``WORLD_TRIES`` such worlds, and fewer where asking the invariants of that many
    would pass ``WORLD_WORK`` operations by their cost bounds (seldom all of them where the real
    state keeps the invariants; always where it breaks one too); then the last of them is kept
    as it is, and the text of the invariant it breaks is appended to ``flaws`` when given. The
    invariants asked are those that read nothing the world replaces by beliefs (``_asked``).

    Where a world counts values again (the running steps' recounts, the when-triggers' values:
    ``_dealt``), what they weigh is part of each world's checks: both ``WORLD_TRIES`` and
    ``TRIES`` are then as many as ``WORLD_WORK`` affords for the invariants and the recounts
    together (``_afforded``), one deal at least."""
    invariants, tries, checks = _asked(S, seat)
    spent: list = []   # what the first world's recounts weigh: each deal's (``_dealt``)
    D, deals = _dealt(S, seat, rng, flaws, spent), TRIES
    if spent and spent[0]:   # the world's checks, recounts and invariants, within WORLD_WORK: fewer deals where dear
        tries, deals = _afforded(WORLD_TRIES, checks + spent[0]) if invariants else 1, _afforded(TRIES, checks + spent[0])
    if S.dec is None or S.dec[0] == seat:
        for k in range(tries):
            D = _dealt(S, seat, rng, flaws) if k else D
            broken = first_broken(D, invariants) if invariants else None
            if broken is None:
                return D
        return _flawed(D, broken, flaws)
    asker, step = S.dec[0], S.stack[-1][0]
    shown = other = flawed = None
    worlds = 0   # worlds dealt that break an invariant
    for k in range(deals):
        D = _dealt(S, seat, rng, flaws) if k else D
        try:
            reask(D)   # another seat's question may read what was dealt again
        except GameError:
            continue
        if D.dec is None or D.dec[0] != asker:
            continue
        same = D.stack[-1][0] == step
        if not same:
            if other is not None:
                continue
            if shown is None:
                shown = S.observation(seat)
            if D.observation(seat) != shown:
                continue
        broken = first_broken(D, invariants) if invariants else None
        if broken is not None:
            flawed, worlds = (D, broken), worlds + 1
            if worlds < tries:
                continue
            break
        if same:
            return D
        other = D
    if other is not None:
        return other
    if flawed is not None:
        return _flawed(*flawed, flaws)
    raise GameError(f"cannot determinize for seat {seat}: no deal of the hidden cards in {deals} lets seat "
                    f"{asker} be asked {S.prompt()!r} again (what the flow revealed of its cards is too narrow)")


def _asked(S, seat: int) -> tuple:
    """The invariants asked of ``seat``'s worlds: those that read none of the values its worlds
    replace by beliefs (engine/beliefs.py ``replaced``: a counter tied to hidden cards, reset,
    need not agree with the cards dealt) and hand the state to no helper; and how many worlds
    may be asked them: ``WORLD_TRIES``, fewer where their weights together (engine/invariants.py
    ``weight``: a cost bound and a call), that many times, would pass ``WORLD_WORK`` (one at
    least); and their weight together. Kept by the ruleset for the team assignment and the seat."""
    rules = S.rules
    if not rules.invariants:
        return (), 1, 0
    kept, key = rules.start_values, ("invariants", S.members, seat)
    found = kept.get(key)
    if found is None:
        gone = replaced(rules, S.members, seat)
        asked = tuple(entry for entry in rules.invariants if not _reads(entry[0], gone))
        work = sum(weight(entry[0]) for entry in asked)
        found = kept[key] = (asked, _afforded(WORLD_TRIES, work) if asked else 1, work)
    return found


def _afforded(most: int, work: int) -> int:
    """How many worlds a determinization may deal and check where checking one weighs ``work``
    (engine/invariants.py ``weight``, summed: its invariants, its recounts): ``most``, fewer where
    that many would pass ``WORLD_WORK``; one at least."""
    return max(1, min(most, WORLD_WORK // max(work, 1)))


def _reads(fn, names: frozenset) -> bool:
    """Whether the compiled condition ``fn`` may read one of ``names`` (a family's counter by its
    family's name)."""
    access = getattr(fn, "access", None)
    if access is None or access.opaque:
        return True
    return any((kind, name.split(".")[0] if kind == "c" else name) in names for kind, name in access.reads)


def _flawed(D, broken, flaws: list | None):
    """``D``, a world kept though it breaks an invariant (``broken``: engine/invariants.py), the
    invariant's text appended to ``flaws``."""
    if flaws is not None:
        flaws.append(broken[0][1])
    return D


def _dealt(S, seat: int, rng, flaws: list | None = None, work: list | None = None):
    """A copy of ``S`` with the cards ``seat`` cannot place dealt again (its pending question
    not asked again), none into a hand the seat saw go without it (engine/voids.py; where no deal
    can keep that, a crafted state, the deal without it, noted once in ``flaws``). ``work``, when
    given, receives what the values counted again on the world weigh (the steps' recounts and the
    when-triggers' values: the same for every deal of one state for one seat)."""
    D = S.clone().own_all()   # (a search plays it on: most of its lists would be copied one by one)
    rules = D.rules
    bit = 1 << seat
    kn = D.kn or {}
    known = {c for c, m in kn.items() if m & bit}   # hidden cards whose place the seat knows
    slots: list = []    # (the list to refill, how many cards it takes, the components it can hold or None)
    ordered: list = []  # for each slot: whether its order is to be dealt (not a zone kept sorted)
    pool: list = []
    for name in rules.zone_owner:
        holds = rules.zone_holds.get(name)
        for owner, cards in _instances(D, name):
            if not cards or seers(D, name, owner) & bit:
                continue
            if known.isdisjoint(cards):
                keep, free = [], cards[:]
            else:
                keep = [c for c in cards if c in known]
                free = [c for c in cards if c not in known]
                if not free:   # every card's place known; their order too, unless hidden (_order_hidden)
                    if name not in rules.sorted_zones and _order_hidden(rules, kn, name, owner, bit):   # (D owns its lists)
                        cards.sort()   # (from card order: not from the true one)
                        rng.shuffle(cards)
                    continue
            pool += free
            cards[:] = keep            # (D owns its lists: own_all above)
            slots.append((cards, len(free), holds))
            ordered.append(name not in rules.sorted_zones)
    held = []             # cards steps hold aside, hidden from the seat
    for frame in D.stack:
        step = rules.steps[frame[0]]
        cards = step.hidden_cards(D, frame, seat)
        if cards:
            held.append((step, frame, len(cards)))
            slots.append(([], len(cards), None))
            ordered.append(False)   # (dealt to the step, in the deal's own random order)
            pool += cards
    pool.sort()           # the same order whatever the hidden arrangement, then shuffled
    banned = voids.banned(D, seat, slots) if D.vd and D.kn is not None else None
    try:
        dealt, mixed = deal(pool, slots, rules.cards.kinds, rules.card_labels, rng, banned=banned)
    except GameError:
        if banned is None:
            raise
        dealt, mixed = deal(pool, slots, rules.cards.kinds, rules.card_labels, rng)   # (a crafted state: flawed)
        if flaws is not None and VOIDS_FLAW not in flaws:
            flaws.append(VOIDS_FLAW)
    for i, ((cards, _, _), got, shuffled) in enumerate(zip(slots, dealt, ordered)):
        kept = bool(cards)
        cards.extend(got)
        # the order of a hidden zone is hidden too (a sorted one: sorted below), unless it is
        # already random: the place took only a cut of one shuffled set
        if shuffled and (kept or i not in mixed):
            if kept:   # (the cards kept were in the true order)
                cards.sort()
            rng.shuffle(cards)
    for (step, frame, _n), got in zip(held, dealt[len(slots) - len(held):]):
        step.put_hidden_cards(D, frame, seat, got)
    # the world's own deal as every reader finds it, before any expression runs on the world (a
    # belief, a step's recount, a trigger's value): sorted zones in order, each card's zone recorded
    rules.keep_sorted(D)
    reindex(D)   # (each card's zone and the views, where the ruleset records them)
    believed(D, seat, rng)   # the counters and private variables it cannot see (engine/beliefs.py)
    spent = 0
    for frame in D.stack:   # secrets held in frames (a simultaneous choice's other choices, drawn
        step = rules.steps[frame[0]]   # among the options the world allows)
        try:
            spent += step.hidden_values(D, frame, seat, rng) or 0
        except GameError:
            raise
        except Exception as e:   # noqa: BLE001 - located at the step, never an internal error
            e.rulebook_step = step   # type: ignore[attr-defined]
            raise located(D, e) from None
    spent += rules.triggers.recheck(D)   # what a when-trigger saw of the hidden values: seen again in the world
    if work is not None:
        work.append(spent)
    D.steps = 0   # (the steps the game ran tell how long loops over hidden values ran: the world's count its own)
    for c in kn.keys() & pool if kn else ():   # nobody knows where the cards dealt again are
        del kn[c]
    if D.vd:   # (what it saw and its world keeps; a playout keeps none: no knowledge)
        D.vd = voids.seen_by(D, seat) if D.kn is not None else ()
    # the game's seed and RNG would deal every hidden card again, and the chance to come: the
    # world gets its own, a secret of the searcher's generator (a whole number within 63 bits,
    # as a saved state's seed must be)
    D.seed = rng.getrandbits(63)
    D.rng = seed_state(D.seed)
    return D


def _order_hidden(rules, kn: dict, zone: str, owner, bit: int) -> bool:
    """Whether the seat of ``bit``, which knows every card of a hidden ``zone`` (of ``owner``),
    cannot know their order: a shuffle may have mixed them (``_may_shuffle``), or it was told
    of a card there (``tell``: the card, not its place among the others). Else it saw each card
    go in, in order."""
    return _may_shuffle(rules, zone) or bool(kn.get(order_key(zone, owner), 0) & bit)


def _may_shuffle(rules, zone: str) -> bool:
    """Whether a ``shuffle`` effect of the ruleset may name ``zone``: any zone where one names a
    zone load cannot tell (a declared effect's parameter; recorded as it is compiled)."""
    return zone in rules.shuffled or None in rules.shuffled
