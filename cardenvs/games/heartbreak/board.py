"""Board primitives over one heartbreak state row: zone moves, fighter stats, costs, heart breaks (Numba).

No flow decisions here: ``rules.py`` decides what happens when, ``effects.py`` what a card's text does.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.jit import helper
from cardenvs.core.zones import zone_add, zone_pop, zone_push, zone_remove

from .tables import (
    C_ARMOR,
    C_ATTACK,
    C_BANEFUL,
    C_BYPASS,
    C_COUNTER,
    C_HP,
    C_STRIKE,
    C_TYPE,
    C_WARD,
    TYPE_ITEM,
)
from . import state as S

MIN_REDUCED_HP = 10  # fighters print at least 10 HP, so an HP reduction (Baneful) stops at 10


@helper
def card_of(row: np.ndarray, p: int, inst: int) -> int:
    return row[S.DECK_LIST + p * S.MAX_DECK + inst]


# ---------------------------------------------------------------------------------------------------- zones
@helper
def clear_instance(row: np.ndarray, p: int, inst: int) -> None:
    """A card leaving the field forgets its fighter state (HB-B9: damage stays only while on the field)."""
    k = p * S.MAX_DECK + inst
    row[S.DAMAGE + k] = 0
    row[S.RESTED + k] = 0
    row[S.ACTED + k] = 0
    row[S.SKILLS_USED + k] = 0
    row[S.STOCK_HOST + k] = -1
    row[S.MOD_ARMOR + k] = 0
    row[S.MOD_WARD + k] = 0
    row[S.MOD_COUNTER + k] = 0
    row[S.MOD_HP + k] = 0
    row[S.MOD_ATTACK + k] = 0
    row[S.MOD_STRIKE + k] = 0
    row[S.MOD_BYPASS + k] = 0
    row[S.SILENCED + k] = 0
    row[S.SINCE_TURN + k] = 0


@helper
def to_discard(row: np.ndarray, p: int, inst: int) -> None:
    clear_instance(row, p, inst)
    row[S.FACE_UP + p * S.MAX_DECK + inst] = 1  # the discard pile is public
    zone_push(row, S.DISCARD, S.DISCARD_COUNT, S.MAX_DECK, p, inst)


@helper
def hand_slots(row: np.ndarray, p: int) -> int:
    """Hand places the actions address and the observation shows: the first ``HAND_SLOTS`` (see hand_window)."""
    return min(row[S.HAND_COUNT + p], S.HAND_SLOTS)


@helper
def hand_window(row: np.ndarray, p: int) -> None:
    """HB-E3 (no hand limit) with 60 addressable hand slots: a hand of more than ``HAND_SLOTS`` cards is ordered so
    that every distinct card in it has a copy among the first ``HAND_SLOTS`` places. A pool has at most
    ``MAX_TITLES = HAND_SLOTS`` titles, so while a card is missing there the first places hold a duplicate to trade
    with; copies of a card are interchangeable in hand, so every play the rules allow stays an action."""
    n = row[S.HAND_COUNT + p]
    if n <= S.HAND_SLOTS:
        return
    base = S.HAND + p * S.HAND_CAP
    for j in range(S.HAND_SLOTS, n):
        c = card_of(row, p, row[base + j])
        shown = False
        for i in range(S.HAND_SLOTS):
            if card_of(row, p, row[base + i]) == c:
                shown = True
                break
        if shown:
            continue
        for i in range(S.HAND_SLOTS):
            ci = card_of(row, p, row[base + i])
            dup = False
            for k in range(S.HAND_SLOTS):
                if k != i and card_of(row, p, row[base + k]) == ci:
                    dup = True
                    break
            if dup:
                inst = row[base + i]
                row[base + i] = row[base + j]
                row[base + j] = inst
                break


@helper
def add_to_hand(row: np.ndarray, p: int, inst: int) -> None:
    if not zone_add(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, inst):  # never: the hand holds every card (HB-E3)
        to_discard(row, p, inst)
        return
    row[S.FACE_UP + p * S.MAX_DECK + inst] = 0
    row[S.DRAWN + p * S.MAX_DECK + inst] = 1


@helper
def pop_deck(row: np.ndarray, p: int) -> int:
    """The top card of the deck (-1 when empty)."""
    return zone_pop(row, S.DECK, S.DECK_COUNT, S.MAX_DECK, p)


@helper
def draw(row: np.ndarray, p: int) -> None:
    """HB-V4: drawing from an empty deck draws nothing."""
    inst = pop_deck(row, p)
    if inst >= 0:
        add_to_hand(row, p, inst)  # its flags and its never-reached full-hand case (HB-E3) in one place


@helper
def charge_card(row: np.ndarray, p: int, inst: int) -> None:
    """HB-C1: into the charge zone, face down (HB-C8: the opponent sees the count only)."""
    row[S.FACE_UP + p * S.MAX_DECK + inst] = 0
    zone_push(row, S.CHARGE, S.CHARGE_COUNT, S.MAX_DECK, p, inst)


@helper
def heart_push(row: np.ndarray, p: int, inst: int) -> bool:
    if row[S.HEART_COUNT + p] >= S.HEART_CAP:  # never: the heart holds every card of the deck (HB-H10)
        return False
    row[S.FACE_UP + p * S.MAX_DECK + inst] = 0
    zone_push(row, S.HEART, S.HEART_COUNT, S.HEART_CAP, p, inst)
    return True


# ---------------------------------------------------------------------------------------------------- field
@helper
def lead_of(row: np.ndarray, p: int) -> int:
    return row[S.LEAD + p]


@helper
def backup_at(row: np.ndarray, p: int, slot: int) -> int:
    return row[S.BACKUP + p * S.BACKUP_CAP + slot]


@helper
def field_at(row: np.ndarray, p: int, pos: int) -> int:
    """Field position ``pos``: 0 the Lead, 1..3 Back-Up slots; -1 when empty."""
    if pos == 0:
        return row[S.LEAD + p]
    if pos - 1 < row[S.BACKUP_COUNT + p]:
        return row[S.BACKUP + p * S.BACKUP_CAP + pos - 1]
    return -1


@helper
def field_count(row: np.ndarray, p: int) -> int:
    return (1 if row[S.LEAD + p] >= 0 else 0) + row[S.BACKUP_COUNT + p]


@helper
def field_pos(row: np.ndarray, p: int, inst: int) -> int:
    """Position of ``inst`` on p's field, or -1 when it is not a fighter on the field."""
    if inst < 0:
        return -1
    if row[S.LEAD + p] == inst:
        return 0
    for s in range(row[S.BACKUP_COUNT + p]):
        if row[S.BACKUP + p * S.BACKUP_CAP + s] == inst:
            return 1 + s
    return -1


