"""What one player may see: zones, counters and variables as the ruleset's visibility says
(engine/visibility.py): the contents of what the seat sees, of the other zones only the
number of cards, of the other counters nothing; the public variables. A zone or counter
owned by each card is shown by its card only where the viewer sees that card where it lies
(engine/sight.py ``card_seen``): the others are left out, as if they held nothing. The pending
decision is shown to the player who must make it.
"""
from __future__ import annotations

from itertools import compress
from typing import Any

from .sight import card_seen, public_cards, unsure_cards
from .visibility import SPECTATOR


LONG = 32   # a shared zone this long: its labels kept while its cards stay the same


def _shown_cards(rules, name: str, zone: list) -> list:
    """The labels of a shared zone's cards. A long zone (a supply) seldom changes between two
    observations: its labels are kept with the cards they were read from (comparing two
    tuples in C costs a few percent of labelling each card again)."""
    if len(zone) < LONG:
        return [rules.card_labels[c] for c in zone]
    cards = tuple(zone)
    kept = rules.shown_labels.get(name)
    if kept is None or kept[0] != cards:
        table = rules.card_labels
        kept = rules.shown_labels[name] = (cards, [table[c] for c in cards])   # (one assignment: threads read it whole)
    return kept[1][:]


def observe(S, player: int | None) -> dict:
    rules = S.rules
    labels, keys = rules.card_labels, rules.card_keys
    vis = rules.visibility   # who sees each instance (engine/visibility.py)
    always, unsure = public_cards(rules), unsure_cards(rules)   # (what lies on the first: shown without a search)
    seen = vis.seen(S.members)
    zone_masks, counter_masks, var_seers = seen.zone, seen.counter, vis.vars
    me = SPECTATOR if player is None else 1 << player
    zones: dict[str, Any] = {}
    z = S.z
    for name, owner in rules.zone_owner.items():
        masks = zone_masks[name]
        zone = z[name]
        if owner == "none":
            zones[name] = _shown_cards(rules, name, zone) if masks & me else len(zone)
        elif owner == "card":   # the cards that hold something and that the viewer sees, by key (card_keys)
            zones[name] = {keys[i]: ([labels[c] for c in z] if masks & me else len(z))
                           for i, z in sorted(zone.items()) if z and (i in always or card_seen(S, i, me))}
        elif type(masks) is int:   # each player's or team's, all seen alike
            zones[name] = [[labels[c] for c in z] for z in zone] if masks & me else [len(z) for z in zone]
        else:   # the ones the viewer sees, the others' sizes
            zones[name] = [[labels[c] for c in z] if m & me else len(z) for m, z in zip(masks, zone)]
    counters = {}
    c = S.c
    for name, owner in rules.counter_owner.items():
        masks = counter_masks[name]
        value = c[name]
        if owner == "none":
            counters[name] = value if masks & me else None
        elif owner == "card":
            # the cards whose value is not 0 (picked in C: a few among hundreds)
            shown = {keys[i]: value[i] for i in compress(range(len(value)), value)} if masks & me else None
            if shown:   # less those on cards the viewer does not see where they lie
                for i in unsure:
                    if value[i] and not card_seen(S, i, me):
                        del shown[keys[i]]
            counters[name] = shown
        elif type(masks) is int:
            counters[name] = list(value) if masks & me else [None] * len(value)
        else:
            counters[name] = [v if m & me else None for m, v in zip(masks, value)]
    obs = {
        "player": player,
        "players": S.n,
        "teams": [list(m) for m in S.members],
        "zones": zones,
        "counters": counters,
        "vars": {k: _shown(rules, k, v) for k, v in S.v.items() if var_seers[k] & me},
        "phase": phase(S),
        "current_player": S.current_player(),
        "over": S.over,
    }
    if rules.shows and player is not None and S.kn:
        known = known_cards(S, player)
        if known:
            obs["known"] = known
    for frame in S.stack:   # running steps add what they hold (a trick's players, your passed cards)
        extra = S.rules.steps[frame[0]].observe(S, frame, player)
        if extra:
            obs.update(extra)
    if S.dec is not None and S.dec[0] == player:
        obs["prompt"] = S.prompt()
        obs["legal_actions"] = S.legal_actions()
    return obs


def known_cards(S, player: int) -> dict:
    """In a ruleset that shows cards (mechanics/show.py): the cards in zones hidden from
    ``player`` whose place it knows (engine/knowledge.py), by labels under the zone's name as
    the language writes it (``hand[1]``, ``under[a2]``, ``deck``), in the order of the labels'
    first cards (the order of a hidden zone, and which copy of a label is which, are not seen)."""
    rules, kn, bit = S.rules, S.kn, 1 << player
    seen = rules.visibility.seen(S.members)
    labels, keys = rules.card_labels, rules.card_keys
    out: dict = {}
    z = S.z
    for name, owner in rules.zone_owner.items():
        zone = z[name]
        places = ([(None, zone)] if owner == "none" else sorted(zone.items()) if owner == "card"
                  else enumerate(zone))
        for who, cards in places:
            if not cards or seen.zone_seers(name, who) & bit or (type(who) is int and owner == "card"
                                                                  and not card_seen(S, who, bit)):
                continue
            shown = [labels[c] for c in cards if kn.get(c, 0) & bit]
            if shown:
                key = name if who is None else f"{name}[{keys[who] if owner == 'card' else who}]"
                out[key] = sorted(shown, key=_label_order(rules).__getitem__)
    return out


def _label_order(rules) -> dict:
    """Each label's place: its first card's (kept on the ruleset)."""
    order = rules.__dict__.get("_label_order")
    if order is None:
        order = {}
        for label in rules.card_labels:
            order.setdefault(label, len(order))
        rules.__dict__["_label_order"] = order
    return order


def _shown(rules, name, value):
    """A variable as a person reads it: cards by their labels. A list of cards may hold none
    (``none`` joins any type: docs/language.md; a seat with no option in a simultaneous choice),
    which stays none."""
    typ = rules.names.vars.get(name)
    if value is None:
        return None
    if typ == "card":
        return rules.card_labels[value]
    if typ == "list[card]" and isinstance(value, list):
        labels = rules.card_labels
        return [labels[c] if c is not None else None for c in value]
    return value


def phase(S) -> str | None:
    """The name of the innermost running phase, if any."""
    for frame in reversed(S.stack):
        step = S.rules.steps[frame[0]]
        if step.kind == "phase":
            return step.name
    return None
