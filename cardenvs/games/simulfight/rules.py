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

The row contract (the same names and returns in every game): ``reset_row(row, tables, decks, seed)``,
``step_row(row, tables, p, a, mask) -> bool`` (False, row untouched, for an illegal action), ``mask_row(row, tables,
p, out) -> int`` (the number of legal actions), ``settle(row, tables, mask)`` (every forced step up to the next
decision) and ``observe_row`` in observe.py; ``tables`` is the pool's ``cards.Tables`` (``tables.cards``,
``tables.effects``, ``tables.features``). The helpers below take the unpacked tables and declare their Numba
signatures (``S.NB_*``): one compiled copy each. Beside the contract, ``why_row`` records why each refused action is
refused (``legal_row``, the one copy of the legality rules; reasons.py), which ``text.explain_illegal`` puts in words.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types as _nt, void

from cardenvs.core.header import (
    DRAW, H_DECISIONS, H_NEEDS, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, NO_WINNER, TERMINATED, TRUNCATED,
)
from cardenvs.core.jit import helper
from cardenvs.core.rng import rng_seed, shuffle_slice

from .actions import (
    A_ALLY, A_ALLY_END, A_DONE, A_DONE_END, A_FOE, A_FOE_END, A_PLAY, A_PLAY_END, A_USE, A_USE_END, NUM_ACTIONS,
)
from .cards import (
    C_COST, C_COST_AMOUNT, C_GOLD, C_HEALTH, C_N, COST_GOLD, COST_NONE, COST_SHIELDS, COST_SWORDS,
    COST_UNIT_HEALTH, E_COND, E_TARGET, E_THRESHOLD, NUM_TRIGGERS, TG_ONE_ALLY, TG_ONE_FOE,
)
from .effects import apply_entry, candidate_reason, count_candidates, entry_condition_holds, is_candidate
from . import reasons as R
from . import state as S


NO_CARD_COST = 1 << 30  # cheapest_unseen's answer when there is no card: no amount of gold reaches it

# ---- small helpers ------------------------------------------------------------------------------------------------
@helper(S.NB_INT(S.NB_ROW, S.NB_INT, S.NB_INT))
def card_of(row: np.ndarray, p: int, inst: int) -> int:
    return row[S.DECK_LIST + p * S.MAX_DECK + inst]


@helper(void(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT))
def zone_push(row: np.ndarray, zone: int, count: int, p: int, inst: int) -> None:
    n = row[count + p]
    row[zone + p * S.MAX_DECK + n] = inst
    row[count + p] = n + 1


@helper(void(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT, S.NB_INT))
def zone_remove(row: np.ndarray, zone: int, count: int, p: int, inst: int) -> None:
    """Remove ``inst`` keeping the zone's order and compactness."""
    n = row[count + p]
    base = zone + p * S.MAX_DECK
    k = 0
    for j in range(n):
        v = row[base + j]
        if v != inst:
            row[base + k] = v
            k += 1
    for j in range(k, n):
        row[base + j] = -1
    row[count + p] = k


@helper(void(S.NB_ROW, S.NB_INT))
def show_hand(row: np.ndarray, p: int) -> None:
    """``p``'s deck is empty: every card of p's that is neither in play nor discarded is in p's hand, so both players
    know each of them (``shown``)."""
    for j in range(row[S.HAND_COUNT + p]):
        row[S.SHOWN + p * S.MAX_DECK + row[S.HAND + p * S.MAX_DECK + j]] = 1


@helper(void(S.NB_ROW, S.NB_INT))
def draw_card(row: np.ndarray, p: int) -> None:
    """Draw the top card; an empty deck first takes the shuffled discard pile (SF-E3); nothing left, no draw.

    A deck that runs out shows both players the owner's whole hand (every card that is not in play or discarded is
    in it), and a card stays known until it leaves the hand (``shown``; a reshuffle brings only discarded cards back,
    so it hides none of them again: issue 38)."""
    if row[S.DECK_COUNT + p] == 0:
        show_hand(row, p)
        n = row[S.DISCARD_COUNT + p]
        if n == 0:
            return
        for j in range(n):
            inst = row[S.DISCARD + p * S.MAX_DECK + j]
            row[S.DECK + p * S.MAX_DECK + j] = inst
            row[S.DISCARD + p * S.MAX_DECK + j] = -1
            row[S.LOC + p * S.MAX_DECK + inst] = S.LOC_DECK
        row[S.DECK_COUNT + p] = n
        row[S.DISCARD_COUNT + p] = 0
        shuffle_slice(row, S.DECK + p * S.MAX_DECK, n)
    n = row[S.DECK_COUNT + p] - 1
    inst = row[S.DECK + p * S.MAX_DECK + n]
    row[S.DECK + p * S.MAX_DECK + n] = -1
    row[S.DECK_COUNT + p] = n
    zone_push(row, S.HAND, S.HAND_COUNT, p, inst)
    row[S.LOC + p * S.MAX_DECK + inst] = S.LOC_HAND
    row[S.DRAWN + p * S.MAX_DECK + inst] = 1
    if n == 0:
        show_hand(row, p)


