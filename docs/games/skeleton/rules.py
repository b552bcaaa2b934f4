"""The skeleton's rules as Numba row functions (the kernel template's contract: cardenvs/core/kernel_template.py).

A trick: the leader plays a card from hand, then the other player does (SK-T1); the higher power wins the trick and
scores 1 point plus the ``bonus`` effects of the winning card (SK-T2); equal power scores nothing and the leader
leads again (SK-T3). Both cards go to the discard pile, each player draws one card if their deck has any (SK-T4),
and the trick's winner leads the next one. The first player to 5 points wins (SK-E1); when both hands are empty the
higher score wins, equal scores draw (SK-E2). The batch loops and the step wrapper are generated into ``_kernels.py``.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.header import DRAW, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, HEADER_SIZE, LIVE, NO_WINNER
from cardenvs.core.jit import helper
from cardenvs.core.rng import rng_below, rng_seed, shuffle_slice
from cardenvs.core.turns import finish, set_decision, truncate
from cardenvs.core.zones import zone_push, zone_remove

from . import state as S
from .cards import C_EFFECTS, C_POWER, E_AMOUNT, E_OP, OP_BONUS

#: the kernel template's options (cardenvs/core/kernel_template.py): the defaults. ``truncate`` (the decision cap,
#: never reached: a game is at most 12 tricks) is the core's, imported above for the generated kernels.
KERNEL_OPTIONS = {}
__all__ = ["KERNEL_OPTIONS", "apply_action", "mask_row", "reset_row", "settle", "truncate"]


@helper
def card_of(row: np.ndarray, p: int, inst: int) -> int:
    return row[S.DECK_LIST + p * S.MAX_DECK + inst]


@helper
def draw(row: np.ndarray, p: int) -> None:
    """SK-T4: the top card of the deck (its last entry) to the hand, if there is one."""
    n = row[S.DECK_COUNT + p]
    if n > 0:
        zone_push(row, S.HAND, S.HAND_COUNT, S.MAX_DECK, p, zone_remove(row, S.DECK, S.DECK_COUNT, S.MAX_DECK, p, n - 1))


@helper
def reset_row(row: np.ndarray, tables, deck: np.ndarray, seed: np.int64) -> None:
    """SK-S1 shuffle each deck; SK-S2 deal 3 cards each; SK-S3 a random player leads the first trick."""
    row[HEADER_SIZE:] = -1  # every zone empty
    row[:HEADER_SIZE] = 0
    row[H_WINNER] = NO_WINNER
    row[H_TURN] = 1
    rng_seed(row, seed)
    for p in range(2):
        row[S.DECK_COUNT + p] = 0
        row[S.HAND_COUNT + p] = 0
        row[S.TABLE_COUNT + p] = 0
        row[S.DISCARD_COUNT + p] = 0
        row[S.POINTS + p] = 0
        for i in range(S.MAX_DECK):
            row[S.DECK_LIST + p * S.MAX_DECK + i] = deck[p, i]
            if deck[p, i] >= 0:
                zone_push(row, S.DECK, S.DECK_COUNT, S.MAX_DECK, p, i)
        shuffle_slice(row, S.DECK + p * S.MAX_DECK, row[S.DECK_COUNT + p])
        for _ in range(S.HAND_SIZE):
            draw(row, p)
    row[S.LEADER] = rng_below(row, 2)
    pass_turn(row)


@helper
def pass_turn(row: np.ndarray) -> None:
    """Whoever has not played to the trick yet decides, the leader first."""
    leader = row[S.LEADER]
    set_decision(row, leader if row[S.TABLE_COUNT + leader] == 0 else 1 - leader)


@helper
def mask_row(row: np.ndarray, tables, p: int, mask: np.ndarray) -> int:
    """Player ``p``'s legal actions: every hand slot holding a card, on their decision (SK-T1)."""
    mask[:] = 0
    if row[H_STATUS] != LIVE or row[H_TO_ACT] != p:
        return 0
    n = row[S.HAND_COUNT + p]
    for i in range(n):
        mask[i] = 1
    return n


@helper
def apply_action(row: np.ndarray, tables, p: int, a: int) -> None:
    """Play the card in hand slot ``a`` to the trick (legal: checked by the template's step wrapper)."""
    inst = zone_remove(row, S.HAND, S.HAND_COUNT, S.MAX_DECK, p, a)
    zone_push(row, S.TABLE, S.TABLE_COUNT, S.MAX_DECK, p, inst)


@helper
def resolve_effects(row: np.ndarray, tables, p: int, card: int) -> int:
    """The points the ``win`` effects of ``card`` add for its owner ``p`` (the op interpreter: one branch per op)."""
    extra = 0
    for k in range(tables.cards[card, C_EFFECTS]):
        op = tables.effects[card, k, E_OP]
        if op == OP_BONUS:
            extra += tables.effects[card, k, E_AMOUNT]
    return extra


@helper
def settle(row: np.ndarray, tables, mask: np.ndarray) -> None:
    """Resolve a trick both players have played to (SK-T2..T4), end the game (SK-E1, SK-E2), and leave the mask of
    the player to act in ``mask`` while the row is live."""
    if row[S.TABLE_COUNT] == 1 and row[S.TABLE_COUNT + 1] == 1:
        card0 = card_of(row, 0, row[S.TABLE])
        card1 = card_of(row, 1, row[S.TABLE + S.MAX_DECK])
        power0, power1 = tables.cards[card0, C_POWER], tables.cards[card1, C_POWER]
        if power0 != power1:
            w = 0 if power0 > power1 else 1
            row[S.POINTS + w] += 1 + resolve_effects(row, tables, w, card0 if w == 0 else card1)
            row[S.LEADER] = w
        for p in range(2):
            zone_push(row, S.DISCARD, S.DISCARD_COUNT, S.MAX_DECK, p,
                      zone_remove(row, S.TABLE, S.TABLE_COUNT, S.MAX_DECK, p, 0))
            draw(row, p)
        row[H_TURN] += 1
        if row[S.POINTS] >= S.TARGET_POINTS or row[S.POINTS + 1] >= S.TARGET_POINTS:
            finish(row, 0 if row[S.POINTS] > row[S.POINTS + 1] else 1)
            return
        if row[S.HAND_COUNT] == 0 and row[S.HAND_COUNT + 1] == 0:
            a, b = row[S.POINTS], row[S.POINTS + 1]
            finish(row, DRAW if a == b else (0 if a > b else 1))
            return
    pass_turn(row)
    mask_row(row, tables, row[H_TO_ACT], mask)
