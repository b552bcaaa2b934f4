"""heartbreak observation: one int16 row per player view, declared as a Layout (table in RULES.md).

"own" is the observing player, "opp" the other. Never encoded: which card is where among the cards a player cannot
see: the opponent's hand, charged cards, face-down stock cards (HB-I15, HB-C8) and face-down Lead during setup
(present only), any deck's order, and the face-down heart cards (hidden from both players, HB-H9). Those are counted
only together, by card id, in ``unseen_cards`` (each deck list is known). The own charged and face-down stock cards
are encoded (``charged_cards``, ``stock_cards``): their owner knows them.
The kernels write integers only (compact, issue 41): HP and damage in tens, keyword numbers as their tens, counts and
the turn as they are; the layout's divisors turn them into the float view (HP / 100, Armor / 10, deck / 10, turn /
100: ``obs_layout``'s docstring). Every observed card carries ``card_id`` (pool index + 1; 0 for no card or a
hidden one); ``obs_layout.OBS_CARD_IDS`` (``SPEC.obs_card_ids``) lists those indices.
The layouts live in ``obs_layout.py``; the kernels below write every entry by its generated name (``L.CARD_HP``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE
from cardenvs.core.jit import helper

from .board import MIN_REDUCED_HP, card_of, field_at, field_pos
from .tables import (
    C_ACT_DMG,
    C_ARMOR,
    C_ATTACK,
    C_BANEFUL,
    C_BYPASS,
    C_COUNTER,
    C_HP,
    C_LEAD_OK,
    C_LEVEL,
    C_STRIKE,
    C_TYPE,
    C_WARD,
    TR_CALL,
    TR_END,
    TR_START,
    TYPE_ITEM,
)
from . import obs_layout as L
from . import state as S
from .obs_layout import OBS  # noqa: F401 (re-exported: the game's observation layout)


@helper
def write_card(feat: np.ndarray, card: int, out: np.ndarray, at: int) -> None:
    """The L.CARD block of pool card ``card`` at ``out[at:]``: a copy of its precomputed row (``tables.features``)."""
    for j in range(L.CARD_SIZE):
        out[at + j] = feat[card, j]


@helper
def scan_stock(row: np.ndarray, ctab: np.ndarray, q: int, info: np.ndarray, side: int) -> None:
    """One pass over ``q``'s stock for its fighters at every field position: ``info[side, pos]`` gets the fighter
    (-1 none), its face-up item (``board.item_of``: the first in stock order, -1 none), its stock size and how many of
    its stock cards are face down. The board helpers would scan the stock once per keyword and fighter."""
    for pos in range(S.FIELD_CAP):
        info[side, pos, 0] = field_at(row, q, pos)
        info[side, pos, 1] = -1
        info[side, pos, 2] = 0
        info[side, pos, 3] = 0
    for j in range(row[S.STOCK_COUNT + q]):
        c = row[S.STOCK + q * S.STOCK_CAP + j]
        host = row[S.STOCK_HOST + q * S.MAX_DECK + c]
        if host < 0:
            continue
        for pos in range(S.FIELD_CAP):
            if info[side, pos, 0] != host:
                continue
            info[side, pos, 2] += 1
            if row[S.FACE_UP + q * S.MAX_DECK + c] == 0:
                info[side, pos, 3] += 1
            elif info[side, pos, 1] < 0 and ctab[card_of(row, q, c), C_TYPE] == TYPE_ITEM:
                info[side, pos, 1] = c
            break


# keyword_with's (column, modifier) pairs, read from an array so that Numba compiles one version of it, not one per
# pair of constants: armor, ward, counter, bypass, attack bonus, baneful (no modifier)
_KW_COL = np.array([C_ARMOR, C_WARD, C_COUNTER, C_BYPASS, C_ATTACK, C_BANEFUL], dtype=np.int64)
_KW_MOD = np.array([S.MOD_ARMOR, S.MOD_WARD, S.MOD_COUNTER, S.MOD_BYPASS, S.MOD_ATTACK, -1], dtype=np.int64)
KW_ARMOR, KW_WARD, KW_COUNTER, KW_BYPASS, KW_ATTACK, KW_BANEFUL = range(6)
_KW_OUT = np.array([L.FIGHTER_ARMOR_NOW, L.FIGHTER_WARD_NOW, L.FIGHTER_COUNTER_NOW, -1, L.FIGHTER_ATTACK_BONUS],
                   dtype=np.int64)  # where write_fighter puts each keyword (bypass is written as a flag)


@helper
def keyword_with(row: np.ndarray, ctab: np.ndarray, q: int, inst: int, item: int, kw: int) -> int:
    """``board.keyword`` (the ``KW_*`` keyword) with the fighter's item already known."""
    col = _KW_COL[kw]
    mod = _KW_MOD[kw]
    k = q * S.MAX_DECK + inst
    v = row[mod + k] if mod >= 0 else 0
    if row[S.SILENCED + k] == 0:
        v += ctab[card_of(row, q, inst), col]
    if item >= 0:
        v += ctab[card_of(row, q, item), col]
    return v


