"""No card is ever in two places: every move takes its cards out of their source, a deal
takes what it gives, and a scenario's patch takes a card it lists out of wherever it was.
The compiled flow relies on it (an attempt's target offered from zones joined, ``A + B``,
needs no set to drop a card found twice: mechanics/dexterity.py)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import interpreter
from interpreter.play.checks.scenarios import patch

RULESETS = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "rulesets").glob("*.yaml"))


def placed(S) -> list:
    """Every card id in every zone of ``S`` (shared, owned by a seat or team, owned by a card)."""
    out: list = []
    for zone in S.z.values():
        for item in (zone.values() if isinstance(zone, dict) else zone):
            out.extend(item if isinstance(item, list) else [item])
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_a_card_is_in_one_zone_at_a_time(name):
    rules = interpreter.load(interpreter.ruleset_path(name))
    for seed in range(2):
        S = rules.new_game(rules.player_counts[seed % len(rules.player_counts)], seed=seed)
        rnd = random.Random(seed)
        while True:
            cards = placed(S)
            assert len(cards) == len(set(cards)) and None not in cards
            if S.is_terminal():
                break
            S.apply_index(rnd.randrange(len(S.dec[1])))


def test_a_patched_card_leaves_where_it_was():
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    S = rules.new_game(4, seed=0)
    spot = rules.card_labels[S.z["real_spots"][0]]
    patch(S, {"zones": {"fake_spots": [spot]}})
    cards = placed(S)
    assert len(cards) == len(set(cards)) and rules.card_labels[S.z["fake_spots"][0]] == spot
