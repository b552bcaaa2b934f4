"""Random play to the end of a batch, for the tests that need finished random games (the contract suite's starter
pairings, relics' length checks): ``from random_play import play_out``."""
from __future__ import annotations

from typing import Callable

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE


def play_out(g: BatchGame, rng: np.random.Generator, limit: int,
             each_step: Callable[[BatchGame, np.ndarray], None] | None = None) -> BatchGame:
    """Uniformly random legal actions for the player to act in every live game of ``g``, for at most ``limit`` steps
    or until every game ended; asserts that every live game offers its player a legal action (a live game with none
    would hang an env). ``each_step(g, live)`` sees every step's position before its actions. Returns ``g``."""
    for _ in range(limit):
        live = g.status == LIVE
        if not live.any():
            break
        mask = g.legal_mask()
        assert (mask[live].sum(axis=1) > 0).all(), "a live game with no legal action"
        if each_step is not None:
            each_step(g, live)
        g.step((rng.random(mask.shape) * mask).argmax(axis=1))
    return g
