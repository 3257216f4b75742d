"""A log redacted for a seat shows no more than that seat's observations (issue #16): what it
reveals up to each decision is a function of what the seat has observed so far.

Two checks, on the four seed games and on HUSH, a small ruleset built to stress redaction
(hidden hands, a face-down pile and vaults, a counter visible only to its owner changed by
gain, lose and transfer, a private variable set at random, forced moves of hidden cards, a
choice naming two hidden cards):

- twins: two games identical but for facts the seat cannot observe (two cards swapped between
  zones hidden from it, right after the deal; a hidden counter changed) are driven with the
  same choices; as long as the seat's observations agree, its redacted logs agree line by line;
- direct: every card label a redacted log shows appears in an observation of the seat so far
  (or moves through a zone visible to all), every counter amount shown is of a counter its
  observation shows, every variable value shown is of a public variable.
"""
from __future__ import annotations

import json
import random

import pytest

import interpreter
from interpreter.engine.loop import reask
from interpreter.engine.sight import counter_seers, zone_seers
from interpreter.play import agents
from interpreter.play.logs import gamelog, replay
from interpreter.play.logs.redact import HIDDEN, Redactor
from helpers import bundled, tiny_ruleset, write_log

HUSH = """
game: hush
players: {min: 2, max: 4}
auto_forced: true                     # a decision with one option is a forced move
components:
  cards: {attributes: {suit: [A, B, C], rank: "1..8"}, label: "{rank}{suit}"}
zones:
  deck:  {visible: none, start: [cards]}
  hand:  {owner: player, visible: owner, sorted: true}
  vault: {owner: player, visible: owner}
  pile:  {visible: none}              # face down, shared
  table: {visible: all}
counters:
  gold: {owner: player, start: 3, visible: owner}
vars:
  _secret: int
  _pair: list[card]
  shown: card
flow:
  - repeat: 4
    steps:
      - gather: {from: [hand, vault, pile, table], to: deck}
      - shuffle: deck
      - deal: {from: deck, to: hand, count: 5}
      - turns:
          steps:
            - random: {var: _secret, from: "[1, 2, 3]"}
            - gain: {counter: gold, amount: _secret}                          # a hidden amount
            - pick: {from: hand, to: pile, where: "rank == max(hand, by: rank)", count: 1, prompt: bury}
            - set: {_pair: "[]"}
            - choose: {options: "combos(hand, by: rank, total: 9)", as: _pair, prompt: pair}   # "4A+5C"
            - move: {from: hand, to: vault, cards: _pair}
            - lose: {counter: gold, amount: "gold // 2"}                       # from a hidden value
            - transfer: {from: gold, to: "gold[left(me)]", amount: 1}
            - choose: {options: hand, as: shown, prompt: show}                 # public: shown to all
            - pick: {from: hand, to: "vault[left(me)]", count: 1, prompt: give}
            - pick: {from: hand, to: table, count: 1, prompt: play}
scoring:
  categories: {gold: gold, vault: "count(vault)"}
"""

# (ruleset, variant, players, params, seeds): every player count of the seed games, a few seeds
CASES = [("diamonds", None, 3, {"rounds": 1}, (1, 2)), ("diamonds", None, 4, {"rounds": 1}, (1,)),
         ("diamonds", "teams", 4, {"rounds": 1}, (1,)), ("diamonds", "two_player", 2, {"rounds": 1}, (1,)),
         ("diams", None, 2, {}, (1,)), ("diams", None, 3, {}, (1, 2)), ("diams", None, 4, {}, (1,)),
         ("mister_diamond", None, 2, {}, (1,)), ("mister_diamond", None, 3, {}, (1, 2)),
         ("diamonds_club", None, 2, {}, (1,)), ("diamonds_club", None, 3, {}, (1,)),
         ("hush", None, 2, {}, (1, 2, 3)), ("hush", None, 3, {}, (1, 2, 3)), ("hush", None, 4, {}, (1, 2))]
IDS = [f"{c[0]}{'-' + c[1] if c[1] else ''}-{c[2]}p" for c in CASES]


@pytest.fixture(scope="module")
def hush_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("hush") / "hush.yaml"
    path.write_text(HUSH)
    return path


def load(name, variant, hush_path):
    return bundled(hush_path if name == "hush" else name, variant)


# ---------------------------------------------------------------------- twins
def hidden_places(S, seat):
    """(zone, owner, the zone's list) of every non-empty zone instance the seat cannot see."""
    out = []
    for name, kind in S.rules.zone_owner.items():
        zone = S.z[name]
        each = [(None, zone)] if kind == "none" else sorted(zone.items()) if kind == "card" else enumerate(zone)
        out += [(name, owner, cards) for owner, cards in each
                if cards and not zone_seers(S.rules, S.members, name, owner) & (1 << seat)]
    return out


