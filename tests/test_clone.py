"""Copy on write (engine/state.py): on every bundled ruleset, variant and example, with knowledge
kept or events recorded too (other generated paths), states are cloned along random games and
the shared lists frozen (tests/fuzzing/clones.py): the clone, a determinization and the original
play on; nobody writes a shared list, the clone plays as an independent copy does, and the
original ends as the same game played without clones."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

import interpreter
from fuzzing.clones import check_clone

ROOT = Path(__file__).resolve().parent.parent


def _cases():
    out = []
    for path in sorted([*ROOT.glob("rulesets/*.yaml"), *ROOT.glob("docs/examples/*.yaml")]):
        declared = yaml.safe_load(path.read_text()).get("variants") or {}
        out += [(str(path), variant) for variant in [None, *sorted(declared)]]
    return out


CASES = _cases()
MODES = [{}, {"knowledge": True}, {"record": True}]


@pytest.mark.parametrize("path,variant", CASES, ids=[f"{Path(p).stem}-{v or 'base'}" for p, v in CASES])
def test_a_clone_and_its_original_share_lists_only_until_one_writes(path, variant):
    rules = interpreter.load(path, variant=variant)
    big = len(rules.card_labels) > 200
    every, ahead, games = (30, 12, 3) if big else (3, 30, 6)
    shared = 0
    for seed in range(games):
        mode = MODES[seed % len(MODES)]
        players = rules.player_counts[seed % len(rules.player_counts)]
        S = rules.new_game(players, seed=seed, **mode)
        plain = rules.new_game(players, seed=seed, **mode)   # the same game, never cloned
        rnd, k = random.Random(seed), 0
        while not S.over:
            if k % every == 0:
                shared += check_clone(S, k, ahead)
            i = rnd.randrange(len(S.dec[1]))
            S.apply_index(i)
            plain.apply_index(i)
            k += 1
        assert S.to_json() == plain.to_json(), "a game cloned along the way ended otherwise"
    assert shared, "no list was ever shared"


def test_a_clone_writes_through_own_and_leaves_the_original_alone():
    rules = interpreter.load("diamonds")
    S = rules.new_game(4, seed=3)
    before = S.to_json()
    C = S.clone()
    assert C.z["hand"] is S.z["hand"] and "hand" in C.sh and "hand" in S.sh   # shared, not copied
    C.own("hand")[0].clear()
    assert C.z["hand"] is not S.z["hand"] and "hand" not in C.sh and S.to_json() == before
    assert C.own("hand") is C.z["hand"]          # owned: no second copy
    S.own_all()
    assert not S.sh and S.to_json() == before
