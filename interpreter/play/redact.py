"""A log as one seat may see it (``rulebook play --log-for SEAT``; ``replay.redact`` for a log
already written)."""
from __future__ import annotations

HIDDEN = "?"


# ---------------------------------------------------------------------- redaction
class Redactor:
    """Turns omniscient log lines into what seat ``seat`` may see, from the declared visibility.

    - an event that moves cards shows them when the seat may see the zone they leave or the
      zone they enter (``visible: all``, or ``owner`` and the seat or its team owns it): a
      card drawn into your hand, or passed from it, is yours to know; otherwise ``cards``
      becomes a ``count``;
    - a counter event (gain, lose, transfer, advance) of a counter the seat may not see loses
      its amounts; a ``set`` or ``random`` event of a private variable (``_name``) its value;
    - another seat's action is replaced by "?" when it is a card's label and no event of the
      same decision shows that card to everyone, and so is a forced move's;
    - the header gets "redacted_for": seat (such a log cannot be replayed); prompts and the
      final result are public.
    """

    COUNTER_EVENTS = ("gain", "lose", "transfer", "advance")

    def __init__(self, rules, seat: int, members=None):
        self.rules, self.seat = rules, seat
        self.team = next((t for t, m in enumerate(members or ()) if seat in m), seat)
        self.labels = set(rules.card_labels)

    def _sees(self, decl, kind: str, owner) -> bool:
        vis = (decl or {}).get("visible", "all")
        if vis == "all":
            return True
        if vis != "owner":
            return False
        return (kind == "player" and owner == self.seat) or (kind == "team" and owner == self.team)

    def _sees_zone(self, zone, owner) -> bool:
        if not isinstance(zone, str) or zone not in self.rules.zone_owner:
            return False
        return self._sees(self.rules.zone_decl.get(zone), self.rules.zone_owner[zone], owner)

    def event(self, ev: dict) -> dict:
        kind = ev.get("ev")
        if "cards" in ev or "card" in ev:
            froms = ev.get("from")
            seen = any(self._sees_zone(z, None) for z in froms) if isinstance(froms, list) else \
                self._sees_zone(froms, ev.get("from_owner"))
            if seen or self._sees_zone(ev.get("to"), ev.get("to_owner")) or ("from" not in ev and "to" not in ev):
                return ev
            out = {k: v for k, v in ev.items() if k not in ("cards", "card")}
            cards = ev.get("cards")
            out["count"] = (len(cards) if isinstance(cards, list) else 0) + (1 if "card" in ev else 0)
            return out
        if kind in self.COUNTER_EVENTS:
            keys = (("from", "from_owner"), ("to", "to_owner")) if kind == "transfer" else (("counter", "owner"),)
            kinds = self.rules.counter_owner
            hidden = any(ev.get(k) in kinds and not self._sees(self.rules.counter_decl.get(ev[k]), kinds[ev[k]], ev.get(o))
                         for k, o in keys)
            if hidden:   # the counter's name and owner stay; how much, and where a track piece is, do not
                drop = ("amount",) if kind != "advance" else ("from", "to")
                return {**{k: v for k, v in ev.items() if k not in drop}, "hidden": True}
            return ev
        if kind in ("set", "random") and str(ev.get("var", "")).startswith("_"):
            return {k: v for k, v in ev.items() if k != "value"}
        return ev

    def _public(self, ev: dict) -> bool:
        """Whether an event's cards are shown to everyone (it leaves or enters a public zone)."""
        froms = ev.get("from") if isinstance(ev.get("from"), list) else [ev.get("from")]
        decl = self.rules.zone_decl
        return any(isinstance(z, str) and z in decl and (decl[z] or {}).get("visible", "all") == "all"
                   for z in [*froms, ev.get("to")])

    def _hide_action(self, obj: dict, events: list) -> bool:
        """Another seat's choice of a card is shown only when the card went in or out of sight of
        everyone in the same decision (played to the table); a card that reached this seat's
        hand is shown by its event, but which choice it was is not."""
        if obj.get("seat") == self.seat or obj.get("action") not in self.labels:
            return False
        shown = set()
        for e in events:
            if not self._public(e):
                continue
            if isinstance(e.get("cards"), list):
                shown.update(c for c in e["cards"] if isinstance(c, str))
            if isinstance(e.get("card"), str):
                shown.add(e["card"])
        return obj["action"] not in shown

    def line(self, obj: dict) -> dict:
        kind = obj.get("type")
        if kind == "header":
            return {**obj, "redacted_for": self.seat}
        if kind == "error":   # another seat's failing action is hidden like its decisions' (no events shown)
            hidden = obj.get("seat") != self.seat and obj.get("action") in self.labels
            return {**obj, "action": HIDDEN} if hidden else obj
        if kind not in ("events", "decision"):
            return obj
        out = dict(obj)
        events = [self.event(e) for e in obj.get("events") or []]
        for i, e in enumerate(events):   # a forced move is a decision too
            if e.get("ev") == "forced" and self._hide_action(e, events):
                events[i] = {**e, "action": HIDDEN}
        out["events"] = events
        if kind == "decision" and self._hide_action(obj, events):
            out["action"] = HIDDEN
        return out
