"""Board primitives over one state row: zone moves, attachments, draws, damage and the KO check (Numba)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.header import DRAW
from cardenvs.core.jit import helper
from cardenvs.core.turns import finish
from cardenvs.core.zones import zone_pop, zone_push, zone_remove

from .vocab import C_HP, C_HP_UP, C_RETREAT, C_RETREAT_DOWN
from . import state as S


# ---------------------------------------------------------------------------------------------------- zones
@helper
def card_of(row: np.ndarray, p: int, inst: int) -> int:
    return row[S.DECK_LIST + p * S.DECK_SIZE + inst]


@helper
def main_of(row: np.ndarray, p: int) -> int:
    return row[S.MAIN + p]


@helper
def standby_at(row: np.ndarray, p: int, s: int) -> int:
    return row[S.STANDBY + p * S.STANDBY_CAP + s]


@helper
def unit_at(row: np.ndarray, p: int, j: int) -> int:
    """Unit at position ``j`` (0 the Main Area, 1..3 the Standby slots), -1 if empty."""
    if j == S.POS_MAIN:
        return row[S.MAIN + p]
    if j - 1 < row[S.STANDBY_COUNT + p]:
        return row[S.STANDBY + p * S.STANDBY_CAP + j - 1]
    return -1


@helper
def to_discard(row: np.ndarray, p: int, inst: int) -> None:
    """DC-U7: a discarded card goes face up into its owner's discard pile."""
    k = p * S.DECK_SIZE + inst
    row[S.FACE_UP + k] = 1
    row[S.HOST + k] = -1
    zone_push(row, S.DISCARD, S.DISCARD_COUNT, S.DECK_SIZE, p, inst)


@helper
def add_to_hand(row: np.ndarray, p: int, inst: int) -> None:
    zone_push(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, inst)
    row[S.FACE_UP + p * S.DECK_SIZE + inst] = 0
    row[S.DRAWN + p * S.DECK_SIZE + inst] = 1


@helper
def pop_deck(row: np.ndarray, p: int) -> int:
    """The top card of the deck (-1 when empty)."""
    return zone_pop(row, S.DECK, S.DECK_COUNT, S.DECK_SIZE, p)


# ---------------------------------------------------------------------------------------------------- attachments
@helper
def count_attached(row: np.ndarray, zone: int, count: int, p: int, unit: int) -> int:
    n = 0
    for j in range(row[count + p]):
        if row[S.HOST + p * S.DECK_SIZE + row[zone + p * S.DECK_SIZE + j]] == unit:
            n += 1
    return n


@helper
def energy_of(row: np.ndarray, p: int, unit: int) -> int:
    """DC-C3: each attached Energy card counts as 1 Energy."""
    return count_attached(row, S.ENERGY, S.ENERGY_COUNT, p, unit)


@helper
def assist_sum(row: np.ndarray, ctab: np.ndarray, p: int, unit: int, col: int) -> int:
    """Sum of a card-table column over the Assists attached to ``unit``."""
    total = 0
    for j in range(row[S.ASSIST_COUNT + p]):
        inst = row[S.ASSIST + p * S.DECK_SIZE + j]
        if row[S.HOST + p * S.DECK_SIZE + inst] == unit:
            total += ctab[card_of(row, p, inst), col]
    return total


@helper
def unit_hp(row: np.ndarray, ctab: np.ndarray, p: int, unit: int) -> int:
    return ctab[card_of(row, p, unit), C_HP] + assist_sum(row, ctab, p, unit, C_HP_UP)


@helper
def retreat_cost(row: np.ndarray, ctab: np.ndarray, p: int, unit: int) -> int:
    return max(0, ctab[card_of(row, p, unit), C_RETREAT] - assist_sum(row, ctab, p, unit, C_RETREAT_DOWN))


@helper
def attach(row: np.ndarray, zone: int, count: int, p: int, unit: int, inst: int) -> None:
    row[S.HOST + p * S.DECK_SIZE + inst] = unit
    row[S.FACE_UP + p * S.DECK_SIZE + inst] = 1
    zone_push(row, zone, count, S.DECK_SIZE, p, inst)


@helper
def discard_energy(row: np.ndarray, p: int, unit: int, n: int) -> int:
    """Discard up to ``n`` Energy from ``unit``, the highest card id first (among copies of one card, the most
    recently attached); returns how many. Energy is untyped (DC-C3), so which cards go changes only the discard
    pile's card ids; picking by card id makes them depend on which cards the Unit holds, which every observation
    shows, and not on the order they were attached in, which none does."""
    done = 0
    while done < n:
        best, best_card = -1, -1
        for j in range(row[S.ENERGY_COUNT + p] - 1, -1, -1):
            inst = row[S.ENERGY + p * S.DECK_SIZE + j]
            card = row[S.DECK_LIST + p * S.DECK_SIZE + inst]
            if row[S.HOST + p * S.DECK_SIZE + inst] == unit and card > best_card:
                best, best_card = j, card
        if best < 0:
            break
        inst = row[S.ENERGY + p * S.DECK_SIZE + best]
        zone_remove(row, S.ENERGY, S.ENERGY_COUNT, S.DECK_SIZE, p, best)
        to_discard(row, p, inst)
        done += 1
    return done


