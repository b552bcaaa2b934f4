"""simulfight rules as Numba kernels over one state row, and the four batch wrappers of the core contract.

A round is Start (automatic: draw, gold, shields/swords, next-round changes), Defend and Attack. In Defend and
Attack both players build a plan at once, one decision at a time (see actions.py for the action ranges):

* ``done`` ends the plan; legal only when none of the player's mandatory abilities can be paid (SF-D4, SF-A1);
* ``play i`` (Defend only) plays hand card ``i`` for its gold, then resolves its PLAY ability (SF-D1..D3);
* ``use i`` uses the phase's ability (DEFEND or ATTACK) of unit ``i`` in play, paying its cost (SF-C1);
* ``ally i`` / ``foe i`` answer the sub-decisions: which ally pays a health cost (SF-C2), which unit an effect
  targets. A choice with a single candidate is made automatically; a plan closes by itself only when public
  information shows it holds no decision (``has_choice``; so whether a player gets to plan never depends on the
  contents of its hand), otherwise the player closes it with ``done``.

A plan changes only its own side at once; effects on the other side wait in that side's ``in_*`` fields and land
when both plans are done (``resolve_phase``; the order is written in RULES.md, SF-E5). Then units at 0 or less are
discarded and the game may end (SF-E1, SF-E2). Player 0's and player 1's decisions therefore commute: any
interleaving of the two plans gives the same row, which is what lets the AEC env (player_0's plan, then player_1's)
and the parallel env (both at once) play the same game. Chance (shuffles) only happens in the Start phase.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types as _nt, void

from cardenvs.core.header import (
    DRAW, H_DECISIONS, H_NEEDS, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, NO_WINNER, TERMINATED, TRUNCATED,
)
from cardenvs.core.rng import rng_seed, shuffle_slice

from .actions import A_ALLY, A_DONE, A_FOE, A_PLAY, A_USE, NUM_ACTIONS
from .cards import (
    C_COST, C_COST_AMOUNT, C_GOLD, C_HEALTH, C_N, COST_GOLD, COST_NONE, COST_SHIELDS, COST_SWORDS,
    COST_UNIT_HEALTH, E_COND, E_TARGET, E_THRESHOLD, TG_ONE_ALLY, TG_ONE_FOE,
)
from .effects import apply_entry, count_candidates, entry_condition_holds, is_candidate
from .state import (
    NB_BOOL, NB_CARDS, NB_EFFECTS, NB_INT, NB_PAIR, NB_ROW,
    DRAW_PER_ROUND, GOLD_PER_ROUND, LOC_DECK, LOC_DISCARD, LOC_HAND, LOC_PLAY, MAX_DECK, O_CUR_ENTRY, O_CUR_INST,
    O_CUR_TRIGGER, O_DECK, O_DECK_COUNT, O_DECK_LIST, O_DECK_SIZE, O_DISCARD, O_DISCARD_COUNT, O_DRAWN, O_HAND,
    O_HAND_COUNT, O_HEALTH, O_IN_DAMAGE, O_IN_NEXT, O_IN_PLAYER_DAMAGE, O_IN_RES, O_IN_STUN, O_LOC, O_NEXT,
    O_PHASE, O_PLAN_OPEN, O_PLAY, O_PLAY_COUNT, O_PLAYED, O_PROTECTED, O_RES, O_SNAP_HEALTH, O_SNAP_PLAY,
    O_SNAP_PLAY_COUNT, O_SNAP_PLAYER, O_SNAP_PROTECTED, O_SNAP_STUNNED, O_STUNNED, O_SUB, O_UHEALTH, O_USED,
    PH_ATTACK, PH_DEFEND, RES_GOLD, RES_SHIELDS, RES_SWORDS, ROUND_CAP, SNAP_PLAYER_COLS, SP_GOLD, SP_HAND,
    SP_HEALTH, SP_NEXT_GOLD, SP_SHIELDS, SP_SWORDS, START_GOLD, START_HEALTH, SUB_MAIN, SUB_PAYER, SUB_TARGET,
    TR_PLAY,
)


# ---- small helpers ------------------------------------------------------------------------------------------------
@njit(NB_INT(NB_ROW, NB_INT, NB_INT), cache=True)
def card_of(row: np.ndarray, p: int, inst: int) -> int:
    return row[O_DECK_LIST + p * MAX_DECK + inst]


@njit(void(NB_ROW, NB_INT, NB_INT, NB_INT, NB_INT), cache=True)
def zone_push(row: np.ndarray, zone: int, count: int, p: int, inst: int) -> None:
    n = row[count + p]
    row[zone + p * MAX_DECK + n] = inst
    row[count + p] = n + 1


@njit(void(NB_ROW, NB_INT, NB_INT, NB_INT, NB_INT), cache=True)
def zone_remove(row: np.ndarray, zone: int, count: int, p: int, inst: int) -> None:
    """Remove ``inst`` keeping the zone's order and compactness."""
    n = row[count + p]
    base = zone + p * MAX_DECK
    k = 0
    for j in range(n):
        v = row[base + j]
        if v != inst:
            row[base + k] = v
            k += 1
    for j in range(k, n):
        row[base + j] = -1
    row[count + p] = k


