"""Who can tell what a decision chose, from the declared visibility: for logs redacted for one
seat (play/logs/redact.py), which must show no more than ``observation(seat)`` does.

A seat sees where a card is while it lies in a zone the seat sees (engine/visibility.py says
which): what observation.py shows. An event that
moves cards shows them to the seats that see the zone they leave or the zone they enter (a
``gather``, which lumps every owner's cards of several zones together, only when each of those
zones is visible to all); an event naming cards outside any zone (a target named aloud) shows
them to everyone, or, kept in a private variable (a target ``as: _name``: the event names it,
``var``), to the seat that named them alone. A counter is seen by the seats it is visible to.

The label of a chosen option may name cards and counters (``Step.named``). A seat can tell
which option was chosen when it sees each of those counters, and each of those cards before the
decision or in an event of the decision that moves those cards alone (``Choice.mask``); or when
the choice went into a public variable that still holds it after the decision. A choice stored
in a private variable (``_name``) nobody can tell but the chooser. Masks: bit p set = seat p
sees; ``ALL`` = every seat.
"""
from __future__ import annotations

from weakref import WeakKeyDictionary

from lark import Token, Tree

from ..expr.parser import ExprError, as_expr, parse
from .visibility import ALL


def zone_seers(rules, members, zone, owner) -> int:
    """The seats that see ``zone`` (the instance of ``owner``; None: every instance at once). Of
    a zone owned by each card, none but where that card is always seen (``public_card``): an
    event that names such a zone keeps no state to tell whether its card is seen where it lies."""
    if rules.zone_owner.get(zone) == "card" and not public_card(rules, owner):
        return 0
    return rules.visibility.seen(members).zone_seers(zone, owner)


def counter_seers(rules, members, counter, owner) -> int:
    """The seats that see ``counter`` (the one of ``owner``)."""
    return rules.visibility.seen(members).counter_seers(counter, owner)


def reads_public(rules, reads, zones: bool = True) -> bool:
    """Whether generated code that reads ``reads`` (an ``expr.access.Access``) reads only what
    every seat sees: zones, counters and variables every seat sees. A value computed from it may
    be shown to anyone (a grid's prices to a spectator). ``zones=False``: whatever zones it
    reads (``reads_unseen`` then tells which of them it reads for their cards)."""
    if reads is None or reads.opaque or reads.calls:
        return False
    vis = rules.visibility
    public = {"v": vis.var_public, "z": vis.zone_public if zones else bool}
    return all(public.get(kind, vis.counter_public)(name) for kind, name in reads.names)


def reads_unseen(rules, fn) -> bool:
    """Whether the compiled expression ``fn`` reads what not every seat sees: a private variable,
    a counter not every seat sees, or the cards of a zone not every seat sees (``hidden_reads``)."""
    return bool(hidden_reads(rules, fn))


def hidden_reads(rules, fn):
    """What the compiled expression ``fn`` reads that not every seat sees: False for nothing;
    True where it reads a private variable, a counter not every seat sees, or what cannot be
    told (no record of its reads, a helper's call); else the instances of zones not every seat
    sees that it reads for their cards, as (zone, whose) pairs: ``whose`` an index written in
    (``hand[0]``), ``"me"`` (``hand``, ``me.hand``, ``hand[me]``) or None (a shared zone; of an
    owned zone, an index the expression works out: every instance). How many cards a zone holds
    every seat sees (engine/visibility.py): a zone read only for its count (``count(hand[0])``,
    ``count(p.hand)``: the whole argument of ``count``, or a define whose text is such a zone,
    ``count(h0)`` with ``h0: "hand[0]"``) reads nothing hidden, a zone read for its cards does
    (``count(hand[0] where n > 6)``, ``top(hand)``, ``c in hand``). Told from the expression's
    tree (``fn.tree``), a define's tree read where the define is named; without a tree, every
    instance of a zone not every seat sees is read for its cards. ``unseen_by`` says which
    seats a read hides from."""
    access = getattr(fn, "access", None)
    if access is None or not reads_public(rules, access, zones=False):
        return True
    vis = rules.visibility
    hidden = {name for kind, name in access.names if kind == "z" and not vis.zone_public(name)}
    if not hidden:
        return False
    tree = getattr(fn, "tree", None)
    if not isinstance(tree, Tree):
        return frozenset((name, None) for name in hidden)
    try:
        counted, read = _zone_reads(tree, rules.data.get("define") or {}, hidden, rules.zone_owner)
    except ExprError:   # (a define that does not parse fails the load: never met here)
        return True
    # (a hidden zone the record names that the tree never names: read for its cards, every instance)
    read |= {(name, None) for name in hidden if name not in counted and all(z != name for z, _ in read)}
    return frozenset(read)


