"""The levelneo effect interpreter: conditions, AP (with [Cont] skills), targets, ops and [Start] triggers.

Group targets (``own_all``, ``opp_battlers``...) are deterministic selectors. ``*_one_support`` is the player's
choice (LN-K2/K3, issue 12): the candidates are the supports the op can affect (an Active one for ``rest``, a
resting one for ``activate``, any for AP changes), never the card whose effect it is; one candidate is taken
without a decision, two or more pause the effect (``fire`` returns its index) until the owner picks one.
"""
from __future__ import annotations

import numpy as np

from numba import njit

from cardenvs.core.header import H_TURN
from cardenvs.core.jit import helper
from cardenvs.core.rng import rng_below

from .board import (
    card_of, draw, has_trait, in_battle, is_attacker, is_defender, level_of, level_up, support_at,
    to_discard, zone_remove,
)
from .tables import (
    C_AP, C_HAS_CONT, C_N_EFFECTS, C_TRAITS, CO_ATTACKING, CO_DEFENDING, CO_HAS_TRAIT, CO_IN_BATTLE, CO_NONE,
    CO_OPP_TURN, CO_OWN_TURN, DU_BATTLE, DU_NEXT_BATTLE, E_AMOUNT, E_COND, E_COND_TRAIT, E_DURATION, E_FILTER,
    E_LEVEL, E_N, E_OP, E_TARGET, E_TRIGGER, MAX_EFFECTS, OP_ACTIVATE, OP_AP_DOWN, OP_AP_UP, OP_DRAW, OP_LEVEL_UP,
    OP_OPP_DISCARD, OP_PREVENT_LEVEL_DOWN, OP_REST, TG_OPP_ALL, TG_OPP_BATTLERS, TG_OPP_MAIN, TG_OPP_ONE,
    TG_OPP_SUPPORTS, TG_OWN_ALL, TG_OWN_BATTLERS, TG_OWN_MAIN, TG_OWN_ONE, TG_OWN_SUPPORTS, TG_SELF, TR_CONT,
)
from . import reasons as W
from . import state as S


@helper
def condition_holds(row: np.ndarray, tables, p: int, src: int, cond: int, trait: int) -> bool:
    """``src`` is the instance carrying the effect (-1 for an event card being played)."""
    if cond == CO_NONE:
        return True
    if cond == CO_OWN_TURN:
        return row[S.TURN_PLAYER] == p
    if cond == CO_OPP_TURN:
        return row[S.TURN_PLAYER] != p
    if cond == CO_HAS_TRAIT:
        return has_trait(row, tables.cards, p, trait)
    if cond == CO_IN_BATTLE:
        return in_battle(row, p, src)
    if cond == CO_ATTACKING:
        return is_attacker(row, p, src)
    if cond == CO_DEFENDING:
        return is_defender(row, p, src)
    return False


@njit(cache=True, inline="always")
def effect_refusal(row: np.ndarray, tables, p: int, card: int, e: int, src: int) -> int:
    """Why effect ``e`` is not active (a ``reasons`` code: its (Lv #) requirement, LN-K5, or its condition), or
    ``W.NONE``."""
    eff = tables.effects[card, e]
    if level_of(row, p) < eff[E_LEVEL]:
        return W.LEVEL_REQUIREMENT
    if not condition_holds(row, tables, p, src, eff[E_COND], eff[E_COND_TRAIT]):
        return W.CONDITION
    return W.NONE


@helper
def effect_active(row: np.ndarray, tables, p: int, card: int, e: int, src: int) -> bool:
    """(Lv #) requirement (LN-K5) and the effect's condition."""
    return effect_refusal(row, tables, p, card, e, src) == W.NONE


