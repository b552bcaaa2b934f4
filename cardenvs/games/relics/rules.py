"""relics rules as Numba kernels over one state row: reset, legal mask, apply, advance, and the batch wrappers.

Flow: ``step_row`` checks the action with ``action_legal`` (the branches of ``mask_row``, for that action only),
applies it (``apply_action``), then ``settle`` runs
``advance`` (every forced step: draws, the reveal, the location effect, Up, the battle end, Resolution) to the next
decision, auto-playing decisions that have exactly one legal action (they do not count as agent decisions).
Compound actions (Cast: card, then caster, then target; Recruit: three discards) are consecutive decisions of the
same player; a Steal discard is a decision of the victim.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import (
    DRAW,
    H_NEEDS,
    H_STATUS,
    H_TO_ACT,
    H_TURN,
    H_WINNER,
    LIVE,
    NO_WINNER,
    TERMINATED,
    TRUNCATED,
)
from cardenvs.core.jit import kernel
from cardenvs.core.kernels import wanted
from cardenvs.core.rng import rng_below, rng_seed, shuffle_slice

from .actions import (
    A_ABILITY,
    A_ABILITY_END,
    A_FIGHT_END,
    A_HAND_END,
    A_MOVE_END,
    A_RELIC_END,
    A_RESERVE_END,
    A_THROW_END,
    A_APPOINT,
    A_FIGHT,
    A_HAND,
    A_LEADER_ABILITY,
    A_LOCATION,
    A_LOCATION_END,
    A_MOVE,
    A_PASS,
    A_PICK,
    A_PICK_END,
    A_PILE,
    A_PILE_END,
    A_RECRUIT,
    A_RELIC,
    A_RESERVE,
    A_RETREAT,
    A_SLOT,
    A_SLOT_END,
    A_TARGET,
    A_TARGET_END,
    A_THROW,
    NUM_ACTIONS,
)
from .board import (
    TO_DISCARD,
    TO_DOOM,
    TO_RESERVES,
    add_to_reserves,
    at_slot,
    att_of,
    attach,
    card_of,
    def_of,
    discard_from_hand,
    distance,
    draw_item,
    enter_party,
    immune,
    is_down,
    leave_play,
    meets_requirements,
    pop_character,
    printed_att,
    qualifies,
    relic_count,
    remove_reserve,
    sideboard_entry,
    skills_of,
    to_discard,
    to_doom,
    zone_find,
    zone_push,
    zone_remove,
)
from .cards import (
    C_ACT,
    C_ACT_LEADER,
    C_COST_DOWN,
    C_HAS_DEFEAT,
    C_HAS_ENTER,
    C_NEEDS_CASTER,
    C_ONE_TARGET,
    C_RELIC_SKILLS,
    C_SCHOOL,
    C_SKILLS,
    C_TYPE,
    ONE_OPP,
    OP_EXHUME,
    ONE_OWN,
    SC_BLACK,
    SC_NONE,
    SC_SUMMON,
    SC_WHITE,
    SK_BLACK,
    SK_COUNTER,
    SK_JUMP,
    SK_RANGED,
    SK_STEAL,
    SK_SUMMON,
    SK_THROW,
    SK_VILLAIN,
    SK_WHITE,
    T_CHARACTER,
    T_EQUIPMENT,
    T_ITEM,
    T_LEADER,
    T_LOCATION,
    T_SPELL,
    TR_ACT,
    TR_CAST,
    TR_DEFEAT,
    TR_ENTER,
    TR_LOCATION,
)
from .effects import effect_useful, fire, pile_candidate, pile_kind_fits, take_back
from . import reasons as R
from . import state as S

MODE_FIGHT, MODE_JUMP, MODE_THROW = 0, 1, 2
# last_event codes (render only)
EV_NONE, EV_MISS, EV_HIT, EV_COUNTERED, EV_BOTH, EV_RETREAT, EV_UP = 0, 1, 2, 3, 4, 5, 6


# ----------------------------------------------------------------------------------------------------------------
# small state helpers
@njit(cache=True, inline="always")
def set_relics_decision(row: np.ndarray, p: int) -> None:
    """Player ``p`` decides next (the header only; relics' own name, see ``finish_relics``)."""
    row[H_TO_ACT] = p
    row[H_NEEDS] = 1 << p


@njit(cache=True, inline="always")
def finish_relics(row: np.ndarray, winner: int) -> None:
    """The game is over: like ``cardenvs.core.turns.finish``, and the relics step becomes ST_OVER."""
    row[H_STATUS] = TERMINATED
    row[H_WINNER] = winner
    row[H_TO_ACT] = -1
    row[H_NEEDS] = 0
    row[S.STEP] = S.ST_OVER


@njit(cache=True, inline="always")
def truncate_relics(row: np.ndarray) -> None:
    """The game hit a cap: like ``cardenvs.core.turns.truncate``, and the relics step becomes ST_OVER."""
    row[H_STATUS] = TRUNCATED
    row[H_WINNER] = NO_WINNER
    row[H_TO_ACT] = -1
    row[H_NEEDS] = 0
    row[S.STEP] = S.ST_OVER


@njit(cache=True, inline="always")
def clear_pending(row: np.ndarray) -> None:
    row[S.PEND_KIND] = S.PK_NONE
    row[S.PEND_PLAYER] = -1
    row[S.PEND_SRC] = S.SRC_CARD
    row[S.PEND_CARD] = -1
    row[S.PEND_CASTER] = -1
    row[S.PEND_TARGET] = -1
    row[S.PEND_LEFT] = 0
    row[S.PEND_NEXT] = -1


@njit(cache=True, inline="always")
def school_skill(school: int) -> int:
    if school == SC_BLACK:
        return SK_BLACK
    if school == SC_WHITE:
        return SK_WHITE
    if school == SC_SUMMON:
        return SK_SUMMON
    return 0


@njit(cache=True, inline="always")
def pending_card_id(row: np.ndarray) -> int:
    """Card id whose effects the pending Cast / ability resolves."""
    p = row[S.PEND_PLAYER]
    if row[S.PEND_SRC] == S.SRC_LEADER:
        return card_of(row, p, row[S.LEADER_CARD + p])
    return card_of(row, p, row[S.PEND_CARD])


@njit(cache=True, inline="always")
def pending_school(row: np.ndarray, tables) -> int:
    if row[S.PEND_SRC] != S.SRC_CARD:
        return SC_NONE
    return tables.cards[pending_card_id(row), C_SCHOOL]


@njit(cache=True, inline="always")
def has_equipment_in_hand(row: np.ndarray, ctab: np.ndarray, p: int) -> bool:
    for i in range(row[S.HAND_COUNT + p]):
        if ctab[card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), C_TYPE] == T_EQUIPMENT:
            return True
    return False


@kernel
def host_refusal(row: np.ndarray, ctab: np.ndarray, p: int, equip_card: int) -> int:
    """0 when ``p`` has a character without an attachment (RL-E2) that suits the equipment (-1: any, for relics);
    else why not (a ``reasons`` code)."""
    if row[S.PARTY_COUNT + p] == 0:
        return R.R_NO_HOST_IN_PLAY
    free = False
    for j in range(row[S.PARTY_COUNT + p]):
        c = row[S.PARTY + p * S.PARTY_SIZE + j]
        if row[S.ATTACHED + p * S.MAX_DECK + c] >= 0:
            continue
        if equip_card < 0 or meets_requirements(row, ctab, p, c, equip_card):
            return 0
        free = True
    return R.R_NO_SUITABLE_HOST if free else R.R_HOSTS_ALL_ATTACHED


@kernel
def caster_refusal(row: np.ndarray, ctab: np.ndarray, p: int, card: int, c: int) -> int:
    """0 when character ``c`` may cast / use ``card`` (RL-M2/M3, RL-U3: a spell needs its school's skill; a down cost
    needs an Up character); else why not."""
    if ctab[card, C_COST_DOWN] != 0 and is_down(row, p, c):
        return R.R_CASTER_DOWN
    if ctab[card, C_TYPE] == T_SPELL and (skills_of(row, ctab, p, c) & school_skill(ctab[card, C_SCHOOL])) == 0:
        return R.R_CASTER_LACKS_SCHOOL
    return 0


@kernel
def target_refusal(row: np.ndarray, ctab: np.ndarray, p: int, card: int, school: int) -> int:
    """0 when ``card``'s chosen target (if it has one) can be aimed at someone; else why not (RL-K1/K2: an Up Black /
    White character ignores the opponent's Black / White magic)."""
    one = ctab[card, C_ONE_TARGET]
    if one == ONE_OWN:
        return 0 if row[S.PARTY_COUNT + p] > 0 else R.R_NO_OWN_TARGET
    if one == ONE_OPP:
        q = 1 - p
        if row[S.PARTY_COUNT + q] == 0:
            return R.R_NO_OPP_TARGET
        for j in range(row[S.PARTY_COUNT + q]):
            if not immune(row, ctab, p, q, row[S.PARTY + q * S.PARTY_SIZE + j], school):
                return 0
        return R.R_TARGETS_IMMUNE
    return 0