# ---- costs and abilities --------------------------------------------------------------------------------------------
# Each ``*_reason`` helper is a legality test that answers *why not*: ``R.NONE`` when the action may be taken, else
# the reason code of the branch that refuses it (reasons.py). The mask (``legal_row``) and the ``can_*`` predicates
# read the same helpers, so an explanation is the mask's own answer.
@helper(S.NB_INT(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT))
def payer_reason(row: np.ndarray, p: int, payer: int, amount: int) -> int:
    """May ally ``payer`` pay a health cost of ``amount``: in play, able to lose health, and with that much?"""
    at = p * S.MAX_DECK + payer
    if row[S.LOC + at] != S.LOC_PLAY:
        return R.PAYER_NOT_IN_PLAY
    if row[S.PROTECTED + at] != 0:
        return R.PAYER_PROTECTED
    if row[S.UNIT_HEALTH + at] < amount:
        return R.PAYER_HEALTH
    return R.NONE


@helper(S.NB_BOOL(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT))
def can_pay_with(row: np.ndarray, p: int, payer: int, amount: int) -> bool:
    return payer_reason(row, p, payer, amount) == R.NONE


@helper(S.NB_PAIR(S.NB_ROW, S.NB_INT, S.NB_INT))
def count_payers(row: np.ndarray, p: int, amount: int) -> tuple[int, int]:
    count = 0
    first = -1
    for j in range(row[S.PLAY_COUNT + p]):
        inst = row[S.PLAY + p * S.MAX_DECK + j]
        if can_pay_with(row, p, inst, amount):
            if count == 0:
                first = inst
            count += 1
    return count, first


@helper(S.NB_INT(S.NB_ROW, S.NB_INT, S.NB_INT, S.NB_INT))
def cost_reason(row: np.ndarray, p: int, kind: int, amount: int) -> int:
    """Can ``p`` pay a cost of ``kind`` (COST_*) and ``amount``?"""
    if kind == COST_NONE:
        return R.NONE
    if kind == COST_SHIELDS:
        have = row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_SHIELDS]
    elif kind == COST_SWORDS:
        have = row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_SWORDS]
    elif kind == COST_GOLD:
        have = row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_GOLD]
    else:
        return R.NONE if count_payers(row, p, amount)[0] > 0 else R.COST_HEALTH
    return R.NONE if have >= amount else R.COST_RESOURCE


@helper(S.NB_INT(S.NB_ROW))
def phase_trigger(row: np.ndarray) -> int:
    return S.TR_DEFEND + row[S.PHASE] - S.PH_DEFEND  # TR_DEFEND in Defend, TR_ATTACK in Attack


@helper(S.NB_INT(S.NB_ROW, S.NB_CARDS, S.NB_INT, S.NB_INT))
def use_reason(row: np.ndarray, cards: np.ndarray, p: int, inst: int) -> int:
    """Can unit ``inst`` use this phase's ability now: in play, not used yet, alive, not Stunned, cost payable.

    A unit that lost all its health or was Stunned earlier in the round uses nothing more (SF-C7, SF-C8).
    """
    at = p * S.MAX_DECK + inst
    if row[S.LOC + at] != S.LOC_PLAY:
        return R.NOT_IN_PLAY
    if row[S.USED + at] != 0:
        return R.USED
    if row[S.UNIT_HEALTH + at] <= 0:
        return R.NO_HEALTH
    if row[S.STUNNED + at] != 0:
        return R.STUNNED
    card = row[S.DECK_LIST + at]
    t = phase_trigger(row)
    if cards[card, C_N + t] == 0:
        return R.NO_ABILITY
    return cost_reason(row, p, cards[card, C_COST + t], cards[card, C_COST_AMOUNT + t])


@helper(S.NB_BOOL(S.NB_ROW, S.NB_CARDS, S.NB_INT, S.NB_INT))
def can_use(row: np.ndarray, cards: np.ndarray, p: int, inst: int) -> bool:
    return use_reason(row, cards, p, inst) == R.NONE


