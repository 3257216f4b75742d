#!/usr/bin/env python3
"""The classic games against OpenSpiel: the proof at scale, and the speed of both engines.

    python benchmarks/classics.py [--games 200] [--seconds 2] [--json]

For each classic with an OpenSpiel twin (tests/test_classics.py and tests/test_classics_tricks.py
say how each is mapped):

1. **proof**: ``--games`` seeded random games played in Rulebook and replayed move by move,
   chance outcome by chance outcome, in OpenSpiel's game of the same name, requiring the same
   legal moves at every decision and the same returns (an AssertionError names the game);
2. **speed**: decisions a second of random play, for about ``--seconds`` each, in Rulebook
   (``State.apply_index``) and in OpenSpiel's C++ game through its Python binding (pyspiel:
   ``apply_action``, chance outcomes sampled, a simultaneous node counted as one decision per
   player, as Rulebook asks them), in the same process, one after the other.

Both loops pick a uniformly random legal move with a seeded ``random.Random``; OpenSpiel's
figure includes the binding's call overhead per move (a pure C++ loop is faster still).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

try:
    import pyspiel
except ImportError:
    sys.exit("benchmarks/classics.py needs OpenSpiel (the `rl` extra: pip install open_spiel)")

import interpreter  # noqa: E402
import test_classics as twins  # noqa: E402
import test_classics_tricks as trick_twins  # noqa: E402

# the game and player count measured for each twin: OpenSpiel's defaults
MEASURED = [(twins.KUHN, 2), (twins.LEDUC, 2), (twins.GOOFSPIEL, 2), (twins.TIC_TAC_TOE, 2),
            (twins.liars_dice(1, 6), 2), (twins.connect_four(6, 7, 4), 2),
            (trick_twins.oh_hell(-1, (3,)), 3), (trick_twins.hearts(), 4),
            (trick_twins.euchre(), 4), (trick_twins.spades(), 4)]


def rulebook_speed(rules, n: int, params: dict, seconds: float) -> tuple[int, float]:
    rnd = random.Random(1)
    decisions, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        S = rules.new_game(n, seed, {"params": dict(params)})
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.legal_actions())))
            decisions += 1
    return decisions, time.perf_counter() - start


def openspiel_speed(game, seconds: float) -> tuple[int, float]:
    rnd = random.Random(1)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rnd.randrange(len(outcomes))][0])
            elif state.is_simultaneous_node():
                joint = []
                for p in range(game.num_players()):
                    legal = state.legal_actions(p)
                    joint.append(legal[rnd.randrange(len(legal))])
                state.apply_actions(joint)
                decisions += game.num_players()
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rnd.randrange(len(legal))])
                decisions += 1
    return decisions, time.perf_counter() - start


def arguments(doc: str, games_help: str, seconds: float, seconds_help: str):
    """The command line of a classics benchmark: --games, --seconds, --json."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help=games_help)
    ap.add_argument("--seconds", type=float, default=seconds, help=seconds_help)
    ap.add_argument("--json", action="store_true")
    return ap.parse_args()


def proved(twin, games: int, wrap=None):
    """(case name, the replays of seeds 1..games in OpenSpiel: (decisions, returns) each) for each
    player count of a twin (test_classics.replay: an AssertionError names a game that differs);
    ``wrap``: what the loaded ruleset is wrapped in for the replay (Go Fish's records its games' events)."""
    rules = interpreter.load(interpreter.ruleset_path(twin.ruleset))
    rules = wrap(rules) if wrap else rules
    for n in twin.players:
        game = pyspiel.load_game(twin.openspiel, twin.os_params(n))
        yield twins.case_id(twin, n), [twins.replay(twin, n, seed, rules, game) for seed in range(1, games + 1)]


def rates(twin, n: int, seconds: float) -> dict:
    """Decisions a second of random play of a twin at ``n`` players in Rulebook and in OpenSpiel,
    and how many times faster OpenSpiel is."""
    rules = interpreter.load(interpreter.ruleset_path(twin.ruleset))
    game = pyspiel.load_game(twin.openspiel, twin.os_params(n))
    rb_d, rb_s = rulebook_speed(rules, n, twin.params, seconds)
    os_d, os_s = openspiel_speed(game, seconds)
    return {"rulebook_decisions_per_s": round(rb_d / rb_s), "openspiel_decisions_per_s": round(os_d / os_s),
            "ratio": round((os_d / os_s) / (rb_d / rb_s), 1)}


def main() -> int:
    args = arguments(__doc__, "seeded games replayed in OpenSpiel per twin and player count", 2.0,
                     "time spent measuring each engine on each game")
    proofs = []
    for twin in twins.TWINS + trick_twins.TWINS:
        for case, results in proved(twin, args.games):
            proofs.append({"game": case, "games": args.games,
                           "decisions": sum(d for d, _ in results),
                           "distinct_returns": len({r for _, r in results})})
            if not args.json:
                p = proofs[-1]
                print(f"proof  {p['game']:<44} {p['games']} games, {p['decisions']} decisions: "
                      f"the same moves and returns as OpenSpiel")

    speeds = []
    for twin, n in MEASURED:
        speeds.append({"game": twin.ruleset, "players": n, "params": twin.params, **rates(twin, n, args.seconds)})
    if args.json:
        print(json.dumps({"proofs": proofs, "speed": speeds}, indent=1))
        return 0
    print()
    print(f"{'game':<14} {'players':>7} {'Rulebook dec/s':>15} {'OpenSpiel dec/s':>16} {'OpenSpiel / Rulebook':>21}")
    for s in speeds:
        print(f"{s['game']:<14} {s['players']:>7} {s['rulebook_decisions_per_s']:>15,} "
              f"{s['openspiel_decisions_per_s']:>16,} {s['ratio']:>20}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
