"""One visibility model: the table a ruleset builds once (``Ruleset.visibility``,
engine/visibility.py) says, for each zone, counter and variable instance, which seats see it;
every reader agrees with it. For every bundled ruleset and variant and the docs/examples
rulesets, at every player count, over a random game: what ``observation(seat)`` shows, what
each tensor encoder writes (the reference, the per-seat and the shared one), the tensor's
private pieces, what a redacted log keeps of each event, what knowledge records and what a
determinization keeps, who can tell a choice stored in a private variable, and what the
viewer's table (play/display/table.py) shows each seat and a spectator. The table
itself is checked against the documented rules (docs/reference.md, "Zones" and "Counters
and variables")."""
from __future__ import annotations

import random
import textwrap
from pathlib import Path

import numpy as np
import pytest
import yaml

import interpreter
from interpreter.engine.sight import Choice, card_seen, reads_public
from interpreter.engine.visibility import ALL, SPECTATOR, bit
from interpreter.errors import GameError
from interpreter.play.display.table import table_of
from interpreter.play.logs.redact import Redactor
from interpreter.adapters.seat_encoder import compile_seat
from interpreter.adapters.shared_encoder import compile_shared
from interpreter.engine.saved import order_keys
from interpreter.adapters.tensors import layout
from helpers import ONE_DECISION, bundled

ROOT = Path(__file__).resolve().parent.parent

# every combination of owner and visibility, and a private variable, on a ruleset written for it
EVERY = """
game: every_sight
players: {min: 2, max: 4}
teams: {by_players: {'2': [[0, 1]], '3': [[0, 2], [1]], '4': [[0, 2], [1, 3]]}}
components:
  cards: {attributes: {suit: [A, B], rank: 1..8}, label: "{rank}{suit}"}
zones:
  deck: {start: [cards], visible: none}
  open: {visible: all}
  shut: {visible: owner}
  hand: {owner: player, visible: owner}
  shown: {owner: player, visible: all}
  hidden: {owner: player, visible: none}
  vault: {owner: team, visible: owner}
  banner: {owner: team, visible: all}
  crypt: {owner: team, visible: none}
  under: {owner: card, visible: all}
  beneath: {owner: card, visible: owner}
  inside: {owner: card, visible: none}
counters:
  pot: 1
  dark: {start: 2, visible: none}
  mine: {start: 3, visible: owner}
  gold: {owner: player, start: 3, visible: owner}
  fame: {owner: player, start: 1}
  ghost: {owner: player, start: 1, visible: none}
  purse: {owner: team, start: 2, visible: owner}
  flag: {owner: team, start: 4, visible: all}
  rune: {owner: team, start: 5, visible: none}
  mark: {owner: card, visible: all}
  seal: {owner: card, visible: owner}
  curse: {owner: card, visible: none}
vars:
  _secret: {type: int, start: 0}
  told: {type: int, start: 0}
  _kept: card
flow:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 3}
  - repeat: 3
    steps:
      - turns:
          steps:
            - random: {var: _secret, from: "[1, 2, 3]"}
            - move: {from: deck, to: open, count: 1}
            - set: {told: "told + 1"}
            - gain: {counter: gold, amount: _secret}
            - gain: {counter: fame, amount: 1}
            - gain: {counter: ghost, amount: 1}
            - gain: {counter: purse, amount: 1}
            - gain: {counter: flag, amount: 1}
            - gain: {counter: rune, amount: 1}
            - gain: {counter: pot, amount: 1}
            - gain: {counter: dark, amount: 1}
            - gain: {counter: mine, amount: 1}
            - move: {from: deck, to: shown, count: 1}
            - move: {from: deck, to: hidden, count: 1}
            - move: {from: deck, to: vault, count: 1}
            - move: {from: deck, to: banner, count: 1}
            - move: {from: deck, to: crypt, count: 1}
            - move: {from: deck, to: shut, count: 1}
            - move: {from: deck, to: "under[first(open)]", count: 1}
            - move: {from: deck, to: "beneath[first(open)]", count: 1}
            - move: {from: deck, to: "inside[first(open)]", count: 1}
            - gain: {counter: "mark[first(open)]", amount: 1}
            - gain: {counter: "seal[first(open)]", amount: 1}
            - gain: {counter: "curse[first(open)]", amount: 1}
            - choose: {options: hand, as: _kept, prompt: keep}
            - pick: {from: hand, to: open, count: 1, prompt: play}
            - move: {from: deck, to: hand, count: 1}
      - gather: {from: [open, shown, banner], to: deck}
      - shuffle: deck
  - gather: {from: [hand, shut, vault], to: open}
scoring:
  categories: {fame: fame}
"""

