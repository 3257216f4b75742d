"""Chance as the rules make it: each random event of a game an explicit chance node.

A ruleset compiled for explicit chance (``explicit(rules)``) has its random source replaced
by an oracle: the ``random`` effect's draw, a dexterity roll, and the draw of a card from a
shuffled zone ask the oracle for their outcome instead of the seeded RNG. A shuffle decides
nothing: the zone becomes a ``Pile`` whose cards are in no order yet, and a position of it
is drawn (uniformly among the cards still undrawn there) only when the rules read it, which
is when a card is taken from the top, dealt, or looked at; so a deck is dealt one card at a
time, as OpenSpiel's card games deal, and a card stays undrawn until it leaves the deck.

The adapter replays a move from the state before it with the outcomes already chosen queued
(``Oracle``): when the move asks for one more, ``NeedChance`` stops the replay and carries
the chance node (its outcomes and their probabilities); once an outcome is chosen the move is
replayed again with it queued. Outside a replay (an observation, a saved state, a playout of
an agent on the engine itself) a pile's undrawn cards read in card order and are not drawn;
a ``random`` draw or a roll falls back to the state's own RNG, and a card taken from a pile
to a generator of this module's own (a pile does not know its state).
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from operator import index
from typing import SupportsIndex

from ..engine import rng
from ..engine.knowledge import seers
from ..errors import UsageError
from ..mechanics.dexterity import ACTOR

MAX_DRAW = 256   # the most outcomes of a ``random`` draw (max_chance_outcomes: at least this)


class NeedChance(BaseException):
    """A replay asked for an outcome not chosen yet (a BaseException: the engine's handlers
    of a ruleset's runtime errors let it through)."""

    def __init__(self, node: "Node"):
        super().__init__(node.kind)
        self.node = node


class Node:
    """A chance node: its kind (``card``, ``random``, ``roll``), its outcomes (id,
    probability) and how each is written."""
    __slots__ = ("kind", "outcomes", "ids", "names")

    def __init__(self, kind: str, outcomes: list, names):
        self.kind, self.outcomes, self.names = kind, outcomes, names
        self.ids = frozenset(a for a, _ in outcomes)

    def label(self, action: int, rules) -> str:
        if self.names is not None:
            return f"{self.kind} {self.names(action)}"
        name = rules.card_labels[action]   # (cards alike are told apart by their ids)
        return f"card {name}" + (f" #{action}" if rules.card_labels.count(name) > 1 else "")


class Oracle:
    """The outcomes chosen so far for one move (or a game's setup), handed out in order."""
    __slots__ = ("queue", "pos")

    def __init__(self, queue):
        self.queue, self.pos = queue, 0

    def take(self, make_node):
        if self.pos < len(self.queue):
            self.pos += 1
            return self.queue[self.pos - 1]
        raise NeedChance(make_node())


_ORACLE: Oracle | None = None   # the replay running now, if any


@contextmanager
def replaying(queue):
    """Run a move (or a setup) with these outcomes chosen, in order."""
    global _ORACLE
    outer, _ORACLE = _ORACLE, Oracle(queue)
    try:
        yield
    finally:
        _ORACLE = outer


# ------------------------------------------------------------------ the random source
def below(S, n: int) -> int:
    """``random``: a uniform index in [0, n)."""
    o = _ORACLE
    if o is None or n < 2:
        return rng.below(S, n)
    if n > MAX_DRAW:
        raise UsageError(f"a random draw of {n} outcomes: explicit chance lists at most {MAX_DRAW} "
                         "(play this ruleset with chance='seed')")
    return o.take(lambda: Node("random", [(k, 1.0 / n) for k in range(n)], str))


def uniform(S) -> float:
    """A dexterity roll: the outcome chosen among the attempt's, with the chances it gives
    (``chances``), returned as a point inside that outcome's interval of [0, 1)."""
    o = _ORACLE
    if o is None:
        return rng.uniform(S)
    frame = S.stack[-1]
    step = S.rules.steps[frame[0]]
    probs = step.chances(S, frame[ACTOR])
    starts, acc = [], 0.0
    for p in probs:          # (accumulated as the roll compares them)
        starts.append(acc)
        if p > 0:
            acc += p
    names = [o_.name for o_ in step.outcomes] + ["nothing"]
    outcomes = [(k, p) for k, p in enumerate(probs) if p > 0]
    if acc < 1.0 - 1e-12:
        outcomes.append((len(probs), 1.0 - acc))
    if len(outcomes) == 1:
        k = outcomes[0][0]
    else:
        k = o.take(lambda: Node("roll", outcomes, names.__getitem__))
    return (acc + 1.0) / 2 if k == len(probs) else starts[k] + probs[k] / 2


def shuffle(S, items: list) -> None:
    """A shuffle decides nothing: the zone's cards become a Pile in no order (card order, as
    it reads). A zone some seat sees (its order shown), one owned by each player or card, or
    one not found (a list of a step's own), has its positions drawn now, top first."""
    if _ORACLE is None:
        rng.shuffle(S, items)
        return
    for name, zone in S.z.items():
        if zone is items:
            if name in S.rules.sorted_zones:
                return
            if not seers(S, name, None):
                S.z[name] = Pile.undrawn(list.copy(items))
                return
            break
    pile = Pile.undrawn(list.copy(items))
    pile.draw_down(0)
    list.__setitem__(items, slice(None), list.copy(pile))


class _Fallback:
    """Draws for a pile read outside a replay: SplitMix64 with a state of its own."""
    rng = rng.seed_state(0)

    def randrange(self, n: int) -> int:
        return rng.below(self, n)


_FALLBACK = _Fallback()
class Pile(list):
    """A zone's cards after a shuffle: its first ``u`` (the bottom ones) are in no order yet,
    kept in card order; the cards above them were drawn. A read or a write of a position among
    the undrawn first draws every position from the top down to it (in a replay; outside one
    a read sees card order, and a write draws from the fallback). Copies are piles."""
    __slots__ = ("u",)

    @classmethod
    def undrawn(cls, cards: list) -> "Pile":
        cards.sort()
        p = cls(cards)
        p.u = len(cards)
        return p

    def __init__(self, cards=()):
        list.__init__(self, cards)
        self.u = 0

    def draw_down(self, lo: int) -> None:
        """Draw the positions from the top undrawn one down to ``lo``."""
        while self.u > lo:
            u = self.u
            o = _ORACLE
            if u == 1:
                c = list.__getitem__(self, 0)
            elif o is None:   # (a card taken outside a replay: the engine's own chance)
                c = list.__getitem__(self, _FALLBACK.randrange(u))
            else:   # (the node made only when asked: a replay takes most draws from its queue)
                c = o.take(lambda u=u: Node("card", [(c, 1.0 / u) for c in list.__getitem__(self, slice(0, u))], None))
            list.__delitem__(self, list.index(self, c, 0, u))
            list.insert(self, u - 1, c)
            self.u = u - 1

    def _lowest(self, key) -> int:
        if isinstance(key, slice):
            r = range(*key.indices(len(self)))
            return min(r[0], r[-1]) if r else len(self)
        return key + len(self) if key < 0 else key

    def _read(self, lo: int) -> None:
        if self.u > lo and _ORACLE is not None:
            self.draw_down(lo)

    def copy(self) -> "Pile":
        p = Pile(list.copy(self))
        p.u = self.u
        return p

    __copy__ = copy

    def __reduce__(self):
        return (_pile, (list.copy(self), self.u))

    def __getitem__(self, key):
        if self.u:
            if key == slice(None):
                return self.copy()
            self._read(self._lowest(key))
        return list.__getitem__(self, key)

    def __iter__(self):
        self._read(0)
        return list.__iter__(self)

    def __reversed__(self):
        self._read(0)
        return list.__reversed__(self)

    def __add__(self, other):
        self._read(0)
        return list.copy(self) + list(other)

    def index(self, *args):
        self._read(0)
        return list.index(self, *args)

    def pop(self, i: SupportsIndex = -1):
        if self.u:
            self.draw_down(self._lowest(index(i)))
        return list.pop(self, i)

    def __delitem__(self, key):
        if self.u:
            self.draw_down(self._lowest(key))
        list.__delitem__(self, key)

    def __setitem__(self, key, value):
        if self.u:
            if key == slice(None):   # every card replaced: the new ones' order is theirs
                self.u = 0
            else:
                self.draw_down(self._lowest(key))
        list.__setitem__(self, key, value)

    def insert(self, i, x):
        if self.u:
            self.draw_down(self._lowest(i) if i < len(self) else len(self))
        list.insert(self, i, x)

    def remove(self, x):
        j = list.index(self, x)
        list.__delitem__(self, j)
        if j < self.u:
            self.u -= 1

    def reverse(self):
        self.draw_down(0)
        list.reverse(self)

    def sort(self, *args, **kwargs):
        self.u = 0
        list.sort(self, *args, **kwargs)

    def clear(self):
        self.u = 0
        list.clear(self)


def _pile(cards: list, u: int) -> Pile:
    p = Pile(cards)
    p.u = u
    return p


def own_piles(S) -> None:
    """Every pile with undrawn cards ``S``'s own (a clone shares its lists until it writes
    them, and a pile read in a replay draws, which writes it)."""
    for name, zone in S.z.items():
        if type(zone) is Pile and zone.u and name in S.sh:
            S.own(name)


def explicit(rules) -> None:
    """Compile-time hook: ``rules``' random source, wherever its generated code names it (its
    expressions' and effects' namespace, the flow's), replaced by the oracle's."""
    swap = {id(rng.below): below, id(rng.uniform): uniform, id(rng.shuffle): shuffle}
    spaces = {id(rules.names.namespace): rules.names.namespace}
    for fn in (*rules.runs, *rules.resolves):
        ns = getattr(fn, "__globals__", None)
        if ns is not None and not _a_module(ns):   # (a mechanic's own module: shared by every ruleset)
            spaces[id(ns)] = ns
    for ns in spaces.values():
        for key, value in list(ns.items()):
            new = swap.get(id(value))
            if new is not None:
                ns[key] = new


def _a_module(ns: dict) -> bool:
    """Whether ``ns`` is an imported module's own namespace (a step kind's hand-written methods':
    the source of every ruleset built after, not this ruleset's: swapped, the next one built in
    the process would name the oracle's draw where the engine's is meant)."""
    module = sys.modules.get(ns.get("__name__", ""))
    return module is not None and vars(module) is ns


def outcomes_bound(rules) -> int:
    """``max_chance_outcomes`` under explicit chance: a card, a ``random`` draw, an attempt's
    outcome or none."""
    rolls = [len(s.outcomes) + 1 for s in rules.steps if hasattr(s, "chances")]
    return max([len(rules.card_labels), MAX_DRAW, *rolls])
