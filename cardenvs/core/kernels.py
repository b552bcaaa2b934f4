"""What the generated batch kernels (``cardenvs/games/<game>/_kernels.py``, rendered by
:mod:`cardenvs.core.kernel_template`) and the pilots' batch loops share at run time: the pilots' one row loop is
:func:`decide_rows`.

``step_row``'s result codes: the fused play loop copies the next decision's mask from the step's scratch instead of
computing it again when the step says it is there. :func:`wanted` is the skip test of the games' one-action legality
checks (the step asks about the chosen action only).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .header import H_STATUS, LIVE

__all__ = ["STEP_APPLIED", "STEP_ILLEGAL", "STEP_MASK_READY", "copy_into", "decide_rows", "legal_or_first", "wanted"]

#: the action was not legal: the row is untouched
STEP_ILLEGAL = 0
#: the action was applied and the row settled
STEP_APPLIED = 1
#: applied, the row is live, and the step's scratch mask holds the mask of the player to act next
STEP_MASK_READY = 2


@njit(cache=True, inline="always")
def copy_into(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[:] = src`` for two 1-D arrays of the same length, element by element: Numba compiles the slice copy
    with its shape-mismatch error message, 3-4 s of a cold compile per pair of array types (9-13 s in a kernel)
    that a loop does not pay. The caller knows the lengths are equal."""
    for k in range(src.shape[0]):
        dst[k] = src[k]


@njit(cache=True, inline="always")
def wanted(only: int, lo: int, hi: int) -> bool:
    """Does a legality pass asked about action ``only`` need actions ``lo..hi-1``? (``only`` < 0: it wants every
    action, the whole mask.) A game's one-action check (``KERNEL_OPTIONS["legal_check"]``) runs its mask's branches
    with ``only`` set, and each costly loop skips the ranges this says it does not need."""
    return only < 0 or (lo <= only and only < hi)


@njit(cache=True, inline="always")
def legal_or_first(a: int, mask: np.ndarray, fallback: bool) -> int:
    """A pilot's choice ``a``, or with ``fallback`` the first legal action in ``mask`` when ``a`` is not legal (the
    heuristics' safety net; tests pass ``fallback=False`` to see the raw choice). ``a`` when nothing is legal."""
    if fallback and (a < 0 or a >= mask.shape[0] or mask[a] == 0):
        for b in range(mask.shape[0]):
            if mask[b] != 0:
                return b
    return a


# inlined into each pilot's own cached batch kernel: a jitted loop that took ``decide`` as an argument on its own (or
# a closure over it) would be compiled again in every process, since Numba keys its cache on the function's file
@njit(inline="always")
def decide_rows(decide, states: np.ndarray, tables, players: np.ndarray, masks: np.ndarray, out: np.ndarray,
                fallback: bool, work: tuple) -> None:
    """The pilots' batch loop: ``out[i] = decide(states[i], tables, p, masks[i], *work)`` for every live row with a
    seat ``p = players[i] >= 0`` and 0 for the others, a choice that is not legal replaced by the first legal action
    when ``fallback`` (:func:`legal_or_first`). ``work``: the pilot's scratch arrays, allocated once per batch."""
    for i in range(states.shape[0]):
        p = players[i]
        out[i] = 0
        if p < 0 or states[i, H_STATUS] != LIVE:
            continue
        out[i] = legal_or_first(decide(states[i], tables, p, masks[i], *work), masks[i], fallback)