@helper(S.NB_INT(S.NB_ROW, S.NB_CARDS, S.NB_INT, S.NB_INT))
def play_reason(row: np.ndarray, cards: np.ndarray, p: int, inst: int) -> int:
    """Can ``p`` play card instance ``inst``: Defend phase, in hand, gold enough (SF-D1)."""
    at = p * S.MAX_DECK + inst
    if row[S.PHASE] != S.PH_DEFEND:
        return R.NOT_DEFEND_PHASE
    if row[S.LOC + at] != S.LOC_HAND:
        return R.NOT_IN_HAND
    if row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_GOLD] < cards[row[S.DECK_LIST + at], C_GOLD]:
        return R.GOLD
    return R.NONE


@helper(S.NB_BOOL(S.NB_ROW, S.NB_CARDS, S.NB_INT, S.NB_INT))
def can_play(row: np.ndarray, cards: np.ndarray, p: int, inst: int) -> bool:
    return play_reason(row, cards, p, inst) == R.NONE


@helper(S.NB_BOOL(S.NB_ROW, S.NB_CARDS, S.NB_INT))
def any_mandatory(row: np.ndarray, cards: np.ndarray, p: int) -> bool:
    for j in range(row[S.PLAY_COUNT + p]):
        if can_use(row, cards, p, row[S.PLAY + p * S.MAX_DECK + j]):
            return True
    return False


@helper(S.NB_INT(S.NB_ROW, S.NB_CARDS, S.NB_INT))
def cheapest_unseen(row: np.ndarray, cards: np.ndarray, p: int) -> int:
    """The lowest gold cost among ``p``'s cards in hand or deck: what the opponent knows about p's hand is that it is
    drawn from these (the deck list, units in play and the discard pile are public), so this number is public.
    ``NO_CARD_COST`` (more gold than anyone holds) when p has no card in hand or deck."""
    best = NO_CARD_COST
    for inst in range(row[S.DECK_SIZE + p]):
        loc = row[S.LOC + p * S.MAX_DECK + inst]
        if loc == S.LOC_HAND or loc == S.LOC_DECK:
            best = min(best, cards[row[S.DECK_LIST + p * S.MAX_DECK + inst], C_GOLD])
    return best


@helper(S.NB_BOOL(S.NB_ROW, S.NB_CARDS, S.NB_INT))
def has_choice(row: np.ndarray, cards: np.ndarray, p: int) -> bool:
    """May ``p``'s plan still hold a decision (else it closes by itself)? Decided from what the other player may know
    (decision timing must not leak ``p``'s hand): a usable DEFEND/ATTACK ability (own units and resources), or, in
    Defend, a card in hand while p's gold reaches the cheapest card p could be holding. So a Defend plan with cards in
    hand stays open (``done`` is a real decision) even when none of them is affordable; RULES.md, "Decision timing"."""
    if any_mandatory(row, cards, p):
        return True
    if row[S.PHASE] == S.PH_DEFEND and row[S.HAND_COUNT + p] > 0:
        return row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_GOLD] >= cheapest_unseen(row, cards, p)
    return False


@helper(void(S.NB_ROW, S.NB_CARDS, S.NB_EFFECTS, S.NB_INT))
def continue_ability(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int) -> None:
    """Resolve the current ability's entries in order until one needs a target choice or all are done."""
    inst = row[S.CUR_INST + p]
    t = row[S.CUR_TRIGGER + p]
    card = card_of(row, p, inst)
    n = cards[card, C_N + t]
    while row[S.CUR_ENTRY + p] < n:
        entry = effects[card, t, row[S.CUR_ENTRY + p]]
        if not entry_condition_holds(row, p, entry[E_COND], entry[E_THRESHOLD]):
            row[S.CUR_ENTRY + p] += 1  # SF-C3: the cost is paid even if the entry then does nothing
            continue
        target = entry[E_TARGET]
        if target == TG_ONE_ALLY or target == TG_ONE_FOE:
            count, first = count_candidates(row, p, target, entry[E_COND], entry[E_THRESHOLD])
            if count >= 2:
                row[S.SUB + p] = S.SUB_TARGET
                return
            if count == 1:
                apply_entry(row, entry, p, inst, first)
        else:
            apply_entry(row, entry, p, inst, -1)
        row[S.CUR_ENTRY + p] += 1
    row[S.SUB + p] = S.SUB_MAIN
    row[S.CUR_INST + p] = -1


