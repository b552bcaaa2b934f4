"""cardenvs: fast, tested reinforcement-learning environments for two-player card-battle games.

This module is the public face: :data:`__all__` is the API, and everything a user needs is imported from here.

- the games: :data:`GAMES` names every ruleset, :func:`get_game` returns its :class:`GameSpec`, :func:`register_game`
  adds one from a folder;
- the environments: :func:`make_env` (PettingZoo AEC), :func:`make_parallel_env`, :func:`make_vec` (SB3 VecEnv),
  :func:`make_vector_env` (Gymnasium VectorEnv) and the raw batch core, :class:`BatchGame`;
- the agents: :func:`make_agent`, :func:`default_pilot`, :func:`describe_pilot` (:mod:`cardenvs.agents`);
- evaluation: :func:`run_tournament`, :func:`run_sprt`, :func:`run_gauntlet`, :func:`run_match`, :func:`summarize`,
  :func:`write_report`, :func:`balance_report`, :func:`optimize_deck`;
- decks and replays: :func:`random_deck`, :func:`random_decks`, :func:`legal_moves`, :func:`write_deck`,
  :class:`Replay`, :func:`record_match`;
- checking a ruleset: :func:`check_game`; the errors: :class:`CardenvsError` and its kinds.

The environments, evaluation and checking names are imported on first use (``import cardenvs`` stays light).
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

from .core.errors import (  # noqa: E402
    BadArgumentError, CardenvsError, CardPoolError, DeckError, IllegalActionError, UnknownGameError,
)
from .core.registry import (  # noqa: E402
    GAMES, RULES_VERSIONS, SIMULTANEOUS_GAMES, available_games, get_game,
)

# The core resolves an agent's name ("heuristic", "ppo:PATH") through the factory installed here, so that it never
# imports the agents package, which imports the core: the dependency points down, the face wires the two together.
# The agents package (and NumPy with it) loads on the first call, so a CLI's --help never waits for it.
from .core.agents import install_agents  # noqa: E402


def _make_agent(game: Any, kind: Any, seed: int | None = None, **kwargs: Any) -> Any:
    from .agents import make_agent as make

    return make(game, kind, seed, **kwargs)


def _default_pilot(game: Any) -> str:
    from .agents import default_pilot as pilot

    return pilot(game)


def _describe_pilot(game: Any, kind: str) -> str:
    from .agents import describe_pilot as describe

    return describe(game, kind)


install_agents(_make_agent, _default_pilot, _describe_pilot)

__version__ = "0.1.0"


def make_env(name: str, **kwargs: Any) -> Any:
    """The PettingZoo AEC env of a game, e.g. ``make_env("levelneo", render_mode="ansi")``."""
    from .core.aec import make_env as _make

    return _make(get_game(name), **kwargs)


def make_parallel_env(name: str, **kwargs: Any) -> Any:
    """The PettingZoo ParallelEnv of a simultaneous game (simulfight)."""
    from .core.parallel import make_parallel_env as _make

    return _make(get_game(name), **kwargs)


def make_vector_env(name: str, num_envs: int, **kwargs: Any) -> Any:
    """A Gymnasium 1.x ``VectorEnv`` (same-step autoreset) with the same opponent seat as :func:`make_vec`."""
    from .core.vector import CardGameVectorEnv

    return CardGameVectorEnv(get_game(name), num_envs, **kwargs)


def make_vec(name: str, num_envs: int, **kwargs: Any) -> Any:
    """An SB3 ``VecEnv`` of ``num_envs`` games with an opponent seat played inside the batch (MaskablePPO-ready)."""
    from .core.sb3 import CardGameVecEnv

    return CardGameVecEnv(get_game(name), num_envs, **kwargs)


#: names imported on first use: name -> the module that defines it
_LAZY = {
    "register_game": "cardenvs.core.registry", "BatchGame": "cardenvs.core.batch", "GameSpec": "cardenvs.core.spec",
    "Replay": "cardenvs.core.replay", "ReplayError": "cardenvs.core.replay", "record_match": "cardenvs.core.replay",
    "random_deck": "cardenvs.core.deckgen", "random_decks": "cardenvs.core.deckgen",
    "legal_moves": "cardenvs.core.deckgen", "write_deck": "cardenvs.core.deckgen",
    "check_game": "cardenvs.testing",
    "make_agent": "cardenvs.agents", "default_pilot": "cardenvs.agents", "describe_pilot": "cardenvs.agents",
    "run_tournament": "cardenvs.eval.tournament", "run_sprt": "cardenvs.eval.tournament",
    "run_gauntlet": "cardenvs.eval.gauntlet", "run_match": "cardenvs.eval.head_to_head",
    "summarize": "cardenvs.eval.report", "write_report": "cardenvs.eval.report", "RichProgress": "cardenvs.eval.report",
    "balance_report": "cardenvs.eval.balance", "optimize_deck": "cardenvs.eval.optimize",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cardenvs' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once imported, an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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


# PettingZoo loads in 0.2 s (2 s on a loaded machine), and only a user who calls ``pettingzoo.make`` needs the
# registration, after importing it: so the games are registered the moment it loads, not imported here for --help.
numba_cache.after_import("pettingzoo", _register_with_pettingzoo)

__all__ = [
    # games and environments
    "GAMES", "RULES_VERSIONS", "SIMULTANEOUS_GAMES", "BatchGame", "GameSpec", "available_games", "get_game",
    "make_env", "make_parallel_env", "make_vec", "make_vector_env", "register_game",
    # agents
    "default_pilot", "describe_pilot", "make_agent",
    # evaluation
    "RichProgress", "balance_report", "optimize_deck", "run_gauntlet", "run_match", "run_sprt", "run_tournament", "summarize",
    "write_report",
    # decks, replays, checking
    "Replay", "ReplayError", "check_game", "legal_moves", "random_deck", "random_decks", "record_match", "write_deck",
    # errors
    "BadArgumentError", "CardPoolError", "CardenvsError", "DeckError", "IllegalActionError", "UnknownGameError",
]
