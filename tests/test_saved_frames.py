"""A saved state's frames are held to the shape their step kind declares, slot by slot
(engine/frames.py, each kind's ``frame_shape``): a frame that does not fit is refused on load
with an error naming the slot, so an observation or a determinization of an accepted state never
meets a raw Python error; every frame the engine writes fits."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml

import interpreter
from interpreter.engine.frames import check_frame
from interpreter.engine.values import Bad, sizes_of
from interpreter.errors import GameError, RulebookError

ROOT = Path(__file__).resolve().parent.parent


def _at_frame(name, players, kind, ready=lambda frame: True, seed=1):
    """A saved state of ``name`` (as JSON data) with a frame of a step of ``kind`` on its stack,
    and that frame's position."""
    rules = interpreter.load(name)
    for s in range(seed, seed + 20):
        S, rnd = rules.new_game(players, seed=s), random.Random(s)
        while not S.over:
            d = json.loads(S.to_json())
            for i, frame in enumerate(d["stack"]):
                if rules.steps[frame[0]].kind == kind and ready(frame):
                    return rules, d, i
            S.apply_index(rnd.randrange(len(S.legal_actions())))
    raise AssertionError(f"no {kind} frame in {name}")


CASES = [   # (game, players, kind, frame ready, slot, value, words)
    ("hearts", 4, "tricks", lambda f: f[4] > 0, 5, 7,   # (the red team's: observation raised TypeError)
     r"\]\[5\], the seats that played so far \(step \d+, tricks\): expected a list or none, each a seat, got 7"),
    ("hearts", 4, "tricks", lambda f: True, 3, [0, 9, 1, 2], r"the order of seats this trick .*a seat \(0 to 3\), got 9"),
    ("hearts", 4, "tricks", lambda f: f[3] is not None, 4, 5, r"the position in that order .*\(0 to 4\), got 5"),
    ("diamonds", 4, "pass", lambda f: f[3], 3, [0],   # (determinize raised TypeError)
     r"\]\[3\], the cards put aside \(step \d+, pass\): expected \[giver, receiver, card\], got 0"),
    ("diamonds", 4, "pass", lambda f: f[3], 3, [[0, 1, 10 ** 6]], r"the cards put aside \(step \d+, pass\), card: expected a card id \(0 to 59\), got 1000000"),
    ("six_nimmt", 4, "choose", lambda f: f[2] > 0, 3, 7,   # (a simultaneous choice's: observation raised TypeError)
     r"\]\[3\], the choices so far \(step \d+, choose\): expected a list, each an option's value or none, got 7"),
    ("six_nimmt", 4, "choose", lambda f: f[2] > 0, 3, [None], r"the choices so far .*one value a seat \(4\), got 1"),
    ("six_nimmt", 4, "choose", lambda f: f[2] > 0, 1, None, r"the choices so far .*none exactly where slot 1 is none"),
    ("goofspiel", 2, "steps", lambda f: True, 1, 99, r"the next child's position \(step \d+, steps\): .*\(0 to \d+\)"),
]


@pytest.mark.parametrize("name,players,kind,ready,slot,value,words", CASES)
def test_a_frame_out_of_its_kinds_shape_is_refused_naming_the_slot(name, players, kind, ready, slot, value, words):
    rules, d, i = _at_frame(name, players, kind, ready)
    rules.state_from_json(json.dumps(d))   # (as saved: it loads)
    d["stack"][i][slot] = value
    with pytest.raises(GameError, match=rf"not a saved state of {name}: stack\[{i}\]") as info:
        rules.state_from_json(json.dumps(d))
    assert info.match(words)


def test_a_card_put_aside_that_is_also_in_a_zone_is_refused():
    """A pass holds the cards put aside outside every zone: one edited to a card of a hand would
    be delivered while it stays in that hand (a card in two places, as the zones' check says)."""
    rules, d, i = _at_frame("diamonds", 4, "pass", lambda f: f[3])
    in_hand = next(c for hand in d["zones"]["hand"] for c in hand)
    aside = d["stack"][i][3][0]
    for edited, card in (([aside[0], aside[1], in_hand],), in_hand), ((aside, aside), aside[2]):   # (or put aside twice)
        d["stack"][i][3] = list(edited)
        with pytest.raises(GameError, match=rf"stack\[{i}\]\[3\], the cards put aside \(step \d+, pass\), card: card "
                                            rf"{card} is in two places"):
            rules.state_from_json(json.dumps(d))


