"""The table as one seat sees it, as plain data that the web page (interpreter/web/) and the
terminal (play/display/terminal.py) draw: no per-game code.

``Table(rules).render(S, seat)`` reads what ``seat`` may see (``State.observation``; a
spectator is ``None``, ``"all"`` shows everything, for reading a full log) and lays it out:

- ``shared``: the shared zones and counters, each grid market as a grid (its spaces column
  by column, each with its price and what lies on it), what a running step shows (a trick);
- ``seats``: per seat, its zones and counters (a counter moved along a track with a last
  space is drawn as that track), and what its team owns when teams are single seats;
- ``teams``: what each team owns, when teams have several seats;
- ``prompt``: who decides what; to the deciding seat, the options with their notes (a cost)
  and ``asks``, what is asked in words (play/display/ask.py);
- ``result``: the scores and winners once the game is over, the scores by category
  (``breakdown``) and what decided the ranking in words (``decided``).

Every item has its ``name`` and the ``title`` a person reads (play/display/words.py), and
``header`` the variables shown, each ``{name, title, text}``; what no seat ever sees and the
bookkeeping flags are left out. Cards are ``{"label", "color"}``; a zone the seat may not see is ``{"count"}`` only. The
``view:`` hints of the ruleset (building/view_hints.py) order, hide, collapse and colour.
"""
from __future__ import annotations

import json
from weakref import WeakKeyDictionary

from ...errors import GameError, digits
from ...engine.sight import reads_public
from ...mechanics.base import Step
from .ask import asked
from .narrate import decided_text
from .words import words_of

PALETTE = ("#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#b9770e", "#117a65", "#884ea0", "#566573")
LONG_ZONE = 40          # a shared zone with more cards is drawn as counts per label by default


_TABLES: WeakKeyDictionary = WeakKeyDictionary()


def table_of(rules) -> "Table":
    """The Table of a ruleset, built once."""
    if rules not in _TABLES:
        _TABLES[rules] = Table(rules)
    return _TABLES[rules]


