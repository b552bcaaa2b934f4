"""Games of a tournament saved as replays (``cardenvs eval --save-replays DIR --replays N``).

Up to half of the ``N`` games are upsets, games won by the entry with the lower rating (the most surprising first:
largest rating gap), the rest spread over the pairings; each is written as ``DIR/<game>-<i>-<winner>-beats-<loser>
.json`` (see :mod:`cardenvs.core.replay`) and can be watched with ``cardenvs replay``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from ..core.batch import BatchGame
from ..core.header import H_STATUS, H_WINNER, TERMINATED
from ..core.replay import replay_from_history
from .matches import ChunkHistory
from .tournament import TournamentResult


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)[:40]


def save_tournament_replays(result: TournamentResult, history: Sequence[ChunkHistory], count: int,
                            folder: str | Path) -> list[Path]:
    """Write ``count`` games of ``result`` (played with ``history`` kept) as replays into ``folder``."""
    if count <= 0 or not history:
        return []
    elo = np.asarray(result.ratings(bootstrap=0).elo, dtype=float)
    upsets, others = [], []
    for h, part in enumerate(history):
        seats = np.stack([part.chunk.seat0, part.chunk.seat1], axis=1)
        for i in range(len(part.chunk)):
            final = part.finals[i]
            if final[H_STATUS] != TERMINATED or final[H_WINNER] not in (0, 1):
                others.append((0.0, h, i))
                continue
            winner, loser = seats[i, final[H_WINNER]], seats[i, 1 - final[H_WINNER]]
            gap = elo[loser] - elo[winner]
            (upsets if gap > 0 else others).append((gap, h, i))
    upsets.sort(key=lambda g: -g[0])
    chosen = upsets[: count // 2] if count > 1 else upsets[:1]
    step = max(1, len(others) // max(1, count - len(chosen)))
    chosen += others[::step][: count - len(chosen)]
    folder = Path(folder)
    paths = []
    spec_name = result.game
    for k, (gap, h, i) in enumerate(chosen):
        part = history[h]
        batch = BatchGame(spec_name, 1, decks=part.decks[i], seed=int(part.chunk.seeds[i]), parallel=False)
        labels = [result.entries[int(part.chunk.seat0[i])].label, result.entries[int(part.chunk.seat1[i])].label]
        final = part.finals[i]
        meta = {"pilots": labels, "recorded_by": "cardenvs eval", "tournament_seed": result.seed,
                "upset": bool(gap > 0), "rating_gap": round(float(gap), 1)}
        replay = replay_from_history(batch, 0, part.decisions(i), meta=meta, final=final)
        w = int(final[H_WINNER])
        tag = f"{_slug(labels[w])}-beats-{_slug(labels[1 - w])}" if w in (0, 1) else "draw"
        paths.append(replay.save(folder / f"{spec_name}-{k:03d}-{tag}.json"))
    return paths


__all__ = ["save_tournament_replays"]