@helper
def selects(row: np.ndarray, tables, owner: int, src: int, target: int, filt: int, q: int, inst: int) -> bool:
    """Whether the selector ``target`` of an effect owned by ``owner`` covers instance ``inst`` of player ``q``."""
    if filt != 0 and (tables.cards[card_of(row, q, inst), C_TRAITS] & filt) == 0:
        return False
    own = q == owner
    is_main = inst == row[S.MAIN + q]
    if target == TG_SELF:
        return own and inst == src
    if target == TG_OWN_MAIN:
        return own and is_main
    if target == TG_OWN_SUPPORTS:
        return own and not is_main
    if target == TG_OWN_ALL:
        return own
    if target == TG_OWN_BATTLERS:
        return own and in_battle(row, q, inst)
    if target == TG_OPP_MAIN:
        return (not own) and is_main
    if target == TG_OPP_SUPPORTS:
        return (not own) and not is_main
    if target == TG_OPP_ALL:
        return not own
    if target == TG_OPP_BATTLERS:
        return (not own) and in_battle(row, q, inst)
    return False


#: the most characters on the field at once (main + supports of both players)
MAX_FIELD_CHARACTERS = 2 * (1 + S.SUPPORT_CAP)
#: the most [Cont] effects that can be in force at once: every effect of every field character
MAX_CONT_SOURCES = MAX_FIELD_CHARACTERS * MAX_EFFECTS
#: columns of the ``sources`` array of :func:`active_conts` (one row per [Cont] effect in force)
SRC_OWNER, SRC_INST, SRC_CARD, SRC_EFFECT = range(4)
NUM_SOURCE_COLUMNS = 4


@helper
def active_conts(row: np.ndarray, tables, sources: np.ndarray) -> int:
    """The [Cont] skills in force now (LN-K1, with their level and condition, LN-K5): rows ``(owner, instance,
    card, effect)`` written into ``sources``; returns how many. They do not depend on whose AP is asked, so a
    caller that needs many APs (the observation) finds them once."""
    ctab = tables.cards
    n = 0
    for owner in range(2):
        for s in range(-1, row[S.SUPPORT_COUNT + owner]):
            c = row[S.MAIN + owner] if s < 0 else support_at(row, owner, s)
            if c < 0:  # no main character yet (setup)
                continue
            card = card_of(row, owner, c)
            if ctab[card, C_HAS_CONT] == 0:
                continue
            for e in range(ctab[card, C_N_EFFECTS]):
                if tables.effects[card, e][E_TRIGGER] != TR_CONT or not effect_active(row, tables, owner, card, e, c):
                    continue
                sources[n, SRC_OWNER] = owner
                sources[n, SRC_INST] = c
                sources[n, SRC_CARD] = card
                sources[n, SRC_EFFECT] = e
                n += 1
    return n


@helper
def ap_given(row: np.ndarray, tables, q: int, inst: int, sources: np.ndarray, n_sources: int) -> int:
    """:func:`compute_ap` with the [Cont] skills in force already found by :func:`active_conts`."""
    ctab = tables.cards
    k = q * S.DECK_SIZE + inst
    ap = ctab[card_of(row, q, inst), C_AP] + row[S.AP_TURN + k] + row[S.AP_NEXT + k] + row[S.AP_BATTLE + k]
    if inst == row[S.MAIN + q] and row[S.TURN_PLAYER] == q:
        ap += S.AP_PER_LEVEL * level_of(row, q)
    for j in range(n_sources):
        eff = tables.effects[sources[j, SRC_CARD], sources[j, SRC_EFFECT]]
        if selects(row, tables, sources[j, SRC_OWNER], sources[j, SRC_INST], eff[E_TARGET], eff[E_FILTER], q, inst):
            ap += eff[E_AMOUNT] if eff[E_OP] == OP_AP_UP else -eff[E_AMOUNT]
    return max(ap, 0)


