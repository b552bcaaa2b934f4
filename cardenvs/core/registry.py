"""The game registry: every ruleset by name, and its :class:`~cardenvs.core.spec.GameSpec` on demand.

It lives in the core so that the batch core, the envs and the checker can resolve a game name without importing the
top-level package (``cardenvs/__init__.py`` re-exports it). Games are imported only when asked for, so one game that
fails to import never stops the others.
"""
from __future__ import annotations

import importlib
import importlib.util

from .errors import UnknownGameError

#: registered rulesets: name -> the module that exports its SPEC
GAMES: dict[str, str] = {
    "levelneo": "cardenvs.games.levelneo",
    "simulfight": "cardenvs.games.simulfight",
    "heartbreak": "cardenvs.games.heartbreak",
    "divinecross": "cardenvs.games.divinecross",
    "relics": "cardenvs.games.relics",
}
#: the games whose play is simultaneous, which also have a PettingZoo ParallelEnv (known without importing them)
SIMULTANEOUS_GAMES = frozenset({"simulfight"})


def available_games() -> list[str]:
    """Games whose package is present and imports."""
    return [name for name, module in GAMES.items() if importlib.util.find_spec(module) is not None]


def get_game(name: str):
    """The GameSpec of a registered game; a clear error naming the known games otherwise."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name must be a string, not {type(name).__name__} {name!r}; "
                               f"known games: {', '.join(available_games())}")
    key = name.lower().removesuffix("_v0")
    if key not in GAMES or importlib.util.find_spec(GAMES[key]) is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(available_games())}")
    return importlib.import_module(GAMES[key]).SPEC
