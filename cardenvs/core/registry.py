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
#: each game's rules version (its ``SPEC.version``, known without importing it; a test keeps the two equal). Bump it
#: with any change that can change a game's outcome, observation or action space: replays and environment ids
#: (``levelneo_v2``, ``cardenvs/levelneo-v2``) carry it, and older ones are refused by name.
RULES_VERSIONS: dict[str, int] = {"levelneo": 2, "simulfight": 1, "heartbreak": 2, "divinecross": 2, "relics": 2}


def available_games() -> list[str]:
    """Games whose package is present and imports."""
    return [name for name, module in GAMES.items() if importlib.util.find_spec(module) is not None]


def get_game(name: str):
    """The GameSpec of a registered game; a clear error naming the known games otherwise."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name must be a string, not {type(name).__name__} {name!r}; "
                               f"known games: {', '.join(available_games())}")
    key, _, version = name.lower().partition("_v")
    if key not in GAMES or importlib.util.find_spec(GAMES[key]) is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(available_games())}")
    if version and version != str(RULES_VERSIONS[key]):
        raise UnknownGameError(f"{name!r}: this cardenvs plays {key}_v{RULES_VERSIONS[key]} (the rules changed since "
                               f"version {version})")
    return importlib.import_module(GAMES[key]).SPEC
