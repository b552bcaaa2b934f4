"""Golden playthroughs: the rendered text of seeded games must match the game folder's ``golden/`` exactly.

After an intended rules or rendering change: ``python -m cardenvs.golden --write`` and review the diff.
"""
from __future__ import annotations

import json

import pytest

from cardenvs.golden import SEEDS, STREAM_PILOTS, golden_path, playthrough, stream_digest, streams_path


@pytest.mark.parametrize("seed", SEEDS)
def test_golden_playthrough(game_name: str, seed: int) -> None:
    path = golden_path(game_name, seed)
    assert path.is_file(), f"missing {path}; run python -m cardenvs.golden --write"
    assert playthrough(game_name, seed) == path.read_text(), f"{path} differs; review with python -m cardenvs.golden"


@pytest.mark.parametrize("pilot", STREAM_PILOTS)
def test_golden_stream_digest(game_name: str, pilot: str) -> None:
    """Everything the batch core hands out over 24 seeded games (states, both players' observations and masks before
    every decision, actions, rewards) hashes to the stored digest: a speed change must change none of it."""
    stored = json.loads(streams_path(game_name).read_text())
    assert stream_digest(game_name, pilot) == stored[pilot], (
        f"{game_name}/{pilot}: the stream of states, observations or masks changed; if on purpose, run "
        f"python -m cardenvs.golden --write and say why in the commit")
