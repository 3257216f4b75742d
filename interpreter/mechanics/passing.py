"""pass: every player chooses cards to give to another player, without seeing what they receive.

Each giver picks one card at a time (a compound choice is a sequence of simple ones). The
picked cards wait in the step's frame, which no observation shows, and are delivered only
when every giver has finished: the choices are simultaneous in effect.
"""
from __future__ import annotations

from bisect import insort
from collections import Counter
from typing import TYPE_CHECKING

from ..expr.types import CARD, INT, PLAYER
from ..expr.cdialect import list_take
from ..expr.names import item_read, own_call, state_add, state_read, state_write, zone_ref
from ..engine.capacity import check
from ..engine import frames
from ..engine.frames import listof, row, seat, whole
from ..engine.invariants import weight
from ..engine.knowledge import know
from ..engine.loop import at_step
from ..engine.sight import unseen_by
from .base import Step, checked_seat, step_kind
from .flow import whole_count
from .contract import Key, players_key
from .recounts import reads_hidden, seats_again

if TYPE_CHECKING:
    from ..expr.compiler import ExprFn


# the slots of a pass's frame: [step index, the giver's position among the givers, cards that
# giver picked so far, the cards put aside ([giver, to, card] each), the givers, cards each gives]
GIVER, PICKED, PENDING, GIVERS, COUNT = 1, 2, 3, 4, 5


@step_kind("pass", "every player picks COUNT cards from a zone; all are delivered together to a target player",
           keys=(Key("from", "zone", "a zone owned by each player: where the cards are given from", required=True),
          Key("to", "expression: player", "who receives a giver's cards (me = the giver; read once a giver, "
              "before its first card leaves)", required=True),
          Key("count", "expression: int", "cards each player gives (read once, me: as where the step stands)",
              required=True),
          Key("into", "zone", "the receiver's zone they land in", default="from"),
          players_key("who gives"),
          Key("prompt", "text", "the decision's name", default="pass")))
