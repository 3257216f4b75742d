"""pick: a player picks cards one at a time (a compound choice as a sequence of simple ones).

    - pick:
        who: me                        # default: me
        from: hand                     # a zone: NAME, NAME[p] or p.NAME (bare = the picker's)
        to: market                     # where each picked card goes (same forms)
        where: "quality == 7"          # optional filter; may use `picked` (the cards picked so far)
        count: 2                       # exactly this many (fewer if fewer are allowed), or
        min: 0                         # a range: once min are picked, "done" is offered
        max: 3
        prompt: discard
        then: [effects]                # after each card, with local `card`

Options are the allowed cards (identical cards count once), then ``done`` when stopping is
allowed. When no card is allowed the step ends.
"""
from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING, Any, Callable

from ..expr.types import CARD, INT, list_of
from ..expr.cdialect import list_take
from ..expr.names import own_call, state_read, state_write
from ..engine.capacity import guard
from ..engine.frames import card, listof, seat
from ..engine.knowledge import know, unplaced_cards
from .base import IF_NONE_KEY, WHO, Step, step_kind
from .contract import Key

if TYPE_CHECKING:
    from ..expr.compiler import ExprFn, ZoneFn

DONE = -1
_LOCALS = {"picked": list_of(CARD)}


PICKED, PICKER = 1, 2   # a pick's frame: [step index, the cards picked so far, the seat picking (None before)]


@step_kind("pick", "a player picks cards from a zone one at a time (count, or min/max with 'done')",
           keys=(WHO,
          Key("from", "zone", "where the cards are picked (me = the picker)", required=True),
          Key("to", "zone", "where each picked card goes", required=True),
          Key("where", "condition on a card", "which cards may be picked (local picked: those so far)"),
          Key("count", "expression: int", "exactly this many"),
          Key("min", "expression: int", "done is offered once this many are picked", default=0),
          Key("max", "expression: int", "at most this many"),
          Key("prompt", "text", "the decision's name", default="pick"),
          Key("then", "effects", "run after each pick (local card)"),
          IF_NONE_KEY))