@helper
def is_rested(row: np.ndarray, p: int, inst: int) -> bool:
    return row[S.RESTED + p * S.MAX_DECK + inst] != 0


# ---------------------------------------------------------------------------------------------------- stats
@helper
def item_of(row: np.ndarray, ctab: np.ndarray, p: int, inst: int) -> int:
    """The face-up item card in ``inst``'s stock (HB-I13: at most one), or -1."""
    for j in range(row[S.STOCK_COUNT + p]):
        s = row[S.STOCK + p * S.STOCK_CAP + j]
        if row[S.STOCK_HOST + p * S.MAX_DECK + s] == inst and row[S.FACE_UP + p * S.MAX_DECK + s] != 0 \
                and ctab[card_of(row, p, s), C_TYPE] == TYPE_ITEM:
            return s
    return -1


@helper
def stock_size(row: np.ndarray, p: int, inst: int) -> int:
    n = 0
    for j in range(row[S.STOCK_COUNT + p]):
        if row[S.STOCK_HOST + p * S.MAX_DECK + row[S.STOCK + p * S.STOCK_CAP + j]] == inst:
            n += 1
    return n


@helper
def keyword(row: np.ndarray, ctab: np.ndarray, p: int, inst: int, col: int, mod: int) -> int:
    """Sum of a numeric keyword: printed (unless silenced), the face-up item's, and until-end-of-turn buffs
    (HB-K2/K3/K6/K9: instances add up; HB-I16: face-up stock is active)."""
    k = p * S.MAX_DECK + inst
    v = row[mod + k] if mod >= 0 else 0
    if row[S.SILENCED + k] == 0:
        v += ctab[card_of(row, p, inst), col]
    it = item_of(row, ctab, p, inst)
    if it >= 0:
        v += ctab[card_of(row, p, it), col]
    return v


@helper
def armor_of(row, ctab, p, inst):
    return keyword(row, ctab, p, inst, C_ARMOR, S.MOD_ARMOR)


@helper
def ward_of(row, ctab, p, inst):
    return keyword(row, ctab, p, inst, C_WARD, S.MOD_WARD)


@helper
def counter_of(row, ctab, p, inst):
    return keyword(row, ctab, p, inst, C_COUNTER, S.MOD_COUNTER)


@helper
def baneful_of(row, ctab, p, inst):
    return keyword(row, ctab, p, inst, C_BANEFUL, -1)