class Pass(Step):
    """Frame: [index, GIVER, PICKED, PENDING, GIVERS, COUNT] (the slots above)."""
    frame_shape = (whole("the giver's position", upto=(GIVERS,)), whole("cards that giver picked", upto=(PENDING, COUNT)),
                   listof("the cards put aside", row("a card put aside", seat("giver"), seat("receiver", none=True),
                                                     frames.card("card", held=True))),
                   listof("the givers", seat("a seat")), whole("cards each gives", low=None))
    option_type = CARD

    me_var: str | None          # the variable holding 'me' where the step runs
    zone: str                   # cards go from zone to the receiver's into
    into: str
    to: ExprFn                  # the receiver of a giver ('me')
    count: ExprFn               # cards each giver passes
    who: ExprFn                 # the givers
    sorted_into: bool           # into is kept in card order
    into_max: int | str | None  # into's max: (engine/capacity.py), or None
    notify: bool                # into has enter triggers
    by_team: bool               # the giving zone is a team's
    unique_labels: bool         # no two cards share a label: a hand's cards are its options

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        step, main, p = cls.started(ctx, main, rest, path, scope)
        step.zone = ctx.owned_zone(main.get("from"), (*p, "from"))
        step.into = ctx.owned_zone(main.get("into", main.get("from")), (*p, "into"))
        ctx.flows(step.zone, step.into)
        with ctx.asking(None):   # (each passing seat's: me = that seat)
            step.to = checked_seat(ctx, ctx.expr(main.get("to", "left(me)"), (*p, "to"), has_me=True, expect=PLAYER))
        # (a whole number, as its frame keeps it: of type any, checked where it is counted)
        step.count = whole_count(ctx, ctx.expr(main.get("count", 1), (*p, "count"), has_me=scope.has_me, expect=INT), (*p, "count"))
        step.who = ctx.expr(main.get("players", "players"), (*p, "players"), has_me=scope.has_me, expect="list")
        step.prompt = str(main.get("prompt", "pass"))
        step.sorted_into = ctx.zone_sorted(step.into)
        step.into_max = ctx.zone_max(step.into)
        step.notify = step.into in ctx.triggers.enter
        step.by_team = ctx.names.zones.get(step.zone) == "team"   # (the giving zone is a team's)
        step.unique_labels = ctx.unique_labels
        return step

    def enter(self, S):
        me = self.me(S, self.me_var)
        try:
            givers = list(self.who(S, me, None))
            return [self.index, 0, 0, [], givers, self.count(S, me, None)]
        except Exception as e:   # (its givers' or its count's error: located here)
            at_step(e, self)
            raise

    # run and resolve exist only as the Python the generators below write (building/flowgen.py)
    run = Step.run

    def flow_source(self, g):
        """The next card asked of the next giver with cards left to give; once every giver has
        given, the cards are delivered and the step is done."""
        return "\n".join([
            f"def R{self.index}(S, frame):",
            *self._next_card(g, "U"),
            f"    {g.step(self)}.deliver(S, frame[{PENDING}])",
            f"    {state_read('stack')}.pop()",
            "    return None"])

    def _next_card(self, g, asked: str, charge: bool = False) -> list:
        """Lines that ask the next card of the first giver with cards left to give, returning
        ``asked``, and fall through when every giver has given (``charge``: the question
        counted against the budget, as the loop's iteration it replaces would be)."""
        hand = f"zone[{item_read(state_read('tm'), 'giver')}]" if self.by_team else "zone[giver]"
        count = [f"            {state_add('steps', 1 + self.charge)}", f"            if {state_read('steps')} > {g.max_steps}:",
                 "                _over_budget(S)"] if charge else []
        offered = "(giver, tuple(hand))" if self.unique_labels and not g.plain else \
            f"(giver, tuple({state_read('rules')}.distinct_cards(hand)))"
        return [f"    givers, count = frame[{GIVERS}], frame[{COUNT}]",
                f"    zone = {zone_ref(self.zone)}",
                f"    while frame[{GIVER}] < len(givers):",
                f"        giver = {item_read('givers', f'frame[{GIVER}]')}",
                f"        hand = {hand}",
                f"        if frame[{PICKED}] < count and hand:",
                f"            {state_write('dec', offered)}",
                *count,
                f"            return {asked}",
                f"        frame[{GIVER}] += 1",
                f"        frame[{PICKED}] = 0"]

    asks = True

    # ------------------------------------------------------------------ resolve, written once (building/flowgen.py)
    asks_again = False   # whether no check can see the card leaving the hand (settle): the
                         # compiled resolve then asks the next card itself (flowgen's _asks_again)

    def settle(self, quiet, watched_vars):
        self.asks_again = quiet.watched is not None and ("z", self.zone) not in quiet.watched

    def resolve_source(self, g):
        """Take a card given: its only definition (flowgen adds the next question asked at once
        when asks_again, unless plain)."""
        zone, owner = self.zone, item_read(state_read("tm"), "giver") if self.by_team else "giver"
        # where no check can see the card leave (asks_again), the next card is asked here, and
        # only the delivery left to the run that flowgen's end of the resolve calls
        again = self._next_card(g, "ASKED", True) if self.asks_again and g.runs_on else []
        held = f"({own_call(zone)} if {state_read('sh')} else {zone_ref(zone)})[{owner}]"
        # the receiver is read once a giver, before its first card leaves its zone (the seat its
        # first card went to, the last put aside, after that): where the write goes is found first
        return "\n".join([
            f"def Q{self.index}(S, frame, card):",
            f"    giver = {item_read(f'frame[{GIVERS}]', f'frame[{GIVER}]')}",
            f"    if frame[{PICKED}]:",
            f"        to = frame[{PENDING}][-1][1]",
            "    else:",
            *g.assign(self.to, "to", "giver", "        "),   # (a checked seat: mechanics/base.py)
            f"    {list_take(held, 'card')}   # (copy on write)",
            f"    frame[{PENDING}] = frame[{PENDING}] + [[giver, to, card]]   # replace, never mutate (cheap clones)",
            f"    frame[{PICKED}] += 1",
            f"    if {state_read('ev')} is not None:",
            f"        {state_read('ev')}.append({{'ev': 'pass', 'who': giver, 'from': {zone!r}, 'from_owner': {owner}, "
            "'for': to, 'cards': [card]})",
            *again])

    def vocabulary(self, V, spec):
        return V.card_labels(V.zone_cards(self.zone))

    def asked(self, S, frame):
        giver = frame[GIVERS][frame[GIVER]]   # (its receiver as the resolve reads it: once a giver)
        to = frame[PENDING][-1][1] if frame[PICKED] else self.to(S, giver, None)
        return {"count": frame[COUNT] - frame[PICKED], "of": frame[COUNT], "to": to}

    def hidden_cards(self, S, frame, player):
        """The cards others have put aside and not yet passed: only their givers know them."""
        return [card for giver, _, card in frame[PENDING] if giver != player]

    def put_hidden_cards(self, S, frame, player, cards):
        it = iter(cards)
        frame[PENDING] = [[giver, to, card if giver == player else next(it)] for giver, to, card in frame[PENDING]]

    hidden_kept: tuple | None = None   # (the ruleset, what reads_hidden found)

    def hidden_values(self, S, frame, seat, rng):
        """A determinization for ``seat`` (engine/knowledge.py): the givers and the count read
        when the pass started, where they read a private variable, a hidden counter or the cards
        of a zone instance the seat does not see (recounts.reads_hidden, engine/sight.py
        ``unseen_by``), are made again on the world's values. The givers that have given, and
        the one asked, keep their places, the others are those the world counts
        (recounts.seats_again); the count is the world's, never fewer than the seat saw given (the
        most cards a giver has put aside, one more than the giver asked has): where the world
        cannot count it (a private number it holds as none), that least. A count of how many
        cards zones hold, or one read of zones the seat sees, is the one read when the pass
        started (as a repeat's)."""
        me = self.me(S, self.me_var)
        who, count = reads_hidden(self, S, self.who, self.count)
        who, count = unseen_by(S, who, seat, me), unseen_by(S, count, seat, me)
        work = (weight(self.who) if who else 0) + (weight(self.count) if count else 0)
        if who:
            givers = frame[GIVERS]
            frame[GIVERS] = seats_again(givers, min(frame[GIVER] + 1, len(givers)), lambda: self.who(S, me, None),
                                        None, S.n)
        if count:
            least = max([frame[PICKED] + (S.dec is not None), *Counter(g for g, _, _ in frame[PENDING]).values()])
            try:
                n = self.count(S, me, None)
            except Exception:   # noqa: BLE001 - any failure of the count: the least the seat saw
                n = None
            frame[COUNT] = max(n, least) if n.__class__ is int else least
        return work

    def observe(self, S, frame, player):
        """A giver knows the cards they have put aside; nobody sees anyone else's."""
        return {"passing": [S.rules.card_labels[card] for giver, _, card in frame[PENDING] if giver == player]}

    def deliver(self, S, pending):
        zone = S.own(self.into)   # (copy on write)
        by_team = S.rules.zone_owner[self.into] == "team"
        from_team, notify = self.by_team, self.notify   # (read once, not once a card)
        put = insort if self.sorted_into else list.append
        for giver, to, card in pending:
            put(zone[S.tm[to]] if by_team else zone[to], card)
            if self.into_max is not None:
                check(S, self.into, zone[S.tm[to]] if by_team else zone[to])
            if notify:
                S.rules.triggers.entered(S, self.into, S.tm[to] if by_team else to, by_team, [card], to)
            if S.kn is not None:   # the giver knows where it went (engine/knowledge.py)
                know(S, (card,), self.zone, S.tm[giver] if from_team else giver, self.into, S.tm[to] if by_team else to,
                     held=True)
        if S.ev is not None:   # what each receiver gets, from whom
            by: dict[tuple[int, int], list[int]] = {}
            for giver, to, card in pending:
                by.setdefault((giver, to), []).append(card)
            for (giver, to), cards in by.items():
                S.ev.append({"ev": "receive", "who": to, "from_seat": giver, "to": self.into,
                             "to_owner": S.tm[to] if by_team else to, "cards": cards})
