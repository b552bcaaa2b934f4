"""What the generated batch kernels (``cardenvs/games/<game>/_kernels.py``, rendered by
:mod:`cardenvs.core.kernel_template`) and the pilots' batch loops share at run time.

``step_row``'s result codes: the fused play loop copies the next decision's mask from the step's scratch instead of
computing it again when the step says it is there.
"""
from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["STEP_APPLIED", "STEP_ILLEGAL", "STEP_MASK_READY", "legal_or_first"]

#: the action was not legal: the row is untouched
STEP_ILLEGAL = 0
#: the action was applied and the row settled
STEP_APPLIED = 1
#: applied, the row is live, and the step's scratch mask holds the mask of the player to act next
STEP_MASK_READY = 2


@njit(cache=True, inline="always")
def legal_or_first(a: int, mask: np.ndarray, fallback: bool) -> int:
    """A pilot's choice ``a``, or with ``fallback`` the first legal action in ``mask`` when ``a`` is not legal (the
    heuristics' safety net; tests pass ``fallback=False`` to see the raw choice). ``a`` when nothing is legal."""
    if fallback and (a < 0 or a >= mask.shape[0] or mask[a] == 0):
        for b in range(mask.shape[0]):
            if mask[b] != 0:
                return b
    return a
