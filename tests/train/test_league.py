"""train.league: the frozen-checkpoint pool and the per-episode opponent mix."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cardenvs.train.league import CheckpointPool, OpponentMix, Phase


def _ckpts(tmp_path: Path, n: int) -> list[Path]:
    paths = []
    for i in range(n):
        p = tmp_path / f"step_{i:04d}.zip"
        p.write_bytes(b"frozen")
        paths.append(p)
    return paths


def test_pool_keeps_the_most_recent_max_size(tmp_path: Path) -> None:
    paths = _ckpts(tmp_path, 6)
    pool = CheckpointPool(max_size=3)
    for p in paths:
        pool.add(p)
    assert pool.paths == [str(p) for p in paths[-3:]]
    pool.add(paths[-1])  # adding twice does not duplicate
    assert len(pool) == 3


def test_pool_only_takes_saved_checkpoints(tmp_path: Path) -> None:
    pool = CheckpointPool(max_size=2)
    with pytest.raises(FileNotFoundError):
        pool.add(tmp_path / "not_saved_yet.zip")
    with pytest.raises(ValueError):
        CheckpointPool(max_size=0)


def test_mix_is_deterministic_for_a_seed_and_independent_of_call_order(tmp_path: Path) -> None:
    paths = _ckpts(tmp_path, 4)
    make = lambda seed: OpponentMix([Phase({"heuristic": 0.5, "league": 0.3, "random": 0.2})],  # noqa: E731
                                    CheckpointPool(4, paths), seed=seed)
    a, b = make(7), make(7)
    forward = [a(k) for k in range(300)]
    backward = [b(k) for k in reversed(range(300))][::-1]
    assert forward == backward
    assert forward != [make(8)(k) for k in range(300)]
    # every league pick is a frozen checkpoint of the pool, never anything else
    picks = [c for c in forward if c.startswith("ppo:")]
    assert picks and all(c[4:] in {str(p) for p in paths} for c in picks)
    kinds = {"league" if c.startswith("ppo:") else c for c in forward}
    assert kinds == {"heuristic", "league", "random"}
    share = np.mean([c == "heuristic" for c in forward])
    assert 0.4 < share < 0.6


def test_league_samples_only_within_the_pool_size(tmp_path: Path) -> None:
    paths = _ckpts(tmp_path, 10)
    pool = CheckpointPool(max_size=3)
    mix = OpponentMix([Phase({"league": 1.0})], pool, seed=0)
    assert mix(0) == "random"  # empty pool: the fallback
    for p in paths:
        pool.add(p)
    picks = {mix(k) for k in range(500)}
    assert picks == {"ppo:" + str(p) for p in paths[-3:]}


def test_phases_follow_the_learner_steps() -> None:
    mix = OpponentMix.from_config({"phases": [{"until": 100, "mix": {"random": 1.0}}, {"mix": {"heuristic": 1.0}}]})
    assert {mix(k) for k in range(20)} == {"random"}
    mix.steps = 100
    assert {mix(k) for k in range(20)} == {"heuristic"}
    with pytest.raises(ValueError, match="unknown opponent kind"):
        OpponentMix.from_config({"mix": {"rando": 1.0}})
