"""How the tensors' numbers become float32 (the RL adapters' observation tensors)."""
from __future__ import annotations

import numpy as np

F32 = np.dtype(np.float32)
# what a num variable x is written as: a memoryview refuses a finite number past float32's
# range, which a float32 array makes inf (whole numbers, bounded by 2**63, never are)
PAST_FLOAT32 = " if -1e38 < {x} < 1e38 else array('f', ({x},))[0]"