def swaps(S, seat, rnd):
    """Pairs of cards (a, b) in places hidden from ``seat``, of the same component and different
    labels: one pair across two places (two hands, a hand and the deck...), one inside a place."""
    labels, kinds = S.rules.card_labels, S.rules.cards.kinds
    places = hidden_places(S, seat)
    cards = [c for _, _, cs in places for c in cs]
    where = {c: k for k, (_, _, cs) in enumerate(places) for c in cs}
    rnd.shuffle(cards)
    found = {}
    for a in cards:
        for b in cards:
            if kinds[a] == kinds[b] and labels[a] != labels[b]:
                found.setdefault(where[a] == where[b], (a, b))
    return list(found.values())


def twin(S, a, b):
    """A copy of ``S`` in which cards a and b have swapped places."""
    T = S.clone().own_all()   # (written below: its own lists)
    T.ev = None
    for name, kind in T.rules.zone_owner.items():
        zone = T.z[name]
        for cards in ([zone] if kind == "none" else zone.values() if kind == "card" else zone):
            for k, c in enumerate(cards):
                if c in (a, b):
                    cards[k] = b if c == a else a
    T.rules.keep_sorted(T)
    reask(T)      # the pending question may read the swapped cards
    T.ev = []
    return T


def swapped_events(events, a, b):
    """The setup's engine events as the twin's setup would have logged them."""

    def sw(c):
        return b if c == a else a if c == b else c
    out = []
    for ev in events:
        ev = dict(ev)
        if isinstance(ev.get("cards"), list):
            ev["cards"] = [sw(c) for c in ev["cards"]]
        if type(ev.get("card")) is int:
            ev["card"] = sw(ev["card"])
        out.append(ev)
    return out


def bump_hidden_counters(S, seat):
    """Add 3 to every counter instance the seat may not see (a fact it cannot observe)."""
    for name, kind in S.rules.counter_owner.items():
        if kind in ("player", "team"):
            for owner in range(len(S.c[name])):
                if not counter_seers(S.rules, S.members, name, owner) & (1 << seat):
                    S.c[name][owner] += 3


def seen(S, seat):
    """What the seat observes: its observation, and who is deciding what (a log's prompts are
    public: which step another seat's turn is at is not hidden)."""
    return S.observation(seat), S.current_player(), None if S.is_terminal() else S.prompt()


def drive_twins(rules, players, params, seed, seat, a, b, bump):
    """Play G and its twin with the same choices while the seat's observations agree; return
    (lines compared, lines whose omniscient versions differed)."""
    G = rules.new_game(players, seed, {"params": params}, record=True)
    H = twin(G, a, b)
    if bump:
        bump_hidden_counters(H, seat)
    red = Redactor(rules, seat, G.members)
    first = [red.line({"type": "events", "events": gamelog.events_out(rules, evs)})
             for evs in (G.ev, swapped_events(G.ev, a, b))]
    if seen(G, seat) != seen(H, seat):
        return 0, 0
    assert first[0] == first[1], "the setup's redacted events tell the twins apart"
    rnd = random.Random(seed * 31 + seat)
    compared = differed = n = 0
    while not G.is_terminal() and not H.is_terminal():
        # the same choice where it can be made: the decider may see the swapped cards, and
        # then be offered other options
        i = rnd.randrange(len(G.dec[1]))
        label, theirs = G.legal_actions()[i], H.legal_actions()
        j = theirs.index(label) if label in theirs else i % len(theirs)
        step = rules.steps[G.stack[-1][0]]
        announced = step.option_type not in ("card", "list[card]") and not (step.choice_var() or "").startswith("_")
        n += 1
        lg, eg = gamelog.logged_decision(rules, G, i, n)
        lh, eh = gamelog.logged_decision(rules, H, j, n)
        if eg or eh or seen(G, seat) != seen(H, seat):
            break     # the seat can tell the games apart now: its logs may differ
        if announced and lg["action"] != lh["action"]:
            break     # a choice made aloud (a branch, a number into a public variable): so can it
        assert red.line(lg) == red.line(lh), f"decision {n} ({lg['prompt']}) tells the twins apart"
        compared += 1
        differed += lg != lh
    return compared, differed