@njit(void(NB_ROW, NB_INT), cache=True)
def draw_card(row: np.ndarray, p: int) -> None:
    """Draw the top card; an empty deck first takes the shuffled discard pile (SF-E3); nothing left, no draw."""
    if row[O_DECK_COUNT + p] == 0:
        n = row[O_DISCARD_COUNT + p]
        if n == 0:
            return
        for j in range(n):
            inst = row[O_DISCARD + p * MAX_DECK + j]
            row[O_DECK + p * MAX_DECK + j] = inst
            row[O_DISCARD + p * MAX_DECK + j] = -1
            row[O_LOC + p * MAX_DECK + inst] = LOC_DECK
        row[O_DECK_COUNT + p] = n
        row[O_DISCARD_COUNT + p] = 0
        shuffle_slice(row, O_DECK + p * MAX_DECK, n)
    n = row[O_DECK_COUNT + p] - 1
    inst = row[O_DECK + p * MAX_DECK + n]
    row[O_DECK + p * MAX_DECK + n] = -1
    row[O_DECK_COUNT + p] = n
    zone_push(row, O_HAND, O_HAND_COUNT, p, inst)
    row[O_LOC + p * MAX_DECK + inst] = LOC_HAND
    row[O_DRAWN + p * MAX_DECK + inst] = 1


# ---- costs and abilities --------------------------------------------------------------------------------------------
@njit(NB_BOOL(NB_ROW, NB_INT, NB_INT, NB_INT), cache=True)
def can_pay_with(row: np.ndarray, p: int, payer: int, amount: int) -> bool:
    """May ally ``payer`` pay a health cost of ``amount``? It needs that much health and must be able to lose it."""
    at = p * MAX_DECK + payer
    return row[O_LOC + at] == LOC_PLAY and row[O_UHEALTH + at] >= amount and row[O_PROTECTED + at] == 0


@njit(NB_PAIR(NB_ROW, NB_INT, NB_INT), cache=True)
def count_payers(row: np.ndarray, p: int, amount: int) -> tuple[int, int]:
    count = 0
    first = -1
    for j in range(row[O_PLAY_COUNT + p]):
        inst = row[O_PLAY + p * MAX_DECK + j]
        if can_pay_with(row, p, inst, amount):
            if count == 0:
                first = inst
            count += 1
    return count, first


@njit(NB_BOOL(NB_ROW, NB_INT, NB_INT, NB_INT), cache=True)
def can_pay(row: np.ndarray, p: int, kind: int, amount: int) -> bool:
    if kind == COST_NONE:
        return True
    if kind == COST_SHIELDS:
        return row[O_RES + p * 3 + RES_SHIELDS] >= amount
    if kind == COST_SWORDS:
        return row[O_RES + p * 3 + RES_SWORDS] >= amount
    if kind == COST_GOLD:
        return row[O_RES + p * 3 + RES_GOLD] >= amount
    return count_payers(row, p, amount)[0] > 0


@njit(NB_INT(NB_ROW), cache=True)
def phase_trigger(row: np.ndarray) -> int:
    return 1 + row[O_PHASE]  # TR_DEFEND in Defend, TR_ATTACK in Attack


