"""simulfight's ``hide``: what a seat cannot know, re-dealt. Beside the cards (``observe.redeal_cards``) that is the
other seat's plan of this phase, rebuilt with the rules' own kernels, so this module sits above ``_kernels`` (which
imports ``observe``)."""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from cardenvs.core.header import H_DECISIONS, H_NEEDS, H_STATUS, H_TO_ACT, H_TURN, LIVE

from . import state as S
from ._kernels import batch_mask, batch_step
from .actions import A_DONE, NUM_ACTIONS
from .cards import load_pool
from .observe import STATE_VIEW, redeal_cards


@functools.lru_cache(maxsize=1)
def _default_tables() -> Any:
    return load_pool().tables


def _roll_back_plan(row: np.ndarray, q: int) -> None:
    """Undo in ``row`` everything ``q``'s plan did this phase: the state its phase-start snapshot records. A plan
    changes only its own side and the other side's ``in_*`` accumulators (rules.py), and units leave play only when
    the phase resolves, so the units it played are the ones after the snapshot's in ``play``; they go back to the
    hand. The plan is left open at its main step."""
    v = 1 - q
    play, hand, loc = STATE_VIEW(row, "play"), STATE_VIEW(row, "hand"), STATE_VIEW(row, "loc")
    counts = {name: STATE_VIEW(row, name) for name in ("play_count", "hand_count", "snap_play_count")}
    n_snap, n_play, n_hand = int(counts["snap_play_count"][q]), int(counts["play_count"][q]), int(counts["hand_count"][q])
    back = play[q, n_snap:n_play].copy()
    hand[q, n_hand:n_hand + back.size] = back
    loc[q, back] = S.LOC_HAND
    play[q, n_snap:] = -1
    counts["play_count"][q] = n_snap
    counts["hand_count"][q] = n_hand + back.size
    units = STATE_VIEW(row, "snap_play")[q, :n_snap]
    for live, snap in (("unit_health", "snap_health"), ("protected", "snap_protected"), ("stunned", "snap_stunned")):
        STATE_VIEW(row, live)[q, units] = STATE_VIEW(row, snap)[q, units]
    STATE_VIEW(row, "used")[q, :] = 0
    snap = STATE_VIEW(row, "snap_player")[q]
    STATE_VIEW(row, "health")[q] = snap[S.SP_HEALTH]
    STATE_VIEW(row, "resources")[q] = snap[S.SP_RESOURCES:S.SP_RESOURCES_END]
    STATE_VIEW(row, "next_round")[q] = snap[S.SP_NEXT_ROUND:S.SP_NEXT_ROUND_END]
    for name in ("in_damage", "in_stun", "in_player_damage", "in_resources", "in_next_round"):
        STATE_VIEW(row, name)[v] = 0  # what q's plan queued against the viewer's side
    STATE_VIEW(row, "plan_open")[q] = 1
    STATE_VIEW(row, "sub")[q] = S.SUB_MAIN
    STATE_VIEW(row, "cur_inst")[q] = -1


def _random_plan(row: np.ndarray, q: int, closed: bool, rng: np.random.Generator, tables: Any) -> np.ndarray:
    """``q``'s plan built again from its main step with random legal decisions (the rules' own kernels): to its end
    when ``closed``, else for a random number of decisions that leave it open (a decision after which it would close
    is not taken), since an open plan may have gone any way so far in the ParallelEnv."""

    cur = row[None].copy()
    who = np.array([q], np.int32)
    mask = np.zeros((1, NUM_ACTIONS), np.int8)
    err = np.zeros(1, np.int32)
    for _ in range(8 * S.MAX_DECK):  # a plan's decisions are bounded: every one plays a card, uses a unit or picks
        if cur[0, S.PLAN_OPEN + q] == 0 or cur[0, H_STATUS] != LIVE or (not closed and rng.random() < 0.3):
            break
        batch_mask(cur, tables, who, mask)
        legal = np.flatnonzero(mask[0])
        if not closed:
            legal = legal[legal != A_DONE]
        if not legal.size:
            break
        nxt = cur.copy()
        batch_step(nxt, tables, who, np.array([rng.choice(legal)], np.int32), err)
        if not closed and (nxt[0, S.PLAN_OPEN + q] == 0 or nxt[0, S.PHASE] != cur[0, S.PHASE]
                           or nxt[0, H_TURN] != cur[0, H_TURN] or nxt[0, H_STATUS] != LIVE):
            break  # it closed (and, the other plan being done, the phase resolved and the next one began)
        cur = nxt
    return cur[0]


def hide(row: np.ndarray, viewer: int, rng: np.random.Generator, pool: Any = None) -> np.ndarray:
    """A copy of ``row`` with exactly what ``viewer`` cannot know re-dealt, a state it cannot tell apart: the other
    seat's plan of this phase and the cards the viewer cannot see. The other seat's plan (its own side's changes,
    and what it queued against the viewer: SF-R2) is rolled back to the phase start and built again with random
    legal decisions on the re-dealt cards (:func:`redeal_cards`: its unknown hand cards pooled with its deck, both
    deck orders): to its end if it was closed, else for a random number of decisions. The viewer's own side, every
    public zone and the phase-start snapshot are kept (``test_hide_redeals_exactly_what_the_viewer_cannot_know``);
    the header's decision counter is kept too (the number of decisions is no part of what a plan did)."""
    out = np.array(row, dtype=np.int32, copy=True)
    if viewer not in (0, 1) or out[H_STATUS] != LIVE:
        return redeal_cards(out, viewer, rng, pool)
    q = 1 - viewer
    closed = out[S.PLAN_OPEN + q] == 0
    _roll_back_plan(out, q)
    out = redeal_cards(out, viewer, rng, pool)
    out = _random_plan(out, q, bool(closed), rng, pool.tables if pool is not None else _default_tables())
    for h in (H_DECISIONS, H_TO_ACT, H_NEEDS):
        out[h] = row[h]
    return out


__all__ = ["hide"]
