"""The divinecross effect interpreter: targets, ops, and the skill damage calculation (DC-A1..A7).

Targets are deterministic selectors (no extra decision): ``self`` is the unit carrying the effect (the Main Unit for
an Event or Action), ``*_main`` a player's Main Unit, ``*_standby`` every Standby Unit, ``*_all`` both.
"""
from __future__ import annotations

import numpy as np

from .board import (
    assist_sum,
    card_of,
    charge_unit,
    clear_conditions,
    deal,
    discard_energy,
    draw_cards,
    energy_of,
    standby_at,
    unit_hp,
)
from .vocab import (
    BONUS_OP_BITS,
    ATTR_NONE,
    C_ADV,
    C_ATTR,
    C_DEAL_MINUS,
    C_DEAL_PLUS,
    C_HALVE,
    C_S0_DAMAGE,
    C_S0_ENERGY,
    C_TAKE_MINUS,
    C_TAKE_PLUS,
    E_AMOUNT,
    E_N,
    E_OP,
    E_TARGET,
    E_TRIGGER,
    MAX_EFFECTS,
    MAX_SKILL_EFFECTS,
    OP_BONUS_CONDITION,
    OP_BONUS_DAMAGED,
    OP_BONUS_ENERGY,
    OP_BOOST,
    OP_CHARGE,
    OP_CURE,
    OP_DAMAGE,
    OP_DRAW,
    OP_GUARD,
    OP_HEAL,
    OP_POISON,
    OP_STRIP_ENERGY,
    OP_STUN,
    TG_OPP_ALL,
    TG_OPP_MAIN,
    TG_OPP_STANDBY,
    TG_OWN_ALL,
    TG_OWN_MAIN,
    TG_OWN_STANDBY,
    TG_SELF,
)
from . import state as S

from cardenvs.core.jit import helper

MAX_HALVES = 3  # more halvings of one hit change nothing in practice (damage is in hundreds)


# ---------------------------------------------------------------------------------------------------- targets
@helper
def target_units(row: np.ndarray, p: int, src: int, target: int, out: np.ndarray) -> int:
    """Write (player, instance) pairs selected by ``target`` into ``out``; returns how many."""
    m = 0
    if target == TG_SELF:
        u = src if src >= 0 else row[S.MAIN + p]
        if u >= 0:
            out[0, 0] = p
            out[0, 1] = u
            m = 1
        return m
    for side in range(2):
        q = p if side == 0 else 1 - p
        own = side == 0
        want_main = (own and (target == TG_OWN_MAIN or target == TG_OWN_ALL)) or (
            (not own) and (target == TG_OPP_MAIN or target == TG_OPP_ALL))
        want_standby = (own and (target == TG_OWN_STANDBY or target == TG_OWN_ALL)) or (
            (not own) and (target == TG_OPP_STANDBY or target == TG_OPP_ALL))
        if want_main and row[S.MAIN + q] >= 0:
            out[m, 0] = q
            out[m, 1] = row[S.MAIN + q]
            m += 1
        if want_standby:
            for s in range(row[S.STANDBY_COUNT + q]):
                out[m, 0] = q
                out[m, 1] = standby_at(row, q, s)
                m += 1
    return m


@helper
def target_player(p: int, target: int) -> int:
    """The player whose Main Unit a stun/poison/cure targets."""
    return 1 - p if target == TG_OPP_MAIN or target == TG_OPP_ALL or target == TG_OPP_STANDBY else p


@helper
def resolve_op(row: np.ndarray, tables, p: int, src: int, op: int, amount: int, n: int, target: int) -> None:
    """Carry out one effect owned by ``p`` whose source unit is ``src`` (-1 for an Event/Action card)."""
    if op == OP_DRAW:
        draw_cards(row, p, n)
        return
    if op == OP_STUN or op == OP_POISON or op == OP_CURE:
        q = target_player(p, target)
        if row[S.MAIN + q] < 0:
            return
        if op == OP_STUN:
            row[S.STUNNED + q] = 1
        elif op == OP_POISON:
            row[S.POISONED + q] = 1
        else:
            clear_conditions(row, q)
        return
    units = np.empty((8, 2), dtype=np.int64)
    m = target_units(row, p, src, target, units)
    for j in range(m):
        q = units[j, 0]
        u = units[j, 1]
        k = q * S.DECK_SIZE + u
        if op == OP_DAMAGE:
            deal(row, q, u, amount)  # DC-A6: not skill damage, dealt as stated
        elif op == OP_HEAL:
            row[S.DAMAGE + k] = max(0, row[S.DAMAGE + k] - amount)
        elif op == OP_CHARGE:
            for _ in range(n):
                charge_unit(row, q, u)
        elif op == OP_STRIP_ENERGY:
            discard_energy(row, q, u, n)
        elif op == OP_BOOST:
            row[S.BOOST + k] += amount
        elif op == OP_GUARD:
            row[S.GUARD + k] += amount


@helper
def fire(row: np.ndarray, tables, p: int, card: int, src: int, trigger: int) -> None:
    """Resolve every effect of ``card`` with this trigger, in card order."""
    etab = tables.effects
    for e in range(MAX_EFFECTS):
        if etab[card, e, E_TRIGGER] == trigger:
            resolve_op(row, tables, p, src, etab[card, e, E_OP], etab[card, e, E_AMOUNT], etab[card, e, E_N],
                       etab[card, e, E_TARGET])


