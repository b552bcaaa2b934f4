"""cardenvs: fast, tested reinforcement-learning environments for two-player card-battle games.

The registry: :data:`GAMES` names every ruleset; :func:`get_game` returns its :class:`~cardenvs.core.spec.GameSpec`;
:func:`make_env`, :func:`make_parallel_env` and :func:`make_vec` build the PettingZoo and SB3 views of the batch core.
"""
from __future__ import annotations

import os

# Numba's OpenMP threads spin while they wait for work by default; when the cores are shared (a trainer, a second
# process, a CI runner) each parallel kernel call then costs milliseconds instead of microseconds (measured 1.8 ms vs
# 23 us per call on a busy 2-core machine). Passive waiting costs nothing measurable on an idle machine.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# Before any kernel is defined: key each cached kernel on every source it depends on, not on its own file only
# (Numba's default), so that an edited state.py can never leave a cached rules.py running old offsets.
from .core import numba_cache  # noqa: E402

numba_cache.install()

from typing import Any  # noqa: E402

from .core.errors import CardenvsError, UnknownGameError  # noqa: E402,F401
from .core.registry import GAMES, RULES_VERSIONS, SIMULTANEOUS_GAMES, available_games, get_game  # noqa: E402

__version__ = "0.1.0"


def make_env(name: str, **kwargs: Any):
    """The PettingZoo AEC env of a game, e.g. ``make_env("levelneo", render_mode="ansi")``."""
    from .core.aec import make_env as _make

    return _make(get_game(name), **kwargs)


def make_parallel_env(name: str, **kwargs: Any):
    """The PettingZoo ParallelEnv of a simultaneous game (simulfight)."""
    from .core.parallel import make_parallel_env as _make

    return _make(get_game(name), **kwargs)


def make_vector_env(name: str, num_envs: int, **kwargs: Any):
    """A Gymnasium 1.x ``VectorEnv`` (same-step autoreset) with the same opponent seat as :func:`make_vec`."""
    from .core.vector import CardGameVectorEnv

    return CardGameVectorEnv(get_game(name), num_envs, **kwargs)


def make_vec(name: str, num_envs: int, **kwargs: Any):
    """An SB3 ``VecEnv`` of ``num_envs`` games with an opponent seat played inside the batch (MaskablePPO-ready)."""
    from .core.sb3 import CardGameVecEnv

    return CardGameVecEnv(get_game(name), num_envs, **kwargs)


def _register_with_pettingzoo() -> None:
    """``pettingzoo.make("aec", "cardenvs/levelneo-v2")`` where PettingZoo has a registry (1.25+)."""
    try:
        from pettingzoo import register
        from pettingzoo.env_registry import registration
    except ImportError:
        return
    for name, module in GAMES.items():
        for kind, factory in (("aec", "env"), ("parallel", "parallel_env")):
            env_id = f"cardenvs/{name}-v{RULES_VERSIONS[name]}"
            if env_id in getattr(registration, f"{kind}_registry", {}):
                continue
            if kind == "parallel" and name not in SIMULTANEOUS_GAMES:
                continue
            register(kind, env_id, entry_point=f"{module}:{factory}")


_register_with_pettingzoo()

__all__ = ["GAMES", "SIMULTANEOUS_GAMES", "CardenvsError", "UnknownGameError", "available_games", "get_game", "make_env",
           "make_parallel_env", "make_vec", "make_vector_env"]
