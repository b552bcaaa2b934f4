"""A greedy rule-based heartbreak player, batched: one Numba kernel decides for every row at once.

What it does, by decision (see ``cardenvs/games/heartbreak/RULES.md`` for the rules):

* setup: the Lead-capable fighter with the most HP (its own deck list is known to it while it chooses);
* charge step: charges the hand card it values least (keeps climaxes, Turbos and fighters it can still use), but
  not near the end of its deck once it has a few charged cards (the charge draws a card: deck-out loses);
* main phase: evolves, calls and equips whenever it can (strongest first); plays supports and uses skills whose
  simulated effect raises a score of the public position; swaps a badly hurt Lead for a healthier Back-Up fighter;
* action phase: declares the action (and [Bypass] target) whose simulated result scores best, KOs first;
* climax phase and open Turbo moments (also those closing the start and end phases): plays the card whose
  simulated effect scores best, if it gains enough;
* effect choices (``swap_lead``: which Back-Up; ``evolve``: which hand card onto which fighter): the option whose
  simulated resolution of the rest of the stack scores best;
* response windows: answers with the Turbo whose simulated resolution of the whole stack scores best (a negate
  against an attack on its Lead, Armor before a hit...), else passes;
* trigger order and refills: the first waiting ability; the healthiest Back-Up fighter.

Hidden information: the kernel reads only what its seat may know: its own hand, both public boards, the public
counts, and the cards it cannot see only together, by card id (as the observation's ``unseen_cards``). To value a
move it applies the move to a *copy* of the row with the game's own kernels and resolves the stack; it then reads
only public quantities of the copy (heart, hand and charge *sizes*, fighters' HP left, levels), so a simulated draw
or Overdrive never reveals which hidden card moved. An effect choice met in the copy is made from what the seat
knows: its own evolve choices use only the hand cards it held before the simulation, and the opponent's evolve
choice assumes the strongest evolution among the opponent's unseen cards while its hand holds a card (it once read
the opponent's real hand there). ``tests/games/heartbreak/test_heartbreak_heuristic_honest.py`` re-deals the hidden
cards of positions from heuristic play and checks that no decision changes.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.jit import helper
from cardenvs.core.kernels import copy_into, decide_rows

from .base import StateHeuristic

from cardenvs.games.heartbreak.actions import (
    A_CHOOSE_LEAD,
    A_CHOOSE_LEAD_END,
    A_HAND,
    A_HAND_END,
    A_ONTO,
    A_ORDER,
    A_ORDER_END,
    A_PASS,
    A_REFILL,
    A_SKILL,
    A_SKILL_END,
    A_SWAP,
    A_TARGET,
    A_TARGET_END,
    NUM_ACTIONS,
)
from cardenvs.games.heartbreak.board import card_of, field_at, hand_slots, hp_of
from cardenvs.games.heartbreak.tables import (
    C_ARMOR,
    C_COUNTER,
    C_HP,
    C_LEVEL,
    C_TURBO,
    C_TYPE,
    C_WARD,
    TYPE_CLIMAX,
    TYPE_FIGHTER,
    TYPE_ITEM,
)
from cardenvs.games.heartbreak.effects import can_evolve_with, resolve_top
from cardenvs.games.heartbreak.observe import count_unseen
from cardenvs.games.heartbreak.rules import apply_action
from cardenvs.games.heartbreak.state import (
    BACKUP,
    BACKUP_CAP,
    BACKUP_COUNT,
    CH_SWAP,
    CHOICE_KIND,
    CHOICE_PLAYER,
    CHARGE_COUNT,
    DECK_LIST,
    DAMAGE,
    DECK_COUNT,
    FACE_UP,
    FIELD_CAP,
    HAND,
    HAND_CAP,
    HAND_COUNT,
    HEART,
    HEART_CAP,
    HEART_COUNT,
    LOST,
    MAX_DECK,
    RESTED,
    ST_ACTION,
    ST_CHARGE,
    ST_CHOOSE,
    ST_CLIMAX,
    ST_END_OPEN,
    ST_MAIN,
    ST_REFILL,
    ST_SETUP_LEAD,
    ST_START_OPEN,
    ST_TARGET,
    ST_TRIGGERS,
    ST_WINDOW,
    STACK_COUNT,
    STEP,
)

D = MAX_DECK
# score weights: a heart card is a life point, a fighter's level and HP left are board presence
W_HEART = 40.0
W_FACE_DOWN = 6.0
W_LEVEL = 12.0
W_HP = 0.6
W_HAND = 6.0
W_CHARGE = 3.0
W_LOST = 10000.0
GAIN_CARD = 8.0  # a card spent on an effect must gain at least this much
DECK_LOW = 8  # below this many deck cards every further card drawn brings deck-out closer
W_DECK_LOW = 12.0


@helper
def _side_value(row, tables, q):
    ctab = tables.cards
    v = W_HEART * row[HEART_COUNT + q] + W_HAND * row[HAND_COUNT + q] + W_CHARGE * row[CHARGE_COUNT + q]
    for j in range(row[HEART_COUNT + q]):
        if row[FACE_UP + q * D + row[HEART + q * HEART_CAP + j]] == 0:
            v += W_FACE_DOWN
    for pos in range(FIELD_CAP):
        inst = field_at(row, q, pos)
        if inst < 0:
            continue
        card = card_of(row, q, inst)
        left = hp_of(row, ctab, q, inst) - row[DAMAGE + q * D + inst]
        v += W_LEVEL * ctab[card, C_LEVEL] + W_HP * max(left, 0)
        v += 0.3 * (ctab[card, C_ARMOR] + ctab[card, C_WARD] + ctab[card, C_COUNTER])
        if pos == 0:
            v += 15.0  # a Lead keeps the empty-field heartbreak away
    if row[DECK_COUNT + q] < DECK_LOW:  # drawing into deck-out loses the game
        v -= W_DECK_LOW * (DECK_LOW - row[DECK_COUNT + q])
    if row[LOST + q] != 0:
        v -= W_LOST
    return v


@helper
def _value(row, tables, p):
    """A score of the public position for ``p``."""
    return _side_value(row, tables, p) - _side_value(row, tables, 1 - p)


@helper
def q_of(p):
    return 1 - p


@helper
def _known_in_hand(row, p, inst):
    """Whether ``inst`` was in ``p``'s hand in the real position ``row`` (a card a simulated draw or break brought
    into the copy's hand is one ``p`` has not seen)."""
    for j in range(row[HAND_COUNT + p]):
        if row[HAND + p * HAND_CAP + j] == inst:
            return True
    return False