@kernel
def cast_refusal(row: np.ndarray, tables, p: int, card: int, c: int) -> int:
    """0 when character ``c`` may cast / use ``card`` (RL-M2/M3) and the card would then change something (RL-M4);
    else why not."""
    ctab = tables.cards
    code = caster_refusal(row, ctab, p, card, c)
    if code != 0:
        return code
    payer = c if ctab[card, C_COST_DOWN] != 0 else -1
    return 0 if effect_useful(row, tables, p, card, TR_CAST, c, payer, -1, ctab[card, C_SCHOOL]) else R.R_USELESS


@kernel
def hand_refusal(row: np.ndarray, tables, p: int, i: int) -> int:
    """0 when hand card ``i`` can be played in the battle step (RL-A3 / RL-A5: a spell or item that can be paid and
    aimed and would change something, RL-M4; equipment with a suitable host); else why not."""
    ctab = tables.cards
    card = card_of(row, p, row[S.HAND + p * S.HAND_CAP + i])
    kind = ctab[card, C_TYPE]
    if kind == T_EQUIPMENT:
        return host_refusal(row, ctab, p, card)
    if kind != T_ITEM and kind != T_SPELL:
        return R.R_NOT_PLAYABLE
    code = target_refusal(row, ctab, p, card, ctab[card, C_SCHOOL])
    if code != 0:
        return code
    if ctab[card, C_NEEDS_CASTER] == 0:
        return 0 if effect_useful(row, tables, p, card, TR_CAST, -1, -1, -1, ctab[card, C_SCHOOL]) else R.R_USELESS
    if row[S.PARTY_COUNT + p] == 0:
        return R.R_NO_CASTER_IN_PLAY
    code = R.R_NO_VALID_CASTER  # until a character may cast it: then it is useless until one would change something
    for j in range(row[S.PARTY_COUNT + p]):
        refused = cast_refusal(row, tables, p, card, row[S.PARTY + p * S.PARTY_SIZE + j])
        if refused == 0:
            return 0
        if refused == R.R_USELESS:
            code = R.R_USELESS
    return code


@kernel
def pending_target_useful(row: np.ndarray, tables, p: int, target: int) -> bool:
    """RL-M4: the pending Cast / ability, aimed at ``target`` (own or opposing by the card's target kind), would
    change something."""
    card = pending_card_id(row)
    caster = row[S.PEND_CASTER]
    if row[S.PEND_SRC] == S.SRC_CARD:
        payer = caster if tables.cards[card, C_COST_DOWN] != 0 else -1
        return effect_useful(row, tables, p, card, TR_CAST, caster, payer, target, pending_school(row, tables))
    return effect_useful(row, tables, p, card, TR_ACT, caster, caster, target, SC_NONE)


@kernel
def ability_refusal(row: np.ndarray, tables, p: int, c: int) -> int:
    """0 when the act ability of ``p``'s character ``c`` may be used: it downs the character (RL-U1/U3); a Leader
    ability only on the leader (RL-K13); it must have a target and change something (RL-M4). Else why not."""
    ctab = tables.cards
    card = card_of(row, p, c)
    if ctab[card, C_ACT] < 0:
        return R.R_NO_ACT_ABILITY
    if is_down(row, p, c):
        return R.R_ABILITY_DOWN
    if ctab[card, C_ACT_LEADER] != 0 and row[S.LEADER + p] != c:
        return R.R_LEADER_SKILL
    code = target_refusal(row, ctab, p, card, SC_NONE)
    if code != 0:
        return code
    return 0 if effect_useful(row, tables, p, card, TR_ACT, c, c, -1, SC_NONE) else R.R_USELESS


@kernel
def leader_ability_refusal(row: np.ndarray, tables, p: int) -> int:
    """0 when the leader card's act ability may be used (RL-D13 / RL-L2: while the leader qualifies for the location;
    it downs the leader); else why not."""
    ctab = tables.cards
    lc = card_of(row, p, row[S.LEADER_CARD + p])
    leader = row[S.LEADER + p]
    if ctab[lc, C_ACT] < 0:
        return R.R_LEADER_CARD_NO_ACT
    if leader < 0:
        return R.R_NO_LEADER
    if is_down(row, p, leader):
        return R.R_LEADER_DOWN
    if not qualifies(row, ctab, p):
        return R.R_LEADER_NOT_QUALIFIED
    code = target_refusal(row, ctab, p, lc, SC_NONE)
    if code != 0:
        return code
    return 0 if effect_useful(row, tables, p, lc, TR_ACT, leader, leader, -1, SC_NONE) else R.R_USELESS


@njit(cache=True, inline="always")
def can_reach(row: np.ndarray, ctab: np.ndarray, p: int, att: int, q: int, tgt: int, ranged: bool) -> bool:
    """RL-A1 / RL-K4: 1 row, or 2 with Ranged."""
    d = distance(row, p, att, q, tgt)
    return d <= 1 or (ranged and d <= 2)


# ----------------------------------------------------------------------------------------------------------------
# legal actions, and why the others are not
@njit(cache=True, inline="always")
def note(why: np.ndarray, a: int, code: int) -> None:
    """Add reason ``code`` to action ``a`` (``why`` is flat: ``MAX_REASONS`` codes per action, 0 = none)."""
    for k in range(a * R.MAX_REASONS, (a + 1) * R.MAX_REASONS):
        if why[k] == code:
            return
        if why[k] == 0:
            why[k] = code
            return


@njit(cache=True, inline="always")
def claim(why: np.ndarray, lo: int, hi: int, code: int) -> None:
    """Actions ``lo``..``hi - 1`` belong to this step: replace the wrong-step reason by ``code`` (0: reasons to come),
    the reason for an entry the step's loops never reach (an empty hand slot, a missing pile entry)."""
    for a in range(lo, hi):
        why[a * R.MAX_REASONS] = code
        for k in range(a * R.MAX_REASONS + 1, (a + 1) * R.MAX_REASONS):
            why[k] = 0