def unseen_by(S, reads, seat: int, me) -> bool:
    """Whether ``seat`` cannot see all that an expression reads (``reads``: ``hidden_reads``),
    where the expression's ``me`` is ``me`` (None: each seat in turn). A seat that sees every
    zone instance the expression reads for its cards (its own hand where it reads ``hand[me]``)
    knows the value as the game read it; visibility of an instance to a seat never changes."""
    if reads is True or reads is False:
        return reads
    seen = S.rules.visibility.seen(S.members)
    kinds, bit = S.rules.zone_owner, 1 << seat
    for zone, whose in reads:
        kind = kinds.get(zone)
        if whose == "me":
            whose = None if type(me) is not int or kind not in ("player", "team") else S.tm[me] if kind == "team" else me
        if not seen.zone_seers(zone, whose if kind in ("player", "team") else None) & bit:
            return True
    return False


def _zone_reads(tree, defines: dict, zones: set, owners: dict) -> tuple[set, set]:
    """The names of ``zones`` that ``tree`` (with the defines it names, expanded) reads as what
    ``count`` counts (``count(NAME)``, ``count(NAME[i])``, ``count(x.NAME)``, a define of such a
    zone counted), and the (zone, whose) pairs it reads otherwise (``hidden_reads``)."""
    counted: set = set()
    read: set = set()
    seen: set = set()   # (define, whether counted): each expanded once as each
    stack = [tree]
    while stack:
        node = stack.pop()
        ref = _counted(node)
        if ref is not None and str(ref[0]) in defines and not ref[1] and isinstance(node.children[1].children[0], Tree) \
                and node.children[1].children[0].data == "name":   # count(DEFINE): the define's text counted
            tree_of = _define(defines, str(ref[0]), True, seen)
            if tree_of is not None:
                stack.append(Tree("call", [node.children[0], Tree("args", [tree_of])]))
            continue
        if ref is not None:   # count(NAME), count(NAME[i]), count(x.NAME): the name counted, the rest read
            counted.add(str(ref[0]))
            stack += ref[1]
            continue
        whose = _instance(node, zones, owners)
        if whose is not None:   # a zone's instance read for its cards (its index, x read besides)
            read.add(whose[0])
            stack += whose[1]
            continue
        stack += [child for child in node.children if isinstance(child, Tree)]
        for k, child in enumerate(node.children):
            if not isinstance(child, Token) or child.type != "NAME" or (node.data == "call" and k == 0):
                continue   # (a function's name: no zone)
            name = str(child)
            if name in zones:
                read.add((name, None))
            elif name in defines:
                tree_of = _define(defines, name, False, seen)
                if tree_of is not None:
                    stack.append(tree_of)
    return counted, read


def _define(defines: dict, name: str, as_counted: bool, seen: set):
    """The tree of define ``name``, once for each way it is read (None after)."""
    if (name, as_counted) in seen:
        return None
    seen.add((name, as_counted))
    return parse(as_expr(defines[name]))   # (a define that does not parse fails the load: ExprError here is
                                           # hidden_reads' to answer)


def _instance(node, zones: set, owners: dict):
    """Where ``node`` names an instance of one of ``zones`` (``NAME``, ``NAME[i]``, ``x.NAME``):
    ((zone, whose), the trees it reads besides); else None."""
    if node.data == "name" and isinstance(node.children[0], Token) and str(node.children[0]) in zones:
        name = str(node.children[0])
        return (name, "me" if owners.get(name) in ("player", "team") else None), []
    if node.data == "index" and isinstance(node.children[0], Tree) and node.children[0].data == "name" \
            and str(node.children[0].children[0]) in zones:
        name, at = str(node.children[0].children[0]), node.children[1]
        if isinstance(at, Tree) and at.data == "int_":
            return (name, int(str(at.children[0]))), []
        return (name, "me" if _is_me(at) else None), [at] if isinstance(at, Tree) else []
    if node.data == "attr" and isinstance(node.children[-1], Token) and str(node.children[-1]) in zones \
            and len(node.children) == 2:
        held = node.children[0]
        return (str(node.children[-1]), "me" if _is_me(held) else None), [held] if isinstance(held, Tree) else []
    return None


