"""levelneo observation kernels: one float32 row per player view (layout and blocks in ``obs_layout.py``).

"own" is the observing player, "opp" the other. Public information is all encoded: both fields, face-up level cards,
hand and deck sizes, both discard piles (per card id), the battle, the window and pending choices. Never encoded: the
opponent's hand contents, any deck order or contents, face-down level cards (unknown to both players, see
RULES.md), the opponent's face-down main during setup.
Numbers are scaled to roughly [0, 10]: AP / 1000, deck and discard counts / 10, turn markers / 10.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE

from .board import card_of, level_of, support_at
from .cards import (
    C_AP, C_COLOR, C_FEATURES, C_HAS_BURST, C_HAS_CONT, C_HAS_START, C_MAIN_OK, C_TRAITS, C_TURN_COST, C_TYPE,
    C_USE_EFFECT,
    E_OP, E_TARGET, MAX_POOL, OP_ACTIVATE, OP_AP_DOWN, OP_AP_UP, OP_REST, TG_OPP_ONE,
)
from .effects import MAX_CONT_SOURCES, NUM_SOURCE_COLUMNS, active_conts, ap_given
from . import obs_layout as L
from . import state as S
from .obs_layout import OBS

OBS_SIZE = OBS.size
OBS.export(globals(), "O_")  # O_HAND, O_HAND_END ... (the kernels below read them as L.O_HAND)


def card_features(ctab: np.ndarray) -> np.ndarray:
    """The CARD block of every card in the pool, ``float32 [n, CARD_SIZE]``, built once at pool load and kept in the
    card table from column ``C_FEATURES`` (``cards.py``): the observation copies a card's block instead of
    re-encoding it for every slot of every view. Reads only the ``C_*`` columns before ``C_FEATURES``."""
    feat = np.zeros((ctab.shape[0], L.CARD_SIZE), dtype=np.float32)
    for card in range(ctab.shape[0]):
        f = feat[card]
        f[L.CARD_PRESENT] = 1.0
        f[L.CARD_TYPE + ctab[card, C_TYPE]] = 1.0
        f[L.CARD_COLOR + ctab[card, C_COLOR]] = 1.0
        f[L.CARD_TURN_COST] = ctab[card, C_TURN_COST]
        f[L.CARD_AP] = ctab[card, C_AP] / 1000.0  # float64 division rounded once to float32, as a kernel write
        for b in range(L.NUM_TRAIT_BITS):
            if ctab[card, C_TRAITS] & (1 << b):
                f[L.CARD_TRAITS + b] = 1.0
        f[L.CARD_HAS_USE] = 1.0 if ctab[card, C_USE_EFFECT] >= 0 else 0.0
        f[L.CARD_HAS_CONT] = ctab[card, C_HAS_CONT]
        f[L.CARD_HAS_START] = ctab[card, C_HAS_START]
        f[L.CARD_HAS_BURST] = ctab[card, C_HAS_BURST]
        f[L.CARD_MAIN_CAPABLE] = ctab[card, C_MAIN_OK]
        f[L.CARD_CARD_ID] = card + 1  # issue 14: the card's identity, for policies that embed card ids
    return feat


@njit(cache=True, inline="always")
def copy_card(feat: np.ndarray, card: int, out: np.ndarray, at: int) -> None:
    """The CARD block of ``card`` at ``out[at:]`` (inlined: a call per copy costs as much as the copy)."""
    for f in range(L.CARD_SIZE):
        out[at + f] = feat[card, C_FEATURES + f]


@njit(cache=True)
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    out[:] = 0.0
    if p < 0 or p > 1:  # no viewer (e.g. a finished game in a batch): all zeros
        return
    feat = tables[0].view(np.float32)  # the card blocks from column C_FEATURES
    o = 1 - p
    tp = row[S.TURN_PLAYER]
    # the [Cont] skills in force, found once per row
    sources = np.empty((MAX_CONT_SOURCES, NUM_SOURCE_COLUMNS), dtype=np.int32)
    n_sources = active_conts(row, tables, sources)
    out[L.O_STEP + row[S.STEP]] = 1.0
    c = L.O_CONTEXT
    out[c + L.CONTEXT_MY_DECISION] = 1.0 if row[H_STATUS] == LIVE and row[H_TO_ACT] == p else 0.0
    out[c + L.CONTEXT_MY_TURN] = 1.0 if tp == p else 0.0
    out[c + L.CONTEXT_FIRST_TURN] = 1.0 if row[H_TURN] == 1 else 0.0
    out[c + L.CONTEXT_MAIN_PHASE_2] = 1.0 if row[S.MAIN_PHASE] == 2 else 0.0
    out[c + L.CONTEXT_WINDOW_OPPONENT_STAGE] = row[S.SUB]
    out[c + L.CONTEXT_SUPPORT_PLAYED] = row[S.SUPPORT_PLAYED]
    out[c + L.CONTEXT_BATTLE] = row[S.BATTLE]
    out[c + L.CONTEXT_COVERED] = row[S.COVERED]
    out[c + L.CONTEXT_COMBI] = 1.0 if row[S.BATTLE] != 0 and row[S.ATK_B] >= 0 else 0.0
    out[c + L.CONTEXT_OWN_NEO] = 1.0 if level_of(row, p) >= S.MAX_LEVEL else 0.0
    out[c + L.CONTEXT_OPP_NEO] = 1.0 if level_of(row, o) >= S.MAX_LEVEL else 0.0
    out[c + L.CONTEXT_BURST_FAILED_OWN] = row[S.BURST_FAILED + p]
    out[c + L.CONTEXT_BURST_FAILED_OPP] = row[S.BURST_FAILED + o]
    out[c + L.CONTEXT_NO_LEVEL_DOWN_OWN] = row[S.NO_LEVEL_DOWN + p]
    out[c + L.CONTEXT_NO_LEVEL_DOWN_OPP] = row[S.NO_LEVEL_DOWN + o]
    out[c + L.CONTEXT_MULLIGAN_USED_OWN] = row[S.MULLIGAN_USED + p]
    out[c + L.CONTEXT_MULLIGAN_USED_OPP] = row[S.MULLIGAN_USED + o]
    out[c + L.CONTEXT_WINDOW_ONE_PASS] = row[S.WINDOW_PASSES]
    cp = row[S.CHOICE_PLAYER]
    if cp >= 0:
        out[c + (L.CONTEXT_CHOICE_OWN if cp == p else L.CONTEXT_CHOICE_OPP)] = 1.0
        eff = tables[1][card_of(row, cp, row[S.CHOICE_INST]), row[S.CHOICE_EFFECT]]
        out[c + L.CONTEXT_CHOICE_ON_OPP_SUPPORTS] = 1.0 if eff[E_TARGET] == TG_OPP_ONE else 0.0
        eop = eff[E_OP]
        out[c + L.CONTEXT_CHOICE_REST] = 1.0 if eop == OP_REST else 0.0
        out[c + L.CONTEXT_CHOICE_ACTIVATE] = 1.0 if eop == OP_ACTIVATE else 0.0
        out[c + L.CONTEXT_CHOICE_AP_UP] = 1.0 if eop == OP_AP_UP else 0.0
        out[c + L.CONTEXT_CHOICE_AP_DOWN] = 1.0 if eop == OP_AP_DOWN else 0.0
    for side in range(2):
        q = p if side == 0 else o
        out[L.O_MARKERS + side] = row[S.MARKER + q] / 10.0
        out[L.O_LEVELS + side] = level_of(row, q)
        base = L.O_COUNTS + side * L.COUNT_SIZE
        out[base + L.COUNT_DECK] = row[S.DECK_COUNT + q] / 10.0
        out[base + L.COUNT_HAND] = row[S.HAND_COUNT + q]
        out[base + L.COUNT_SUPPORTS] = row[S.SUPPORT_COUNT + q]
        down = 0
        for j in range(row[S.LEVEL_COUNT + q]):
            inst = row[S.LEVEL + q * S.LEVEL_CAP + j]
            lat = L.O_LEVEL + (side * S.LEVEL_CAP + j) * L.LEVEL_SLOT_SIZE
            out[lat + L.LEVEL_SLOT_PRESENT] = 1.0
            if row[S.FACE_UP + q * S.DECK_SIZE + inst] != 0:
                out[lat + L.LEVEL_SLOT_FACE_UP] = 1.0
                copy_card(feat, card_of(row, q, inst), out, lat + L.LEVEL_SLOT_CARD)
            else:
                down += 1
                if q == p and row[S.DRAWN + q * S.DECK_SIZE + inst] != 0:  # the viewer knows this one (mulliganed)
                    copy_card(feat, card_of(row, q, inst), out, lat + L.LEVEL_SLOT_CARD)
        out[base + L.COUNT_FACE_DOWN_LEVEL] = down
        out[base + L.COUNT_DISCARD] = row[S.DISCARD_COUNT + q] / 10.0
        for j in range(row[S.DISCARD_COUNT + q]):
            out[L.O_DISCARD + side * MAX_POOL + card_of(row, q, row[S.DISCARD + q * S.DECK_SIZE + j])] += 1.0
        for j in range(row[S.USED_COUNT + q]):
            out[L.O_USED_SKILLS + side * MAX_POOL + row[S.USED_SKILLS + q * S.USED_CAP + j]] = 1.0
        battle = row[S.BATTLE] != 0
        for s in range(-1, row[S.SUPPORT_COUNT + q]):  # the main (s = -1), then the supports: the CHAR blocks
            if s < 0:
                inst = row[S.MAIN + q]
                at = L.O_MAIN + side * L.CHAR_SIZE
                if inst < 0:
                    continue
                if q != p and row[S.FACE_UP + q * S.DECK_SIZE + inst] == 0:
                    out[at + L.CHAR_CARD + L.CARD_PRESENT] = 1.0  # the opponent's face-down main during setup
                    continue
            else:
                inst = support_at(row, q, s)
                at = L.O_SUPPORTS + (side * S.SUPPORT_CAP + s) * L.CHAR_SIZE
            k = q * S.DECK_SIZE + inst
            card = row[S.DECK_LIST + k]
            for f in range(L.CARD_SIZE):
                out[at + L.CHAR_CARD + f] = feat[card, C_FEATURES + f]
            out[at + L.CHAR_AP_NOW] = ap_given(row, tables, q, inst, sources, n_sources) / 1000.0
            out[at + L.CHAR_RESTED] = row[S.RESTED + k]
            out[at + L.CHAR_ATTACKED] = row[S.ATTACKED + k]
            attacking = battle and q == tp and (inst == row[S.ATK_A] or inst == row[S.ATK_B])
            out[at + L.CHAR_ATTACKING] = 1.0 if attacking else 0.0
            out[at + L.CHAR_DEFENDING] = 1.0 if battle and q != tp and inst == row[S.TARGET] else 0.0
            out[at + L.CHAR_DECLARED_TARGET] = 1.0 if battle and q != tp and inst == row[S.ORIG_TARGET] else 0.0
            out[at + L.CHAR_FACE_UP] = row[S.FACE_UP + k]
    for i in range(row[S.HAND_COUNT + p]):
        card = row[S.DECK_LIST + p * S.DECK_SIZE + row[S.HAND + p * S.HAND_CAP + i]]
        at = L.O_HAND + i * L.CARD_SIZE
        for f in range(L.CARD_SIZE):
            out[at + f] = feat[card, C_FEATURES + f]
    if row[S.BATTLE] != 0:
        atk = ap_given(row, tables, tp, row[S.ATK_A], sources, n_sources)
        if row[S.ATK_B] >= 0:
            atk += ap_given(row, tables, tp, row[S.ATK_B], sources, n_sources)
        out[L.O_BATTLE_AP + L.BATTLE_AP_ATTACKER] = atk / 1000.0
        defence = ap_given(row, tables, 1 - tp, row[S.TARGET], sources, n_sources)
        out[L.O_BATTLE_AP + L.BATTLE_AP_DEFENDER] = defence / 1000.0


@njit(cache=True, nogil=True)
def batch_observe(states, tables, players, out):
    for i in range(states.shape[0]):
        observe_row(states[i], tables, players[i], out[i])

