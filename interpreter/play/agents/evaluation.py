"""How good a position is for a seat, and the reward of a finished (or cut-off) game: what the
search agents maximise.

A seat's *value* is the ruleset's ``heuristic:`` expression for that seat (me = the seat)
when it declares one, else its score (turned round with ``lowest_wins``); a finished game's
value is always the score. ``evaluate(S, seat)`` is the seat's value minus the best value of
another team (another seat without teams): how far it leads. ``rewards(S, mode)`` gives every
seat its reward in [0, 1]:

- ``win``: a finished game gives 1 to its winner, 1/k to each of k winners sharing it, 0 to
  the others; a game cut off before its end gives the same to the seats of best value;
- ``margin``: 0.5 + 0.5 x (the seat's value minus the best other team's) / (1 + the largest
  absolute value), clipped to [0, 1]: a lead is worth more the larger it is.
"""
from __future__ import annotations

import random

from ...engine.knowledge import unknowing
from ...errors import GameError

REWARDS = ("win", "margin")


def values(S) -> list[float]:
    """Each seat's value: its score when the game is over, else its heuristic (or score)."""
    sign = -1 if S.rules.scoring.lowest_wins else 1
    heuristic = S.rules.heuristic
    if heuristic is None or S.over:
        return [sign * s for s in S.scores()]
    return [heuristic(S, p, None) for p in S.players]


def _leads(S, v) -> list[float]:
    out = []
    for p in S.players:
        others = [v[q] for q in S.players if S.tm[q] != S.tm[p]]
        out.append(v[p] - (max(others) if others else 0.0))
    return out


def evaluate(S, seat: int) -> float:
    return _leads(S, values(S))[seat]


def rewards(S, mode: str = "win") -> list[float]:
    if mode == "win":
        if S.over:
            winners = S.winners()
        else:
            v = values(S)
            best = max(v)
            winners = [p for p in S.players if v[p] == best]
        share = 1.0 / len(winners) if winners else 0.0
        out = [0.0] * S.n
        for p in winners:
            out[p] = share
        return out
    v = values(S)
    scale = 1.0 + max(abs(x) for x in v)
    return [min(1.0, max(0.0, 0.5 + 0.5 * m / scale)) for m in _leads(S, v)]


def play_out(S, rng, moves: int = -1) -> None:
    """Random moves from ``S`` (drawn from ``rng``) until the game ends or ``moves`` are played
    (a negative number: until the end): the playout of the search agents."""
    while moves and not S.over:
        S.apply_index(rng.randrange(len(S.dec[1])))
        moves -= 1


def agent_rng(name: str, seed: int, seat: int) -> random.Random:
    """The random generator of the search agent ``name`` at ``seat``: given its seat's seed
    (agents.agent_seed), its moves are the same on every run."""
    return random.Random(f"rulebook-agent:{name}:{seed}:{seat}")


def samples(view, rng, n: int):
    """``n`` determinizations of the game as the seat sees it (``view.sample``), each with the
    seed of the random moves every option plays after it (common random numbers: the options
    differ by what they do, not by their luck)."""
    for _ in range(n):
        try:
            D = view.sample(rng)
        except GameError:   # a world that cannot be built (engine/knowledge.py): skipped, as one the rules
            continue        # cannot score
        unknowing(D)   # (its own copy) a look ahead needs no record of who knows where cards are
        yield D, rng.getrandbits(64)


def best_of(totals: list, rng) -> int:
    """The index of the largest total, a tie broken at random."""
    best = max(totals)
    ties = [i for i, t in enumerate(totals) if t == best]
    return ties[rng.randrange(len(ties))]


def choose(view, rng, n: int, add) -> int:
    """The option a search agent takes: a lone one at once, else the one of best total (a tie
    broken at random), ``add(D, luck, totals)`` adding each option's worth on each of ``n``
    determinizations (``samples``) to ``totals``."""
    if view.options == 1:
        return 0
    totals = [0.0] * view.options
    for D, luck in samples(view, rng, n):
        add(D, luck, totals)
    return best_of(totals, rng)