@kernel
def battle_legal(row: np.ndarray, tables, p: int, out: np.ndarray, why: np.ndarray, record: bool,
                 only: int) -> None:
    """``legal_row`` at a battle action (ST_BATTLE), compiled on its own: Numba's compile time grows faster than a
    function's size, and one function holding every step's branches was half of relics' cold compile
    (docs/benchmarks). ``only``: as in ``legal_row``."""
    ctab = tables.cards
    q = 1 - p
    out[A_PASS] = 1
    out[A_RETREAT] = 1
    if record:
        claim(why, A_FIGHT, A_MOVE_END, 0)  # fight, throw, move: the grid loops say why
        claim(why, A_HAND, A_HAND_END, R.R_NO_HAND_CARD)
        claim(why, A_RESERVE, A_RESERVE_END, R.R_NO_RESERVE)
        claim(why, A_RELIC, A_RELIC_END, R.R_NO_RELIC)
        claim(why, A_ABILITY, A_ABILITY_END, 0)
        claim(why, A_LEADER_ABILITY, A_LEADER_ABILITY + 1, 0)
        claim(why, A_RECRUIT, A_RECRUIT + 1, 0)
        claim(why, A_APPOINT, A_APPOINT + 1, 0)
    equipment = has_equipment_in_hand(row, ctab, p)
    for a in range(S.PARTY_SIZE):
        att = at_slot(row, p, a)
        if att < 0:
            if record:
                note(why, A_ABILITY + a, R.R_NO_OWN_CHAR)
                for t in range(S.PARTY_SIZE):
                    for first in (A_FIGHT, A_THROW, A_MOVE):
                        note(why, first + a * S.PARTY_SIZE + t, R.R_NO_OWN_CHAR)
                    if at_slot(row, q, t) < 0:
                        note(why, A_FIGHT + a * S.PARTY_SIZE + t, R.R_NO_OPP_CHAR)
                        note(why, A_THROW + a * S.PARTY_SIZE + t, R.R_NO_OPP_CHAR)
            continue
        up = not is_down(row, p, att)
        sk = skills_of(row, ctab, p, att)
        for t in range(S.PARTY_SIZE):
            k = a * S.PARTY_SIZE + t
            if not (wanted(only, A_FIGHT + k, A_FIGHT + k + 1) or wanted(only, A_THROW + k, A_THROW + k + 1)):
                continue
            tgt = at_slot(row, q, t)
            if tgt < 0:
                if record:
                    note(why, A_FIGHT + k, R.R_NO_OPP_CHAR)
                    note(why, A_THROW + k, R.R_NO_OPP_CHAR)
                continue
            ranged = (sk & SK_RANGED) != 0
            if up and can_reach(row, ctab, p, att, q, tgt, ranged):
                out[A_FIGHT + k] = 1
            elif record:
                if not up:
                    note(why, A_FIGHT + k, R.R_ATTACKER_DOWN)
                if not can_reach(row, ctab, p, att, q, tgt, ranged):
                    note(why, A_FIGHT + k, R.R_RANGED_REACH if ranged else R.R_FIGHT_REACH)
            if up and equipment and (sk & SK_THROW) != 0 and can_reach(row, ctab, p, att, q, tgt, True):
                # RL-K11/K12: an attack: the thrower must be Up and goes Down
                out[A_THROW + k] = 1
            elif record:
                if (sk & SK_THROW) == 0:
                    note(why, A_THROW + k, R.R_NO_THROW_SKILL)
                if not equipment:
                    note(why, A_THROW + k, R.R_NO_EQUIPMENT_TO_THROW)
                if not up:
                    note(why, A_THROW + k, R.R_ATTACKER_DOWN)
                if not can_reach(row, ctab, p, att, q, tgt, True):
                    note(why, A_THROW + k, R.R_THROW_REACH)
        if up:  # RL-A4: to an empty slot of the other row (within a row a Move changes nothing, RL-M4)
            for b in range(S.PARTY_SIZE):
                if b == a:
                    code = R.R_MOVE_SAME_SLOT
                elif at_slot(row, p, b) >= 0:
                    code = R.R_MOVE_SLOT_TAKEN
                elif b // S.ROW_SIZE == a // S.ROW_SIZE:
                    code = R.R_MOVE_SAME_ROW
                else:
                    code = 0
                    out[A_MOVE + a * S.PARTY_SIZE + b] = 1
                if record and code != 0:
                    note(why, A_MOVE + a * S.PARTY_SIZE + b, code)
        elif record:
            for b in range(S.PARTY_SIZE):
                note(why, A_MOVE + a * S.PARTY_SIZE + b, R.R_MOVER_DOWN)
        if wanted(only, A_ABILITY + a, A_ABILITY + a + 1):
            code = ability_refusal(row, tables, p, att)
            if code == 0:
                out[A_ABILITY + a] = 1
            elif record:
                note(why, A_ABILITY + a, code)
    if wanted(only, A_LEADER_ABILITY, A_LEADER_ABILITY + 1):
        code = leader_ability_refusal(row, tables, p)
        if code == 0:
            out[A_LEADER_ABILITY] = 1
        elif record:
            note(why, A_LEADER_ABILITY, code)
    for i in range(row[S.HAND_COUNT + p]):
        if not wanted(only, A_HAND + i, A_HAND + i + 1):
            continue
        code = hand_refusal(row, tables, p, i)
        if code == 0:
            out[A_HAND + i] = 1
        elif record:
            claim(why, A_HAND + i, A_HAND + i + 1, code)
    if row[S.PARTY_COUNT + p] < S.PARTY_SIZE:  # RL-A5: characters only while the party has fewer than 6
        for j in range(min(row[S.RESERVES_COUNT + p], S.RES_VIEW)):  # RL-P6
            out[A_RESERVE + j] = 1
    elif record:
        claim(why, A_RESERVE, A_RESERVE + min(row[S.RESERVES_COUNT + p], S.RES_VIEW), R.R_PARTY_FULL)
    if wanted(only, A_RELIC, A_RELIC_END):
        host = host_refusal(row, ctab, p, -1)
        if host == 0 or record:
            for k in range(2 * S.SIDE_CAP):
                entry = sideboard_entry(row, p, k)
                if entry < 0:
                    continue  # not a relic p controls (R_NO_RELIC)
                if host == 0 and row[S.HOST + entry] < 0:
                    out[A_RELIC + k] = 1
                elif record:
                    claim(why, A_RELIC + k, A_RELIC + k + 1, 0)
                    if row[S.HOST + entry] >= 0:
                        note(why, A_RELIC + k, R.R_RELIC_IN_PLAY)
                    if host != 0:
                        note(why, A_RELIC + k, host)
    if row[S.HAND_COUNT + p] >= S.RECRUIT_COST and row[S.CHAR_DECK_COUNT + p] > 0:  # RL-A6, RL-P4: no limit
        out[A_RECRUIT] = 1
    elif record:
        if row[S.HAND_COUNT + p] < S.RECRUIT_COST:
            note(why, A_RECRUIT, R.R_RECRUIT_COST)
        if row[S.CHAR_DECK_COUNT + p] == 0:
            note(why, A_RECRUIT, R.R_CHAR_DECK_EMPTY)
    if row[S.HAND_COUNT + p] >= S.APPOINT_COST or record:
        other = False
        for j in range(row[S.PARTY_COUNT + p]):
            if row[S.PARTY + p * S.PARTY_SIZE + j] != row[S.LEADER + p]:
                other = True
                break
        if other and row[S.HAND_COUNT + p] >= S.APPOINT_COST:
            out[A_APPOINT] = 1
        elif record:
            if row[S.HAND_COUNT + p] < S.APPOINT_COST:
                note(why, A_APPOINT, R.R_APPOINT_COST)
            if not other:
                note(why, A_APPOINT, R.R_NO_OTHER_CHARACTER)