@helper
def _quick_choice(scratch, tables, row, p):
    """A simple pick for an effect choice met while simulating, from what ``p`` (the deciding seat) knows of the
    real position ``row``: the standing Back-Up fighter with the most HP left; the highest-level evolution among the
    hand cards ``p`` knows (its own: those it held before the simulation; the opponent's: the best one among the
    cards ``p`` cannot see, assumed in hand while the hand holds a card), else ``pass``."""
    ctab = tables.cards
    q = scratch[CHOICE_PLAYER]
    best = -1
    best_key = -1e9
    if scratch[CHOICE_KIND] == CH_SWAP:
        for j in range(scratch[BACKUP_COUNT + q]):
            b = scratch[BACKUP + q * BACKUP_CAP + j]
            if scratch[RESTED + q * D + b] == 0:
                key = hp_of(scratch, ctab, q, b) - scratch[DAMAGE + q * D + b]
                if key > best_key:
                    best, best_key = A_SWAP + j, key
        return best
    best = A_PASS
    if q == p:
        for i in range(hand_slots(scratch, q)):
            inst = scratch[HAND + q * HAND_CAP + i]
            if not _known_in_hand(row, p, inst):
                continue
            card = card_of(scratch, q, inst)
            for pos in range(FIELD_CAP):
                if can_evolve_with(scratch, ctab, q, field_at(scratch, q, pos), card):
                    key = 10.0 * ctab[card, C_LEVEL] - pos
                    if key > best_key:
                        best, best_key = A_ONTO + FIELD_CAP * i + pos, key
        return best
    if scratch[HAND_COUNT + q] == 0:
        return best
    counts = np.zeros(ctab.shape[0], dtype=np.int64)
    count_unseen(row, q, p, counts, 0)  # what p knows of the opponent's hidden cards: how many of each
    best_card = -1
    for card in range(ctab.shape[0]):
        if counts[card] == 0:
            continue
        for pos in range(FIELD_CAP):
            if can_evolve_with(scratch, ctab, q, field_at(scratch, q, pos), card):
                key = 10.0 * ctab[card, C_LEVEL] - pos
                if key > best_key:
                    best, best_key, best_card = A_ONTO + pos, key, card
    if best_card >= 0:  # the copy's first hand card becomes that card (the copy only: p assumes the worst)
        scratch[DECK_LIST + q * D + scratch[HAND + q * HAND_CAP]] = best_card
    return best


