"""What a running step adds to an observation (``Step.observe``: a trick in progress, a pass,
a simultaneous choice) follows the declared visibility of the zones its cards lie in: a
face-down trick table is shown as who played, never which card."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

import interpreter

ROOT = Path(__file__).resolve().parent.parent
BASE = {"player", "players", "teams", "zones", "counters", "vars", "phase", "current_player", "over",
        "known", "prompt", "legal_actions"}
OWN = {"passing", "my_choice"}   # a giver's cards put aside, a seat's own secret choice: its own to see


def face_down(tmp_path, name: str):
    """The ruleset with every zone declared visible to no seat."""
    path = interpreter.ruleset_path(name)
    data = yaml.safe_load(path.read_text())
    for decl in data["zones"].values():
        decl["visible"] = "none"
    out = tmp_path / f"{path.stem}_down.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False))
    return interpreter.load(str(out))


def strings(value, skip=OWN):
    """Every string in a step's part of an observation, but under the keys of ``skip``."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in skip:
                yield from strings(v, skip)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v, skip)


@pytest.mark.parametrize("name,players", [("hearts", 4), ("goofspiel", 3), ("six_nimmt", 3), ("spades", 4)])
def test_no_step_shows_a_card_of_a_zone_no_seat_sees(tmp_path, name, players):
    rules = face_down(tmp_path, name)
    labels = set(rules.card_labels)
    shown = 0
    for seed in (1, 2):
        S, rnd = rules.new_game(players, seed), random.Random(seed)
        while not S.is_terminal():
            for seat in (*range(players), None):
                obs = S.observation(seat)
                extra = {k: v for k, v in obs.items() if k not in BASE}
                shown += bool(extra)
                assert not labels & set(strings(extra)), (seat, extra)
            S.apply_index(rnd.randrange(len(S.dec[1])))
    assert shown > 10


def test_a_face_down_trick_shows_who_played_and_a_face_up_one_the_cards(tmp_path):
    down, up = face_down(tmp_path, "hearts"), interpreter.load("hearts")
    for rules, seen in ((down, False), (up, True)):
        S, rnd = rules.new_game(4, 3), random.Random(3)
        while not (S.observation(0).get("trick") or []):
            S.apply_index(rnd.randrange(len(S.dec[1])))
        S.apply_index(0)
        on_table = [rules.card_labels[c] for c in S.z["table"]]
        assert len(on_table) == 2
        for seat in (*range(4), None):
            trick = S.observation(seat)["trick"]
            assert [p["card"] for p in trick] == (on_table if seen else ["?", "?"])
            assert [p["seat"] for p in trick] == [S.observation(None)["trick"][i]["seat"] for i in range(2)]
        step = rules.steps[S.stack[-1][0]]
        assert step.asked(S, S.stack[-1])["led"] == (on_table[0] if seen else None)
