"""levelneo rules as Numba kernels over one state row: reset, legal mask, apply, advance, and the batch wrappers.

Flow: ``step_row`` checks the action with ``action_legal`` (the branches of ``mask_row``, for that action only),
applies it (``apply_action``), then ``settle`` runs
``advance`` (every forced step: start of turn, judgement, end of turn...) to the next decision. A decision whose
single legal action follows from public information (the only possible target, a burst nobody can make) is played
automatically and does not count as an agent decision. Windows are different: whether a player could use something
there depends on its hidden hand, so a window is offered to a player whenever public information allows it to act
(a card in hand or a usable [Use] skill on the field) and passed for it only when it has neither, so that *when* a
player gets a decision never tells the other what its hand holds.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import (
    DRAW, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, NO_WINNER,
)
from cardenvs.core.jit import helper, kernel
from cardenvs.core.kernels import wanted
from cardenvs.core.rng import rng_below, rng_seed, shuffle_slice
from cardenvs.core.turns import finish, set_decision, truncate
from cardenvs.core.zones import deal_deck_lists

from .actions import (
    A_ATTACK, A_ATTACK_END, A_BURST, A_BURST_KNOWN, A_BURST_KNOWN_END, A_CHOOSE_MAIN, A_COMBI_LOSS, A_COVER,
    A_COVER_END, A_EFFECT_TARGET, A_EFFECT_TARGET_END, A_GO_FIRST, A_GO_SECOND, A_HAND, A_HAND_END, A_LEVEL_DOWN,
    A_LEVEL_DOWN_END, A_LEVEL_UP, A_PARTNER, A_PARTNER_END, A_PASS, A_SKILL, A_SKILL_END, A_TARGET, A_TARGET_END,
    NUM_ACTIONS,
)
from .board import (
    card_of, deck_to_bottom, discard_support, draw, is_rested, level_down_at, level_of, level_up, support_at,
    to_discard, zone_find, zone_push, zone_remove, has_color,
)
from .effects import (
    any_effect_can_act, apply_to, compute_ap, effect_refusal, fire, one_refusal, one_side,
)
from . import reasons as W
from . import state as S
from .tables import (
    C_COLOR, C_EVENT_EFFECT, C_HAS_BURST, C_MAIN_OK, C_TURN_COST, C_TYPE, C_USE_EFFECT, E_AMOUNT, E_COST_REST,
    E_DURATION, E_FILTER, E_OP, E_PHASE, E_SKILL, E_TARGET, E_TURN, PH_ANY, PH_BATTLE, PH_MAIN, TR_BURST, TR_END_TURN,
    TR_EVENT, TR_ON_ATTACK, TR_ON_PLAY, TR_ON_WIN, TR_USE, TU_ANY, TU_OWN, TYPE_CHARACTER,
)


# ----------------------------------------------------------------------------------------------------------------
# small state helpers
@helper
def is_neo(row: np.ndarray, p: int) -> bool:
    """LN-L5: level 5 is Level Neo."""
    return level_of(row, p) >= S.MAX_LEVEL


@helper
def skill_used(row: np.ndarray, p: int, skill: int) -> bool:
    """LN-K4: whether ``p`` used skill id ``skill`` this turn (a bit set over the pool's skills: no cap)."""
    return ((row[S.USED_SKILLS + p * S.USED_WORDS + skill // S.USED_BITS] >> (skill % S.USED_BITS)) & 1) != 0


@helper
def mark_skill(row: np.ndarray, p: int, skill: int) -> None:
    row[S.USED_SKILLS + p * S.USED_WORDS + skill // S.USED_BITS] |= 1 << (skill % S.USED_BITS)


@helper
def queue_effects(row: np.ndarray, p: int, inst: int, trigger: int) -> None:
    """Effects resolve in one place (``drain_effects``, run by ``advance`` before anything else), in the order
    they were queued; keeping a single call site of the interpreter keeps the compiled kernels small."""
    n = row[S.QUEUE_COUNT]
    if n < S.QUEUE_CAP:
        at = S.QUEUE + S.QUEUE_ENTRY_SIZE * n
        row[at + S.QUEUE_ENTRY_PLAYER] = p
        row[at + S.QUEUE_ENTRY_INST] = inst
        row[at + S.QUEUE_ENTRY_TRIGGER] = trigger
        row[at + S.QUEUE_ENTRY_NEXT_EFFECT] = 0
        row[S.QUEUE_COUNT] = n + 1


@helper
def drain_effects(row: np.ndarray, tables) -> None:
    """Resolve queued effects first in first out; stop when one waits for its owner's choice of a support
    (``CHOICE_PLAYER`` set, the entry stays at the head of the queue and resumes after the chosen effect)."""
    while row[S.QUEUE_COUNT] > 0 and row[S.CHOICE_PLAYER] < 0:
        p = row[S.QUEUE + S.QUEUE_ENTRY_PLAYER]  # the head of the queue
        inst = row[S.QUEUE + S.QUEUE_ENTRY_INST]
        e = fire(row, tables, p, inst, row[S.QUEUE + S.QUEUE_ENTRY_TRIGGER], row[S.QUEUE + S.QUEUE_ENTRY_NEXT_EFFECT])
        if e >= 0:
            row[S.CHOICE_PLAYER] = p
            row[S.CHOICE_INST] = inst
            row[S.CHOICE_EFFECT] = e
            row[S.QUEUE + S.QUEUE_ENTRY_NEXT_EFFECT] = e + 1
            return
        n = row[S.QUEUE_COUNT] - 1
        for k in range(S.QUEUE_ENTRY_SIZE * n):
            row[S.QUEUE + k] = row[S.QUEUE + S.QUEUE_ENTRY_SIZE + k]
        row[S.QUEUE_COUNT] = n


@helper
def choice_fields(row: np.ndarray, tables):
    """(owner, source instance, target selector, trait filter, op) of the effect waiting for a choice."""
    p = row[S.CHOICE_PLAYER]
    src = row[S.CHOICE_INST]
    eff = tables.effects[card_of(row, p, src), row[S.CHOICE_EFFECT]]
    return p, src, eff[E_TARGET], eff[E_FILTER], eff[E_OP]


@helper
def apply_choice(row: np.ndarray, tables, slot: int) -> None:
    """Apply the waiting one-support effect to support ``slot`` of the affected player (its owner's choice)."""
    p, src, target, filt, op = choice_fields(row, tables)
    eff = tables.effects[card_of(row, p, src), row[S.CHOICE_EFFECT]]
    q = one_side(p, target)
    apply_to(row, tables, q, support_at(row, q, slot), op, eff[E_AMOUNT], eff[E_DURATION])
    row[S.CHOICE_PLAYER] = -1


@helper
def level_up_player(row: np.ndarray) -> int:
    """LN-L2: the player whose main character won the battle judged now (the attacker's or the defender's)."""
    return 1 - row[S.TURN_PLAYER] if row[S.RESULT] == S.RES_DEFENDER else row[S.TURN_PLAYER]


@helper
def window_phase(row: np.ndarray) -> int:
    return PH_MAIN if row[S.STEP] == S.ST_MAIN else PH_BATTLE


@helper
def tags_allow(phase_tag: int, turn_tag: int, phase: int, own_turn: bool) -> bool:
    """LN-K3: the (Phase/Turn) tag of a [Use] skill or event."""
    if phase_tag != PH_ANY and phase_tag != phase:
        return False
    if turn_tag != TU_ANY and (turn_tag == TU_OWN) != own_turn:
        return False
    return True


@helper
def event_refusal(row: np.ndarray, tables, p: int, inst: int) -> int:
    """Why event card ``inst`` in ``p``'s hand cannot be played now (a ``reasons`` code), or ``W.NONE``."""
    ctab = tables.cards
    card = card_of(row, p, inst)
    e = ctab[card, C_EVENT_EFFECT]
    eff = tables.effects[card, e]
    if not tags_allow(eff[E_PHASE], eff[E_TURN], window_phase(row), row[S.TURN_PLAYER] == p):
        return W.TIMING_TAG
    if row[S.MARKER + p] < ctab[card, C_TURN_COST]:  # LN-T9
        return W.TURN_COST
    if not has_color(row, ctab, p, ctab[card, C_COLOR]):  # LN-D4
        return W.COLOUR
    if skill_used(row, p, eff[E_SKILL]):  # LN-K4
        return W.SKILL_USED
    code = effect_refusal(row, tables, p, card, e, inst)
    if code != W.NONE:
        return code
    if not any_effect_can_act(row, tables, p, card, TR_EVENT, inst):  # issue 12 item 17: never a wasted card
        return W.NOTHING_TO_DO
    return W.NONE


@helper
def skill_refusal(row: np.ndarray, tables, p: int, inst: int) -> int:
    """Why the [Use] skill of ``p``'s character ``inst`` cannot be used now (a ``reasons`` code), or ``W.NONE``."""
    card = card_of(row, p, inst)
    e = tables.cards[card, C_USE_EFFECT]
    if e < 0:
        return W.NO_USE_SKILL
    eff = tables.effects[card, e]
    if not tags_allow(eff[E_PHASE], eff[E_TURN], window_phase(row), row[S.TURN_PLAYER] == p):
        return W.TIMING_TAG
    if eff[E_COST_REST] != 0 and is_rested(row, p, inst):
        return W.REST_COST
    if skill_used(row, p, eff[E_SKILL]):
        return W.SKILL_USED
    code = effect_refusal(row, tables, p, card, e, inst)
    if code != W.NONE:
        return code
    if not any_effect_can_act(row, tables, p, card, TR_USE, inst):  # issue 12 item 15: Solar Engineer needs a target
        return W.NOTHING_TO_DO
    return W.NONE


@helper
def skill_usable(row: np.ndarray, tables, p: int, inst: int) -> bool:
    return skill_refusal(row, tables, p, inst) == W.NONE


@helper
def is_window(st: int) -> bool:
    return st == S.ST_MAIN or st == S.ST_BATTLE_WINDOW or st == S.ST_DECL_WINDOW or st == S.ST_COVER_WINDOW


@helper
def window_open_for(row: np.ndarray, tables, w: int) -> bool:
    """LN-T3, issue 12 C.1: whether public information lets ``w`` act in the open window: a card in hand (it may be
    a usable event or, for the turn player in a main phase, a support: the opponent cannot tell) or a usable [Use]
    skill on the field. Only a player with neither is passed for; the decision never depends on hidden cards."""
    if row[S.HAND_COUNT + w] > 0:
        return True
    if skill_usable(row, tables, w, row[S.MAIN + w]):
        return True
    for s in range(row[S.SUPPORT_COUNT + w]):
        if skill_usable(row, tables, w, support_at(row, w, s)):
            return True
    return False


@helper
def support_refusal(row: np.ndarray, tables, p: int, inst: int) -> int:
    """LN-T2/T6/T9/T10/D4: why character card ``inst`` in ``p``'s hand cannot be played as a support in ``p``'s own
    main phase (a ``reasons`` code), or ``W.NONE``."""
    ctab = tables.cards
    card = card_of(row, p, inst)
    if row[S.SUPPORT_PLAYED] != 0:
        return W.SUPPORT_PLAYED
    if row[S.SUPPORT_COUNT + p] >= S.SUPPORT_CAP:
        return W.SUPPORT_ZONE_FULL
    if row[S.MARKER + p] < ctab[card, C_TURN_COST]:
        return W.TURN_COST
    if not has_color(row, ctab, p, ctab[card, C_COLOR]):
        return W.COLOUR
    return W.NONE


@helper
def any_resting(row: np.ndarray, q: int) -> bool:
    if is_rested(row, q, row[S.MAIN + q]):
        return True
    for s in range(row[S.SUPPORT_COUNT + q]):
        if is_rested(row, q, support_at(row, q, s)):
            return True
    return False


@helper
def attack_refusal(row: np.ndarray, p: int, inst: int) -> int:
    """LN-A1: an Active character that has not attacked this turn may attack (or be a combi partner): ``W.NONE``,
    else why not."""
    k = p * S.DECK_SIZE + inst
    if row[S.RESTED + k] != 0:
        return W.RESTING
    if row[S.ATTACKED + k] != 0:
        return W.ALREADY_ATTACKED
    return W.NONE


@helper
def main_participates(row: np.ndarray, p: int) -> bool:
    """LN-B1: the attacking main (solo or in a combi) or the defending main when not covered."""
    if row[S.BATTLE] == 0:
        return False
    if p == row[S.TURN_PLAYER]:
        return row[S.ATK_A] == row[S.MAIN + p]
    return row[S.TARGET] == row[S.MAIN + p]


@helper
def has_face_down_level(row: np.ndarray, p: int) -> bool:
    for j in range(row[S.LEVEL_COUNT + p]):
        if row[S.FACE_UP + p * S.DECK_SIZE + row[S.LEVEL + p * S.LEVEL_CAP + j]] == 0:
            return True
    return False


@helper
def burst_refusal(row: np.ndarray, p: int) -> int:
    """LN-B3/B4: why ``p`` cannot Level Burst in this battle at all (a ``reasons`` code), or ``W.NONE``."""
    if not main_participates(row, p):
        return W.NOT_IN_BATTLE
    if row[S.BURST_FAILED + p] != 0:
        return W.BURST_FAILED
    if not has_face_down_level(row, p):
        return W.NO_FACE_DOWN
    return W.NONE


# ----------------------------------------------------------------------------------------------------------------
# legal actions, and why the others are not (written once: rules once)
@njit(cache=True, inline="always")
def refuse(why: np.ndarray, start: int, stop: int, code: int) -> None:
    for a in range(start, stop):
        why[a] = code


@njit(cache=True, inline="always")
def legal_row(row: np.ndarray, tables, p: int, out: np.ndarray, why: np.ndarray, record: bool, only: int) -> int:
    """Write ``p``'s legal actions into ``out``; returns how many there are (0 when ``p`` has no decision). With
    ``record``, the branch that refuses an action also writes its reason (a ``reasons`` code) into ``why``, and
    ``why`` is ``W.NONE`` exactly for the legal actions. ``mask_row`` passes ``record=False``, a constant: inlined,
    every ``if record`` compiles away and the mask costs what it did before reasons existed. With ``only`` >= 0 the
    loops skip the other actions' refusal checks (``out[only]`` is exact, the rest and the count partial): the
    step's one-action check (``action_legal``)."""
    out[:] = 0
    if row[H_STATUS] != LIVE or row[H_TO_ACT] != p:
        if record:
            refuse(why, 0, NUM_ACTIONS, W.GAME_OVER if row[H_STATUS] != LIVE else W.NOT_YOUR_DECISION)
        return 0
    st = row[S.STEP]
    tp = row[S.TURN_PLAYER]
    op = 1 - tp
    ctab = tables.cards
    if record:  # the action ranges the step's branch below does not offer
        refuse(why, 0, NUM_ACTIONS, W.CHOICE_PENDING if row[S.CHOICE_PLAYER] >= 0 else W.WRONG_STEP)
        refuse(why, A_EFFECT_TARGET, A_EFFECT_TARGET_END, W.NO_CHOICE)
    if row[S.CHOICE_PLAYER] >= 0:  # a one-support effect waits for its owner's choice (issue 12 item 14)
        cp, src, target, filt, eop = choice_fields(row, tables)
        q = one_side(cp, target)
        n = row[S.SUPPORT_COUNT + q]
        for s in range(n):
            if not wanted(only, A_EFFECT_TARGET + s, A_EFFECT_TARGET + s + 1):
                continue
            code = one_refusal(row, tables, cp, src, target, filt, eop, support_at(row, q, s))
            if code == W.NONE:
                out[A_EFFECT_TARGET + s] = 1
            elif record:
                why[A_EFFECT_TARGET + s] = code
        if record:
            refuse(why, A_EFFECT_TARGET + n, A_EFFECT_TARGET_END, W.CHOICE_SLOT_EMPTY)
    elif st == S.ST_ORDER:
        out[A_GO_FIRST] = 1
        out[A_GO_SECOND] = 1
        if record:
            why[A_PASS] = W.MUST_CHOOSE
    elif st == S.ST_CHOOSE_MAIN:  # the whole deck list is in the deck: one action per distinct card, its first
        if record:  # instance in deck-list order (never the deck order, which nobody knows)
            why[A_PASS] = W.MUST_CHOOSE
        for inst in range(S.DECK_SIZE):
            if not wanted(only, A_CHOOSE_MAIN + inst, A_CHOOSE_MAIN + inst + 1):
                continue
            card = card_of(row, p, inst)
            if card < 0:
                if record:
                    why[A_CHOOSE_MAIN + inst] = W.NO_DECK_CARD
                continue
            if ctab[card, C_MAIN_OK] == 0:
                if record:
                    why[A_CHOOSE_MAIN + inst] = W.NOT_MAIN_CAPABLE
                continue
            first = True  # copies are interchangeable
            for k in range(inst):
                if card_of(row, p, k) == card:
                    first = False
                    break
            if first:
                out[A_CHOOSE_MAIN + inst] = 1
            elif record:
                why[A_CHOOSE_MAIN + inst] = W.COPY
    elif st == S.ST_MULLIGAN:
        out[A_PASS] = 1
        n = row[S.HAND_COUNT + p]
        for i in range(n):
            out[A_HAND + i] = 1
        if record:
            refuse(why, A_HAND + n, A_HAND_END, W.HAND_EMPTY)
    elif st == S.ST_MAIN or st == S.ST_BATTLE_WINDOW or st == S.ST_DECL_WINDOW or st == S.ST_COVER_WINDOW:
        out[A_PASS] = 1
        main_turn = st == S.ST_MAIN and p == tp and row[S.SUB] == 0
        n = row[S.HAND_COUNT + p]
        for i in range(n):
            if not wanted(only, A_HAND + i, A_HAND + i + 1):
                continue
            inst = row[S.HAND + p * S.HAND_CAP + i]
            if ctab[card_of(row, p, inst), C_TYPE] == TYPE_CHARACTER:  # a support, only in one's own main phase
                code = support_refusal(row, tables, p, inst) if main_turn else W.SUPPORT_NOT_NOW
            else:
                code = event_refusal(row, tables, p, inst)
            if code == W.NONE:
                out[A_HAND + i] = 1
            elif record:
                why[A_HAND + i] = code
        if wanted(only, A_SKILL, A_SKILL + 1):
            code = skill_refusal(row, tables, p, row[S.MAIN + p])
            if code == W.NONE:
                out[A_SKILL] = 1
            elif record:
                why[A_SKILL] = code
        ns = row[S.SUPPORT_COUNT + p]
        for s in range(ns):
            if not wanted(only, A_SKILL + 1 + s, A_SKILL + 2 + s):
                continue
            code = skill_refusal(row, tables, p, support_at(row, p, s))
            if code == W.NONE:
                out[A_SKILL + 1 + s] = 1
            elif record:
                why[A_SKILL + 1 + s] = code
        if record:
            refuse(why, A_HAND + n, A_HAND_END, W.HAND_EMPTY)
            refuse(why, A_SKILL + 1 + ns, A_SKILL_END, W.SUPPORT_EMPTY)
    elif st == S.ST_ATTACK:
        out[A_PASS] = 1
        code = attack_refusal(row, p, row[S.MAIN + p])
        if code == W.NONE:
            out[A_ATTACK] = 1  # LN-A2: the opponent's main is always a legal target
        elif record:
            why[A_ATTACK] = code
        ns = row[S.SUPPORT_COUNT + p]
        if any_resting(row, op):  # LN-A3/A6: a support needs a resting target
            for s in range(ns):
                if not wanted(only, A_ATTACK + 1 + s, A_ATTACK + 2 + s):
                    continue
                code = attack_refusal(row, p, support_at(row, p, s))
                if code == W.NONE:
                    out[A_ATTACK + 1 + s] = 1
                elif record:
                    why[A_ATTACK + 1 + s] = code
        elif record:
            refuse(why, A_ATTACK + 1, A_ATTACK + 1 + ns, W.NO_RESTING_TARGET)
        if record:
            refuse(why, A_ATTACK + 1 + ns, A_ATTACK_END, W.SUPPORT_EMPTY)
    elif st == S.ST_PARTNER:
        out[A_PASS] = 1
        ns = row[S.SUPPORT_COUNT + p]
        main_attacking = row[S.ATK_A] == row[S.MAIN + p]
        if not (main_attacking and is_neo(row, p)):  # LN-L5: no combi in Level Neo
            for s in range(ns):
                inst = support_at(row, p, s)
                code = W.IS_ATTACKER if inst == row[S.ATK_A] else attack_refusal(row, p, inst)
                if code == W.NONE:
                    out[A_PARTNER + s] = 1
                elif record:
                    why[A_PARTNER + s] = code
            if record:
                refuse(why, A_PARTNER + ns, A_PARTNER_END, W.SUPPORT_EMPTY)
        elif record:
            refuse(why, A_PARTNER, A_PARTNER_END, W.NEO_NO_COMBI)
    elif st == S.ST_TARGET:
        if record:
            why[A_PASS] = W.MUST_CHOOSE
        if row[S.ATK_A] == row[S.MAIN + p]:
            out[A_TARGET] = 1  # LN-A2/A5: a main (or main + support) attack hits the main, resting or not
            if record:
                refuse(why, A_TARGET + 1, A_TARGET_END, W.MAIN_TARGETS_MAIN)
        else:
            if is_rested(row, op, row[S.MAIN + op]):
                out[A_TARGET] = 1
            elif record:
                why[A_TARGET] = W.TARGET_ACTIVE
            no = row[S.SUPPORT_COUNT + op]
            for s in range(no):
                if is_rested(row, op, support_at(row, op, s)):
                    out[A_TARGET + 1 + s] = 1
                elif record:
                    why[A_TARGET + 1 + s] = W.TARGET_ACTIVE
            if record:
                refuse(why, A_TARGET + 1 + no, A_TARGET_END, W.OPP_SUPPORT_EMPTY)
    elif st == S.ST_COVER:
        out[A_PASS] = 1
        ns = row[S.SUPPORT_COUNT + p]
        neo_main = row[S.ATK_A] == row[S.MAIN + tp] and is_neo(row, tp)
        if not neo_main:  # LN-C3
            for s in range(ns):
                inst = support_at(row, p, s)
                if inst == row[S.TARGET]:
                    if record:
                        why[A_COVER + s] = W.IS_TARGET
                elif is_rested(row, p, inst):
                    if record:
                        why[A_COVER + s] = W.RESTING
                else:
                    out[A_COVER + s] = 1
            if record:
                refuse(why, A_COVER + ns, A_COVER_END, W.SUPPORT_EMPTY)
        elif record:
            refuse(why, A_COVER, A_COVER_END, W.NEO_NO_COVER)
    elif st == S.ST_BURST:
        out[A_PASS] = 1
        code = burst_refusal(row, p)
        if code == W.NONE:  # LN-B3: an unseen face-down card (any of them: nobody can tell them apart), or a
            nl = row[S.LEVEL_COUNT + p]  # face-down card its owner once held (it knows that one)
            for j in range(nl):
                inst = row[S.LEVEL + p * S.LEVEL_CAP + j]
                if row[S.FACE_UP + p * S.DECK_SIZE + inst] == 0:
                    if row[S.DRAWN + p * S.DECK_SIZE + inst] != 0:
                        out[A_BURST_KNOWN + j] = 1
                    else:
                        out[A_BURST] = 1
                        if record:
                            why[A_BURST_KNOWN + j] = W.UNSEEN
                elif record:
                    why[A_BURST_KNOWN + j] = W.FACE_UP
            if record:
                refuse(why, A_BURST_KNOWN + nl, A_BURST_KNOWN_END, W.NO_LEVEL_CARD)
                if out[A_BURST] == 0:
                    why[A_BURST] = W.ONLY_KNOWN
        elif record:
            why[A_BURST] = code
            refuse(why, A_BURST_KNOWN, A_BURST_KNOWN_END, code)
    elif st == S.ST_LEVEL_DOWN:
        nl = row[S.LEVEL_COUNT + p]
        for k in range(nl):
            out[A_LEVEL_DOWN + k] = 1
        if record:
            why[A_PASS] = W.MUST_CHOOSE
            refuse(why, A_LEVEL_DOWN + nl, A_LEVEL_DOWN_END, W.NO_LEVEL_CARD)
    elif st == S.ST_COMBI_LOSS:
        out[A_COMBI_LOSS] = 1
        out[A_COMBI_LOSS + 1] = 1
        if record:
            why[A_PASS] = W.MUST_CHOOSE
    elif st == S.ST_LEVEL_UP:  # LN-L2: the main *may* level up
        out[A_PASS] = 1
        out[A_LEVEL_UP] = 1
    elif st == S.ST_END:
        n = row[S.HAND_COUNT + p]
        for i in range(n):
            out[A_HAND + i] = 1
        if record:
            why[A_PASS] = W.MUST_CHOOSE
            refuse(why, A_HAND + n, A_HAND_END, W.HAND_EMPTY)
    n = 0
    for a in range(NUM_ACTIONS):
        n += out[a]
        if record and out[a] != 0:
            why[a] = W.NONE
    return n


@kernel
def legal_some(row: np.ndarray, tables, p: int, out: np.ndarray, only: int) -> int:
    """``legal_row`` without reasons (record=False: ``why``, here ``out``, is never written), for every action
    (``only`` -1) or for one: one compiled copy serves the mask and the step's one-action check."""
    return legal_row(row, tables, p, out, out, False, only)


@helper
def mask_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> int:
    """Write ``p``'s legal actions into ``out``; returns how many there are (0 when ``p`` has no decision)."""
    return legal_some(row, tables, p, out, -1)


@helper
def action_legal(row: np.ndarray, tables, p: int, a: int, scratch: np.ndarray) -> bool:
    """Is action ``a`` (in range) legal for ``p``? The step's check: the mask's branches, skipping the other actions'
    refusal checks; ``scratch`` (NUM_ACTIONS int8) is overwritten."""
    legal_some(row, tables, p, scratch, a)
    return scratch[a] != 0


@njit(cache=True, nogil=True)  # called from Python (text.py), like the batch kernels
def why_row(row: np.ndarray, tables, p: int, why: np.ndarray) -> int:
    """Write why each action of ``p`` is illegal into ``why`` (int8 ``reasons`` codes, ``W.NONE`` for the legal ones);
    returns how many are legal. ``text.explain_illegal`` words the codes."""
    mask = np.empty(NUM_ACTIONS, dtype=np.int8)
    return legal_row(row, tables, p, mask, why, True, -1)


# ----------------------------------------------------------------------------------------------------------------
# transitions
@helper
def start_main_phase(row: np.ndarray, number: int) -> None:
    row[S.STEP] = S.ST_MAIN
    row[S.MAIN_PHASE] = number
    row[S.SUB] = 0
    row[S.WINDOW_PASSES] = 0
    row[S.SUPPORT_PLAYED] = 0


@njit(cache=True, inline="always")
def window_pass(row: np.ndarray) -> None:
    """LN-T3/T4, issue 12 item 13: the turn player has the initiative first; a player who acts keeps it, a pass
    hands it to the other player, and the window closes only when both passed in succession (so a pass followed by
    the other player's action reopens the window for the passer)."""
    row[S.WINDOW_PASSES] += 1
    if row[S.WINDOW_PASSES] < 2:
        row[S.SUB] = 1 - row[S.SUB]
        return
    row[S.SUB] = 0
    row[S.WINDOW_PASSES] = 0
    st = row[S.STEP]
    if st == S.ST_MAIN:
        if row[S.MAIN_PHASE] == 1 and row[H_TURN] > 1:  # LN-T5: no battle phase on the first turn
            row[S.STEP] = S.ST_BATTLE_WINDOW
        else:
            row[S.STEP] = S.ST_END
            row[S.END_STAGE] = S.ES_SKILLS
    elif st == S.ST_BATTLE_WINDOW:
        row[S.STEP] = S.ST_ATTACK
    elif st == S.ST_DECL_WINDOW:
        row[S.STEP] = S.ST_COVER
    elif st == S.ST_COVER_WINDOW:
        row[S.STEP] = S.ST_BURST
        row[S.BURST_PLAYER] = row[S.TURN_PLAYER]  # LN-B2: the attacker chooses first
        row[S.BURST_PASSES] = 0


@njit(cache=True, inline="always")
def play_from_hand(row: np.ndarray, tables, p: int, i: int) -> None:
    inst = zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, i)
    row[S.PLAYED + p * S.DECK_SIZE + inst] = 1
    card = card_of(row, p, inst)
    if tables.cards[card, C_TYPE] == TYPE_CHARACTER:
        zone_push(row, S.SUPPORT, S.SUPPORT_COUNT, S.SUPPORT_CAP, p, inst)
        row[S.FACE_UP + p * S.DECK_SIZE + inst] = 1
        row[S.SUPPORT_PLAYED] = 1
        queue_effects(row, p, inst, TR_ON_PLAY)
    else:
        mark_skill(row, p, tables.effects[card, tables.cards[card, C_EVENT_EFFECT], E_SKILL])
        to_discard(row, p, inst)  # the event resolves from the discard pile (no extra zone)
        queue_effects(row, p, inst, TR_EVENT)


@njit(cache=True, inline="always")
def use_skill(row: np.ndarray, tables, p: int, inst: int) -> None:
    card = card_of(row, p, inst)
    e = tables.cards[card, C_USE_EFFECT]
    eff = tables.effects[card, e]
    mark_skill(row, p, eff[E_SKILL])
    if eff[E_COST_REST] != 0:
        row[S.RESTED + p * S.DECK_SIZE + inst] = 1
    queue_effects(row, p, inst, TR_USE)


@njit(cache=True, inline="always")
def declare(row: np.ndarray, tables, target: int) -> None:
    """LN-A1: the declaration rests the attackers; [Start] on_attack skills fire."""
    tp = row[S.TURN_PLAYER]
    row[S.BATTLE] = 1
    row[S.TARGET] = target
    row[S.ORIG_TARGET] = target
    row[S.COVERED] = 0
    row[S.RESULT] = S.RES_NONE
    row[S.BURST_FAILED] = 0
    row[S.BURST_FAILED + 1] = 0
    for inst in (row[S.ATK_A], row[S.ATK_B]):
        if inst >= 0:
            row[S.RESTED + tp * S.DECK_SIZE + inst] = 1
            row[S.ATTACKED + tp * S.DECK_SIZE + inst] = 1
    queue_effects(row, tp, row[S.ATK_A], TR_ON_ATTACK)
    if row[S.ATK_B] >= 0:
        queue_effects(row, tp, row[S.ATK_B], TR_ON_ATTACK)
    row[S.STEP] = S.ST_DECL_WINDOW
    row[S.SUB] = 0
    row[S.WINDOW_PASSES] = 0


@njit(cache=True, inline="always")
def do_burst(row: np.ndarray, tables, p: int, k: int) -> None:
    """LN-B3..B6: reveal level card ``k`` (-1: the first face-down card its owner never saw; those came from the top
    of the deck unseen, so which one is revealed carries no choice); Level Burst text activates, else it fails."""
    for j in range(row[S.LEVEL_COUNT + p]):
        inst = row[S.LEVEL + p * S.LEVEL_CAP + j]
        if k >= 0 and j != k:
            continue
        if row[S.FACE_UP + p * S.DECK_SIZE + inst] == 0 and (k >= 0 or row[S.DRAWN + p * S.DECK_SIZE + inst] == 0):
            row[S.FACE_UP + p * S.DECK_SIZE + inst] = 1
            if tables.cards[card_of(row, p, inst), C_HAS_BURST] != 0:
                queue_effects(row, p, inst, TR_BURST)
            else:
                row[S.BURST_FAILED + p] = 1
            return


@njit(cache=True, inline="always")
def burst_choice(row: np.ndarray, tables, p: int, burst: bool, k: int) -> None:
    """LN-B2: alternate until both players pass in a row (a player who cannot burst passes automatically)."""
    if burst:
        row[S.BURST_PASSES] = 0
        do_burst(row, tables, p, k)
    else:
        row[S.BURST_PASSES] += 1
    if row[S.BURST_PASSES] >= 2:
        row[S.STEP] = S.ST_JUDGE
    else:
        row[S.BURST_PLAYER] = 1 - p


@helper
def expire_next_battle(row: np.ndarray, p: int, inst: int) -> None:
    if inst >= 0:
        row[S.AP_NEXT + p * S.DECK_SIZE + inst] = 0


@njit(cache=True, inline="always")
def judge(row: np.ndarray, tables) -> None:
    """LN-J1..J8, LN-L2/L3/L5, LN-V1."""
    tp = row[S.TURN_PLAYER]
    op = 1 - tp
    a, b, t = row[S.ATK_A], row[S.ATK_B], row[S.TARGET]
    atk_ap = 0
    def_ap = 0
    for j in range(3):  # one call site: the AP code is large
        side = tp if j < 2 else op
        inst = a if j == 0 else (b if j == 1 else t)
        if inst >= 0:
            ap = compute_ap(row, tables, side, inst)
            if j < 2:
                atk_ap += ap  # LN-A4: combi APs add up
            else:
                def_ap = ap
    atk_wins = atk_ap > def_ap
    def_wins = def_ap > atk_ap
    row[S.RESULT] = S.RES_ATTACKER if atk_wins else (S.RES_DEFENDER if def_wins else S.RES_TIE)
    atk_main = a == row[S.MAIN + tp]
    def_main = t == row[S.MAIN + op]
    # LN-V1 / LN-J3: a Level Neo main character that wins a battle wins the game
    if atk_wins and atk_main and is_neo(row, tp):
        finish(row, tp)
        return
    if def_wins and def_main and is_neo(row, op):
        finish(row, op)
        return
    row[S.PENDING_LEVEL_DOWN] = -1
    row[S.COMBI_CHOOSER] = -1
    # LN-J2, LN-L2: a main character that wins a battle may level up, its player's choice: the attacking main (also
    # in a combi, also over a cover: LN-C2) and, as the rulebook's general "when your Main Character wins a battle"
    # reads (like the Level Neo victory, LN-V1), the defending main that was not covered (issue 39 item 7)
    winner = tp if (atk_wins and atk_main) else (op if (def_wins and def_main) else -1)
    if winner >= 0 and row[S.LEVEL_COUNT + winner] < S.LEVEL_CAP and row[S.DECK_COUNT + winner] > 0:
        row[S.STEP] = S.ST_LEVEL_UP
        return
    judge_rest(row, tables)


@njit(cache=True, inline="always")
def judge_rest(row: np.ndarray, tables) -> None:
    """The judgement after the optional level up: losses, expiry, [Start] on_win skills."""
    tp = row[S.TURN_PLAYER]
    op = 1 - tp
    a, b, t = row[S.ATK_A], row[S.ATK_B], row[S.TARGET]
    atk_wins = row[S.RESULT] == S.RES_ATTACKER
    def_wins = row[S.RESULT] == S.RES_DEFENDER
    atk_main = a == row[S.MAIN + tp]
    def_main = t == row[S.MAIN + op]
    if not def_wins:  # the defender lost (LN-J1: a tie is a loss for both)
        if def_main:
            if row[S.NO_LEVEL_DOWN + op] == 0 and row[S.LEVEL_COUNT + op] > 0:  # LN-J5, LN-L6
                row[S.PENDING_LEVEL_DOWN] = op
        else:
            discard_support(row, op, t)  # LN-J6
    if not atk_wins:  # the attacker lost
        if b < 0:
            if not atk_main:
                discard_support(row, tp, a)  # LN-J6 (LN-J4: a losing main attack changes nothing)
        elif not atk_main:
            row[S.COMBI_CHOOSER] = op  # LN-J7: the winner (the defender; also on a tie) picks the loser
    # LN-J8: "until the end of the next battle" ends for the characters in this judgement only
    expire_next_battle(row, tp, a)
    expire_next_battle(row, tp, b)
    expire_next_battle(row, op, t)
    # LN-B6: burst effects and "this battle" protections end with the battle
    for k in range(2 * S.DECK_SIZE):
        row[S.AP_BATTLE + k] = 0
    row[S.NO_LEVEL_DOWN] = 0
    row[S.NO_LEVEL_DOWN + 1] = 0
    # [Start] on_win skills of the winners still on the field
    if atk_wins:
        queue_effects(row, tp, a, TR_ON_WIN)
        if b >= 0:
            queue_effects(row, tp, b, TR_ON_WIN)
    if def_wins:
        queue_effects(row, op, t, TR_ON_WIN)
    if row[S.PENDING_LEVEL_DOWN] >= 0:
        row[S.STEP] = S.ST_LEVEL_DOWN
    elif row[S.COMBI_CHOOSER] >= 0:
        row[S.STEP] = S.ST_COMBI_LOSS
    else:
        row[S.STEP] = S.ST_BATTLE_END


@njit(cache=True, inline="always")
def end_battle(row: np.ndarray) -> None:
    row[S.BATTLE] = 0
    row[S.ATK_A] = -1
    row[S.ATK_B] = -1
    row[S.TARGET] = -1
    row[S.ORIG_TARGET] = -1
    row[S.COVERED] = 0
    row[S.BURST_FAILED] = 0
    row[S.BURST_FAILED + 1] = 0
    row[S.BURST_PASSES] = 0
    row[S.PENDING_LEVEL_DOWN] = -1
    row[S.COMBI_CHOOSER] = -1
    row[S.STEP] = S.ST_BATTLE_WINDOW
    row[S.SUB] = 0
    row[S.WINDOW_PASSES] = 0


@njit(cache=True, inline="always")
def end_of_turn_cleanup(row: np.ndarray) -> None:
    """LN-T8: "until end of turn" and "until the end of the next battle" effects end; once-per-turn skills reset."""
    for k in range(2 * S.DECK_SIZE):
        row[S.AP_TURN + k] = 0
        row[S.AP_NEXT + k] = 0
        row[S.AP_BATTLE + k] = 0
        row[S.ATTACKED + k] = 0
    for k in range(S.USED_SKILLS, S.USED_SKILLS_END):
        row[k] = 0
    for p in range(2):
        row[S.NO_LEVEL_DOWN + p] = 0
    row[S.SUPPORT_PLAYED] = 0
    row[S.TURN_PLAYER] = 1 - row[S.TURN_PLAYER]
    row[S.STEP] = S.ST_TURN_START


@njit(cache=True, inline="always")
def start_game(row: np.ndarray) -> None:
    """After both mulligans: mains turn face up, markers at 0 (LN-S5), the first player's turn starts."""
    for p in range(2):
        row[S.FACE_UP + p * S.DECK_SIZE + row[S.MAIN + p]] = 1
        row[S.MARKER + p] = 0
    row[S.TURN_PLAYER] = row[S.FIRST_PLAYER]
    row[H_TURN] = 0
    row[S.STEP] = S.ST_TURN_START


@helper
def apply_action(row: np.ndarray, tables, p: int, a: int) -> None:
    """Apply a legal action of player ``p`` (legality is checked by the caller)."""
    st = row[S.STEP]
    tp = row[S.TURN_PLAYER]
    op = 1 - tp
    if row[S.CHOICE_PLAYER] >= 0:  # issue 12 item 14: the owner's choice of a support
        apply_choice(row, tables, a - A_EFFECT_TARGET)
    elif st == S.ST_ORDER:  # LN-S1
        first = p if a == A_GO_FIRST else 1 - p
        row[S.FIRST_PLAYER] = first
        row[S.TURN_PLAYER] = first
        row[S.SETUP_PLAYER] = first
        row[S.STEP] = S.ST_CHOOSE_MAIN
    elif st == S.ST_CHOOSE_MAIN:  # LN-S2
        inst = a - A_CHOOSE_MAIN
        k = zone_find(row, S.DECK, S.DECK_COUNT, S.DECK_SIZE, p, inst)
        zone_remove(row, S.DECK, S.DECK_COUNT, S.DECK_SIZE, p, k)
        row[S.MAIN + p] = inst
        row[S.FACE_UP + p * S.DECK_SIZE + inst] = 0
        row[S.PLAYED + p * S.DECK_SIZE + inst] = 1
        if p == row[S.FIRST_PLAYER]:
            row[S.SETUP_PLAYER] = 1 - p
        else:  # LN-S3: shuffle, draw 6
            for q in range(2):
                shuffle_slice(row, S.DECK + q * S.DECK_SIZE, row[S.DECK_COUNT + q])
                for _ in range(S.OPENING_HAND_SIZE):
                    draw(row, q)
            row[S.STEP] = S.ST_MULLIGAN
            row[S.SETUP_PLAYER] = row[S.FIRST_PLAYER]
    elif st == S.ST_MULLIGAN:  # LN-S4
        if a == A_PASS:
            while row[S.HAND_COUNT + p] < S.OPENING_HAND_SIZE and row[S.DECK_COUNT + p] > 0:
                draw(row, p)
            row[S.MULLIGAN_USED + p] = 1
            if p == row[S.FIRST_PLAYER]:
                row[S.SETUP_PLAYER] = 1 - p
            else:
                start_game(row)
        else:
            inst = zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, a - A_HAND)
            deck_to_bottom(row, p, inst)
    elif st == S.ST_MAIN or st == S.ST_BATTLE_WINDOW or st == S.ST_DECL_WINDOW or st == S.ST_COVER_WINDOW:
        if a == A_PASS:
            window_pass(row)
            return
        row[S.WINDOW_PASSES] = 0  # acting reopens the window for a player who passed
        if A_HAND <= a < A_HAND_END:
            play_from_hand(row, tables, p, a - A_HAND)
        else:
            s = a - A_SKILL
            use_skill(row, tables, p, row[S.MAIN + p] if s == 0 else support_at(row, p, s - 1))
    elif st == S.ST_ATTACK:
        if a == A_PASS:  # LN-A7
            start_main_phase(row, 2)
        else:
            s = a - A_ATTACK
            row[S.ATK_A] = row[S.MAIN + p] if s == 0 else support_at(row, p, s - 1)
            row[S.ATK_B] = -1
            row[S.STEP] = S.ST_PARTNER
    elif st == S.ST_PARTNER:
        row[S.ATK_B] = -1 if a == A_PASS else support_at(row, p, a - A_PARTNER)
        row[S.STEP] = S.ST_TARGET
    elif st == S.ST_TARGET:
        s = a - A_TARGET
        declare(row, tables, row[S.MAIN + op] if s == 0 else support_at(row, op, s - 1))
    elif st == S.ST_COVER:  # LN-C1
        if a != A_PASS:
            inst = support_at(row, p, a - A_COVER)
            row[S.RESTED + p * S.DECK_SIZE + inst] = 1
            row[S.TARGET] = inst
            row[S.COVERED] = 1
        row[S.STEP] = S.ST_COVER_WINDOW
        row[S.SUB] = 0
        row[S.WINDOW_PASSES] = 0
    elif st == S.ST_BURST:
        burst_choice(row, tables, p, a != A_PASS, a - A_BURST_KNOWN if A_BURST_KNOWN <= a < A_BURST_KNOWN_END else -1)
    elif st == S.ST_LEVEL_DOWN:  # LN-L3
        level_down_at(row, p, a - A_LEVEL_DOWN)
        row[S.PENDING_LEVEL_DOWN] = -1
        row[S.STEP] = S.ST_COMBI_LOSS if row[S.COMBI_CHOOSER] >= 0 else S.ST_BATTLE_END
    elif st == S.ST_COMBI_LOSS:  # LN-J7
        discard_support(row, tp, row[S.ATK_A] if a == A_COMBI_LOSS else row[S.ATK_B])
        row[S.COMBI_CHOOSER] = -1
        row[S.STEP] = S.ST_BATTLE_END
    elif st == S.ST_LEVEL_UP:  # LN-L2, LN-J2
        if a == A_LEVEL_UP:
            level_up(row, level_up_player(row))
        judge_rest(row, tables)
    elif st == S.ST_END:  # LN-T7
        to_discard(row, p, zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, a - A_HAND))


@helper
def advance(row: np.ndarray, tables) -> None:
    """Run forced steps until a decision is pending or the game is over."""
    while True:
        if row[H_STATUS] != LIVE:
            return
        if row[S.CHOICE_PLAYER] >= 0:
            set_decision(row, row[S.CHOICE_PLAYER])
            return
        if row[S.QUEUE_COUNT] > 0:
            drain_effects(row, tables)
            continue
        st = row[S.STEP]
        if st >= S.ST_TURN_START:  # LN-V2/V3: deck-out, checked once effects have resolved
            out0 = row[S.DECK_COUNT] == 0
            out1 = row[S.DECK_COUNT + 1] == 0
            if out0 or out1:
                finish(row, DRAW if (out0 and out1) else (1 if out0 else 0))
                return
        tp = row[S.TURN_PLAYER]
        op = 1 - tp
        if st == S.ST_ORDER:
            set_decision(row, row[S.RPS_WINNER])
            return
        if st == S.ST_CHOOSE_MAIN or st == S.ST_MULLIGAN:
            set_decision(row, row[S.SETUP_PLAYER])
            return
        if st == S.ST_TURN_START:  # LN-T1
            if row[H_TURN] >= S.TURN_CAP:
                truncate(row)
                return
            row[H_TURN] += 1
            row[S.MARKER + tp] += 1
            draw(row, tp)
            row[S.RESTED + tp * S.DECK_SIZE + row[S.MAIN + tp]] = 0
            for s in range(row[S.SUPPORT_COUNT + tp]):
                row[S.RESTED + tp * S.DECK_SIZE + support_at(row, tp, s)] = 0
            start_main_phase(row, 1)
            continue
        if is_window(st):
            w = tp if row[S.SUB] == 0 else op
            if window_open_for(row, tables, w):
                set_decision(row, w)
                return
            window_pass(row)  # nothing usable by public information: the pass is forced
            continue
        if st == S.ST_ATTACK or st == S.ST_PARTNER or st == S.ST_TARGET:
            set_decision(row, tp)
            return
        if st == S.ST_COVER:
            set_decision(row, op)
            return
        if st == S.ST_BURST:
            set_decision(row, row[S.BURST_PLAYER])
            return
        if st == S.ST_JUDGE:
            judge(row, tables)
            continue
        if st == S.ST_LEVEL_DOWN:
            set_decision(row, row[S.PENDING_LEVEL_DOWN])
            return
        if st == S.ST_COMBI_LOSS:
            set_decision(row, row[S.COMBI_CHOOSER])
            return
        if st == S.ST_LEVEL_UP:
            set_decision(row, level_up_player(row))
            return
        if st == S.ST_BATTLE_END:
            end_battle(row)
            continue
        if st == S.ST_END:
            stage = row[S.END_STAGE]
            if stage == S.ES_SKILLS:  # LN-T7: end-of-turn skills of the turn player's characters
                row[S.END_STAGE] = S.ES_DISCARD_TURN_PLAYER
                queue_effects(row, tp, row[S.MAIN + tp], TR_END_TURN)
                s = 0
                while s < row[S.SUPPORT_COUNT + tp]:
                    queue_effects(row, tp, support_at(row, tp, s), TR_END_TURN)
                    s += 1
                continue
            if stage == S.ES_DISCARD_TURN_PLAYER or stage == S.ES_DISCARD_OPPONENT:
                q = tp if stage == S.ES_DISCARD_TURN_PLAYER else op
                if row[S.HAND_COUNT + q] > S.MAX_KEPT_HAND:
                    set_decision(row, q)
                    return
                row[S.END_STAGE] = S.ES_DISCARD_OPPONENT if stage == S.ES_DISCARD_TURN_PLAYER else S.ES_CLEANUP
                continue
            end_of_turn_cleanup(row)
            continue
        return  # unknown step: leave the row as is (never reached)


@njit(cache=True, inline="always")
def settle(row: np.ndarray, tables, mask: np.ndarray) -> None:
    """Advance, then auto-play decisions that have exactly one legal action."""
    while True:
        advance(row, tables)
        if row[H_STATUS] != LIVE:
            return
        p = row[H_TO_ACT]
        if mask_row(row, tables, p, mask) != 1:  # (the fused play reuses this mask)
            return
        if is_window(row[S.STEP]) and row[S.CHOICE_PLAYER] < 0:
            return  # a window offered by public information stays a decision even with "pass" alone (C.1)
        for a in range(NUM_ACTIONS):
            if mask[a] != 0:
                apply_action(row, tables, np.int64(p), a)
                break


@njit(cache=True, inline="always")
def reset_row(row: np.ndarray, tables, decks: np.ndarray, seed: np.int64) -> None:
    row[:] = 0
    row[H_WINNER] = NO_WINNER
    rng_seed(row, seed)
    for start, end in ((S.DECK, S.DECK_END), (S.HAND, S.HAND_END), (S.MAIN, S.MAIN_END), (S.SUPPORT, S.SUPPORT_END),
                       (S.LEVEL, S.LEVEL_END), (S.DISCARD, S.DISCARD_END)):  # every zone empty
        for k in range(start, end):
            row[k] = -1
    deal_deck_lists(row, decks, S.DECK_LIST, S.DECK, S.DECK_COUNT, S.DECK_SIZE)
    for f in (S.ATK_A, S.ATK_B, S.TARGET, S.ORIG_TARGET, S.PENDING_LEVEL_DOWN, S.COMBI_CHOOSER, S.CHOICE_PLAYER):
        row[f] = -1
    row[S.RPS_WINNER] = rng_below(row, 2)  # LN-S1
    row[S.STEP] = S.ST_ORDER
    set_decision(row, row[S.RPS_WINNER])  # the first decision always has two options: nothing to settle


# ----------------------------------------------------------------------------------------------------------------
# batch kernels: the step_row wrapper and the batch loops of the kernel contract are the core's one template
# (cardenvs/core/kernel_template.py), rendered into _kernels.py from these options (python -m
# cardenvs.core.kernel_template --write levelneo after a change)
KERNEL_OPTIONS = {"legal_check": "action_legal"}