def _counted(node):
    """Where ``node`` is ``count(NAME)``, ``count(NAME[i])`` or ``count(x.NAME)``: the NAME token and
    the trees it reads besides (``i``, ``x``); else None."""
    if node.data != "call" or str(node.children[0]) != "count" or len(node.children) != 2 \
            or len(node.children[1].children) != 1:
        return None
    arg = node.children[1].children[0]
    held = arg.children[0] if isinstance(arg, Tree) and arg.data == "index" else arg
    if not (isinstance(held, Tree) and held.data in ("name", "attr") and isinstance(held.children[-1], Token)):
        return None
    rest = (*held.children[:-1], *(arg.children[1:] if arg is not held else ()))
    return held.children[-1], [child for child in rest if isinstance(child, Tree)]


def _is_me(node) -> bool:
    return isinstance(node, Tree) and node.data == "name" and str(node.children[0]) == "me"


def told_seers(rules, ev: dict) -> int:
    """The seats an announcement shows its value to (an attempt's target, its outcome): every
    seat; when it names the private variable the value is kept in (``var``), the seat that
    acted (``who``) and those who see that variable (none but the actor, as its observation)."""
    var, who = ev.get("var"), ev.get("who")
    if var is None:
        return ALL
    return rules.visibility.var_seers(var) | (1 << who if type(who) is int and who >= 0 else 0)


def moved_seers(rules, members, ev: dict) -> int:
    """The seats an event naming cards (``cards``/``card``) shows them to (module docstring)."""
    froms, to = ev.get("from"), ev.get("to")
    if froms is None and to is None:   # named aloud
        return told_seers(rules, ev)
    if ev.get("ev") == "show":   # cards shown where they lie: to one seat, and to those who see them there
        return zone_seers(rules, members, froms, ev.get("from_owner")) | 1 << ev["shown_to"]
    if isinstance(froms, list):
        mask = ALL
        for z in froms:
            mask &= zone_seers(rules, members, z, None)
    else:
        mask = zone_seers(rules, members, froms, ev.get("from_owner")) if froms is not None else 0
    if to is not None:
        mask |= zone_seers(rules, members, to, ev.get("to_owner"))
    return mask


def place_of(S, card: int) -> tuple | None:
    """Where ``card`` lies: (zone, owner), the owner None for a shared zone; None for a card in
    no zone (a card a step holds aside, such as a card passed face down)."""
    for name, kind in S.rules.zone_owner.items():
        zone = S.zone(name)   # (one zone, not the dict of them all: asked once a card)
        if kind == "none":
            if card in zone:
                return name, None
            continue
        for owner, cards in (zone.items() if kind == "card" else enumerate(zone)):
            if card in cards:
                return name, owner
    return None


def card_seers(S, card: int) -> int:
    """The seats that see where ``card`` is: its zone's seers; 0 for a card a step holds aside
    (a card passed face down). (A public variable holding a card in a hidden zone shows which
    card it is, not where it is: a seat cannot tell it from the others when it moves.)"""
    place = place_of(S, card)
    return 0 if place is None else zone_seers(S.rules, S.members, *place)


def public_kinds(rules) -> frozenset:
    """The components whose cards every seat and a spectator always see where they lie: every
    zone that can hold them (``Ruleset.zone_holds``) is visible to all and owned by no card (a
    card under a card is seen where its owner is: ``card_seen``). Built once per ruleset."""
    kinds = _PUBLIC.get(rules)
    if kinds is None:
        vis, holds = rules.visibility, rules.zone_holds
        everything = frozenset(rules.cards.kinds)
        hidden: set = set()
        for name, kind in rules.zone_owner.items():
            if kind == "card" or not vis.zone_public(name):
                hidden |= holds.get(name, everything)
        kinds = _PUBLIC[rules] = everything - hidden
    return kinds


_PUBLIC: WeakKeyDictionary = WeakKeyDictionary()
_LABELS: WeakKeyDictionary = WeakKeyDictionary()   # rules -> label -> the components of its cards


def public_cards(rules) -> frozenset:
    """The cards of ``public_kinds``: a reader skips ``card_seen`` for them (built once)."""
    return _cards(rules)[0]


def unsure_cards(rules) -> tuple:
    """The other cards, in order: those a reader asks ``card_seen`` of."""
    return _cards(rules)[1]


def _cards(rules) -> tuple:
    cards = _PUBLIC_CARDS.get(rules)
    if cards is None:
        public = public_kinds(rules)
        kinds = rules.cards.kinds
        cards = _PUBLIC_CARDS[rules] = (frozenset(c for c, kind in enumerate(kinds) if kind in public),
                                        tuple(c for c, kind in enumerate(kinds) if kind not in public))
    return cards