# ---------------------------------------------------------------------------------------------------- damage
@helper
def halve_up(x: int) -> int:
    """Half, rounded up to the next 100 (damage is counted in hundreds, DC-A5)."""
    return ((x + 199) // 200) * 100


@helper
def best_order(x: int, plus: int, minus: int, halves: int) -> int:
    """DC-A2/A3/A7: apply one side's modifiers (a +plus, a -minus, ``halves`` halvings) in the order best for the
    skill's user, i.e. giving the most damage; the result never drops below 0 at any point."""
    h = min(halves, MAX_HALVES)
    n = (1 if plus > 0 else 0) + (1 if minus > 0 else 0) + h
    if n == 0:
        return max(x, 0)
    best = -1
    for i in range(n if plus > 0 else 1):  # position of the +plus (ignored when plus == 0)
        for j in range(n if minus > 0 else 1):  # position of the -minus
            if plus > 0 and minus > 0 and i == j:
                continue
            v = x
            for t in range(n):
                if plus > 0 and t == i:
                    v += plus
                elif minus > 0 and t == j:
                    v = max(0, v - minus)
                else:
                    v = halve_up(v)
            best = max(best, v)
    return best


@helper
def step1_damage(row: np.ndarray, tables, p: int, unit: int, k: int) -> int:
    """DC-A1: printed damage plus the skill ability's bonuses (the ``bonus_*`` ops)."""
    ctab = tables.cards
    stab = tables.skill_effects
    card = card_of(row, p, unit)
    q = 1 - p
    target = row[S.MAIN + q]
    dmg = ctab[card, C_S0_DAMAGE + k]
    for e in range(MAX_SKILL_EFFECTS):
        op = stab[card, k, e, E_OP]
        amount = stab[card, k, e, E_AMOUNT]
        if stab[card, k, e, E_TRIGGER] < 0:
            continue
        if op == OP_BONUS_ENERGY:
            dmg += amount * max(0, energy_of(row, p, unit) - ctab[card, C_S0_ENERGY + k])
        else:
            damaged = target >= 0 and row[S.DAMAGE + q * S.DECK_SIZE + target] > 0
            conditioned = row[S.STUNNED + q] != 0 or row[S.POISONED + q] != 0
            if (op == OP_BONUS_DAMAGED and damaged) or (op == OP_BONUS_CONDITION and conditioned):
                dmg += amount
    return dmg


@helper
def skill_damage(row: np.ndarray, tables, p: int, k: int) -> int:
    """The damage skill ``k`` of ``p``'s Main Unit would deal to the opponent's Main Unit, in the rulebook's order:
    step 1 skill damage and ability (DC-A1), step 2 the user's modifiers (DC-A2), step 3 the receiver's modifiers
    (DC-A3), both ordered by the user, then x2 for an advantageous attribute, last (DC-A4). Never below 0 (DC-A7).
    A skill whose step-1 damage is 0 does no damage: steps 2 to 4 do not apply to it (DC-A8)."""
    ctab = tables.cards
    q = 1 - p
    u = row[S.MAIN + p]
    v = row[S.MAIN + q]
    if u < 0 or v < 0:
        return 0
    cu = card_of(row, p, u)
    cv = card_of(row, q, v)
    dmg = step1_damage(row, tables, p, u, k)
    if dmg <= 0:  # DC-A8: a skill that deals no damage (printed 0, no damage ability) takes no modifiers
        return 0
    boost = row[S.BOOST + p * S.DECK_SIZE + u]
    plus = ctab[cu, C_DEAL_PLUS] + assist_sum(row, ctab, p, u, C_DEAL_PLUS) + max(boost, 0)
    minus = ctab[cu, C_DEAL_MINUS] + assist_sum(row, ctab, p, u, C_DEAL_MINUS) + max(-boost, 0)
    dmg = best_order(dmg, plus, minus, 0)
    plus = ctab[cv, C_TAKE_PLUS] + assist_sum(row, ctab, q, v, C_TAKE_PLUS)
    minus = ctab[cv, C_TAKE_MINUS] + assist_sum(row, ctab, q, v, C_TAKE_MINUS) + row[S.GUARD + q * S.DECK_SIZE + v]
    halves = ctab[cv, C_HALVE] + assist_sum(row, ctab, q, v, C_HALVE)
    dmg = best_order(dmg, plus, minus, halves)
    attr = ctab[cv, C_ATTR]
    if attr != ATTR_NONE and (ctab[cu, C_ADV] & (1 << attr)) != 0:
        dmg *= 2
    return dmg


@helper
def resolve_skill(row: np.ndarray, tables, p: int, k: int) -> int:
    """DC-K3/U5: deal the skill's damage to the opponent's Main Unit, then resolve the rest of its ability.
    Returns the damage dealt. The KO check follows (the caller)."""
    u = row[S.MAIN + p]
    card = card_of(row, p, u)
    dmg = skill_damage(row, tables, p, k)
    deal(row, 1 - p, row[S.MAIN + 1 - p], dmg)
    stab = tables.skill_effects
    for e in range(MAX_SKILL_EFFECTS):
        op = stab[card, k, e, E_OP]
        if stab[card, k, e, E_TRIGGER] < 0 or ((BONUS_OP_BITS >> op) & 1) != 0:  # the ability counts in step 1
            continue
        resolve_op(row, tables, p, u, op, stab[card, k, e, E_AMOUNT], stab[card, k, e, E_N], stab[card, k, e, E_TARGET])
    return dmg


@helper
def hp_left(row: np.ndarray, tables, q: int, unit: int) -> int:
    return unit_hp(row, tables.cards, q, unit) - row[S.DAMAGE + q * S.DECK_SIZE + unit]
