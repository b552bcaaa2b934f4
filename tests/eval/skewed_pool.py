"""The synthetic ground truth shared by the deck-search and balance tests: simulfight's pool plus one deliberately
overpowered card and one never worth playing (tests/eval/data/simulfight_skewed_pool.toml)."""
from __future__ import annotations

from pathlib import Path

import pytest

import cardenvs

GAME = "simulfight"
POOL = Path(__file__).parent / "data" / "simulfight_skewed_pool.toml"
STRONG, USELESS = "Titan of Testing", "Dud Scarecrow"


def skewed_spec():
    """The game's spec, or a skip when the game does not import in this checkout."""
    if GAME not in cardenvs.available_games():
        pytest.skip(f"{GAME} is not importable in this checkout")
    return cardenvs.get_game(GAME)
