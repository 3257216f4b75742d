"""OpenSpiel's ``max_game_length``: a bound on a game's decisions that a learner can use.

Derived from the flow where the ruleset bounds it (``derived``): a sequence adds its steps'
decisions, an ``if`` or an attempt takes its longest outcome, a ``repeat`` runs its count and
a ``turns`` its rounds (each seat once a round) when the count is fixed by the game's settings
(its compiler's record reads only parameters and seats: ``Access``), a ``choose`` or a
``branch`` asks once (a simultaneous choice once a seat) and then runs its longest option;
a ``pass`` asks each giver its count, where the settings fix both (else once a card);
each decision of a ``pass``, ``tricks`` or ``pick`` takes a card out of a zone, so it asks at
most once a card of the ruleset (a pick once more: ``done``; a pass delivers at its end), as
long as nothing the step runs can put a card back there: a trick's hooks and the enter
triggers of its table and pile, a pick's effects and the triggers of where it puts the card
(building/watch.py's ``Quiet``: what they write, with the declared effects they call and the
triggers they set off). A loop on a condition (``while``, ``until``, ``turns ... until``
without fixed rounds) bounds nothing by itself, nor does a count read from the state, nor a
step of another kind: then the bound is measured (``measured``): the most decisions of
``LENGTH_GAMES`` random games (seeds 0, 1, ...; each option equally likely) at the game's
settings, times ``LENGTH_MARGIN``: safe for random play, not a proof (a game played to stall
may be longer). Either is at most the step budget (every decision is a step).
"""
from __future__ import annotations

import random
from types import SimpleNamespace

from ..building.watch import Quiet
from ..errors import GameError, RulebookError
from ..expr.access import Access
from ..expr.runtime import RUNTIME_ERRORS
from ..mechanics.choose import Simultaneous

LENGTH_GAMES = 32    # random games played to measure it (about 0.15 s for the longest bundled game)
LENGTH_MARGIN = 2    # times the longest of them


def longest(table, seeds) -> int:
    """The most decisions of the random games of ``seeds`` (each seed's game, its options
    drawn by a ``random.Random`` of that seed); the step budget if one of them runs past it."""
    most = 0
    for seed in seeds:
        S, rnd, n = table.new_game(seed), random.Random(seed), 0
        try:
            while not S.over:
                S.apply_index(rnd.randrange(len(S.dec[1])))
                n += 1
        except GameError:      # (past the budget, or a ruleset's runtime error: no bound below the budget)
            return table.rules.max_steps
        most = max(most, n)
    return most


def measured(table) -> int:
    return LENGTH_MARGIN * longest(table, range(LENGTH_GAMES))


def length_bound(table) -> int:
    """``max_game_length`` of the game of ``table``: derived from the flow where it bounds the
    game, else measured; at most the step budget (kept with the table, and how it was found
    in ``table.length_from``: "flow" or "random games")."""
    bound = getattr(table, "length", None)
    if bound is None:
        bound = derived(table)
        table.length_from = "flow" if bound is not None else "random games"
        if bound is None:
            bound = measured(table)
        bound = table.length = min(bound, table.rules.max_steps)
    return bound


def derived(table) -> int | None:
    """The most decisions the flow of ``table``'s ruleset can ask at its settings, or None
    where it does not bound them (module docstring)."""
    try:
        return _Bound(table).of(table.rules.root)
    except (RulebookError, *RUNTIME_ERRORS):   # (a count that fails at the start: none derived)
        return None


class _Bound:
    def __init__(self, table):
        self.rules, self.players = table.rules, table.players
        self.cards = len(table.rules.card_labels)
        self.start = table.new_game(0)    # parameters and seats, to work out the fixed counts
        self.effects = {n: table.rules.namespace.get(f"E_{n}") for n in table.rules.effect_names}

    def fixed(self, fn, kind: type = int):
        """The value of an expression of type ``kind`` that reads nothing of the state but the
        settings (a count, a list of seats), else None."""
        a = getattr(fn, "access", None)
        if a is None or a.reads or a.writes or a.calls or a.opaque or a.me or a.locals:
            return None
        value = fn(self.start, None, None)
        return value if type(value) is kind else None

    def of(self, step) -> int | None:
        step = self.rules.steps[step] if isinstance(step, int) else step
        kind = step.kind
        got = [self.of(c) for c in step.children()]
        inner = [n for n in got if n is not None]
        if len(inner) < len(got):
            return None
        if kind in ("steps", "phase", "effects"):
            return sum(inner)
        if kind in ("if", "attempt"):
            return max(inner, default=0)
        if kind == "repeat":
            times = self.fixed(step.times)
            return None if times is None else max(times, 0) * sum(inner)
        if kind == "turns":
            if step.rounds is None:
                laps = None if step.until is not None else 1
            else:
                laps = self.fixed(step.rounds)
            return None if laps is None else max(laps, 0) * self.players * sum(inner)
        if kind in ("choose", "branch"):
            asked = self.players if isinstance(step, Simultaneous) else 1   # (each chooser once)
            return asked + max(inner, default=0)
        if kind == "pass":   # (each giver asks its count; each decision takes a card from a hand)
            count, givers = self.fixed(step.count), self.fixed(step.who, list)
            return self.cards if count is None or givers is None else min(self.cards, max(count, 0) * len(givers))
        if kind == "pick":   # (each pick takes a card out of the source, unless it may come back)
            if step.src_name == step.dst_name or self.may_fill(step.src_name, [step.then], [step.dst_name]):
                return None
            return self.cards + 1
        if kind == "tricks":   # (a card played goes to the table, then to the winner's pile)
            hooks = [step.on_play, step.on_void, step.on_win]
            return None if self.may_fill(step.hand, hooks, [step.table, step.collect]) else self.cards
        return None   # (a loop on a condition, or a kind not bounded here)

    def may_fill(self, zone: str, hooks, entered) -> bool:
        """Whether the hooks, or the enter triggers of the zones ``entered``, may put cards in
        ``zone``: what they write, with the declared effects they call and the triggers they
        set off (building/watch.py's Quiet)."""
        q = Quiet(frozenset({("z", zone)}), self.effects, self.rules.triggers.enter)
        entering = SimpleNamespace(access=Access(zones_entered=frozenset(entered)))
        return any(not q.quiet(h) for h in [*hooks, entering] if h is not None)
