"""Compile the kernels most tests call, once, before pytest-xdist's workers start (``tests/conftest.py`` runs this).

Numba compiles a kernel at its first call in a process and caches it on disk. Without this, every worker of a cold
run compiles every game's kernels itself, at the same time as the others: on the 2-core CI machine two workers did
the same minutes of compile work twice. Run from the xdist controller, two of these processes compile the games
split between them, and the workers then load the kernels from the cache.

``python tests/warm_kernels.py GAME [GAME ...]``: for each game, a few steps of a plain batch (reset, step, observe,
mask), the fused play kernel, the heuristic's kernel, the mask's reason kernel (``explain_illegal``) and, for a compact
observation, the checker's range-guard observation (``check_observation_range``: a float64 specialization).
"""
from __future__ import annotations

import os
import sys

os.environ.setdefault("CARDENVS_COMPILE_PROCESSES", "1")  # the other core is warming the other games
os.environ.setdefault("CARDENVS_QUIET", "1")

import numpy as np  # noqa: E402


def warm(game_name: str, steps: int = 40) -> None:
    import cardenvs
    from cardenvs.core.batch import BatchGame
    from cardenvs.core.header import LIVE

    spec = cardenvs.get_game(game_name)
    pool = spec.load_pool(None)
    batch = BatchGame(game_name, 4, seed=0)
    agent = cardenvs.make_agent(game_name, "heuristic", seed=0)
    for _ in range(steps):
        live = batch.status == LIVE
        if not live.any():
            break
        who = np.where(live, batch.to_act, -1).astype(np.int32)
        mask = batch.legal_mask(who).copy()
        obs = batch.observe(who).copy()
        actions = np.asarray(agent.act(obs, mask, batch.states, who), dtype=np.int32)
        row = int(np.flatnonzero(live)[0])
        if spec.explain_illegal is not None and not mask[row].all():
            spec.explain_illegal(batch.states[row], pool, int(who[row]), int(np.argmin(mask[row])))
        if spec.obs_dtype != np.float32 and _ == 0:
            from cardenvs.testing import check_observation_range

            check_observation_range(batch, batch.states, who, obs)
        batch.step(actions, players=who)
    BatchGame.warm_up(game_name)


if __name__ == "__main__":
    for name in sys.argv[1:]:
        warm(name)
