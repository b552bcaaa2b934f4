"""simulfight's fused RL step (``Kernels.batch_play``): step, autoreset, observe and mask in one pass over the rows.

One kernel call instead of four keeps each row in cache for the whole step. Same results as ``batch_step`` +
``batch_reset`` + ``batch_observe`` + ``batch_mask`` (tested in ``tests/core/test_fused_play.py``).
"""
from __future__ import annotations

from numba import njit

from cardenvs.core.header import H_STATUS, H_TO_ACT, LIVE
from cardenvs.core.jit import helper

from .observe import observe_row
from .rules import mask_row, reset_row, step_row


@helper
def play_row(states, tables, decks, seeds, seed_stride, autoreset, players, actions, errors, ended, finals,
             viewers, with_obs, obs, mask, i):
    row = states[i]
    errors[i] = 0
    ended[i] = 0
    if players[i] >= 0:
        errors[i] = 0 if step_row(row, tables, players[i], actions[i], mask[i]) else 1
    if autoreset and row[H_STATUS] != LIVE:
        finals[i, :] = row
        ended[i] = 1
        seeds[i] += seed_stride
        reset_row(row, tables, decks[i], seeds[i])
    viewer = viewers[i] if viewers[i] >= 0 else row[H_TO_ACT]
    if with_obs:
        observe_row(row, tables, viewer, obs[i])
    mask_row(row, tables, viewer, mask[i])


@njit(cache=True, nogil=True)
def batch_play(states, tables, decks, seeds, seed_stride, autoreset, players, actions, errors, ended, finals,
                viewers, with_obs, obs, mask):
    for i in range(states.shape[0]):
        play_row(states, tables, decks, seeds, seed_stride, autoreset, players, actions, errors, ended, finals,
                 viewers, with_obs, obs, mask, i)