def _placed(zones: dict) -> set:
    """The cards in a saved state's zones."""
    out: set = set()
    for zone in zones.values():
        parts = zone.values() if isinstance(zone, dict) else zone if zone and isinstance(zone[0], list) else [zone]
        for part in parts:
            out.update(part)
    return out


def test_a_frame_of_a_step_that_keeps_none_is_refused():
    """An effect list's frame, which no stack holds at rest: refused where it stands (which
    frame may sit over which is checked before any frame's slots), and its slots refused too."""
    rules, d, i = _at_frame("hearts", 4, "tricks")
    effects = next(s.index for s in rules.steps if s.kind == "effects")
    d["stack"].insert(0, [effects, 1])
    with pytest.raises(GameError, match=rf"stack\[0\]: step {effects} \(effects\) is not one the flow starts with"):
        rules.state_from_json(json.dumps(d))
    with pytest.raises(Bad, match=rf"stack\[0\]: a frame of step {effects} \(effects\) holds no slot after its "
                                  r"index \(none\), not 1"):
        check_frame(rules.steps[effects], [effects, 1], "stack[0]", sizes_of(rules, 4, 4), set())


@pytest.mark.parametrize("name,players", [("hearts", 4), ("diamonds", 4), ("six_nimmt", 4), ("goofspiel", 3)])
def test_an_accepted_edited_stack_is_observed_and_determinized_without_raw_errors(name, players):
    """One leaf of a saved stack replaced by a random value: refused, or a state every seat can
    observe and determinize (a GameError at most), as the red team's fuzzer found it could not."""
    rules = interpreter.load(name)
    values = [None, True, 0, -1, 1, 2, 7, 10 ** 18, 0.5, "", "x", [], [0], [[0]], [None], {}, [1, 2, 3]]
    rnd, accepted = random.Random(name), 0
    for k in range(60):
        S = rules.new_game(players, seed=k)
        for _ in range(rnd.randrange(1, 40)):
            if S.over:
                break
            S.apply_index(rnd.randrange(len(S.legal_actions())))
        if S.over:
            continue
        d = json.loads(S.to_json())
        frame = rnd.choice(d["stack"])
        if len(frame) < 2:
            continue
        at = rnd.randrange(1, len(frame))
        frame[at] = rnd.choice(values)
        try:
            T = rules.state_from_json(json.dumps(d))
        except GameError:
            continue
        accepted += 1
        for seat in range(players):
            T.observation(seat)
            try:
                T.determinize(seat, random.Random(seat))
            except RulebookError:
                pass
    assert accepted > 0   # (some edits leave a state that fits: a position, a leader changed within range)


def _cases():
    out = []
    for path in sorted([*ROOT.glob("rulesets/*.yaml"), *ROOT.glob("docs/examples/*.yaml")]):
        declared = yaml.safe_load(path.read_text()).get("variants") or {}
        out += [(path, variant) for variant in [None, *sorted(declared)]]
    return out


@pytest.mark.parametrize("path,variant", _cases(), ids=lambda c: getattr(c, "stem", None) or str(c))
def test_every_frame_the_engine_writes_fits_its_kinds_shape(path, variant):
    """Along random games of every bundled ruleset, variant and example, each frame saved fits
    its kind's shape, and a state saved now and then loads back equal."""
    rules = interpreter.load(path, variant=variant)
    for seed in range(2):
        players = rules.player_counts[seed % len(rules.player_counts)]
        S, rnd = rules.new_game(players, seed=seed), random.Random(seed)
        sizes = sizes_of(rules, players, len(S.members))
        for k in range(300):
            text = S.to_json()
            d = json.loads(text)
            placed = _placed(d["zones"])
            for i, frame in enumerate(d["stack"]):
                check_frame(rules.steps[frame[0]], frame, f"stack[{i}]", sizes, placed)
            if k % 25 == 0:
                assert rules.state_from_json(text) == S
            if S.over:
                break
            S.apply_index(rnd.randrange(len(S.legal_actions())))


