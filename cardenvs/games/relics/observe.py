"""relics observation: one int16 row per player view, declared as a Layout (table in RULES.md).

"own" is the observing player, "opp" the other. Never encoded: the opponent's hand, line-up and reserves (counts
only), any deck order or content, the opponent's face-down characters (present + face-down flag only), and the
pending Cast/Throw of the opponent. The kernels write integers (issue 41: flags, counts, card ids + 1, ATT/DEF and
pile sizes as they are); the layout's ``divide_by`` gives the float view its scale of about [0, 10] (ATT/DEF / 10,
pile sizes / 10), value for value the float32 row this kernel wrote before.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE
from cardenvs.core.jit import kernel

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
    SC_BLACK,
    NUM_OPS,
    NUM_SKILLS,
    ONE_OPP,
    ONE_OWN,
    T_LOCATION,
)
from .rules import ability_refusal, pending_is_hidden
from . import obs_layout as L
from . import state as S

OBS = L.OBS  # re-exported: the observation layout (blocks and names in obs_layout.py)
OBS_SIZE = L.OBS_SIZE


@kernel
def _bits(out: np.ndarray, at: int, value: int, n: int) -> None:
    for b in range(n):
        if (value >> b) & 1:
            out[at + b] = 1


@kernel
def write_card(ctab: np.ndarray, card: int, out: np.ndarray, at: int) -> None:
    out[at + L.CARD_PRESENT] = 1
    out[at + L.CARD_CARD_ID] = card + 1  # issue 14: the card's identity (pool index + 1; 0 = no card / hidden)
    out[at + L.CARD_TYPE + ctab[card, C_TYPE]] = 1
    out[at + L.CARD_RARE] = ctab[card, C_RARITY]
    out[at + L.CARD_ATT] = ctab[card, C_ATT]
    out[at + L.CARD_DEF] = ctab[card, C_DEF]
    if ctab[card, C_CLASS] >= 0:
        out[at + L.CARD_CLASS + ctab[card, C_CLASS]] = 1
    _bits(out, at + L.CARD_DESCRIPTOR, ctab[card, C_DESC], MAX_DESCRIPTORS)
    skills = ctab[card, C_RELIC_SKILLS] if ctab[card, C_TYPE] == T_LOCATION else ctab[card, C_SKILLS]
    _bits(out, at + L.CARD_SKILL, skills, NUM_SKILLS)
    if ctab[card, C_SCHOOL] >= SC_BLACK:
        out[at + L.CARD_SCHOOL + ctab[card, C_SCHOOL] - SC_BLACK] = 1
    out[at + L.CARD_COST_DOWN] = ctab[card, C_COST_DOWN]
    out[at + L.CARD_HAS_ACT] = 1 if ctab[card, C_ACT] >= 0 else 0
    out[at + L.CARD_ACT_NEEDS_LEADER] = ctab[card, C_ACT_LEADER]
    out[at + L.CARD_HAS_CONT] = ctab[card, C_HAS_CONT]
    out[at + L.CARD_HAS_ENTER] = ctab[card, C_HAS_ENTER]
    out[at + L.CARD_HAS_DEFEAT] = ctab[card, C_HAS_DEFEAT]
    out[at + L.CARD_TARGETS_OWN] = 1 if ctab[card, C_ONE_TARGET] == ONE_OWN else 0
    out[at + L.CARD_TARGETS_OPP] = 1 if ctab[card, C_ONE_TARGET] == ONE_OPP else 0
    _bits(out, at + L.CARD_OP, ctab[card, C_OPS], NUM_OPS)
    out[at + L.CARD_RELIC_ATT] = ctab[card, C_RELIC_ATT]
    out[at + L.CARD_RELIC_DEF] = ctab[card, C_RELIC_DEF]
    _bits(out, at + L.CARD_QUALIFIES_CLASS, ctab[card, C_QUAL_CLASS], MAX_CLASSES)
    _bits(out, at + L.CARD_QUALIFIES_DESCRIPTOR, ctab[card, C_QUAL_DESC], MAX_DESCRIPTORS)
    req = ctab[card, C_REQ_CLASS] | ctab[card, C_REQ_DESC] | ctab[card, C_REQ_SKILL]
    out[at + L.CARD_HAS_REQUIREMENT] = 1 if req != 0 else 0
    _bits(out, at + L.CARD_REQUIRES_CLASS, ctab[card, C_REQ_CLASS], MAX_CLASSES)


@kernel
def write_slot(row: np.ndarray, tables, q: int, inst: int, viewer: int, out: np.ndarray, at: int,
               conts: np.ndarray, order: int) -> None:
    """One grid cell at ``at``; ``conts`` holds the row's [Cont] boosts (ATT every / single, then DEF, see
    ``cont_bonuses``); ``order`` is the character's index in its party zone (the order it entered play)."""
    ctab = tables.cards
    k = q * S.MAX_DECK + inst
    d = at + L.CELL_SLOT
    # the party's order decides where a Retreat puts each character in the reserves and the order a discarded party
    # reaches the discard pile; both players saw every placement, face down ones too
    out[d + L.SLOT_ENTERED] = order + 1
    if q != viewer and row[S.FACE_DOWN + k] != 0:
        out[at + L.CELL_CARD + L.CARD_PRESENT] = 1  # an opposing face-down character: present, nothing else
        out[d + L.SLOT_FACE_DOWN] = 1
        return
    write_card(ctab, card_of(row, q, inst), out, at + L.CELL_CARD)
    out[d + L.SLOT_FACE_DOWN] = row[S.FACE_DOWN + k]
    out[d + L.SLOT_DOWN] = row[S.DOWN + k]
    out[d + L.SLOT_LEADER] = 1 if row[S.LEADER + q] == inst else 0
    out[d + L.SLOT_ATT_NOW] = stat_given(row, ctab, q, inst, True, conts[0, q] + conts[1, k])
    out[d + L.SLOT_DEF_NOW] = stat_given(row, ctab, q, inst, False, conts[2, q] + conts[3, k])
    _bits(out, d + L.SLOT_SKILL, skills_of(row, ctab, q, inst), NUM_SKILLS)
    a = attachment_card(row, q, inst)
    if a >= 0:
        relic = ctab[a, C_TYPE] == T_LOCATION
        out[d + L.SLOT_HAS_ATTACHMENT] = 1
        out[d + L.SLOT_ATTACHMENT_IS_RELIC] = 1 if relic else 0
        out[d + L.SLOT_ATTACHMENT_ATT] = ctab[a, C_RELIC_ATT] if relic else ctab[a, C_ATT]
        out[d + L.SLOT_ATTACHMENT_DEF] = ctab[a, C_RELIC_DEF] if relic else ctab[a, C_DEF]
        out[d + L.SLOT_ATTACHMENT_ID] = a + 1  # which card: equal bonuses do not make equal cards (text, skills)
    if row[S.FACE_DOWN + k] == 0 and ability_refusal(row, tables, q, inst) == 0:
        out[d + L.SLOT_ABILITY_READY] = 1


