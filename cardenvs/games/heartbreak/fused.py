"""heartbreak's fused RL step (``Kernels.batch_play``): step, autoreset, observe and mask in one pass over the rows.

One kernel call instead of four keeps each row in cache for the whole step and saves a mask computation: ``settle``
(run by ``step_row`` and by ``reset_row``) leaves the mask of the player to act next in its scratch array whenever
the game is still live (its forced-move check), so that mask is copied instead of recomputed. Same results as
``batch_step`` + ``batch_reset`` + ``batch_observe`` + ``batch_mask`` (tested in ``tests/core/test_fused_play.py``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import H_STATUS, H_TO_ACT, LIVE

from .actions import NUM_ACTIONS
from .observe import observe_into
from .rules import mask_row, reset_row, step_row
from . import state as S


@njit(cache=True, nogil=True)
def batch_play(states, tables, decks, seeds, seed_stride, autoreset, players, actions, errors, ended, finals,
               viewers, with_obs, obs, mask):
    # one jitted function, no per-row helper: every jitted level re-optimises and re-generates the code of all it
    # calls, so a helper would add seconds to the first-run compile
    scratch = np.empty(NUM_ACTIONS, dtype=np.int8)
    info = np.empty((2, S.FIELD_CAP, 4), dtype=np.int64)  # observe_into's scratch
    for i in range(states.shape[0]):
        row = states[i]
        settled = False  # True while scratch holds the mask of the player to act in the row as it is now
        errors[i] = 0
        ended[i] = 0
        if players[i] >= 0:
            settled = step_row(row, tables, players[i], actions[i], scratch)
            errors[i] = 0 if settled else 1
        if autoreset and row[H_STATUS] != LIVE:
            finals[i, :] = row
            ended[i] = 1
            seeds[i] += seed_stride
            reset_row(row, tables, decks[i], seeds[i], scratch)
            settled = True
        viewer = viewers[i] if viewers[i] >= 0 else row[H_TO_ACT]
        if with_obs:
            observe_into(row, tables, viewer, obs[i], info)
        if viewer < 0 or row[H_STATUS] != LIVE:
            mask[i, :] = 0
        elif settled and viewer == row[H_TO_ACT]:
            mask[i, :] = scratch
        else:
            mask_row(row, tables, viewer, mask[i])
