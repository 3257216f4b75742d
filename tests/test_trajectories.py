"""Random games of the four rulesets end exactly as they did when this file's data was written.

A guard for work on the engine's speed: an optimisation must not change what a game does. Each
ruleset and variant plays a few seeded random games; the final zones, counters, variables and
RNG state (not the engine's own step count) are hashed and compared with
``tests/data/trajectories.json``. When a rule or a ruleset changes on purpose, the games change
too: check that the change is the intended one, then rewrite the data with

    python tests/test_trajectories.py --update
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402

DATA = Path(__file__).with_name("data") / "trajectories.json"
CASES = [("diamonds", None, 12), ("diamonds", "teams", 6), ("diamonds", "two_player", 6),
         ("diams", None, 12), ("diams", "closing_last", 6), ("mister_diamond", None, 12),
         ("diamonds_club", None, 3), ("diamonds_club", "cost_by_coins", 2)]


def play(name: str, variant: str | None, games: int) -> str:
    """The hash of the final states of ``games`` seeded random games."""
    rules = interpreter.load(interpreter.ruleset_path(name), variant=variant)
    rnd = random.Random(7)
    finals = []
    for seed in range(games):
        S = rules.new_game(rnd.choice(rules.player_counts), seed=seed)
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
        finals.append(json.dumps([_zones(S), S.c, S.v, S.rng, S.scores()], sort_keys=True))
    return hashlib.sha256("\n".join(finals).encode()).hexdigest()


def _zones(S) -> dict:
    """The zones as lists whatever their representation (a zone per card, held sparsely as a
    dict, is written as the list of every card's zone), so the hash says what the game did."""
    n = len(S.rules.card_labels)
    return {name: ([zone.get(i, []) for i in range(n)] if isinstance(zone, dict) else zone)
            for name, zone in S.z.items()}


@pytest.mark.parametrize("name,variant,games", CASES, ids=[f"{n}-{v or 'base'}" for n, v, _ in CASES])
def test_random_games_end_as_before(name, variant, games):
    expected = json.loads(DATA.read_text())[f"{name}/{variant or 'base'}"]
    assert play(name, variant, games) == expected, (
        "random games no longer end as they did: if a rule changed on purpose, rewrite the data "
        "with `python tests/test_trajectories.py --update`")


if __name__ == "__main__" and "--update" in sys.argv:
    DATA.write_text(json.dumps({f"{n}/{v or 'base'}": play(n, v, g) for n, v, g in CASES}, indent=1) + "\n")
    print(f"wrote {DATA}")
