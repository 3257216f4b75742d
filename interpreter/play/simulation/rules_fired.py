"""Rule coverage of a batch: which rules fired in how many games, which never did.

A game played with a ruleset built with coverage counters (``building/coverage.py``) gives its
record a ``coverage`` entry: the counters it moved (``p``: probe index -> count), and the
cards that entered each zone (``e``: "zone|component|label" strings, from the game's
events). ``report()`` adds the records of a batch up:

- every probe with the games it fired in and how often in all;
- ``never``: the rules that never fired (effect lists, branches, steps, options, scoring
  categories), each with its YAML location: a rule that never fires in a batch of random
  games is a bug until shown otherwise;
- ``ran_out``: draws that found their zone short, with the games they happened in;
- ``no_option``: choices that had nothing to offer and were skipped, where the step does not
  say ``if_none:`` (an author who writes it meant it), with the games they happened in;
- ``gaps``: zones that received cards of a component in the batch but never some of its
  labels (only where at least two of its labels came and at most half are missing): a
  bonus card never awarded, a building never turned over to a forest. A zone that received
  cards only before a game's first decision is not checked: what the setup puts there (the
  cards a smaller table leaves out, a hand dealt once) is its choice, not a rule that failed
  to fire.
"""
from __future__ import annotations

from collections import Counter


class CardMoves(list):
    """``S.ev`` of a game played with coverage: each event's cards taken as it comes
    (``entered``, and the zones that received cards after the setup: ``in_play``), none kept, so
    a whole game of millions of events holds no list of them (engine/events.py)."""
    __slots__ = ("entered", "in_play", "setup", "labels", "kinds")

    def __init__(self, rules) -> None:
        super().__init__()
        self.entered: set[str] = set()
        self.in_play: set[str] = set()
        self.setup = True   # (until the game is set up)
        self.labels, self.kinds = rules.card_labels, rules.cards.kinds

    def append(self, ev) -> None:
        to = ev.get("to")
        if isinstance(to, str) and isinstance(ev.get("cards"), (list, tuple)):
            labels, kinds = self.labels, self.kinds
            self.entered.update(f"{to}|{kinds[c]}|{labels[c]}" for c in ev["cards"] if isinstance(c, int))
            if not self.setup:
                self.in_play.add(to)


class GameCoverage:
    """The coverage of one game: made before the game starts (``new_game(..., record=
    cov.events)``, so that its events give the cards' moves), ``started(S)`` once it is set up,
    ``finish(S)`` at its end (a game that fails gives none: what it did not reach is no rule
    that never fires)."""

    def __init__(self, rules):
        self.rules = rules
        self.before = list(rules.probes.counts)
        self.events = CardMoves(rules)

    def started(self, S) -> None:
        self.events.setup = False

    def finish(self, S) -> dict:
        probes = self.rules.probes
        fired = {i: n - b for i, (n, b) in enumerate(zip(probes.counts, self.before)) if n != b}
        if S.over:
            cats = [i for i, p in enumerate(probes.items) if p.kind == "category"]
            for i, row in zip(cats, zip(*[list(b.values()) for b in S.breakdown()])):
                if any(v for v in row):
                    fired[i] = fired.get(i, 0) + 1
        S.ev = None
        seen = self.events
        return {"p": {str(i): n for i, n in sorted(fired.items())}, "e": sorted(seen.entered), "z": sorted(seen.in_play)}


DETECTORS = ("ran_out", "no_option")   # points that watch for a problem, not rules meant to fire


def report(rules, records: list[dict]) -> dict:
    """The batch's coverage from its records (those played with coverage)."""
    probes = rules.probes.items
    games = [0] * len(probes)
    total = [0] * len(probes)
    entered: Counter = Counter()
    in_play: set | None = set()   # the zones that received cards in play (None: a record does not say)
    played = 0
    for rec in records:
        cov = rec.get("coverage")
        if not cov:
            continue
        played += 1
        for i, n in cov.get("p", {}).items():
            games[int(i)] += 1
            total[int(i)] += n
        entered.update(cov.get("e", ()))
        if in_play is not None:
            in_play = in_play | set(cov["z"]) if "z" in cov else None
    table = [{"kind": p.kind, "what": p.what, "loc": str(p.loc) if p.loc else None, "games": g, "count": c}
             for p, g, c in zip(probes, games, total)]
    never = [row for row in table if row["games"] == 0 and row["kind"] not in DETECTORS] if played else []
    # (no game played to its end: none said never to fire in 0 games)
    ran_out = [row for row in table if row["games"] > 0 and row["kind"] == "ran_out"]
    no_option = [row for row in table if row["games"] > 0 and row["kind"] == "no_option"]
    return {"games": played, "probes": table, "never": never, "ran_out": ran_out, "no_option": no_option,
            "gaps": _gaps(rules, entered, played, rules.probes.smap, in_play)}


def _gaps(rules, entered: Counter, played: int, smap=None, in_play: set | None = None) -> list[dict]:
    """Zones that took cards of a component but never some of that component's labels, each
    located at the zone's declaration; of the zones in ``in_play`` only, when it is given."""
    labels_of: dict = {}
    for c, kind in enumerate(rules.cards.kinds):
        labels_of.setdefault(kind, set()).add(rules.card_labels[c])
    came: dict = {}
    for key in entered:
        zone, kind, label = key.split("|", 2)
        came.setdefault((zone, kind), set()).add(label)
    out = []
    for (zone, kind), labels in sorted(came.items()):
        if in_play is not None and zone not in in_play:
            continue
        missing = sorted(labels_of.get(kind, set()) - labels)
        if len(labels) >= 2 and missing and len(missing) <= len(labels_of[kind]) / 2:
            loc = smap.key_loc(("zones", zone)) if smap is not None else None
            out.append({"zone": zone, "component": kind, "missing": missing, "received": len(labels),
                        "games": played, "loc": str(loc) if loc else None})
    return out