@njit(NB_BOOL(NB_ROW, NB_CARDS, NB_INT, NB_INT), cache=True)
def can_use(row: np.ndarray, cards: np.ndarray, p: int, inst: int) -> bool:
    """Unit ``inst`` can use this phase's ability now: in play, not used yet, alive, not Stunned, cost payable.

    A unit that lost all its health or was Stunned earlier in the round uses nothing more (SF-C7, SF-C8).
    """
    at = p * MAX_DECK + inst
    if row[O_LOC + at] != LOC_PLAY or row[O_USED + at] != 0:
        return False
    if row[O_UHEALTH + at] <= 0 or row[O_STUNNED + at] != 0:
        return False
    card = row[O_DECK_LIST + at]
    t = phase_trigger(row)
    if cards[card, C_N + 3 * t] == 0:
        return False
    return can_pay(row, p, cards[card, C_COST + 3 * t], cards[card, C_COST_AMOUNT + 3 * t])


@njit(NB_BOOL(NB_ROW, NB_CARDS, NB_INT, NB_INT), cache=True)
def can_play(row: np.ndarray, cards: np.ndarray, p: int, inst: int) -> bool:
    at = p * MAX_DECK + inst
    if row[O_PHASE] != PH_DEFEND or row[O_LOC + at] != LOC_HAND:
        return False
    return row[O_RES + p * 3 + RES_GOLD] >= cards[row[O_DECK_LIST + at], C_GOLD]


@njit(NB_BOOL(NB_ROW, NB_CARDS, NB_INT), cache=True)
def any_mandatory(row: np.ndarray, cards: np.ndarray, p: int) -> bool:
    for j in range(row[O_PLAY_COUNT + p]):
        if can_use(row, cards, p, row[O_PLAY + p * MAX_DECK + j]):
            return True
    return False


@njit(NB_INT(NB_ROW, NB_CARDS, NB_INT), cache=True)
def cheapest_unseen(row: np.ndarray, cards: np.ndarray, p: int) -> int:
    """The lowest gold cost among ``p``'s cards in hand or deck: what the opponent knows about p's hand is that it is
    drawn from these (the deck list, units in play and the discard pile are public), so this number is public."""
    best = 1 << 30
    for inst in range(row[O_DECK_SIZE + p]):
        loc = row[O_LOC + p * MAX_DECK + inst]
        if loc == LOC_HAND or loc == LOC_DECK:
            best = min(best, cards[row[O_DECK_LIST + p * MAX_DECK + inst], C_GOLD])
    return best


@njit(NB_BOOL(NB_ROW, NB_CARDS, NB_INT), cache=True)
def has_choice(row: np.ndarray, cards: np.ndarray, p: int) -> bool:
    """May ``p``'s plan still hold a decision (else it closes by itself)? Decided from what the other player may know
    (decision timing must not leak ``p``'s hand): a usable DEFEND/ATTACK ability (own units and resources), or, in
    Defend, a card in hand while p's gold reaches the cheapest card p could be holding. So a Defend plan with cards in
    hand stays open (``done`` is a real decision) even when none of them is affordable; RULES.md, "Decision timing"."""
    if any_mandatory(row, cards, p):
        return True
    if row[O_PHASE] == PH_DEFEND and row[O_HAND_COUNT + p] > 0:
        return row[O_RES + p * 3 + RES_GOLD] >= cheapest_unseen(row, cards, p)
    return False


@njit(void(NB_ROW, NB_CARDS, NB_EFFECTS, NB_INT), cache=True)
def continue_ability(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int) -> None:
    """Resolve the current ability's entries in order until one needs a target choice or all are done."""
    inst = row[O_CUR_INST + p]
    t = row[O_CUR_TRIGGER + p]
    card = card_of(row, p, inst)
    n = cards[card, C_N + 3 * t]
    while row[O_CUR_ENTRY + p] < n:
        entry = effects[card, t, row[O_CUR_ENTRY + p]]
        if not entry_condition_holds(row, p, entry[E_COND], entry[E_THRESHOLD]):
            row[O_CUR_ENTRY + p] += 1  # SF-C3: the cost is paid even if the entry then does nothing
            continue
        target = entry[E_TARGET]
        if target == TG_ONE_ALLY or target == TG_ONE_FOE:
            count, first = count_candidates(row, p, target, entry[E_COND], entry[E_THRESHOLD])
            if count >= 2:
                row[O_SUB + p] = SUB_TARGET
                return
            if count == 1:
                apply_entry(row, entry, p, inst, first)
        else:
            apply_entry(row, entry, p, inst, -1)
        row[O_CUR_ENTRY + p] += 1
    row[O_SUB + p] = SUB_MAIN
    row[O_CUR_INST + p] = -1