@helper(void(S.NB_ROW, S.NB_CARDS, S.NB_EFFECTS, S.NB_INT, S.NB_INT, S.NB_INT))
def start_ability(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int, inst: int, t: int) -> None:
    row[S.CUR_INST + p] = inst
    row[S.CUR_TRIGGER + p] = t
    row[S.CUR_ENTRY + p] = 0
    card = card_of(row, p, inst)
    kind = cards[card, C_COST + t]
    amount = cards[card, C_COST_AMOUNT + t]
    if kind == COST_SHIELDS:
        row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_SHIELDS] -= amount
    elif kind == COST_SWORDS:
        row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_SWORDS] -= amount
    elif kind == COST_GOLD:
        row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_GOLD] -= amount
    elif kind == COST_UNIT_HEALTH:
        count, first = count_payers(row, p, amount)
        if count >= 2:
            row[S.SUB + p] = S.SUB_PAYER
            return
        row[S.UNIT_HEALTH + p * S.MAX_DECK + first] -= amount
    continue_ability(row, cards, effects, p)


@helper(S.NB_BOOL(S.NB_ROW, S.NB_CARDS, S.NB_INT))
def decision_ok(row: np.ndarray, cards: np.ndarray, p: int) -> bool:
    """Does ``p``'s pending decision point at things that exist: the phase a PH_* value, the sub-decision a SUB_*
    value and, in a sub-decision, ``cur_inst`` an instance of p's deck list, ``cur_trigger`` a trigger of an ability
    that card has (a health cost to pay for SUB_PAYER) and ``cur_entry`` one of its entries? The kernels follow these
    fields as indices; every row the rules write passes, and a row from outside is refused before it reaches a kernel
    (``row_check.check_rows``), but a caller can hand the raw kernels any row (check_game's completeness check changes
    one field of a real row), so the mask, the step and the observation read nothing through a bad one (no legal
    action, no pending ability shown) instead of reading outside their tables."""
    if row[S.PHASE] != S.PH_DEFEND and row[S.PHASE] != S.PH_ATTACK:
        return False
    sub = row[S.SUB + p]
    if sub == S.SUB_MAIN:
        return True
    if sub != S.SUB_PAYER and sub != S.SUB_TARGET:
        return False
    inst = row[S.CUR_INST + p]
    if inst < 0 or inst >= S.MAX_DECK or inst >= row[S.DECK_SIZE + p]:
        return False
    card = card_of(row, p, inst)
    t = row[S.CUR_TRIGGER + p]
    if card < 0 or card >= cards.shape[0] or t < 0 or t >= NUM_TRIGGERS:
        return False
    if sub == S.SUB_PAYER:
        return cards[card, C_N + t] > 0 and cards[card, C_COST + t] == COST_UNIT_HEALTH
    k = row[S.CUR_ENTRY + p]
    return 0 <= k < cards[card, C_N + t]


# ---- phases and rounds ---------------------------------------------------------------------------------------------
@helper(void(S.NB_ROW, S.NB_INT))
def begin_phase(row: np.ndarray, phase: int) -> None:
    """Open both plans and snapshot both sides as they stand now (what the other player may read and see)."""
    row[S.PHASE] = phase
    for p in range(2):
        for j in range(S.MAX_DECK):
            at = p * S.MAX_DECK + j
            row[S.USED + at] = 0
            row[S.SNAP_PLAY + at] = row[S.PLAY + at]
            row[S.SNAP_HEALTH + at] = row[S.UNIT_HEALTH + at]
            row[S.SNAP_PROTECTED + at] = row[S.PROTECTED + at]
            row[S.SNAP_STUNNED + at] = row[S.STUNNED + at]
            if row[S.LOC + at] != S.LOC_HAND:  # a known card that was played is public now; kept through the
                row[S.SHOWN + at] = 0  # phase it was played in, since the other player's view is the phase start's
        row[S.SNAP_PLAY_COUNT + p] = row[S.PLAY_COUNT + p]
        snap = S.SNAP_PLAYER + p * S.PLAYER_SNAPSHOT_SIZE
        row[snap + S.SP_HEALTH] = row[S.HEALTH + p]
        row[snap + S.SP_HAND] = row[S.HAND_COUNT + p]
        for r in range(S.NUM_RESOURCES):
            row[snap + S.SP_RESOURCES + r] = row[S.RESOURCES + p * S.NUM_RESOURCES + r]
            row[snap + S.SP_NEXT_ROUND + r] = row[S.NEXT_ROUND + p * S.NUM_RESOURCES + r]
        row[S.PLAN_OPEN + p] = 1
        row[S.SUB + p] = S.SUB_MAIN
        row[S.CUR_INST + p] = -1