@helper
def compute_ap(row: np.ndarray, tables, q: int, inst: int) -> int:
    """Current AP of a character on the field: base, timed modifiers, [Cont] skills (LN-K1), level bonus (LN-L4).

    One pass, no allocation (the rules ask for one AP at a time); the observation, which needs every character's
    AP, uses :func:`active_conts` + :func:`ap_given` instead (tested equal)."""
    ctab = tables.cards
    etab = tables.effects
    k = q * S.DECK_SIZE + inst
    ap = ctab[card_of(row, q, inst), C_AP] + row[S.AP_TURN + k] + row[S.AP_NEXT + k] + row[S.AP_BATTLE + k]
    if inst == row[S.MAIN + q] and row[S.TURN_PLAYER] == q:
        ap += S.AP_PER_LEVEL * level_of(row, q)
    for owner in range(2):
        n = row[S.SUPPORT_COUNT + owner]
        for s in range(-1, n):
            c = row[S.MAIN + owner] if s < 0 else support_at(row, owner, s)
            if c < 0:  # no main character yet (setup)
                continue
            card = card_of(row, owner, c)
            if ctab[card, C_HAS_CONT] == 0:
                continue
            for e in range(ctab[card, C_N_EFFECTS]):
                eff = etab[card, e]
                if eff[E_TRIGGER] != TR_CONT:
                    continue
                if not selects(row, tables, owner, c, eff[E_TARGET], eff[E_FILTER], q, inst):
                    continue
                if not effect_active(row, tables, owner, card, e, c):
                    continue
                ap += eff[E_AMOUNT] if eff[E_OP] == OP_AP_UP else -eff[E_AMOUNT]
    return max(ap, 0)


@helper
def one_want(op: int) -> int:
    """Rest state a one-support op needs: 0 Active (``rest``), 1 resting (``activate``), -1 any."""
    return 0 if op == OP_REST else (1 if op == OP_ACTIVATE else -1)


@helper
def one_side(p: int, target: int) -> int:
    return p if target == TG_OWN_ONE else 1 - p


@njit(cache=True, inline="always")
def one_refusal(row: np.ndarray, tables, p: int, src: int, target: int, filt: int, op: int, inst: int) -> int:
    """Why support ``inst`` of the affected player may not be chosen by a one-support effect of ``p`` from ``src``
    (a ``reasons`` code), or ``W.NONE``."""
    q = one_side(p, target)
    if q == p and inst == src:  # LN-K3 / issue 12 item 15: never the card whose effect it is (no cost refund)
        return W.CHOICE_ITSELF
    if filt != 0 and (tables.cards[card_of(row, q, inst), C_TRAITS] & filt) == 0:
        return W.CHOICE_TRAIT
    want = one_want(op)
    if want >= 0 and row[S.RESTED + q * S.DECK_SIZE + inst] != want:
        return W.CHOICE_RESTING if want == 0 else W.CHOICE_ACTIVE
    return W.NONE


@helper
def one_candidate(row: np.ndarray, tables, p: int, src: int, target: int, filt: int, op: int, inst: int) -> bool:
    """Whether support ``inst`` of the affected player may be chosen by a one-support effect of ``p`` from ``src``."""
    return one_refusal(row, tables, p, src, target, filt, op, inst) == W.NONE


@helper
def one_candidates(row: np.ndarray, tables, p: int, src: int, target: int, filt: int, op: int) -> int:
    """How many supports a one-support effect could be applied to; the last one's instance is ``-2 - n`` (n > 0)."""
    q = one_side(p, target)
    n = 0
    last = -1
    for s in range(row[S.SUPPORT_COUNT + q]):
        inst = support_at(row, q, s)
        if one_candidate(row, tables, p, src, target, filt, op, inst):
            n += 1
            last = inst
    return n if n != 1 else -2 - last


@helper
def may_still_be_judged(row: np.ndarray, q: int, inst: int) -> bool:
    """Whether character ``inst`` of ``q`` can still take part in a battle judgement this turn, by public
    information: it is in the battle in progress, may still cover in it (the defender's supports before the cover
    step, LN-C1), or a later attack can involve it (the battle phase is still to come or under way, and the turn
    player's character has not attacked yet (LN-A1) or, for the defender's characters, the turn player still has
    one that has not). AP changes end by the end of the turn (LN-T8) and AP counts only in a judgement (LN-J1), so an
    AP change on any other character changes nothing; the defender's rest state lasts only until its own turn starts
    (LN-T1), so the same holds for resting or activating it."""
    tp = row[S.TURN_PLAYER]
    st = row[S.STEP]
    if row[S.BATTLE] != 0:
        if in_battle(row, q, inst):
            return True
        if q != tp and st == S.ST_DECL_WINDOW and inst != row[S.MAIN + q]:
            return True  # it may still become the cover
    if st == S.ST_MAIN and (row[S.MAIN_PHASE] == 2 or row[H_TURN] <= 1):
        return False  # main phase 2, or the first turn (LN-T5): no battle is left this turn
    if q == tp:
        return row[S.ATTACKED + q * S.DECK_SIZE + inst] == 0
    if row[S.ATTACKED + tp * S.DECK_SIZE + row[S.MAIN + tp]] == 0:
        return True
    for s in range(row[S.SUPPORT_COUNT + tp]):
        if row[S.ATTACKED + tp * S.DECK_SIZE + support_at(row, tp, s)] == 0:
            return True
    return False


