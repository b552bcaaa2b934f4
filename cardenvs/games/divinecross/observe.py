"""divinecross observation: one float32 row per player view, declared as a Layout (table in RULES.md).

"own" is the observing player, "opp" the other. Never encoded: the opponent's hand contents, any deck order or
contents, the opponent's face-down Main Unit before the reveal (DC-S4/S8). Every face-up card (both discard piles,
KO Zones, attached Energy and Assists) is counted by card id in ``public_cards``. Numbers are scaled to roughly [0, 30]:
damage and HP / 100, deck, hand and discard counts / 10, the turn / 100.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE
from cardenvs.core.layout import Layout, fields

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
    NUM_OPS,
)
from .effects import skill_damage
from .rules import promoter
from . import state as S

CARD_FEATURES = (
    "present", "unit", "event", "action", "assist", "attr_none", "attr_red", "attr_green", "attr_blue",
    "adv_red", "adv_green", "adv_blue", "hp/100", "retreat", "skills", "skill0_energy", "skill0_damage/100",
    "skill1_energy", "skill1_damage/100", "has_ex_power", "deal_plus/100", "deal_minus/100", "take_plus/100",
    "take_minus/100", "halve", "hp_up/100", "retreat_down", *[f"op{i}" for i in range(NUM_OPS)],
)
F = len(CARD_FEATURES)
UNIT_FEATURES = ("damage/100", "hp_left/100", "energy", "assists", "boost/100", "guard/100", "retreat_cost_now",
                 "skill0_damage_now/100", "skill1_damage_now/100", "face_up")
D = len(UNIT_FEATURES)
CONTEXT = (
    "my_decision", "my_turn", "i_went_first", "no_skill_this_turn", "charged_own", "retreated_own",
    "event_played_own", "ex_used_own", "ex_used_opp", "stunned_own", "stunned_opp", "poisoned_own", "poisoned_opp",
    "promote_own", "promote_opp", "turn/100", "redeals_own", "redeals_opp", "extra_draws_left_own",
    "extra_draws_left_opp",
)
PILES = ("discard", "ko_zone", "attached")  # the face-up piles (DC-U7, DC-O3): Energy and Assists count as attached
COUNTS = ("deck/10", "hand/10", "standby", "ko", "discard/10", "energy/10")
N_COUNTS = len(COUNTS)

OBS = Layout(
    "divinecross_obs",
    fields(
        ("step", (S.NUM_STEPS,), "one-hot pending step (ST_* in state.py)"),
        ("context", (len(CONTEXT),), "flags and numbers: " + ", ".join(CONTEXT)),
        ("counts", (2, N_COUNTS), "per player (own, opp): " + ", ".join(COUNTS)),
        ("hand", (S.HAND_CAP, F), "own hand, card features: " + ", ".join(CARD_FEATURES)),
        ("units", (2, S.AREA, F + D), "units (own, opp) at Main (0) and Standby 1..3: card features + "
                                    + ", ".join(UNIT_FEATURES)),
        ("pending", (F,), "the Assist being played (waiting for its host): card features"),
        ("public_cards", (2, len(PILES), S.POOL_CAP), "per player (own, opp), per face-up pile (discard pile, KO Zone, "
                                                     "attached Energy and Assists): how many cards of each card id"),
    ),
    dtype_scalar=np.float32,
)
OBS_SIZE = OBS.size
O_STEP, O_CONTEXT, O_COUNTS, O_HAND, O_UNITS, O_PENDING, O_PUBLIC = OBS.offsets(
    "step", "context", "counts", "hand", "units", "pending", "public_cards"
)


@njit(cache=True)
def write_card(ctab: np.ndarray, card: int, out: np.ndarray, at: int) -> None:
    out[at] = 1.0
    out[at + 1 + ctab[card, C_TYPE]] = 1.0
    out[at + 5 + ctab[card, C_ATTR]] = 1.0
    adv = ctab[card, C_ADV]
    for b in range(3):
        if adv & (1 << (b + 1)):
            out[at + 9 + b] = 1.0
    out[at + 12] = ctab[card, C_HP] / 100.0
    out[at + 13] = ctab[card, C_RETREAT]
    out[at + 14] = ctab[card, C_N_SKILLS]
    out[at + 15] = ctab[card, C_S0_ENERGY]
    out[at + 16] = ctab[card, C_S0_DAMAGE] / 100.0
    out[at + 17] = ctab[card, C_S0_ENERGY + 1]
    out[at + 18] = ctab[card, C_S0_DAMAGE + 1] / 100.0
    out[at + 19] = ctab[card, C_HAS_EX]
    out[at + 20] = ctab[card, C_DEAL_PLUS] / 100.0
    out[at + 21] = ctab[card, C_DEAL_MINUS] / 100.0
    out[at + 22] = ctab[card, C_TAKE_PLUS] / 100.0
    out[at + 23] = ctab[card, C_TAKE_MINUS] / 100.0
    out[at + 24] = ctab[card, C_HALVE]
    out[at + 25] = ctab[card, C_HP_UP] / 100.0
    out[at + 26] = ctab[card, C_RETREAT_DOWN]
    ops = ctab[card, C_OPS]
    for b in range(NUM_OPS):
        if ops & (1 << b):
            out[at + 27 + b] = 1.0


@njit(cache=True)
def write_unit(row: np.ndarray, tables, q: int, j: int, u: int, out: np.ndarray, at: int) -> None:
    ctab = tables[0]
    k = q * S.DECK_SIZE + u
    write_card(ctab, card_of(row, q, u), out, at)
    d = at + F
    out[d] = row[S.DAMAGE + k] / 100.0
    out[d + 1] = (unit_hp(row, ctab, q, u) - row[S.DAMAGE + k]) / 100.0
    out[d + 2] = energy_of(row, q, u)
    out[d + 3] = count_attached(row, S.ASSIST, S.ASSIST_N, q, u)
    out[d + 4] = row[S.BOOST + k] / 100.0
    out[d + 5] = row[S.GUARD + k] / 100.0
    out[d + 6] = retreat_cost(row, ctab, q, u)
    if j == 0 and row[S.PROMOTE] == 0:
        out[d + 7] = skill_damage(row, tables, q, 0) / 100.0
        if ctab[card_of(row, q, u), C_N_SKILLS] > 1:
            out[d + 8] = skill_damage(row, tables, q, 1) / 100.0
    out[d + 9] = row[S.FACE_UP + k]
    # assists add to the unit's effective modifiers: fold them into the card features
    out[at + 12] += assist_sum(row, ctab, q, u, C_HP_UP) / 100.0
    out[at + 20] += assist_sum(row, ctab, q, u, C_DEAL_PLUS) / 100.0
    out[at + 21] += assist_sum(row, ctab, q, u, C_DEAL_MINUS) / 100.0
    out[at + 22] += assist_sum(row, ctab, q, u, C_TAKE_PLUS) / 100.0
    out[at + 23] += assist_sum(row, ctab, q, u, C_TAKE_MINUS) / 100.0
    out[at + 24] += assist_sum(row, ctab, q, u, C_HALVE)


@njit(cache=True)
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    out[:] = 0.0
    if p < 0 or p > 1:  # no viewer (e.g. a finished game in a batch): all zeros
        return
    ctab = tables[0]
    o = 1 - p
    tp = row[S.TURN_PLAYER]
    out[O_STEP + row[S.STEP]] = 1.0
    c = O_CONTEXT
    out[c] = 1.0 if row[H_STATUS] == LIVE and row[H_TO_ACT] == p else 0.0
    out[c + 1] = 1.0 if tp == p and row[S.FIRST_PLAYER] >= 0 else 0.0
    out[c + 2] = 1.0 if row[S.FIRST_PLAYER] == p else 0.0
    out[c + 3] = 1.0 if row[H_TURN] == 1 else 0.0
    out[c + 4] = row[S.CHARGED + p]
    out[c + 5] = row[S.RETREATED + p]
    out[c + 6] = row[S.EVENT_PLAYED + p]
    out[c + 7] = row[S.EX_USED + p]
    out[c + 8] = row[S.EX_USED + o]
    out[c + 9] = row[S.STUNNED + p]
    out[c + 10] = row[S.STUNNED + o]
    out[c + 11] = row[S.POISONED + p]
    out[c + 12] = row[S.POISONED + o]
    who = promoter(row)
    out[c + 13] = 1.0 if who == p else 0.0
    out[c + 14] = 1.0 if who == o else 0.0
    out[c + 15] = row[H_TURN] / 100.0
    out[c + 16] = min(row[S.REDEALS + p], 20)
    out[c + 17] = min(row[S.REDEALS + o], 20)
    out[c + 18] = min(row[S.EXTRA_LEFT + p], 20)
    out[c + 19] = min(row[S.EXTRA_LEFT + o], 20)
    for side in range(2):
        q = p if side == 0 else o
        base = O_COUNTS + side * N_COUNTS
        out[base] = row[S.DECK_N + q] / 10.0
        out[base + 1] = row[S.HAND_N + q] / 10.0
        out[base + 2] = row[S.STANDBY_N + q]
        out[base + 3] = row[S.KO_N + q]
        out[base + 4] = row[S.DISCARD_N + q] / 10.0
        out[base + 5] = row[S.ENERGY_N + q] / 10.0
        pub = O_PUBLIC + side * len(PILES) * S.POOL_CAP  # DC-U7: every face-up card, counted by card id
        for k in range(row[S.DISCARD_N + q]):
            out[pub + card_of(row, q, row[S.DISCARD + q * S.DECK_SIZE + k])] += 1.0
        for k in range(row[S.KO_N + q]):
            out[pub + S.POOL_CAP + card_of(row, q, row[S.KO + q * S.KO_CAP + k])] += 1.0
        for k in range(row[S.ENERGY_N + q]):
            out[pub + 2 * S.POOL_CAP + card_of(row, q, row[S.ENERGY + q * S.DECK_SIZE + k])] += 1.0
        for k in range(row[S.ASSIST_N + q]):
            out[pub + 2 * S.POOL_CAP + card_of(row, q, row[S.ASSIST + q * S.DECK_SIZE + k])] += 1.0
        for j in range(1 + row[S.STANDBY_N + q]):
            u = unit_at(row, q, j)
            if u < 0:
                continue
            at = O_UNITS + (side * S.AREA + j) * (F + D)
            if q == p or row[S.FACE_UP + q * S.DECK_SIZE + u] != 0:
                write_unit(row, tables, q, j, u, out, at)
            else:
                out[at] = 1.0  # the opponent's face-down Main Unit before the reveal: present, nothing else
    for i in range(row[S.HAND_N + p]):
        write_card(ctab, card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), out, O_HAND + i * F)
    if row[S.PENDING_CARD] >= 0:
        write_card(ctab, card_of(row, tp, row[S.PENDING_CARD]), out, O_PENDING)


@njit(cache=True, nogil=True)
def batch_observe(states, tables, players, out):
    for i in range(states.shape[0]):
        observe_row(states[i], tables, players[i], out[i])