@kernel
def legal_row(row: np.ndarray, tables, p: int, out: np.ndarray, why: np.ndarray, record: bool, only: int) -> int:
    """Write ``p``'s legal actions into ``out``; returns how many there are (0 when ``p`` has no decision). With
    ``only`` >= 0 the costly loops skip the other actions (``out[only]`` is exact, the rest and the count partial):
    the step's one-action check (``action_legal``); -1 for the whole mask.

    With ``record`` true, ``why`` (flat, ``MAX_REASONS`` codes per action) also gets, for every refused action, the
    ``reasons`` code of each branch below that refuses it (``why_row``); ``mask_row`` passes False. It is compiled
    on its own, not inlined into ``mask_row``: inlined, with ``record`` pruned as a constant, ``mask_row`` was about
    half of relics' cold compile (docs/benchmarks), and a never-taken ``if record`` costs next to nothing at run time."""
    out[:] = 0
    if record:
        why[:] = 0
    if row[H_STATUS] != LIVE:
        if record:
            why[::R.MAX_REASONS] = R.R_GAME_OVER
        return 0
    if row[H_TO_ACT] != p:
        if record:
            why[::R.MAX_REASONS] = R.R_NOT_YOUR_DECISION
        return 0
    if record:  # until the step claims an action range below
        why[::R.MAX_REASONS] = R.R_WRONG_STEP
    ctab = tables.cards
    st = row[S.STEP]
    q = 1 - p
    if st == S.ST_LOCATION:
        if record:
            claim(why, A_LOCATION, A_LOCATION + S.NUM_LOCATIONS, R.R_NO_OWN_LOCATION)
            claim(why, A_LOCATION + S.NUM_LOCATIONS, A_LOCATION_END, R.R_NO_OPP_LOCATION)
        for j in range(row[S.LOC_PILE_COUNT + p]):
            out[A_LOCATION + j] = 1
        for j in range(row[S.LOC_PILE_COUNT + q]):
            out[A_LOCATION + S.NUM_LOCATIONS + j] = 1
    elif st == S.ST_LEADER:
        if record:
            claim(why, A_PICK, A_PICK_END, R.R_NO_DRAWN)
        for j in range(row[S.LINEUP_COUNT + p]):
            out[A_PICK + j] = 1
    elif st == S.ST_LEADER_SLOT or st == S.ST_PLACE:
        if st == S.ST_PLACE:
            out[A_PASS] = 1
        if record:
            claim(why, A_SLOT, A_SLOT_END, R.R_SLOT_TAKEN)
        for s in range(S.PARTY_SIZE):
            if at_slot(row, p, s) < 0:
                out[A_SLOT + s] = 1
    elif st == S.ST_TRIM:  # RL-P6: the first RES_VIEW entries hold every different character
        if record:
            claim(why, A_RESERVE, A_RESERVE_END, R.R_NO_RESERVE)
        for j in range(min(row[S.RESERVES_COUNT + p], S.RES_VIEW)):
            out[A_RESERVE + j] = 1
    elif st == S.ST_BATTLE:
        battle_legal(row, tables, p, out, why, record, only)
    elif st == S.ST_SLOT:
        if record:
            claim(why, A_SLOT, A_SLOT_END, 0)
        kind = row[S.PEND_KIND]
        for s in range(S.PARTY_SIZE):
            if not wanted(only, A_SLOT + s, A_SLOT + s + 1):
                continue
            c = at_slot(row, p, s)
            code = 0
            also = 0  # a second reason, recorded only
            if kind == S.PK_REINFORCE:
                if c >= 0:
                    code = R.R_REINFORCE_SLOT_TAKEN
            elif c < 0:
                code = R.R_NO_OWN_CHAR
            elif kind == S.PK_EQUIP:
                if row[S.ATTACHED + p * S.MAX_DECK + c] >= 0:
                    code = R.R_HOST_HAS_ATTACHMENT
                    if record and not meets_requirements(row, ctab, p, c, card_of(row, p, row[S.PEND_CARD])):
                        also = R.R_HOST_REQUIREMENTS
                elif not meets_requirements(row, ctab, p, c, card_of(row, p, row[S.PEND_CARD])):
                    code = R.R_HOST_REQUIREMENTS
            elif kind == S.PK_RELIC:
                if row[S.ATTACHED + p * S.MAX_DECK + c] >= 0:
                    code = R.R_HOST_HAS_ATTACHMENT
            elif kind == S.PK_CASTER:
                code = cast_refusal(row, tables, p, pending_card_id(row), c)
            elif kind == S.PK_OWN_TARGET:
                if not pending_target_useful(row, tables, p, c):  # RL-M4
                    code = R.R_USELESS
            elif kind == S.PK_APPOINT:
                if c == row[S.LEADER + p]:
                    code = R.R_ALREADY_LEADER
            else:
                code = R.R_SLOT_NOT_ASKED
            if code == 0:
                out[A_SLOT + s] = 1
            elif record:
                note(why, A_SLOT + s, code)
                if also != 0:
                    note(why, A_SLOT + s, also)
    elif st == S.ST_TARGET:
        if record:
            claim(why, A_TARGET, A_TARGET_END, 0)
        school = pending_school(row, tables)
        for t in range(S.PARTY_SIZE):
            if not wanted(only, A_TARGET + t, A_TARGET + t + 1):
                continue
            c = at_slot(row, q, t)
            if c < 0:
                code = R.R_NO_OPP_CHAR
            elif immune(row, ctab, p, q, c, school):  # RL-K1/K2
                code = R.R_TARGET_IMMUNE
            elif not pending_target_useful(row, tables, p, c):  # RL-M4
                code = R.R_USELESS
            else:
                code = 0
                out[A_TARGET + t] = 1
            if record and code != 0:
                note(why, A_TARGET + t, code)
    elif st == S.ST_DISCARD:
        if record:
            claim(why, A_HAND, A_HAND_END, R.R_NO_HAND_CARD)
        throw = row[S.PEND_KIND] == S.PK_THROW
        for i in range(row[S.HAND_COUNT + p]):
            if not throw or ctab[card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), C_TYPE] == T_EQUIPMENT:
                out[A_HAND + i] = 1
            elif record:
                claim(why, A_HAND + i, A_HAND + i + 1, R.R_NOT_EQUIPMENT)
    elif st == S.ST_JUMP:
        out[A_PASS] = 1
        if record:
            claim(why, A_TARGET, A_TARGET_END, R.R_NO_OPP_CHAR)
        for t in range(S.PARTY_SIZE):
            if at_slot(row, q, t) >= 0:
                out[A_TARGET + t] = 1  # RL-K9: any opposing character, whatever the rows
    elif st == S.ST_KEEP:
        out[A_PASS] = 1
        if record:
            claim(why, A_SLOT, A_SLOT_END, R.R_NOTHING_TO_KEEP)
        for s in range(S.PARTY_SIZE):
            if at_slot(row, p, s) >= 0:
                out[A_SLOT + s] = 1
    elif st == S.ST_HAND:
        out[A_PASS] = 1
        if record:
            claim(why, A_HAND, A_HAND_END, R.R_NO_HAND_CARD)
        for i in range(row[S.HAND_COUNT + p]):
            out[A_HAND + i] = 1
    elif st == S.ST_PILE:  # RL-Z5/Z6: any card the take-back may pick, by card id (copies are alike)
        if record:
            claim(why, A_PILE, A_PILE_END, R.R_PILE_NOT_THERE)
        op = row[S.PEND_SRC]
        zone = S.DOOM if op == OP_EXHUME else S.DISCARD
        count = S.DOOM_COUNT if op == OP_EXHUME else S.DISCARD_COUNT
        for j in range(row[count + p]):
            cid = card_of(row, p, row[zone + p * S.MAX_DECK + j])
            if not wanted(only, A_PILE + cid, A_PILE + cid + 1):
                continue
            if out[A_PILE + cid] == 0 and pile_candidate(row, ctab, p, op, row[S.PEND_TARGET], cid) >= 0:
                out[A_PILE + cid] = 1
            elif record and out[A_PILE + cid] == 0:
                claim(why, A_PILE + cid, A_PILE + cid + 1,
                      R.R_PILE_BEING_RESOLVED if pile_kind_fits(op, ctab[cid, C_TYPE]) else R.R_PILE_WRONG_KIND)
    n = 0
    for a in range(NUM_ACTIONS):
        n += out[a]
        if record and out[a] != 0:
            claim(why, a, a + 1, 0)  # a legal action has no reason
    return n


@kernel
def mask_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> int:
    """Write ``p``'s legal actions into ``out``; returns how many there are (0 when ``p`` has no decision)."""
    # record False: ``why`` is never touched; an int32 array as why_row's, so that legal_row and battle_legal compile
    # once for both (with ``out`` passed as ``why`` they compiled twice: 19 s of a cold start)
    return legal_row(row, tables, p, out, np.empty(1, dtype=np.int32), False, -1)


@kernel
def action_legal(row: np.ndarray, tables, p: int, a: int, scratch: np.ndarray) -> bool:
    """Is action ``a`` (in range) legal for ``p``? The step's check: ``legal_row``'s branches, skipping the other
    actions' costly checks (ability and hand usefulness, targets, pile candidates); ``scratch`` is overwritten."""
    legal_row(row, tables, p, scratch, np.empty(1, dtype=np.int32), False, a)
    return scratch[a] != 0


@kernel
def why_row(row: np.ndarray, tables, p: int, why: np.ndarray) -> int:
    """Why each action of ``p`` is illegal now: ``why[a]`` (int32 ``[NUM_ACTIONS, MAX_REASONS]``) gets the
    ``reasons`` codes of the branches of ``legal_row`` that refuse action ``a`` (0 after the last; all 0 for a legal
    action). Returns the number of legal actions."""
    mask = np.empty(NUM_ACTIONS, dtype=np.int8)
    return legal_row(row, tables, p, mask, why.reshape(NUM_ACTIONS * R.MAX_REASONS), True, -1)


# ----------------------------------------------------------------------------------------------------------------
# battles
@njit(cache=True, inline="always")
def up_all(row: np.ndarray) -> None:
    """RL-G10 / RL-U4 / RL-U6: every character goes Up; modifiers "until the next Up" end."""
    for p in range(2):
        for j in range(row[S.PARTY_COUNT + p]):
            k = p * S.MAX_DECK + row[S.PARTY + p * S.PARTY_SIZE + j]
            row[S.DOWN + k] = 0
            row[S.ATT_MOD + k] = 0
            row[S.DEF_MOD + k] = 0


@kernel
def resolve_attack(row: np.ndarray, tables, p: int, att: int, q: int, tgt: int, mode: int) -> None:
    """RL-A1/A2 Fight, RL-K9/K10 Jump, RL-K11 Throw; RL-K5/K7/K8 Counter; RL-K6 Steal; RL-B4 doom."""
    ctab = tables.cards
    a_skills = skills_of(row, ctab, p, att)
    d_skills = skills_of(row, ctab, q, tgt)
    power = att_of(row, tables, p, att) if mode == MODE_FIGHT else printed_att(row, ctab, p, att)
    # RL-K4/K5: a Ranged attack is a Throw, or a Fight that uses Ranged reach (a target 2 rows away); a Fight on an
    # adjacent character is a plain attack whoever makes it
    ranged = mode == MODE_THROW or (mode == MODE_FIGHT and distance(row, p, att, q, tgt) >= 2)
    hit = power >= def_of(row, tables, q, tgt)
    back = False
    if mode != MODE_JUMP and (d_skills & SK_COUNTER) != 0 and (not ranged or (d_skills & SK_RANGED) != 0):
        back = att_of(row, tables, q, tgt) >= def_of(row, tables, p, att)
    a_card = card_of(row, p, att)
    d_card = card_of(row, q, tgt)
    if hit:
        leave_play(row, q, tgt, TO_DOOM if mode == MODE_THROW else TO_DISCARD)
        if (a_skills & SK_STEAL) != 0:
            row[S.STEAL_OWED + q] += 1
    if back:
        leave_play(row, p, att, TO_DISCARD)
        if (d_skills & SK_STEAL) != 0:
            row[S.STEAL_OWED + p] += 1
    row[S.LAST_EVENT] = EV_BOTH if (hit and back) else (EV_HIT if hit else (EV_COUNTERED if back else EV_MISS))
    if hit and not back and ctab[a_card, C_HAS_DEFEAT] != 0:
        fire(row, tables, p, a_card, TR_DEFEAT, att, -1, SC_NONE)
    if back and not hit and ctab[d_card, C_HAS_DEFEAT] != 0:
        fire(row, tables, q, d_card, TR_DEFEAT, tgt, -1, SC_NONE)