@pytest.mark.parametrize("name,variant,players,params,seeds", CASES, ids=IDS)
def test_a_redacted_log_is_the_same_for_games_the_seat_cannot_tell_apart(name, variant, players, params, seeds,
                                                                        hush_path):
    rules = load(name, variant, hush_path)
    compared = differed = pairs = 0
    for seed in seeds:
        for seat in range(players):
            S = rules.new_game(players, seed, {"params": params})
            for a, b in swaps(S, seat, random.Random(seed + 7 * seat)):
                for bump in (False, True):
                    c, d = drive_twins(rules, players, params, seed, seat, a, b, bump)
                    compared, differed, pairs = compared + c, differed + d, pairs + 1
    if name == "diamonds_club":       # nothing hidden in it: no twins to build
        assert pairs == 0
        return
    assert pairs and compared > 0
    if name == "hush":                # built so that hidden facts show in the omniscient log
        assert differed > 0, "the twins' omniscient logs never differed: the swaps tested nothing"


# ---------------------------------------------------------------------- direct
def labels_in(obj, out: set) -> set:
    """Every string in an observation (and its parts joined by '+'), dict keys included."""
    if isinstance(obj, str):
        out.add(obj)
        out.update(obj.split("+"))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            labels_in(k, out)
            labels_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            labels_in(v, out)
    return out


def counter_shown(obs, name, owner) -> bool:
    value = obs["counters"].get(name)
    if isinstance(value, list):
        return owner is not None and value[owner] is not None
    return value is not None


def shows_zone(rules, obs, zone, owner) -> bool:
    """Whether the seat's observation lists the cards of ``zone`` (of ``owner``), not a count."""
    value = obs["zones"].get(zone) if isinstance(zone, str) else None
    if isinstance(value, dict):      # a zone of each card: by the owning card's label
        return isinstance(value.get(rules.card_labels[owner]) if owner is not None else None, list)
    if isinstance(value, list) and rules.zone_owner[zone] in ("player", "team"):
        return owner is not None and isinstance(value[owner], list)
    return isinstance(value, list)


def check_line(rules, obs, seen: set, line: dict, named: list, seat: int):
    """One redacted line against the seat's observations so far (``seen``: their labels; ``obs``:
    the one after the line); ``named``: the labels of the cards the chosen option names."""
    public = {z for z, d in rules.zone_decl.items() if (d or {}).get("visible", "all") == "all"}
    assert "seen_by" not in line and all("seen_by" not in e for e in line.get("events", []))
    shown_publicly = set()
    for ev in line.get("events", []):
        cards = ev.get("cards", []) + ([ev["card"]] if "card" in ev else [])
        froms = ev.get("from") if isinstance(ev.get("from"), list) else [ev.get("from")]
        # public: into or out of a zone everyone sees (a gather: out of such zones only)
        if ev.get("to") in public or public.issuperset(froms) or ("from" not in ev and "to" not in ev):
            shown_publicly.update(cards)
            continue
        # a card may pass through a zone the seat sees between two decisions (dealt to it, then
        # forced out again): the event is the seat's to see
        if shows_zone(rules, obs, ev.get("to"), ev.get("to_owner")) or \
                (isinstance(ev.get("from"), str) and shows_zone(rules, obs, ev["from"], ev.get("from_owner"))):
            seen.update(cards)
        for c in cards:
            assert c in seen, f"{ev} names {c}, which seat {seat} never observed"
        kind = ev.get("ev")
        if kind in ("gain", "lose", "advance", "pay") and not ev.get("hidden"):
            kind_of = rules.counter_owner.get(ev["counter"])
            who = ev.get("who")
            owner = ev.get("owner", who if kind_of == "player" else
                           next((t for t, m in enumerate(obs["teams"]) if who in m), None) if kind_of == "team" else None)
            assert counter_shown(obs, ev["counter"], owner), f"{ev}: seat {seat} does not see that counter"
        if kind == "transfer" and not ev.get("hidden"):
            for side in ("from", "to"):
                assert counter_shown(obs, ev[side], ev.get(f"{side}_owner")), f"{ev}: a counter seat {seat} cannot see"
        if kind in ("set", "random") and "value" in ev:
            assert ev["var"] in obs["vars"], f"{ev}: a private variable's value"
    if line.get("type") == "decision" and line["seat"] != seat and line["action"] != HIDDEN:
        for label in named:
            assert label in seen or label in shown_publicly, \
                f"decision {line['n']}: {line['action']} names {label}, which seat {seat} never observed"


