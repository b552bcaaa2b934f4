"""The masked random agent: a uniformly random legal action in every row."""
from __future__ import annotations

import numpy as np

from .base import masked_uniform


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray, states: np.ndarray | None = None,
            players: np.ndarray | None = None) -> np.ndarray:
        return masked_uniform(mask, self.rng)