@helper(void(S.NB_ROW))
def start_round(row: np.ndarray) -> None:
    """Start phase: Protected/Stunned expire, draw 2, +2 gold, shields = swords = round, then next-round changes."""
    rnd = row[H_TURN] + 1
    if rnd > S.ROUND_CAP:  # SF-E4
        row[H_STATUS] = TRUNCATED
        row[H_WINNER] = NO_WINNER
        return
    row[H_TURN] = rnd
    for p in range(2):
        for j in range(S.MAX_DECK):
            row[S.PROTECTED + p * S.MAX_DECK + j] = 0
            row[S.STUNNED + p * S.MAX_DECK + j] = 0
        for _ in range(S.DRAW_PER_ROUND):
            draw_card(row, p)
        res = S.RESOURCES + p * S.NUM_RESOURCES
        nxt = S.NEXT_ROUND + p * S.NUM_RESOURCES
        # SF-R6: gold carries over
        row[res + S.RES_GOLD] = max(0, row[res + S.RES_GOLD] + S.GOLD_PER_ROUND + row[nxt + S.RES_GOLD])
        row[res + S.RES_SHIELDS] = max(0, rnd + row[nxt + S.RES_SHIELDS])  # SF-R4, SF-R5, SF-R6: unused ones vanish
        row[res + S.RES_SWORDS] = max(0, rnd + row[nxt + S.RES_SWORDS])
        for r in range(S.NUM_RESOURCES):
            row[nxt + r] = 0


@helper(void(S.NB_ROW))
def resolve_phase(row: np.ndarray) -> None:
    """Both plans are done: land what each did to the other side, discard units at 0 or less, check the end.

    Each side only receives effects from the other player, so the two landings are independent; on one side,
    Stuns, damage to units (skipping Protected units and units already at 0 or less), player damage and resource
    changes are all sums, so their order within the phase cannot matter (SF-E5).
    """
    for s in range(2):
        for j in range(row[S.PLAY_COUNT + s]):
            inst = row[S.PLAY + s * S.MAX_DECK + j]
            at = s * S.MAX_DECK + inst
            if row[S.IN_STUN + at] != 0:
                row[S.STUNNED + at] = 1
            damage = row[S.IN_DAMAGE + at]
            if damage > 0 and row[S.PROTECTED + at] == 0 and row[S.UNIT_HEALTH + at] > 0:
                row[S.UNIT_HEALTH + at] -= damage
        for j in range(S.MAX_DECK):
            row[S.IN_DAMAGE + s * S.MAX_DECK + j] = 0
            row[S.IN_STUN + s * S.MAX_DECK + j] = 0
        row[S.HEALTH + s] -= row[S.IN_PLAYER_DAMAGE + s]
        row[S.IN_PLAYER_DAMAGE + s] = 0
        for r in range(S.NUM_RESOURCES):
            at = s * S.NUM_RESOURCES + r
            row[S.RESOURCES + at] = max(0, row[S.RESOURCES + at] + row[S.IN_RESOURCES + at])
            row[S.NEXT_ROUND + at] += row[S.IN_NEXT_ROUND + at]
            row[S.IN_RESOURCES + at] = 0
            row[S.IN_NEXT_ROUND + at] = 0
    for s in range(2):  # SF-E1: discard units at 0 or less, keeping the others' order
        n = row[S.PLAY_COUNT + s]
        base = S.PLAY + s * S.MAX_DECK
        k = 0
        for j in range(n):
            inst = row[base + j]
            at = s * S.MAX_DECK + inst
            if row[S.UNIT_HEALTH + at] > 0:
                row[base + k] = inst
                k += 1
            else:
                zone_push(row, S.DISCARD, S.DISCARD_COUNT, s, inst)
                row[S.LOC + at] = S.LOC_DISCARD  # its health is reset when it is played again
                row[S.PROTECTED + at] = 0
                row[S.STUNNED + at] = 0
        for j in range(k, n):
            row[base + j] = -1
        row[S.PLAY_COUNT + s] = k
    h0 = row[S.HEALTH]
    h1 = row[S.HEALTH + 1]
    if h0 <= 0 or h1 <= 0:  # SF-E2
        row[H_STATUS] = TERMINATED
        row[H_WINNER] = 0 if h0 > h1 else (1 if h1 > h0 else DRAW)


