"""The PettingZoo views of a game, written once for every game.

A game's ``__init__.py`` binds them (``env, raw_env = pettingzoo_views(SPEC)``) so that ``from cardenvs.games import
levelneo; levelneo.env()`` keeps PettingZoo's classic shape. They live here, above :mod:`.aec` and :mod:`.parallel`,
rather than on :class:`~cardenvs.core.spec.GameSpec`: the spec is imported by everything in the core, so a spec that
built envs would import the envs that import it (an import circle).
"""
from __future__ import annotations

from typing import Any, Callable

from .aec import make_env
from .parallel import make_parallel_env
from .spec import GameSpec

__all__ = ["pettingzoo_views"]


def pettingzoo_views(spec: GameSpec) -> tuple[Callable[..., Any], ...]:
    """``(env, raw_env)`` for a turn-based game, ``(env, raw_env, parallel_env)`` for a simultaneous one."""

    def env(**kwargs: Any):
        """The PettingZoo AEC env (wrapped in OrderEnforcingWrapper), e.g. ``env(render_mode="ansi",
        decks=("aggro", "burst"))``; see :func:`cardenvs.core.aec.make_env` for every option."""
        return make_env(spec, **kwargs)

    def raw_env(**kwargs: Any):
        """The unwrapped AEC env."""
        return make_env(spec, raw=True, **kwargs)

    def parallel_env(**kwargs: Any):
        """The PettingZoo ParallelEnv of a simultaneous game: one decision from each player per step (a finished
        plan takes ``noop_action``)."""
        return make_parallel_env(spec, **kwargs)

    for view in (env, raw_env, parallel_env):
        view.__qualname__ = f"{spec.name}.{view.__name__}"
    return (env, raw_env, parallel_env) if spec.simultaneous else (env, raw_env)