@njit(cache=True, inline="always")
def end_action(row: np.ndarray, p: int) -> None:
    """RL-G9: after an action the other player acts; a pass streak is broken."""
    clear_pending(row)
    row[S.JUMPER] = -1
    row[S.PASSES] = 0
    row[S.ACTOR] = 1 - p
    row[S.STEP] = S.ST_BATTLE


@njit(cache=True, inline="always")
def finish_action(row: np.ndarray, p: int) -> None:
    """End ``p``'s battle action, unless a take-back choice (ST_PILE) is pending: it ends the action when done."""
    if row[S.STEP] == S.ST_PILE:
        row[S.PEND_NEXT] = p
    else:
        end_action(row, p)


@kernel
def resolve_pending(row: np.ndarray, tables, p: int) -> None:
    """Pay the cost and resolve a Cast/Use or an ability (RL-A3, RL-M1..M3, RL-U1)."""
    ctab = tables.cards
    src = row[S.PEND_SRC]
    caster = row[S.PEND_CASTER]
    target = row[S.PEND_TARGET]
    card = pending_card_id(row)
    if src == S.SRC_CARD:
        if ctab[card, C_COST_DOWN] != 0 and caster >= 0:
            row[S.DOWN + p * S.MAX_DECK + caster] = 1
        inst = row[S.PEND_CARD]
        zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, zone_find(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, inst))
        row[S.PLAYED + p * S.MAX_DECK + inst] = 1
        fire(row, tables, p, card, TR_CAST, caster, target, ctab[card, C_SCHOOL])
        to_discard(row, p, inst)  # RL-M1: used once, discarded after it resolved (it cannot take itself back)
        if row[S.STEP] == S.ST_PILE:
            row[S.PEND_TARGET] = inst  # ... nor be chosen by its own take-back
    else:
        row[S.DOWN + p * S.MAX_DECK + caster] = 1
        fire(row, tables, p, card, TR_ACT, caster, target, SC_NONE)
    finish_action(row, p)


@kernel
def go_target(row: np.ndarray, tables, p: int) -> None:
    one = tables.cards[pending_card_id(row), C_ONE_TARGET]
    if one == ONE_OWN:
        row[S.PEND_KIND] = S.PK_OWN_TARGET
        row[S.STEP] = S.ST_SLOT
    elif one == ONE_OPP:
        row[S.PEND_KIND] = S.PK_OPP_TARGET
        row[S.STEP] = S.ST_TARGET
    else:
        resolve_pending(row, tables, p)


@njit(cache=True, inline="always")
def start_pending(row: np.ndarray, p: int, kind: int, step: int) -> None:
    clear_pending(row)
    row[S.PEND_KIND] = kind
    row[S.PEND_PLAYER] = p
    row[S.STEP] = step


