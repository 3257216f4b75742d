"""greedy: one-step look-ahead, read once the move has settled. For each legal option the
agent plays it on a determinization of the game (``view.sample``: what the seat may know,
the rest dealt again; never the real hidden cards) and values the position for its seat
(``evaluation.evaluate``: the ruleset's ``heuristic:``, else its score, minus the best other
team's). A move's worth often shows only after the other seats answer it (a card led wins
or loses the trick when the last one is played; a collection kept scores when the round is
scored), so the position is valued once it settles: play goes on with random moves until a
seat's value has changed and the agent's seat is asked again, or the game ends, or
``depth`` moves were played (``depth=0``: valued at once, the plain one-ply greedy); then
every option is played on to the same number of moves, the most any of them took to settle
(an option that settles early is not valued earlier in the game than another). A game
that ends is worth most if the seat wins it, least if it loses.

Every option of a sample plays from the same determinization and with the same random
moves after it (common random numbers: the options differ by what they do, not by their
luck). ``samples`` (4) determinizations are averaged; one the rules fail to value as sampled (a
scoring error over the cards it guessed) is skipped, and an option whose play or valuing then
fails counts as lost. Ties are broken at random. Its RNG is
seeded by its seat's seed (agents.agent_seed): given the game's seed its moves are the same
on every run.
"""
from __future__ import annotations

import random

from ...errors import GameError
from .evaluation import agent_rng, choose, evaluate, play_out, values

WIN = 1e12   # a finished game the seat wins is worth more than any position, a lost one less

PARAMS = {"samples": int, "depth": int}


class GreedyAgent:
    name = "greedy"
    needs_knowledge = True

    def __init__(self, seed: int = 0, seat: int = 0, samples: int = 4, depth: int = 200):
        if samples < 1 or depth < 0:
            raise ValueError("samples is at least 1, depth not negative")
        self.seat, self.samples, self.depth = seat, samples, depth
        self.rng = agent_rng(self.name, seed, seat)

    def decide(self, view) -> int:
        return choose(view, self.rng, self.samples, self.add)

    def add(self, D, luck: int, totals: list) -> None:
        """Each option's worth on the determinization ``D``, added to ``totals``."""
        n = len(totals)
        try:
            before = values(D)
        except GameError:   # a sampled world the rules cannot score (its guess of hidden cards): skipped
            return
        runs: list[tuple | None] = []
        for i in range(n):
            C, rng = D.clone(), random.Random(luck)
            try:
                C.apply_index(i)
                runs.append((C, rng, self.settle(C, before, rng)))
            except GameError:   # a sampled game that breaks (its step budget...) counts as lost
                runs.append(None)
        # every option is valued the same number of moves on, when the slowest has settled
        horizon = max((r[2] for r in runs if r), default=0)
        for i, run in enumerate(runs):
            if run is None:
                totals[i] -= WIN
                continue
            C, rng, played = run
            try:
                play_out(C, rng, horizon - played)
                totals[i] += self.value(C)
            except GameError:
                totals[i] -= WIN

    def settle(self, S, before: list, rng) -> int:
        """Random moves until a seat's value has changed and the seat is asked again (or the
        game ends, or ``depth`` moves); how many were played."""
        seat = self.seat
        changed = values(S) != before
        for played in range(self.depth):
            if S.over or (changed and S.dec[0] == seat):
                return played
            S.apply_index(rng.randrange(len(S.dec[1])))
            if not changed:
                changed = values(S) != before
        return self.depth

    def value(self, S) -> float:
        if S.over:
            winners = S.winners()
            return (WIN if self.seat in winners else -WIN) + evaluate(S, self.seat) if winners else -WIN
        return evaluate(S, self.seat)
