"""OpenSpiel's ``max_game_length``: a bound on a game's decisions that a learner can use.

A ruleset's flow may loop on conditions (``until``, ``while``, a ``turns`` until someone
wins), which bound nothing by themselves, so the bound is measured: the most decisions of
``LENGTH_GAMES`` random games (seeds 0, 1, ...; each option equally likely) at the game's
settings, times ``LENGTH_MARGIN``, and never more than the step budget (every decision is a
step, and a game past the budget stops with an error). Random play is what the bound is
safe for; a game played to stall (a seat that never closes) may be longer.
"""
from __future__ import annotations

import random

from ..errors import GameError

LENGTH_GAMES = 32    # random games played to measure it (about 0.15 s for the longest bundled game)
LENGTH_MARGIN = 2    # times the longest of them


def longest(table, seeds) -> int:
    """The most decisions of the random games of ``seeds`` (each seed's game, its options
    drawn by a ``random.Random`` of that seed); the step budget if one of them runs past it."""
    most = 0
    for seed in seeds:
        S, rnd, n = table.new_game(seed), random.Random(seed), 0
        try:
            while not S.over:
                S.apply_index(rnd.randrange(len(S.dec[1])))
                n += 1
        except GameError:      # (past the budget, or a ruleset's runtime error: no bound below the budget)
            return table.rules.max_steps
        most = max(most, n)
    return most


def length_bound(table) -> int:
    """``max_game_length`` of the game of ``table``: the longest of ``LENGTH_GAMES`` random
    games times ``LENGTH_MARGIN``, at most the step budget (kept with the table)."""
    bound = getattr(table, "length", None)
    if bound is None:
        bound = table.length = min(LENGTH_MARGIN * longest(table, range(LENGTH_GAMES)), table.rules.max_steps)
    return bound
