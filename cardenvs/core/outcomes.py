"""Who won each finished game of a batch, read from the header: the part every game's ``endings.end_reason`` shares.

A game's ``endings.py`` tells *how* a game ended from the zones its rules leave behind; which games ended, who won,
who lost, and the per-player columns of winner and loser are the same question in every game, answered here once.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .header import DRAW, H_STATUS, H_WINNER, TERMINATED


@dataclass(frozen=True)
class Outcomes:
    """The header's verdict on each row of a ``[G, S]`` batch of final states."""

    states: np.ndarray  #: int [G, S], at least 2-D
    rows: np.ndarray  #: intp [G]: 0..G-1, for per-row fancy indexing
    ended: np.ndarray  #: bool [G]: terminated by the rules (a truncated game has no ending)
    won: np.ndarray  #: bool [G]: ended with a winner (0 or 1)
    drawn: np.ndarray  #: bool [G]: ended in a draw
    winner: np.ndarray  #: intp [G]: the winner where ``won`` (0 elsewhere, so it can index)
    loser: np.ndarray  #: intp [G]: 1 - ``winner``

    def no_ending(self) -> np.ndarray:
        """int8 [G] of -1: the ``end_reason`` of a game that no rule explains, to be overwritten by the rules'."""
        return np.full(self.rows.shape[0], -1, dtype=np.int8)

    def of_winner(self, column: int) -> np.ndarray:
        """[G]: the winner's entry of a per-player field that starts at ``column`` (player 0's; player 1's next)."""
        return self.states[self.rows, column + self.winner]

    def of_loser(self, column: int) -> np.ndarray:
        """[G]: the loser's entry of a per-player field that starts at ``column``."""
        return self.states[self.rows, column + self.loser]

    def both(self, column: int) -> np.ndarray:
        """[G, 2]: both players' entries of a per-player field that starts at ``column``."""
        return self.states[:, column:column + 2]


def final_outcomes(states: np.ndarray) -> Outcomes:
    """Read the header of each final state (one row or a ``[G, S]`` batch)."""
    states = np.atleast_2d(states)
    ended = states[:, H_STATUS] == TERMINATED
    result = states[:, H_WINNER]
    won = ended & ((result == 0) | (result == 1))
    winner = np.where(won, result, 0).astype(np.intp)
    return Outcomes(states=states, rows=np.arange(states.shape[0]), ended=ended, won=won,
                    drawn=ended & (result == DRAW), winner=winner, loser=1 - winner)


__all__ = ["final_outcomes", "Outcomes"]
