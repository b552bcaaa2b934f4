"""relics observation: one float32 row per player view, declared as a Layout (table in RULES.md).

"own" is the observing player, "opp" the other. Never encoded: the opponent's hand, line-up and reserves (counts
only), any deck order or content, the opponent's face-down characters (present + face-down flag only), and the
pending Cast/Throw of the opponent. Numbers are scaled to about [0, 10]: ATT/DEF / 10, pile sizes / 10.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE
from cardenvs.core.layout import Layout, fields

from .board import (
    attachment_card,
    battlefield_card,
    card_of,
    cont_bonuses,
    qualifies,
    relic_count,
    sideboard_entry,
    skills_of,
    stat_given,
)
from .cards import (
    E_ATT,
    E_DEF,
    C_ACT,
    C_ACT_LEADER,
    C_ATT,
    C_CLASS,
    C_COST_DOWN,
    C_DEF,
    C_DESC,
    C_HAS_CONT,
    C_HAS_DEFEAT,
    C_HAS_ENTER,
    C_ONE_TARGET,
    C_OPS,
    C_QUAL_CLASS,
    C_QUAL_DESC,
    C_RARITY,
    C_RELIC_ATT,
    C_RELIC_DEF,
    C_RELIC_SKILLS,
    C_REQ_CLASS,
    C_REQ_DESC,
    C_REQ_SKILL,
    C_SCHOOL,
    C_SKILLS,
    C_TYPE,
    MAX_CLASSES,
    MAX_DESCRIPTORS,
    NUM_OPS,
    NUM_SKILLS,
    ONE_OPP,
    ONE_OWN,
    T_LOCATION,
)
from .rules import ability_usable, pending_is_hidden
from . import state as S

CARD_FEATURES = (
    "present", "character", "equipment", "item", "spell", "location", "leader", "rare", "att/10", "def/10",
    *[f"class{i}" for i in range(MAX_CLASSES)], *[f"descriptor{i}" for i in range(MAX_DESCRIPTORS)],
    "black", "white", "summon", "ranged", "steal", "counter", "jump", "throw", "villain",
    "school_black", "school_white", "school_summon", "cost_down", "has_act", "act_needs_leader", "has_cont",
    "has_enter", "has_defeat", "targets_own", "targets_opp",
    "op_draw", "op_recruit", "op_up", "op_down", "op_boost", "op_strike", "op_raise", "op_reclaim", "op_exhume",
    "op_opp_discard", "relic_att/10", "relic_def/10",
    *[f"qualifies_class{i}" for i in range(MAX_CLASSES)], *[f"qualifies_descriptor{i}" for i in range(MAX_DESCRIPTORS)],
    "has_requirement", *[f"requires_class{i}" for i in range(MAX_CLASSES)],
)
F = len(CARD_FEATURES)
SLOT_FEATURES = (
    "face_down", "down", "leader", "att_now/10", "def_now/10",
    "has_black", "has_white", "has_summon", "has_ranged", "has_steal", "has_counter", "has_jump", "has_throw",
    "has_villain", "has_attachment", "attachment_is_relic", "attachment_att/10", "attachment_def/10", "ability_ready",
)
NUM_SLOT_FEATURES = len(SLOT_FEATURES)
CONTEXT = (
    "my_decision", "i_am_1P", "passes", "round/10", "battle/10", "relics_own", "relics_opp", "leader_qualifies_own",
    "leader_qualifies_opp", "char_deck_own/10", "char_deck_opp/10", "item_deck_own/10", "item_deck_opp/10",
    "hand_own", "hand_opp", "reserves_own", "reserves_opp", "party_own", "party_opp", "discard_own/10",
    "discard_opp/10", "doom_own/10", "doom_opp/10", "lineup_own", "lineup_opp", "discards_owed", "steal_owed_own",
    "kept", "location_pile/10", "battle_turns/10",
)
PILES = ("discard", "doom", "relics")  # public by the rules: both discard and doom piles, every relic's controller

OBS = Layout(
    "relics_obs",
    fields(
        ("step", (S.NUM_STEPS,), "one-hot pending step (ST_* in state.py)"),
        ("context", (len(CONTEXT),), "numbers: " + ", ".join(CONTEXT)),
        ("pending", (S.NUM_PENDING,), "one-hot pending action kind (PK_* in state.py) when it is mine"),
        ("pending_card", (F,), "card features of my pending card / ability source"),
        ("pending_caster", (S.PARTY,), "one-hot grid slot of my pending caster / thrower"),
        ("battlefield", (F,), "card features of the current location (with its relic side)"),
        ("leader_cards", (2, F), "leader cards (own, opp)"),
        ("location_pile", (2 * S.LOCATIONS, F), "location pile: own entries 0-4, opponent's 5-9 (action order)"),
        ("grid", (2, S.PARTY, F + NUM_SLOT_FEATURES),
         "grid slots 0-5 (own, opp): card features + " + ", ".join(SLOT_FEATURES)),
        ("hand", (S.HAND_CAP, F), "own hand, card features: " + ", ".join(CARD_FEATURES)),
        ("lineup", (S.LINEUP, F), "own drawn characters waiting to be placed"),
        ("reserves", (S.RES_CAP, F), "own reserves"),
        ("sideboard", (2 * S.SIDE_CAP, F + 1), "relics I control, in relic-action order: card features + in_play"),
        ("public_cards", (2, len(PILES), S.POOL_CAP), "public cards counted by card id (pool order), per player (own, "
                                                     "opp) and pile: discard pile, doom pile, relics it controls "
                                                     "(location card id; in the sideboard or in play)"),
    ),
    dtype_scalar=np.float32,
)
OBS_SIZE = OBS.size
(O_STEP, O_CONTEXT, O_PENDING, O_PENDING_CARD, O_PENDING_CASTER, O_BATTLEFIELD, O_LEADER_CARDS, O_PILE, O_GRID,
 O_HAND, O_LINEUP, O_RESERVES, O_SIDEBOARD, O_PUBLIC) = OBS.offsets(
    "step", "context", "pending", "pending_card", "pending_caster", "battlefield", "leader_cards", "location_pile",
    "grid", "hand", "lineup", "reserves", "sideboard", "public_cards")


@njit(cache=True)
def _bits(out: np.ndarray, at: int, value: int, n: int) -> None:
    for b in range(n):
        if (value >> b) & 1:
            out[at + b] = 1.0


@njit(cache=True)
def write_card(ctab: np.ndarray, card: int, out: np.ndarray, at: int) -> None:
    out[at] = 1.0
    out[at + 1 + ctab[card, C_TYPE]] = 1.0
    out[at + 7] = ctab[card, C_RARITY]
    out[at + 8] = ctab[card, C_ATT] / 10.0
    out[at + 9] = ctab[card, C_DEF] / 10.0
    if ctab[card, C_CLASS] >= 0:
        out[at + 10 + ctab[card, C_CLASS]] = 1.0
    _bits(out, at + 18, ctab[card, C_DESC], MAX_DESCRIPTORS)
    skills = ctab[card, C_RELIC_SKILLS] if ctab[card, C_TYPE] == T_LOCATION else ctab[card, C_SKILLS]
    _bits(out, at + 26, skills, NUM_SKILLS)
    if ctab[card, C_SCHOOL] > 0:
        out[at + 34 + ctab[card, C_SCHOOL]] = 1.0
    out[at + 38] = ctab[card, C_COST_DOWN]
    out[at + 39] = 1.0 if ctab[card, C_ACT] >= 0 else 0.0
    out[at + 40] = ctab[card, C_ACT_LEADER]
    out[at + 41] = ctab[card, C_HAS_CONT]
    out[at + 42] = ctab[card, C_HAS_ENTER]
    out[at + 43] = ctab[card, C_HAS_DEFEAT]
    out[at + 44] = 1.0 if ctab[card, C_ONE_TARGET] == ONE_OWN else 0.0
    out[at + 45] = 1.0 if ctab[card, C_ONE_TARGET] == ONE_OPP else 0.0
    _bits(out, at + 46, ctab[card, C_OPS], NUM_OPS)
    out[at + 56] = ctab[card, C_RELIC_ATT] / 10.0
    out[at + 57] = ctab[card, C_RELIC_DEF] / 10.0
    _bits(out, at + 58, ctab[card, C_QUAL_CLASS], MAX_CLASSES)
    _bits(out, at + 66, ctab[card, C_QUAL_DESC], MAX_DESCRIPTORS)
    req = ctab[card, C_REQ_CLASS] | ctab[card, C_REQ_DESC] | ctab[card, C_REQ_SKILL]
    out[at + 74] = 1.0 if req != 0 else 0.0
    _bits(out, at + 75, ctab[card, C_REQ_CLASS], MAX_CLASSES)


@njit(cache=True)
def write_slot(row: np.ndarray, tables, q: int, inst: int, viewer: int, out: np.ndarray, at: int,
               conts: np.ndarray) -> None:
    """One party slot; ``conts`` holds the row's [Cont] boosts (ATT every / single, then DEF, see ``cont_bonuses``)."""
    ctab = tables[0]
    k = q * S.MAX_DECK + inst
    d = at + F
    if q != viewer and row[S.FACE_DOWN + k] != 0:
        out[at] = 1.0  # an opposing face-down character: present, nothing else
        out[d] = 1.0
        return
    write_card(ctab, card_of(row, q, inst), out, at)
    out[d] = row[S.FACE_DOWN + k]
    out[d + 1] = row[S.DOWN + k]
    out[d + 2] = 1.0 if row[S.LEADER + q] == inst else 0.0
    out[d + 3] = stat_given(row, ctab, q, inst, True, conts[0, q] + conts[1, k]) / 10.0
    out[d + 4] = stat_given(row, ctab, q, inst, False, conts[2, q] + conts[3, k]) / 10.0
    _bits(out, d + 5, skills_of(row, ctab, q, inst), NUM_SKILLS)
    a = attachment_card(row, q, inst)
    if a >= 0:
        relic = ctab[a, C_TYPE] == T_LOCATION
        out[d + 14] = 1.0
        out[d + 15] = 1.0 if relic else 0.0
        out[d + 16] = (ctab[a, C_RELIC_ATT] if relic else ctab[a, C_ATT]) / 10.0
        out[d + 17] = (ctab[a, C_RELIC_DEF] if relic else ctab[a, C_DEF]) / 10.0
    if row[S.FACE_DOWN + k] == 0 and ability_usable(row, tables, q, inst):
        out[d + 18] = 1.0