@njit(void(NB_ROW, NB_CARDS, NB_EFFECTS, NB_INT, NB_INT, NB_INT), cache=True)
def start_ability(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int, inst: int, t: int) -> None:
    row[O_CUR_INST + p] = inst
    row[O_CUR_TRIGGER + p] = t
    row[O_CUR_ENTRY + p] = 0
    card = card_of(row, p, inst)
    kind = cards[card, C_COST + 3 * t]
    amount = cards[card, C_COST_AMOUNT + 3 * t]
    if kind == COST_SHIELDS:
        row[O_RES + p * 3 + RES_SHIELDS] -= amount
    elif kind == COST_SWORDS:
        row[O_RES + p * 3 + RES_SWORDS] -= amount
    elif kind == COST_GOLD:
        row[O_RES + p * 3 + RES_GOLD] -= amount
    elif kind == COST_UNIT_HEALTH:
        count, first = count_payers(row, p, amount)
        if count >= 2:
            row[O_SUB + p] = SUB_PAYER
            return
        row[O_UHEALTH + p * MAX_DECK + first] -= amount
    continue_ability(row, cards, effects, p)


# ---- phases and rounds ---------------------------------------------------------------------------------------------
@njit(void(NB_ROW, NB_INT), cache=True)
def begin_phase(row: np.ndarray, phase: int) -> None:
    """Open both plans and snapshot both sides as they stand now (what the other player may read and see)."""
    row[O_PHASE] = phase
    for p in range(2):
        for j in range(MAX_DECK):
            at = p * MAX_DECK + j
            row[O_USED + at] = 0
            row[O_SNAP_PLAY + at] = row[O_PLAY + at]
            row[O_SNAP_HEALTH + at] = row[O_UHEALTH + at]
            row[O_SNAP_PROTECTED + at] = row[O_PROTECTED + at]
            row[O_SNAP_STUNNED + at] = row[O_STUNNED + at]
        row[O_SNAP_PLAY_COUNT + p] = row[O_PLAY_COUNT + p]
        snap = O_SNAP_PLAYER + p * SNAP_PLAYER_COLS
        row[snap + SP_HEALTH] = row[O_HEALTH + p]
        row[snap + SP_GOLD] = row[O_RES + p * 3 + RES_GOLD]
        row[snap + SP_SHIELDS] = row[O_RES + p * 3 + RES_SHIELDS]
        row[snap + SP_SWORDS] = row[O_RES + p * 3 + RES_SWORDS]
        row[snap + SP_HAND] = row[O_HAND_COUNT + p]
        for r in range(3):
            row[snap + SP_NEXT_GOLD + r] = row[O_NEXT + p * 3 + r]
        row[O_PLAN_OPEN + p] = 1
        row[O_SUB + p] = SUB_MAIN
        row[O_CUR_INST + p] = -1


@njit(void(NB_ROW), cache=True)
def start_round(row: np.ndarray) -> None:
    """Start phase: Protected/Stunned expire, draw 2, +2 gold, shields = swords = round, then next-round changes."""
    rnd = row[H_TURN] + 1
    if rnd > ROUND_CAP:  # SF-E4
        row[H_STATUS] = TRUNCATED
        row[H_WINNER] = NO_WINNER
        return
    row[H_TURN] = rnd
    for p in range(2):
        for j in range(MAX_DECK):
            row[O_PROTECTED + p * MAX_DECK + j] = 0
            row[O_STUNNED + p * MAX_DECK + j] = 0
        for _ in range(DRAW_PER_ROUND):
            draw_card(row, p)
        res = O_RES + p * 3
        nxt = O_NEXT + p * 3
        row[res + RES_GOLD] = max(0, row[res + RES_GOLD] + GOLD_PER_ROUND + row[nxt + RES_GOLD])  # SF-R6 carry over
        row[res + RES_SHIELDS] = max(0, rnd + row[nxt + RES_SHIELDS])  # SF-R4, SF-R5, SF-R6: unused ones vanish
        row[res + RES_SWORDS] = max(0, rnd + row[nxt + RES_SWORDS])
        for r in range(3):
            row[nxt + r] = 0


