"""Opponents for training: a pool of frozen checkpoints and a per-episode mix of opponent kinds.

``OpponentMix`` is the callable that ``cardenvs.make_vec(..., opponent=mix)`` calls once per new episode with the
episode index; it returns an opponent *name* ("random", "heuristic" or "ppo:PATH"), so the vector env's own
opponent cache and ``agents.policy``'s model cache make a sampled checkpoint cost one disk read, ever.

Determinism: the choice for episode ``k`` is a pure function of (seed, k, the pool's contents and the phase of the
schedule), drawn from ``np.random.default_rng([seed, k])``; it does not depend on how often or in which order the
callable was called before. The pool only ever holds paths of checkpoint files saved to disk (frozen copies), never
the live model, and keeps the ``max_size`` most recent ones.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

#: ``pilot``: one fixed agent named by ``[opponents] pilot`` (a frozen best-response target: train/exploit.py)
KINDS = ("random", "heuristic", "league", "pilot")


class CheckpointPool:
    """The ``max_size`` most recent frozen checkpoints (paths of saved ``.zip`` files)."""

    def __init__(self, max_size: int = 8, paths: Sequence[str | Path] = ()) -> None:
        if max_size < 1:
            raise ValueError(f"league pool size must be at least 1, got {max_size}")
        self.max_size = int(max_size)
        self.paths: list[str] = []
        for p in paths:
            self.add(p)

    def add(self, path: str | Path) -> None:
        p = str(Path(path))
        if not Path(p).exists():
            raise FileNotFoundError(f"league checkpoint {p} does not exist (save it before adding it)")
        if p in self.paths:
            return
        self.paths.append(p)
        del self.paths[: max(0, len(self.paths) - self.max_size)]

    def __len__(self) -> int:
        return len(self.paths)

    def sample(self, rng: np.random.Generator, recent_weight: float = 0.0) -> str:
        """A checkpoint path; ``recent_weight`` > 0 favours newer checkpoints (weight ``1 + recent_weight * rank``)."""
        if not self.paths:
            raise IndexError("the league pool is empty")
        n = len(self.paths)
        w = 1.0 + recent_weight * np.arange(n, dtype=np.float64)
        return self.paths[int(rng.choice(n, p=w / w.sum()))]


@dataclass
class Phase:
    """Use ``mix`` (kind -> weight) until the learner has taken ``until`` steps (None: to the end)."""

    mix: dict[str, float]
    until: int | None = None


def _check_mix(mix: Mapping[str, float]) -> dict[str, float]:
    bad = [k for k in mix if k not in KINDS]
    if bad:
        raise ValueError(f"unknown opponent kind(s) {bad}; use {', '.join(KINDS)}")
    out = {k: float(v) for k, v in mix.items() if float(v) > 0}
    if not out:
        raise ValueError("an opponent mix needs at least one positive weight")
    return out


@dataclass
class OpponentMix:
    """Per-episode opponent choice: ``mix(episode_index) -> "random" | "heuristic" | "ppo:PATH"`` (or the fixed
    ``pilot`` name).

    ``phases`` is a schedule over learner steps (``steps`` is updated by the training callback). The league share
    falls back to ``league_fallback`` while the pool is empty.
    """

    phases: list[Phase]
    pool: CheckpointPool = field(default_factory=CheckpointPool)
    seed: int = 0
    steps: int = 0
    recent_weight: float = 1.0
    league_fallback: str = "random"
    pilot: str = "heuristic"
    counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.phases:
            raise ValueError("need at least one opponent phase")
        for ph in self.phases:
            ph.mix = _check_mix(ph.mix)

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any], seed: int = 0, pool: CheckpointPool | None = None) -> "OpponentMix":
        """``{"mix": {...}}`` or ``{"phases": [{"until": 200000, "mix": {...}}, {"mix": {...}}]}``."""
        if "phases" in cfg:
            phases = [Phase(dict(p["mix"]), p.get("until")) for p in cfg["phases"]]
        else:
            phases = [Phase(dict(cfg.get("mix", {"random": 1.0})))]
        return cls(phases, pool or CheckpointPool(int(cfg.get("league_size", 8))), seed=seed,
                   recent_weight=float(cfg.get("league_recent_weight", 1.0)),
                   league_fallback=str(cfg.get("league_fallback", "random")),
                   pilot=str(cfg.get("pilot", "heuristic")))

    def current_mix(self) -> dict[str, float]:
        for ph in self.phases:
            if ph.until is None or self.steps < ph.until:
                return ph.mix
        return self.phases[-1].mix

    def pick(self, episode_index: int) -> tuple[str, str]:
        """``(kind, agent name)`` for episode ``episode_index``: the kind drawn from the mix and what it plays."""
        rng = np.random.default_rng([self.seed & 0xFFFFFFFF, int(episode_index)])
        mix = self.current_mix()
        kinds = list(mix)
        w = np.array([mix[k] for k in kinds], dtype=np.float64)
        kind = kinds[int(rng.choice(len(kinds), p=w / w.sum()))]
        if kind == "league":
            if len(self.pool) == 0:
                return self.league_fallback, self.league_fallback  # counted as what it plays
            return kind, "ppo:" + self.pool.sample(rng, self.recent_weight)
        if kind == "pilot":
            return kind, self.pilot
        return kind, kind

    def choose(self, episode_index: int) -> str:
        return self.pick(episode_index)[1]

    def __call__(self, episode_index: int) -> str:
        kind, choice = self.pick(episode_index)
        self.counts[kind] = self.counts.get(kind, 0) + 1
        return choice


__all__ = ["CheckpointPool", "OpponentMix", "Phase", "KINDS"]
