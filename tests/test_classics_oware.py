"""Oware against OpenSpiel, game by game, and every rule shown to fire.

``rulesets/oware.yaml`` is played in Rulebook with seeded random choices and replayed at once
in OpenSpiel's ``oware`` with the same ``num_houses_per_player`` and ``num_seeds_per_house``
(``board_replay``): at every decision the whole board, the stores and the player to move
(OpenSpiel's observation string, ``"<player to move> | <stores> | <seeds of houses 0 .. 2H-1>"``,
against the same string written from the Rulebook state) and the same moves offered; at the
end the same stores and returns. That is tests/test_classics.py's ``replay`` and more; the
boards are ``Twin`` records, counted with the other classics' there. Oware has no chance. Each
rule is also proved on a scripted game by ``rulesets/scenarios/oware.yaml``, which
tests/test_classics.py runs with the other classics' scenarios (and its search agents' game).

The replay also counts, from the Rulebook events, how often each rule fired (a lap skipping
the house sown from, a capture of 2, of 3, of several houses, a grand slam left uncaptured,
the must-feed rule, each way the game ends, a draw): the suite requires each to fire at least
once. ``OWARE_GAMES=200 python -m pytest tests/test_classics_oware.py -q`` plays more games per
board (the suite: 30); ``benchmarks/classics_oware.py`` prints the counts.
"""
from __future__ import annotations

import os
import random
from collections import Counter

import pytest

import interpreter
from test_classics import GAMES, NO_OPENSPIEL, Twin, win_loss

try:
    import pyspiel
except ImportError:
    pyspiel = None

GAMES = int(os.environ.get("OWARE_GAMES", GAMES))   # seeded games per case (the suite: 30, as tests/test_classics.py)


# ---------------------------------------------------------------------- the twin
# oware with num_houses_per_player H and num_seeds_per_house S as the ruleset's parameters of
# the same names (defaults 6 and 4). A move is the house's label: seat 0's houses are A, B,
# ... and seat 1's a, b, ..., as OpenSpiel writes its actions (`'A' + action`, `'a' + action`).
# No chance. OpenSpiel's returns (1 / -1, 0 for a tie) are read from the winners: the ruleset
# scores the seeds each player took.
def oware(houses: int, seeds: int) -> Twin:
    board = {"num_houses_per_player": houses, "num_seeds_per_house": seeds}
    return Twin("oware", "oware", (2,), lambda n: dict(board), None, lambda seat, label: label, win_loss,
                params=dict(board))


# the published board (6 houses of 4), and smaller ones where the end comes sooner: a player
# unable to feed, a repeated position, a tie of half the seeds each
TWINS = [oware(6, 4), oware(3, 3), oware(2, 2), oware(4, 1)]


# ---------------------------------------------------------------------- the board, and the rules
def board_string(rules, S) -> str:
    """OpenSpiel's observation string, written from the Rulebook state: the player to move,
    the stores, the seeds of every house in OpenSpiel's order (seat 0's row, then seat 1's)."""
    houses = sorted(S.z["board"], key=lambda c: (rules.attr_tables["side"][c], rules.attr_tables["pos"][c]))
    seeds = " ".join(str(S.c["seeds"][c]) for c in houses)
    return f"{S.v['mover']} | {S.c['store'][0]} {S.c['store'][1]} | {seeds}"


def rules_fired(S, events: list, board_before: str, legal: list[str], houses: int) -> list[str]:
    """The rules one move made fire, read from its events (the capture's gain and the houses it
    emptied come before the turn passes, the set of `mover`; the seeds collected at the end,
    after) and from the board before it."""
    fired = ["lap"] if S.v["in_hand"] >= 2 * houses else []
    turn = next(i for i, e in enumerate(events) if e["ev"] == "set" and e["var"] == "mover")
    gains = [e["amount"] for e in events[:turn] if e["ev"] == "gain" and e["counter"] == "store"]
    emptied = [e for e in events[:turn] if e["ev"] == "set_counter" and e["counter"] == "seeds" and e["value"] == 0][1:]
    if gains:
        fired.append("capture of several houses" if len(emptied) > 1 else f"capture of {gains[0]}")
    elif S.v["captured"]:
        fired.append("grand slam")
    mover, _, seeds = board_before.split(" | ")
    row = [int(x) for x in seeds.split()]
    h = len(row) // 2
    own, other = (row[:h], row[h:]) if mover == "0" else (row[h:], row[:h])
    if sum(other) == 0 and len(legal) < sum(1 for x in own if x > 0):
        fired.append("must feed")
    return fired


