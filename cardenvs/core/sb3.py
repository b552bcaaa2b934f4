"""The SB3 ``VecEnv`` view of :class:`~cardenvs.core.vector.SeatedBatch` (what sb3-contrib's MaskablePPO takes).

Kept apart from :mod:`cardenvs.core.vector` because stable-baselines3 is an optional extra (``[train]``).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .spec import GameSpec
from .vector import SeatedBatch


class CardGameVecEnv(VecEnv):
    """``num_envs`` games for one learner seat; see :class:`SeatedBatch` for ``opponent``, ``decks``, ``seed``."""

    def __init__(self, spec: GameSpec, num_envs: int, **kwargs: Any) -> None:
        self.seated = SeatedBatch(spec, num_envs, **kwargs)
        self.render_mode = None  # before VecEnv.__init__, which warns when it is missing
        super().__init__(num_envs, self.seated.observation_space, self.seated.action_space)
        self._checked: tuple[np.ndarray, np.ndarray] | None = None  # (actions, illegal rows) from step_async

    # the state of the batch, for tests, callbacks and opponents
    @property
    def game(self):
        return self.seated.game

    @property
    def seats(self) -> np.ndarray:
        return self.seated.seats

    def set_opponent(self, opponent: Any) -> None:
        self.seated.set_opponent(opponent)

    def reset(self) -> np.ndarray:
        return self.seated.reset()

    def step_async(self, actions: np.ndarray) -> None:
        """Check every row (types, shapes, legality: see :mod:`cardenvs.core.vector`) before anything is stepped."""
        self._checked = self.seated.check_actions(actions)

    def step_wait(self):
        checked, self._checked = self._checked, None
        if checked is None:
            raise RuntimeError("step_wait() without a step_async() before it")
        return self.seated._apply(*checked)

    def action_masks(self) -> np.ndarray:
        """bool ``[num_envs, num_actions]`` for the learner's pending decision in every game."""
        return self.seated.action_masks()

    def close(self) -> None:
        pass

    def seed(self, seed: int | None = None) -> Sequence[None]:
        self.seated.seed(seed)
        return [None] * self.num_envs

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        value = getattr(self, attr_name) if hasattr(self, attr_name) else getattr(self.seated, attr_name)
        return [value] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self.seated if hasattr(self.seated, attr_name) else self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._indices(indices)]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self, attr_name)

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_images(self) -> Sequence[None]:
        return [None] * self.num_envs


__all__ = ["CardGameVecEnv"]