@helper
def write_fighter(row: np.ndarray, tables, q: int, pos: int, info: np.ndarray, side: int, out: np.ndarray,
                  at: int) -> None:
    """The L.FIGHTER block of ``q``'s fighter at field position ``pos`` (``info[side]`` from ``scan_stock`` for
    ``q``, ``info[1 - side]`` for the opponent) at ``out[at:]``: the same values as ``board.hp_of``, ``armor_of`` and
    so on."""
    ctab = tables.cards
    feat = tables.features
    inst = info[side, pos, 0]
    it = info[side, pos, 1]
    k = q * S.MAX_DECK + inst
    card = card_of(row, q, inst)
    write_card(feat, card, out, at + L.FIGHTER_CARD)
    # board.hp_of
    up = 0
    down = 0
    mod = row[S.MOD_HP + k]
    if mod > 0:
        up += mod
    else:
        down -= mod
    if it >= 0:
        up += ctab[card_of(row, q, it), C_HP]
    if pos == 0:  # the Lead suffers every [Baneful] of the opponent's fighters (HB-K7/K9)
        for opos in range(S.FIELD_CAP):
            if info[1 - side, opos, 0] >= 0:
                down += keyword_with(row, ctab, 1 - q, info[1 - side, opos, 0], info[1 - side, opos, 1],
                                     np.int64(KW_BANEFUL))  # not a literal: the same version as above
    hp = ctab[card, C_HP] + up - down
    if down > 0 and hp < MIN_REDUCED_HP:
        hp = MIN_REDUCED_HP
    out[at + L.FIGHTER_HP_NOW] = hp // 10  # in tens (every HP and damage amount is): the float view's HP / 100
    out[at + L.FIGHTER_DAMAGE] = row[S.DAMAGE + k] // 10
    out[at + L.FIGHTER_HP_LEFT] = (hp - row[S.DAMAGE + k]) // 10
    out[at + L.FIGHTER_RESTED] = row[S.RESTED + k]
    out[at + L.FIGHTER_ACTED] = row[S.ACTED + k]
    for j in range(S.MAX_SKILLS):
        out[at + L.FIGHTER_SKILL_USED + j] = (row[S.SKILLS_USED + k] >> j) & 1
    out[at + L.FIGHTER_SILENCED] = row[S.SILENCED + k]
    for kw in range(KW_BANEFUL):  # armor, ward, counter, bypass, attack bonus (a loop index: one compiled version)
        v = keyword_with(row, ctab, q, inst, it, kw)
        if kw == KW_BYPASS:
            out[at + L.FIGHTER_BYPASS_NOW] = 1 if v > 0 else 0
        else:
            out[at + _KW_OUT[kw]] = v // 10  # Armor 20 -> 2 (the float view's Armor / 10)
    # board.strike_of: the highest X counts
    x = max(1, row[S.MOD_STRIKE + k])
    if row[S.SILENCED + k] == 0:
        x = max(x, ctab[card, C_STRIKE])
    if it >= 0:
        x = max(x, ctab[card_of(row, q, it), C_STRIKE])
    out[at + L.FIGHTER_STRIKE_NOW] = x
    out[at + L.FIGHTER_STOCK] = info[side, pos, 2]
    out[at + L.FIGHTER_STOCK_FACE_DOWN] = info[side, pos, 3]
    out[at + L.FIGHTER_MAY_EVOLVE] = 1 if row[S.SINCE_TURN + k] < row[H_TURN] else 0
    if it >= 0:
        out[at + L.FIGHTER_HAS_ITEM] = 1
        write_card(feat, card_of(row, q, it), out, at + L.FIGHTER_ITEM)


