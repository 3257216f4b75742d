"""A log as one seat may see it (``rulebook play --log-for SEAT``; ``replay.redact`` for a log
already written): no more than ``observation(seat)`` shows, from the declared visibility
(engine/visibility.py says who sees what, engine/sight.py what an event shows)."""
from __future__ import annotations

from weakref import WeakKeyDictionary

from ...engine.sight import counter_seers, moved_seers, public_card, told_seers, zone_seers
from ...engine.visibility import bit

HIDDEN = "?"
UNSAID = "a runtime error (its message is in the full log only)"   # an error line without a summary


_TABLES: WeakKeyDictionary = WeakKeyDictionary()


def _tables(rules):
    """What every Redactor of a ruleset reads (built once: adapters make one per seat and move):
    the sorted zones, each label's first card id (card order), the steps' event amounts."""
    if rules not in _TABLES:
        order: dict = {}
        for i, label in enumerate(rules.card_labels):
            order.setdefault(label, i)
        amounts: dict = {}
        for step in rules.steps:
            for kind, fields in step.event_amounts().items():
                for field, counters in fields.items():
                    amounts.setdefault(kind, {}).setdefault(field, set()).update(counters)
        _TABLES[rules] = (frozenset(getattr(rules, "sorted_zones", ())), order, amounts)
    return _TABLES[rules]


def _owned(rules) -> dict:
    """zone or counter -> True when it is owned by each card."""
    return {name: True for name, kind in {**rules.zone_owner, **rules.counter_owner}.items() if kind == "card"}


OWNERS = (("from", "from_owner"), ("to", "to_owner"), ("counter", "owner"))   # (its zone or counter, owner)


