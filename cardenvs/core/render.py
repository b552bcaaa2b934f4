"""Text helpers every game's board rendering shares."""
from __future__ import annotations

import numpy as np

from .header import DRAW, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TRUNCATED

__all__ = ["headline", "status_suffix"]


def status_suffix(row: np.ndarray) -> str:
    """How a board's first line ends: who acts now, or how the game ended (``[P0 wins]``, ``[draw]``,
    ``[truncated]``: stopped at a cap, no winner)."""
    status = int(row[H_STATUS])
    if status == LIVE:
        return f"  to act: P{int(row[H_TO_ACT])}"
    if status == TRUNCATED:
        return "  [truncated]"
    winner = int(row[H_WINNER])
    return "  [draw]" if winner == DRAW else f"  [P{winner} wins]"


def headline(game: str, row: np.ndarray, turn_player: int, step_name: str) -> str:
    """The first line of a turn-based game's board: game, turn, turn player, step, then :func:`status_suffix`."""
    return f"{game}  turn {int(row[H_TURN])}  turn player P{turn_player}  step: {step_name}" + status_suffix(row)