# a grid market with a counter on each space seen by all, one by no seat, one "by its owner" (a card: no seat)
GRID = """
game: grid_sight
players: {min: 2, max: 3}
components:
  space: {attributes: {n: 1..6}, label: "s{n}"}
zones:
  market: {start: [space]}
counters:
  coins: {owner: player, start: 9}
  paid: {owner: card}
  secret: {owner: card, visible: none}
  sealed: {owner: card, visible: owner}
flow:
  - repeat: 2
    steps:
      - turns:
          steps:
            - grid:
                zone: market
                rows: 2
                where: "paid == 0"
                cost: "1 + count(neighbours where paid > 0)"
                pay: coins
                mark: paid
                as: bought
                prompt: buy
                then: [{gain: {counter: "secret[space]", amount: 2}}, {gain: {counter: "sealed[space]", amount: 3}}]
scoring:
  categories: {coins: coins}
"""


def _variants(path: Path) -> list:
    return [None, *((yaml.safe_load(path.read_text()) or {}).get("variants") or {})]


RULESETS = [*sorted((ROOT / "rulesets").glob("*.yaml")), *sorted((ROOT / "docs" / "examples").glob("*.yaml"))]
CASES = [(path, variant) for path in RULESETS for variant in _variants(path)]
IDS = [f"{p.stem}{'-' + v if v else ''}" for p, v in CASES]


@pytest.fixture(scope="module")
def every(tmp_path_factory):
    path = tmp_path_factory.mktemp("every") / "every_sight.yaml"
    path.write_text(textwrap.dedent(EVERY))
    return interpreter.load(path)


# ---------------------------------------------------------------------- the table
def documented(decl, kind, owner, members) -> int:
    """The seats that see an instance by docs/reference.md: all, its owner's seats, or none."""
    vis = (decl or {}).get("visible", "all")
    if vis == "all":
        return ALL
    if vis == "owner" and kind == "player":
        return 1 << owner
    if vis == "owner" and kind == "team":
        return sum(1 << p for p in members[owner])
    return 0


def instances(kind, members, ncards):
    players = sum(map(len, members))
    return {"none": [None], "player": range(players), "team": range(len(members)), "card": range(ncards)}[kind]


def check_table(rules, players):
    members = rules.team_members(players)
    vis, seen = rules.visibility, rules.visibility.seen(members)
    ncards = len(rules.card_labels)
    for table, owners, decls, seers in (("zone", rules.zone_owner, rules.zone_decl, seen.zone_seers),
                                        ("counter", rules.counter_owner, rules.counter_decl, seen.counter_seers)):
        for name, kind in owners.items():
            for owner in instances(kind, members, ncards):
                assert seers(name, owner) == documented(decls.get(name), kind, owner, members), (table, name, owner)
            public = (decls.get(name) or {}).get("visible", "all") == "all"
            assert (vis.zone_public if table == "zone" else vis.counter_public)(name) == public
    for name in rules.names.vars:
        assert vis.var_seers(name) == (0 if name.startswith("_") else ALL)
    assert seen is vis.seen([list(m) for m in members])   # built once per team assignment