@helper
def _settle(scratch, tables, row, p):
    """Resolve the whole stack of the copy (answers ignored; effect choices by ``_quick_choice`` from what ``p``
    knows of the real position ``row``)."""
    guard = 0
    while scratch[STACK_COUNT] > 0 and scratch[LOST] == 0 and scratch[LOST + 1] == 0 and guard < 16:
        if scratch[STEP] == ST_CHOOSE:
            a = _quick_choice(scratch, tables, row, p)
            if a < 0:
                return
            apply_action(scratch, tables, scratch[CHOICE_PLAYER], a)
        else:
            resolve_top(scratch, tables)
        guard += 1


@helper
def _simulate(row, tables, p, a, scratch):
    """The score after playing ``a`` in a copy and resolving the whole stack (answers ignored)."""
    copy_into(scratch, row)
    apply_action(scratch, tables, p, a)
    if scratch[STEP] == ST_TARGET:  # a [Bypass] attack: assume the Lead (or the first fighter) as its target
        pos = 0 if field_at(scratch, q_of(p), 0) >= 0 else 1
        apply_action(scratch, tables, p, A_TARGET + pos)
    _settle(scratch, tables, row, p)
    return _value(scratch, tables, p)


@helper
def _resolve_value(row, tables, p, scratch):
    """The score if the stack resolves as it stands."""
    copy_into(scratch, row)
    _settle(scratch, tables, row, p)
    return _value(scratch, tables, p)


@helper
def _keep_value(ctab, card):
    t = ctab[card, C_TYPE]
    if t == TYPE_FIGHTER:
        return 2.0 * ctab[card, C_LEVEL] + ctab[card, C_HP] / 20.0
    if t == TYPE_CLIMAX:
        return 9.0
    if ctab[card, C_TURBO] != 0:
        return 7.0
    if t == TYPE_ITEM:
        return 4.0
    return 5.0


@helper
def _best_fighter_move(row, tables, p, mask):
    """Evolve (highest level first), else call (strongest first), else equip: the action or -1."""
    ctab = tables.cards
    best = -1
    best_key = -1.0
    for i in range(hand_slots(row, p)):
        card = card_of(row, p, row[HAND + p * HAND_CAP + i])
        t = ctab[card, C_TYPE]
        for pos in range(FIELD_CAP):
            a = A_ONTO + FIELD_CAP * i + pos
            if mask[a] != 0:
                key = 300.0 + 10 * ctab[card, C_LEVEL] if t == TYPE_FIGHTER else 100.0 - pos
                if key > best_key:
                    best, best_key = a, key
        if mask[A_HAND + i] != 0 and t == TYPE_FIGHTER:
            key = 200.0 + ctab[card, C_HP] / 10.0 + 5 * ctab[card, C_LEVEL]
            if key > best_key:
                best, best_key = A_HAND + i, key
    return best


@helper
def _best_by_simulation(row, tables, p, mask, scratch, lo, hi, skip_fighters, margin):
    base = 0.0
    valued = False  # the base score is only needed once a candidate is legal
    best = -1
    best_gain = margin
    ctab = tables.cards
    for a in range(lo, hi):
        if mask[a] == 0:
            continue
        if skip_fighters and A_HAND <= a < A_HAND_END:
            card = card_of(row, p, row[HAND + p * HAND_CAP + (a - A_HAND)])
            if ctab[card, C_TYPE] == TYPE_FIGHTER:
                continue
        if not valued:
            base = _value(row, tables, p)
            valued = True
        gain = _simulate(row, tables, p, a, scratch) - base
        if gain > best_gain:
            best, best_gain = a, gain
    return best


@helper
def _only_legal(mask):
    """The one legal action, -1 when none, -2 when there are several (a choice among several is simulated; the
    score of the only option cannot change which option is taken)."""
    only = -1
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            if only >= 0:
                return -2
            only = a
    return only


