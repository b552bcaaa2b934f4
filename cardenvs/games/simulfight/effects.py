"""The effect interpreter: one entry ``(condition, threshold, op, target, amount, resource, when)`` -> state changes.

Player ``p`` builds a plan; ``p``'s own side changes at once, and everything aimed at the other side (Foes, the
opponent) is added to the other side's ``in_*`` accumulators, which land when both plans are done (rules.py,
``resolve_phase``). Conditions and filters read ``p``'s own side live and the other side *as p's plan sees it*:
its phase-start snapshot plus what p's own plan has already queued against it (the ``in_*`` fields of the other
side, which only p writes during the phase: Hedge Archer's 2 damage lets the same plan's Gloam Stalker target that
Foe; Dread Rider's second entry sees its first). A plan therefore never depends on what the other player is doing in
the same phase, and the two plans still commute (SF-R2, SF-E5, RULES.md G3).
"""
from __future__ import annotations

import numpy as np
from numba import void

from .cards import (
    CO_ALLIES_GE, CO_FOES_GE, CO_HEALTH_GE, CO_HEALTH_LE, CO_OPP_HEALTH_LE, CO_YOU_HEALTH_LE, E_AMOUNT, E_COND,
    E_OP, E_RESOURCE, E_TARGET, E_THRESHOLD, E_WHEN, OP_DAMAGE, OP_GAIN, OP_HEAL, OP_PROTECT, OP_STUN,
    TG_ALL_ALLIES, TG_ALL_FOES, TG_ONE_ALLY, TG_ONE_FOE, TG_OPPONENT, TG_OTHER_ALLIES, TG_SELF, TG_YOU, WHEN_NOW,
)
from . import reasons as R
from . import state as S

from cardenvs.core.jit import helper


@helper(S.NB_INT(S.NB_ROW, S.NB_INT, S.NB_INT))
def foe_view_health(row: np.ndarray, p: int, inst: int) -> int:
    """Health of Foe ``inst`` as ``p``'s plan sees it: at the phase start, less the damage p's plan has queued on it
    (a Foe Protected at the phase start stays Protected to the round end, so that damage will not land)."""
    at = (1 - p) * S.MAX_DECK + inst
    health = row[S.SNAP_HEALTH + at]
    if row[S.SNAP_PROTECTED + at] == 0:
        health -= row[S.IN_DAMAGE + at]
    return health


@helper(S.NB_INT(S.NB_ROW, S.NB_INT))
def opponent_view_health(row: np.ndarray, p: int) -> int:
    """The opponent's health as ``p``'s plan sees it: at the phase start, less the damage p's plan has queued."""
    q = 1 - p
    return row[S.SNAP_PLAYER + q * S.PLAYER_SNAPSHOT_SIZE + S.SP_HEALTH] - row[S.IN_PLAYER_DAMAGE + q]


@helper(S.NB_BOOL(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT))
def entry_condition_holds(row: np.ndarray, p: int, cond: int, threshold: int) -> bool:
    """Conditions on the players or unit counts (filters on unit health are handled per target)."""
    if cond == CO_YOU_HEALTH_LE:
        return row[S.HEALTH + p] <= threshold
    if cond == CO_OPP_HEALTH_LE:  # the opponent at the phase start, less the damage this plan has queued
        return opponent_view_health(row, p) <= threshold
    if cond == CO_ALLIES_GE:
        return row[S.PLAY_COUNT + p] >= threshold
    if cond == CO_FOES_GE:
        return row[S.SNAP_PLAY_COUNT + (1 - p)] >= threshold
    return True


@helper(S.NB_BOOL(S.NB_INT, S.NB_INT, S.NB_INT))
def passes_filter(health: int, cond: int, threshold: int) -> bool:
    if cond == CO_HEALTH_LE:
        return health <= threshold
    if cond == CO_HEALTH_GE:
        return health >= threshold
    return True


@helper(S.NB_INT(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT))
def candidate_reason(row: np.ndarray, p: int, target: int, cond: int, threshold: int, inst: int) -> int:
    """May the one-unit target of an entry be instance ``inst`` (an Ally for one_ally, a Foe for one_foe)? ``R.NONE``
    if so, else the reason code (reasons.py) of the test that refuses it."""
    if target == TG_ONE_ALLY:
        for j in range(row[S.PLAY_COUNT + p]):
            if row[S.PLAY + p * S.MAX_DECK + j] == inst:
                return R.NONE if passes_filter(row[S.UNIT_HEALTH + p * S.MAX_DECK + inst], cond, threshold) \
                    else R.FILTER
        return R.TARGET_NOT_IN_PLAY
    foe = 1 - p
    for j in range(row[S.SNAP_PLAY_COUNT + foe]):
        if row[S.SNAP_PLAY + foe * S.MAX_DECK + j] == inst:
            return R.NONE if passes_filter(foe_view_health(row, p, inst), cond, threshold) else R.FILTER
    return R.NOT_A_FOE


@helper(S.NB_BOOL(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT))
def is_candidate(row: np.ndarray, p: int, target: int, cond: int, threshold: int, inst: int) -> bool:
    return candidate_reason(row, p, target, cond, threshold, inst) == R.NONE