class Pick(Step):
    """Frame: [index, PICKED, PICKER] (the slots above)."""
    option_type = CARD

    me_var: str | None                  # the variable holding 'me' where the step runs
    who: ExprFn                         # the picker
    who_me: bool                        # who is just 'me'
    src: ZoneFn                         # cards go from src to dst
    dst: ZoneFn
    src_name: str
    dst_name: str
    dst_sorted: bool                    # dst is kept in card order
    dst_max: int | str | None           # dst's max: (engine/capacity.py guard), or None
    src_at: Callable[..., Any]          # zone_at_fn: f(S, me, L) -> (the zone's list, its owner or None)
    dst_at: Callable[..., Any]
    dst_by: str                         # dst's owners: none, player, team or card
    notify: bool                        # dst has enter triggers
    live: frozenset | None              # the cards that may fire one (None: any card)
    where: Callable[..., list] | None   # f(S, me, L, cards) -> the cards that may be picked
    lo: ExprFn                          # how many cards: lo to hi (None: no most)
    hi: ExprFn | None
    then: Callable[..., Any] | None     # effects f(S, me, L) after each pick

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        s, main, p = cls.started(ctx, main, rest, path, scope)
        s.who, s.who_me = cls.asker(ctx, main.get("who", "me"), (*p, "who"), scope)
        with ctx.asking(main.get("who", "me")):   # (the zones, filter, counts and then: the picker's)
            # zones are evaluated with me = the picker
            s.src = ctx.zone_ref(main.get("from"), (*p, "from"), _LOCALS)
            s.dst = ctx.zone_ref(main.get("to"), (*p, "to"), _LOCALS)
            s.dst_name = ctx.zone_name(main.get("to"))
            s.dst_sorted = ctx.zone_sorted(s.dst_name)
            s.dst_max = ctx.zone_max(s.dst_name)
            # each zone with its owner (a card-owned zone's card too), evaluated once before a card
            # moves: the zones written, the knowledge, the triggers and the event all name them
            s.src_name = ctx.zone_name(main.get("from"))
            ctx.flows(s.src_name, s.dst_name)
            s.src_at = ctx.zone_at_fn(main.get("from"), (*p, "from"), _LOCALS)
            s.dst_at = ctx.zone_at_fn(main.get("to"), (*p, "to"), _LOCALS)
            s.dst_by = ctx.names.zones.get(s.dst_name, "none")
            s.notify = s.dst_name in ctx.triggers.enter
            s.live = ctx.triggers.live.get(s.dst_name)   # (the triggers are built before the flow)
            s.where = None
            if "where" in main:
                s.where = ctx.card_selector(main["where"], (*p, "where"), _LOCALS)
            if "count" in main:
                c = ctx.expr(main["count"], (*p, "count"), has_me=True, expect=INT)
                s.lo, s.hi = c, c
            else:
                s.lo = ctx.expr(main.get("min", 0), (*p, "min"), has_me=True, expect=INT)
                s.hi = ctx.expr(main["max"], (*p, "max"), has_me=True, expect=INT) if "max" in main else None
            s.prompt = str(main.get("prompt", "pick"))
            s.then = ctx.effects(main.get("then"), (*p, "then"), {"card": CARD, **_LOCALS}, True, by_name=True)
        s.read_if_none(ctx, main, p)
        return s

    fresh_frame = ([], None)   # PICKED (replaced, never mutated: frames may share it), PICKER
    frame_shape = (listof("the cards picked so far", card("a card")), seat("the seat picking", none=True))

    # run and resolve exist only as the Python the generators below write (building/flowgen.py)
    run = Step.run
    resolve = Step.resolve

    def flow_source(self, g):
        """The next card's question: the picker found once (none: the step does not apply), the
        most reached ends it, else the allowed cards (identical ones once), then ``done`` once the
        least is reached. Specialised: a count written as a number, an ``if_none: skip`` nobody
        counts written in."""
        k_self, plain = g.step(self), g.plain
        lines = [f"def R{self.index}(S, frame):",
                 f"    picked = frame[{PICKED}]",
                 f"    who = frame[{PICKER}]",
                 "    if who is None:",
                 *([f"        who = {g.me(self.me_var)}"] if self.who_me else g.assign(self.who, "who", g.me(self.me_var), "        ")),
                 f"        frame[{PICKER}] = who",
                 "        if who is None:",
                 f"            {state_read('stack')}.pop()",
                 "            return U",
                 "    L = {'picked': picked}"]
        if self.hi is not None:
            hi = _number(self.hi, plain)
            if hi is None:
                lines += [f"    hi = {g.fn(self.hi)}(S, who, L)", "    if hi is not None and len(picked) >= hi:"]
            else:
                lines.append(f"    if len(picked) >= {hi}:")
            lines += [f"        {state_read('stack')}.pop()", "        return U"]
        lines.append(f"    src = {g.fn(self.src)}(S, who, L)")
        # (no filter: the zone itself, specialised: distinct_cards below makes the list of options)
        lines.append(f"    allowed = {g.fn(self.where)}(S, who, L, src)" if self.where is not None else
                     "    allowed = list(src)" if plain else "    allowed = src")
        skip = self.if_none == "skip" and self.none_probe is None and not plain
        lines += ["    if not allowed:",
                  *([f"        {state_read('stack')}.pop()", "        return U"] if skip else
                    ["        if not picked:   # nothing to pick at all (after some picks, the pick is just over)",
                     f"            return {k_self}.no_option(S)",
                     f"        {state_read('stack')}.pop()",
                     "        return U"]),
                  f"    options = {state_read('rules')}.distinct_cards(allowed)"]
        lo: int | str | None = _number(self.lo, plain)
        if lo is None and self.lo is self.hi and not plain:   # a count: its value is asked once (hi above)
            lo = "hi"
        lines.append(f"    if len(picked) >= {lo if lo is not None else f'{g.fn(self.lo)}(S, who, L)'}:")
        return "\n".join([*lines, f"        options.append({DONE})", f"    {state_write('dec', '(who, tuple(options))')}",
                          "    return U"])

    def skip_source(self, g, pad, push, failed=0):
        """A pick by nobody (``who: "me if target != none else none"``) costs its picker, found in
        place (an error in it located at the pick): its frame is pushed and its run called for someone."""
        if g.plain or self.who_me:
            return None
        ran = [f"{pad}    return R{self.index}(S, f)"]
        return [*g.found(self, g.assign(self.who, "_who", g.me(self.me_var), pad + "    "), pad, push, failed),
                f"{pad}if _who is not None:", *(f"{pad}    {line}" for line in push(["[]", "_who"])),
                *(g.recounted(ran, pad + "    ", failed) if failed else ran)]

    def resolve_source(self, g):
        """A card picked: moved, then ``then`` with ``card`` and ``picked``; ``done`` ends the step.
        Both zones and their owners are found before the card moves (zone_at_fn)."""
        src_at, dst_at = g.fn(self.src_at), g.fn(self.dst_at)
        assert self.src.zone is not None and self.dst.zone is not None   # (a pick moves between named zones)
        lines = [f"def Q{self.index}(S, frame, card):",
                 f"    if card == {DONE}:",
                 f"        {state_read('stack')}.pop()",
                 "        return U",
                 f"    who = frame[{PICKER}]",
                 f"    L = {{'picked': frame[{PICKED}]}}",
                 f"    if {state_read('sh')}:   # copy on write: the two zones this state's own before they change",
                 f"        {own_call(self.src.zone)}",
                 f"        {own_call(self.dst.zone)}",
                 f"    src, src_owner = {src_at}(S, who, L)",
                 f"    dst, dst_owner = {dst_at}(S, who, L)",
                 f"    {list_take('src', 'card')}",
                 f"    {g.fn(insort)}(dst, card)" if self.dst_sorted else "    dst.append(card)",
                 *guard(self.dst_max, self.dst_name, "dst", "    ", g)]
        if self.notify:   # (specialised: asked only for a card that may fire a hook, decided per card)
            pad = "    " if self.live is None or g.plain else "        "
            lines += [*([f"    if card in {g.fn(self.live)}:"] if pad != "    " else []),
                      f"{pad}{state_read('rules')}.triggers.entered(S, {self.dst_name!r}, "   # (a card's zone: no owner)
                      f"{'dst_owner' if self.dst_by in ('player', 'team') else None}, {self.dst_by == 'team'}, [card], who)"]
        lines += [f"    frame[{PICKED}] = [*frame[{PICKED}], card]   # replace, never mutate",
                  f"    if {state_read('kn')} is not None:",
                  f"        {g.fn(know)}(S, (card,), {self.src_name!r}, src_owner, {self.dst_name!r}, dst_owner)",
                  f"    if {state_read('ev')} is not None:",
                  f"        ev = {{'ev': 'pick', 'who': who, 'from': {self.src_name!r}, 'to': {self.dst_name!r}, "
                  "'cards': [card]}",
                  "        if src_owner is not None:",
                  "            ev['from_owner'] = src_owner",
                  "        if dst_owner is not None:",
                  "            ev['to_owner'] = dst_owner",
                  f"        {state_read('ev')}.append(ev)"]
        if self.then is not None:
            lines += g.effects(self.then, "who", "    ", self, {"card": "card", "picked": f"frame[{PICKED}]"})
        return "\n".join([*lines, "    return None"])

    asks = True

    def hidden_values(self, S, frame, seat, rng):
        """A determinization for ``seat`` (engine/knowledge.py): a card picked so far that the seat
        can neither see nor place was dealt again, so the frame names in its stead a card of the
        world's destination the seat cannot place either, drawn at random (then any such card of
        the world, should the rules have moved the picked ones on, or the world not name the
        destination: it reads a private value the world holds as none)."""
        picked, who = frame[PICKED], frame[PICKER]
        if not picked or who is None:
            return
        unplaced = unplaced_cards(S, seat)
        lost = [c for c in picked if c in unplaced]
        if not lost:
            return
        kept = set(picked) - set(lost)
        try:
            dst = self.dst_at(S, who, {"picked": picked})[0]
        except Exception:   # noqa: BLE001 - any failure of the destination: any such card of the world
            dst = ()
        there = [c for c in dst if c in unplaced and c not in kept]
        drawn = rng.sample(there, min(len(lost), len(there)))
        if len(drawn) < len(lost):
            rest = sorted(unplaced - kept - set(drawn))
            drawn += rng.sample(rest, len(lost) - len(drawn))
        it = iter(drawn)
        frame[PICKED] = [next(it) if c in unplaced else c for c in picked]   # (replaced, never mutated)

    def asked(self, S, frame):
        who, L = frame[PICKER], {"picked": frame[PICKED]}
        return {"picked": len(frame[PICKED]), "least": self.lo(S, who, L),
                "most": self.hi(S, who, L) if self.hi is not None else None}

    def label(self, S, value):
        return "done" if value == DONE else S.rules.card_labels[value]

    def labels(self, S, options):   # (one comprehension, not a method call an option)
        table = S.rules.card_labels
        return ["done" if v == DONE else table[v] for v in options]

    def vocabulary(self, V, spec):
        return [*V.card_labels(V.zone_cards(spec.get("from", ""))), "done"]


def _number(fn, plain: bool) -> int | None:
    """The whole number an expression is when it is written as one (``count: 1``), else None."""
    tree = getattr(fn, "tree", None)
    if plain or tree is None or getattr(tree, "data", None) != "int_":
        return None
    return int(tree.children[0])