@helper
def settle(row: np.ndarray, tables, mask: np.ndarray) -> None:
    """Run every forced step up to the next decision or the end: close plans with nothing to decide, resolve finished
    phases, run Start phases. ``mask`` is the contract's scratch and unused here: a plan closes from public
    information (``has_choice``), never because a single action is legal."""
    cards = tables.cards
    while True:
        if row[H_STATUS] != LIVE:
            row[H_TO_ACT] = -1
            row[H_NEEDS] = 0
            row[S.PLAN_OPEN] = 0
            row[S.PLAN_OPEN + 1] = 0
            return
        for p in range(2):
            if row[S.PLAN_OPEN + p] != 0 and row[S.SUB + p] == S.SUB_MAIN and not has_choice(row, cards, p):
                row[S.PLAN_OPEN + p] = 0
        open0 = row[S.PLAN_OPEN]
        open1 = row[S.PLAN_OPEN + 1]
        if open0 != 0 or open1 != 0:
            row[H_NEEDS] = (1 if open0 != 0 else 0) | (2 if open1 != 0 else 0)
            row[H_TO_ACT] = 0 if open0 != 0 else 1  # the AEC order: player_0's plan first
            return
        resolve_phase(row)
        if row[H_STATUS] != LIVE:
            continue
        if row[S.PHASE] == S.PH_DEFEND:
            begin_phase(row, S.PH_ATTACK)
        else:
            start_round(row)
            if row[H_STATUS] == LIVE:
                begin_phase(row, S.PH_DEFEND)


# ---- decisions ------------------------------------------------------------------------------------------------------
@helper(S.NB_BOOL(S.NB_ROW, S.NB_CARDS, S.NB_EFFECTS, S.NB_INT, S.NB_INT))
def action_legal(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int, a: int) -> bool:
    if row[H_STATUS] != LIVE or p < 0 or p > 1 or row[S.PLAN_OPEN + p] == 0 or a < 0 or a >= NUM_ACTIONS:
        return False
    if not decision_ok(row, cards, p):
        return False
    sub = row[S.SUB + p]
    if sub == S.SUB_MAIN:
        if A_DONE <= a < A_DONE_END:
            return not any_mandatory(row, cards, p)
        if A_PLAY <= a < A_PLAY_END:
            return can_play(row, cards, p, a - A_PLAY)
        if A_USE <= a < A_USE_END:
            return can_use(row, cards, p, a - A_USE)
        return False
    inst = row[S.CUR_INST + p]
    card = card_of(row, p, inst)
    t = row[S.CUR_TRIGGER + p]
    if sub == S.SUB_PAYER:
        if not A_ALLY <= a < A_ALLY_END:
            return False
        return can_pay_with(row, p, a - A_ALLY, cards[card, C_COST_AMOUNT + t])
    entry = effects[card, t, row[S.CUR_ENTRY + p]]
    target = entry[E_TARGET]
    if target == TG_ONE_ALLY:
        return A_ALLY <= a < A_ALLY_END and is_candidate(row, p, target, entry[E_COND], entry[E_THRESHOLD], a - A_ALLY)
    return A_FOE <= a < A_FOE_END and is_candidate(row, p, target, entry[E_COND], entry[E_THRESHOLD], a - A_FOE)


@helper(void(S.NB_ROW, S.NB_CARDS, S.NB_EFFECTS, S.NB_INT, S.NB_INT))
def apply_action(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int, a: int) -> None:
    """Apply a legal decision of player ``p`` (checked by the caller)."""
    sub = row[S.SUB + p]
    if sub == S.SUB_MAIN:
        if A_DONE <= a < A_DONE_END:
            row[S.PLAN_OPEN + p] = 0
        elif A_PLAY <= a < A_PLAY_END:
            inst = a - A_PLAY
            at = p * S.MAX_DECK + inst
            card = row[S.DECK_LIST + at]
            row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_GOLD] -= cards[card, C_GOLD]
            zone_remove(row, S.HAND, S.HAND_COUNT, p, inst)
            zone_push(row, S.PLAY, S.PLAY_COUNT, p, inst)
            row[S.LOC + at] = S.LOC_PLAY
            row[S.UNIT_HEALTH + at] = cards[card, C_HEALTH]
            row[S.PROTECTED + at] = 0
            row[S.STUNNED + at] = 0
            row[S.USED + at] = 0
            row[S.PLAYED + at] = 1
            if cards[card, C_N + S.TR_PLAY] > 0:  # SF-D2
                start_ability(row, cards, effects, p, inst, S.TR_PLAY)
        else:  # A_USE <= a < A_USE_END (the only other legal range in the plan step)
            inst = a - A_USE
            row[S.USED + p * S.MAX_DECK + inst] = 1
            start_ability(row, cards, effects, p, inst, phase_trigger(row))
        return
    inst = row[S.CUR_INST + p]
    if sub == S.SUB_PAYER:
        t = row[S.CUR_TRIGGER + p]
        row[S.UNIT_HEALTH + p * S.MAX_DECK + a - A_ALLY] -= cards[card_of(row, p, inst), C_COST_AMOUNT + t]
    else:
        entry = effects[card_of(row, p, inst), row[S.CUR_TRIGGER + p], row[S.CUR_ENTRY + p]]
        chosen = a - A_ALLY if A_ALLY <= a < A_ALLY_END else a - A_FOE
        apply_entry(row, entry, p, inst, chosen)
        row[S.CUR_ENTRY + p] += 1
    row[S.SUB + p] = S.SUB_MAIN
    continue_ability(row, cards, effects, p)