@helper
def count_zone(row: np.ndarray, q: int, zone: int, count: int, cap: int, face: int, out: np.ndarray, at: int) -> None:
    """``out[at + card] += 1`` for each of ``q``'s cards in a zone (state offsets ``zone``, ``count``, width ``cap``):
    all of them (``face`` -1), the face-down ones (0) or the face-up ones (1)."""
    for j in range(row[count + q]):
        inst = row[zone + q * cap + j]
        if face < 0 or (row[S.FACE_UP + q * S.MAX_DECK + inst] != 0) == (face == 1):
            out[at + card_of(row, q, inst)] += 1


@helper
def count_unseen(row: np.ndarray, q: int, viewer: int, out: np.ndarray, at: int) -> None:
    """``out[at + card] += 1`` for each of ``q``'s cards ``viewer`` cannot see (``unseen_cards``): the deck and the
    face-down heart cards; for the opponent also its hand, charged and face-down stock cards and a face-down Lead.
    ``hide`` keeps these counts (it re-deals the cards among those places only)."""
    count_zone(row, q, S.DECK, S.DECK_COUNT, S.MAX_DECK, -1, out, at)
    count_zone(row, q, S.HEART, S.HEART_COUNT, S.HEART_CAP, 0, out, at)
    if q == viewer:
        return
    count_zone(row, q, S.HAND, S.HAND_COUNT, S.HAND_CAP, -1, out, at)
    count_zone(row, q, S.CHARGE, S.CHARGE_COUNT, S.MAX_DECK, -1, out, at)
    count_zone(row, q, S.STOCK, S.STOCK_COUNT, S.STOCK_CAP, 0, out, at)
    lead = row[S.LEAD + q]
    if lead >= 0 and row[S.FACE_UP + q * S.MAX_DECK + lead] == 0:
        out[at + card_of(row, q, lead)] += 1


@helper
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    observe_into(row, tables, p, out, np.empty((2, S.FIELD_CAP, 4), dtype=np.int64))