# ---------------------------------------------------------------------- the readers
def check_observation(S, seat):
    rules, seen = S.rules, S.rules.visibility.seen(S.members)
    me = bit(seat)
    obs = S.observation(seat)
    for name, kind in rules.zone_owner.items():
        got, zone = obs["zones"][name], S.z[name]
        if kind == "none":
            assert isinstance(got, list) == bool(seen.zone_seers(name, None) & me), name
        elif kind == "card":   # (by the card's key: its label, or LABEL#k where labels repeat)
            shows = {rules.card_keys[card]: bool(seen.zone_seers(name, card) & me) for card, h in sorted(zone.items())
                     if h and card_seen(S, card, me)}   # (on a card the seat does not see: left out)
            assert {label: isinstance(shown, list) for label, shown in got.items()} == shows, name
        else:
            for owner, shown in enumerate(got):
                assert isinstance(shown, list) == bool(seen.zone_seers(name, owner) & me), (name, owner)
                assert (shown if isinstance(shown, int) else len(shown)) == len(zone[owner])
    for name, kind in rules.counter_owner.items():
        got = obs["counters"][name]
        if kind in ("none", "card"):
            assert (got is not None) == bool(seen.counter_seers(name, 0 if kind == "card" else None) & me), name
        else:
            for owner, value in enumerate(got):
                assert (value is not None) == bool(seen.counter_seers(name, owner) & me), (name, owner)
    for name in S.v:
        assert (name in obs["vars"]) == bool(rules.visibility.var_seers(name) & me), name


def expected_tensor(L, S, seat) -> dict:
    """piece name -> (the values the table lets ``seat`` see, or None where it must be zeros)."""
    rules, seen = S.rules, S.rules.visibility.seen(S.members)
    me, team, ncards = 1 << seat, S.tm[seat], len(rules.card_labels)
    out = {}
    labels = rules.card_labels
    for name, kind, pos, blocks, _ in L.zones:
        held = sum(1 for i in pos if i >= 0)
        slots: dict = {}   # label -> its cards' places in the block, in card order
        for c, i in enumerate(pos):
            if i >= 0:
                slots.setdefault(labels[c], []).append(i)
        owners = {"player": S.n, "team": len(S.members)}.get(kind)
        for j, _hot, _size in blocks:
            suffix = f"+{j}" if owners else ""
            if kind == "card":
                cards = [c for o, h in S.z[name].items() for c in h if card_seen(S, o, me)]   # on cards it sees
                sees = seen.zone_seers(name, 0) & me
            else:
                owner = ((seat if kind == "player" else team) + j) % owners if owners else None
                cards = S.z[name] if owner is None else S.z[name][owner]
                sees = seen.zone_seers(name, owner) & me
            hot = np.zeros(held, np.float32)
            copies: dict = {}   # a seat sees labels: k copies of a label fill its first k places
            for c in cards:
                copies[labels[c]] = copies.get(labels[c], 0) + 1
            for label, k in copies.items():
                hot[slots[label][:k]] = 1.0
            out[f"zone:{name}{suffix}"] = hot if sees else None
    for name, kind, _offset, _ in L.counters:
        values = S.c[name]
        if kind == "none":
            out[f"counter:{name}"] = [values if seen.counter_seers(name, None) & me else None]
        elif kind == "card":
            out[f"counter:{name}"] = [v if card_seen(S, c, me) else None for c, v in enumerate(values)] \
                if seen.counter_seers(name, 0) & me else [None] * ncards
        else:
            mine = seat if kind == "player" else team
            owners = len(values)
            out[f"counter:{name}"] = [values[(mine + j) % owners] if seen.counter_seers(name, (mine + j) % owners) & me
                                      else None for j in range(owners)]
    return out


def check_tensor(L, S, seat, tensor):
    want = expected_tensor(L, S, seat)
    for name, offset, size in L.pieces:
        got = tensor[offset:offset + size]
        if name.startswith("var:"):
            assert S.rules.visibility.var_public(name[4:]), name   # a private variable has no piece
        if name not in want:
            continue
        if name.startswith("zone:"):
            expect = want[name] if want[name] is not None else np.zeros(size, np.float32)
            assert (got == expect).all(), (name, seat)
        else:
            expect = np.array([0.0 if v is None else v for v in want[name]], np.float32)
            assert (got == expect).all(), (name, seat)


