"""What one player may see: zones and counters by their declared visibility.

A zone or counter declares ``visible: all | owner | none``. A player sees the contents of
what is visible to all and of what they (or their team) own when it is visible to its
owner; of everything else only the number of cards. Variables are public, except those
whose name starts with an underscore. The pending decision is shown to the player who must
make it.
"""
from __future__ import annotations


def _visible(decl, owned_by_viewer: bool) -> bool:
    vis = (decl or {}).get("visible", "all")
    return vis == "all" or (vis == "owner" and owned_by_viewer)


def observe(S, player: int) -> dict:
    rules = S.rules
    labels = rules.card_labels
    team = S.tm[player] if player is not None and 0 <= player < S.n else None
    zones = {}
    for name, owner in rules.zone_owner.items():
        decl = rules.zone_decl.get(name)
        zone = S.z[name]
        if owner == "none":
            zones[name] = [labels[c] for c in zone] if _visible(decl, False) else len(zone)
        elif owner == "card":   # only the cards that hold something, by label
            zones[name] = {labels[i]: ([labels[c] for c in z] if _visible(decl, False) else len(z))
                           for i, z in sorted(zone.items()) if z}
        else:
            mine = (lambda i: i == team) if owner == "team" else (lambda i: i == player)
            zones[name] = [[labels[c] for c in z] if _visible(decl, mine(i)) else len(z) for i, z in enumerate(zone)]
    counters = {}
    for name, owner in rules.counter_owner.items():
        decl = rules.counter_decl.get(name)
        value = S.c[name]
        if owner == "none":
            counters[name] = value if _visible(decl, False) else None
        elif owner == "card":
            counters[name] = {labels[i]: v for i, v in enumerate(value) if v} if _visible(decl, False) else None
        else:
            mine = (lambda i: i == team) if owner == "team" else (lambda i: i == player)
            counters[name] = [v if _visible(decl, mine(i)) else None for i, v in enumerate(value)]
    obs = {
        "player": player,
        "players": S.n,
        "teams": [list(m) for m in S.members],
        "zones": zones,
        "counters": counters,
        "vars": {k: _shown(rules, k, v) for k, v in S.v.items() if not k.startswith("_")},
        "phase": phase(S),
        "current_player": S.current_player(),
        "over": S.over,
    }
    for frame in S.stack:   # running steps add what they hold (a trick's players, your passed cards)
        extra = S.rules.steps[frame[0]].observe(S, frame, player)
        if extra:
            obs.update(extra)
    if S.dec is not None and S.dec[0] == player:
        obs["prompt"] = S.prompt()
        obs["legal_actions"] = S.legal_actions()
    return obs


def _shown(rules, name, value):
    """A variable as a person reads it: cards by their labels."""
    typ = rules.names.vars.get(name)
    if value is None:
        return None
    if typ == "card":
        return rules.card_labels[value]
    if typ == "list[card]" and isinstance(value, list):
        return [rules.card_labels[c] for c in value]
    return value


def phase(S) -> str | None:
    """The name of the innermost running phase, if any."""
    for frame in reversed(S.stack):
        step = S.rules.steps[frame[0]]
        if step.kind == "phase":
            return step.name
    return None
