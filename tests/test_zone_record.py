"""The record of each card's zone (``S.at``: engine/layout.py ``reindex``, building/record.py):
for the shared zones the rules look a card up in, card -> its zone's code, kept by every move
and made again by every other writer; and the views (``S.vw``), each the cards of a union of
recorded zones a target offers, in card order. They must always equal what the zones say:
checked after every decision of random games of every bundled ruleset that records a zone,
after a determinization, a load, a scenario's patch and a clone written on, and for each form
of move."""
from __future__ import annotations

import json
import random

import pytest

import interpreter
from interpreter.engine.state import from_dict
from interpreter.expr import Compiler
from interpreter.play.checks.scenarios import patch
from fuzzing.derived import stale
from helpers import bundled, load_text


def check(S) -> None:
    """The record and the views as the zones say them, worked out on their own (not by reindex:
    tests/fuzzing/derived.py, as the lockstep fuzzer checks them)."""
    assert S.rules.names.recorded and stale(S) is None, stale(S)


def _bundled() -> list:
    out = []
    for path in sorted(interpreter.ruleset_path("mister_diamond").parent.glob("*.yaml")):
        rules = bundled(path.stem)
        for variant in (None, *sorted((rules.data.get("variants") or {}))):
            if bundled(path.stem, variant).names.recorded:
                out.append((path.stem, variant))
    return out


RECORDING = _bundled()


def test_mister_diamond_records_the_zones_its_rules_look_a_position_up_in():
    assert ("mister_diamond", None) in RECORDING   # (so that the games below test something)
    assert set(bundled("mister_diamond").names.recorded) == {"fake_spots", "real_spots", "known_fakes"}
    assert not bundled("diamonds").names.recorded   # (nothing asked: no record, no slot)
    assert "at" not in bundled("diamonds").layout.slots


def _games(rules, seeds, each=None):
    """Random games of ``rules`` (every player count in turn), ``each(S, rnd)`` after every decision."""
    counts = rules.player_counts
    for seed in seeds:
        S = rules.new_game(counts[seed % len(counts)], seed)
        check(S)
        rnd = random.Random(seed)
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
            check(S)
            if each is not None and not S.over:
                each(S, rnd)


@pytest.mark.parametrize("name,variant", RECORDING)
def test_the_record_holds_after_every_decision(name, variant):
    _games(bundled(name, variant), range(12))


@pytest.mark.parametrize("name,variant", RECORDING)
def test_the_record_holds_after_a_load_a_determinization_and_a_clone_written_on(name, variant):
    def each(S, rnd):
        check(from_dict(S.rules, json.loads(S.to_json())))
        D = S.determinize(S.current_player(), random.Random(rnd.random()))
        check(D)
        if not D.over:
            D.apply_index(0)
            check(D)
        C = S.clone()   # (both share the record until one writes it)
        C.apply_index(rnd.randrange(len(C.dec[1])))
        check(C)
        check(S)
    _games(bundled(name, variant), range(3), each)


def test_a_patch_and_a_zone_written_whole_make_the_record_again():
    rules = bundled("mister_diamond")
    S = rules.new_game(3, 1)
    # (the fakes listed before go home, to real_spots, where they start: added in place)
    patch(S, {"zones": {"known_fakes": ["a1", "d4"], "fake_spots": ["c3"], "empty_spots": ["g4"]}})
    check(S)
    assert S.at[rules.card_id("a1")] == rules.names.recorded["known_fakes"]
    assert len(S.z["real_spots"]) == 42 - 4
    S.z["fake_spots"], S.z["real_spots"] = S.z["real_spots"], S.z["fake_spots"]   # (every card swapped)
    check(S)


# every form of move, between recorded zones (a, b, c sorted) and others (out, a hand), chosen at random
MOVES = """
  a: {}
  b: {}
  c: {sorted: true}
  out: {}
  hand: {owner: player}
vars:
  x: card
  y: card
  z: card
  k: int
  seen: bool
  t: {type: int, start: 0}
flow:
  - turns:
      until: "t >= 60"
      steps:
        - set: {t: "t + 1"}
        - set: {x: "last(deck + a + b + c)"}
        - set: {seen: "x in a or x not in b + c or x in deck + out"}
        - attempt:
            target: {from: "c + a", as: y, prompt: take}
            outcomes: {took: {chance: rest}}
        - attempt:
            target: {from: "b + out + deck", as: z, prompt: take}
            outcomes: {took: {chance: rest}}
        - choose: {options: "[1, 2, 3, 4, 5, 6, 7, 8, 9]", as: k}
        - switch: k
          cases:
            1: [{move: {from: deck, to: a, count: 1}}]
            2: [{move: {from: deck, to: b, count: 3}}]
            3: [{if: "count(a) > 0", then: [{move: {from: a, to: c, cards: "[first(a)]"}}]}]
            4: [{move: {from: "b if count(b) > 0 else a", to: "c if k == 4 else out", cards: "(b if count(b) > 0 else a) where n > 2"}}]
            5: [{move: {from: c, to: a, bottom: true}}]
            6: [{move: {from: a, to: "hand[me]", count: 2}}]
            7: [{move: {from: "hand[me]", to: b, cards: "hand[me]"}}]
            8: [{move: {from: deck, to: out, count: 2}}]
            9: [{move: {from: "c", to: "deck", cards: "c where n < 4", count: 2}}]
scoring: {categories: {p: "count(hand[me])"}}
"""


