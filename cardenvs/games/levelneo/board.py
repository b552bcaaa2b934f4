"""Board primitives over one state row: zone moves and simple queries (Numba, no rules decisions here)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.jit import helper
from cardenvs.core.zones import ZONE_FULL, zone_add, zone_draw, zone_find, zone_pop, zone_push, zone_remove  # noqa: F401  (re-exported to this game's modules)

from .tables import C_COLOR, C_TRAITS
from . import state as S


@helper
def card_of(row: np.ndarray, p: int, inst: int) -> int:
    return row[S.DECK_LIST + p * S.DECK_SIZE + inst]


@helper
def level_of(row: np.ndarray, p: int) -> int:
    """LN-L1: level = cards in the level zone + 1."""
    return row[S.LEVEL_COUNT + p] + 1


@helper
def main_of(row: np.ndarray, p: int) -> int:
    return row[S.MAIN + p]


@helper
def support_at(row: np.ndarray, p: int, slot: int) -> int:
    return row[S.SUPPORT + p * S.SUPPORT_CAP + slot]


@helper
def clear_instance(row: np.ndarray, p: int, inst: int) -> None:
    """A card leaving the field forgets its state (rest, modifiers)."""
    k = p * S.DECK_SIZE + inst
    row[S.RESTED + k] = 0
    row[S.ATTACKED + k] = 0
    row[S.AP_TURN + k] = 0
    row[S.AP_NEXT + k] = 0
    row[S.AP_BATTLE + k] = 0


@helper
def to_discard(row: np.ndarray, p: int, inst: int) -> None:
    clear_instance(row, p, inst)
    row[S.FACE_UP + p * S.DECK_SIZE + inst] = 1  # the discard pile is public
    zone_push(row, S.DISCARD, S.DISCARD_COUNT, S.DECK_SIZE, p, inst)


@helper
def pop_deck(row: np.ndarray, p: int) -> int:
    """The top card of the deck (-1 when empty)."""
    return zone_pop(row, S.DECK, S.DECK_COUNT, S.DECK_SIZE, p)


@helper
def draw(row: np.ndarray, p: int) -> None:
    """The top card of the deck to the hand (nothing from an empty deck)."""
    inst = zone_draw(row, S.DECK, S.DECK_COUNT, S.DECK_SIZE, S.HAND, S.HAND_COUNT, S.HAND_CAP, p)
    if inst >= 0:
        row[S.DRAWN + p * S.DECK_SIZE + inst] = 1
    elif inst == ZONE_FULL:  # LN-D5's physical cap, for an unchecked deck: the card is discarded instead
        to_discard(row, p, pop_deck(row, p))


@helper
def deck_to_bottom(row: np.ndarray, p: int, inst: int) -> None:
    base = S.DECK + p * S.DECK_SIZE
    n = row[S.DECK_COUNT + p]
    for j in range(n, 0, -1):
        row[base + j] = row[base + j - 1]
    row[base] = inst
    row[S.DECK_COUNT + p] = n + 1


@helper
def level_up(row: np.ndarray, p: int) -> None:
    """LN-L2, LN-L6: top card of the deck face down into the level zone; nothing at level 5 or on an empty deck."""
    if row[S.LEVEL_COUNT + p] >= S.LEVEL_CAP or row[S.DECK_COUNT + p] == 0:
        return
    inst = pop_deck(row, p)
    row[S.FACE_UP + p * S.DECK_SIZE + inst] = 0
    zone_push(row, S.LEVEL, S.LEVEL_COUNT, S.LEVEL_CAP, p, inst)


@helper
def level_down_at(row: np.ndarray, p: int, k: int) -> None:
    """LN-L3: the chosen level card goes to the discard pile."""
    inst = zone_remove(row, S.LEVEL, S.LEVEL_COUNT, S.LEVEL_CAP, p, k)
    to_discard(row, p, inst)


@helper
def discard_support(row: np.ndarray, p: int, inst: int) -> None:
    k = zone_find(row, S.SUPPORT, S.SUPPORT_COUNT, S.SUPPORT_CAP, p, inst)
    if k >= 0:
        zone_remove(row, S.SUPPORT, S.SUPPORT_COUNT, S.SUPPORT_CAP, p, k)
        to_discard(row, p, inst)


@helper
def is_rested(row: np.ndarray, p: int, inst: int) -> bool:
    return row[S.RESTED + p * S.DECK_SIZE + inst] != 0


@helper
def is_attacker(row: np.ndarray, p: int, inst: int) -> bool:
    return (row[S.BATTLE] != 0 and p == row[S.TURN_PLAYER] and inst >= 0
            and (inst == row[S.ATK_A] or inst == row[S.ATK_B]))


@helper
def is_defender(row: np.ndarray, p: int, inst: int) -> bool:
    return row[S.BATTLE] != 0 and p != row[S.TURN_PLAYER] and inst >= 0 and inst == row[S.TARGET]


@helper
def in_battle(row: np.ndarray, p: int, inst: int) -> bool:
    return is_attacker(row, p, inst) or is_defender(row, p, inst)


@helper
def has_color(row: np.ndarray, ctab: np.ndarray, p: int, color: int) -> bool:
    """LN-D4: colour cost is met when a character of that colour is on the owner's field."""
    if ctab[card_of(row, p, row[S.MAIN + p]), C_COLOR] == color:
        return True
    for s in range(row[S.SUPPORT_COUNT + p]):
        if ctab[card_of(row, p, support_at(row, p, s)), C_COLOR] == color:
            return True
    return False


@helper
def has_trait(row: np.ndarray, ctab: np.ndarray, p: int, mask: int) -> bool:
    if ctab[card_of(row, p, row[S.MAIN + p]), C_TRAITS] & mask:
        return True
    for s in range(row[S.SUPPORT_COUNT + p]):
        if ctab[card_of(row, p, support_at(row, p, s)), C_TRAITS] & mask:
            return True
    return False