def ending(S, events: list, half: int) -> str:
    """Why the game ended, from the last move's events: the seeds collected come after the turn
    passes, so the stores before them are the final ones less those."""
    if S.v["repeated"]:
        return "end: a repeated position"
    turn = max(i for i, e in enumerate(events) if e["ev"] == "set" and e["var"] == "mover")
    stores = list(S.c["store"])
    for e in events[turn:]:
        if e["ev"] == "gain" and e["counter"] == "store":
            stores[e["owner"]] -= e["amount"]
    return "end: more than half the seeds" if max(stores) > half else "end: no move"


def board_replay(rules, game, seed: int, counts: Counter) -> None:
    """One seeded random game in both engines: at every decision the same board, stores and
    player to move, and the same moves; at the end the same stores and returns."""
    params = {k: game.get_parameters()[k] for k in ("num_houses_per_player", "num_seeds_per_house")}
    houses, seeds = params.values()
    S = rules.new_game(2, seed, {"params": params}, record=True)
    os_state = game.new_initial_state()
    rng = random.Random(seed)
    decisions = 0
    while not S.is_terminal():
        where = f"{params}, seed {seed}, decision {decisions + 1}"
        before = os_state.observation_string(0)
        assert board_string(rules, S) == before, f"{where}: Rulebook's board {board_string(rules, S)}, OpenSpiel's {before}"
        os_legal = {os_state.action_to_string(os_state.current_player(), a): a for a in os_state.legal_actions()}
        assert sorted(S.legal_actions()) == sorted(os_legal), f"{where}: Rulebook offers {S.legal_actions()}, OpenSpiel {sorted(os_legal)}"
        label = rng.choice(S.legal_actions())
        start = len(S.ev)
        S.apply(label)
        os_state.apply_action(os_legal[label])
        decisions += 1
        counts.update(rules_fired(S, S.ev[start:], before, sorted(os_legal), houses))
    assert decisions > 0 and os_state.is_terminal(), f"{params}, seed {seed}: Rulebook's game ended, OpenSpiel's goes on"
    # OpenSpiel's final board keeps the last player to move; the seeds are all in the stores
    assert board_string(rules, S).split(" | ")[1:] == os_state.observation_string(0).split(" | ")[1:]
    assert win_loss(rules, S) == list(os_state.returns())
    counts[ending(S, S.ev[start:], houses * seeds)] += 1
    counts[f"returns {os_state.returns()}"] += 1
    counts["draw"] += os_state.returns() == [0.0, 0.0]
    counts["game"] += 1


RULES = ["lap", "capture of 2", "capture of 3", "capture of several houses", "grand slam", "must feed",
         "end: a repeated position", "end: more than half the seeds", "end: no move", "draw"]


def rule_counts(twin: Twin, games: int) -> Counter:
    """Seeds 1..games of a twin replayed board by board (board_replay): how often each rule fired."""
    rules = interpreter.load(interpreter.ruleset_path("oware"))
    game = pyspiel.load_game("oware", twin.os_params(2))
    counts: Counter = Counter()
    for seed in range(1, games + 1):
        board_replay(rules, game, seed, counts)
    return counts


def test_the_board_agrees_at_every_decision_and_every_rule_fires():
    pytest.importorskip("pyspiel", reason=NO_OPENSPIEL)
    boards = [rule_counts(twin, GAMES) for twin in TWINS]
    counts = sum(boards, Counter())
    print(dict(counts))
    assert counts["game"] == GAMES * len(TWINS)
    # on each board the games did not all end alike (as test_classics.py asks of every twin)
    assert all(len([k for k in c if k.startswith("returns ")]) > 1 for c in boards)
    assert [r for r in RULES if counts[r] == 0] == []