NESTED = """
game: nested
players: {min: 2, max: 2}
vars:
  x: {type: str}
flow:
  - turns:
      as: a
      steps:
        - turns:
            as: b
            steps:
              - choose: {options: "['a', 'b']", as: x}
"""


def test_a_long_list_of_a_frame_is_checked_in_one_pass_its_message_written_only_if_it_fails(tmp_path, monkeypatch):
    """A saved turns' order of 100,000 seats loads without a message written for each seat (a
    state of 45 MB took 21 s: engine/frames.py ``_flat``, ``values.flat``); a seat out of range,
    none or a truth deep inside it is still refused, naming it."""
    from interpreter.engine import frames
    from helpers import load_text
    rules = load_text(tmp_path, NESTED)
    d = json.loads(rules.new_game(2, seed=1).to_json())
    turns = [i for i, f in enumerate(d["stack"]) if rules.steps[f[0]].kind == "turns"]
    assert len(turns) == 2
    for i in turns:
        d["stack"][i][1] = [0, 1] * 50_000
    written: list = []

    def noted(name):
        was = getattr(frames, name)
        return lambda *a: written.append(name) or was(*a)
    for name in ("_described", "_short", "_range"):
        monkeypatch.setattr(frames, name, noted(name))
    S = rules.state_from_json(json.dumps(d))
    assert written == [] and len(S.stack[turns[0]][1]) == 100_000
    i = turns[-1]
    for bad, got in ((2, "got 2"), (None, "got none"), (True, "got True"), (-1, "got -1")):
        d["stack"][i][1][77_777] = bad
        with pytest.raises(GameError, match=rf"stack\[{i}\]\[1\], the seats' order this lap \(step \d+, turns\): "
                                            rf"expected a seat.* {got}$"):
            rules.state_from_json(json.dumps(d))
    d["stack"][i][1][77_777] = 1


def test_a_saved_state_longer_than_its_bound_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    """A saved state's text is bounded where it is read (MAX_STATE_CHARS, docs/security.md), a
    str by its characters, bytes by their number, before any of it is parsed."""
    from interpreter.engine import saved
    from helpers import load_text
    rules = load_text(tmp_path, NESTED)
    monkeypatch.setattr(saved, "MAX_STATE_CHARS", 1000)
    text = rules.new_game(2, seed=1).to_json()
    assert len(text) < 1000 and rules.state_from_json(text)   # (within it: loads)
    long = text[:-1] + " " * (1001 - len(text)) + "}"
    monkeypatch.setattr(saved, "json_loads", lambda *a: pytest.fail("parsed"))
    for given, unit in ((long, "characters"), (long.encode(), "bytes")):
        with pytest.raises(GameError, match=rf"^error\[game\]: not a saved state: its text has 1,001 {unit}, more than a saved "
                                            r"state may hold \(1,000\)$"):
            rules.state_from_json(given)


def test_json_is_parsed_with_the_collector_off_and_left_as_it_was(monkeypatch):
    """loading/jsondata.loads turns the garbage collector off while the json module builds a
    value (it would walk every list made so far, again and again), and back on after, a
    failure too; off before, it stays off."""
    import gc
    from interpreter.loading import jsondata
    seen = []
    real = jsondata.json.loads
    monkeypatch.setattr(jsondata.json, "loads", lambda *a, **k: seen.append(gc.isenabled()) or real(*a, **k))
    assert gc.isenabled()
    assert jsondata.loads("[[], {}]") == [[], {}] and gc.isenabled()
    with pytest.raises(jsondata.JSONInputError):
        jsondata.loads("[NaN]")
    assert gc.isenabled()
    gc.disable()
    try:
        jsondata.loads("[]")
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert seen == [False, False, False]