_PUBLIC_CARDS: WeakKeyDictionary = WeakKeyDictionary()


def public_card(rules, card) -> bool:
    """Whether ``card`` (its number, or its label as a log writes it: labels need not be unique) is
    of a component every seat always sees where it lies (``public_kinds``): what a log line, which
    keeps no state, may name as the owner of a zone or counter of each card."""
    kinds = rules.cards.kinds
    if isinstance(card, str):
        table = _LABELS.get(rules)
        if table is None:
            table = _LABELS[rules] = {}
            for label, kind in zip(rules.card_labels, kinds):
                table.setdefault(label, set()).add(kind)
        named: set | None = table.get(card)
    else:
        named = {kinds[card]} if type(card) is int and 0 <= card < len(kinds) else None
    return named is not None and bool(named) and named <= public_kinds(rules)


def card_seen(S, card: int, bit: int) -> bool:
    """Whether the seat of mask bit ``bit`` (engine/visibility.py ``bit``) sees where ``card`` lies,
    so that what the card owns (a zone or counter of each card) may be shown to it by the card:
    the card lies in a zone the seat sees, under a card it sees so (one owned by each card), or it
    is known to the seat there (engine/knowledge.py, in a ruleset that shows cards, as
    observation.py ``known_cards`` shows it). A card a step holds aside is seen by no seat."""
    rules = S.rules
    kn = S.kn if rules.shows else None
    public = public_kinds(rules)
    kinds = rules.cards.kinds
    seen = rules.visibility.seen(S.members)
    for _ in range(len(kinds)):   # (up a chain of cards under cards: at most every card)
        if kinds[card] in public or (kn and kn.get(card, 0) & bit):
            return True
        place = place_of(S, card)
        if place is None or not seen.zone_seers(*place) & bit:
            return False
        if rules.zone_owner[place[0]] != "card":
            return True
        card = place[1]
    return False


class Choice:
    """What an option of the pending decision names, and who sees it, taken before it is
    applied; ``seen_by(S, events)`` afterwards says which seats can tell it was chosen."""

    def __init__(self, S, step, frame, value):
        self.n, self.value = S.n, value
        self.var = step.choice_var()
        self.private = (self.var is not None and not S.rules.visibility.var_public(self.var)) \
            or getattr(step, "private_choice", False)
        named = [] if self.private else step.named(S, frame, value)
        self.cards = [t for t in named if type(t) is int]
        self.before = [card_seers(S, c) for c in self.cards]
        mask = ALL
        for t in named:
            if isinstance(t, tuple):
                mask &= counter_seers(S.rules, S.members, *t)
        self.counters = mask

    @classmethod
    def pending(cls, S, i: int) -> "Choice":
        """Option ``i`` of the pending decision."""
        frame = S.stack[-1]
        return cls(S, S.rules.steps[frame[0]], frame, S.dec[1][i])

    def mask(self, S=None, events=()) -> int:
        """The seats that can tell the option was chosen: they see every counter it names, and
        every card it names before the decision or in an event of the decision that moves those
        cards only (a move that takes others along, a batch delivered at once, does not tell
        which was chosen); or the public variable the choice went into still holds it. ``S``:
        the state after the decision (None: it failed); ``events``: its engine events (ids)."""
        if self.private:
            return 0
        if S is not None and self.var is not None and S.v.get(self.var) == self.value:
            return self.counters     # every observation shows the variable
        mask = self.counters
        if not self.cards:
            return mask
        named = set(self.cards)
        shown: dict[int, int] = {}   # card -> the seats that saw it move
        for ev in events if S is not None else ():
            ids = ev.get("cards") if isinstance(ev.get("cards"), (list, tuple)) else ()
            one = ev.get("card")
            ids = [*ids, one] if type(one) is int else ids
            if ids and named.issuperset(ids):
                seers = moved_seers(S.rules, S.members, ev)
                for c in ids:
                    shown[c] = shown.get(c, 0) | seers
        for c, before in zip(self.cards, self.before):
            mask &= before | shown.get(c, 0)
        return mask

    def seen_by(self, S=None, events=()) -> list[int] | None:
        """The seats that can tell this option was chosen; None when every seat can."""
        mask = self.mask(S, events)
        every = (1 << self.n) - 1
        if mask & every == every:
            return None
        return [p for p in range(self.n) if mask >> p & 1]