@helper
def step_row(row: np.ndarray, tables, p: int, a: int, mask: np.ndarray) -> bool:
    """Apply one decision and settle: True when it was legal and applied, False (row untouched) when it was not.
    ``mask`` is scratch (unused, see ``settle``)."""
    cards = tables.cards
    effects = tables.effects
    if not action_legal(row, cards, effects, p, a):
        return False
    apply_action(row, cards, effects, p, a)
    row[H_DECISIONS] += 1
    settle(row, tables, mask)
    return True


@helper(S.NB_INT(_nt.int8[::1]))
def count_legal(mask: np.ndarray) -> int:
    n = 0
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            n += 1
    return n


@njit(cache=True, inline="always")
def mark_missing(row: np.ndarray, side: int, why: np.ndarray, start: int) -> None:
    """Record ``NO_CARD`` for the actions of the range at ``start`` that name no instance of ``side``'s deck list."""
    for inst in range(row[S.DECK_SIZE + side], S.MAX_DECK):
        why[start + inst] = R.NO_CARD


@njit(cache=True, inline="always")
def legal_row(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int, out: np.ndarray, why: np.ndarray,
              record: bool) -> int:
    """``p``'s legal actions into ``out`` (returns how many); with ``record``, also why each other action is refused.

    The one copy of the legality rules. With ``record`` true every action gets a reason code in ``why`` (reasons.py):
    ``R.NONE`` for a legal one, else the code of the branch that refuses it: a range nobody visits gets its default
    (a ``play`` of a card that is not in hand...), a visited action the code its ``*_reason`` helper returned. Callers
    pass ``record`` as a constant: inlined into ``write_mask`` with ``False`` the recording branches compile away."""
    out[:] = 0
    if record:
        why[:] = R.NONE
    if row[H_STATUS] != LIVE or p < 0 or p > 1:
        if record and row[H_STATUS] != LIVE:
            why[:] = R.GAME_OVER
        return 0
    if row[S.PLAN_OPEN + p] == 0:
        if record:
            why[:] = R.PLAN_DONE
        return 0
    if not decision_ok(row, cards, p):  # a row no rule writes (decision_ok): nothing is legal
        if record:
            why[:] = R.NO_CHOICE_PENDING
        return 0
    sub = row[S.SUB + p]
    if sub == S.SUB_MAIN:
        if record:
            why[A_ALLY:A_FOE_END] = R.NO_CHOICE_PENDING
            why[A_USE:A_USE_END] = R.NOT_IN_PLAY  # the loop below visits only the units in play
        mandatory = False
        for j in range(row[S.PLAY_COUNT + p]):
            inst = row[S.PLAY + p * S.MAX_DECK + j]
            code = use_reason(row, cards, p, inst)
            if code == R.NONE:
                out[A_USE + inst] = 1
                mandatory = True
            if record:
                why[A_USE + inst] = code
        if not mandatory:
            out[A_DONE] = 1
        elif record:
            why[A_DONE] = R.MANDATORY
        if row[S.PHASE] == S.PH_DEFEND:
            if record:
                why[A_PLAY:A_PLAY_END] = R.NOT_IN_HAND  # the loop below visits only the cards in hand
            for j in range(row[S.HAND_COUNT + p]):
                inst = row[S.HAND + p * S.MAX_DECK + j]
                code = play_reason(row, cards, p, inst)
                if code == R.NONE:
                    out[A_PLAY + inst] = 1
                if record:
                    why[A_PLAY + inst] = code
        elif record:
            why[A_PLAY:A_PLAY_END] = R.NOT_DEFEND_PHASE
        if record:
            mark_missing(row, p, why, A_PLAY)
            mark_missing(row, p, why, A_USE)
        return count_legal(out)
    inst = row[S.CUR_INST + p]
    card = card_of(row, p, inst)
    t = row[S.CUR_TRIGGER + p]
    if sub == S.SUB_PAYER:
        amount = cards[card, C_COST_AMOUNT + t]
        if record:
            why[:] = R.PAYER_PENDING
            why[A_ALLY:A_ALLY_END] = R.PAYER_NOT_IN_PLAY  # the loop below visits only the units in play
            mark_missing(row, p, why, A_ALLY)
        for j in range(row[S.PLAY_COUNT + p]):
            ally = row[S.PLAY + p * S.MAX_DECK + j]
            code = payer_reason(row, p, ally, amount)
            if code == R.NONE:
                out[A_ALLY + ally] = 1
            if record:
                why[A_ALLY + ally] = code
        return count_legal(out)
    entry = effects[card, t, row[S.CUR_ENTRY + p]]
    target = entry[E_TARGET]
    if record:
        why[:] = R.TARGET_PENDING
    if target == TG_ONE_ALLY:
        if record:
            why[A_ALLY:A_ALLY_END] = R.TARGET_NOT_IN_PLAY  # the loop below visits only the units in play
            mark_missing(row, p, why, A_ALLY)
        for j in range(row[S.PLAY_COUNT + p]):
            ally = row[S.PLAY + p * S.MAX_DECK + j]
            code = candidate_reason(row, p, target, entry[E_COND], entry[E_THRESHOLD], ally)
            if code == R.NONE:
                out[A_ALLY + ally] = 1
            if record:
                why[A_ALLY + ally] = code
    else:
        foe = 1 - p
        if record:
            why[A_FOE:A_FOE_END] = R.NOT_A_FOE  # the loop below visits only the Foes (in play at the phase start)
            mark_missing(row, foe, why, A_FOE)
        for j in range(row[S.SNAP_PLAY_COUNT + foe]):
            unit = row[S.SNAP_PLAY + foe * S.MAX_DECK + j]
            code = candidate_reason(row, p, target, entry[E_COND], entry[E_THRESHOLD], unit)
            if code == R.NONE:
                out[A_FOE + unit] = 1
            if record:
                why[A_FOE + unit] = code
    return count_legal(out)