# ---------------------------------------------------------------------- redaction
class Redactor:
    """Turns omniscient log lines into what seat ``seat`` may see.

    - an event that moves cards shows them when the seat may see the zone they leave or the
      zone they enter (``visible: all``, or ``owner`` and the seat or its team owns it): a
      card drawn into your hand, or passed from it, is yours to know; a ``gather`` shows them
      only when each zone it empties is visible to all (it lumps every owner's cards
      together); otherwise ``cards`` becomes a ``count``;
    - a counter event (gain, lose, advance, set_counter, pay) of a counter the seat may not see,
      or of a counter of a card not always seen (below: the log cannot tell whether the seat
      sees the card), and a transfer or a pay to a supply (``SIDES``) between two such counters,
      is left out of the line: the seat's observation cannot tell it happened (which counter
      changed may tell which branch a hidden value took), and the line keeps no count of what it
      left out (a pay the payer was asked is told by its decision line; one nobody was asked,
      an event a unit, leaves no trace); a transfer with one side the seat sees keeps that side
      and loses the other's name and owner and its amount (``"hidden": true``); a reset keeps
      the counters the seat sees an instance of, none left: left out; a field a step declares as
      an amount of a counter the seat may not see is dropped (``Step.event_amounts``: the cost
      of a grid space);
    - the card that owns a zone or counter named in an event (``owner``, ``from_owner``,
      ``to_owner`` of one owned by each card) is shown only when it is of a component every
      seat always sees where it lies (engine/sight.py ``public_kinds``), else it becomes "?"
      as a hidden card is (a log line has no state to tell where the card lay; observation.py
      shows what such a card owns only where the seat sees the card);
    - a ``set``, ``random`` or ``reveal`` event of a private variable (``_name``, seen by no seat)
      loses its value (a simultaneous choice revealed into one stays secret: each seat's own
      choice is in its own decision line, as the observation shows it until the reveal);
    - a value a step keeps in a private variable (``as: _name``; the event names it, ``var``)
      is the actor's alone where the actor chose it (an attempt's target, the space a grid step
      took: its own decision, which its line shows it): for another seat the target's card
      becomes a ``count``, the space (``TOLD``) is dropped (``"hidden": true``), as its decisions
      are "?"; an attempt's outcome drawn into one (``DRAWN``) is seen by no seat, the actor
      included, as a ``random`` into it is and as no observation shows it (an outcome the actor
      reports, ``resolve: ask``, is its decision, shown to it in its own line);
    - another seat's action, and a forced move's, is replaced by "?" when the seat is not
      among its ``seen_by`` (the seats that see every card and counter its option names,
      before, during or after the decision: engine/sight.py); ``seen_by`` itself is dropped
      (where a hidden card was is not for this seat to know);
    - the header gets "redacted_for": seat and "replayable": false, and loses the game's
      ``seed`` (with it ``new_game`` would deal every hidden card again); an error line's
      ``message`` (which may name a hidden card or value: "'S' is not a key of the map") becomes
      its ``summary``, the place and kind of the error without its values (engine/loop.py
      ``located``), its ``loc`` and ``calls`` kept; prompts and the final result (the scoring is
      public) are kept.

    ``KINDS`` says which rule decides each event kind the engine emits (tests/test_redaction_leaks.py
    checks that every kind written in interpreter/ is there, and what each rule hides); a kind
    missing there (a mechanic's own, not added to it) shows a seat its kind alone: whatever else
    it names may be hidden from the seat.
    """

    KINDS = {**dict.fromkeys(("move", "deal", "gather", "pick", "pass", "receive", "play", "trick", "show",
                              "target"), "cards"),
             **dict.fromkeys(("gain", "lose", "transfer", "advance", "pay", "set_counter"), "counter"),
             **dict.fromkeys(("set", "random", "reveal"), "variable"),
             "roll": "roll", "forced": "forced", "attempt": "told",
             # kept, but for the fields a step declares as amounts of a counter (Step.event_amounts)
             **dict.fromkeys(("grid", "reset", "branch", "end_game"), "amounts")}
    TOLD = {"attempt": "outcome", "grid": "space"}   # the field naming the value an event's ``var`` keeps
    DRAWN = ("attempt",)   # a value chance gave, not the actor's choice: seen as its variable is
    # the counters a counter event changes (its field, its owner's): the rest change ("counter", "owner")
    SIDES = {"transfer": (("from", "from_owner"), ("to", "to_owner")), "pay": (("counter", "owner"), ("to", "to_owner"))}
    DROP = {"advance": ("from", "to"),   # what a change half seen loses besides its hidden side: the rest "amount"
            "set_counter": ("value",)}

    def __init__(self, rules, seat: int | None, members=None):
        # seat None: a spectator, who sees only what everyone sees (a bit no seat has: only in ALL)
        self.rules, self.seat, self.bit = rules, seat, bit(seat)
        # without the teams, team t is seat t alone (the seat's own team is itself)
        self.members = [list(m) for m in members] if members is not None else [[p] for p in range((seat or 0) + 1)]
        self.sorted, self.order, self.amounts = _tables(rules)
        self.owned = _owned(rules)

    def _team(self, seat):
        return next((t for t, m in enumerate(self.members) if seat in m), None)

    def _sees_counter(self, name, owner) -> bool:
        return bool(counter_seers(self.rules, self.members, name, owner) & self.bit)

    def _sees_any(self, name) -> bool:
        """Whether the seat sees some instance of counter ``name`` (a reset sets every one)."""
        masks = self.rules.visibility.seen(self.members).counter.get(name)
        return any(m & self.bit for m in (masks if isinstance(masks, tuple) else (masks or 0,)))

    def _unsure(self, name, owner) -> bool:
        """Whether ``name`` is a counter of a card the seat may not see where it lies (public_card)."""
        return owner is not None and bool(self.owned.get(name)) and not public_card(self.rules, owner)

    def _owner(self, name, ev, key="owner"):
        """The owner of an event's counter: its ``owner``, else the acting seat's (or team's)."""
        if key in ev:
            return ev[key]
        kind = self.rules.counter_owner.get(name)
        return self._team(ev.get("who")) if kind == "team" else ev.get("who") if kind == "player" else None

    def _hides(self, obj: dict) -> bool:
        seen = obj.get("seen_by")
        return obj.get("seat") != self.seat and isinstance(seen, list) and self.seat not in seen

    def event(self, ev: dict) -> dict | None:
        """``ev`` as the seat may see it; None: left out of its line (a hidden counter's change)."""
        out = self._event(ev)
        if out is None or not self.owned:
            return out
        hide = [k for place, k in OWNERS if k in out and self.owned.get(out.get(place)) and not public_card(self.rules, out[k])]
        return {**out, **dict.fromkeys(hide, HIDDEN)} if hide else out

    def _event(self, ev: dict) -> dict | None:
        kind = str(ev.get("ev"))
        rule = self.KINDS.get(kind)
        if rule is None:   # no rule decides it: nothing of it but its kind
            return {"ev": ev.get("ev")}
        if rule == "forced":   # a decision the engine took: hidden as a decision is
            out = {k: v for k, v in ev.items() if k != "seen_by"}
            return {**out, "action": HIDDEN} if self._hides(ev) else out
        if "cards" in ev or "card" in ev:   # (whatever its kind: a card named is shown by where it moves)
            if moved_seers(self.rules, self.members, ev) & self.bit:
                return self._ordered(ev)
            out = {k: v for k, v in ev.items() if k not in ("cards", "card")}
            cards = ev.get("cards")
            out["count"] = (len(cards) if isinstance(cards, list) else 0) + (1 if "card" in ev else 0)
            return out
        if rule == "counter":
            sides = [(k, o) for k, o in self.SIDES.get(kind, (("counter", "owner"),)) if k in ev]
            unseen = [not self._sees_counter(ev.get(k), self._owner(ev.get(k), ev, o)) or self._unsure(ev.get(k), ev.get(o))
                      for k, o in sides]
            if all(unseen):   # a change the seat cannot see (a pay's: its decision line tells it): not for it
                return None
            if any(unseen):   # the side it sees may stay; the other's name, and how much, do not
                drop = {*self.DROP.get(kind, ("amount",)), *(f for side, hid in zip(sides, unseen) if hid for f in side)}
                return {**{k: v for k, v in ev.items() if k not in drop}, "hidden": True}
            return ev
        if rule == "variable":
            if self.rules.visibility.var_seers(ev.get("var", "")) & self.bit:
                return ev
            return {k: v for k, v in ev.items() if k != "value"}
        told = self.TOLD.get(kind)
        seers = told_seers(self.rules, {"var": ev.get("var")} if kind in self.DRAWN else ev)
        if told in ev and not seers & self.bit:   # kept in a private variable: the actor's (DRAWN: no seat's)
            ev = {**{k: v for k, v in ev.items() if k != told}, "hidden": True}
        if rule == "told":
            return ev
        if rule == "roll":   # a roll's chances may be computed from what no seat sees (whether
            return {k: v for k, v in ev.items() if k != "chances"}   # a target is hidden): its outcome only
        if kind == "reset":   # the counters the seat sees an instance of (another's: no trace of it)
            shown = [c for c in ev.get("counters") or [] if self._sees_any(c)]
            if not shown:
                return None
            ev = {**ev, "counters": shown} if len(shown) < len(ev.get("counters") or []) else ev
        if kind in self.amounts:
            unseen = [f for f, counters in self.amounts[kind].items()
                      if f in ev and any(not self._sees_counter(c, self._owner(c, ev, "")) for c in counters)]
            return {**{k: v for k, v in ev.items() if k not in unseen}, "hidden": True} if unseen else ev
        return ev

    def _ordered(self, ev: dict) -> dict:
        """Cards seen arriving in a sorted zone from one the seat does not see: in card order,
        as the zone shows them (the order they came in, such as the order another seat chose
        the cards it passed, is not for this seat to know)."""
        cards = ev.get("cards")
        if not isinstance(cards, list) or len(cards) < 2 or ev.get("to") not in self.sorted:
            return ev
        froms = ev.get("from")
        if isinstance(froms, list) or zone_seers(self.rules, self.members, froms, ev.get("from_owner")) & self.bit:
            return ev
        return {**ev, "cards": sorted(cards, key=lambda c: self.order.get(c, -1))}

    def line(self, obj: dict) -> dict:
        kind = obj.get("type")
        if kind == "header":
            return {**{k: v for k, v in obj.items() if k not in SECRET}, "redacted_for": self.seat,
                    "replayable": False}
        if kind not in ("events", "decision", "error"):
            return obj
        out = {k: v for k, v in obj.items() if k != "seen_by"}
        if self._hides(obj):
            out["action"] = HIDDEN
        if kind == "error":   # its values may be hidden from the seat: the place and kind only
            summary = obj.get("summary")
            out.pop("summary", None)
            out["message"] = summary if isinstance(summary, str) else UNSAID
        else:
            out["events"] = [e for e in map(self.event, obj.get("events") or []) if e is not None]
        return out


SECRET = ("seed",)   # header fields no seat may read: the game's seed deals every hidden card again