@helper
def observe_into(row: np.ndarray, tables, p: int, out: np.ndarray, info: np.ndarray) -> None:
    """``observe_row`` with its scratch (``info``, see ``scan_stock``) passed in, so a batch allocates it once."""
    out[:] = 0
    if p < 0 or p > 1:  # no viewer (e.g. a finished game in a batch): all zeros
        return
    ctab = tables.cards
    feat = tables.features
    o = 1 - p
    tp = row[S.TURN_PLAYER]
    st = row[S.STEP]
    out[L.O_STEP + st] = 1
    c = L.O_CONTEXT
    out[c + L.CTX_MY_DECISION] = 1 if row[H_STATUS] == LIVE and row[H_TO_ACT] == p else 0
    out[c + L.CTX_MY_TURN] = 1 if tp == p else 0
    out[c + L.CTX_FIRST_TURN] = 1 if row[H_TURN] == 1 else 0
    out[c + L.CTX_SWAP_USED] = row[S.SWAP_USED]
    out[c + L.CTX_CLIMAX_USED] = row[S.CLIMAX_USED]
    # the window's stage at every step (0 outside a window; 9, resolving, at an effect choice): what is answered
    # next and who answers depend on it, and both players saw every Turbo and pass that set it (HB-R4..R9)
    if row[S.WIN_STAGE] < S.WIN_RESOLVING:
        out[c + L.CTX_WINDOW_ANSWER_STAGE] = row[S.WIN_STAGE]
    else:
        out[c + L.CTX_STACK_RESOLVING] = 1
    out[c + L.CTX_WINDOW_MINE] = 1 if row[S.WIN_ACTOR] == p else 0
    kind = row[S.TRIG_KIND]
    waiting = row[S.TRIG_COUNT] > 0
    out[c + L.CTX_TRIG_CALL] = 1 if kind == TR_CALL and waiting else 0
    out[c + L.CTX_TRIG_START] = 1 if kind == TR_START and waiting else 0
    out[c + L.CTX_TRIG_END] = 1 if kind == TR_END and waiting else 0
    out[c + L.CTX_TURN] = row[H_TURN]
    out[c + L.CTX_BYPASS_TARGET_PENDING] = 1 if row[S.PENDING_ACTION] >= 0 and st == S.ST_TARGET else 0
    if st == S.ST_TARGET and 0 <= row[S.PENDING_ACTION] < S.MAX_ACTIONS:  # the action its player declared (HB-K1)
        out[c + L.CTX_PENDING_ACTION + row[S.PENDING_ACTION]] = 1
    if (st == S.ST_WINDOW or st == S.ST_CHOOSE) and 0 <= row[S.RET_STEP] < S.NUM_STEPS:  # both saw it open there
        out[c + L.CTX_WINDOW_RETURN + row[S.RET_STEP]] = 1
    resolving_triggers = st == S.ST_TRIGGERS or ((st == S.ST_WINDOW or st == S.ST_CHOOSE)
                                                 and row[S.RET_STEP] == S.ST_TRIGGERS)
    if resolving_triggers and 0 <= row[S.TRIG_NEXT] < S.NUM_STEPS:  # where the turn goes on after them
        out[c + L.CTX_TRIGGERS_RETURN + row[S.TRIG_NEXT]] = 1
    # the paused effect and its kind at every step (outside an effect choice: none, 0): where the top stack entry
    # resumes and whether its next swap_lead / evolve asks are public, since both players saw the earlier effects
    out[c + L.CTX_CHOICE_SWAP] = 1 if row[S.CHOICE_KIND] == S.CH_SWAP else 0
    out[c + L.CTX_CHOICE_EVOLVE] = 1 if row[S.CHOICE_KIND] == S.CH_EVOLVE else 0
    out[c + L.CTX_RESUME_EFFECT] = row[S.RESUME_EFFECT]
    if st == S.ST_CHOOSE:
        out[c + L.CTX_CHOICE_MINE] = 1 if row[S.CHOICE_PLAYER] == p else 0
    # HB-R2: a [Counter] waits for the [X Strike] entry (both saw the attack it answers); it triggers only while its
    # fighter and the attacker are both on the field (effects.fire_counter), so only then is it shown
    cpos = field_pos(row, 1 - tp, row[S.KW_COUNTER])
    apos = field_pos(row, tp, row[S.KW_ATTACKER])
    if cpos >= 0 and apos >= 0:
        out[c + L.CTX_COUNTER_WAITING + cpos] = 1
        out[c + L.CTX_COUNTER_ATTACKER + apos] = 1
    for side in range(2):  # each side's fighters, items and stock counts (one call site: one compiled version)
        scan_stock(row, ctab, p if side == 0 else o, info, side)
    for side in range(2):
        q = p if side == 0 else o
        base = L.O_COUNTS + side * L.COUNTS_SIZE
        out[base + L.COUNT_DECK] = row[S.DECK_COUNT + q]
        out[base + L.COUNT_HAND] = row[S.HAND_COUNT + q]
        out[base + L.COUNT_HEART] = row[S.HEART_COUNT + q]
        down = 0
        top10 = max(0, row[S.HEART_COUNT + q] - S.HEART_SLOTS)  # the slots show the top 10 cards, bottom first
        for j in range(row[S.HEART_COUNT + q]):
            inst = row[S.HEART + q * S.HEART_CAP + j]
            up = row[S.FACE_UP + q * S.MAX_DECK + inst] != 0
            if not up:
                down += 1
            if j < top10:
                continue  # deeper cards: face down (hidden from both) or in public_cards' heart pile
            hat = L.O_HEART + (side * S.HEART_SLOTS + j - top10) * L.HEART_SLOT_SIZE
            out[hat + L.HEART_SLOT_PRESENT] = 1
            if up:
                out[hat + L.HEART_SLOT_FACE_UP] = 1
                write_card(feat, card_of(row, q, inst), out, hat + L.HEART_SLOT_CARD)
        out[base + L.COUNT_HEART_FACE_DOWN] = down
        out[base + L.COUNT_CHARGE] = row[S.CHARGE_COUNT + q]
        out[base + L.COUNT_DISCARD] = row[S.DISCARD_COUNT + q]
        out[base + L.COUNT_BACKUP] = row[S.BACKUP_COUNT + q]
        out[base + L.COUNT_STOCK] = row[S.STOCK_COUNT + q]
        out[base + L.COUNT_ON_STACK] = row[S.RESOLVING_COUNT + q]
        pub = L.O_PUBLIC_CARDS + side * L.NUM_PILES * S.POOL_CAP  # by card id (the piles' order is not kept)
        count_zone(row, q, S.DISCARD, S.DISCARD_COUNT, S.MAX_DECK, -1, out, pub + L.PILE_DISCARD * S.POOL_CAP)
        count_zone(row, q, S.STOCK, S.STOCK_COUNT, S.STOCK_CAP, 1, out, pub + L.PILE_STOCK * S.POOL_CAP)
        count_zone(row, q, S.HEART, S.HEART_COUNT, S.HEART_CAP, 1, out, pub + L.PILE_HEART * S.POOL_CAP)
        # what else the viewer knows of q's cards, by card id: each fighter's stock (face-down cards to their owner
        # only, HB-I15), the own charged cards (HB-C8), and the cards it cannot see (its deck list minus the rest)
        for j in range(row[S.STOCK_COUNT + q]):
            inst = row[S.STOCK + q * S.STOCK_CAP + j]
            if q != p and row[S.FACE_UP + q * S.MAX_DECK + inst] == 0:
                continue
            host = row[S.STOCK_HOST + q * S.MAX_DECK + inst]
            for pos in range(S.FIELD_CAP):
                if host >= 0 and info[side, pos, 0] == host:
                    out[L.O_STOCK_CARDS + (side * S.FIELD_CAP + pos) * S.POOL_CAP + card_of(row, q, inst)] += 1
                    break
        if q == p:
            count_zone(row, q, S.CHARGE, S.CHARGE_COUNT, S.MAX_DECK, -1, out, L.O_CHARGED_CARDS)
        count_unseen(row, q, p, out, L.O_UNSEEN_CARDS + side * S.POOL_CAP)
        for pos in range(S.FIELD_CAP):
            inst = info[side, pos, 0]
            if inst < 0:
                continue
            at = L.O_FIELD + (side * S.FIELD_CAP + pos) * L.FIGHTER_SIZE
            if q == p or row[S.FACE_UP + q * S.MAX_DECK + inst] != 0:
                write_fighter(row, tables, q, pos, info, side, out, at)
            else:  # the opponent's face-down Lead during setup: present, nothing else
                out[at + L.FIGHTER_CARD + L.CARD_PRESENT] = 1
    for i in range(min(row[S.HAND_COUNT + p], S.HAND_SLOTS)):  # board.hand_window: every distinct card is here
        write_card(feat, card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), out, L.O_HAND + i * L.CARD_SIZE)
    for j in range(row[S.STACK_COUNT]):
        b = S.STACK + j * S.NUM_STACK_COLS
        at = L.O_STACK + j * L.STACK_ENTRY_SIZE
        q = row[b + S.SK_PLAYER]
        out[at + L.STACK_ENTRY_PRESENT] = 1
        out[at + L.STACK_ENTRY_KIND + row[b + S.SK_KIND]] = 1
        out[at + L.STACK_ENTRY_MINE] = 1 if q == p else 0
        out[at + L.STACK_ENTRY_CANCELLED] = row[b + S.SK_CANCEL]
        out[at + L.STACK_ENTRY_INDEX] = row[b + S.SK_INDEX]
        t = row[b + S.SK_TARGET]
        if t >= 0:
            for pos in range(S.FIELD_CAP):
                if field_at(row, 1 - q, pos) == t:
                    out[at + L.STACK_ENTRY_TARGET + pos] = 1
        if row[b + S.SK_KIND] != S.K_PHASE and row[b + S.SK_INST] >= 0:
            write_card(feat, card_of(row, q, row[b + S.SK_INST]), out, at + L.STACK_ENTRY_CARD)
    for j in range(row[S.TRIG_COUNT]):
        b = S.TRIG + j * S.NUM_TRIG_COLS
        q = row[b + S.TQ_PLAYER]
        at = L.O_TRIGGERS + j * L.TRIGGER_SIZE
        out[at + L.TRIGGER_PRESENT] = 1
        out[at + L.TRIGGER_MINE] = 1 if q == p else 0
        write_card(feat, card_of(row, q, row[b + S.TQ_INST]), out, at + L.TRIGGER_CARD)
    if st == S.ST_SETUP_LEAD and row[S.SETUP_PLAYER] == p and row[H_STATUS] == LIVE:
        # the player looks through its own deck: each distinct Lead-capable card, at the instance its action names
        base = S.DECK + p * S.MAX_DECK
        for j in range(row[S.DECK_COUNT + p]):
            inst = row[base + j]
            card = card_of(row, p, inst)
            if ctab[card, C_LEAD_OK] == 0:
                continue
            first = True
            for k in range(j):
                if card_of(row, p, row[base + k]) == card:
                    first = False
                    break
            if not first or inst >= S.LEAD_SLOTS:  # (never the latter: reset_row orders first copies first)
                continue
            at = L.O_LEAD_OPTIONS + inst * L.LEAD_OPTION_SIZE
            out[at + L.LEAD_OPT_OFFERED] = 1
            out[at + L.LEAD_OPT_LEVEL] = ctab[card, C_LEVEL]
            out[at + L.LEAD_OPT_HP] = ctab[card, C_HP] // 10
            out[at + L.LEAD_OPT_ARMOR] = ctab[card, C_ARMOR] // 10
            out[at + L.LEAD_OPT_WARD] = ctab[card, C_WARD] // 10
            out[at + L.LEAD_OPT_COUNTER] = ctab[card, C_COUNTER] // 10
            out[at + L.LEAD_OPT_STRIKE] = ctab[card, C_STRIKE]
            out[at + L.LEAD_OPT_BYPASS] = ctab[card, C_BYPASS]
            out[at + L.LEAD_OPT_ACTION1_DAMAGE] = ctab[card, C_ACT_DMG] // 10
            out[at + L.LEAD_OPT_CARD_ID] = card + 1


@njit(cache=True, inline="always")
def observe_scratch() -> np.ndarray:
    """``observe_into``'s scratch (``info``): the batch kernels (_kernels.py) allocate it once a batch."""
    return np.empty((2, S.FIELD_CAP, 4), dtype=np.int64)