@pytest.mark.parametrize("name,variant,players,params,seeds", CASES, ids=IDS)
def test_a_redacted_log_names_only_what_the_seat_observed(name, variant, players, params, seeds, hush_path, tmp_path):
    rules = load(name, variant, hush_path)
    hidden = 0
    for seed in seeds:
        log = tmp_path / f"{seed}.jsonl"
        gamelog.play_game(rules, players, seed, agents.make_agents("random", players, seed), {"params": params},
                          log=log, force=True)
        lines = log.read_text().splitlines()
        for seat in range(players):
            red = replay.redact(lines, seat, rules)
            S = rules.new_game(players, seed, {"params": params})
            seen = labels_in(S.observation(seat), set())
            check_line(rules, S.observation(seat), seen, red[1], [], seat)     # the setup's events
            for obj, line in zip(red[2:], [json.loads(x) for x in lines[2:]]):
                if line["type"] != "decision":
                    continue
                frame = S.stack[-1]
                value = S.dec[1][S.legal_actions().index(line["action"])]
                named = [rules.card_labels[c] for c in rules.steps[frame[0]].named(S, frame, value) if type(c) is int]
                S.apply(line["action"])
                obs = S.observation(seat)
                labels_in(obs, seen)
                check_line(rules, obs, seen, obj, named, seat)
                hidden += obj["action"] == HIDDEN
    if name in ("diamonds", "diams", "hush"):     # their hidden choices are hidden
        assert hidden > 0


# ---------------------------------------------------------------------- each leak, by name
LEDGER = tiny_ruleset("""
counters:
  coins: {owner: player, start: 9, visible: owner}
  gems: {owner: player, start: 2, visible: owner}
  taken: {owner: card}
vars:
  bought: card
flow:
  - turns:
      rounds: 2
      steps:
        - grid: {zone: market, rows: 2, where: "taken == 0", cost: "1 + count(neighbours where taken > 0)",
                 pay: coins, mark: taken, as: bought, pass: false}
        - pay: {any: 1, from: [coins, gems]}
scoring:
  categories: {coins: coins}
""", game="ledger", players=(2, 3), card="spaces", attributes='n: "1..6"', label="s{n}", deck="market", seen=None)


def test_hidden_counters_lose_what_they_paid_and_which_one_paid(tmp_path):
    """A grid's cost paid from a hidden counter, a pay event and a pay choice between hidden
    counters: amounts, counter and choice hidden from the others, kept for the payer."""
    path = tmp_path / "ledger.yaml"
    path.write_text(LEDGER)
    rules = interpreter.load(path)
    log = tmp_path / "l.jsonl"
    gamelog.play_game(rules, 3, 1, agents.make_agents("random", 3, 1), log=log)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    red = replay.redact(lines, 0, rules)
    grids = [(o, r) for o, r in zip(lines, red) if o.get("prompt") == "take"]
    pays = [(o, r) for o, r in zip(lines, red) if o.get("prompt") == "pay"]
    assert grids and pays
    for o, r in grids:          # the space is public, its cost is not
        ev, seen = o["events"][0], r["events"][0]
        assert r["action"] == o["action"] and "cost" in ev
        assert ("cost" in seen) == (o["seat"] == 0) and seen.get("hidden") is (None if o["seat"] == 0 else True)
    for o, r in pays:
        paid = [e for e in r["events"] if e["ev"] == "pay"]
        assert o["seen_by"] == [o["seat"]]
        assert r["action"] == (o["action"] if o["seat"] == 0 else HIDDEN)
        assert all(("counter" in e and "amount" in e) == (o["seat"] == 0) for e in paid)


def test_a_choice_kept_in_a_private_variable_is_hidden_whatever_its_label():
    """Diams: the quality of a new collection (a number, stored in _set_quality) is another
    seat's secret; the cards secured face down too; a card shown (a public variable) is not."""
    rules = interpreter.load("diams")
    for seed in range(1, 6):
        out = []
        gamelog.play_game(rules, 3, seed, agents.make_agents("random", 3, seed), log=_Lines(out))
        red = replay.redact(out, 0, rules)
        prompts = {o.get("prompt") for o in out}
        if not {"collection", "secure", "show"} <= prompts:
            continue
        for o, r in zip(out, red):
            if o.get("prompt") in ("collection", "secure") and o["seat"] != 0 and o["action"] != "done":
                assert r["action"] == HIDDEN and 0 not in o["seen_by"]
            if o.get("prompt") == "secure" and o["action"] == "done":   # (stopping names no card)
                assert r["action"] == "done" and "seen_by" not in o
            if o.get("prompt") == "collection":
                assert o["seen_by"] == []
            if o.get("prompt") == "show":
                assert r["action"] == o["action"] and "seen_by" not in o
        return
    pytest.fail("no game of 5 seeds secured a collection and showed a card")