@njit(void(NB_ROW), cache=True)
def resolve_phase(row: np.ndarray) -> None:
    """Both plans are done: land what each did to the other side, discard units at 0 or less, check the end.

    Each side only receives effects from the other player, so the two landings are independent; on one side,
    Stuns, damage to units (skipping Protected units and units already at 0 or less), player damage and resource
    changes are all sums, so their order within the phase cannot matter (SF-E5).
    """
    for s in range(2):
        for j in range(row[O_PLAY_COUNT + s]):
            inst = row[O_PLAY + s * MAX_DECK + j]
            at = s * MAX_DECK + inst
            if row[O_IN_STUN + at] != 0:
                row[O_STUNNED + at] = 1
            damage = row[O_IN_DAMAGE + at]
            if damage > 0 and row[O_PROTECTED + at] == 0 and row[O_UHEALTH + at] > 0:
                row[O_UHEALTH + at] -= damage
        for j in range(MAX_DECK):
            row[O_IN_DAMAGE + s * MAX_DECK + j] = 0
            row[O_IN_STUN + s * MAX_DECK + j] = 0
        row[O_HEALTH + s] -= row[O_IN_PLAYER_DAMAGE + s]
        row[O_IN_PLAYER_DAMAGE + s] = 0
        for r in range(3):
            row[O_RES + s * 3 + r] = max(0, row[O_RES + s * 3 + r] + row[O_IN_RES + s * 3 + r])
            row[O_NEXT + s * 3 + r] += row[O_IN_NEXT + s * 3 + r]
            row[O_IN_RES + s * 3 + r] = 0
            row[O_IN_NEXT + s * 3 + r] = 0
    for s in range(2):  # SF-E1: discard units at 0 or less, keeping the others' order
        n = row[O_PLAY_COUNT + s]
        base = O_PLAY + s * MAX_DECK
        k = 0
        for j in range(n):
            inst = row[base + j]
            at = s * MAX_DECK + inst
            if row[O_UHEALTH + at] > 0:
                row[base + k] = inst
                k += 1
            else:
                zone_push(row, O_DISCARD, O_DISCARD_COUNT, s, inst)
                row[O_LOC + at] = LOC_DISCARD  # its health is reset when it is played again
                row[O_PROTECTED + at] = 0
                row[O_STUNNED + at] = 0
        for j in range(k, n):
            row[base + j] = -1
        row[O_PLAY_COUNT + s] = k
    h0 = row[O_HEALTH]
    h1 = row[O_HEALTH + 1]
    if h0 <= 0 or h1 <= 0:  # SF-E2
        row[H_STATUS] = TERMINATED
        row[H_WINNER] = 0 if h0 > h1 else (1 if h1 > h0 else DRAW)


@njit(void(NB_ROW, NB_CARDS), cache=True)
def advance(row: np.ndarray, cards: np.ndarray) -> None:
    """Close plans with nothing to decide, resolve finished phases, run Start phases, until a decision or the end."""
    while True:
        if row[H_STATUS] != LIVE:
            row[H_TO_ACT] = -1
            row[H_NEEDS] = 0
            row[O_PLAN_OPEN] = 0
            row[O_PLAN_OPEN + 1] = 0
            return
        for p in range(2):
            if row[O_PLAN_OPEN + p] != 0 and row[O_SUB + p] == SUB_MAIN and not has_choice(row, cards, p):
                row[O_PLAN_OPEN + p] = 0
        open0 = row[O_PLAN_OPEN]
        open1 = row[O_PLAN_OPEN + 1]
        if open0 != 0 or open1 != 0:
            row[H_NEEDS] = (1 if open0 != 0 else 0) | (2 if open1 != 0 else 0)
            row[H_TO_ACT] = 0 if open0 != 0 else 1  # the AEC order: player_0's plan first
            return
        resolve_phase(row)
        if row[H_STATUS] != LIVE:
            continue
        if row[O_PHASE] == PH_DEFEND:
            begin_phase(row, PH_ATTACK)
        else:
            start_round(row)
            if row[H_STATUS] == LIVE:
                begin_phase(row, PH_DEFEND)


