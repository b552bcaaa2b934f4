"""A trained MaskablePPO policy as a batched agent: ``load("runs/x/final.zip", game="levelneo")``.

The agent's ``act`` is ``model.predict(obs, action_masks=mask, deterministic=True)`` over many games at once, so
one call decides for every game in a batch (tournaments, the vector env's opponent seat, training evaluations).
Loaded models are cached by (resolved path, modification time): a league that samples the same frozen checkpoint
for thousands of episodes reads it from disk once.
"""
from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from cardenvs.core.errors import BadArgumentError

#: models kept in memory, least recently used evicted first (a league pool is far smaller than this)
CACHE_SIZE = 32
_CACHE: "OrderedDict[tuple[str, int], Any]" = OrderedDict()


class PolicyAgent:
    """Batched agent over a MaskablePPO model; ``deterministic=False`` samples from the policy instead."""

    def __init__(self, model: Any, name: str = "ppo", deterministic: bool = True, seed: int | None = None) -> None:
        self.model = model
        self.name = name
        self.deterministic = deterministic
        self.seed = seed
        if seed is not None and not deterministic:
            import torch

            # sampling draws from torch's generator; seeding it keeps a sampled evaluation reproducible
            torch.manual_seed(int(seed))

    @property
    def obs_dim(self) -> int:
        return int(np.prod(self.model.observation_space.shape))

    def act(self, obs: np.ndarray, mask: np.ndarray, states: np.ndarray | None = None,
            players: np.ndarray | None = None) -> np.ndarray:
        if obs.shape[0] == 0:
            return np.zeros(0, dtype=np.int32)
        actions, _ = self.model.predict(obs, action_masks=np.asarray(mask).astype(bool),
                                        deterministic=self.deterministic)
        return np.asarray(actions, dtype=np.int32).reshape(obs.shape[0])


def _resolve(path: str | Path) -> Path:
    p = Path(path).expanduser()
    if not p.exists() and p.suffix != ".zip" and p.with_suffix(".zip").exists():
        p = p.with_suffix(".zip")  # SB3 saves "name" as "name.zip"; accept both spellings
    if not p.exists():
        raise BadArgumentError(f"no saved policy at {path!s}")
    return p.resolve()


def load_model(path: str | Path, device: str = "cpu") -> Any:
    """The MaskablePPO model saved at ``path`` (cached; a rewritten file is read again)."""
    from sb3_contrib import MaskablePPO

    p = _resolve(path)
    key = (str(p), p.stat().st_mtime_ns)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    model = MaskablePPO.load(str(p), device=device)
    _CACHE[key] = model
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return model


def clear_cache() -> None:
    _CACHE.clear()


def load(path: str | Path, game: Any = None, seed: int | None = None, deterministic: bool = True,
         device: str = "cpu") -> PolicyAgent:
    """Wrap the model saved at ``path`` as a batched agent; with ``game``, check that the shapes match its spec."""
    model = load_model(path, device=device)
    if game is not None:
        from cardenvs.core.batch import get_spec

        spec = get_spec(game)
        obs_dim = int(np.prod(model.observation_space.shape))
        n_actions = int(model.action_space.n)
        if obs_dim != spec.obs_dim or n_actions != spec.num_actions:
            raise BadArgumentError(
                f"{path!s} was trained on observations of size {obs_dim} with {n_actions} actions; "
                f"{spec.name} has {spec.obs_dim} and {spec.num_actions} (another game, or an older version)")
    return PolicyAgent(model, name=f"ppo:{Path(path).stem}", deterministic=deterministic, seed=seed)


__all__ = ["PolicyAgent", "load", "load_model", "clear_cache", "CACHE_SIZE"]
