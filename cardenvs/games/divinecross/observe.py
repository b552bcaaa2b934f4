"""divinecross observation kernels: one compact row per player view (``int16``; layout and blocks in ``obs_layout.py``).

"own" is the observing player, "opp" the other. Never encoded: the opponent's hand contents, any deck order, the
opponent's deck contents, the opponent's face-down Main Unit before the reveal (DC-S4/S8). Every face-up card (both
discard piles, KO Zones, attached Energy and Assists) is counted by card id in ``public_cards``, and the attached
ones per unit position in ``attached``; the own deck's contents (known from the deck list) in ``own_deck``; the
cards both players' setup reveals showed (DC-S5) in ``shown``; every card slot carries its ``card_id`` (pool index
+ 1, 0 = none or hidden). Values are stored as integers: damage and HP in hundreds (the rules count them in hundreds),
counts, flags and codes as they are; ``OBS.float_view`` divides the deck, hand, discard and Energy counts by 10 and
the turn by 100 (their fields' ``divide_by``), so the float view keeps its entries roughly within [0, 30].
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE
from cardenvs.core.jit import helper
from cardenvs.core.kernels import copy_into

from .board import card_of, unit_at
from .vocab import (
    ATTR_NONE,
    C_ADV,
    C_ATTR,
    C_DEAL_MINUS,
    C_DEAL_PLUS,
    C_HALVE,
    C_HP,
    C_HP_UP,
    C_N_SKILLS,
    C_RETREAT,
    C_RETREAT_DOWN,
    C_S0_DAMAGE,
    C_TAKE_MINUS,
    C_TAKE_PLUS,
    E_TRIGGER,
)
from .effects import best_order, step1_damage
from .rules import promoter
from . import obs_layout as L
from . import state as S
from .obs_layout import OBS

OBS_SIZE = OBS.size


# What ``gather_units`` collects per unit position (one int row each): the unit instance (-1: empty), its attached
# Energy and Assists, and the sums of its Assists' passive columns (what board.assist_sum gives column by column).
G_UNIT, G_ENERGY, G_ASSISTS, G_HP_UP, G_DEAL_PLUS, G_DEAL_MINUS, G_TAKE_PLUS, G_TAKE_MINUS, G_HALVE, \
    G_RETREAT_DOWN = range(10)
NUM_G = 10


@helper
def gather_units(row: np.ndarray, ctab: np.ndarray, q: int, g: np.ndarray, side: int) -> None:
    """Fill ``g[side]`` (``[AREA_SIZE, NUM_G]``) for ``q``'s unit positions in one pass over each attached pile,
    instead of one pass per unit and per column."""
    n = 1 + row[S.STANDBY_COUNT + q]
    for j in range(S.AREA_SIZE):
        g[side, j, G_UNIT] = unit_at(row, q, j) if j < n else -1
        for c in range(1, NUM_G):
            g[side, j, c] = 0
    base = q * S.DECK_SIZE
    for i in range(row[S.ENERGY_COUNT + q]):
        host = row[S.HOST + base + row[S.ENERGY + base + i]]
        for j in range(n):
            if g[side, j, G_UNIT] == host:
                g[side, j, G_ENERGY] += 1
                break
    for i in range(row[S.ASSIST_COUNT + q]):
        inst = row[S.ASSIST + base + i]
        host = row[S.HOST + base + inst]
        for j in range(n):
            if g[side, j, G_UNIT] == host:
                c = row[S.DECK_LIST + base + inst]
                g[side, j, G_ASSISTS] += 1
                g[side, j, G_HP_UP] += ctab[c, C_HP_UP]
                g[side, j, G_DEAL_PLUS] += ctab[c, C_DEAL_PLUS]
                g[side, j, G_DEAL_MINUS] += ctab[c, C_DEAL_MINUS]
                g[side, j, G_TAKE_PLUS] += ctab[c, C_TAKE_PLUS]
                g[side, j, G_TAKE_MINUS] += ctab[c, C_TAKE_MINUS]
                g[side, j, G_HALVE] += ctab[c, C_HALVE]
                g[side, j, G_RETREAT_DOWN] += ctab[c, C_RETREAT_DOWN]
                break


@helper
def skill_damage_now(row: np.ndarray, tables, p: int, k: int, g: np.ndarray, side: int) -> int:
    """``effects.skill_damage(row, tables, p, k)`` with the Assist sums of both Main Units read from ``g``
    (``gather_units``; ``g[side]`` is ``p``'s) instead of recounted (tests/games/divinecross checks they agree)."""
    ctab = tables.cards
    q = 1 - p
    u = g[side, S.POS_MAIN, G_UNIT]
    v = g[1 - side, S.POS_MAIN, G_UNIT]
    if u < 0 or v < 0:
        return 0
    cu = card_of(row, p, u)
    cv = card_of(row, q, v)
    # fast paths (most skills, most turns): a skill without effects deals its printed damage at step 1, and a side
    # without modifiers leaves it as is (best_order with nothing to order)
    if tables.skill_effects[cu, k, 0, E_TRIGGER] < 0:  # skill effects are packed from entry 0
        dmg = ctab[cu, C_S0_DAMAGE + k]
    else:
        dmg = step1_damage(row, tables, p, u, k)
    if dmg <= 0:  # DC-A8: a skill that deals no damage takes no modifiers (as effects.skill_damage)
        return 0
    boost = row[S.BOOST + p * S.DECK_SIZE + u]
    plus = ctab[cu, C_DEAL_PLUS] + g[side, S.POS_MAIN, G_DEAL_PLUS] + max(boost, 0)
    minus = ctab[cu, C_DEAL_MINUS] + g[side, S.POS_MAIN, G_DEAL_MINUS] + max(-boost, 0)
    dmg = best_order(dmg, plus, minus, 0) if plus > 0 or minus > 0 else max(dmg, 0)
    plus = ctab[cv, C_TAKE_PLUS] + g[1 - side, S.POS_MAIN, G_TAKE_PLUS]
    minus = ctab[cv, C_TAKE_MINUS] + g[1 - side, S.POS_MAIN, G_TAKE_MINUS] + row[S.GUARD + q * S.DECK_SIZE + v]
    halves = ctab[cv, C_HALVE] + g[1 - side, S.POS_MAIN, G_HALVE]
    if plus > 0 or minus > 0 or halves > 0:
        dmg = best_order(dmg, plus, minus, halves)
    else:
        dmg = max(dmg, 0)
    attr = ctab[cv, C_ATTR]
    if attr != ATTR_NONE and (ctab[cu, C_ADV] & (1 << attr)) != 0:
        dmg *= 2
    return dmg


@helper
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    out[:] = 0
    if p < 0 or p > 1:  # no viewer (e.g. a finished game in a batch): all zeros
        return
    o = 1 - p
    tp = row[S.TURN_PLAYER]
    out[L.O_STEP + row[S.STEP]] = 1
    c = L.O_CONTEXT
    out[c + L.CTX_MY_DECISION] = 1 if row[H_STATUS] == LIVE and row[H_TO_ACT] == p else 0
    out[c + L.CTX_MY_TURN] = 1 if tp == p and row[S.STEP] > S.ST_START else 0  # setup is nobody's turn
    out[c + L.CTX_I_WENT_FIRST] = 1 if row[S.FIRST_PLAYER] == p else 0
    out[c + L.CTX_NO_SKILL_THIS_TURN] = 1 if row[H_TURN] == 1 else 0  # DC-K2: turn 1 is the first player's
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
    out[c + L.CTX_PROMOTE_OWN] = 1 if who == p else 0
    out[c + L.CTX_PROMOTE_OPP] = 1 if who == o else 0
    out[c + L.CTX_TURN] = row[H_TURN]  # divide_by 100
    out[c + L.CTX_REDEALS_OWN] = min(row[S.REDEALS + p], L.MAX_SMALL_COUNT)
    out[c + L.CTX_REDEALS_OPP] = min(row[S.REDEALS + o], L.MAX_SMALL_COUNT)
    out[c + L.CTX_EXTRA_DRAWS_LEFT_OWN] = min(row[S.EXTRA_LEFT + p], L.MAX_SMALL_COUNT)
    out[c + L.CTX_EXTRA_DRAWS_LEFT_OPP] = min(row[S.EXTRA_LEFT + o], L.MAX_SMALL_COUNT)
    ctab = tables.cards
    feat = ctab.view(L.OBS_DTYPE)  # the card blocks, in the row's dtype, from L.FEATURE_AT
    g = np.empty((2, S.AREA_SIZE, NUM_G), dtype=np.int64)  # per side (own, opp) and unit position
    gather_units(row, ctab, p, g, 0)
    gather_units(row, ctab, o, g, 1)
    for side in range(2):
        q = p if side == 0 else o
        base = L.O_COUNTS + side * L.COUNT_SIZE
        out[base + L.COUNT_DECK] = row[S.DECK_COUNT + q]  # divide_by 10, as hand, discard and energy
        out[base + L.COUNT_HAND] = row[S.HAND_COUNT + q]
        out[base + L.COUNT_STANDBY] = row[S.STANDBY_COUNT + q]
        out[base + L.COUNT_KO] = row[S.KO_COUNT + q]
        out[base + L.COUNT_DISCARD] = row[S.DISCARD_COUNT + q]
        out[base + L.COUNT_ENERGY] = row[S.ENERGY_COUNT + q]
        pub = L.O_PUBLIC_CARDS + side * L.NUM_PILES * S.POOL_CAP  # DC-U7: every face-up card, counted by card id
        discard = pub + L.PILE_DISCARD * S.POOL_CAP
        ko = pub + L.PILE_KO * S.POOL_CAP
        attached = pub + L.PILE_ATTACHED * S.POOL_CAP
        for k in range(row[S.DISCARD_COUNT + q]):
            out[discard + card_of(row, q, row[S.DISCARD + q * S.DECK_SIZE + k])] += 1
        for k in range(row[S.KO_COUNT + q]):
            out[ko + card_of(row, q, row[S.KO + q * S.KO_CAP + k])] += 1
        for k in range(row[S.ENERGY_COUNT + q]):
            out[attached + card_of(row, q, row[S.ENERGY + q * S.DECK_SIZE + k])] += 1
        for k in range(row[S.ASSIST_COUNT + q]):
            out[attached + card_of(row, q, row[S.ASSIST + q * S.DECK_SIZE + k])] += 1
        # which cards sit on which Unit, as Energy or as an Assist (public; any card can be charged as Energy): what
        # a KO, a retreat or strip_energy puts in the discard pile
        for kind in range(2):
            zone, count = (S.ENERGY, S.ENERGY_COUNT) if kind == 0 else (S.ASSIST, S.ASSIST_COUNT)
            for k in range(row[count + q]):
                inst = row[zone + q * S.DECK_SIZE + k]
                host = row[S.HOST + q * S.DECK_SIZE + inst]
                for j in range(1 + row[S.STANDBY_COUNT + q]):
                    if g[side, j, G_UNIT] == host:
                        at = L.O_ATTACHED + ((side * S.AREA_SIZE + j) * 2 + kind) * S.POOL_CAP
                        out[at + card_of(row, q, inst)] += 1
                        break
        for c in range(S.POOL_CAP):  # DC-S5: what the setup reveals showed (both players saw them)
            out[L.O_SHOWN + side * S.POOL_CAP + c] = row[S.SHOWN + q * S.POOL_CAP + c]
        for j in range(1 + row[S.STANDBY_COUNT + q]):
            u = g[side, j, G_UNIT]
            if u < 0:
                continue
            at = L.O_UNITS + (side * S.AREA_SIZE + j) * L.SLOT_SIZE
            k = q * S.DECK_SIZE + u
            if q != p and row[S.FACE_UP + k] == 0:
                out[at + L.CARD_PRESENT] = 1  # the opponent's face-down Main Unit before the reveal: nothing else
                continue
            card = row[S.DECK_LIST + k]
            copy_into(out[at:at + L.CARD_SIZE], feat[card, L.FEATURE_AT:L.FEATURE_AT + L.CARD_SIZE])
            d = at + L.CARD_SIZE
            # HP, damage and damage modifiers are multiples of 100 (DC-A5): stored in hundreds, exactly
            out[d + L.UNIT_DAMAGE] = row[S.DAMAGE + k] // 100
            out[d + L.UNIT_HP_LEFT] = (ctab[card, C_HP] + g[side, j, G_HP_UP] - row[S.DAMAGE + k]) // 100
            out[d + L.UNIT_ENERGY] = g[side, j, G_ENERGY]
            out[d + L.UNIT_ASSISTS] = g[side, j, G_ASSISTS]
            out[d + L.UNIT_BOOST] = row[S.BOOST + k] // 100
            out[d + L.UNIT_GUARD] = row[S.GUARD + k] // 100
            out[d + L.UNIT_RETREAT_COST_NOW] = max(0, ctab[card, C_RETREAT] - g[side, j, G_RETREAT_DOWN])
            if j == S.POS_MAIN and row[S.PROMOTE] == 0:
                for s in range(ctab[card, C_N_SKILLS]):
                    out[d + L.UNIT_SKILL_DAMAGE_NOW + s] = skill_damage_now(row, tables, q, s, g, side) // 100
            out[d + L.UNIT_FACE_UP] = row[S.FACE_UP + k]
            if g[side, j, G_ASSISTS] != 0:  # assists add to the unit's effective modifiers: fold them in
                out[at + L.CARD_HP] += g[side, j, G_HP_UP] // 100
                out[at + L.CARD_DEAL_PLUS] += g[side, j, G_DEAL_PLUS] // 100
                out[at + L.CARD_DEAL_MINUS] += g[side, j, G_DEAL_MINUS] // 100
                out[at + L.CARD_TAKE_PLUS] += g[side, j, G_TAKE_PLUS] // 100
                out[at + L.CARD_TAKE_MINUS] += g[side, j, G_TAKE_MINUS] // 100
                out[at + L.CARD_HALVE] += g[side, j, G_HALVE]
    for i in range(row[S.DECK_COUNT + p]):  # the own deck's contents: known from the deck list, its order is not
        out[L.O_OWN_DECK + card_of(row, p, row[S.DECK + p * S.DECK_SIZE + i])] += 1
    for i in range(row[S.HAND_COUNT + p]):
        card = row[S.DECK_LIST + p * S.DECK_SIZE + row[S.HAND + p * S.HAND_CAP + i]]
        at = L.O_HAND + i * L.CARD_SIZE
        copy_into(out[at:at + L.CARD_SIZE], feat[card, L.FEATURE_AT:L.FEATURE_AT + L.CARD_SIZE])
    if row[S.PENDING_CARD] >= 0:
        card = row[S.DECK_LIST + tp * S.DECK_SIZE + row[S.PENDING_CARD]]
        copy_into(out[L.O_PENDING:L.O_PENDING + L.CARD_SIZE], feat[card, L.FEATURE_AT:L.FEATURE_AT + L.CARD_SIZE])
