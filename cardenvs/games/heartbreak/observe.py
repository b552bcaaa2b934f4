"""heartbreak observation: one float32 row per player view, declared as a Layout (table in RULES.md).

"own" is the observing player, "opp" the other. Never encoded: the opponent's hand contents, any deck order or
contents, face-down heart cards (hidden from both players, HB-H9), the opponent's face-down stock cards (count only,
HB-I15), charged cards (count only, HB-C8) and the opponent's face-down Lead during setup (present only).
HP and damage are divided by 100, keyword numbers by 10.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE
from cardenvs.core.layout import Layout, fields

from .board import (
    armor_of,
    attack_bonus,
    card_of,
    counter_of,
    field_at,
    has_bypass,
    hp_of,
    item_of,
    stock_size,
    strike_of,
    ward_of,
)
from .cards import (
    C_ACT_COST,
    C_ACT_DMG,
    C_ALLIANCE,
    C_ARMOR,
    C_ATTACK,
    C_BANEFUL,
    C_BYPASS,
    C_COST,
    C_COUNTER,
    C_HAS_CALL,
    C_HAS_END,
    C_HAS_START,
    C_HP,
    C_LEAD_OK,
    C_LEVEL,
    C_N_SKILLS,
    C_NEGATE,
    C_OD,
    C_STRIKE,
    C_TURBO,
    C_TYPE,
    C_WARD,
    MAX_ALLIANCES,
    TR_CALL,
    TR_END,
    TR_START,
)
from . import state as S

D = S.MAX_DECK
CARD_FEATURES = (
    "present", "fighter", "support", "item", "climax", "level", "hp/100", "cost", "overdrive_cost", "armor/10",
    "ward/10", "counter/10", "baneful/10", "strike", "bypass", "attack/10", "turbo", "negate", "skills", "has_call",
    "has_start", "has_end", "action1_damage/100", "action1_cost", "action2_damage/100", "action2_cost", "lead_capable",
    *[f"alliance{i}" for i in range(MAX_ALLIANCES)],
)
F = len(CARD_FEATURES)
FIGHTER_STATE = (
    "hp_now/100", "damage/100", "hp_left/100", "rested", "acted", "skill1_used", "skill2_used", "silenced",
    "armor_now/10", "ward_now/10", "counter_now/10", "strike_now", "bypass_now", "attack_bonus/10", "stock",
    "stock_face_down", "may_evolve", "has_item",
)
NFS = len(FIGHTER_STATE)
SLOT = F + NFS + F  # card, state, equipped item card
CONTEXT = (
    "my_decision", "my_turn", "first_turn", "swap_used", "climax_used", "window_answer_stage", "window_mine",
    "trig_call", "trig_start", "trig_end", "turn/100", "bypass_target_pending", "choice_swap", "choice_evolve",
    "choice_mine",
)
PUBLIC_PILES = ("discard pile (KO'd fighters, used cards, discharged and broken face-up cards)",
                "face-up stock (evolution bases and items)", "face-up heart cards")
COUNTS = ("deck/10", "hand", "heart", "heart_face_down", "charge", "discard/10", "backup", "stock", "on_stack")
LEAD_OPTION = ("offered", "level", "hp/100", "armor/10", "ward/10", "counter/10", "strike", "bypass",
               "action1_damage/100")
STACK_FEATURES = 1 + 7 + 1 + 1 + 1 + 4 + F  # present, kind one-hot, mine, cancelled, index, target pos, card

OBS = Layout(
    "heartbreak_obs",
    fields(
        ("step", (S.NUM_STEPS,), "one-hot pending step (ST_* in state.py)"),
        ("context", (len(CONTEXT),), "flags: " + ", ".join(CONTEXT)),
        ("counts", (2, len(COUNTS)), "per player (own, opp): " + ", ".join(COUNTS)),
        ("hand", (S.HAND_CAP, F), "own hand, card features: " + ", ".join(CARD_FEATURES)),
        ("field", (2, 4, SLOT), ("fighters (own, opp) at positions Lead, Back-Up 1..3: card features, "
                                 + ", ".join(FIGHTER_STATE) + ", then the equipped item's card features")),
        ("heart", (2, S.HEART_CAP, 2 + F), "heart stacks (own, opp), bottom first: present, face_up, features if up"),
        ("stack", (S.STACK_CAP, STACK_FEATURES), ("response stack, bottom first: present, kind one-hot (phase, card, "
                                                "call, play, skill, action, trigger), mine, cancelled, index, target "
                                                "position one-hot, source card features")),
        ("triggers", (S.TRIG_CAP, 2 + F), "waiting triggered abilities: present, mine, card features"),
        ("lead_options", (D, len(LEAD_OPTION)), ("setup, while choosing the own Lead: for each deck instance i "
                                                 "(the choose_lead action i): " + ", ".join(LEAD_OPTION))),
        ("public_cards", (2, len(PUBLIC_PILES), S.POOL_CAP),
         ("per player (own, opp), every public card counted by card id (the pool's order): "
          + "; ".join(PUBLIC_PILES))),
    ),
    dtype_scalar=np.float32,
)
OBS_SIZE = OBS.size
O_STEP, O_CONTEXT, O_COUNTS, O_HAND, O_FIELD, O_HEART, O_STACK, O_TRIG, O_LEAD, O_PUBLIC = OBS.offsets(
    "step", "context", "counts", "hand", "field", "heart", "stack", "triggers", "lead_options", "public_cards"
)
NP = len(PUBLIC_PILES)
NL = len(LEAD_OPTION)
NC = len(COUNTS)


@njit(cache=True)
def write_card(ctab: np.ndarray, card: int, out: np.ndarray, at: int) -> None:
    out[at] = 1.0
    out[at + 1 + ctab[card, C_TYPE]] = 1.0
    out[at + 5] = ctab[card, C_LEVEL]
    out[at + 6] = ctab[card, C_HP] / 100.0
    out[at + 7] = ctab[card, C_COST]
    out[at + 8] = ctab[card, C_OD]
    out[at + 9] = ctab[card, C_ARMOR] / 10.0
    out[at + 10] = ctab[card, C_WARD] / 10.0
    out[at + 11] = ctab[card, C_COUNTER] / 10.0
    out[at + 12] = ctab[card, C_BANEFUL] / 10.0
    out[at + 13] = ctab[card, C_STRIKE]
    out[at + 14] = ctab[card, C_BYPASS]
    out[at + 15] = ctab[card, C_ATTACK] / 10.0
    out[at + 16] = ctab[card, C_TURBO]
    out[at + 17] = ctab[card, C_NEGATE]
    out[at + 18] = ctab[card, C_N_SKILLS]
    out[at + 19] = ctab[card, C_HAS_CALL]
    out[at + 20] = ctab[card, C_HAS_START]
    out[at + 21] = ctab[card, C_HAS_END]
    out[at + 22] = ctab[card, C_ACT_DMG] / 100.0
    out[at + 23] = ctab[card, C_ACT_COST]
    out[at + 24] = ctab[card, C_ACT_DMG + 3] / 100.0
    out[at + 25] = ctab[card, C_ACT_COST + 3]
    out[at + 26] = ctab[card, C_LEAD_OK]
    out[at + 27 + ctab[card, C_ALLIANCE]] = 1.0


@njit(cache=True)
def write_fighter(row: np.ndarray, tables, q: int, inst: int, out: np.ndarray, at: int) -> None:
    ctab = tables[0]
    k = q * D + inst
    write_card(ctab, card_of(row, q, inst), out, at)
    s = at + F
    hp = hp_of(row, ctab, q, inst)
    out[s] = hp / 100.0
    out[s + 1] = row[S.DAMAGE + k] / 100.0
    out[s + 2] = (hp - row[S.DAMAGE + k]) / 100.0
    out[s + 3] = row[S.RESTED + k]
    out[s + 4] = row[S.ACTED + k]
    out[s + 5] = row[S.SKILLS_USED + k] & 1
    out[s + 6] = (row[S.SKILLS_USED + k] >> 1) & 1
    out[s + 7] = row[S.SILENCED + k]
    out[s + 8] = armor_of(row, ctab, q, inst) / 10.0
    out[s + 9] = ward_of(row, ctab, q, inst) / 10.0
    out[s + 10] = counter_of(row, ctab, q, inst) / 10.0
    out[s + 11] = strike_of(row, ctab, q, inst)
    out[s + 12] = 1.0 if has_bypass(row, ctab, q, inst) else 0.0
    out[s + 13] = attack_bonus(row, ctab, q, inst) / 10.0
    out[s + 14] = stock_size(row, q, inst)
    down = 0
    for j in range(row[S.STOCK_N + q]):
        c = row[S.STOCK + q * S.STOCK_CAP + j]
        if row[S.STOCK_HOST + q * D + c] == inst and row[S.FACE_UP + q * D + c] == 0:
            down += 1
    out[s + 15] = down
    out[s + 16] = 1.0 if row[S.SINCE_TURN + k] < row[H_TURN] else 0.0
    it = item_of(row, ctab, q, inst)
    if it >= 0:
        out[s + 17] = 1.0
        write_card(ctab, card_of(row, q, it), out, s + NFS)


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
    out[c + 1] = 1.0 if tp == p else 0.0
    out[c + 2] = 1.0 if row[H_TURN] == 1 else 0.0
    out[c + 3] = row[S.SWAP_USED]
    out[c + 4] = row[S.CLIMAX_USED]
    out[c + 5] = row[S.WIN_STAGE] if row[S.STEP] == S.ST_WINDOW and row[S.WIN_STAGE] < S.WIN_RESOLVING else 0.0
    out[c + 6] = 1.0 if row[S.WIN_ACTOR] == p else 0.0
    kind = row[S.TRIG_KIND]
    out[c + 7] = 1.0 if kind == TR_CALL and row[S.TRIG_N] > 0 else 0.0
    out[c + 8] = 1.0 if kind == TR_START and row[S.TRIG_N] > 0 else 0.0
    out[c + 9] = 1.0 if kind == TR_END and row[S.TRIG_N] > 0 else 0.0
    out[c + 10] = row[H_TURN] / 100.0
    out[c + 11] = 1.0 if row[S.PENDING_ACTION] >= 0 and row[S.STEP] == S.ST_TARGET else 0.0
    if row[S.STEP] == S.ST_CHOOSE:
        out[c + 12] = 1.0 if row[S.CHOICE_KIND] == S.CH_SWAP else 0.0
        out[c + 13] = 1.0 if row[S.CHOICE_KIND] == S.CH_EVOLVE else 0.0
        out[c + 14] = 1.0 if row[S.CHOICE_PLAYER] == p else 0.0
    for side in range(2):
        q = p if side == 0 else o
        base = O_COUNTS + side * NC
        out[base] = row[S.DECK_N + q] / 10.0
        out[base + 1] = row[S.HAND_N + q]
        out[base + 2] = row[S.HEART_N + q]
        down = 0
        for j in range(row[S.HEART_N + q]):
            inst = row[S.HEART + q * S.HEART_CAP + j]
            hat = O_HEART + (side * S.HEART_CAP + j) * (2 + F)
            out[hat] = 1.0
            if row[S.FACE_UP + q * D + inst] != 0:
                out[hat + 1] = 1.0
                write_card(ctab, card_of(row, q, inst), out, hat + 2)
            else:
                down += 1
        out[base + 3] = down
        out[base + 4] = row[S.CHARGE_N + q]
        out[base + 5] = row[S.DISCARD_N + q] / 10.0
        out[base + 6] = row[S.BACKUP_N + q]
        out[base + 7] = row[S.STOCK_N + q]
        out[base + 8] = row[S.RESOLVING_N + q]
        pub = O_PUBLIC + side * NP * S.POOL_CAP  # every public card by card id (the piles' order is not kept)
        for j in range(row[S.DISCARD_N + q]):
            out[pub + card_of(row, q, row[S.DISCARD + q * D + j])] += 1.0
        for j in range(row[S.STOCK_N + q]):
            inst = row[S.STOCK + q * S.STOCK_CAP + j]
            if row[S.FACE_UP + q * D + inst] != 0:
                out[pub + S.POOL_CAP + card_of(row, q, inst)] += 1.0
        for j in range(row[S.HEART_N + q]):
            inst = row[S.HEART + q * S.HEART_CAP + j]
            if row[S.FACE_UP + q * D + inst] != 0:
                out[pub + 2 * S.POOL_CAP + card_of(row, q, inst)] += 1.0
        for pos in range(4):
            inst = field_at(row, q, pos)
            if inst < 0:
                continue
            at = O_FIELD + (side * 4 + pos) * SLOT
            if q == p or row[S.FACE_UP + q * D + inst] != 0:
                write_fighter(row, tables, q, inst, out, at)
            else:
                out[at] = 1.0  # the opponent's face-down Lead during setup: present, nothing else
    for i in range(row[S.HAND_N + p]):
        write_card(ctab, card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), out, O_HAND + i * F)
    for j in range(row[S.STACK_N]):
        b = S.STACK + j * S.STACK_COLS
        at = O_STACK + j * STACK_FEATURES
        q = row[b + S.SK_PLAYER]
        out[at] = 1.0
        out[at + 1 + row[b + S.SK_KIND]] = 1.0
        out[at + 8] = 1.0 if q == p else 0.0
        out[at + 9] = row[b + S.SK_CANCEL]
        out[at + 10] = row[b + S.SK_INDEX]
        t = row[b + S.SK_TARGET]
        if t >= 0:
            for pos in range(4):
                if field_at(row, 1 - q, pos) == t:
                    out[at + 11 + pos] = 1.0
        if row[b + S.SK_KIND] != S.K_PHASE and row[b + S.SK_INST] >= 0:
            write_card(ctab, card_of(row, q, row[b + S.SK_INST]), out, at + 15)
    for j in range(row[S.TRIG_N]):
        q = row[S.TRIG + 2 * j]
        at = O_TRIG + j * (2 + F)
        out[at] = 1.0
        out[at + 1] = 1.0 if q == p else 0.0
        write_card(ctab, card_of(row, q, row[S.TRIG + 2 * j + 1]), out, at + 2)
    if row[S.STEP] == S.ST_SETUP_LEAD and row[S.SETUP_PLAYER] == p and row[H_STATUS] == LIVE:
        # the player looks through its own deck: each distinct Lead-capable card, at the instance its action names
        base = S.DECK + p * D
        for j in range(row[S.DECK_N + p]):
            inst = row[base + j]
            card = card_of(row, p, inst)
            if ctab[card, C_LEAD_OK] == 0:
                continue
            first = True
            for k in range(j):
                if card_of(row, p, row[base + k]) == card:
                    first = False
                    break
            if not first:
                continue
            at = O_LEAD + inst * NL
            out[at] = 1.0
            out[at + 1] = ctab[card, C_LEVEL]
            out[at + 2] = ctab[card, C_HP] / 100.0
            out[at + 3] = ctab[card, C_ARMOR] / 10.0
            out[at + 4] = ctab[card, C_WARD] / 10.0
            out[at + 5] = ctab[card, C_COUNTER] / 10.0
            out[at + 6] = ctab[card, C_STRIKE]
            out[at + 7] = ctab[card, C_BYPASS]
            out[at + 8] = ctab[card, C_ACT_DMG] / 100.0


@njit(cache=True, nogil=True)
def batch_observe(states, tables, players, out):
    for i in range(states.shape[0]):
        observe_row(states[i], tables, players[i], out[i])