def test_a_roll_shows_its_outcome_never_its_chances():
    # Mister Diamond's chances say whether the piece touched was real (MD-2: a touch reveals
    # nothing): the full log keeps them, a log redacted for any seat, the actor's too, does not
    # (the outcome is an event of its own)
    rules = interpreter.load("mister_diamond")
    lines = []
    gamelog.play_game(rules, 3, 5, agents.make_agents("random", 3, 5), log=_Lines(lines))
    rolls = [ev for line in lines for ev in line.get("events") or () if ev.get("ev") == "roll"]
    assert rolls and all("chances" in ev for ev in rolls)
    for seat in range(3):
        shown = [ev for line in replay.redact(lines, seat, rules) for ev in line.get("events") or ()
                 if ev.get("ev") == "roll"]
        assert shown == [{k: v for k, v in ev.items() if k != "chances"} for ev in rolls]   # who rolled stays


def test_a_gather_of_hidden_zones_shows_no_card():
    """Diams gathers hands, safes and the market into the stock at each round's end: a seat
    sees how many cards went, not which (its own hand's and the market's are lumped with them)."""
    rules = interpreter.load("diams")
    out = []
    gamelog.play_game(rules, 3, 2, agents.make_agents("random", 3, 2), log=_Lines(out))
    gathers = [e for o in replay.redact(out, 1, rules) for e in o.get("events", []) if e["ev"] == "gather"]
    full = [e for o in out for e in o.get("events", []) if e["ev"] == "gather"]
    assert len(gathers) == len(full) >= 2 and any(e["cards"] for e in full)
    assert all("cards" not in e and e["count"] == len(f["cards"]) for e, f in zip(gathers, full))


def test_a_forced_move_is_hidden_as_a_decision_is(hush_path, tmp_path):
    """HUSH (auto_forced): a forced bury of a hidden card and a forced choice of two hidden
    cards ("4A+5C") are '?' for the others; the forced move's seen_by never reaches them."""
    rules = interpreter.load(hush_path)
    log = tmp_path / "h.jsonl"
    gamelog.play_game(rules, 3, 3, agents.make_agents("random", 3, 3), log=log)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    red = replay.redact(lines, 1, rules)
    pairs = buried = 0
    for o, r in zip(lines, red):
        forced = [f for f in r.get("events", []) if f["ev"] == "forced"]   # (a hidden counter's change: left out)
        for e, f in zip([e for e in o.get("events", []) if e["ev"] == "forced"], forced, strict=True):
            assert "seen_by" not in f
            if e["prompt"] in ("bury", "pair"):
                assert f["action"] == (e["action"] if e["seat"] == 1 else HIDDEN)
                pairs += "+" in e["action"] and e["seat"] != 1
                buried += e["prompt"] == "bury" and e["seat"] != 1
    assert pairs and buried


class _Lines:
    """A text stream that keeps each line written as a dict."""

    def __init__(self, out):
        self.out, self.buf = out, ""

    def write(self, text):
        self.buf += text
        *done, self.buf = self.buf.split("\n")
        self.out += [json.loads(x) for x in done]


def test_replay_checks_seen_by_and_replays_logs_written_without_it(hush_path, tmp_path):
    rules = interpreter.load(hush_path)
    log = tmp_path / "h.jsonl"
    gamelog.play_game(rules, 3, 2, agents.make_agents("random", 3, 2), log=log)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert replay.replay(log)["decisions"] == lines[-1]["decisions"]

    def write(objs):
        write_log(log, objs)
    k = next(i for i, o in enumerate(lines) if o.get("seen_by"))
    write([*lines[:k], {**lines[k], "seen_by": [0, 1, 2]}, *lines[k + 1:]])
    with pytest.raises(interpreter.ReplayError, match=f"line {k + 1}: seen_by"):
        replay.replay(log)
    bare = [{**o, "events": [{f: v for f, v in e.items() if f != "seen_by"} for e in o["events"]]}
            if "events" in o else o for o in lines]
    bare = [{f: v for f, v in o.items() if f != "seen_by"} for o in bare]
    assert bare != lines and any(e["ev"] == "forced" for o in lines for e in o.get("events", []) if "seen_by" in e)
    write(bare)   # (a log of the current format lacking it: refused)
    with pytest.raises(interpreter.ReplayError, match=r"line \d+: (event \d+ differs|seen_by)"):
        replay.replay(log)
    write([{**bare[0], "format": 2}, *bare[1:]])   # (one written by an engine that wrote none)
    assert replay.replay(log)["decisions"] == lines[-1]["decisions"]