@kernel
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    out[:] = 0
    if p < 0 or p > 1:  # no viewer (a finished game in a batch): all zeros
        return
    ctab = tables.cards
    o = 1 - p
    c = L.O_CONTEXT
    mine = row[H_STATUS] == LIVE and row[H_TO_ACT] == p
    if not mine and pending_is_hidden(row):  # the opponent's sub-step would tell what kind of card it plays
        out[L.O_STEP + S.ST_BATTLE] = 1
    else:
        out[L.O_STEP + row[S.STEP]] = 1
    out[c + L.CTX_MY_DECISION] = 1 if mine else 0
    out[c + L.CTX_I_AM_1P] = 1 if row[S.LEAD] == p else 0
    out[c + L.CTX_PASSES] = row[S.PASSES]
    out[c + L.CTX_ROUND] = row[S.ROUND]
    out[c + L.CTX_BATTLE] = row[H_TURN]
    for side in range(2):
        q = p if side == 0 else o
        out[c + L.CTX_RELICS + side] = relic_count(row, q)
        out[c + L.CTX_LEADER_QUALIFIES + side] = 1 if qualifies(row, ctab, q) else 0
        out[c + L.CTX_CHAR_DECK + side] = row[S.CHAR_DECK_COUNT + q]
        out[c + L.CTX_ITEM_DECK + side] = row[S.ITEM_DECK_COUNT + q]
        # RL-G14: what the opponent set aside in a simultaneous step is still in its hand / reserves for the viewer
        aside = row[S.HAND_ASIDE_COUNT + q] if q != p else 0
        out[c + L.CTX_HAND + side] = row[S.HAND_COUNT + q] + (aside if row[S.STEP] == S.ST_HAND else 0)
        out[c + L.CTX_RESERVES + side] = row[S.RESERVES_COUNT + q] + (aside if row[S.STEP] == S.ST_TRIM else 0)
        out[c + L.CTX_PARTY + side] = row[S.PARTY_COUNT + q]
        out[c + L.CTX_DISCARD + side] = row[S.DISCARD_COUNT + q]
        out[c + L.CTX_DOOM + side] = row[S.DOOM_COUNT + q]
        out[c + L.CTX_LINEUP + side] = row[S.LINEUP_COUNT + q]
    mine_pending = row[S.PEND_PLAYER] == p
    out[c + L.CTX_DISCARDS_OWED] = row[S.PEND_LEFT] if mine_pending else 0
    out[c + L.CTX_STEAL_OWED_OWN] = row[S.STEAL_OWED + p]
    out[c + L.CTX_KEPT] = S.RESERVE_TARGET if row[S.KEPT] == S.KEPT_DONE else row[S.KEPT]
    out[c + L.CTX_LOCATION_PILE] = row[S.LOC_PILE_COUNT] + row[S.LOC_PILE_COUNT + 1]
    out[c + L.CTX_BATTLE_TURNS] = row[S.BATTLE_TURNS]
    out[c + L.CTX_STEAL_OWED_OPP] = row[S.STEAL_OWED + o]
    out[c + L.CTX_BATTLEFIELD_MINE] = row[S.BATTLEFIELD_COUNT + p]
    w = row[S.BATTLE_WINNER]
    if w == p or w == o:
        out[c + L.CTX_BATTLE_WON + (0 if w == p else 1)] = 1
    out[c + L.CTX_RETREATED] = row[S.RETREATED]
    if mine_pending:
        out[L.O_PENDING + row[S.PEND_KIND]] = 1
        if row[S.PEND_SRC] == S.SRC_LEADER:
            write_card(ctab, card_of(row, p, row[S.LEADER_CARD + p]), out, L.O_PENDING_CARD)
        elif row[S.PEND_KIND] == S.PK_RELIC:  # a relic: owner * MAX_DECK + instance
            code = row[S.PEND_CARD]
            write_card(ctab, card_of(row, code // S.MAX_DECK, code % S.MAX_DECK), out, L.O_PENDING_CARD)
        elif row[S.PEND_CARD] >= 0:
            write_card(ctab, card_of(row, p, row[S.PEND_CARD]), out, L.O_PENDING_CARD)
        caster = row[S.PEND_CASTER]
        if row[S.STEP] == S.ST_JUMP:  # RL-K9: the character that may Jump (it just came into play)
            caster = row[S.JUMPER]
        if caster >= 0 and row[S.POS + p * S.MAX_DECK + caster] >= 0:
            out[L.O_PENDING_CASTER + row[S.POS + p * S.MAX_DECK + caster]] = 1
    loc = battlefield_card(row)
    if loc >= 0:
        write_card(ctab, loc, out, L.O_BATTLEFIELD)
    # [Cont] boosts in force, once per row: rows 0/1 ATT for every character of a side / one character, 2/3 DEF
    conts = np.zeros((4, 2 * S.MAX_DECK), dtype=np.int32)
    if row[S.PARTY_COUNT] + row[S.PARTY_COUNT + 1] > 0:
        cont_bonuses(row, tables, E_ATT, conts[0], conts[1])
        cont_bonuses(row, tables, E_DEF, conts[2], conts[3])
    for side in range(2):
        q = p if side == 0 else o
        if q == p or row[S.LEADER_SHOWN + q] != 0:  # the opponent's leader card is seen once attached (RL-G4)
            write_card(ctab, card_of(row, q, row[S.LEADER_CARD + q]), out, L.O_LEADER_CARDS + side * L.CARD_SIZE)
        pub = L.O_PUBLIC_CARDS + side * L.NUM_PILES * S.POOL_CAP
        for j in range(row[S.DISCARD_COUNT + q]):
            out[pub + L.PILE_DISCARD * S.POOL_CAP + card_of(row, q, row[S.DISCARD + q * S.MAX_DECK + j])] += 1
        for j in range(row[S.DOOM_COUNT + q]):
            out[pub + L.PILE_DOOM * S.POOL_CAP + card_of(row, q, row[S.DOOM + q * S.MAX_DECK + j])] += 1
        for owner in range(2):
            for j in range(row[S.WON_COUNT + owner]):
                inst = row[S.WON + owner * S.SIDE_CAP + j]
                if row[S.CONTROLLER + owner * S.MAX_DECK + inst] == q:
                    out[pub + L.PILE_RELICS * S.POOL_CAP + card_of(row, owner, inst)] += 1
        for j in range(row[S.LOC_PILE_COUNT + q]):
            write_card(ctab, card_of(row, q, row[S.LOC_PILE + q * S.NUM_LOCATIONS + j]), out,
                       L.O_LOCATION_PILE + (side * S.NUM_LOCATIONS + j) * L.CARD_SIZE)
        for j in range(row[S.PARTY_COUNT + q]):
            inst = row[S.PARTY + q * S.PARTY_SIZE + j]
            slot = row[S.POS + q * S.MAX_DECK + inst]
            write_slot(row, tables, q, inst, p, out, L.O_GRID + (side * S.PARTY_SIZE + slot) * L.CELL_SIZE, conts,
                       j)
    # cards the other player saw arrive in a hand or reserves (``known``): the viewer remembers the opponent's, and
    # knows which of its own the opponent knows; hide() keeps exactly these (RL-Z4)
    for side in range(2):
        q = p if side == 0 else o
        kn = L.O_KNOWN_CARDS + side * L.NUM_KNOWN * S.POOL_CAP
        for j in range(min(row[S.HAND_COUNT + q], S.HAND_CAP)):
            inst = row[S.HAND + q * S.HAND_CAP + j]
            if inst >= 0 and row[S.KNOWN + q * S.MAX_DECK + inst] != 0:
                out[kn + L.KNOWN_HAND * S.POOL_CAP + card_of(row, q, inst)] += 1
        for j in range(min(row[S.RESERVES_COUNT + q], S.RES_CAP)):
            inst = row[S.RESERVES + q * S.RES_CAP + j]
            if inst >= 0 and row[S.KNOWN + q * S.MAX_DECK + inst] != 0:
                out[kn + L.KNOWN_RESERVES * S.POOL_CAP + card_of(row, q, inst)] += 1
        zone = L.KNOWN_RESERVES if row[S.STEP] == S.ST_TRIM else L.KNOWN_HAND  # RL-G14: still in its zone
        for j in range(min(row[S.HAND_ASIDE_COUNT + q], S.ASIDE_CAP)):
            inst = row[S.HAND_ASIDE + q * S.ASIDE_CAP + j]
            if inst < 0:  # never in a real state; a checker's changed count must not write outside the vector
                continue
            if q == p:
                out[L.O_OWN_ASIDE + card_of(row, p, inst)] += 1
            if row[S.KNOWN + q * S.MAX_DECK + inst] != 0:
                out[kn + zone * S.POOL_CAP + card_of(row, q, inst)] += 1
    # the opponent's reserves in order, its known characters by identity: the viewer saw each arrive (a Retreat puts
    # the party there in party order) and the opponent's reserve actions name positions. Not while RL-P6 reorders
    # them by identity (more than RES_VIEW) nor once the opponent began its trim (1P trims first, then 2P), where a
    # hidden set-aside entry closes its gap
    trimming = row[S.STEP] == S.ST_TRIM and (o == row[S.LEAD] or row[S.SETUP_PLAYER] == o)
    if row[S.RESERVES_COUNT + o] <= S.RES_VIEW and not trimming:
        for j in range(row[S.RESERVES_COUNT + o]):
            inst = row[S.RESERVES + o * S.RES_CAP + j]
            if inst >= 0 and row[S.KNOWN + o * S.MAX_DECK + inst] != 0:
                out[L.O_OPP_KNOWN_RESERVES + j] = card_of(row, o, inst) + 1
    # own library by card id (the player knows its deck list and what it drew; the order stays hidden): lets a
    # policy plan with a deck it never saw in training (issue 14)
    for j in range(row[S.CHAR_DECK_COUNT + p]):
        out[L.O_OWN_LIBRARY + card_of(row, p, row[S.CHAR_DECK + p * S.CHAR_DECK_SIZE + j])] += 1
    for j in range(row[S.ITEM_DECK_COUNT + p]):
        out[L.O_OWN_LIBRARY + card_of(row, p, row[S.ITEM_DECK + p * S.ITEM_DECK_SIZE + j])] += 1
    for i in range(row[S.HAND_COUNT + p]):
        write_card(ctab, card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), out, L.O_HAND + i * L.CARD_SIZE)
    for j in range(row[S.LINEUP_COUNT + p]):
        write_card(ctab, card_of(row, p, row[S.LINEUP + p * S.LINEUP_SIZE + j]), out, L.O_LINEUP + j * L.CARD_SIZE)
    for j in range(min(row[S.RESERVES_COUNT + p], S.RES_VIEW)):  # RL-P6: every different character is in view
        write_card(ctab, card_of(row, p, row[S.RESERVES + p * S.RES_CAP + j]), out, L.O_RESERVES + j * L.CARD_SIZE)
    for k in range(2 * S.SIDE_CAP):
        code = sideboard_entry(row, p, k)
        if code >= 0:
            at = L.O_SIDEBOARD + k * L.SIDE_ENTRY_SIZE
            write_card(ctab, card_of(row, code // S.MAX_DECK, code % S.MAX_DECK), out, at + L.SIDE_CARD)
            out[at + L.SIDE_IN_PLAY] = 1 if row[S.HOST + code] >= 0 else 0
    # the opponent's relics in the order its relic actions name them (public: every battle's winner and every relic
    # played is seen); the counts in public_cards alone leave two of its relics interchangeable
    for k in range(2 * S.SIDE_CAP):
        code = sideboard_entry(row, o, k)
        if code >= 0:
            out[L.O_OPP_RELICS + 2 * k] = card_of(row, code // S.MAX_DECK, code % S.MAX_DECK) + 1
            out[L.O_OPP_RELICS + 2 * k + 1] = 1 if row[S.HOST + code] >= 0 else 0