@helper(S.NB_INT(S.NB_ROW, S.NB_CARDS, S.NB_EFFECTS, S.NB_INT, _nt.int8[::1]))
def write_mask(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, p: int, out: np.ndarray) -> int:
    """``mask_row`` on the unpacked tables (the explicitly typed kernel; the heuristic calls it too). Nothing is
    recorded, so ``out`` also stands in for the unused reasons array."""
    return legal_row(row, cards, effects, p, out, out, False)


@helper
def mask_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> int:
    """Write ``p``'s legal actions into ``out``; returns how many there are (0 when ``p`` has no decision)."""
    return write_mask(row, tables.cards, tables.effects, p, out)


@helper
def why_row(row: np.ndarray, tables, p: int, why: np.ndarray) -> int:
    """Write into ``why`` (int8 [NUM_ACTIONS]) the reason code (reasons.py) the mask records for each of ``p``'s
    actions, ``R.NONE`` for the legal ones; returns how many are legal. What ``text.explain_illegal`` reads."""
    mask = np.empty(NUM_ACTIONS, dtype=np.int8)
    return legal_row(row, tables.cards, tables.effects, p, mask, why, True)


@helper
def reset_row(row: np.ndarray, tables, decks: np.ndarray, seed: np.int64) -> None:
    """SF-S1, SF-S2: shuffled decks, 2 gold and 20 health each, then round 1 begins."""
    row[:] = 0
    rng_seed(row, seed)
    row[H_STATUS] = LIVE
    row[H_WINNER] = NO_WINNER
    for p in range(2):
        for j in range(S.MAX_DECK):
            at = p * S.MAX_DECK + j
            row[S.DECK_LIST + at] = decks[p, j]
            row[S.DECK + at] = -1
            row[S.HAND + at] = -1
            row[S.PLAY + at] = -1
            row[S.DISCARD + at] = -1
            row[S.SNAP_PLAY + at] = -1
        size = 0
        for j in range(S.MAX_DECK):
            if decks[p, j] >= 0:
                row[S.DECK + p * S.MAX_DECK + size] = size
                row[S.LOC + p * S.MAX_DECK + size] = S.LOC_DECK
                size += 1
        row[S.DECK_SIZE + p] = size
        row[S.DECK_COUNT + p] = size
        shuffle_slice(row, S.DECK + p * S.MAX_DECK, size)
        row[S.HEALTH + p] = S.START_HEALTH
        row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_GOLD] = S.START_GOLD
        row[S.CUR_INST + p] = -1
    start_round(row)
    begin_phase(row, S.PH_DEFEND)
    settle(row, tables, np.empty(NUM_ACTIONS, dtype=np.int8))


# ----------------------------------------------------------------------------------------------------------------
# batch kernels: the batch loops of the kernel contract are the core's one template (cardenvs/core/kernel_template.py),
# rendered into _kernels.py from these options (python -m cardenvs.core.kernel_template --write simulfight after a
# change); "game": the step_row above is simulfight's own (a plan step of either player; settle ends the game)
KERNEL_OPTIONS = {"step": "game"}