@helper
def attack_bonus(row, ctab, p, inst):
    return keyword(row, ctab, p, inst, C_ATTACK, S.MOD_ATTACK)


@helper
def strike_of(row: np.ndarray, ctab: np.ndarray, p: int, inst: int) -> int:
    """HB-K11: several [X Strike] instances: the highest X counts."""
    k = p * S.MAX_DECK + inst
    x = max(1, row[S.MOD_STRIKE + k])
    if row[S.SILENCED + k] == 0:
        x = max(x, ctab[card_of(row, p, inst), C_STRIKE])
    it = item_of(row, ctab, p, inst)
    if it >= 0:
        x = max(x, ctab[card_of(row, p, it), C_STRIKE])
    return x


@helper
def has_bypass(row: np.ndarray, ctab: np.ndarray, p: int, inst: int) -> bool:
    return keyword(row, ctab, p, inst, C_BYPASS, S.MOD_BYPASS) > 0


@helper
def baneful_total(row: np.ndarray, ctab: np.ndarray, q: int) -> int:
    """HB-K9: every [Baneful] of q's fighters on the field (Lead or Back-Up) adds up."""
    total = 0
    for pos in range(1 + S.BACKUP_CAP):
        inst = field_at(row, q, pos)
        if inst >= 0:
            total += baneful_of(row, ctab, q, inst)
    return total


@helper
def hp_of(row: np.ndarray, ctab: np.ndarray, p: int, inst: int) -> int:
    """Current HP: printed + item + buffs, less the opponent's [Baneful] while in the Lead (HB-K7); a reduction
    never takes HP below 10 (HB-K8)."""
    base = ctab[card_of(row, p, inst), C_HP]
    up = 0
    down = 0
    mod = row[S.MOD_HP + p * S.MAX_DECK + inst]
    if mod > 0:
        up += mod
    else:
        down -= mod
    it = item_of(row, ctab, p, inst)
    if it >= 0:
        up += ctab[card_of(row, p, it), C_HP]
    if row[S.LEAD + p] == inst:
        down += baneful_total(row, ctab, 1 - p)
    hp = base + up - down
    if down > 0 and hp < MIN_REDUCED_HP:
        hp = MIN_REDUCED_HP
    return hp


@helper
def is_ko(row: np.ndarray, ctab: np.ndarray, p: int, inst: int) -> bool:
    """HB-B10: damage equal to or above HP. HP is never below 10 (fighters print 10 or more, HB-K8 stops reductions
    at 10), so less damage is never a KO: the common case skips ``hp_of``'s stock scans (this runs at every forced
    step)."""
    damage = row[S.DAMAGE + p * S.MAX_DECK + inst]
    if damage < MIN_REDUCED_HP:
        return False
    return damage >= hp_of(row, ctab, p, inst)


# ---------------------------------------------------------------------------------------------------- heart, costs
@helper
def face_down_heart(row: np.ndarray, p: int) -> int:
    """Index in the heart stack of the top-most face-down card (HB-H8), or -1."""
    for j in range(row[S.HEART_COUNT + p] - 1, -1, -1):
        if row[S.FACE_UP + p * S.MAX_DECK + row[S.HEART + p * S.HEART_CAP + j]] == 0:
            return j
    return -1


@helper
def overdrive(row: np.ndarray, p: int) -> bool:
    """HB-H7: flip the next face-down heart card face up; False when there is none."""
    j = face_down_heart(row, p)
    if j < 0:
        return False
    row[S.FACE_UP + p * S.MAX_DECK + row[S.HEART + p * S.HEART_CAP + j]] = 1
    return True


@helper
def break_heart(row: np.ndarray, p: int) -> None:
    """One break (HB-H2..H4, H6): the top heart card goes to hand (face down) or the discard pile (face up); a
    break on an empty heart marks p as lost."""
    n = row[S.HEART_COUNT + p]
    if n == 0:
        row[S.LOST + p] = 1
        return
    inst = zone_remove(row, S.HEART, S.HEART_COUNT, S.HEART_CAP, p, n - 1)
    if row[S.FACE_UP + p * S.MAX_DECK + inst] != 0:
        to_discard(row, p, inst)
    else:
        add_to_hand(row, p, inst)


@helper
def pay(row: np.ndarray, p: int, cost: int, od: int) -> None:
    """HB-C2/C3: Discharge N (the oldest charged cards; which ones cannot matter, see RULES.md), then Overdrive."""
    for _ in range(cost):
        to_discard(row, p, zone_remove(row, S.CHARGE, S.CHARGE_COUNT, S.MAX_DECK, p, 0))
    if od != 0:
        overdrive(row, p)
