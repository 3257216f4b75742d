"""rollouts: flat Monte Carlo. For each legal option the agent plays ``n`` random games to
the end, each from a determinization of the game (``view.sample``: what the seat may know,
the rest dealt again; never the real hidden cards) with that option first, and keeps the
option of best mean reward (``evaluation.rewards``): ``reward=win`` (the default) is the
seat's share of the win, ``reward=margin`` its lead over the best other team in [0, 1].
``depth`` (0: to the end) cuts a playout after that many moves and values the position
reached (the ruleset's ``heuristic:``, else the scores).

Playout ``k`` of every option starts from the same determinization and plays with the same
random generator after the option (common random numbers: the options differ by what they
do, not by their luck). A playout whose sampled game breaks (its step budget...) counts as
lost. Ties are broken at random; its RNG is seeded by its seat's seed (agents.agent_seed):
given the game's seed its moves are the same on every run.
"""
from __future__ import annotations

import random

from ...errors import GameError
from .evaluation import REWARDS, agent_rng, choose, play_out, rewards

PARAMS = {"n": int, "depth": int, "reward": str}


class RolloutAgent:
    name = "rollouts"
    needs_knowledge = True

    def __init__(self, seed: int = 0, seat: int = 0, n: int = 8, depth: int = 0, reward: str = "win"):
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
        if n < 1 or depth < 0:
            raise ValueError("n is at least 1, depth not negative")
        self.seat, self.n, self.depth, self.reward = seat, n, depth, reward
        self.rng = agent_rng(self.name, seed, seat)

    def decide(self, view) -> int:
        return choose(view, self.rng, self.n, self.add)

    def add(self, D, luck: int, totals: list) -> None:
        """Each option's reward in a playout from the determinization ``D``, added to ``totals``."""
        for i in range(len(totals)):
            C = D.clone()
            try:
                C.apply_index(i)
                play_out(C, random.Random(luck), self.depth or -1)
                totals[i] += rewards(C, self.reward)[self.seat]
            except GameError:
                pass      # a broken sampled game: reward 0