# ---- decisions ------------------------------------------------------------------------------------------------------
@njit(NB_BOOL(NB_ROW, NB_CARDS, NB_EFFECTS, NB_INT, NB_INT), cache=True)
def action_legal(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int, a: int) -> bool:
    if row[H_STATUS] != LIVE or p < 0 or p > 1 or row[O_PLAN_OPEN + p] == 0 or a < 0 or a >= NUM_ACTIONS:
        return False
    sub = row[O_SUB + p]
    if sub == SUB_MAIN:
        if a == A_DONE:
            return not any_mandatory(row, cards, p)
        if a < A_USE:
            return can_play(row, cards, p, a - A_PLAY)
        if a < A_ALLY:
            return can_use(row, cards, p, a - A_USE)
        return False
    inst = row[O_CUR_INST + p]
    card = card_of(row, p, inst)
    t = row[O_CUR_TRIGGER + p]
    if sub == SUB_PAYER:
        if a < A_ALLY or a >= A_FOE:
            return False
        return can_pay_with(row, p, a - A_ALLY, cards[card, C_COST_AMOUNT + 3 * t])
    entry = effects[card, t, row[O_CUR_ENTRY + p]]
    target = entry[E_TARGET]
    if target == TG_ONE_ALLY:
        return A_ALLY <= a < A_FOE and is_candidate(row, p, target, entry[E_COND], entry[E_THRESHOLD], a - A_ALLY)
    return A_FOE <= a < NUM_ACTIONS and is_candidate(row, p, target, entry[E_COND], entry[E_THRESHOLD], a - A_FOE)


@njit(void(NB_ROW, NB_CARDS, NB_EFFECTS, NB_INT, NB_INT), cache=True)
def apply_action(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int, a: int) -> None:
    """Apply a legal decision of player ``p`` (checked by the caller)."""
    sub = row[O_SUB + p]
    if sub == SUB_MAIN:
        if a == A_DONE:
            row[O_PLAN_OPEN + p] = 0
        elif a < A_USE:
            inst = a - A_PLAY
            at = p * MAX_DECK + inst
            card = row[O_DECK_LIST + at]
            row[O_RES + p * 3 + RES_GOLD] -= cards[card, C_GOLD]
            zone_remove(row, O_HAND, O_HAND_COUNT, p, inst)
            zone_push(row, O_PLAY, O_PLAY_COUNT, p, inst)
            row[O_LOC + at] = LOC_PLAY
            row[O_UHEALTH + at] = cards[card, C_HEALTH]
            row[O_PROTECTED + at] = 0
            row[O_STUNNED + at] = 0
            row[O_USED + at] = 0
            row[O_PLAYED + at] = 1
            if cards[card, C_N + 3 * TR_PLAY] > 0:  # SF-D2
                start_ability(row, cards, effects, p, inst, TR_PLAY)
        else:
            inst = a - A_USE
            row[O_USED + p * MAX_DECK + inst] = 1
            start_ability(row, cards, effects, p, inst, phase_trigger(row))
        return
    inst = row[O_CUR_INST + p]
    if sub == SUB_PAYER:
        t = row[O_CUR_TRIGGER + p]
        row[O_UHEALTH + p * MAX_DECK + a - A_ALLY] -= cards[card_of(row, p, inst), C_COST_AMOUNT + 3 * t]
    else:
        entry = effects[card_of(row, p, inst), row[O_CUR_TRIGGER + p], row[O_CUR_ENTRY + p]]
        chosen = a - A_ALLY if a < A_FOE else a - A_FOE
        apply_entry(row, entry, p, inst, chosen)
        row[O_CUR_ENTRY + p] += 1
    row[O_SUB + p] = SUB_MAIN
    continue_ability(row, cards, effects, p)


@njit(NB_BOOL(NB_ROW, NB_CARDS, NB_EFFECTS, NB_INT, NB_INT), cache=True)
def step_row(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int, a: int) -> bool:
    """Apply one decision and advance; False (row untouched) when it is not legal."""
    if not action_legal(row, cards, effects, p, a):
        return False
    apply_action(row, cards, effects, p, a)
    row[H_DECISIONS] += 1
    advance(row, cards)
    return True