def _moves(tmp_path):
    from helpers import tiny_ruleset
    return load_text(tmp_path, tiny_ruleset(MOVES, game="moves", attributes="n: 1..12", label="c{n}"))


def _offers_its_view(S, rnd) -> None:
    """A target's options are its union's cards in card order, as the plain reference offers them."""
    step = S.rules.steps[S.stack[-1][0]]
    if step.kind == "attempt.target":
        assert S.dec[1] == tuple(sorted(c for z in S.rules.names.views[step.view] for c in S.zone(z)))


def test_every_form_of_move_keeps_the_record(tmp_path):
    rules = _moves(tmp_path)
    assert set(rules.names.recorded) == {"a", "b", "c", "deck", "out"}
    assert rules.names.views == (("a", "c"), ("b", "deck", "out"))
    _games(rules, range(30), _offers_its_view)


def test_a_card_looked_up_in_recorded_zones_is_found_as_the_lists_find_it(tmp_path):
    rules = _moves(tmp_path)
    S = rules.new_game(2, 3)
    rnd = random.Random(3)
    texts = ["x in a", "x not in a", "x in a + c", "x not in b + c + a", "count(deck where it in a + b)"]
    compiled = [(Compiler(rules.names).compile(t, has_me=False), Compiler(rules.names, plain=True).compile(t, has_me=False))
                for t in texts]
    assert "S.at[" in compiled[0][0].source and "S.at" not in compiled[0][1].source
    for _ in range(40):
        for x in (None, *range(12)):
            S.v["x"] = x
            for fast, plain in compiled:
                assert fast.fn(S, None, None) == plain.fn(S, None, None), (fast.source, x)
        S.apply_index(rnd.randrange(len(S.dec[1])))
        if S.over:
            break


def test_the_zones_of_a_union_a_target_offers_are_recorded_though_no_card_is_looked_up_in_them(tmp_path):
    from helpers import tiny_ruleset
    text = MOVES.replace('        - set: {seen: "x in a or x not in b + c or x in deck + out"}\n', "")
    rules = load_text(tmp_path, tiny_ruleset(text, game="moves", attributes="n: 1..12", label="c{n}"))
    assert set(rules.names.recorded) == {"a", "b", "c", "deck", "out"} and len(rules.names.views) == 2
    _games(rules, range(10), _offers_its_view)


@pytest.mark.parametrize("writer", ["deal: {from: a, to: hand, count: 1}", "gather: {from: [a, hand], to: deck}",
                                    "pick: {from: a, to: hand, count: 1, prompt: pick}"])
def test_a_zone_some_other_writer_moves_cards_in_or_out_of_is_not_recorded(tmp_path, writer):
    text = MOVES.replace("        - choose:", f"        - {writer}\n        - choose:")
    from helpers import tiny_ruleset
    rules = load_text(tmp_path, tiny_ruleset(text, game="moves", attributes="n: 1..12", label="c{n}"))
    assert "a" not in rules.names.recorded and rules.names.recorded   # (the others still are)
    # (c + a: no view, its options sorted at each ask; a gather into the deck leaves b + out + deck none either)
    assert rules.names.views == ((("b", "deck", "out"),) if "deck" in rules.names.recorded else ())
    _games(rules, range(10))


NEIGHBOURS_IN = ["count(neighbors(spot) where it in occupied)", "count(neighbors(spot) where it in fake_spots)",
                 "count(neighbors(spot) where it not in fake_spots + real_spots + known_fakes)",
                 "count(neighbors(spot) where it not in known_fakes)", "count(neighbors(spot) where it in fake_spots + real_spots)"]


