"""A greedy rule-based divinecross player, batched: one Numba kernel decides for every row at once.

What it does, by decision (see ``cardenvs/games/divinecross/RULES.md`` for the rules):

* setup: place the Unit with the most HP (ties: the cheapest first skill) as Main Unit; always take the extra draw.
* Main Phase, in this order: fill the Standby Area (most HP first: each Standby Unit is a KO the opponent still
  needs); charge once (the Main Unit until it can pay its strongest skill, then the Standby Unit that needs Energy
  most); play the Event, Action, Assist or EX-Power whose simulated result raises a value of the public board
  (KOs, damage, Energy, hand sizes, conditions) the most; retreat a Main Unit that the opponent's Main Unit would KO
  next turn when a healthier Standby Unit can take its place; retreat to a Standby Unit whose simulated attack
  this turn is worth clearly more than the Main Unit's (``SWAP_GAIN``): it finishes a Main Unit the current one
  cannot, and it breaks heal-for-heal stalls once the decks are empty (when Petal Dance still healed 200, two Bloom
  Dryads reached the turn cap in 1 of 2,007 heuristic games without it). Then end the phase.
* Battle Phase: the skill whose simulated result is worth most (usually the biggest hit), if any gains.
* After a KO: move up the Standby Unit with the most HP left (Energy counts as a bonus).

Hidden information: the kernel reads the seat's own hand, both public boards (units, damage, Energy, Assists,
conditions) and the zone sizes. To value a card it applies it to a *copy* of the row with the game's own kernels and
reads only public quantities of the result (a simulated draw moves a hidden card into the copy's hand, but only the
hand *size* is read; a simulated charge only counts Energy). Never read: the opponent's hand, either deck's order or
contents, the opponent's face-down Main Unit. ``tests/games/divinecross/test_divinecross_heuristic.py`` re-deals
what the deciding player cannot see (``hide``) three times in every position of 18 heuristic games and requires the
same decision (it catches a planted peek at the opponent's hand).
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.header import H_STATUS, H_WINNER, LIVE, TERMINATED
from cardenvs.core.jit import helper
from cardenvs.core.kernels import copy_into, decide_rows

from .base import StateHeuristic

from cardenvs.games.divinecross.actions import (
    A_CHARGE,
    A_EX_POWER,
    A_EXTRA_DRAW,
    A_HAND,
    A_HOST,
    A_PASS,
    A_PROMOTE,
    A_RETREAT,
    A_SKILL,
)
from cardenvs.games.divinecross.board import card_of, energy_of, standby_at, unit_at
from cardenvs.games.divinecross.effects import hp_left, skill_damage
from cardenvs.games.divinecross.rules import apply_action, promoter, skill_usable
from cardenvs.games.divinecross.state import (
    AREA_SIZE,
    CHARGED,
    DECK_COUNT,
    ENERGY_COUNT,
    HAND,
    HAND_CAP,
    HAND_COUNT,
    KO_COUNT,
    MAIN,
    POISONED,
    RETREATED,
    ST_ASSIST_HOST,
    ST_BATTLE,
    ST_EXTRA_DRAW,
    ST_MAIN,
    ST_SETUP_PLACE,
    STANDBY_COUNT,
    STEP,
    STUNNED,
)
from cardenvs.games.divinecross.vocab import (
    C_HP,
    C_N_SKILLS,
    C_S0_ENERGY,
    C_TYPE,
    MAX_SKILLS,
    TYPE_ASSIST,
    TYPE_UNIT,
)

__all__ = ["HeuristicAgent", "batch_decide", "decide"]

# value weights (damage units)
W_KO = 1500.0
W_UNIT = 250.0
W_ENERGY = 70.0
W_CARD = 60.0
W_STUN = 150.0
W_POISON = 120.0
W_WIN = 1e6
MIN_GAIN = 40.0  # do not spend a card on rounding noise
EX_GAIN = 150.0  # the once-per-game EX-Power waits for a real gain
SWAP_GAIN = 150.0  # a retreat to a better attacker must gain this much over attacking with the Main Unit


@helper
def _side_value(row, tables, q):
    """What player q has on the board (the higher the better for q)."""
    v = -W_KO * row[KO_COUNT + q] + W_UNIT * row[STANDBY_COUNT + q] + W_CARD * row[HAND_COUNT + q]
    v += W_ENERGY * row[ENERGY_COUNT + q]
    for j in range(1 + row[STANDBY_COUNT + q]):
        u = unit_at(row, q, j)
        if u < 0:
            continue
        left = hp_left(row, tables, q, u)
        v += min(left, 1200) * (1.0 if j == 0 else 0.7)
    v -= W_STUN * row[STUNNED + q] + W_POISON * row[POISONED + q]
    return v


@helper
def _value(row, tables, p):
    if row[H_STATUS] == TERMINATED:
        w = row[H_WINNER]
        return W_WIN if w == p else (-W_WIN if w == 1 - p else 0.0)
    return _side_value(row, tables, p) - _side_value(row, tables, 1 - p)


@helper
def _simulate(row, tables, p, a, scratch):
    """Value for p after action a (an Assist is attached to the Main Unit)."""
    copy_into(scratch, row)
    apply_action(scratch, tables, np.int64(p), np.int64(a))
    if scratch[H_STATUS] == LIVE and scratch[STEP] == ST_ASSIST_HOST:
        apply_action(scratch, tables, np.int64(p), np.int64(A_HOST))
    return _value(scratch, tables, p)


@helper
def _attack_value(row, tables, p, scratch):
    """Value for p after p's best Battle Phase from ``row`` (a skill or none), simulated in ``scratch``."""
    best = _value(row, tables, p)
    for k in range(MAX_SKILLS):
        if skill_usable(row, tables.cards, p, k):
            copy_into(scratch, row)
            scratch[STEP] = ST_BATTLE
            apply_action(scratch, tables, np.int64(p), np.int64(A_SKILL + k))
            best = max(best, _value(scratch, tables, p))
    return best