@njit(cache=True)
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    out[:] = 0.0
    if p < 0 or p > 1:  # no viewer (a finished game in a batch): all zeros
        return
    ctab = tables[0]
    o = 1 - p
    c = O_CONTEXT
    mine = row[H_STATUS] == LIVE and row[H_TO_ACT] == p
    if not mine and pending_is_hidden(row):  # the opponent's sub-step would tell what kind of card it plays
        out[O_STEP + S.ST_BATTLE] = 1.0
    else:
        out[O_STEP + row[S.STEP]] = 1.0
    out[c] = 1.0 if mine else 0.0
    out[c + 1] = 1.0 if row[S.LEAD] == p else 0.0
    out[c + 2] = row[S.PASSES]
    out[c + 3] = row[S.ROUND] / 10.0
    out[c + 4] = row[H_TURN] / 10.0
    out[c + 5] = relic_count(row, p)
    out[c + 6] = relic_count(row, o)
    out[c + 7] = 1.0 if qualifies(row, ctab, p) else 0.0
    out[c + 8] = 1.0 if qualifies(row, ctab, o) else 0.0
    for side in range(2):
        q = p if side == 0 else o
        out[c + 9 + side] = row[S.CHAR_DECK_N + q] / 10.0
        out[c + 11 + side] = row[S.ITEM_DECK_N + q] / 10.0
        out[c + 13 + side] = row[S.HAND_N + q]
        out[c + 15 + side] = row[S.RESERVES_N + q]
        out[c + 17 + side] = row[S.PARTY_N + q]
        out[c + 19 + side] = row[S.DISCARD_N + q] / 10.0
        out[c + 21 + side] = row[S.DOOM_N + q] / 10.0
        out[c + 23 + side] = row[S.LINEUP_N + q]
    mine_pending = row[S.PEND_PLAYER] == p
    out[c + 25] = row[S.PEND_LEFT] if mine_pending else 0.0
    out[c + 26] = row[S.STEAL_OWED + p]
    out[c + 27] = row[S.KEPT] if row[S.KEPT] < 10 else 3
    out[c + 28] = (row[S.LOC_PILE_N] + row[S.LOC_PILE_N + 1]) / 10.0
    out[c + 29] = row[S.BATTLE_TURNS] / 10.0
    if mine_pending:
        out[O_PENDING + row[S.PEND_KIND]] = 1.0
        if row[S.PEND_SRC] == S.SRC_LEADER:
            write_card(ctab, card_of(row, p, row[S.LEADER_CARD + p]), out, O_PENDING_CARD)
        elif row[S.PEND_KIND] == S.PK_RELIC:  # a relic: owner * MAX_DECK + instance
            code = row[S.PEND_CARD]
            write_card(ctab, card_of(row, code // S.MAX_DECK, code % S.MAX_DECK), out, O_PENDING_CARD)
        elif row[S.PEND_CARD] >= 0:
            write_card(ctab, card_of(row, p, row[S.PEND_CARD]), out, O_PENDING_CARD)
        caster = row[S.PEND_CASTER]
        if caster >= 0 and row[S.POS + p * S.MAX_DECK + caster] >= 0:
            out[O_PENDING_CASTER + row[S.POS + p * S.MAX_DECK + caster]] = 1.0
    loc = battlefield_card(row)
    if loc >= 0:
        write_card(ctab, loc, out, O_BATTLEFIELD)
    # [Cont] boosts in force, once per row: rows 0/1 ATT for every character of a side / one character, 2/3 DEF
    conts = np.zeros((4, 2 * S.MAX_DECK), dtype=np.int32)
    if row[S.PARTY_N] + row[S.PARTY_N + 1] > 0:
        cont_bonuses(row, tables, E_ATT, conts[0], conts[1])
        cont_bonuses(row, tables, E_DEF, conts[2], conts[3])
    for side in range(2):
        q = p if side == 0 else o
        if q == p or row[S.LEADER_SHOWN + q] != 0:  # the opponent's leader card is seen once attached (RL-G4)
            write_card(ctab, card_of(row, q, row[S.LEADER_CARD + q]), out, O_LEADER_CARDS + side * F)
        pub = O_PUBLIC + side * len(PILES) * S.POOL_CAP
        for j in range(row[S.DISCARD_N + q]):
            out[pub + card_of(row, q, row[S.DISCARD + q * S.MAX_DECK + j])] += 1.0
        for j in range(row[S.DOOM_N + q]):
            out[pub + S.POOL_CAP + card_of(row, q, row[S.DOOM + q * S.MAX_DECK + j])] += 1.0
        for owner in range(2):
            for j in range(row[S.WON_N + owner]):
                inst = row[S.WON + owner * S.SIDE_CAP + j]
                if row[S.CONTROLLER + owner * S.MAX_DECK + inst] == q:
                    out[pub + 2 * S.POOL_CAP + card_of(row, owner, inst)] += 1.0
        for j in range(row[S.LOC_PILE_N + q]):
            write_card(ctab, card_of(row, q, row[S.LOC_PILE + q * S.LOCATIONS + j]), out,
                       O_PILE + (side * S.LOCATIONS + j) * F)
        for j in range(row[S.PARTY_N + q]):
            inst = row[S.PARTY_Z + q * S.PARTY + j]
            slot = row[S.POS + q * S.MAX_DECK + inst]
            write_slot(row, tables, q, inst, p, out, O_GRID + (side * S.PARTY + slot) * (F + NUM_SLOT_FEATURES), conts)
    for i in range(row[S.HAND_N + p]):
        write_card(ctab, card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), out, O_HAND + i * F)
    for j in range(row[S.LINEUP_N + p]):
        write_card(ctab, card_of(row, p, row[S.LINEUP_Z + p * S.LINEUP + j]), out, O_LINEUP + j * F)
    for j in range(row[S.RESERVES_N + p]):
        write_card(ctab, card_of(row, p, row[S.RESERVES + p * S.RES_CAP + j]), out, O_RESERVES + j * F)
    for k in range(2 * S.SIDE_CAP):
        code = sideboard_entry(row, p, k)
        if code >= 0:
            at = O_SIDEBOARD + k * (F + 1)
            write_card(ctab, card_of(row, code // S.MAX_DECK, code % S.MAX_DECK), out, at)
            out[at + F] = 1.0 if row[S.HOST + code] >= 0 else 0.0


@njit(cache=True, nogil=True)
def batch_observe(states, tables, players, out):
    for i in range(states.shape[0]):
        observe_row(states[i], tables, players[i], out[i])