@helper
def op_changes(row: np.ndarray, q: int, inst: int, op: int) -> bool:
    """Whether applying ``op`` (an AP change, ``rest`` or ``activate``) to character ``inst`` of ``q`` would change
    anything: a rest state must differ, and the turn player's rest state lasts through the opponent's turn (cover,
    LN-C1; support attack targets, LN-A3), the defender's only while a battle can still come this turn."""
    if op == OP_REST or op == OP_ACTIVATE:
        if row[S.RESTED + q * S.DECK_SIZE + inst] == (1 if op == OP_REST else 0):
            return False
        return q == row[S.TURN_PLAYER] or may_still_be_judged(row, q, inst)
    return may_still_be_judged(row, q, inst)


@helper
def effect_idle(row: np.ndarray, tables, p: int, card: int, e: int, src: int) -> int:
    """Why effect ``e`` would change nothing now (an ``IDLE_*`` code of ``reasons``), or ``W.NONE`` when it would
    (LN-T3/LN-K3, issue 12 items 15 and 17, issue 39 item 6: a Use skill or event none of whose effects can act is
    not offered). Public information only decides it: deck and hand sizes, levels, the battle, rest states and
    attacks of the field."""
    eff = tables.effects[card, e]
    op = eff[E_OP]
    if op == OP_DRAW:
        return W.NONE if row[S.DECK_COUNT + p] > 0 else W.IDLE_DECK_EMPTY
    if op == OP_OPP_DISCARD:
        return W.NONE if row[S.HAND_COUNT + 1 - p] > 0 else W.IDLE_OPP_HAND_EMPTY
    if op == OP_LEVEL_UP:  # LN-L2/L6: a card must move from the deck, below level 5
        if row[S.LEVEL_COUNT + p] >= S.LEVEL_CAP:
            return W.IDLE_LEVEL_NEO
        return W.NONE if row[S.DECK_COUNT + p] > 0 else W.IDLE_DECK_EMPTY
    if op == OP_PREVENT_LEVEL_DOWN:  # only a defending main that is the target can level down (LN-J5), not at 1 (L6)
        if (row[S.BATTLE] != 0 and p != row[S.TURN_PLAYER] and row[S.TARGET] == row[S.MAIN + p]
                and row[S.NO_LEVEL_DOWN + p] == 0 and row[S.LEVEL_COUNT + p] > 0):
            return W.NONE
        return W.IDLE_NO_LEVEL_DOWN
    # a rest-state op finds every character in that state already (or out of reach); an AP change, none in a battle
    idle = W.IDLE_REST_STATE if op == OP_REST or op == OP_ACTIVATE else W.IDLE_NO_BATTLE
    target = eff[E_TARGET]
    if target == TG_OWN_ONE or target == TG_OPP_ONE:
        q = one_side(p, target)
        for s in range(row[S.SUPPORT_COUNT + q]):
            inst = support_at(row, q, s)
            if one_candidate(row, tables, p, src, target, eff[E_FILTER], op, inst) and op_changes(row, q, inst, op):
                return W.NONE
        return idle
    for q in range(2):
        for s in range(-1, row[S.SUPPORT_COUNT + q]):
            inst = row[S.MAIN + q] if s < 0 else support_at(row, q, s)
            if inst >= 0 and selects(row, tables, p, src, target, eff[E_FILTER], q, inst) \
                    and op_changes(row, q, inst, op):
                return W.NONE
    return idle


@helper
def effect_can_act(row: np.ndarray, tables, p: int, card: int, e: int, src: int) -> bool:
    """Whether effect ``e`` would change anything now (see :func:`effect_idle`)."""
    return effect_idle(row, tables, p, card, e, src) == W.NONE