def check_private_pieces(L, S):
    """The pieces the viewer sees and a spectator does not: what OpenSpiel's public observer zeros."""
    private = {i for offset, size in L.private_pieces() for i in range(offset, offset + size)}
    seat = 0
    want = expected_tensor(L, S, seat)
    spectator = set()
    vis = S.rules.visibility
    for name, offset, size in L.pieces:
        if name.startswith("zone:") and want[name] is not None and not vis.zone_public(name[5:].split("+")[0]):
            spectator.update(range(offset, offset + size))
        if name.startswith("counter:") and not vis.counter_public(name[8:]):
            spectator.update(offset + j for j, v in enumerate(want[name]) if v is not None)
    assert private == spectator


def _shown_labels(item) -> list | None:
    """The card labels a viewer's zone item shows (None: only its count)."""
    if "cards" in item:
        return [c["label"] for c in item["cards"]]
    if "groups" in item:
        return [g["label"] for g in item["groups"] for _ in range(g["count"])]
    if "cells" in item:
        return [c["label"] for row in item["cells"] for c in row if c is not None]
    return None


def _viewer_items(view, S):
    """(item, owner) for each item the viewer draws for a zone or counter: owner None for a shared
    one, a seat or a team, or the card's key for what lies on a card."""
    rules = S.rules
    for item in view["shared"]:
        if item["kind"] == "on_cards":
            yield from ((held, key) for key, held in item["on"].items())
        elif item["kind"] != "board":
            yield item, None
    for s in view["seats"]:
        for item in s["items"]:   # a team's things sit with its one seat when teams are single seats
            yield item, s["seat"] if rules.zone_owner.get(item["name"], rules.counter_owner.get(item["name"])) == "player" \
                else S.tm[s["seat"]]
    for t in view["teams"]:
        yield from ((item, t["team"]) for item in t["items"])


def check_viewer(S, seat, table):
    """What the viewer's table shows ``seat`` (None: a spectator) of each zone, counter and
    variable instance: its cards, value or variable where the table says the seat sees it, else
    a count of cards, nothing of a counter, no variable."""
    rules, seen = S.rules, S.rules.visibility.seen(S.members)
    me, keys = bit(seat), {key: card for card, key in enumerate(rules.card_keys)}
    view = table.render(S, seat)
    drawn = set()
    for item, owner in _viewer_items(view, S):
        name = item["name"]
        if name in rules.zone_owner:
            kind = rules.zone_owner[name]
            card = keys[owner] if kind == "card" else owner
            cards = S.z[name] if kind == "none" else S.z[name][card]
            shown, sees = _shown_labels(item), bool(seen.zone_seers(name, card) & me)
            assert kind != "card" or card_seen(S, card, me), (name, owner, seat)   # shown by a card the seat sees
            assert (shown is not None) == sees and item.get("hidden", False) != sees, (name, owner, seat)
            assert sorted(shown or ()) == (sorted(rules.card_labels[c] for c in cards) if sees else []), (name, owner, seat)
            assert item.get("count", len(cards)) == len(cards), (name, owner, seat)
            for cell in (c for row in item.get("cells", ()) for c in row if c is not None):
                for on in cell["on"]:   # the counters lying on a grid's space
                    assert seen.counter_seers(on["counter"], 0) & me, (name, on, seat)
                if cell["price"] is not None and (S.dec is None or seat != S.dec[0]):   # a price told to all
                    assert all(reads_public(rules, g.price_access) for g in table.grid_steps
                               if g.zone_name == name), (name, cell, seat)
            drawn.add((name, owner))
        elif item["kind"] == "card_counter":
            assert seen.counter_seers(name, 0) & me, (name, seat)
            assert item["values"] == {rules.card_keys[c]: v for c, v in enumerate(S.c[name])
                                      if v and card_seen(S, c, me)}, (name, seat)
        elif name in rules.counter_owner:
            value = S.c[name] if owner is None else S.c[name][owner]
            sees = bool(seen.counter_seers(name, owner) & me)
            assert item["value"] == (value if sees else None) and item["hidden"] != sees, (name, owner, seat)
            drawn.add((name, owner))
    for item in view["shared"]:   # a board's position coloured by a zone holding it that the seat sees
        for node in item.get("nodes", ()):
            assert not node["zone"] or seen.zone_seers(node["zone"], None) & me, (node, seat)
    # every shared, player's and team's instance is drawn, unless the viewer hides the name
    for name, kind in (*rules.zone_owner.items(), *rules.counter_owner.items()):
        if kind != "card" and name not in table.hide:
            for owner in instances(kind, S.members, 0):
                assert (name, owner) in drawn, (name, owner, seat)
    told = S.observation(seat)["vars"]   # (a variable's value as the observation writes it: a card's label...)
    for name, value in view["vars"].items():
        assert rules.visibility.var_seers(name) & me and value == told[name], (name, seat)
    if view["prompt"] is not None:   # the options only to the seat that decides
        assert (view["prompt"]["options"] is not None) == (seat == S.dec[0]), seat


