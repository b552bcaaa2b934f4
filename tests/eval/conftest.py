"""Fixtures for the evaluation tests: a real game (levelneo), skipped where it does not import."""
from __future__ import annotations

import numpy as np
import pytest

import cardenvs

GAME = "levelneo"


@pytest.fixture(scope="session")
def spec():
    if GAME not in cardenvs.available_games():
        pytest.skip(f"{GAME} is not importable in this checkout")
    return cardenvs.get_game(GAME)


@pytest.fixture(scope="session")
def pool(spec):
    return spec.load_pool(None)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(0)
