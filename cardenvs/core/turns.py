"""Header-only state changes every sequential ruleset makes: whose decision is pending, and how a game ends.

They touch only the core header (:mod:`cardenvs.core.header`), so they live here once instead of in each game.
"""
from __future__ import annotations

import numpy as np

from .header import H_NEEDS, H_STATUS, H_TO_ACT, H_WINNER, NO_WINNER, TERMINATED, TRUNCATED
from .jit import helper


@helper
def set_decision(row: np.ndarray, p: int) -> None:
    """Player ``p`` is the one to act."""
    row[H_TO_ACT] = p
    row[H_NEEDS] = 1 << p


@helper
def finish(row: np.ndarray, winner: int) -> None:
    """The game is over: ``winner`` 0 or 1, or ``DRAW``."""
    row[H_STATUS] = TERMINATED
    row[H_WINNER] = winner
    row[H_TO_ACT] = -1
    row[H_NEEDS] = 0


@helper
def truncate(row: np.ndarray) -> None:
    """The game reached its documented cap: no winner."""
    row[H_STATUS] = TRUNCATED
    row[H_WINNER] = NO_WINNER
    row[H_TO_ACT] = -1
    row[H_NEEDS] = 0


__all__ = ["finish", "set_decision", "truncate"]