@helper
def decide(row, tables, p, mask, scratch):
    """The heuristic's action for player ``p`` in one row (``mask`` is p's legal mask)."""
    ctab = tables.cards
    st = row[STEP]
    if st == ST_SETUP_LEAD:
        best = -1
        best_hp = -1
        for a in range(A_CHOOSE_LEAD, A_CHOOSE_LEAD_END):
            if mask[a] != 0:
                hp = ctab[card_of(row, p, a - A_CHOOSE_LEAD), C_HP]
                if hp > best_hp:
                    best, best_hp = a, hp
        return best
    if st == ST_TRIGGERS:
        for a in range(A_ORDER, A_ORDER_END):
            if mask[a] != 0:
                return a
        return -1
    if st == ST_CHARGE:
        if row[HAND_COUNT + p] == 0 or (row[DECK_COUNT + p] <= DECK_LOW + 4 and row[CHARGE_COUNT + p] >= 3):
            return A_PASS  # the charge draws: near the end of the deck, keep it for the draw steps
        best = -1
        best_v = 1e9
        for i in range(hand_slots(row, p)):
            v = _keep_value(ctab, card_of(row, p, row[HAND + p * HAND_CAP + i]))
            if v < best_v:
                best, best_v = A_HAND + i, v
        return best
    if st == ST_REFILL:
        best = -1
        best_left = -1
        for j in range(row[BACKUP_COUNT + p]):
            if mask[A_REFILL + j] != 0:
                inst = field_at(row, p, 1 + j)
                left = hp_of(row, ctab, p, inst) - row[DAMAGE + p * D + inst]
                if left > best_left:
                    best, best_left = A_REFILL + j, left
        return best
    if st == ST_MAIN:
        a = _best_fighter_move(row, tables, p, mask)
        if a >= 0:
            return a
        a = _best_by_simulation(row, tables, p, mask, scratch, A_HAND, A_HAND_END, True, GAIN_CARD)
        if a >= 0:
            return a
        a = _best_by_simulation(row, tables, p, mask, scratch, A_SKILL, A_SKILL_END, False, 1.0)
        if a >= 0:
            return a
        lead = field_at(row, p, 0)
        if lead >= 0:
            left = hp_of(row, ctab, p, lead) - row[DAMAGE + p * D + lead]
            best = -1
            best_left = left + 20
            for j in range(row[BACKUP_COUNT + p]):
                if mask[A_SWAP + j] != 0:
                    b = field_at(row, p, 1 + j)
                    bl = hp_of(row, ctab, p, b) - row[DAMAGE + p * D + b]
                    if row[RESTED + p * D + b] == 0 and bl > best_left:
                        best, best_left = A_SWAP + j, bl
            if best >= 0 and left <= 20:
                return best
        return A_PASS
    if st == ST_CHOOSE:  # an effect's choice: the option whose simulated outcome scores best
        only = _only_legal(mask)
        if only != -2:
            return only  # one option (or none): nothing to compare
        best = -1
        best_v = -1e9
        for a in range(NUM_ACTIONS):
            if mask[a] != 0:
                v = _simulate(row, tables, p, a, scratch)
                if v > best_v:
                    best, best_v = a, v
        return best
    if st == ST_ACTION or st == ST_CLIMAX or st == ST_START_OPEN or st == ST_END_OPEN:
        base = 0.0
        valued = False  # the base score is only needed once a move besides pass is legal
        best = A_PASS
        best_gain = 0.5
        for a in range(NUM_ACTIONS):
            if mask[a] == 0 or a == A_PASS:
                continue
            margin = 0.0
            if A_HAND <= a < A_HAND_END:
                card = card_of(row, p, row[HAND + p * HAND_CAP + (a - A_HAND)])
                margin = GAIN_CARD if ctab[card, C_TYPE] != TYPE_CLIMAX else 1.0
            if not valued:
                base = _value(row, tables, p)
                valued = True
            gain = _simulate(row, tables, p, a, scratch) - base - margin
            if gain > best_gain:
                best, best_gain = a, gain
        return best
    if st == ST_TARGET:
        only = _only_legal(mask)
        if only != -2:
            return only
        best = -1
        best_v = -1e9
        for a in range(A_TARGET, A_TARGET_END):
            if mask[a] != 0:
                v = _simulate(row, tables, p, a, scratch)
                if v > best_v:
                    best, best_v = a, v
        return best
    if st == ST_WINDOW:
        base = 0.0
        valued = False  # resolving the stack as it stands is only needed once an answer is legal
        best = A_PASS
        best_gain = GAIN_CARD
        for i in range(hand_slots(row, p)):
            a = A_HAND + i
            if mask[a] == 0:
                continue
            if not valued:
                base = _resolve_value(row, tables, p, scratch)
                valued = True
            gain = _simulate(row, tables, p, a, scratch) - base
            if gain > best_gain:
                best, best_gain = a, gain
        return best
    for a in range(NUM_ACTIONS):
        if mask[a] != 0:
            return a
    return -1


@njit(cache=True, nogil=True)
def batch_decide(states, tables, players, masks, out, fallback=True):
    """``decide`` for every row with ``players[i] >= 0``, by the core's loop (``decide_rows``: an illegal choice falls
    back to the first legal action; the tests pass ``fallback=False`` to check the raw choices)."""
    decide_rows(decide, states, tables, players, masks, out, fallback, (np.empty(states.shape[1], dtype=states.dtype),))


class HeuristicAgent(StateHeuristic):
    """Greedy heartbreak player (see the module docstring); deterministic."""

    game = "heartbreak"
    kernel = staticmethod(batch_decide)


__all__ = ["HeuristicAgent", "batch_decide", "decide"]
