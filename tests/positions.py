"""What every game's scenario helpers (``tests/games/<game>/<game>_helpers.py``) share when they build a position by
hand: naming card instances as they are placed, and putting the finished row live with one player to decide."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from cardenvs.core.header import H_NEEDS, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, NO_WINNER


def instance_maker(pool: Any, cards: list[str]) -> Callable[[str], int]:
    """``new(name)``: append a card of ``pool`` to ``cards`` (a player's deck list being built) and return its
    instance id; an unknown name is a KeyError naming it."""

    def new(name: str) -> int:
        if name not in pool.by_name:
            raise KeyError(f"no card {name!r} in the pool")
        cards.append(name)
        return len(cards) - 1

    return new


def go_live(row: np.ndarray, turn: int, to_act: int) -> None:
    """The hand-built ``row`` is a live game at ``turn`` with ``to_act`` alone to decide."""
    row[H_TURN] = turn
    row[H_STATUS] = LIVE
    row[H_WINNER] = NO_WINNER
    row[H_TO_ACT] = to_act
    row[H_NEEDS] = 1 << to_act