@njit(cache=True, inline="always")  # one call site (apply_action)
def battle_action(row: np.ndarray, tables, p: int, a: int) -> None:
    ctab = tables.cards
    q = 1 - p
    row[S.BATTLE_TURNS] += 1  # RL-G13: every action or pass of the battle phase counts toward BATTLE_TURN_CAP
    if a == A_PASS:  # RL-A9
        draw_item(row, p)
        row[S.PASSES] += 1
        if row[S.PASSES] >= 2:  # RL-G10
            up_all(row)
            row[S.LAST_EVENT] = EV_UP
            row[S.PASSES] = 0
            row[S.ROUND] += 1
            row[S.ACTOR] = row[S.LEAD]
            if row[S.ROUND] > S.ROUND_CAP:  # RL-G13 (gap): the battle ends as a draw
                row[S.BATTLE_WINNER] = S.BATTLE_DRAW
        else:
            row[S.ACTOR] = q
        return
    if A_FIGHT <= a < A_FIGHT_END:  # Fight
        k = a - A_FIGHT
        att = at_slot(row, p, k // S.PARTY_SIZE)
        tgt = at_slot(row, q, k % S.PARTY_SIZE)
        row[S.DOWN + p * S.MAX_DECK + att] = 1
        resolve_attack(row, tables, p, att, q, tgt, MODE_FIGHT)
        finish_action(row, p)
    elif A_THROW <= a < A_THROW_END:  # Throw: pick the equipment to discard next
        k = a - A_THROW
        start_pending(row, p, S.PK_THROW, S.ST_DISCARD)
        row[S.PEND_CASTER] = at_slot(row, p, k // S.PARTY_SIZE)
        row[S.PEND_TARGET] = at_slot(row, q, k % S.PARTY_SIZE)
    elif A_MOVE <= a < A_MOVE_END:  # Move (RL-A4)
        k = a - A_MOVE
        c = at_slot(row, p, k // S.PARTY_SIZE)
        row[S.DOWN + p * S.MAX_DECK + c] = 1
        row[S.POS + p * S.MAX_DECK + c] = k % S.PARTY_SIZE
        end_action(row, p)
    elif A_HAND <= a < A_HAND_END:
        inst = row[S.HAND + p * S.HAND_CAP + (a - A_HAND)]
        card = card_of(row, p, inst)
        if ctab[card, C_TYPE] == T_EQUIPMENT:  # RL-A5 / RL-E1
            start_pending(row, p, S.PK_EQUIP, S.ST_SLOT)
            row[S.PEND_CARD] = inst
        else:  # RL-A3
            start_pending(row, p, S.PK_CASTER, S.ST_SLOT)
            row[S.PEND_SRC] = S.SRC_CARD
            row[S.PEND_CARD] = inst
            if ctab[card, C_NEEDS_CASTER] == 0:
                go_target(row, tables, p)
    elif A_RESERVE <= a < A_RESERVE_END:  # RL-A5: a reserve character
        start_pending(row, p, S.PK_REINFORCE, S.ST_SLOT)
        row[S.PEND_CARD] = row[S.RESERVES + p * S.RES_CAP + (a - A_RESERVE)]
    elif A_RELIC <= a < A_RELIC_END:  # RL-A5 / RL-E3: a relic from the sideboard
        start_pending(row, p, S.PK_RELIC, S.ST_SLOT)
        row[S.PEND_CARD] = sideboard_entry(row, p, a - A_RELIC)
    elif A_ABILITY <= a < A_ABILITY_END:
        c = at_slot(row, p, a - A_ABILITY)
        start_pending(row, p, S.PK_CASTER, S.ST_SLOT)
        row[S.PEND_SRC] = S.SRC_ABILITY
        row[S.PEND_CARD] = c
        row[S.PEND_CASTER] = c
        go_target(row, tables, p)
    elif a == A_LEADER_ABILITY:
        start_pending(row, p, S.PK_CASTER, S.ST_SLOT)
        row[S.PEND_SRC] = S.SRC_LEADER
        row[S.PEND_CARD] = row[S.LEADER_CARD + p]
        row[S.PEND_CASTER] = row[S.LEADER + p]
        go_target(row, tables, p)
    elif a == A_RECRUIT:  # RL-A6
        start_pending(row, p, S.PK_RECRUIT, S.ST_DISCARD)
        row[S.PEND_LEFT] = S.RECRUIT_COST
    elif a == A_APPOINT:  # RL-A7
        start_pending(row, p, S.PK_APPOINT, S.ST_DISCARD)
        row[S.PEND_LEFT] = S.APPOINT_COST
    elif a == A_RETREAT:  # RL-A8 / RL-B3
        while row[S.PARTY_COUNT + p] > 0:
            leave_play(row, p, row[S.PARTY + p * S.PARTY_SIZE], TO_RESERVES)
        row[S.RETREATED] = 1
        row[S.BATTLE_WINNER] = q
        row[S.LAST_EVENT] = EV_RETREAT
        end_action(row, p)


@kernel
def offer_jump(row: np.ndarray, p: int, c: int) -> None:
    """RL-K9: character ``c`` may Jump now, as part of the Reinforce that brought it (or its Jump) into play."""
    clear_pending(row)
    row[S.PEND_PLAYER] = p
    row[S.JUMPER] = c
    row[S.STEP] = S.ST_JUMP


@kernel
def granted_jump(row: np.ndarray, tables, p: int, c: int, card: int) -> None:
    """RL-K9 (gap): equipment or a relic that grants Jump (Wyrmscale Lance) brings its Jump into play with it: when
    Reinforce attaches it to an Up character and the opponent has someone to hit, that character may Jump at once."""
    ctab = tables.cards
    sk = ctab[card, C_RELIC_SKILLS] if ctab[card, C_TYPE] == T_LOCATION else ctab[card, C_SKILLS]
    if (sk & SK_JUMP) != 0 and not is_down(row, p, c) and row[S.PARTY_COUNT + 1 - p] > 0:
        offer_jump(row, p, c)
    else:
        end_action(row, p)


@kernel
def slot_choice(row: np.ndarray, tables, p: int, s: int) -> None:
    kind = row[S.PEND_KIND]
    c = at_slot(row, p, s)
    if kind == S.PK_EQUIP:  # RL-E1: attached while it stays
        inst = row[S.PEND_CARD]
        zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, zone_find(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, inst))
        zone_push(row, S.GEAR, S.GEAR_COUNT, S.PARTY_SIZE, p, inst)
        attach(row, p, c, p, inst)
        row[S.PLAYED + p * S.MAX_DECK + inst] = 1
        granted_jump(row, tables, p, c, card_of(row, p, inst))
    elif kind == S.PK_RELIC:  # RL-E3: the relic stays in its owner's won zone, attached by link
        code = row[S.PEND_CARD]
        attach(row, p, c, code // S.MAX_DECK, code % S.MAX_DECK)
        granted_jump(row, tables, p, c, card_of(row, code // S.MAX_DECK, code % S.MAX_DECK))
    elif kind == S.PK_REINFORCE:  # RL-A5 / RL-P5 / RL-U7
        inst = row[S.PEND_CARD]
        remove_reserve(row, p, zone_find(row, S.RESERVES, S.RESERVES_COUNT, S.RES_CAP, p, inst))
        enter_party(row, p, inst, s, False)
        row[S.PLAYED + p * S.MAX_DECK + inst] = 1
        card = card_of(row, p, inst)
        if tables.cards[card, C_HAS_ENTER] != 0:
            fire(row, tables, p, card, TR_ENTER, inst, -1, SC_NONE)
        if (tables.cards[card, C_SKILLS] & SK_JUMP) != 0 and row[S.PARTY_COUNT + 1 - p] > 0 and at_slot(row, p, s) == inst:
            offer_jump(row, p, inst)  # RL-K9: the Jump is part of this Reinforce
        else:
            end_action(row, p)
    elif kind == S.PK_CASTER:
        row[S.PEND_CASTER] = c
        go_target(row, tables, p)
    elif kind == S.PK_OWN_TARGET:
        row[S.PEND_TARGET] = c
        resolve_pending(row, tables, p)
    elif kind == S.PK_APPOINT:  # RL-A7 / RL-L1
        row[S.LEADER + p] = c
        end_action(row, p)


@kernel
def discard_choice(row: np.ndarray, tables, p: int, i: int) -> None:
    kind = row[S.PEND_KIND]
    discard_from_hand(row, p, i)
    if kind == S.PK_STEAL:  # RL-K6: back to the alternation where it was
        row[S.STEAL_OWED + p] -= 1
        clear_pending(row)
        row[S.STEP] = S.ST_BATTLE
    elif kind == S.PK_THROW:  # RL-K11/K12: the thrower goes Down like any attacker
        att = row[S.PEND_CASTER]
        tgt = row[S.PEND_TARGET]
        row[S.DOWN + p * S.MAX_DECK + att] = 1
        resolve_attack(row, tables, p, att, 1 - p, tgt, MODE_THROW)
        finish_action(row, p)
    else:
        row[S.PEND_LEFT] -= 1
        if row[S.PEND_LEFT] > 0:
            return
        if kind == S.PK_RECRUIT:  # RL-A6: after the battle starts the reserves have no size limit
            inst = pop_character(row, p)
            if inst >= 0:
                add_to_reserves(row, p, inst)
            end_action(row, p)
        else:
            row[S.STEP] = S.ST_SLOT  # Appoint: now the new leader


# ----------------------------------------------------------------------------------------------------------------
# Relic phase and Resolution
@kernel
def begin_battle(row: np.ndarray) -> None:
    """RL-G1/G12: a new battle; RL-V3 and RL-V5 checks."""
    if row[H_TURN] >= S.BATTLE_CAP:
        truncate_relics(row)
        return
    row[H_TURN] += 1
    out0 = row[S.CHAR_DECK_COUNT] == 0
    out1 = row[S.CHAR_DECK_COUNT + 1] == 0
    if out0 or out1:  # RL-V3 (gap): no character deck left to draw a party from
        finish_relics(row, DRAW if (out0 and out1) else (1 if out0 else 0))
        return
    row[S.STEP] = S.ST_LOCATION
    row[S.ROUND] = 0
    row[S.BATTLE_TURNS] = 0
    row[S.PASSES] = 0
    row[S.BATTLE_WINNER] = -1
    row[S.RETREATED] = 0
    row[S.KEPT] = 0
    row[S.ACTOR] = row[S.LEAD]
    row[S.SETUP_PLAYER] = row[S.LEAD]
    row[S.STEAL_OWED] = 0
    row[S.STEAL_OWED + 1] = 0
    row[S.JUMPER] = -1
    clear_pending(row)


@njit(cache=True, inline="always")
def choose_location(row: np.ndarray, p: int, k: int) -> None:
    """RL-G2 then RL-G3: the location goes to the battlefield; both draw 6 characters."""
    owner = p if k < S.NUM_LOCATIONS else 1 - p
    j = k if k < S.NUM_LOCATIONS else k - S.NUM_LOCATIONS
    inst = zone_remove(row, S.LOC_PILE, S.LOC_PILE_COUNT, S.NUM_LOCATIONS, owner, j)
    zone_push(row, S.BATTLEFIELD, S.BATTLEFIELD_COUNT, 1, owner, inst)
    for q in range(2):
        for _ in range(S.LINEUP_SIZE):
            c = pop_character(row, q)
            if c < 0:
                break
            zone_push(row, S.LINEUP, S.LINEUP_COUNT, S.LINEUP_SIZE, q, c)
    row[S.SETUP_PLAYER] = row[S.LEAD]
    row[S.STEP] = S.ST_LEADER


@njit(cache=True, inline="always")
def reveal(row: np.ndarray, tables) -> None:
    """RL-G6 reveal and draws, RL-G8 reserves filled to 3 (then trimmed by their owners; the location effect,
    RL-G7, goes off after the trim: ``location_effect``)."""
    lead = row[S.LEAD]
    for k in range(2):
        p = lead if k == 0 else 1 - lead
        for j in range(row[S.PARTY_COUNT + p]):
            row[S.FACE_DOWN + p * S.MAX_DECK + row[S.PARTY + p * S.PARTY_SIZE + j]] = 0
        for _ in range(2 * (S.PARTY_SIZE - row[S.PARTY_COUNT + p])):
            draw_item(row, p)
    for p in range(2):
        while row[S.RESERVES_COUNT + p] < S.RESERVE_TARGET:
            c = pop_character(row, p)
            if c < 0:
                break
            add_to_reserves(row, p, c)
    row[S.SETUP_PLAYER] = lead
    row[S.STEP] = S.ST_TRIM


@kernel
def location_effect(row: np.ndarray, tables, k0: int) -> None:
    """RL-G7 (gap): the location's effect goes off once, for 1P (k = 0) then 2P (k = 1), after the reserves were set
    to 3 (RL-G8), so that an effect that puts characters into the reserves (Dragon's Spine) or takes them back from
    the discard pile (Bone Chapel) is not undone by the trim; no other effect can tell the two orders apart. Starts
    at part ``k0``; a take-back choice (ST_PILE) pauses it, and its end resumes here. Then the battle phase."""
    loc = -1
    for q in range(2):
        if row[S.BATTLEFIELD_COUNT + q] > 0:
            loc = card_of(row, q, row[S.BATTLEFIELD + q])
    lead = row[S.LEAD]
    for k in range(k0, 2):
        if loc < 0:
            break
        p = lead if k == 0 else 1 - lead
        fire(row, tables, p, loc, TR_LOCATION, -1, -1, SC_NONE)
        if row[S.STEP] == S.ST_PILE:
            row[S.PEND_NEXT] = S.NEXT_LOCATION_OTHER if k == 0 else S.NEXT_LOCATION_DONE
            return
    row[S.STEP] = S.ST_BATTLE  # RL-G9: the battle phase starts with 1P
    row[S.ACTOR] = lead
    row[S.PASSES] = 0
    row[S.ROUND] = 1


@kernel
def pile_choice(row: np.ndarray, tables, p: int, cid: int) -> None:
    """RL-Z5/Z6: take back a card of id ``cid``; when the take-back is done, resume what it interrupted."""
    ctab = tables.cards
    op = row[S.PEND_SRC]
    take_back(row, ctab, p, op, pile_candidate(row, ctab, p, op, row[S.PEND_TARGET], cid))
    row[S.PEND_LEFT] -= 1
    if row[S.PEND_LEFT] > 0 and pile_candidate(row, ctab, p, op, row[S.PEND_TARGET], -1) >= 0:
        return
    nxt = row[S.PEND_NEXT]
    clear_pending(row)
    row[S.STEP] = S.ST_BATTLE  # the take-back is over (location_effect reads STEP to see whether another one starts)
    if nxt >= 0:
        end_action(row, nxt)
    else:
        location_effect(row, tables, 1 if nxt == S.NEXT_LOCATION_OTHER else 2)


@kernel
def location_back(row: np.ndarray) -> None:
    for q in range(2):
        if row[S.BATTLEFIELD_COUNT + q] > 0:
            inst = zone_remove(row, S.BATTLEFIELD, S.BATTLEFIELD_COUNT, 1, q, 0)
            zone_push(row, S.LOC_PILE, S.LOC_PILE_COUNT, S.NUM_LOCATIONS, q, inst)


@njit(cache=True, inline="always")
def set_aside(row: np.ndarray, p: int, inst: int) -> None:
    """RL-G14: a card chosen in a simultaneous step waits face down (``hand_aside``) until both players chose."""
    zone_push(row, S.HAND_ASIDE, S.HAND_ASIDE_COUNT, S.ASIDE_CAP, p, inst)


@njit(cache=True, inline="always")
def reveal_aside(row: np.ndarray) -> None:
    """RL-G14: both players chose: every card set aside goes to its owner's discard pile, in the order chosen."""
    for p in range(2):
        for j in range(row[S.HAND_ASIDE_COUNT + p]):
            to_discard(row, p, row[S.HAND_ASIDE + p * S.ASIDE_CAP + j])
            row[S.HAND_ASIDE + p * S.ASIDE_CAP + j] = -1
        row[S.HAND_ASIDE_COUNT + p] = 0


@njit(cache=True, inline="always")
def start_resolution(row: np.ndarray, tables) -> None:
    """RL-B1..B5, RL-K14, RL-V1: who gets the relic; then the winner keeps characters (RL-B6)."""
    ctab = tables.cards
    w = row[S.BATTLE_WINNER]
    clear_pending(row)
    row[S.STEAL_OWED] = 0
    row[S.STEAL_OWED + 1] = 0
    row[S.JUMPER] = -1
    if w == 0 or w == 1:
        villains = row[S.PARTY_COUNT + w] > 0
        for j in range(row[S.PARTY_COUNT + w]):
            if (skills_of(row, ctab, w, row[S.PARTY + w * S.PARTY_SIZE + j]) & SK_VILLAIN) == 0:
                villains = False
        if villains:  # RL-K14 (gap)
            location_back(row)
        else:  # RL-B5: the winner takes the location card; its relic goes to the winner's sideboard
            for q in range(2):
                if row[S.BATTLEFIELD_COUNT + q] > 0:
                    inst = zone_remove(row, S.BATTLEFIELD, S.BATTLEFIELD_COUNT, 1, q, 0)
                    zone_push(row, S.WON, S.WON_COUNT, S.NUM_LOCATIONS, q, inst)
                    row[S.CONTROLLER + q * S.MAX_DECK + inst] = w
                    row[S.HOST + q * S.MAX_DECK + inst] = -1
            if relic_count(row, w) >= S.RELICS_TO_WIN:  # RL-V1
                finish_relics(row, w)
                return
        row[S.KEPT] = 0
        row[S.SETUP_PLAYER] = w
        row[S.STEP] = S.ST_KEEP
    else:  # RL-B2 / RL-B9: a draw, the location goes back; nobody keeps characters
        location_back(row)
        for p in range(2):
            while row[S.PARTY_COUNT + p] > 0:
                leave_play(row, p, row[S.PARTY + p * S.PARTY_SIZE], TO_DISCARD)
        row[S.SETUP_PLAYER] = row[S.LEAD]
        row[S.STEP] = S.ST_HAND


@njit(cache=True, inline="always")
def end_battle(row: np.ndarray) -> None:
    """RL-B8 discard piles to the doom pile; RL-E6 relics still attached go back; RL-G12 roles swap."""
    for p in range(2):
        while row[S.PARTY_COUNT + p] > 0:  # never reached: parties are empty after the keep step
            leave_play(row, p, row[S.PARTY + p * S.PARTY_SIZE], TO_DISCARD)
        for j in range(row[S.DISCARD_COUNT + p]):  # in order: the doom pile keeps the discard pile's order
            to_doom(row, p, row[S.DISCARD + p * S.MAX_DECK + j])
            row[S.DISCARD + p * S.MAX_DECK + j] = -1
        row[S.DISCARD_COUNT + p] = 0
        row[S.LEADER + p] = -1
    row[S.LEAD] = 1 - row[S.LEAD]
    begin_battle(row)


@kernel
def apply_action(row: np.ndarray, tables, p: int, a: int) -> None:
    """Apply a legal action of player ``p`` (legality is checked by the caller)."""
    st = row[S.STEP]
    if st == S.ST_LOCATION:
        choose_location(row, p, a - A_LOCATION)
    elif st == S.ST_LEADER:  # RL-G4
        row[S.PEND_CARD] = row[S.LINEUP + p * S.LINEUP_SIZE + (a - A_PICK)]
        row[S.STEP] = S.ST_LEADER_SLOT
    elif st == S.ST_LEADER_SLOT:
        inst = row[S.PEND_CARD]
        zone_remove(row, S.LINEUP, S.LINEUP_COUNT, S.LINEUP_SIZE, p,
                    zone_find(row, S.LINEUP, S.LINEUP_COUNT, S.LINEUP_SIZE, p, inst))
        enter_party(row, p, inst, a - A_SLOT, False)  # RL-G4 (gap): the leader is face up
        row[S.LEADER + p] = inst
        row[S.LEADER_SHOWN + p] = 1  # the leader card is seen from now on
        row[S.PLAYED + p * S.MAX_DECK + inst] = 1
        row[S.PEND_CARD] = -1
        if p == row[S.LEAD]:
            row[S.SETUP_PLAYER] = 1 - p
            row[S.STEP] = S.ST_LEADER
        else:
            row[S.SETUP_PLAYER] = row[S.LEAD]
            row[S.STEP] = S.ST_PLACE
    elif st == S.ST_PLACE:  # RL-G5: the next drawn character, face down on a slot or to the reserves
        inst = zone_remove(row, S.LINEUP, S.LINEUP_COUNT, S.LINEUP_SIZE, p, 0)
        if a == A_PASS:
            add_to_reserves(row, p, inst)
        else:
            enter_party(row, p, inst, a - A_SLOT, True)
            row[S.PLAYED + p * S.MAX_DECK + inst] = 1
    elif st == S.ST_TRIM:  # RL-G8 (gap): the owner picks which reserve characters go; RL-G14: set aside face down
        set_aside(row, p, remove_reserve(row, p, a - A_RESERVE))
    elif st == S.ST_BATTLE:
        battle_action(row, tables, p, a)
    elif st == S.ST_SLOT:
        slot_choice(row, tables, p, a - A_SLOT)
    elif st == S.ST_TARGET:
        row[S.PEND_TARGET] = at_slot(row, 1 - p, a - A_TARGET)
        resolve_pending(row, tables, p)
    elif st == S.ST_DISCARD:
        discard_choice(row, tables, p, a - A_HAND)
    elif st == S.ST_JUMP:
        jumper = row[S.JUMPER]
        if a != A_PASS:  # RL-K9/K10: printed ATT, anywhere, no counter
            row[S.DOWN + p * S.MAX_DECK + jumper] = 1
            resolve_attack(row, tables, p, jumper, 1 - p, at_slot(row, 1 - p, a - A_TARGET), MODE_JUMP)
        finish_action(row, p)
    elif st == S.ST_PILE:
        pile_choice(row, tables, p, a - A_PILE)
    elif st == S.ST_KEEP:  # RL-B6
        if a == A_PASS:
            row[S.KEPT] = S.KEPT_DONE
        else:
            leave_play(row, p, at_slot(row, p, a - A_SLOT), TO_RESERVES)
            row[S.KEPT] += 1
    elif st == S.ST_HAND:  # RL-B7; RL-G14: the discards are set aside face down until both players chose
        if a != A_PASS:
            set_aside(row, p, zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, a - A_HAND))
        elif p == row[S.LEAD]:
            row[S.SETUP_PLAYER] = 1 - p
        else:
            reveal_aside(row)
            for k in range(2):
                x = row[S.LEAD] if k == 0 else 1 - row[S.LEAD]
                while row[S.HAND_COUNT + x] < S.OPENING_HAND_SIZE and draw_item(row, x):
                    pass
            end_battle(row)


@kernel
def advance(row: np.ndarray, tables) -> None:
    """Run forced steps until a decision is pending or the game is over."""
    while True:
        if row[H_STATUS] != LIVE:
            return
        # RL-V2: a player with no card in hand and none in the item deck loses (checked before every decision);
        # cards set aside in the Resolution (RL-G14) are still in hand until both players chose
        aside = row[S.STEP] == S.ST_HAND
        out0 = row[S.HAND_COUNT] + (row[S.HAND_ASIDE_COUNT] if aside else 0) == 0 and row[S.ITEM_DECK_COUNT] == 0
        out1 = (row[S.HAND_COUNT + 1] + (row[S.HAND_ASIDE_COUNT + 1] if aside else 0) == 0
                and row[S.ITEM_DECK_COUNT + 1] == 0)
        if out0 or out1:
            finish_relics(row, DRAW if (out0 and out1) else (1 if out0 else 0))
            return
        st = row[S.STEP]
        lead = row[S.LEAD]
        sp = row[S.SETUP_PLAYER]
        if st == S.ST_LOCATION:
            set_relics_decision(row, lead)
            return
        if st == S.ST_LEADER or st == S.ST_LEADER_SLOT:
            if row[S.LINEUP_COUNT + sp] == 0 and st == S.ST_LEADER:  # nothing drawn (never: RL-V3 runs first)
                row[S.STEP] = S.ST_PLACE
                continue
            set_relics_decision(row, sp)
            return
        if st == S.ST_PLACE:
            if row[S.LINEUP_COUNT + sp] > 0 and row[S.PARTY_COUNT + sp] < S.PARTY_SIZE:
                set_relics_decision(row, sp)
                return
            while row[S.LINEUP_COUNT + sp] > 0:  # RL-G5: the rest go to the reserves
                add_to_reserves(row, sp, zone_remove(row, S.LINEUP, S.LINEUP_COUNT, S.LINEUP_SIZE, sp, 0))
            if sp == lead:
                row[S.SETUP_PLAYER] = 1 - lead
            else:
                reveal(row, tables)
            continue
        if st == S.ST_TRIM:
            if row[S.RESERVES_COUNT + sp] > S.RESERVE_TARGET:
                set_relics_decision(row, sp)
                return
            if sp == lead:
                row[S.SETUP_PLAYER] = 1 - lead
                continue
            reveal_aside(row)  # RL-G14: both trims are discarded together
            location_effect(row, tables, 0)  # RL-G7, then the battle phase (RL-G9)
            continue
        if st == S.ST_BATTLE:
            owed = -1
            for k in range(2):
                x = row[S.ACTOR] if k == 0 else 1 - row[S.ACTOR]
                if row[S.STEAL_OWED + x] > 0:
                    if row[S.HAND_COUNT + x] == 0:
                        row[S.STEAL_OWED + x] = 0
                    elif owed < 0:
                        owed = x
            if owed >= 0:  # RL-K6: the victim picks the card
                start_pending(row, owed, S.PK_STEAL, S.ST_DISCARD)
                set_relics_decision(row, owed)
                return
            if row[S.BATTLE_WINNER] < 0:
                gone0 = row[S.PARTY_COUNT] == 0
                gone1 = row[S.PARTY_COUNT + 1] == 0
                if gone0 and gone1:  # RL-B2
                    row[S.BATTLE_WINNER] = S.BATTLE_DRAW
                elif gone0 or gone1:  # RL-B1 / RL-B4
                    row[S.BATTLE_WINNER] = 1 if gone0 else 0
                elif row[S.BATTLE_TURNS] >= S.BATTLE_TURN_CAP:  # RL-G13 (gap): the battle ends as a draw
                    row[S.BATTLE_WINNER] = S.BATTLE_DRAW
            if row[S.BATTLE_WINNER] >= 0:
                start_resolution(row, tables)
                continue
            set_relics_decision(row, row[S.ACTOR])
            return
        if st == S.ST_SLOT or st == S.ST_TARGET or st == S.ST_DISCARD or st == S.ST_JUMP or st == S.ST_PILE:
            set_relics_decision(row, row[S.PEND_PLAYER])
            return
        if st == S.ST_KEEP:
            w = row[S.BATTLE_WINNER]
            if row[S.KEPT] < S.RESERVE_TARGET and row[S.PARTY_COUNT + w] > 0:
                set_relics_decision(row, w)
                return
            while row[S.PARTY_COUNT + w] > 0:  # RL-B6: the rest are discarded
                leave_play(row, w, row[S.PARTY + w * S.PARTY_SIZE], TO_DISCARD)
            row[S.SETUP_PLAYER] = lead
            row[S.STEP] = S.ST_HAND
            continue
        if st == S.ST_HAND:
            set_relics_decision(row, sp)
            return
        return  # ST_OVER


@njit(cache=True, inline="always")
def pending_is_hidden(row: np.ndarray) -> bool:
    """A pending sub-decision that depends on a card the opponent has not seen yet: the hand card being cast or
    attached (its caster, target or host) or the equipment chosen for a Throw. Whether such a decision has one or
    several legal actions depends on that hidden card, so it is never auto-played and the opponent's observation
    shows it as the battle step (no timing or step leak)."""
    kind = row[S.PEND_KIND]
    if row[S.STEP] != S.ST_SLOT and row[S.STEP] != S.ST_TARGET and row[S.STEP] != S.ST_DISCARD:
        return False
    if kind == S.PK_THROW:
        return True
    return row[S.PEND_SRC] == S.SRC_CARD and (kind == S.PK_EQUIP or kind == S.PK_CASTER or kind == S.PK_OWN_TARGET
                                          or kind == S.PK_OPP_TARGET)


@njit(cache=True, inline="always")
def settle(row: np.ndarray, tables, mask: np.ndarray) -> bool:
    """Advance, then auto-play decisions that have exactly one legal action when that is public knowledge. True when
    ``mask`` ends holding the legal mask of the player to act (the fused step copies it instead of recomputing)."""
    while True:
        advance(row, tables)
        if row[H_STATUS] != LIVE:
            return False
        if pending_is_hidden(row):
            return False
        p = row[H_TO_ACT]
        if mask_row(row, tables, p, mask) != 1:
            return True
        for a in range(NUM_ACTIONS):
            if mask[a] != 0:
                apply_action(row, tables, p, a)
                break


@njit(cache=True, inline="always")
def reset_row(row: np.ndarray, tables, decks: np.ndarray, seed: np.int64) -> None:
    """RL-S1..S4: sort the deck file into zones, shuffle both decks, draw 3, pick the first 1P at random."""
    ctab = tables.cards
    row[:] = 0
    row[H_WINNER] = NO_WINNER
    rng_seed(row, seed)
    for z in range(len(S.ZONES)):
        start, _count, width = S.ZONES[z]
        for j in range(2 * width):
            row[start + j] = -1
    for k in range(2 * S.MAX_DECK):
        row[S.DECK_LIST + k] = -1
        row[S.POS + k] = -1
        row[S.ATTACHED + k] = -1
        row[S.HOST + k] = -1
        row[S.CONTROLLER + k] = -1
    for p in range(2):
        for i in range(S.MAX_DECK):
            card = decks[p, i]
            row[S.DECK_LIST + p * S.MAX_DECK + i] = card
            if card < 0:
                continue
            kind = ctab[card, C_TYPE]
            if kind == T_CHARACTER:
                zone_push(row, S.CHAR_DECK, S.CHAR_DECK_COUNT, S.CHAR_DECK_SIZE, p, i)
            elif kind == T_LOCATION:
                zone_push(row, S.LOC_PILE, S.LOC_PILE_COUNT, S.NUM_LOCATIONS, p, i)
            elif kind == T_LEADER:
                row[S.LEADER_CARD + p] = i
            else:
                zone_push(row, S.ITEM_DECK, S.ITEM_DECK_COUNT, S.ITEM_DECK_SIZE, p, i)
        shuffle_slice(row, S.CHAR_DECK + p * S.CHAR_DECK_SIZE, row[S.CHAR_DECK_COUNT + p])
        shuffle_slice(row, S.ITEM_DECK + p * S.ITEM_DECK_SIZE, row[S.ITEM_DECK_COUNT + p])
        for _ in range(S.OPENING_HAND_SIZE):
            draw_item(row, p)
        row[S.LEADER + p] = -1
    row[S.LEAD] = rng_below(row, 2)  # RL-S4 (gap): the first 1P is random
    row[S.FIRST_PLAYER] = row[S.LEAD]
    row[H_TURN] = 0
    row[S.LAST_EVENT] = EV_NONE
    begin_battle(row)
    mask = np.empty(NUM_ACTIONS, dtype=np.int8)
    settle(row, tables, mask)


# ----------------------------------------------------------------------------------------------------------------
# batch kernels: the step_row wrapper and the batch loops of the kernel contract are the core's one template
# (cardenvs/core/kernel_template.py), rendered into _kernels.py from these options (python -m
# cardenvs.core.kernel_template --write relics after a change)
KERNEL_OPTIONS = {"settle_reports_mask": True, "truncate": "truncate_relics", "legal_check": "action_legal"}