def counter_owner(rules, members, name, ev, key):
    if key in ev:
        return ev[key]
    kind, who = rules.counter_owner.get(name), ev.get("who")
    if kind == "player":
        return who
    if kind == "team":
        return next((t for t, m in enumerate(members) if who in m), None)
    return None


def logged_seers(rules, seen, zone, owner) -> int:
    """Who an event moving cards out of or into ``zone`` of ``owner`` shows them to: those who see
    the zone, and of a zone of each card, only when the card's component lies nowhere else than
    in zones visible to all (a log line keeps no state to tell where the card was)."""
    if rules.zone_owner.get(zone) == "card" and not always_seen(rules, owner):
        return 0
    return seen.zone_seers(zone, owner)


def logged_counter_seers(rules, seen, name, owner) -> int:
    """Who an event changing counter ``name`` of ``owner`` tells how much: those who see it, and
    of a counter of each card, only when the card is always seen (as ``logged_seers``)."""
    if rules.counter_owner.get(name) == "card" and owner is not None and not always_seen(rules, owner):
        return 0
    return seen.counter_seers(name, owner)


def always_seen(rules, card) -> bool:
    """Whether every zone that can hold ``card``'s component is visible to all and no card's."""
    if type(card) is not int:
        return False
    kind = rules.cards.kinds[card]
    places = [z for z in rules.zone_owner if kind in rules.zone_holds.get(z, {kind})]
    return all(rules.zone_owner[z] != "card" and rules.visibility.zone_public(z) for z in places)


def check_redacted(S, ev, seat):
    """What seat ``seat`` (None: a spectator) keeps of engine event ``ev``, by the table."""
    rules, seen = S.rules, S.rules.visibility.seen(S.members)
    me = bit(seat)
    out = Redactor(rules, seat, S.members).event(ev)
    kind = ev.get("ev")
    if "cards" in ev or "card" in ev:
        froms, to = ev.get("from"), ev.get("to")
        if froms is None and to is None:
            sees = True   # cards named aloud, in no zone
        else:   # seen leaving (a gather: every instance of each zone it empties) or arriving
            if isinstance(froms, list):   # (docs/simulation.md: each zone visible to all)
                left = all(rules.visibility.zone_public(z) for z in froms)
            else:
                left = froms is not None and logged_seers(rules, seen, froms, ev.get("from_owner")) & me
            sees = bool(left or (to is not None and logged_seers(rules, seen, to, ev.get("to_owner")) & me))
            sees = sees or (kind == "show" and seat == ev["shown_to"])   # shown to that seat alone
        assert ("cards" in out or "card" in out) == sees, (ev, out, seat)
    elif kind in ("gain", "lose", "pay", "set_counter", "advance", "transfer"):
        # the counters it changes: seen (of a card, only one always seen), else named nowhere in it
        keys = (("from", "from_owner"), ("to", "to_owner")) if kind == "transfer" else \
            (("counter", "owner"), *((("to", "to_owner"),) if kind == "pay" and "to" in ev else ()))
        sides = [bool(logged_counter_seers(rules, seen, ev.get(k), counter_owner(rules, S.members, ev.get(k), ev, o)) & me)
                 for k, o in keys]
        if not any(sides):   # a change it cannot see: not told
            assert out is None, (ev, out, seat)
        else:
            assert out.get("hidden", False) != all(sides), (ev, out, seat)
            assert all(k not in out for (k, _), s in zip(keys, sides) if not s), (ev, out, seat)
    elif kind in ("set", "random"):
        assert ("value" in out) == bool(rules.visibility.var_seers(ev.get("var")) & me), (ev, out, seat)


