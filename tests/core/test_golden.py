"""Golden playthroughs: the rendered text of seeded games must match tests/golden/ exactly.

After an intended rules or rendering change: ``python -m cardenvs.golden --write`` and review the diff.
"""
from __future__ import annotations

import pytest

from cardenvs.golden import SEEDS, golden_path, playthrough


@pytest.mark.parametrize("seed", SEEDS)
def test_golden_playthrough(game_name: str, seed: int) -> None:
    path = golden_path(game_name, seed)
    assert path.is_file(), f"missing {path}; run python -m cardenvs.golden --write"
    assert playthrough(game_name, seed) == path.read_text(), f"{path} differs; review with python -m cardenvs.golden"