@helper
def _unit_score(row, tables, p, inst):
    card = card_of(row, p, inst)
    return tables.cards[card, C_HP] - 50 * tables.cards[card, C_S0_ENERGY]


@helper
def _max_need(ctab, card):
    need = 0
    for k in range(ctab[card, C_N_SKILLS]):
        need = max(need, ctab[card, C_S0_ENERGY + k])
    return need


@helper
def _threat(row, tables, q):
    """Most damage q's Main Unit could deal next turn with the Energy it has (one more charge counted)."""
    ctab = tables.cards
    u = row[MAIN + q]
    if u < 0 or row[MAIN + 1 - q] < 0:
        return 0
    card = card_of(row, q, u)
    have = energy_of(row, q, u) + 1
    best = 0
    for k in range(ctab[card, C_N_SKILLS]):
        if ctab[card, C_S0_ENERGY + k] <= have:
            best = max(best, skill_damage(row, tables, q, k))
    return best


@helper
def decide(row, tables, p, mask, scratch):
    """The heuristic's action for player ``p`` in one row (``mask`` is p's legal mask)."""
    ctab = tables.cards
    q = 1 - p
    if promoter(row) == p:
        best, best_v = -1, -1e9
        for s in range(row[STANDBY_COUNT + p]):
            if mask[A_PROMOTE + s] != 0:
                u = standby_at(row, p, s)
                v = hp_left(row, tables, p, u) + 100.0 * energy_of(row, p, u)
                if v > best_v:
                    best, best_v = A_PROMOTE + s, v
        return best
    st = row[STEP]
    if st == ST_SETUP_PLACE:
        best, best_v = -1, -1e9
        for i in range(row[HAND_COUNT + p]):
            if mask[A_HAND + i] != 0:
                v = _unit_score(row, tables, p, row[HAND + p * HAND_CAP + i])
                if v > best_v:
                    best, best_v = A_HAND + i, v
        return best
    if st == ST_EXTRA_DRAW:
        return A_EXTRA_DRAW
    if st == ST_ASSIST_HOST:
        return A_HOST
    if st == ST_BATTLE:
        base = _value(row, tables, p)
        best, best_v = A_PASS, base
        for k in range(MAX_SKILLS):
            if mask[A_SKILL + k] != 0:
                v = _simulate(row, tables, p, A_SKILL + k, scratch)
                if v > best_v:
                    best, best_v = A_SKILL + k, v
        return best
    if st != ST_MAIN:
        return -1
    # 1. fill the Standby Area
    best, best_v = -1, -1e9
    for i in range(row[HAND_COUNT + p]):
        if mask[A_HAND + i] != 0:
            inst = row[HAND + p * HAND_CAP + i]
            if ctab[card_of(row, p, inst), C_TYPE] == TYPE_UNIT:
                v = _unit_score(row, tables, p, inst)
                if v > best_v:
                    best, best_v = A_HAND + i, v
    if best >= 0:
        return best
    # 2. charge once (never from an empty deck: that only hurts)
    if row[CHARGED + p] == 0 and row[DECK_COUNT + p] > 0:
        m = row[MAIN + p]
        main_card = card_of(row, p, m)
        if energy_of(row, p, m) < _max_need(ctab, main_card) and mask[A_CHARGE] != 0:
            return A_CHARGE
        best, best_gap = -1, 0
        for j in range(1, 1 + row[STANDBY_COUNT + p]):
            u = unit_at(row, p, j)
            gap = _max_need(ctab, card_of(row, p, u)) - energy_of(row, p, u)
            if gap > best_gap and mask[A_CHARGE + j] != 0:
                best, best_gap = A_CHARGE + j, gap
        if best >= 0:
            return best
        if mask[A_CHARGE] != 0:
            return A_CHARGE
    # 3. the card or EX-Power that gains most
    base = _value(row, tables, p)
    best, best_gain = -1, MIN_GAIN
    for i in range(row[HAND_COUNT + p]):
        a = A_HAND + i
        if mask[a] == 0:
            continue
        kind = ctab[card_of(row, p, row[HAND + p * HAND_CAP + i]), C_TYPE]
        if kind == TYPE_UNIT:
            continue
        gain = _simulate(row, tables, p, a, scratch) - base
        if kind == TYPE_ASSIST:
            gain += 80.0  # an Assist's passive value shows only in later fights
        if gain > best_gain:
            best, best_gain = a, gain
    for j in range(AREA_SIZE):
        a = A_EX_POWER + j
        if mask[a] != 0:
            gain = _simulate(row, tables, p, a, scratch) - base
            if gain > max(best_gain, EX_GAIN):
                best, best_gain = a, gain
    if best >= 0:
        return best
    # 4. retreat a Main Unit that would be KO'd next turn, if a healthier Standby Unit can take the hit
    if row[RETREATED + p] == 0:
        m = row[MAIN + p]
        left = hp_left(row, tables, p, m)
        threat = _threat(row, tables, q)
        can_finish = False
        for k in range(MAX_SKILLS):
            om = row[MAIN + q]
            if om >= 0 and energy_of(row, p, m) >= ctab[card_of(row, p, m), C_S0_ENERGY + k] \
                    and k < ctab[card_of(row, p, m), C_N_SKILLS] \
                    and skill_damage(row, tables, p, k) >= hp_left(row, tables, q, om):
                can_finish = True
        if threat >= left and not can_finish:
            best, best_left = -1, left
            for s in range(row[STANDBY_COUNT + p]):
                if mask[A_RETREAT + s] != 0:
                    u = standby_at(row, p, s)
                    ul = hp_left(row, tables, p, u)
                    if ul > threat and ul > best_left:
                        best, best_left = A_RETREAT + s, ul
            if best >= 0:
                return best
    # 5. retreat to a Standby Unit that attacks better this turn (breaks heal-for-heal stalls in deck-out endgames)
    if row[RETREATED + p] == 0:
        stay = _attack_value(row, tables, p, scratch)
        moved = np.empty_like(row)
        best, best_v = -1, stay + SWAP_GAIN
        for s in range(row[STANDBY_COUNT + p]):
            if mask[A_RETREAT + s] != 0:
                copy_into(moved, row)
                apply_action(moved, tables, np.int64(p), np.int64(A_RETREAT + s))
                v = _attack_value(moved, tables, p, scratch)
                if v > best_v:
                    best, best_v = A_RETREAT + s, v
        if best >= 0:
            return best
    return A_PASS


@helper
def batch_decide(states, tables, players, masks, out, fallback=True):
    """``decide`` for every row with ``players[i] >= 0``, by the core's loop (``decide_rows``: an illegal choice falls
    back to the first legal action; the tests pass ``fallback=False`` to check the raw choices)."""
    decide_rows(decide, states, tables, players, masks, out, fallback, (np.empty(states.shape[1], dtype=states.dtype),))


class HeuristicAgent(StateHeuristic):
    """Greedy divinecross player (see the module docstring); deterministic."""

    game = "divinecross"
    kernel = staticmethod(batch_decide)
