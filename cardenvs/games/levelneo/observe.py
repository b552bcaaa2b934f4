"""levelneo observation kernels: one compact (int16) row per player view (layout and blocks in ``obs_layout.py``).

"own" is the observing player, "opp" the other. Public information is all encoded: both fields, face-up level cards,
hand and deck sizes, both discard piles (per card id), the battle, the window and pending choices. Never encoded: the
opponent's hand contents, any deck order or contents, face-down level cards (unknown to both players, see
RULES.md), the opponent's face-down main during setup.
Every entry is a small integer (``obs_layout.OBS_DTYPE``): AP in hundreds, counts, flags, codes, card ids; the float
view (``OBS.float_view``) reads AP / 1000, deck and discard counts / 10, turn markers / 10. The kernels write through
``out``'s dtype, so the checker's range guard can observe into a wider buffer and compare.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE
from cardenvs.core.jit import helper

from .board import card_of, in_battle, level_of, support_at
from .tables import (
    C_AP, C_TRAITS, E_AMOUNT, E_FILTER, E_OP, E_TARGET, MAX_POOL, OP_ACTIVATE, OP_AP_DOWN, OP_AP_UP,
    OP_REST, TG_OPP_ALL, TG_OPP_BATTLERS, TG_OPP_MAIN, TG_OPP_ONE, TG_OPP_SUPPORTS, TG_OWN_ALL, TG_OWN_BATTLERS,
    TG_OWN_MAIN, TG_OWN_SUPPORTS, TG_SELF,
)
from .effects import (
    MAX_CONT_SOURCES, NUM_SOURCE_COLUMNS, SRC_CARD, SRC_EFFECT, SRC_INST, SRC_OWNER, active_conts,
)
from . import obs_layout as L
from . import state as S
from .obs_layout import OBS  # noqa: F401  (the spec takes the layout from here)


@njit(cache=True, inline="always")
def copy_card(feat: np.ndarray, card: int, out: np.ndarray, at: int) -> None:
    """The CARD block of ``card`` at ``out[at:]`` (inlined: a call per copy costs as much as the copy)."""
    for f in range(L.CARD_SIZE):
        out[at + f] = feat[card, f]


@njit(cache=True, inline="always")
def ap_stored(ap: int) -> int:
    """An AP or AP modifier as stored: hundreds (every AP of a pool is a multiple of ``AP_UNIT``, so exact), clamped
    to the dtype so it never wraps (a bound no deck reaches; RULES.md "Caps")."""
    return min(max(ap // L.AP_UNIT, -L.AP_STORED_MAX), L.AP_STORED_MAX)


# What ``ap_now`` reads per [Cont] skill in force (one int row each, from ``active_conts``' sources): its owner and
# instance, its selector and trait filter, and its signed AP change.
AP_OWNER, AP_SRC, AP_TARGET, AP_FILTER, AP_DELTA = range(5)
NUM_AP_COLUMNS = 5


@helper
def cont_deltas(tables, sources: np.ndarray, n_sources: int, info: np.ndarray) -> None:
    """Unpack the effect rows of the [Cont] skills in force once per observation (``ap_given`` reads them per AP)."""
    etab = tables.effects
    for j in range(n_sources):
        card = sources[j, SRC_CARD]
        e = sources[j, SRC_EFFECT]
        info[j, AP_OWNER] = sources[j, SRC_OWNER]
        info[j, AP_SRC] = sources[j, SRC_INST]
        info[j, AP_TARGET] = etab[card, e, E_TARGET]
        info[j, AP_FILTER] = etab[card, e, E_FILTER]
        amount = etab[card, e, E_AMOUNT]
        info[j, AP_DELTA] = amount if etab[card, e, E_OP] == OP_AP_UP else -amount


@helper
def ap_now(row: np.ndarray, ctab: np.ndarray, q: int, inst: int, info: np.ndarray, n_sources: int) -> int:
    """``effects.ap_given`` (and so ``compute_ap``) on the unpacked ``cont_deltas``, with ``effects.selects`` written
    out (tests/games/levelneo checks they agree)."""
    k = q * S.DECK_SIZE + inst
    card = row[S.DECK_LIST + k]
    ap = ctab[card, C_AP] + row[S.AP_TURN + k] + row[S.AP_NEXT + k] + row[S.AP_BATTLE + k]
    is_main = inst == row[S.MAIN + q]
    if is_main and row[S.TURN_PLAYER] == q:
        ap += S.AP_PER_LEVEL * level_of(row, q)
    traits = ctab[card, C_TRAITS]
    for j in range(n_sources):
        filt = info[j, AP_FILTER]
        if filt != 0 and (traits & filt) == 0:
            continue
        own = q == info[j, AP_OWNER]
        target = info[j, AP_TARGET]
        if target == TG_SELF:
            hit = own and inst == info[j, AP_SRC]
        elif target == TG_OWN_MAIN:
            hit = own and is_main
        elif target == TG_OWN_SUPPORTS:
            hit = own and not is_main
        elif target == TG_OWN_ALL:
            hit = own
        elif target == TG_OWN_BATTLERS:
            hit = own and in_battle(row, q, inst)
        elif target == TG_OPP_MAIN:
            hit = (not own) and is_main
        elif target == TG_OPP_SUPPORTS:
            hit = (not own) and not is_main
        elif target == TG_OPP_ALL:
            hit = not own
        elif target == TG_OPP_BATTLERS:
            hit = (not own) and in_battle(row, q, inst)
        else:
            hit = False
        if hit:
            ap += info[j, AP_DELTA]
    return max(ap, 0)


@helper
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    out[:] = 0
    if p < 0 or p > 1:  # no viewer (e.g. a finished game in a batch): all zeros
        return
    feat = tables.features  # the stored CARD block of every card
    o = 1 - p
    tp = row[S.TURN_PLAYER]
    # the [Cont] skills in force, found once per row
    sources = np.empty((MAX_CONT_SOURCES, NUM_SOURCE_COLUMNS), dtype=np.int32)
    n_sources = active_conts(row, tables, sources)
    ctab = tables.cards
    info = np.empty((MAX_CONT_SOURCES, NUM_AP_COLUMNS), dtype=np.int64)
    cont_deltas(tables, sources, n_sources, info)
    out[L.O_STEP + row[S.STEP]] = 1
    c = L.O_CONTEXT
    out[c + L.CONTEXT_MY_DECISION] = 1 if row[H_STATUS] == LIVE and row[H_TO_ACT] == p else 0
    out[c + L.CONTEXT_MY_TURN] = 1 if tp == p else 0
    out[c + L.CONTEXT_FIRST_TURN] = 1 if row[H_TURN] == 1 else 0
    out[c + L.CONTEXT_MAIN_PHASE] = row[S.MAIN_PHASE]
    # the end-of-turn stage says who discards next and whether the end-of-turn skills are still to come; it is set
    # on entering the end step and read only there
    out[c + L.CONTEXT_END_STAGE] = row[S.END_STAGE] + 1 if row[S.STEP] == S.ST_END else 0
    out[c + L.CONTEXT_WENT_FIRST] = 1 if row[S.FIRST_PLAYER] == p else 0
    out[c + L.CONTEXT_SETUP_OWN] = 1 if row[S.SETUP_PLAYER] == p else 0
    out[c + L.CONTEXT_QUEUED] = row[S.QUEUE_COUNT]
    out[c + L.CONTEXT_LEVEL_DOWN_OWN] = 1 if row[S.PENDING_LEVEL_DOWN] == p else 0
    out[c + L.CONTEXT_LEVEL_DOWN_OPP] = 1 if row[S.PENDING_LEVEL_DOWN] == o else 0
    out[c + L.CONTEXT_COMBI_LOSS_OWN] = 1 if row[S.COMBI_CHOOSER] == p else 0
    out[c + L.CONTEXT_COMBI_LOSS_OPP] = 1 if row[S.COMBI_CHOOSER] == o else 0
    out[c + L.CONTEXT_WINDOW_OPPONENT_STAGE] = row[S.SUB]
    out[c + L.CONTEXT_SUPPORT_PLAYED] = row[S.SUPPORT_PLAYED]
    out[c + L.CONTEXT_BATTLE] = row[S.BATTLE]
    out[c + L.CONTEXT_COVERED] = row[S.COVERED]
    # a combi from the partner's choice on (the target step included)
    combi_known = row[S.BATTLE] != 0 or row[S.STEP] == S.ST_TARGET
    out[c + L.CONTEXT_COMBI] = 1 if combi_known and row[S.ATK_B] >= 0 else 0
    out[c + L.CONTEXT_OWN_NEO] = 1 if level_of(row, p) >= S.MAX_LEVEL else 0
    out[c + L.CONTEXT_OPP_NEO] = 1 if level_of(row, o) >= S.MAX_LEVEL else 0
    out[c + L.CONTEXT_BURST_FAILED_OWN] = row[S.BURST_FAILED + p]
    out[c + L.CONTEXT_BURST_FAILED_OPP] = row[S.BURST_FAILED + o]
    out[c + L.CONTEXT_NO_LEVEL_DOWN_OWN] = row[S.NO_LEVEL_DOWN + p]
    out[c + L.CONTEXT_NO_LEVEL_DOWN_OPP] = row[S.NO_LEVEL_DOWN + o]
    out[c + L.CONTEXT_MULLIGAN_USED_OWN] = row[S.MULLIGAN_USED + p]
    out[c + L.CONTEXT_MULLIGAN_USED_OPP] = row[S.MULLIGAN_USED + o]
    out[c + L.CONTEXT_WINDOW_ONE_PASS] = row[S.WINDOW_PASSES]
    out[c + L.CONTEXT_BURST_ONE_PASS] = 1 if row[S.STEP] == S.ST_BURST and row[S.BURST_PASSES] > 0 else 0
    res = row[S.RESULT] if row[S.BATTLE] != 0 else S.RES_NONE
    out[c + L.CONTEXT_RESULT_ATTACKER] = 1 if res == S.RES_ATTACKER else 0
    out[c + L.CONTEXT_RESULT_DEFENDER] = 1 if res == S.RES_DEFENDER else 0
    out[c + L.CONTEXT_RESULT_TIE] = 1 if res == S.RES_TIE else 0
    cp = row[S.CHOICE_PLAYER]
    if cp >= 0:
        out[c + (L.CONTEXT_CHOICE_OWN if cp == p else L.CONTEXT_CHOICE_OPP)] = 1
        src_card = card_of(row, cp, row[S.CHOICE_INST])
        eff = tables.effects[src_card, row[S.CHOICE_EFFECT]]
        out[L.O_CHOICE_CARD] = src_card + 1
        out[c + L.CONTEXT_CHOICE_AMOUNT] = ap_stored(eff[E_AMOUNT])
        out[c + L.CONTEXT_CHOICE_EFFECT] = row[S.CHOICE_EFFECT]
        out[c + L.CONTEXT_CHOICE_ON_OPP_SUPPORTS] = 1 if eff[E_TARGET] == TG_OPP_ONE else 0
        eop = eff[E_OP]
        out[c + L.CONTEXT_CHOICE_REST] = 1 if eop == OP_REST else 0
        out[c + L.CONTEXT_CHOICE_ACTIVATE] = 1 if eop == OP_ACTIVATE else 0
        out[c + L.CONTEXT_CHOICE_AP_UP] = 1 if eop == OP_AP_UP else 0
        out[c + L.CONTEXT_CHOICE_AP_DOWN] = 1 if eop == OP_AP_DOWN else 0
    # the effects queued behind the pending choice: whose, which card and where it is, which trigger, which effect
    # of it resolves next (the choice's own effect is the choice_* entries)
    for j in range(row[S.QUEUE_COUNT]):
        e_at = S.QUEUE + j * S.QUEUE_ENTRY_SIZE
        at = L.O_QUEUE + j * L.QUEUED_SIZE
        q = row[e_at + S.QUEUE_ENTRY_PLAYER]
        inst = row[e_at + S.QUEUE_ENTRY_INST]
        out[at + (L.QUEUED_OWN if q == p else L.QUEUED_OPP)] = 1
        out[at + L.QUEUED_CARD_ID] = card_of(row, q, inst) + 1
        where = 1 if inst == row[S.MAIN + q] else 0
        for s in range(row[S.SUPPORT_COUNT + q]):
            if support_at(row, q, s) == inst:
                where = 2 + s
        out[at + L.QUEUED_WHERE] = where
        out[at + L.QUEUED_TRIGGER] = row[e_at + S.QUEUE_ENTRY_TRIGGER]
        out[at + L.QUEUED_NEXT_EFFECT] = row[e_at + S.QUEUE_ENTRY_NEXT_EFFECT]
    for side in range(2):
        q = p if side == 0 else o
        out[L.O_MARKERS + side] = row[S.MARKER + q]
        out[L.O_LEVELS + side] = level_of(row, q)
        base = L.O_COUNTS + side * L.COUNT_SIZE
        out[base + L.COUNT_DECK] = row[S.DECK_COUNT + q]
        out[base + L.COUNT_HAND] = row[S.HAND_COUNT + q]
        out[base + L.COUNT_SUPPORTS] = row[S.SUPPORT_COUNT + q]
        down = 0
        for j in range(row[S.LEVEL_COUNT + q]):
            inst = row[S.LEVEL + q * S.LEVEL_CAP + j]
            lat = L.O_LEVEL + (side * S.LEVEL_CAP + j) * L.LEVEL_SLOT_SIZE
            out[lat + L.LEVEL_SLOT_PRESENT] = 1
            if row[S.FACE_UP + q * S.DECK_SIZE + inst] != 0:
                out[lat + L.LEVEL_SLOT_FACE_UP] = 1
                copy_card(feat, card_of(row, q, inst), out, lat + L.LEVEL_SLOT_CARD)
            else:
                down += 1
                if q == p and row[S.DRAWN + q * S.DECK_SIZE + inst] != 0:  # the viewer knows this one (mulliganed)
                    copy_card(feat, card_of(row, q, inst), out, lat + L.LEVEL_SLOT_CARD)
        out[base + L.COUNT_FACE_DOWN_LEVEL] = down
        out[base + L.COUNT_DISCARD] = row[S.DISCARD_COUNT + q]
        for j in range(row[S.DISCARD_COUNT + q]):
            out[L.O_DISCARD + side * MAX_POOL + card_of(row, q, row[S.DISCARD + q * S.DECK_SIZE + j])] += 1
        for w in range(S.USED_WORDS):
            bits = row[S.USED_SKILLS + q * S.USED_WORDS + w]
            if bits == 0:
                continue
            for b in range(S.USED_BITS):
                if (bits >> b) & 1:
                    out[L.O_USED_SKILLS + side * MAX_POOL + w * S.USED_BITS + b] = 1
        battle = row[S.BATTLE] != 0
        # attacker and partner as declared: atk_a from the attack declaration on (partner and target steps included),
        # atk_b from the partner step's choice on; outside those steps both are stale and never read
        declared = battle or row[S.STEP] == S.ST_PARTNER or row[S.STEP] == S.ST_TARGET
        partnered = battle or row[S.STEP] == S.ST_TARGET
        for s in range(-1, row[S.SUPPORT_COUNT + q]):  # the main (s = -1), then the supports: the CHAR blocks
            if s < 0:
                inst = row[S.MAIN + q]
                at = L.O_MAIN + side * L.CHAR_SIZE
                if inst < 0:
                    continue
                if q != p and row[S.FACE_UP + q * S.DECK_SIZE + inst] == 0:
                    out[at + L.CHAR_CARD + L.CARD_PRESENT] = 1  # the opponent's face-down main during setup
                    continue
            else:
                inst = support_at(row, q, s)
                at = L.O_SUPPORTS + (side * S.SUPPORT_CAP + s) * L.CHAR_SIZE
            k = q * S.DECK_SIZE + inst
            card = row[S.DECK_LIST + k]
            copy_card(feat, card, out, at + L.CHAR_CARD)
            out[at + L.CHAR_AP_NOW] = ap_stored(ap_now(row, ctab, q, inst, info, n_sources))
            out[at + L.CHAR_RESTED] = row[S.RESTED + k]
            out[at + L.CHAR_ATTACKED] = row[S.ATTACKED + k]
            out[at + L.CHAR_ATTACKER] = 1 if declared and q == tp and inst == row[S.ATK_A] else 0
            out[at + L.CHAR_PARTNER] = 1 if partnered and q == tp and inst == row[S.ATK_B] else 0
            out[at + L.CHAR_DEFENDING] = 1 if battle and q != tp and inst == row[S.TARGET] else 0
            out[at + L.CHAR_DECLARED_TARGET] = 1 if battle and q != tp and inst == row[S.ORIG_TARGET] else 0
            out[at + L.CHAR_FACE_UP] = row[S.FACE_UP + k]
            out[at + L.CHAR_AP_TURN] = ap_stored(row[S.AP_TURN + k])
            out[at + L.CHAR_AP_NEXT] = ap_stored(row[S.AP_NEXT + k])
            out[at + L.CHAR_AP_BATTLE] = ap_stored(row[S.AP_BATTLE + k])
            queued = 0
            for j in range(row[S.QUEUE_COUNT]):
                e_at = S.QUEUE + j * S.QUEUE_ENTRY_SIZE
                if row[e_at + S.QUEUE_ENTRY_PLAYER] == q and row[e_at + S.QUEUE_ENTRY_INST] == inst:
                    queued += 1
            out[at + L.CHAR_QUEUED] = queued
    # the viewer's own deck list (it built the deck) and the cards it put at the bottom of its deck at the mulligan
    # (``drawn``: the only deck cards it once held; nothing else enters a deck, and draws take the top)
    for i in range(S.DECK_SIZE):
        out[L.O_DECK_LIST + i] = row[S.DECK_LIST + p * S.DECK_SIZE + i] + 1
        if row[S.DRAWN + p * S.DECK_SIZE + i] != 0:
            out[L.O_HELD + row[S.DECK_LIST + p * S.DECK_SIZE + i]] += 1
    for j in range(min(row[S.DECK_COUNT + p], S.OPENING_HAND_SIZE)):
        inst = row[S.DECK + p * S.DECK_SIZE + j]
        if row[S.DRAWN + p * S.DECK_SIZE + inst] != 0:
            out[L.O_DECK_BOTTOM + j] = row[S.DECK_LIST + p * S.DECK_SIZE + inst] + 1
    for i in range(row[S.HAND_COUNT + p]):
        card = row[S.DECK_LIST + p * S.DECK_SIZE + row[S.HAND + p * S.HAND_CAP + i]]
        copy_card(feat, card, out, L.O_HAND + i * L.CARD_SIZE)
    if row[S.BATTLE] != 0:
        atk = ap_now(row, ctab, tp, row[S.ATK_A], info, n_sources)
        if row[S.ATK_B] >= 0:
            atk += ap_now(row, ctab, tp, row[S.ATK_B], info, n_sources)
        out[L.O_BATTLE_AP + L.BATTLE_AP_ATTACKER] = ap_stored(atk)
        defence = ap_now(row, ctab, 1 - tp, row[S.TARGET], info, n_sources)
        out[L.O_BATTLE_AP + L.BATTLE_AP_DEFENDER] = ap_stored(defence)
