"""greedy: one-step look-ahead. For each legal option the agent plays it on one
determinization of the game (the same for every option: ``view.sample``) and keeps the
option whose resulting position evaluates best for its seat (``evaluation.evaluate``: the
ruleset's ``heuristic:``, else its score minus the best other score); a move that ends the
game is worth most if the seat wins it. Ties are broken at random (its RNG is seeded by its
seat's seed, agents.agent_seed). Parameter: ``samples`` (1), determinizations to average over.
"""
from __future__ import annotations

import random

from .evaluation import evaluate

WIN = 1e12   # a finished game the seat wins is worth more than any position, a lost one less

PARAMS = {"samples": int}


class GreedyAgent:
    name = "greedy"
    needs_knowledge = True

    def __init__(self, seed: int = 0, seat: int = 0, samples: int = 1):
        if samples < 1:
            raise ValueError("samples is at least 1")
        self.seat, self.samples = seat, samples
        self.rng = random.Random(f"rulebook-agent:greedy:{seed}:{seat}")

    def decide(self, view) -> int:
        n = view.options
        if n == 1:
            return 0
        totals = [0.0] * n
        for _ in range(self.samples):
            D = view.sample(self.rng)
            D.kn = None   # (its own copy) a look ahead needs no record of who knows where cards are
            for i in range(n):
                C = D.clone()
                C.apply_index(i)
                totals[i] += self.value(C)
        best = max(totals)
        ties = [i for i, t in enumerate(totals) if t == best]
        return ties[self.rng.randrange(len(ties))]

    def value(self, S) -> float:
        if S.over:
            winners = S.winners()
            return (WIN if self.seat in winners else -WIN) + evaluate(S, self.seat) if winners else -WIN
        return evaluate(S, self.seat)
