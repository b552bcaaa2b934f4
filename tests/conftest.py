"""Shared fixtures: the registered games that import in this checkout."""
from __future__ import annotations

import pytest

import cardenvs

GAMES = cardenvs.available_games()
# from the registry, without importing the games: one game that fails to import must not stop every test's collection
SIMULTANEOUS = [g for g in GAMES if g in cardenvs.SIMULTANEOUS_GAMES]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_name" in metafunc.fixturenames:
        metafunc.parametrize("game_name", GAMES)
    if "simultaneous_game" in metafunc.fixturenames:
        metafunc.parametrize("simultaneous_game", SIMULTANEOUS)
