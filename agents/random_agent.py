"""The masked random agent: a uniformly random legal action in every row; and :func:`pick_legal`, the one-pass
selection behind the tournaments' seeded random pilot."""
from __future__ import annotations

import numpy as np
from numba import njit

from .base import masked_uniform


class RandomAgent:
    name = "random"
    #: reads only the mask: callers need not build a seat view of the state for it (agents.base)
    reads_state = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray, states: np.ndarray | None = None,
            players: np.ndarray | None = None) -> np.ndarray:
        return masked_uniform(mask, self.rng)


@njit(cache=True, nogil=True)
def pick_legal(mask: np.ndarray, rows: np.ndarray, u: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """``out[rows[j]]`` = legal action number ``floor(u[j] * n)`` (counting from 0, in column order) of mask row
    ``rows[j]``, where ``n`` is that row's number of legal actions; 0 when it has none.

    The same choice as ``argmax(cumsum(mask != 0) > floor(u * n))`` in numpy, in one pass over each row and without
    the ``[M, A]`` temporaries (the cumsum was a third of a random tournament's pilot time). ``mask``: C-contiguous
    int8 ``[N, A]``; ``rows``: int64 row indices; ``u``: float64 in [0, 1), one per index; ``out``: int32 ``[N]``."""
    width = mask.shape[1]
    for j in range(rows.shape[0]):
        r = rows[j]
        count = 0
        for a in range(width):
            if mask[r, a] != 0:
                count += 1
        pick = np.int64(np.floor(u[j] * count))
        choice = 0
        for a in range(width):
            if mask[r, a] != 0:
                if pick == 0:
                    choice = a
                    break
                pick -= 1
        out[r] = choice


__all__ = ["pick_legal", "RandomAgent"]
