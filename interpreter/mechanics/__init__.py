"""Step kinds: the resumable parts of a game's flow, one mechanic per module.

The flow core knows step kinds only through STEP_KINDS (filled by @step_kind); a ruleset
names a kind by its key (``- tricks: {...}``). Anything that is not a step kind in a flow
list is an effect (see effects.py) and runs inline.
"""
from .base import STEP_KINDS, Step, Sequence, StepScope, step_kind
from . import counters, variables, cards  # noqa: F401  (registration: the effect kinds)
from . import flow, choose, branch, pick, passing, tricks  # noqa: F401  (registration)
from . import board, dexterity  # noqa: F401  (registration: board:, neighbors(), attempt, skill())
from . import market  # noqa: F401  (registration: combos(), sums(), groups())
from . import grid, pay, tracks  # noqa: F401  (registration: grid, pay, advance, grid_neighbours())

__all__ = ["STEP_KINDS", "Step", "Sequence", "StepScope", "step_kind"]
