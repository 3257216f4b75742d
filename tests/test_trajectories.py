"""Random games of the four rulesets end exactly as they did when this file's data was written.

A guard for work on the engine's speed: an optimisation must not change what a game does. Each
ruleset and variant plays a few seeded random games; the final zones, counters, variables and
RNG state (not the engine's own step count) are hashed and compared with
``tests/data/trajectories.json``. When a rule or a ruleset changes on purpose, the games change
too: see what moved, then rewrite the data once the change is the intended one:

    python tests/test_trajectories.py --update            # prints what moved, writes nothing
    python tests/test_trajectories.py --update --accept   # prints it and rewrites the data

Each case keeps, beside the hash, every game's seed, player count and scores and a short hash
of each part of its final state, so a change says which games and which parts moved (old -> new).
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
from helpers import update_command  # noqa: E402

DATA = Path(__file__).with_name("data") / "trajectories.json"
CASES = [("diamonds", None, 12), ("diamonds", "teams", 6), ("diamonds", "two_player", 6),
         ("diams", None, 12), ("diams", "closing_last", 6), ("mister_diamond", None, 12),
         ("diamonds_club", None, 3), ("diamonds_club", "cost_by_coins", 2)]


PARTS = ("zones", "counters", "vars", "rng")


def play(name: str, variant: str | None, games: int) -> dict:
    """``games`` seeded random games: the hash of their final states, and each game's summary."""
    rules = interpreter.load(interpreter.ruleset_path(name), variant=variant)
    rnd = random.Random(7)
    finals, summaries = [], []
    for seed in range(games):
        S = rules.new_game(rnd.choice(rules.player_counts), seed=seed)
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
        parts = dict(zip(PARTS, (_zones(S), S.c, S.v, S.rng)))
        finals.append(json.dumps([*parts.values(), S.scores()], sort_keys=True))
        summaries.append({"seed": seed, "players": S.n, "scores": S.scores(),
                          **{k: _short(v) for k, v in parts.items()}})
    return {"hash": hashlib.sha256("\n".join(finals).encode()).hexdigest(), "games": summaries}


def _short(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:12]


def _zones(S) -> dict:
    """The zones as lists whatever their representation (a zone per card, held sparsely as a
    dict, is written as the list of every card's zone), so the hash says what the game did."""
    n = len(S.rules.card_labels)
    return {name: ([zone.get(i, []) for i in range(n)] if isinstance(zone, dict) else zone)
            for name, zone in S.z.items()}


def moved(key: str, old, new: dict) -> list[str]:
    """What changed between the stored case ``old`` (a hash alone, or a hash and its games) and
    the games played now, one line per game and part: ``old -> new``."""
    if old is None:
        return [f"{key}: new case ({len(new['games'])} games)"]
    old_hash = old if isinstance(old, str) else old["hash"]
    if old_hash == new["hash"]:
        return []
    if isinstance(old, str):
        return [f"{key}: the final states changed (the stored data holds their hash only)"]
    out = []
    before = {g["seed"]: g for g in old["games"]}
    for g in new["games"]:
        was = before.pop(g["seed"], None)
        if was is None:
            out.append(f"{key} game seed {g['seed']}: new")
            continue
        where = f"{key} game seed {g['seed']} ({g['players']} players)"
        for field in ("players", "scores", *PARTS):
            if was.get(field) != g.get(field):
                out.append(f"{where}: {field} {was.get(field)} -> {g.get(field)}")
    out += [f"{key} game seed {seed}: gone" for seed in before]
    return out or [f"{key}: the hash changed, no game's summary did"]


@pytest.mark.parametrize("name,variant,games", CASES, ids=[f"{n}-{v or 'base'}" for n, v, _ in CASES])
def test_random_games_end_as_before(name, variant, games):
    key = f"{name}/{variant or 'base'}"
    expected = json.loads(DATA.read_text())[key]
    now = play(name, variant, games)
    assert now["hash"] == (expected if isinstance(expected, str) else expected["hash"]), (
        "random games no longer end as they did:\n" + "\n".join(moved(key, expected, now)) +
        "\nif a rule changed on purpose, review and rewrite the data with "
        "`python tests/test_trajectories.py --update --accept`")


def test_a_change_is_shown_game_by_game_and_part_by_part():
    game = {"seed": 3, "players": 2, "scores": [4, 5], "zones": "a", "counters": "b", "vars": "c", "rng": "d"}
    old = {"hash": "h1", "games": [game, {**game, "seed": 4}]}
    new = {"hash": "h2", "games": [{**game, "scores": [4, 6], "counters": "e"}, {**game, "seed": 4}]}
    assert moved("g/base", old, new) == ["g/base game seed 3 (2 players): scores [4, 5] -> [4, 6]",
                                         "g/base game seed 3 (2 players): counters b -> e"]
    assert moved("g/base", old, {**old}) == [] and moved("g/base", "h1", {**new, "hash": "h1"}) == []
    assert moved("g/base", "h1", new) == ["g/base: the final states changed (the stored data holds their hash only)"]
    assert moved("g/base", None, new) == ["g/base: new case (2 games)"]


def update(accept: bool) -> int:
    """Print what moved in every case; with ``accept``, rewrite the data."""
    stored = json.loads(DATA.read_text()) if DATA.exists() else {}
    now = {f"{n}/{v or 'base'}": play(n, v, g) for n, v, g in CASES}
    lines = [line for key, new in now.items() for line in moved(key, stored.get(key), new)]
    lines += [f"{key}: case removed" for key in stored if key not in now]
    print("\n".join(lines) if lines else "no game moved")
    if not accept:
        print(f"nothing written: rerun with --update --accept to rewrite {DATA}")
        return 0
    DATA.write_text(json.dumps(now, indent=1) + "\n")
    print(f"wrote {DATA}")
    return 0


if __name__ == "__main__":
    update_command(update, "test_trajectories.py")