def check_knowledge(S):
    """Knowledge records, for a card, only seats that do not see the zone instance it lies in."""
    seen = S.rules.visibility.seen(S.members)
    where = {}
    for name, kind in S.rules.zone_owner.items():
        zone = S.z[name]
        for owner, cards in [(None, zone)] if kind == "none" else (zone.items() if kind == "card" else enumerate(zone)):
            for c in cards:
                where[c] = (name, owner)
    for card, mask in S.kn.items():
        if isinstance(card, str) and card[:1] == "@":   # seats told of a card in a zone: not its order (copies.py)
            assert card in order_keys(S.rules, S.n, len(S.members)) and 0 < mask < 1 << S.n, (card, mask)
            continue
        if isinstance(card, str):   # a private variable whose value these seats know: their own choice (beliefs.py)
            assert card[:1] == "_" and not S.rules.visibility.var_seers(card) and 0 < mask < 1 << S.n, (card, mask)
            continue
        assert card in where, card
        assert mask & seen.zone_seers(*where[card]) & ((1 << S.n) - 1) == 0, (card, mask, where[card])


def check_determinized(S, seat, rnd):
    """A determinization keeps every zone instance the seat sees (and deals again the others)."""
    try:
        D = S.determinize(seat, rnd)
    except GameError:   # no deal lets another seat be asked the same question: nothing to check
        return
    seen = S.rules.visibility.seen(S.members)
    for name, kind in S.rules.zone_owner.items():
        zone, dealt = S.z[name], D.z[name]
        for owner, cards in [(None, zone)] if kind == "none" else (zone.items() if kind == "card" else enumerate(zone)):
            if seen.zone_seers(name, owner) & (1 << seat):
                got = dealt if owner is None else dealt.get(owner, []) if kind == "card" else dealt[owner]
                assert got == cards, (name, owner, seat)


def play_and_check(rules, players, seed, steps=160, every=40):
    check_table(rules, players)
    L = layout(rules, players)
    kept: list = []   # (shared by the seats' encoders, as one consumer's are)
    S = rules.new_game(players, seed, record=True, knowledge=True)
    table = table_of(rules)
    seats = {p: L.copies_alike(compile_seat(L, p, S.tm[p], kept)) for p in range(players)}
    shared = L.copies_alike(compile_shared(L))
    rnd = random.Random(seed)
    for k in range(steps + 1):
        for ev in S.ev:
            for seat in (*range(players), None):
                check_redacted(S, ev, seat)
        S.ev = []
        check_knowledge(S)
        if k % every == 0 or S.over or k == steps:
            for seat in (*range(players), None):
                check_observation(S, seat)
                check_viewer(S, seat, table)
            for seat in range(players):
                for tensor in (L.encode(S, seat), seats[seat](S, seat), shared(S, seat)):
                    check_tensor(L, S, seat, np.asarray(tensor))
            check_private_pieces(L, S)
            check_determinized(S, k % players, random.Random(k))
        if S.over:
            return
        step = rules.steps[S.stack[-1][0]]
        i = rnd.randrange(len(S.dec[1]))
        var = step.choice_var()
        if var is not None and not rules.visibility.var_public(var):
            assert Choice.pending(S, i).mask() == 0   # nobody but the chooser tells a private choice
        S.apply_index(i)