@helper
def discard_attached(row: np.ndarray, p: int, unit: int) -> None:
    """DC-O4: every Energy and Assist attached to ``unit`` goes to the discard pile."""
    for zone, count in ((S.ENERGY, S.ENERGY_COUNT), (S.ASSIST, S.ASSIST_COUNT)):
        j = row[count + p] - 1
        while j >= 0:
            inst = row[zone + p * S.DECK_SIZE + j]
            if row[S.HOST + p * S.DECK_SIZE + inst] == unit:
                zone_remove(row, zone, count, S.DECK_SIZE, p, j)
                to_discard(row, p, inst)
            j -= 1


# ---------------------------------------------------------------------------------------------------- draws, damage
@helper
def deal(row: np.ndarray, p: int, unit: int, amount: int) -> None:
    """DC-U6: damage stays on a unit and adds up."""
    if unit >= 0 and amount > 0:
        row[S.DAMAGE + p * S.DECK_SIZE + unit] += amount


@helper
def deck_out(row: np.ndarray, p: int) -> None:
    """DC-T3: 100 damage to your own Main Unit for a card you cannot draw (none while no Main Unit is there)."""
    deal(row, p, row[S.MAIN + p], S.DECKOUT_DAMAGE)


@helper
def draw_cards(row: np.ndarray, p: int, n: int) -> None:
    """DC-T3/T4: every draw; an empty deck deals deck-out damage per card instead (not a loss by itself)."""
    for _ in range(n):
        inst = pop_deck(row, p)
        if inst < 0:
            deck_out(row, p)
        else:
            add_to_hand(row, p, inst)


@helper
def charge_unit(row: np.ndarray, p: int, unit: int) -> None:
    """DC-C2: the top card of the deck becomes 1 Energy on ``unit``; from an empty deck it is a failed draw."""
    inst = pop_deck(row, p)
    if inst < 0:
        deck_out(row, p)
    else:
        attach(row, S.ENERGY, S.ENERGY_COUNT, p, unit, inst)


@helper
def clear_conditions(row: np.ndarray, p: int) -> None:
    """DC-N5: conditions belong to the Main Unit and end when it leaves the Main Area."""
    row[S.STUNNED + p] = 0
    row[S.POISONED + p] = 0


@helper
def ko_unit(row: np.ndarray, p: int, unit: int) -> None:
    """DC-O3/O4: the unit goes face up into its owner's KO Zone; its attachments are discarded."""
    discard_attached(row, p, unit)
    k = p * S.DECK_SIZE + unit
    row[S.DAMAGE + k] = 0
    row[S.BOOST + k] = 0
    row[S.GUARD + k] = 0
    row[S.FACE_UP + k] = 1
    if row[S.KO_COUNT + p] < S.KO_CAP:
        zone_push(row, S.KO, S.KO_COUNT, S.KO_CAP, p, unit)
    else:  # never reached: the game ends at the third KO (kept for conservation)
        zone_push(row, S.DISCARD, S.DISCARD_COUNT, S.DECK_SIZE, p, unit)


@helper
def check_ko(row: np.ndarray, ctab: np.ndarray) -> None:
    """DC-O1..O7, DC-V1..V3: KO every unit whose damage >= HP, flag the Main Area refills, decide the game.

    Called after anything that can deal damage (DC-O2). Both players are checked at once, so two losing states
    reached by one action make a draw (DC-V3).
    """
    tp = row[S.TURN_PLAYER]
    for side in range(2):
        p = tp if side == 0 else 1 - tp
        m = row[S.MAIN + p]
        if m >= 0 and row[S.DAMAGE + p * S.DECK_SIZE + m] >= unit_hp(row, ctab, p, m):
            row[S.MAIN + p] = -1
            clear_conditions(row, p)
            ko_unit(row, p, m)
            row[S.PROMOTE] |= 1 << p
        s = 0
        while s < row[S.STANDBY_COUNT + p]:
            u = standby_at(row, p, s)
            if row[S.DAMAGE + p * S.DECK_SIZE + u] >= unit_hp(row, ctab, p, u):
                zone_remove(row, S.STANDBY, S.STANDBY_COUNT, S.STANDBY_CAP, p, s)
                ko_unit(row, p, u)
            else:
                s += 1
    lose0 = row[S.KO_COUNT] >= S.KO_LIMIT or (row[S.MAIN] < 0 and row[S.STANDBY_COUNT] == 0)
    lose1 = row[S.KO_COUNT + 1] >= S.KO_LIMIT or (row[S.MAIN + 1] < 0 and row[S.STANDBY_COUNT + 1] == 0)
    if lose0 or lose1:
        row[S.PROMOTE] = 0
        finish(row, DRAW if (lose0 and lose1) else (1 if lose0 else 0))


@helper
def promote(row: np.ndarray, p: int, s: int) -> None:
    """DC-O5/O6/R4: the chosen Standby Unit moves up into the empty Main Area (not a retreat)."""
    u = zone_remove(row, S.STANDBY, S.STANDBY_COUNT, S.STANDBY_CAP, p, s)
    row[S.MAIN + p] = u
    row[S.PROMOTE] &= ~(1 << p)