@njit(void(NB_ROW, NB_CARDS, NB_EFFECTS, NB_INT, _nt.int8[::1]), cache=True)
def mask_row(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int, out: np.ndarray) -> None:
    out[:] = 0
    if row[H_STATUS] != LIVE or p < 0 or p > 1 or row[O_PLAN_OPEN + p] == 0:
        return
    sub = row[O_SUB + p]
    if sub == SUB_MAIN:
        mandatory = False
        for j in range(row[O_PLAY_COUNT + p]):
            inst = row[O_PLAY + p * MAX_DECK + j]
            if can_use(row, cards, p, inst):
                out[A_USE + inst] = 1
                mandatory = True
        if not mandatory:
            out[A_DONE] = 1
        if row[O_PHASE] == PH_DEFEND:
            for j in range(row[O_HAND_COUNT + p]):
                inst = row[O_HAND + p * MAX_DECK + j]
                if can_play(row, cards, p, inst):
                    out[A_PLAY + inst] = 1
        return
    inst = row[O_CUR_INST + p]
    card = card_of(row, p, inst)
    t = row[O_CUR_TRIGGER + p]
    if sub == SUB_PAYER:
        amount = cards[card, C_COST_AMOUNT + 3 * t]
        for j in range(row[O_PLAY_COUNT + p]):
            ally = row[O_PLAY + p * MAX_DECK + j]
            if can_pay_with(row, p, ally, amount):
                out[A_ALLY + ally] = 1
        return
    entry = effects[card, t, row[O_CUR_ENTRY + p]]
    target = entry[E_TARGET]
    if target == TG_ONE_ALLY:
        for j in range(row[O_PLAY_COUNT + p]):
            ally = row[O_PLAY + p * MAX_DECK + j]
            if is_candidate(row, p, target, entry[E_COND], entry[E_THRESHOLD], ally):
                out[A_ALLY + ally] = 1
    else:
        foe = 1 - p
        for j in range(row[O_SNAP_PLAY_COUNT + foe]):
            unit = row[O_SNAP_PLAY + foe * MAX_DECK + j]
            if is_candidate(row, p, target, entry[E_COND], entry[E_THRESHOLD], unit):
                out[A_FOE + unit] = 1


@njit(void(NB_ROW, NB_CARDS, NB_CARDS, NB_INT), cache=True)
def reset_row(row: np.ndarray, cards: np.ndarray, deck_ids: np.ndarray, seed: np.int64) -> None:
    """SF-S1, SF-S2: shuffled decks, 2 gold and 20 health each, then round 1 begins."""
    row[:] = 0
    rng_seed(row, seed)
    row[H_STATUS] = LIVE
    row[H_WINNER] = NO_WINNER
    for p in range(2):
        for j in range(MAX_DECK):
            at = p * MAX_DECK + j
            row[O_DECK_LIST + at] = deck_ids[p, j]
            row[O_DECK + at] = -1
            row[O_HAND + at] = -1
            row[O_PLAY + at] = -1
            row[O_DISCARD + at] = -1
            row[O_SNAP_PLAY + at] = -1
        size = 0
        for j in range(MAX_DECK):
            if deck_ids[p, j] >= 0:
                row[O_DECK + p * MAX_DECK + size] = size
                row[O_LOC + p * MAX_DECK + size] = LOC_DECK
                size += 1
        row[O_DECK_SIZE + p] = size
        row[O_DECK_COUNT + p] = size
        shuffle_slice(row, O_DECK + p * MAX_DECK, size)
        row[O_HEALTH + p] = START_HEALTH
        row[O_RES + p * 3 + RES_GOLD] = START_GOLD
        row[O_CUR_INST + p] = -1
    start_round(row)
    begin_phase(row, PH_DEFEND)
    advance(row, cards)


# ---- the core contract's batch kernels --------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def batch_reset(states, tables, decks, seeds, rows):
    cards = tables[0]
    for i in range(states.shape[0]):
        if rows[i]:
            reset_row(states[i], cards, decks[i], seeds[i])


@njit(cache=True, nogil=True)
def batch_step(states, tables, players, actions, errors):
    cards = tables[0]
    effects = tables[1]
    for i in range(states.shape[0]):
        errors[i] = 0
        if players[i] >= 0:
            if not step_row(states[i], cards, effects, players[i], actions[i]):
                errors[i] = 1


@njit(cache=True, nogil=True)
def batch_mask(states, tables, players, out):
    cards = tables[0]
    effects = tables[1]
    for i in range(states.shape[0]):
        mask_row(states[i], cards, effects, players[i], out[i])
