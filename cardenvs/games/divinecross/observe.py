"""divinecross observation kernels: one float32 row per player view (layout and blocks in ``obs_layout.py``).

"own" is the observing player, "opp" the other. Never encoded: the opponent's hand contents, any deck order or
contents, the opponent's face-down Main Unit before the reveal (DC-S4/S8). Every face-up card (both discard piles,
KO Zones, attached Energy and Assists) is counted by card id in ``public_cards``; every card slot carries its
``card_id`` (pool index + 1, 0 = none or hidden). Numbers are scaled to roughly [0, 30]:
damage and HP / 100, deck, hand and discard counts / 10, the turn / 100.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE

from .board import (
    assist_sum,
    card_of,
    count_attached,
    energy_of,
    retreat_cost,
    unit_at,
    unit_hp,
)
from .cards import (
    ATTR_RED,
    ATTRIBUTES,
    C_ADV,
    C_ATTR,
    C_DEAL_MINUS,
    C_DEAL_PLUS,
    C_HALVE,
    C_HAS_EX,
    C_HP,
    C_HP_UP,
    C_N_SKILLS,
    C_OPS,
    C_RETREAT,
    C_RETREAT_DOWN,
    C_S0_DAMAGE,
    C_S0_ENERGY,
    C_TAKE_MINUS,
    C_TAKE_PLUS,
    C_TYPE,
    MAX_SKILLS,
    NUM_OPS,
)
from .effects import skill_damage
from .rules import promoter
from . import obs_layout as L
from . import state as S
from .obs_layout import OBS

OBS_SIZE = OBS.size
OBS.export(globals(), "O_")  # O_HAND, O_HAND_END ... (the kernels below read them as L.O_HAND)


@njit(cache=True)
def write_card(ctab: np.ndarray, card: int, out: np.ndarray, at: int) -> None:
    out[at + L.CARD_PRESENT] = 1.0
    out[at + L.CARD_CARD_ID] = card + 1.0  # issue 14: identity, 0 = none/hidden
    out[at + L.CARD_TYPE + ctab[card, C_TYPE]] = 1.0
    out[at + L.CARD_ATTR + ctab[card, C_ATTR]] = 1.0
    adv = ctab[card, C_ADV]
    for a in range(ATTR_RED, len(ATTRIBUTES)):
        if adv & (1 << a):
            out[at + L.CARD_ADV + a - ATTR_RED] = 1.0
    out[at + L.CARD_HP] = ctab[card, C_HP] / 100.0
    out[at + L.CARD_RETREAT] = ctab[card, C_RETREAT]
    out[at + L.CARD_SKILLS] = ctab[card, C_N_SKILLS]
    for k in range(MAX_SKILLS):
        out[at + L.CARD_SKILL_ENERGY + k] = ctab[card, C_S0_ENERGY + k]
        out[at + L.CARD_SKILL_DAMAGE + k] = ctab[card, C_S0_DAMAGE + k] / 100.0
    out[at + L.CARD_HAS_EX_POWER] = ctab[card, C_HAS_EX]
    out[at + L.CARD_DEAL_PLUS] = ctab[card, C_DEAL_PLUS] / 100.0
    out[at + L.CARD_DEAL_MINUS] = ctab[card, C_DEAL_MINUS] / 100.0
    out[at + L.CARD_TAKE_PLUS] = ctab[card, C_TAKE_PLUS] / 100.0
    out[at + L.CARD_TAKE_MINUS] = ctab[card, C_TAKE_MINUS] / 100.0
    out[at + L.CARD_HALVE] = ctab[card, C_HALVE]
    out[at + L.CARD_HP_UP] = ctab[card, C_HP_UP] / 100.0
    out[at + L.CARD_RETREAT_DOWN] = ctab[card, C_RETREAT_DOWN]
    ops = ctab[card, C_OPS]
    for b in range(NUM_OPS):
        if ops & (1 << b):
            out[at + L.CARD_OPS + b] = 1.0


@njit(cache=True)
def write_unit(row: np.ndarray, tables, q: int, j: int, u: int, out: np.ndarray, at: int) -> None:
    ctab = tables[0]
    k = q * S.DECK_SIZE + u
    write_card(ctab, card_of(row, q, u), out, at)
    d = at + L.CARD_SIZE
    out[d + L.UNIT_DAMAGE] = row[S.DAMAGE + k] / 100.0
    out[d + L.UNIT_HP_LEFT] = (unit_hp(row, ctab, q, u) - row[S.DAMAGE + k]) / 100.0
    out[d + L.UNIT_ENERGY] = energy_of(row, q, u)
    out[d + L.UNIT_ASSISTS] = count_attached(row, S.ASSIST, S.ASSIST_COUNT, q, u)
    out[d + L.UNIT_BOOST] = row[S.BOOST + k] / 100.0
    out[d + L.UNIT_GUARD] = row[S.GUARD + k] / 100.0
    out[d + L.UNIT_RETREAT_COST_NOW] = retreat_cost(row, ctab, q, u)
    if j == S.POS_MAIN and row[S.PROMOTE] == 0:
        for s in range(ctab[card_of(row, q, u), C_N_SKILLS]):
            out[d + L.UNIT_SKILL_DAMAGE_NOW + s] = skill_damage(row, tables, q, s) / 100.0
    out[d + L.UNIT_FACE_UP] = row[S.FACE_UP + k]
    # assists add to the unit's effective modifiers: fold them into the card features
    out[at + L.CARD_HP] += assist_sum(row, ctab, q, u, C_HP_UP) / 100.0
    out[at + L.CARD_DEAL_PLUS] += assist_sum(row, ctab, q, u, C_DEAL_PLUS) / 100.0
    out[at + L.CARD_DEAL_MINUS] += assist_sum(row, ctab, q, u, C_DEAL_MINUS) / 100.0
    out[at + L.CARD_TAKE_PLUS] += assist_sum(row, ctab, q, u, C_TAKE_PLUS) / 100.0
    out[at + L.CARD_TAKE_MINUS] += assist_sum(row, ctab, q, u, C_TAKE_MINUS) / 100.0
    out[at + L.CARD_HALVE] += assist_sum(row, ctab, q, u, C_HALVE)


@njit(cache=True)
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    out[:] = 0.0
    if p < 0 or p > 1:  # no viewer (e.g. a finished game in a batch): all zeros
        return
    ctab = tables[0]
    o = 1 - p
    tp = row[S.TURN_PLAYER]
    out[L.O_STEP + row[S.STEP]] = 1.0
    c = L.O_CONTEXT
    out[c + L.CTX_MY_DECISION] = 1.0 if row[H_STATUS] == LIVE and row[H_TO_ACT] == p else 0.0
    out[c + L.CTX_MY_TURN] = 1.0 if tp == p and row[S.FIRST_PLAYER] >= 0 else 0.0
    out[c + L.CTX_I_WENT_FIRST] = 1.0 if row[S.FIRST_PLAYER] == p else 0.0
    out[c + L.CTX_NO_SKILL_THIS_TURN] = 1.0 if row[H_TURN] == 1 else 0.0  # DC-K2: turn 1 is the first player's
    out[c + L.CTX_CHARGED_OWN] = row[S.CHARGED + p]
    out[c + L.CTX_RETREATED_OWN] = row[S.RETREATED + p]
    out[c + L.CTX_EVENT_PLAYED_OWN] = row[S.EVENT_PLAYED + p]
    out[c + L.CTX_EX_USED_OWN] = row[S.EX_USED + p]
    out[c + L.CTX_EX_USED_OPP] = row[S.EX_USED + o]
    out[c + L.CTX_STUNNED_OWN] = row[S.STUNNED + p]
    out[c + L.CTX_STUNNED_OPP] = row[S.STUNNED + o]
    out[c + L.CTX_POISONED_OWN] = row[S.POISONED + p]
    out[c + L.CTX_POISONED_OPP] = row[S.POISONED + o]
    who = promoter(row)
    out[c + L.CTX_PROMOTE_OWN] = 1.0 if who == p else 0.0
    out[c + L.CTX_PROMOTE_OPP] = 1.0 if who == o else 0.0
    out[c + L.CTX_TURN] = row[H_TURN] / 100.0
    out[c + L.CTX_REDEALS_OWN] = min(row[S.REDEALS + p], L.MAX_SMALL_COUNT)
    out[c + L.CTX_REDEALS_OPP] = min(row[S.REDEALS + o], L.MAX_SMALL_COUNT)
    out[c + L.CTX_EXTRA_DRAWS_LEFT_OWN] = min(row[S.EXTRA_LEFT + p], L.MAX_SMALL_COUNT)
    out[c + L.CTX_EXTRA_DRAWS_LEFT_OPP] = min(row[S.EXTRA_LEFT + o], L.MAX_SMALL_COUNT)
    for side in range(2):
        q = p if side == 0 else o
        base = L.O_COUNTS + side * L.COUNT_SIZE
        out[base + L.COUNT_DECK] = row[S.DECK_COUNT + q] / 10.0
        out[base + L.COUNT_HAND] = row[S.HAND_COUNT + q] / 10.0
        out[base + L.COUNT_STANDBY] = row[S.STANDBY_COUNT + q]
        out[base + L.COUNT_KO] = row[S.KO_COUNT + q]
        out[base + L.COUNT_DISCARD] = row[S.DISCARD_COUNT + q] / 10.0
        out[base + L.COUNT_ENERGY] = row[S.ENERGY_COUNT + q] / 10.0
        pub = L.O_PUBLIC_CARDS + side * L.NUM_PILES * S.POOL_CAP  # DC-U7: every face-up card, counted by card id
        discard = pub + L.PILE_DISCARD * S.POOL_CAP
        ko = pub + L.PILE_KO * S.POOL_CAP
        attached = pub + L.PILE_ATTACHED * S.POOL_CAP
        for k in range(row[S.DISCARD_COUNT + q]):
            out[discard + card_of(row, q, row[S.DISCARD + q * S.DECK_SIZE + k])] += 1.0
        for k in range(row[S.KO_COUNT + q]):
            out[ko + card_of(row, q, row[S.KO + q * S.KO_CAP + k])] += 1.0
        for k in range(row[S.ENERGY_COUNT + q]):
            out[attached + card_of(row, q, row[S.ENERGY + q * S.DECK_SIZE + k])] += 1.0
        for k in range(row[S.ASSIST_COUNT + q]):
            out[attached + card_of(row, q, row[S.ASSIST + q * S.DECK_SIZE + k])] += 1.0
        for j in range(1 + row[S.STANDBY_COUNT + q]):
            u = unit_at(row, q, j)
            if u < 0:
                continue
            at = L.O_UNITS + (side * S.AREA_SIZE + j) * L.SLOT_SIZE
            if q == p or row[S.FACE_UP + q * S.DECK_SIZE + u] != 0:
                write_unit(row, tables, q, j, u, out, at)
            else:
                out[at + L.CARD_PRESENT] = 1.0  # the opponent's face-down Main Unit before the reveal: nothing else
    for i in range(row[S.HAND_COUNT + p]):
        write_card(ctab, card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), out, L.O_HAND + i * L.CARD_SIZE)
    if row[S.PENDING_CARD] >= 0:
        write_card(ctab, card_of(row, tp, row[S.PENDING_CARD]), out, L.O_PENDING)


@njit(cache=True, nogil=True)
def batch_observe(states, tables, players, out):
    for i in range(states.shape[0]):
        observe_row(states[i], tables, players[i], out[i])