@helper
def effect_status(row: np.ndarray, tables, p: int, card: int, e: int, src: int) -> int:
    """``W.NONE`` when effect ``e`` is active and would change something now; else ``W.IDLE_INACTIVE`` (its level
    or condition fails) or its ``effect_idle`` code: what :func:`any_effect_can_act` asks of each effect, and what
    ``text.py`` words when none of a card's effects would act."""
    if not effect_active(row, tables, p, card, e, src):
        return W.IDLE_INACTIVE
    return effect_idle(row, tables, p, card, e, src)


@helper
def any_effect_can_act(row: np.ndarray, tables, p: int, card: int, trigger: int, src: int) -> bool:
    etab = tables.effects
    for e in range(MAX_EFFECTS):
        if etab[card, e, E_TRIGGER] == trigger and effect_status(row, tables, p, card, e, src) == W.NONE:
            return True
    return False


@helper
def apply_to(row: np.ndarray, tables, q: int, inst: int, op: int, amount: int, duration: int) -> None:
    k = q * S.DECK_SIZE + inst
    if op == OP_AP_UP or op == OP_AP_DOWN:
        delta = amount if op == OP_AP_UP else -amount
        if duration == DU_BATTLE:
            row[S.AP_BATTLE + k] += delta
        elif duration == DU_NEXT_BATTLE:
            row[S.AP_NEXT + k] += delta
        else:
            row[S.AP_TURN + k] += delta
    elif op == OP_REST:
        row[S.RESTED + k] = 1
    elif op == OP_ACTIVATE:
        row[S.RESTED + k] = 0


@helper
def resolve_effect(row: np.ndarray, tables, p: int, card: int, e: int, src: int) -> bool:
    """Carry out one effect of ``card`` owned by ``p`` (conditions are checked by the caller); True when it waits
    for the owner's choice of a support (two or more candidates)."""
    eff = tables.effects[card, e]
    op = eff[E_OP]
    if op == OP_DRAW:
        for _ in range(eff[E_N]):
            draw(row, p)
        return False
    if op == OP_OPP_DISCARD:
        q = 1 - p
        for _ in range(eff[E_N]):
            n = row[S.HAND_COUNT + q]
            if n == 0:
                break
            inst = zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, q, rng_below(row, n))
            to_discard(row, q, inst)
        return False
    if op == OP_PREVENT_LEVEL_DOWN:
        row[S.NO_LEVEL_DOWN + p] = 1
        return False
    if op == OP_LEVEL_UP:
        level_up(row, p)
        return False
    target = eff[E_TARGET]
    filt = eff[E_FILTER]
    if target == TG_OWN_ONE or target == TG_OPP_ONE:
        n = one_candidates(row, tables, p, src, target, filt, op)
        if n < 0:  # exactly one candidate: no decision
            apply_to(row, tables, one_side(p, target), -2 - n, op, eff[E_AMOUNT], eff[E_DURATION])
        return n > 0
    # collect first, apply after: an AP change must not alter which characters a battler/filter selector covers
    chosen = np.empty(MAX_FIELD_CHARACTERS, dtype=np.int64)
    m = 0
    for q in range(2):
        for s in range(-1, row[S.SUPPORT_COUNT + q]):
            inst = row[S.MAIN + q] if s < 0 else support_at(row, q, s)
            if selects(row, tables, p, src, target, filt, q, inst):
                chosen[m] = q * S.DECK_SIZE + inst
                m += 1
    for j in range(m):
        apply_to(row, tables, chosen[j] // S.DECK_SIZE, chosen[j] % S.DECK_SIZE, op, eff[E_AMOUNT], eff[E_DURATION])
    return False


@helper
def fire(row: np.ndarray, tables, p: int, inst: int, trigger: int, first: int) -> int:
    """LN-K2: resolve the effects ``first``.. of ``inst`` with this [Start] trigger (or burst/event text) whose
    (Lv #) and condition hold, in card order; returns -1 when done, or the index of the effect that waits for its
    owner's choice of a support."""
    card = card_of(row, p, inst)
    etab = tables.effects
    for e in range(first, MAX_EFFECTS):
        if etab[card, e, E_TRIGGER] == trigger and effect_active(row, tables, p, card, e, inst):
            if resolve_effect(row, tables, p, card, e, inst):
                return e
    return -1

