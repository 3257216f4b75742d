"""How the tensors' numbers become float32 (the RL adapters' observation tensors)."""
from __future__ import annotations

import numpy as np

from ..expr.types import NUM, PLAYER, TEAM

F32 = np.dtype(np.float32)
# what a num variable x is written as: a memoryview refuses a finite number past float32's
# range, which a float32 array makes inf (whole numbers, bounded by 2**63, never are)
PAST_FLOAT32 = " if -1e38 < {x} < 1e38 else array('f', ({x},))[0]"


def var_value(typ, x: str, seat, team, n: int, teams: int) -> str:
    """The source of a public variable's tensor value, ``x`` not none, as ``seat`` and ``team``
    (sources or numbers) see it: a seat or a team relative to the viewer, +1 (0 is none); a
    num as a float32 array writes it; anything else itself (the three encoders share this)."""
    if typ == PLAYER:
        return f"({x} - {seat}) % {n} + 1"
    if typ == TEAM:
        return f"({x} - {team}) % {teams} + 1"
    if typ == NUM:
        return f"(float({x}){PAST_FLOAT32.format(x=x)})"
    return x
