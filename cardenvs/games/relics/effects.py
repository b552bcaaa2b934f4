"""The relics effect interpreter: one effect (op + target) of a card, ability, location or leader card.

Targets: ``self`` is the character carrying the ability (or the caster of an item/spell), ``own_one`` / ``opp_one``
the character chosen in the pending decision, ``own_all`` / ``opp_all`` every character of that side in play.
Black and White spells skip standing opposing Black / White characters (RL-K1/K2). Targets are collected first and
changed after, so a defeat does not shift who else is hit.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.jit import kernel
from cardenvs.core.rng import rng_below

from .board import (
    TO_DISCARD,
    add_to_hand,
    add_to_reserves,
    card_of,
    def_of,
    draw_item,
    immune,
    is_down,
    leave_play,
    mark_known,
    pop_character,
    qualifies,
    to_discard,
    zone_remove,
)
from .cards import (
    C_TYPE,
    CO_LEADER_MATCH,
    E_ATT,
    E_COND,
    E_DEF,
    E_N,
    E_OP,
    E_POWER,
    E_TARGET,
    E_TRIGGER,
    MAX_EFFECTS,
    OP_BOOST,
    OP_DOWN,
    OP_DRAW,
    OP_EXHUME,
    OP_OPP_DISCARD,
    OP_RAISE,
    OP_RECLAIM,
    OP_RECRUIT,
    OP_STRIKE,
    OP_UP,
    T_CHARACTER,
    T_EQUIPMENT,
    T_ITEM,
    T_SPELL,
    TG_NONE,
    TG_OPP_ALL,
    TG_OPP_ONE,
    TG_OWN_ALL,
    TG_OWN_ONE,
    TG_SELF,
)
from . import state as S


@njit(cache=True, inline="always")
def pile_kind_fits(op: int, kind: int) -> bool:
    """RL-Z5/Z6: what each take-back may pick: raise a character, reclaim an item-deck card (equipment, item,
    spell), exhume either."""
    is_char = kind == T_CHARACTER
    is_item = kind == T_EQUIPMENT or kind == T_ITEM or kind == T_SPELL
    return (op == OP_RAISE and is_char) or (op == OP_RECLAIM and is_item) or (op == OP_EXHUME and (is_char or is_item))


@kernel
def pile_candidate(row: np.ndarray, ctab: np.ndarray, p: int, op: int, exclude: int, cid: int) -> int:
    """Index in ``p``'s pile of the most recent card a take-back may pick (raise: a character of the discard pile,
    while the reserves have room; reclaim: an item-deck card of the discard pile; exhume: any card of the doom pile),
    of card id ``cid`` (any when negative), never the instance ``exclude`` (the card being resolved); -1 if none.
    The reserves have no limit (RL-P4), so a raise finds a candidate whenever the pile holds a character.
    Copies of one card are alike, so which copy is taken cannot matter."""
    zone = S.DOOM if op == OP_EXHUME else S.DISCARD
    count = S.DOOM_COUNT if op == OP_EXHUME else S.DISCARD_COUNT
    for j in range(row[count + p] - 1, -1, -1):
        inst = row[zone + p * S.MAX_DECK + j]
        card = card_of(row, p, inst)
        if inst == exclude or (cid >= 0 and card != cid):
            continue
        if pile_kind_fits(op, ctab[card, C_TYPE]):
            return j
    return -1


@kernel
def take_back(row: np.ndarray, ctab: np.ndarray, p: int, op: int, j: int) -> None:
    """RL-Z5/Z6: the card at index ``j`` of the pile comes back: a character to the reserves, others to the hand."""
    zone = S.DOOM if op == OP_EXHUME else S.DISCARD
    count = S.DOOM_COUNT if op == OP_EXHUME else S.DISCARD_COUNT
    inst = zone_remove(row, zone, count, S.MAX_DECK, p, j)
    mark_known(row, p, inst)  # it came from a face-up pile
    if ctab[card_of(row, p, inst), C_TYPE] == T_CHARACTER:
        add_to_reserves(row, p, inst)
    else:
        add_to_hand(row, p, inst)


@kernel
def apply_op(row: np.ndarray, tables, p: int, card: int, e: int, src: int, target: int, school: int) -> None:
    """Carry out effect ``e`` of ``card`` for player ``p``; ``src`` the carrying/casting character (-1 none),
    ``target`` the chosen character (own or opposing, by the effect's target kind; -1 none)."""
    ctab = tables.cards
    eff = tables.effects[card, e]
    op = eff[E_OP]
    n = eff[E_N]
    q = 1 - p
    if op == OP_DRAW:
        for _ in range(n):
            draw_item(row, p)
        return
    if op == OP_RECRUIT:  # RL-P4: the reserves have no limit once the battle starts
        for _ in range(n):
            inst = pop_character(row, p)
            if inst < 0:
                break
            add_to_reserves(row, p, inst)
        return
    if op == OP_RAISE or op == OP_RECLAIM or op == OP_EXHUME:
        # a take-back: the player picks each card (ST_PILE); the caller resumes once it is done (pend_next)
        if pile_candidate(row, ctab, p, op, -1, -1) >= 0:
            row[S.STEP] = S.ST_PILE
            row[S.PEND_KIND] = S.PK_PILE
            row[S.PEND_PLAYER] = p
            row[S.PEND_SRC] = op
            row[S.PEND_CARD] = -1
            row[S.PEND_CASTER] = -1
            row[S.PEND_TARGET] = -1
            row[S.PEND_LEFT] = n
            row[S.PEND_NEXT] = -1
        return
    if op == OP_OPP_DISCARD:
        for _ in range(n):
            m = row[S.HAND_COUNT + q]
            if m == 0:
                break
            inst = zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, q, rng_below(row, m))
            to_discard(row, q, inst)
        return
    # character ops: collect (side, instance) first
    tg = eff[E_TARGET]
    chosen = np.empty(2 * S.PARTY_SIZE, dtype=np.int64)
    m = 0
    if tg == TG_SELF:
        if src >= 0:
            chosen[0] = p * S.MAX_DECK + src
            m = 1
    elif tg == TG_OWN_ONE:
        if target >= 0:
            chosen[0] = p * S.MAX_DECK + target
            m = 1
    elif tg == TG_OPP_ONE:
        if target >= 0 and not immune(row, ctab, p, q, target, school):
            chosen[0] = q * S.MAX_DECK + target
            m = 1
    elif tg == TG_OWN_ALL or tg == TG_OPP_ALL:
        side = p if tg == TG_OWN_ALL else q
        for j in range(row[S.PARTY_COUNT + side]):
            inst = row[S.PARTY + side * S.PARTY_SIZE + j]
            if not immune(row, ctab, p, side, inst, school):
                chosen[m] = side * S.MAX_DECK + inst
                m += 1
    elif tg == TG_NONE:
        return
    if op == OP_STRIKE:  # read every DEF before anyone leaves play
        for j in range(m):
            side = chosen[j] // S.MAX_DECK
            inst = chosen[j] % S.MAX_DECK
            if def_of(row, tables, side, inst) > eff[E_POWER]:
                chosen[j] = -1
        for j in range(m):
            if chosen[j] >= 0:
                leave_play(row, chosen[j] // S.MAX_DECK, chosen[j] % S.MAX_DECK, TO_DISCARD)
        return
    for j in range(m):
        k = chosen[j]
        if op == OP_UP:
            row[S.DOWN + k] = 0
        elif op == OP_DOWN:
            row[S.DOWN + k] = 1
        elif op == OP_BOOST:
            row[S.ATT_MOD + k] += eff[E_ATT]
            row[S.DEF_MOD + k] += eff[E_DEF]


@kernel
def char_op_useful(row: np.ndarray, tables, eff: np.ndarray, p: int, side: int, inst: int, payer: int) -> bool:
    """RL-M4: whether a character op of effect ``eff`` (of player ``p``) changes character ``inst`` of ``side``, once
    ``payer`` (own character, -1 none) went Down to pay: an Up only Ups a Down character (the payer was Up before it
    paid, so Upping it gives back the payment and nothing else), a Down only Downs an Up one, a strike only hits a
    character whose DEF is at most its power, a boost changes ATT or DEF."""
    op = eff[E_OP]
    paid = side == p and inst == payer
    if op == OP_UP:
        return is_down(row, side, inst) and not paid
    if op == OP_DOWN:
        return not is_down(row, side, inst) and not paid
    if op == OP_STRIKE:
        return def_of(row, tables, side, inst) <= eff[E_POWER]
    if op == OP_BOOST:
        return eff[E_ATT] != 0 or eff[E_DEF] != 0
    return False


@kernel
def op_useful(row: np.ndarray, tables, p: int, card: int, e: int, src: int, payer: int, target: int,
              school: int) -> bool:
    """RL-M4: whether effect ``e`` of ``card`` would change the game when ``p`` fires it now: ``src`` the character
    carrying or casting it (-1 none), ``payer`` the character Downed to pay for it (-1 none), ``target`` the chosen
    character (own or opposing by the effect's target kind; -1: any character it may be aimed at)."""
    ctab = tables.cards
    eff = tables.effects[card, e]
    op = eff[E_OP]
    q = 1 - p
    if op == OP_DRAW:
        return row[S.ITEM_DECK_COUNT + p] > 0
    if op == OP_RECRUIT:
        return row[S.CHAR_DECK_COUNT + p] > 0
    if op == OP_RAISE or op == OP_RECLAIM or op == OP_EXHUME:
        return pile_candidate(row, ctab, p, op, -1, -1) >= 0
    if op == OP_OPP_DISCARD:
        return row[S.HAND_COUNT + q] > 0
    tg = eff[E_TARGET]
    if tg == TG_SELF:
        return src >= 0 and char_op_useful(row, tables, eff, p, p, src, payer)
    if (tg == TG_OWN_ONE or tg == TG_OPP_ONE) and target >= 0:
        side = p if tg == TG_OWN_ONE else q
        return (not immune(row, ctab, p, side, target, school)
                and char_op_useful(row, tables, eff, p, side, target, payer))
    if tg == TG_OWN_ONE or tg == TG_OWN_ALL or tg == TG_OPP_ONE or tg == TG_OPP_ALL:
        side = p if (tg == TG_OWN_ONE or tg == TG_OWN_ALL) else q
        for j in range(row[S.PARTY_COUNT + side]):
            inst = row[S.PARTY + side * S.PARTY_SIZE + j]
            if row[S.FACE_DOWN + side * S.MAX_DECK + inst] != 0:
                continue  # only before the reveal, when no effect can be used: its stats are not public
            if not immune(row, ctab, p, side, inst, school) and char_op_useful(row, tables, eff, p, side, inst, payer):
                return True
    return False


@kernel
def effect_useful(row: np.ndarray, tables, p: int, card: int, trigger: int, src: int, payer: int, target: int,
                  school: int) -> bool:
    """RL-M4: a card or ability is offered only when one of its ``trigger`` effects would change the game (see
    ``op_useful``); paying its cost alone (a Down, the card) is no use."""
    etab = tables.effects
    for e in range(MAX_EFFECTS):
        if etab[card, e, E_TRIGGER] == trigger and op_useful(row, tables, p, card, e, src, payer, target, school):
            return True
    return False


@kernel
def fire(row: np.ndarray, tables, p: int, card: int, trigger: int, src: int, target: int, school: int) -> None:
    """Resolve every effect of ``card`` with this trigger, in card order (location effects check their condition)."""
    etab = tables.effects
    for e in range(MAX_EFFECTS):
        if etab[card, e, E_TRIGGER] != trigger:
            continue
        if etab[card, e, E_COND] == CO_LEADER_MATCH and not qualifies(row, tables.cards, p):
            continue
        apply_op(row, tables, p, card, e, src, target, school)
