"""divinecross's fused RL step (``Kernels.batch_play``): step, autoreset, observe and mask in one pass over the rows.

One kernel call instead of four keeps each row in cache for the whole step and saves a mask computation: after a
legal action ``settle`` has already filled the mask of the player to act next (its forced-move check), so it is
copied instead of recomputed. Same results as ``batch_step`` + ``batch_reset`` + ``batch_observe`` + ``batch_mask``
(tested in ``tests/core/test_fused_play.py``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import H_STATUS, H_TO_ACT, LIVE
from cardenvs.core.jit import helper

from .actions import NUM_ACTIONS
from .observe import observe_row
from .rules import mask_row, reset_row, step_row


@helper
def play_row(states, tables, decks, seeds, seed_stride, autoreset, players, actions, errors, ended, finals,
             viewers, with_obs, obs, mask, i):
    row = states[i]
    scratch = np.empty(NUM_ACTIONS, dtype=np.int8)
    stepped = False
    errors[i] = 0
    ended[i] = 0
    if players[i] >= 0:
        stepped = step_row(row, tables, players[i], actions[i], scratch)
        errors[i] = 0 if stepped else 1
    if autoreset and row[H_STATUS] != LIVE:
        finals[i, :] = row
        ended[i] = 1
        seeds[i] += seed_stride
        reset_row(row, tables, decks[i], seeds[i])
        stepped = False
    viewer = viewers[i] if viewers[i] >= 0 else row[H_TO_ACT]
    if with_obs:
        observe_row(row, tables, viewer, obs[i])
    if viewer < 0 or row[H_STATUS] != LIVE:
        mask[i, :] = 0
    elif stepped and viewer == row[H_TO_ACT]:
        mask[i, :] = scratch  # settle left the next decision's mask here
    else:
        mask_row(row, tables, viewer, mask[i])


@njit(cache=True, nogil=True)
def batch_play(states, tables, decks, seeds, seed_stride, autoreset, players, actions, errors, ended, finals,
                viewers, with_obs, obs, mask):
    for i in range(states.shape[0]):
        play_row(states, tables, decks, seeds, seed_stride, autoreset, players, actions, errors, ended, finals,
                 viewers, with_obs, obs, mask, i)