@pytest.mark.parametrize("path, variant", CASES, ids=IDS)
def test_every_reader_agrees_with_the_visibility_table(path, variant):
    rules = bundled(path, variant)
    for players in rules.player_counts:
        play_and_check(rules, players, seed=players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_owner_and_visibility_agree_with_the_table(every, players):
    play_and_check(every, players, seed=players, steps=400, every=7)


@pytest.mark.parametrize("cost", ["1 + count(neighbours where paid > 0)", "1 + secret"])
def test_a_grid_shows_on_its_spaces_only_the_counters_the_table_lets_a_seat_see(tmp_path, cost):
    """A grid draws on its spaces the card counters the seat sees, and its prices to every seat only
    where they read nothing hidden (else to the seat deciding alone)."""
    path = tmp_path / "grid_sight.yaml"
    path.write_text(GRID.replace("1 + count(neighbours where paid > 0)", cost))
    grid = interpreter.load(path)
    for players in (2, 3):
        play_and_check(grid, players, seed=players, every=1)


def test_the_table_follows_the_documented_rules_for_every_combination(every):
    seen = every.visibility.seen(every.team_members(4))   # teams [0, 2] and [1, 3]
    assert seen.zone_seers("vault", 0) == 0b0101 and seen.zone_seers("vault", 1) == 0b1010
    assert seen.zone_seers("hand", 2) == 0b100 and seen.zone_seers("shown", 2) == ALL
    assert seen.zone_seers("beneath", 5) == 0 and seen.zone_seers("under", 5) == ALL
    assert seen.zone_seers("shut", None) == 0 and seen.zone_seers("open", None) == ALL
    assert seen.counter_seers("purse", 1) == 0b1010 and seen.counter_seers("rune", 1) == 0
    assert seen.counter_seers("mine", None) == 0 and seen.counter_seers("seal", 3) == 0
    # every instance at once (a gather of every owner's cards): seen when all are public
    assert seen.zone_seers("hand", None) == 0 and seen.zone_seers("banner", None) == ALL
    assert every.visibility.seen(every.team_members(2)).zone_seers("vault", None) == 0   # (one team: both seats)
    # an owner that names no instance (a log's field, untrusted) is seen by nobody
    for owner in (-1, 4, 1024, True, "0"):
        assert seen.zone_seers("hand", owner) == 0 and seen.counter_seers("gold", owner) == 0
    assert not SPECTATOR & seen.zone_seers("hand", 0) and SPECTATOR & ALL
    assert every.visibility.var_seers("_secret") == 0 and every.visibility.var_seers("told") == ALL


def test_a_seat_owning_no_instance_is_told_nothing_by_a_crafted_owner(every):
    """A redacted log read with an owner past the last seat (a crafted line): the spectator's
    bit is no seat's, so a hidden zone of owner 1024 stays hidden from a spectator too."""
    S = every.new_game(2, 1)
    ev = {"ev": "move", "cards": [0], "from": "deck", "to": "hand", "to_owner": 1024}
    assert "cards" not in Redactor(every, None, S.members).event(ev)
    gain = {"ev": "gain", "counter": "gold", "owner": 1024, "amount": 3}
    assert Redactor(every, None, S.members).event(gain) is None   # (not told: left out of its line)


SHARED_LABELS = """
game: shared_labels
players: {min: 2, max: 2}
components:
  space: {attributes: {tone: [light, light, dark]}, label: "{tone}"}
zones:
  spaces: {owner: none, visible: all, start: [space]}
  on: {owner: card, visible: all}
counters:
  filled: {owner: card, visible: all}
setup:
  - for_each: {in: spaces, as: s, do: [{gain: {counter: "filled[s]"}}]}
""" + ONE_DECISION


def test_cards_sharing_a_label_keep_an_entry_each_in_an_observation(tmp_path):
    """What each card holds is listed under the card's key: its label, or LABEL#k where several
    cards share a label (two spaces "light" are light#1 and light#2, not one entry)."""
    path = tmp_path / "shared.yaml"
    path.write_text(SHARED_LABELS)
    rules = interpreter.load(path)
    assert rules.card_keys == ("light#1", "light#2", "dark")
    S = rules.new_game(2, 0)
    assert S.observation(0)["counters"]["filled"] == {"light#1": 1, "light#2": 1, "dark": 1}


def test_an_attribute_named_kind_is_a_located_error_even_in_a_label(tmp_path):
    """``kind`` is the component's name; an attribute of that name is refused where it is
    declared (it once crashed the label's formatting first, with a raw TypeError)."""
    path = tmp_path / "kind.yaml"
    path.write_text(SHARED_LABELS.replace("tone", "kind"))
    with pytest.raises(interpreter.RulesetError, match=r"kind.yaml:5:\d+: error\[reserved\]: 'kind' is reserved"):
        interpreter.load(path)