@helper(S.NB_PAIR(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT))
def count_candidates(row: np.ndarray, p: int, target: int, cond: int, threshold: int) -> tuple[int, int]:
    """How many units an one_ally / one_foe entry may pick, and the first of them (-1 if none)."""
    count = 0
    first = -1
    ally = target == TG_ONE_ALLY
    side = p if ally else 1 - p
    zone = S.PLAY if ally else S.SNAP_PLAY
    n = row[S.PLAY_COUNT + p] if ally else row[S.SNAP_PLAY_COUNT + 1 - p]
    for j in range(n):
        inst = row[zone + side * S.MAX_DECK + j]
        health = row[S.UNIT_HEALTH + p * S.MAX_DECK + inst] if ally else foe_view_health(row, p, inst)
        if passes_filter(health, cond, threshold):
            if count == 0:
                first = inst
            count += 1
    return count, first


@helper(void(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT))
def affect_own_unit(row: np.ndarray, p: int, inst: int, op: int, amount: int) -> None:
    """An effect on one of ``p``'s units, at once. Units at 0 or less neither gain nor lose (SF-C5)."""
    at = p * S.MAX_DECK + inst
    health = row[S.UNIT_HEALTH + at]
    if op == OP_DAMAGE:
        if health > 0 and row[S.PROTECTED + at] == 0:  # SF-C6
            row[S.UNIT_HEALTH + at] = health - amount
    elif op == OP_HEAL:
        if health > 0:
            row[S.UNIT_HEALTH + at] = health + amount
    elif op == OP_PROTECT:
        row[S.PROTECTED + at] = 1
    elif op == OP_STUN:
        row[S.STUNNED + at] = 1


@helper(void(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT))
def affect_foe_unit(row: np.ndarray, p: int, inst: int, op: int, amount: int) -> None:
    """An effect on a Foe: recorded on the foe side, lands at phase end (only damage and stun reach Foes)."""
    at = (1 - p) * S.MAX_DECK + inst
    if op == OP_DAMAGE:
        row[S.IN_DAMAGE + at] += amount
    elif op == OP_STUN:
        row[S.IN_STUN + at] = 1


@helper(void(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT))
def affect_player(row: np.ndarray, p: int, who: int, op: int, amount: int, resource: int, when: int) -> None:
    """``who`` is p (at once) or the opponent (recorded, lands at phase end). Player health may go negative."""
    if who == p:
        if op == OP_DAMAGE:
            row[S.HEALTH + p] -= amount
        elif op == OP_HEAL:
            row[S.HEALTH + p] += amount
        elif op == OP_GAIN:
            if when == WHEN_NOW:
                at = S.RESOURCES + p * S.NUM_RESOURCES + resource
                row[at] = max(0, row[at] + amount)
            else:
                row[S.NEXT_ROUND + p * S.NUM_RESOURCES + resource] += amount
        return
    if op == OP_DAMAGE:
        row[S.IN_PLAYER_DAMAGE + who] += amount
    elif op == OP_GAIN:
        if when == WHEN_NOW:
            row[S.IN_RESOURCES + who * S.NUM_RESOURCES + resource] += amount
        else:
            row[S.IN_NEXT_ROUND + who * S.NUM_RESOURCES + resource] += amount


@helper(void(S.NB_ROW, S.NB_ENTRY, S.NB_INT, S.NB_INT, S.NB_INT))
def apply_entry(row: np.ndarray, entry: np.ndarray, p: int, source: int, chosen: int) -> None:
    """Apply one effect entry of ``p``'s unit ``source``; ``chosen`` is the picked unit of a one_* target.

    The caller has already checked the entry's player/count condition.
    """
    cond = entry[E_COND]
    threshold = entry[E_THRESHOLD]
    op = entry[E_OP]
    target = entry[E_TARGET]
    amount = entry[E_AMOUNT]
    if target == TG_SELF:
        if passes_filter(row[S.UNIT_HEALTH + p * S.MAX_DECK + source], cond, threshold):
            affect_own_unit(row, p, source, op, amount)
    elif target == TG_ONE_ALLY:
        affect_own_unit(row, p, chosen, op, amount)
    elif target == TG_ONE_FOE:
        affect_foe_unit(row, p, chosen, op, amount)
    elif target == TG_ALL_ALLIES or target == TG_OTHER_ALLIES:
        for j in range(row[S.PLAY_COUNT + p]):
            inst = row[S.PLAY + p * S.MAX_DECK + j]
            if target == TG_OTHER_ALLIES and inst == source:
                continue
            if passes_filter(row[S.UNIT_HEALTH + p * S.MAX_DECK + inst], cond, threshold):
                affect_own_unit(row, p, inst, op, amount)
    elif target == TG_ALL_FOES:  # the Foes in play at the start of the phase, as this plan sees them
        foe = 1 - p
        for j in range(row[S.SNAP_PLAY_COUNT + foe]):
            inst = row[S.SNAP_PLAY + foe * S.MAX_DECK + j]
            if passes_filter(foe_view_health(row, p, inst), cond, threshold):
                affect_foe_unit(row, p, inst, op, amount)
    elif target == TG_YOU:
        affect_player(row, p, p, op, amount, entry[E_RESOURCE], entry[E_WHEN])
    elif target == TG_OPPONENT:
        affect_player(row, p, 1 - p, op, amount, entry[E_RESOURCE], entry[E_WHEN])