def test_a_count_of_neighbours_in_recorded_zones_reads_their_codes_as_the_plain_filter_counts():
    """count(neighbors(x) where it in A + B) of recorded zones: the neighbours' codes taken from
    the record by one getter made at build (a slice of it for a position of one neighbour or
    none) and one code counted; the same count as the plain filter for every position, a card
    with no neighbours (a tile) and a neighbour listed alone, along random games."""
    import dataclasses
    rules = bundled("mister_diamond")
    rows = rules.names.namespace["_NB"]
    lone = next(i for i, row in enumerate(rows) if row)   # (a position given one neighbour)
    names = dataclasses.replace(rules.names, namespace={**rules.names.namespace, "_NB": (
        *rows[:lone], rows[lone][:1], *rows[lone + 1:])})
    names.namespace.pop("_NB_get", None)
    for table in (rules.names, names):
        compiled = [(Compiler(table).compile(t, has_me=False), Compiler(table, plain=True).compile(t, has_me=False))
                    for t in NEIGHBOURS_IN]
        assert [".count(" in fast.source for fast, _ in compiled] == [True, True, True, True, False]
        assert not any("S.at" in plain.source for _, plain in compiled)
        S = rules.new_game(4, 5)
        rnd = random.Random(5)
        while not S.over:
            for spot in range(len(rules.card_labels)):
                S.v["spot"] = spot
                for fast, plain in compiled:
                    assert fast.fn(S, None, None) == plain.fn(S, None, None), (fast.source, spot)
            S.apply_index(rnd.randrange(len(S.dec[1])))


def test_a_start_value_may_look_a_card_up_in_a_recorded_zone(tmp_path):
    """A counter's or a variable's start is worked out once the zones are filled and recorded:
    a start that looks a card up in a recorded zone reads the record made for the new game."""
    text = interpreter.ruleset_path("mister_diamond").read_text()
    text = text.replace("counters:\n", "counters:\n  held: {start: \"count(real_spots + empty_spots where it in real_spots)\"}\n", 1)
    text = text.replace("vars:\n", "vars:\n  first_real: {type: card, start: \"first(fake_spots + real_spots where it in real_spots)\"}\n", 1)
    rules = load_text(tmp_path, text, "md.yaml")
    assert "real_spots" in rules.names.recorded
    S = rules.new_game(4, seed=1)
    assert S.c["held"] == 42 and S.v["first_real"] == 0
    check(S)


def test_a_card_variable_written_by_name_is_a_card_that_exists():
    """The tables by name check what generated code trusts: a card variable names a card (the
    record is read by it) or none."""
    from interpreter.errors import UsageError
    S = interpreter.load("mister_diamond").new_game(4, seed=1)
    S.v["spot"] = 5
    S.v["spot"] = None
    for bad, said in ((99, "no card 99"), (-1, "no card -1"), ("a1", "expected a whole number")):
        with pytest.raises(UsageError, match=said):
            S.v["spot"] = bad
    assert S.v["spot"] is None


def test_a_load_makes_the_record_once_for_all_the_zones_it_writes(monkeypatch):
    """A saved state's zones are written through the tables by name together (Tables.update):
    the record is made again once, not once for each recorded zone, and is right."""
    from interpreter.engine import layout
    rules = interpreter.load("mister_diamond")
    S = rules.new_game(4, seed=2)
    for _ in range(5):
        S.apply_index(0)
    made = []
    real = layout.reindex
    monkeypatch.setattr(layout, "reindex", lambda S: made.append(1) or real(S))
    loaded = from_dict(rules, json.loads(S.to_json()))
    assert len(rules.names.recorded) > 1 and len(made) == 1
    check(loaded)
    loaded.z["known_fakes"] = list(loaded.z["known_fakes"])   # (one zone written by name: made again too)
    assert len(made) == 2
    check(loaded)


def test_mister_diamond_offers_the_view_of_its_hidden_positions():
    """The attempt's target, fake_spots + real_spots, reads their view (S.vw), kept by the moves;
    the plain reference joins and sorts them; a ruleset with no union offered has no slot."""
    from interpreter.building.flowgen import FlowSource
    rules = bundled("mister_diamond")
    assert rules.names.views == (("fake_spots", "real_spots"),)
    target = next(step for step in rules.steps if step.kind == "attempt.target")
    assert target.view == 0
    fast, plain = (target.flow_source(FlowSource(rules.steps, plain=p)) for p in (False, True))
    assert "S.vw[0]" in fast and "sort" not in fast and "S.vw" not in plain and "sorted(" in plain
    assert "vw" not in bundled("diamonds").layout.slots and "vw" not in bundled("diamonds_club").layout.slots


@pytest.mark.parametrize("own_all", [False, True])
def test_a_clone_written_on_both_sides_keeps_each_its_views(own_all):
    """A clone shares the views as it shares the zones (copied on write: each view's list, by
    State.own or at once by own_all): both states played on apart keep each their own."""
    rules = bundled("mister_diamond")
    changed = 0
    for seed in range(4):
        S = rules.new_game(4, seed)
        rnd = random.Random(seed)
        while not S.over:
            C = S.clone()
            if own_all:
                C.own_all()
            before = list(S.vw[0])
            for T in (C, S):
                for _ in range(3):
                    if not T.over:
                        T.apply_index(rnd.randrange(len(T.dec[1])))
                check(T)
            changed += C.vw[0] != before
    assert changed > 10   # (the clones took positions out of the view)
