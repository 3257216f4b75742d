"""Stage 4, mechanics: one mechanic per module, its compile and its runtime together.

Step kinds (the resumable parts of a flow: turns, tricks, a market...), effect kinds (gain,
move, deal...), triggers, scoring and the top-level sections a mechanic owns (``board:``)
register themselves in base.py's tables when imported here; the builder (stage 5) looks them
up by the YAML key, and the engine (stage 3) runs steps through its protocol. A ruleset
names a step kind by its key (``- tricks: {...}``); anything else in a flow list is an effect
and runs inline. Imports errors, loading, expr and engine.
"""
from .base import STEP_KINDS, Step, Sequence, StepScope, step_kind
from . import counters, variables, cards, show  # noqa: F401  (registration: the effect kinds)
from . import flow, choose, branch, pick, passing, tricks  # noqa: F401  (registration)
from . import board, skill, dexterity  # noqa: F401  (registration: board:, neighbors(), skill(), attempt)
from . import market  # noqa: F401  (registration: combos(), sums(), groups())
from . import grid, pay, tracks  # noqa: F401  (registration: grid, pay, advance, grid_neighbours())

__all__ = ["STEP_KINDS", "Step", "Sequence", "StepScope", "step_kind"]