class Table:
    def __init__(self, rules):
        self.rules = rules
        hints = getattr(rules, "view", None) or {}
        self.words = words_of(rules)
        self.hinted_hide = set(hints.get("hide") or ())
        self.hide = set(self.words.hidden)   # the view: hints' hide, and what no seat ever sees (play/display/words.py)
        self.vars = hints.get("vars")   # None: every public variable
        self.collapse = set(hints.get("collapse") or ())
        order = list(hints.get("order") or ())
        rank = {name: i for i, name in enumerate(order)}
        declared = [*rules.zone_owner, *rules.counter_owner]
        self.order = sorted(declared, key=lambda n: (rank.get(n, len(rank)), declared.index(n)))
        self.colors = _card_colors(rules, hints.get("colors") or {})
        self.tracks = _tracks(rules)
        self.grid_steps = [s for s in rules.steps if type(s).layout is not Step.layout]
        # a step whose prices read only what everyone sees shows them to anyone; the others only
        # to the seat deciding now (its options' costs) and to a reader of the whole log
        self.public_prices = {s.index for s in self.grid_steps
                              if s.price_access is not None and reads_public(rules, s.price_access)}
        self.board = _board_layout(rules, hints.get("board"))

    # ------------------------------------------------------------------ the whole table
    def render(self, S, seat) -> dict:
        """What ``seat`` sees of ``S`` (None: a spectator; "all": everything), as plain data."""
        obs = _everything(S) if seat == "all" else S.observation(seat)
        me = None if seat == "all" else seat
        grids = self._grids(S, me, seat == "all")
        shared: list[dict] = []
        seats: list[dict] = [{"seat": i, "items": []} for i in range(S.n)]
        teams: list[dict] = []
        by_team = any(len(m) > 1 for m in S.members) or len(S.members) != S.n
        if by_team:
            teams = [{"team": t, "seats": list(m), "items": []} for t, m in enumerate(S.members)]
        for name in self.order:
            if name in self.hide:
                continue
            if name in self.rules.zone_owner:
                self._zone(name, obs["zones"][name], grids, shared, seats, teams, S)
            else:
                self._counter(name, obs["counters"][name], shared, seats, teams, S)
        board = self._board(obs)
        if board is not None:
            shared.insert(0, board)
        extras = {k: v for k, v in obs.items() if k not in _OBS_KEYS}
        running = _running(extras, lambda p: "you" if p == me else f"seat {p}")
        for item in (*shared, *running, *(i for s in seats for i in s["items"]), *(i for t in teams for i in t["items"])):
            item["title"] = self.words.title(item["name"])
            if item["name"] in self.words.docs:
                item["doc"] = self.words.docs[item["name"]]
        shown_vars = {k: v for k, v in obs["vars"].items()
                      if v is not None and (self.vars is None or k in self.vars) and k not in self.words.quiet_vars}

        def who(p):
            return "you" if p == me else f"seat {p}"
        out = {"ruleset": self.rules.name, "title": self.rules.title, "variant": self.rules.variant,
               "players": S.n, "seat": seat, "phase": obs.get("phase"),
               "vars": shown_vars,
               "header": [{"name": k, "title": self.words.title(k), "text": self.words.value(k, v, who)}
                          for k, v in shown_vars.items()],
               "shared": shared, "seats": seats, "teams": teams, "running": running,
               "prompt": self._prompt(S, seat), "over": S.over, "result": None}
        if S.over:
            try:
                decided = self.rules.scoring.decided(S)
                out["result"] = json.loads(json.dumps({"scores": S.scores(), "winners": S.winners(),
                                                       "breakdown": S.breakdown(), "decided": decided_text(decided)}))
            except GameError:   # its scoring fails: the game ended with that error (its log's last line), no result
                pass
        return out

    def _prompt(self, S, shown_to):
        if S.dec is None:
            return None
        seat = S.dec[0]
        shown = shown_to == "all" or shown_to == seat
        step = self.rules.steps[S.stack[-1][0]]
        out = {"seat": seat, "prompt": S.prompt(), "options": None}
        me = None if shown_to == "all" else shown_to

        def who(p):
            return "you" if p == me else f"seat {p}"
        seats = S.prompt() in self.words.seat_prompts   # a choice among seats, labelled "p2"
        if shown:
            labels = S.legal_actions()
            notes = [self.words.amount(*n) if isinstance(n, tuple) else n
                     for n in step.option_notes(S, S.dec[1]) or [None] * len(labels)]
            if seats:   # each seat by its name beside its label
                notes = [note if note is not None or not digits(lab[1:]) else who(int(lab[1:]))
                         for lab, note in zip(labels, notes)]
            out["options"] = [{"index": i, "label": lab, "note": note} for i, (lab, note) in enumerate(zip(labels, notes))]
        # the figures of what is asked are the deciding seat's: others read the prompt alone
        question = step.asked(S, S.stack[-1]) if shown else None
        if seats and question:   # seats are not a range of numbers
            question = {k: v for k, v in question.items() if k not in ("low", "high")}
        out["asks"] = asked(self.words.title(S.prompt() or ""), question,
                            len(out["options"]) if shown else None, who, self.words.title)
        return out

    def _board(self, obs) -> dict | None:
        """A board as its graph: each position where it is drawn, with the shared zone the seat
        sees it in ("" where it cannot tell: only hidden zones hold it)."""
        if self.board is None:
            return None
        nodes, edges = self.board
        where: dict[str, str] = {}
        for name, owner in self.rules.zone_owner.items():
            value = obs["zones"][name]
            if owner == "none" and not isinstance(value, int) and name not in self.hinted_hide:
                for lab in value:
                    where.setdefault(lab, name)
        return {"kind": "board", "name": "board", "edges": edges,
                "nodes": [{**n, "zone": where.get(n["label"], ""), "color": self.colors.get(n["label"])} for n in nodes]}

    # ------------------------------------------------------------------ zones
    def _cards(self, labels, collapse: bool) -> dict:
        if collapse:
            counts: dict = {}
            for lab in labels:
                counts[lab] = counts.get(lab, 0) + 1
            return {"groups": [{"label": k, "color": self.colors.get(k), "count": n} for k, n in counts.items()],
                    "count": len(labels)}
        return {"cards": [{"label": lab, "color": self.colors.get(lab)} for lab in labels], "count": len(labels)}

    def _zone_item(self, name, value, owner_kind) -> dict:
        item = {"kind": "zone", "name": name}
        if isinstance(value, int):
            item.update(count=value, hidden=True)
        else:
            long = owner_kind == "none" and len(value) > LONG_ZONE and len(set(value)) < len(value)
            item.update(self._cards(value, name in self.collapse or long))
        return item

    def _zone(self, name, value, grids, shared, seats, teams, S):
        owner = self.rules.zone_owner[name]
        if owner == "none":
            if name in grids and not isinstance(value, int):
                shared.append(self._grid(name, value, grids[name], S))
            else:
                shared.append(self._zone_item(name, value, owner))
        elif owner == "card":   # what lies on each card: {card label: cards or a count}
            held = {k: (self._zone_item(name, v, owner)) for k, v in value.items()}
            if held:
                shared.append({"kind": "on_cards", "name": name, "on": held})
        else:
            for i, v in enumerate(value):
                _place(owner, i, self._zone_item(name, v, owner), seats, teams, S)

    def _grid(self, name, labels, layout, S) -> dict:
        rows = layout["rows"]
        zone, counters = S.zone(name), S.c   # (S.c: a dict read from the state's slots, taken once)
        prices = layout["prices"]
        on = {c: [(k, counters[k][card]) for k in self._card_counters if counters[k][card]]
              for c, card in enumerate(zone)}
        cols = -(-len(labels) // rows) if labels else 0
        cells = [[None] * cols for _ in range(rows)]
        for i, lab in enumerate(labels):
            card = zone[i]
            cells[i % rows][i // rows] = {"label": lab, "color": self.colors.get(lab), "price": prices.get(card),
                                          "on": [{"counter": k, "value": v} for k, v in on[i]],
                                          "at": f"c{i // rows + 1}r{i % rows + 1}"}
        pay = layout.get("pay")
        return {"kind": "grid", "name": name, "rows": rows, "cols": cols, "cells": cells, "pay": pay,
                "pay_title": self.words.title(pay) if pay else None}

    def _on_a_grid(self, name, S) -> bool:
        z = S.z
        grids = [s.zone_name for s in self.grid_steps if getattr(s, "zone_name", None) in z]
        return any(S.counter(name)[card] for g in grids for card in z[g])

    @property
    def _card_counters(self):
        """The counters owned by each card that everyone sees (drawn on a grid's spaces)."""
        public = self.rules.visibility.counter_public
        return [k for k, o in self.rules.counter_owner.items() if o == "card" and k not in self.hide and public(k)]

    def _grids(self, S, me, everything=False) -> dict:
        out = {}
        deciding = S.dec is not None and me is not None and S.dec[0] == me
        for step in self.grid_steps:
            prices = everything or deciding or step.index in self.public_prices
            try:
                layout = step.layout(S, me, prices)
            except Exception:   # noqa: BLE001 - a price that cannot be computed now is not drawn
                layout = None
            if layout and layout.get("grid") in self.rules.zone_owner and layout["grid"] not in out:
                out[layout["grid"]] = layout
        return out

    # ------------------------------------------------------------------ counters
    def _counter(self, name, value, shared, seats, teams, S):
        owner = self.rules.counter_owner[name]
        if owner == "card":   # drawn on the spaces of a grid, else listed by card
            if value and not self._on_a_grid(name, S):
                shared.append({"kind": "card_counter", "name": name, "values": value, "text": _card_values(value)})
            return
        track = self.tracks.get(name)

        def item(v):
            out = {"kind": "counter", "name": name, "value": v, "hidden": v is None}
            if track is not None:
                out["track"] = _param_value(track, S)
            if name in self.words.flags and v in (0, 1):
                out["text"] = "yes" if v else "no"   # a flag (play/display/words.py): not a number
            return out
        if owner == "none":
            shared.append(item(value))
        else:
            for i, v in enumerate(value):
                _place(owner, i, item(v), seats, teams, S)


def _card_values(values: dict) -> str:
    """A counter of each card in words: each card by its label, copies with the same value
    counted ("light 1 ×5, ring 2"), not told apart by the engine's "#12"."""
    counts: dict = {}
    for label, v in values.items():
        base, _, n = str(label).rpartition("#")
        key = (base if base and digits(n) else str(label), v)
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{label} {v}" + (f" ×{n}" if n > 1 else "") for (label, v), n in counts.items())


_OBS_KEYS = {"player", "players", "teams", "zones", "counters", "vars", "phase", "current_player", "over",
             "prompt", "legal_actions"}


def _running(extras: dict, who) -> list:
    """What running steps show (a trick in progress...), as labelled rows, each value with its
    ``text`` in words (``who(seat)`` names a seat)."""
    out = []
    if "trick" in extras:
        out.append({"kind": "trick", "name": "trick", "plays": extras.pop("trick"),
                    "leader": extras.pop("trick_leader", None), "played": extras.pop("tricks_played", None)})
    for key, value in extras.items():
        if value not in ([], {}, None):   # nothing put aside yet: nothing to draw
            out.append({"kind": "value", "name": key, "value": value, "text": _running_text(value, who)})
    return out


def _running_text(value, who) -> str:
    """What a running step shows, in words: a simultaneous choice as who has chosen (the
    seat's own choice beside it; the others' stay hidden) and who is still to choose, a list as
    its items."""
    if isinstance(value, dict) and "chosen" in value:
        chosen = [who(p) + (f" ({value['my_choice']})" if who(p) == "you" and "my_choice" in value else "")
                  for p in value["chosen"]]
        parts = [f"chosen: {', '.join(chosen)}" if chosen else "nobody has chosen yet"]
        if value.get("to_choose"):
            parts.append(f"still to choose: {', '.join(who(p) for p in value['to_choose'])}")
        return "; ".join(parts)
    if isinstance(value, dict):
        return "; ".join(f"{str(k).replace('_', ' ')}: {_running_text(v, who)}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(map(str, value)) or "-"
    return "yes" if value is True else "no" if value is False else str(value)


def _place(owner, i, item, seats, teams, S):
    if owner == "player":
        seats[i]["items"].append(item)
    elif teams:
        teams[i]["items"].append(item)
    else:   # teams of one seat: the team's things are that seat's
        seats[S.members[i][0]]["items"].append(item)


def _everything(S) -> dict:
    """An observation that hides nothing (for reading a full log)."""
    rules = S.rules
    labels = rules.card_labels
    zones: dict[str, list | dict] = {}
    zs, cs = S.z, S.c   # (dicts read from the state's slots: taken once)
    for name, owner in rules.zone_owner.items():
        zone = zs[name]
        if owner == "none":
            zones[name] = [labels[c] for c in zone]
        elif owner == "card":
            zones[name] = {rules.card_keys[i]: [labels[c] for c in z] for i, z in sorted(zone.items()) if z}
        else:
            zones[name] = [[labels[c] for c in z] for z in zone]
    counters = {}
    for name, owner in rules.counter_owner.items():
        value = cs[name]
        counters[name] = ({rules.card_keys[i]: v for i, v in enumerate(value) if v} if owner == "card"
                          else list(value) if isinstance(value, list) else value)
    obs = S.observation(None)   # public variables and what running steps show
    obs.update(zones=zones, counters=counters)
    return obs


def _board_layout(rules, axes):
    """(nodes with x, y in [0, 1], edges as index pairs) of the ruleset's board, or None. The
    positions are placed by the hinted attributes (view: board: {x, y}), else on a circle."""
    import math
    board = getattr(rules, "board", None)
    if not board:
        return None
    ids = list(board["positions"])
    index = {c: i for i, c in enumerate(ids)}
    tables = rules.attr_tables
    if axes:
        xs = [tables[axes["x"]][c] for c in ids]
        ys = [tables[axes["y"]][c] for c in ids]
        if all(isinstance(v, (int, float)) for v in xs + ys):
            def scale(vs):
                lo, hi = min(vs), max(vs)
                return [(v - lo) / (hi - lo) if hi > lo else 0.5 for v in vs]
            points = list(zip(scale(xs), scale(ys)))
        else:
            axes = None
    if not axes:
        n = max(1, len(ids))
        points = [(0.5 + 0.5 * math.cos(2 * math.pi * i / n), 0.5 + 0.5 * math.sin(2 * math.pi * i / n))
                  for i in range(len(ids))]
    nodes = [{"label": rules.card_labels[c], "x": round(x, 4), "y": round(y, 4)} for c, (x, y) in zip(ids, points)]
    edges = sorted({tuple(sorted((index[a], index[b]))) for a in ids for b in board["neighbours"][a] if b in index})
    return nodes, [list(e) for e in edges]


def _card_colors(rules, hint) -> dict:
    """label -> CSS colour: by the hinted attribute, else the first text attribute with 2 to 8 values."""
    tables = rules.attr_tables
    by = hint.get("by")
    if by is None:
        for attr, typ in rules.cards.attr_types.items():
            if typ != "str":   # (a list-valued attribute's values are not even hashable)
                continue
            values = {v for v in tables[attr] if v is not None}
            if 2 <= len(values) <= len(PALETTE) and (attr != "kind" or len(values) > 1):
                by = attr
                break
    if by is None:
        return {}
    shown = sorted({str(v) for v in tables[by] if v is not None})
    chosen = {v: hint.get("map", {}).get(v) or PALETTE[i % len(PALETTE)] for i, v in enumerate(shown)}
    return {lab: chosen[str(v)] for lab, v in zip(rules.card_labels, tables[by]) if v is not None}


def _tracks(rules) -> dict:
    """counter -> its last space, for each counter an ``advance`` effect moves with a ``max:``."""
    found: dict = {}

    def walk(node):
        if isinstance(node, dict):
            spec = node.get("advance")
            if isinstance(spec, dict) and isinstance(spec.get("counter"), str) and "max" in spec:
                name = spec["counter"].split("[")[0].split(".")[-1].strip()
                if name in rules.counter_owner:
                    found.setdefault(name, spec["max"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(rules.data)
    return found


def _param_value(expr, S):
    """A track's last space: a number, or ``params.NAME`` read from the game's parameters."""
    if isinstance(expr, int):
        return expr
    text = str(expr).strip()
    if text.startswith("params.") and isinstance(S.p.get(text[7:]), int):
        return S.p[text[7:]]
    return None
