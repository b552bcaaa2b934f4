"""levelneo observation: one float32 row per player view, declared as a Layout (table in RULES.md).

"own" is the observing player, "opp" the other. Public information is all encoded: both fields, face-up level cards,
hand and deck sizes, both discard piles (per card id), the battle, the window and pending choices. Never encoded: the opponent's hand contents, any deck order or
contents, face-down level cards (unknown to both players, see RULES.md), the opponent's face-down main during setup.
Numbers are scaled to roughly [0, 10]: AP / 1000, deck and discard counts / 10, turn markers / 10.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE
from cardenvs.core.layout import Layout, fields

from .board import card_of, level_of, support_at
from .cards import (
    C_AP, C_COLOR, C_HAS_BURST, C_HAS_CONT, C_HAS_START, C_MAIN_OK, C_TRAITS, C_TURN_COST, C_TYPE, C_USE_EFFECT,
    E_OP, E_TARGET, MAX_POOL, OP_ACTIVATE, OP_AP_DOWN, OP_AP_UP, OP_REST, TG_OPP_ONE,
)
from .effects import MAX_CONT_SOURCES, active_conts, ap_given
from . import state as S

TRAIT_BITS = 8  # the first 8 traits of the pool get a feature bit each
CARD_FEATURES = (
    "present", "character", "event", "red", "blue", "green", "yellow", "turn_cost", "ap/1000",
    *[f"trait{i}" for i in range(TRAIT_BITS)], "has_use", "has_cont", "has_start", "has_burst", "main_capable",
)
F = len(CARD_FEATURES)
CHAR_FEATURES = ("ap_now/1000", "rested", "attacked", "attacking", "defending", "declared_target", "face_up")
D = len(CHAR_FEATURES)
CONTEXT = (
    "my_decision", "my_turn", "first_turn", "main_phase_2", "window_opponent_stage", "support_played", "battle",
    "covered", "combi", "own_neo", "opp_neo", "burst_failed_own", "burst_failed_opp", "no_level_down_own",
    "no_level_down_opp", "mulligan_used_own", "mulligan_used_opp", "window_one_pass", "choice_own", "choice_opp",
    "choice_on_opp_supports", "choice_rest", "choice_activate", "choice_ap_up", "choice_ap_down",
)

OBS = Layout(
    "levelneo_obs",
    fields(
        ("step", (S.NUM_STEPS,), "one-hot pending step (ST_* in state.py)"),
        ("context", (len(CONTEXT),), "flags: " + ", ".join(CONTEXT)),
        ("markers", (2,), "turn markers / 10 (own, opp)"),
        ("levels", (2,), "main character levels 1..5 (own, opp)"),
        ("counts", (2, 5), "per player: deck / 10, hand, supports, face-down level cards, discard / 10"),
        ("battle_ap", (2,), "current battle: attacking side AP / 1000, defending side AP / 1000"),
        ("hand", (S.HAND_CAP, F), "own hand, card features: " + ", ".join(CARD_FEATURES)),
        ("main", (2, F + D), "main characters (own, opp): card features + " + ", ".join(CHAR_FEATURES)),
        ("supports", (2, S.SUPPORT_CAP, F + D), "support slots (own, opp): card features + character state"),
        ("level", (2, S.LEVEL_ZONE, 2 + F), "level zones (own, opp): present, face_up, card features if face up (or, "
                                          "own zone, a face-down card the viewer once held)"),
        ("discard", (2, MAX_POOL), "discard piles (own, opp), public: copies of each card id (pool order)"),
        ("used_skills", (2, MAX_POOL), "skills used this turn (own, opp), public (LN-K4): 1 per skill id (pool "
                                       "order of first use)"),
    ),
    dtype_scalar=np.float32,
)
OBS_SIZE = OBS.size
O_STEP, O_CONTEXT, O_MARKERS, O_LEVELS, O_COUNTS, O_BATTLE_AP, O_HAND, O_MAIN, O_SUPPORTS, O_LEVEL = OBS.offsets(
    "step", "context", "markers", "levels", "counts", "battle_ap", "hand", "main", "supports", "level"
)
O_DISCARD = OBS.offset("discard")
O_USED = OBS.offset("used_skills")


@njit(cache=True)
def write_card(ctab: np.ndarray, card: int, out: np.ndarray, at: int) -> None:
    out[at] = 1.0
    out[at + 1 + ctab[card, C_TYPE]] = 1.0
    out[at + 3 + ctab[card, C_COLOR]] = 1.0
    out[at + 7] = ctab[card, C_TURN_COST]
    out[at + 8] = ctab[card, C_AP] / 1000.0
    traits = ctab[card, C_TRAITS]
    for b in range(TRAIT_BITS):
        if traits & (1 << b):
            out[at + 9 + b] = 1.0
    out[at + 9 + TRAIT_BITS] = 1.0 if ctab[card, C_USE_EFFECT] >= 0 else 0.0
    out[at + 10 + TRAIT_BITS] = ctab[card, C_HAS_CONT]
    out[at + 11 + TRAIT_BITS] = ctab[card, C_HAS_START]
    out[at + 12 + TRAIT_BITS] = ctab[card, C_HAS_BURST]
    out[at + 13 + TRAIT_BITS] = ctab[card, C_MAIN_OK]


@njit(cache=True)
def write_character(row: np.ndarray, tables, q: int, inst: int, out: np.ndarray, at: int, sources: np.ndarray,
                    n_sources: int) -> None:
    k = q * S.DECK_SIZE + inst
    write_card(tables[0], card_of(row, q, inst), out, at)
    d = at + F
    out[d] = ap_given(row, tables, q, inst, sources, n_sources) / 1000.0
    out[d + 1] = row[S.RESTED + k]
    out[d + 2] = row[S.ATTACKED + k]
    battle = row[S.BATTLE] != 0
    attacking = battle and q == row[S.TURN_PLAYER] and (inst == row[S.ATK_A] or inst == row[S.ATK_B])
    out[d + 3] = 1.0 if attacking else 0.0
    out[d + 4] = 1.0 if battle and q != row[S.TURN_PLAYER] and inst == row[S.TARGET] else 0.0
    out[d + 5] = 1.0 if battle and q != row[S.TURN_PLAYER] and inst == row[S.ORIG_TARGET] else 0.0
    out[d + 6] = row[S.FACE_UP + k]


@njit(cache=True)
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    out[:] = 0.0
    if p < 0 or p > 1:  # no viewer (e.g. a finished game in a batch): all zeros
        return
    ctab = tables[0]
    o = 1 - p
    tp = row[S.TURN_PLAYER]
    sources = np.empty((MAX_CONT_SOURCES, 4), dtype=np.int32)  # the [Cont] skills in force, found once per row
    n_sources = active_conts(row, tables, sources)
    out[O_STEP + row[S.STEP]] = 1.0
    c = O_CONTEXT
    out[c] = 1.0 if row[H_STATUS] == LIVE and row[H_TO_ACT] == p else 0.0
    out[c + 1] = 1.0 if tp == p else 0.0
    out[c + 2] = 1.0 if row[H_TURN] == 1 else 0.0
    out[c + 3] = 1.0 if row[S.MAIN_PHASE] == 2 else 0.0
    out[c + 4] = row[S.SUB]
    out[c + 5] = row[S.SUPPORT_PLAYED]
    out[c + 6] = row[S.BATTLE]
    out[c + 7] = row[S.COVERED]
    out[c + 8] = 1.0 if row[S.BATTLE] != 0 and row[S.ATK_B] >= 0 else 0.0
    out[c + 9] = 1.0 if level_of(row, p) >= 5 else 0.0
    out[c + 10] = 1.0 if level_of(row, o) >= 5 else 0.0
    out[c + 11] = row[S.BURST_FAILED + p]
    out[c + 12] = row[S.BURST_FAILED + o]
    out[c + 13] = row[S.NO_LEVEL_DOWN + p]
    out[c + 14] = row[S.NO_LEVEL_DOWN + o]
    out[c + 15] = row[S.MULLIGAN_USED + p]
    out[c + 16] = row[S.MULLIGAN_USED + o]
    out[c + 17] = row[S.WINDOW_PASSES]
    cp = row[S.CHOICE_P]
    if cp >= 0:
        out[c + 18 if cp == p else c + 19] = 1.0
        eff = tables[1][card_of(row, cp, row[S.CHOICE_INST]), row[S.CHOICE_EFF]]
        out[c + 20] = 1.0 if eff[E_TARGET] == TG_OPP_ONE else 0.0
        eop = eff[E_OP]
        out[c + 21] = 1.0 if eop == OP_REST else 0.0
        out[c + 22] = 1.0 if eop == OP_ACTIVATE else 0.0
        out[c + 23] = 1.0 if eop == OP_AP_UP else 0.0
        out[c + 24] = 1.0 if eop == OP_AP_DOWN else 0.0
    for side in range(2):
        q = p if side == 0 else o
        out[O_MARKERS + side] = row[S.MARKER + q] / 10.0
        out[O_LEVELS + side] = level_of(row, q)
        base = O_COUNTS + side * 5
        out[base] = row[S.DECK_N + q] / 10.0
        out[base + 1] = row[S.HAND_N + q]
        out[base + 2] = row[S.SUPPORT_N + q]
        down = 0
        for j in range(row[S.LEVEL_N + q]):
            inst = row[S.LEVEL + q * S.LEVEL_ZONE + j]
            lat = O_LEVEL + (side * S.LEVEL_ZONE + j) * (2 + F)
            out[lat] = 1.0
            if row[S.FACE_UP + q * S.DECK_SIZE + inst] != 0:
                out[lat + 1] = 1.0
                write_card(ctab, card_of(row, q, inst), out, lat + 2)
            else:
                down += 1
                if q == p and row[S.DRAWN + q * S.DECK_SIZE + inst] != 0:  # the viewer knows this one (mulliganed)
                    write_card(ctab, card_of(row, q, inst), out, lat + 2)
        out[base + 3] = down
        out[base + 4] = row[S.DISCARD_N + q] / 10.0
        for j in range(row[S.DISCARD_N + q]):
            out[O_DISCARD + side * MAX_POOL + card_of(row, q, row[S.DISCARD + q * S.DECK_SIZE + j])] += 1.0
        for j in range(row[S.USED_N + q]):
            out[O_USED + side * MAX_POOL + row[S.USED_SKILLS + q * S.USED_CAP + j]] = 1.0
        main = row[S.MAIN + q]
        mat = O_MAIN + side * (F + D)
        if main >= 0:
            if q == p or row[S.FACE_UP + q * S.DECK_SIZE + main] != 0:
                write_character(row, tables, q, main, out, mat, sources, n_sources)
            else:
                out[mat] = 1.0  # the opponent's face-down main during setup: present, nothing else
        for s in range(row[S.SUPPORT_N + q]):
            write_character(row, tables, q, support_at(row, q, s), out,
                            O_SUPPORTS + (side * S.SUPPORT_CAP + s) * (F + D), sources, n_sources)
    for i in range(row[S.HAND_N + p]):
        write_card(ctab, card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), out, O_HAND + i * F)
    if row[S.BATTLE] != 0:
        atk = ap_given(row, tables, tp, row[S.ATK_A], sources, n_sources)
        if row[S.ATK_B] >= 0:
            atk += ap_given(row, tables, tp, row[S.ATK_B], sources, n_sources)
        out[O_BATTLE_AP] = atk / 1000.0
        out[O_BATTLE_AP + 1] = ap_given(row, tables, 1 - tp, row[S.TARGET], sources, n_sources) / 1000.0


@njit(cache=True, nogil=True)
def batch_observe(states, tables, players, out):
    for i in range(states.shape[0]):
        observe_row(states[i], tables, players[i], out[i])

