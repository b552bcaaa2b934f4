"""heartbreak rules as Numba kernels over one state row: reset, legal mask, apply, advance, and the batch wrappers.

Row contract (every game): ``reset_row``, ``step_row`` (True when the action was legal and applied), ``mask_row``
(writes the mask, returns the number of legal actions), ``observe_row`` (observe.py) and ``settle``. Flow:
``step_row`` checks the action with ``action_legal`` (the branches of ``mask_row``, for that action only),
applies it (``apply_action``), then ``settle`` runs ``advance``
(every forced step: start phase, draw, rise, empty-field checks, end of turn, stack resolution) to the next decision.
A decision with exactly one legal action is played by ``settle`` (not counted) only when that is public: the legal
set does not depend on the deciding player's hand (``auto_ok``), so *whether* a player gets a decision never tells
the other player anything about hidden cards. A response window with a non-empty hand is always a decision, even
when the hand holds no playable Turbo (it then offers only ``pass``).

Response windows (HB-R*): every card play, skill or action declaration, triggered ability and phase change of a
player pushes an entry on the stack and opens a window. The players answer alternately, the actor's opponent first,
one Turbo or a pass each; a pass closes the window, and so does a Turbo of the turn player that answered a Turbo of
the opponent (the turn player has the last word); then the stack resolves last in, first out. After the
non-turn player's trigger: turn player, non-turn player, turn player (HB-R5/R9).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import (
    DRAW,
    H_STATUS,
    H_TO_ACT,
    H_TURN,
    H_WINNER,
    LIVE,
    NO_WINNER,
)
from cardenvs.core.jit import helper, kernel
from cardenvs.core.kernels import wanted
from cardenvs.core.rng import rng_below, rng_seed, shuffle_slice
from cardenvs.core.turns import finish, set_decision
from cardenvs.core.zones import zone_find, zone_push, zone_remove

from .actions import (
    A_ACT,
    A_ACT_END,
    A_CHOOSE_LEAD,
    A_CHOOSE_LEAD_END,
    A_HAND,
    A_HAND_END,
    A_ONTO,
    A_ONTO_END,
    A_ORDER,
    A_ORDER_END,
    A_PASS,
    A_REFILL,
    A_REFILL_END,
    A_SKILL,
    A_SKILL_END,
    A_SWAP,
    A_SWAP_END,
    A_TARGET,
    A_TARGET_END,
    NUM_ACTIONS,
)
from .board import (
    break_heart,
    card_of,
    charge_card,
    draw,
    face_down_heart,
    field_at,
    field_count,
    hand_slots,
    hand_window,
    has_bypass,
    heart_push,
    item_of,
    pay,
    pop_deck,
)
from .tables import (
    NUM_ACT_COLS,
    NUM_SK_COLS,
    C_ACT_COST,
    C_ACT_DMG,
    C_ACT_OD,
    C_COND,
    C_COST,
    C_HAS_CALL,
    C_HAS_END,
    C_HAS_START,
    C_LEAD_OK,
    C_N_ACTIONS,
    C_N_SKILLS,
    C_NEGATE,
    C_OD,
    C_SK_COST,
    C_SK_OD,
    C_TURBO,
    C_TYPE,
    CC_ALLY,
    CC_LOW_HEART,
    E_COND,
    E_TRIGGER,
    LOW_HEART,
    MAX_EFFECTS,
    TR_CALL,
    TR_END,
    TR_START,
    TYPE_CLIMAX,
    TYPE_FIGHTER,
    TYPE_ITEM,
)
from .effects import (
    active_on_field,
    any_ko,
    check_kos,
    condition_holds,
    evolve_fighter,
    evolve_ok,
    hand_card_to_resolving,
    push_entry,
    resolve_top,
    swap_lead_with,
)
from . import state as S
from .reasons import (
    R_ACT_NO_LEAD,
    R_BACKUP_RESTED,
    R_CLIMAX_NOT_CLIMAX_PHASE,
    R_CLIMAX_USED,
    R_COND_ALLY,
    R_COND_LOW_HEART,
    R_DISCHARGE,
    R_EMPTY_PLACE,
    R_ENTERED_THIS_TURN,
    R_FIELD_FULL,
    R_FIGHTER_NOT_MAIN,
    R_GAME_OVER,
    R_HAS_ITEM,
    R_ITEM_FROM_HAND,
    R_LEAD_RESTED,
    R_MUST_EVOLVE,
    R_NEGATE_NOT_WINDOW,
    R_NO_ACTION,
    R_NO_BACKUP,
    R_NO_BYPASS_TARGET,
    R_NO_DECK_CARD,
    R_NO_HAND_CARD,
    R_NO_LEAD_TARGET,
    R_NO_SKILL,
    R_NO_TARGET_HERE,
    R_NO_TRIGGER,
    R_NOT_LEAD_CAPABLE,
    R_NOT_ONTO,
    R_NOT_TURBO,
    R_NOT_YOURS,
    R_OTHER_COPY,
    R_OTHERS_TRIGGER,
    R_OVERDRIVE,
    R_SILENCED,
    R_SKILL_NO_FIGHTER,
    R_SKILL_USED,
    R_STACK_EMPTY,
    R_STACK_FULL,
    R_STOCK_FULL,
    R_SWAP_NO_LEAD,
    R_SWAP_USED,
    R_TOP_CALL,
    R_TOP_NEGATED,
    R_TOP_PHASE,
    R_TOP_PLAYED,
    R_UNKNOWN,
    R_WRONG_STEP,
    refuse,
)


_ZONE_SPANS = np.array([[S.STATE.offset(z), S.STATE[z].size] for z in S.ZONE_NAMES], dtype=np.int64)


# ----------------------------------------------------------------------------------------------------------------
# small state helpers
@helper
def settle_losses(row: np.ndarray) -> bool:
    """HB-V5/V6: a met loss condition ends the game at once; both players at once is a draw."""
    l0 = row[S.LOST] != 0
    l1 = row[S.LOST + 1] != 0
    if not (l0 or l1):
        return False
    finish(row, DRAW if (l0 and l1) else (1 if l0 else 0))
    return True


# ----------------------------------------------------------------------------------------------------------------
# legality
@njit(cache=True, inline="always")  # inlined into its callers: no extra call in the mask's loops
def cost_ok(row: np.ndarray, p: int, cost: int, od: int, why: np.ndarray, a: int, record: bool) -> bool:
    """HB-C2..C4: Discharge ``cost`` from the charge zone, and an Overdrive needs a face-down heart card; a cost is
    paid in full or not at all."""
    ok = True
    if row[S.CHARGE_COUNT + p] < cost:
        ok = refuse(why, a, R_DISCHARGE, record)
    if (ok or record) and od != 0 and face_down_heart(row, p) < 0:
        ok = refuse(why, a, R_OVERDRIVE, record)
    return ok


@njit(cache=True, inline="always")  # inlined into its callers: no extra call in the mask's loops
def call_ok(row: np.ndarray, ctab: np.ndarray, p: int, card: int, why: np.ndarray, a: int, record: bool) -> bool:
    """HB-F4/F6/F9, C3/C4: a fighter card with a free field place, its Discharge paid and its call condition met."""
    ok = True
    if field_count(row, p) >= S.FIELD_CAP:
        ok = refuse(why, a, R_FIELD_FULL, record)
    if (ok or record) and not cost_ok(row, p, ctab[card, C_COST], 0, why, a, record):
        ok = False
    cond = ctab[card, C_COND]
    if (ok or record) and cond == CC_ALLY and field_count(row, p) == 0:
        ok = refuse(why, a, R_COND_ALLY, record)
    if (ok or record) and cond == CC_LOW_HEART and row[S.HEART_COUNT + p] > LOW_HEART:
        ok = refuse(why, a, R_COND_LOW_HEART, record)
    return ok


@njit(cache=True, inline="always")  # inlined into its callers: no extra call in the mask's loops
def negatable_top(row: np.ndarray, ctab: np.ndarray, why: np.ndarray, a: int, record: bool) -> bool:
    """HB-R7 negate: the top entry must be something a negation changes. A phase change, an evolve or equip (the
    card is already on the field), a call of a fighter without call abilities, or an entry already negated: no."""
    n = row[S.STACK_COUNT]
    if n == 0:
        return refuse(why, a, R_STACK_EMPTY, record)
    b = S.STACK + (n - 1) * S.NUM_STACK_COLS
    if row[b + S.SK_CANCEL] != 0:
        return refuse(why, a, R_TOP_NEGATED, record)
    kind = row[b + S.SK_KIND]
    if kind == S.K_PHASE:
        return refuse(why, a, R_TOP_PHASE, record)
    if kind == S.K_PLAYED:
        return refuse(why, a, R_TOP_PLAYED, record)
    if kind == S.K_CALL and ctab[card_of(row, row[b + S.SK_PLAYER], row[b + S.SK_INST]), C_HAS_CALL] == 0:
        return refuse(why, a, R_TOP_CALL, record)
    return True


@njit(cache=True, inline="always")  # inlined into its callers: no extra call in the mask's loops
def support_ok(row: np.ndarray, ctab: np.ndarray, p: int, card: int, main: bool, window: bool, why: np.ndarray,
               a: int, record: bool) -> bool:
    """A support card: in the own main phase (HB-M2/M6); a Turbo one also in windows and at the open moments of the
    own turn (HB-R1..R3: the only other steps that ask ``hand_ok``). A negating Turbo is only played in a window,
    against an entry that something can negate (``negatable_top``)."""
    if ctab[card, C_TURBO] == 0 and not main:
        return refuse(why, a, R_NOT_TURBO, record)
    ok = True
    if ctab[card, C_TURBO] != 0 and ctab[card, C_NEGATE] != 0:
        if not window:
            ok = refuse(why, a, R_NEGATE_NOT_WINDOW, record)
        elif row[S.STACK_COUNT] >= S.STACK_CAP:
            ok = refuse(why, a, R_STACK_FULL, record)
        elif not negatable_top(row, ctab, why, a, record):
            ok = False
    if (ok or record) and not cost_ok(row, p, ctab[card, C_COST], ctab[card, C_OD], why, a, record):
        ok = False
    return ok


@helper
def hand_ok(row: np.ndarray, ctab: np.ndarray, p: int, card: int, st: int, why: np.ndarray, a: int,
            record: bool) -> bool:
    """Hand card ``card`` played at step ``st`` (the main phase, an open moment of the own turn or a response
    window): a fighter is called in the main phase, a Climax card played in the climax phase (once per turn,
    HB-X1/X3), a support card by ``support_ok``; an item goes onto a fighter (``onto_ok``), never from here."""
    kind = ctab[card, C_TYPE]
    if kind == TYPE_FIGHTER:
        if st != S.ST_MAIN:
            return refuse(why, a, R_FIGHTER_NOT_MAIN, record)
        return call_ok(row, ctab, p, card, why, a, record)
    if kind == TYPE_ITEM:
        return refuse(why, a, R_ITEM_FROM_HAND, record)
    if kind == TYPE_CLIMAX:
        if st != S.ST_CLIMAX:
            return refuse(why, a, R_CLIMAX_NOT_CLIMAX_PHASE, record)
        ok = True
        if row[S.CLIMAX_USED] != 0:
            ok = refuse(why, a, R_CLIMAX_USED, record)
        if (ok or record) and not cost_ok(row, p, ctab[card, C_COST], ctab[card, C_OD], why, a, record):
            ok = False
        return ok
    return support_ok(row, ctab, p, card, st == S.ST_MAIN, st == S.ST_WINDOW, why, a, record)


@njit(cache=True, inline="always")  # one call site: inlined, no argument passing per action
def onto_ok(row: np.ndarray, ctab: np.ndarray, p: int, card: int, pos: int, why: np.ndarray, a: int,
            record: bool) -> bool:
    """Evolve (HB-I1..I4, I9, I11) or equip (HB-I12/I13) onto the own fighter at ``pos``."""
    base = field_at(row, p, pos)
    if base < 0:
        return refuse(why, a, R_EMPTY_PLACE, record)
    kind = ctab[card, C_TYPE]
    ok = True
    if kind == TYPE_FIGHTER:
        if row[S.SINCE_TURN + p * S.MAX_DECK + base] >= row[H_TURN]:
            ok = refuse(why, a, R_ENTERED_THIS_TURN, record)  # HB-I4: on the field since before this turn began
        if (ok or record) and not evolve_ok(row, ctab, p, base, card, why, a, record):
            ok = False
        if (ok or record) and not cost_ok(row, p, ctab[card, C_COST], 0, why, a, record):
            ok = False
        return ok
    if kind == TYPE_ITEM:
        if item_of(row, ctab, p, base) >= 0:
            ok = refuse(why, a, R_HAS_ITEM, record)
        if (ok or record) and row[S.STOCK_COUNT + p] >= S.STOCK_CAP:
            ok = refuse(why, a, R_STOCK_FULL, record)
        if (ok or record) and not cost_ok(row, p, ctab[card, C_COST], ctab[card, C_OD], why, a, record):
            ok = False
        return ok
    return refuse(why, a, R_NOT_ONTO, record)


@njit(cache=True, inline="always")  # one call site: inlined, no argument passing per action
def skill_ok(row: np.ndarray, ctab: np.ndarray, p: int, pos: int, k: int, why: np.ndarray, a: int,
             record: bool) -> bool:
    """HB-L1/L2, L4, C4: once per turn per skill, not while silenced, cost payable."""
    inst = field_at(row, p, pos)
    if inst < 0:
        return refuse(why, a, R_SKILL_NO_FIGHTER, record)
    card = card_of(row, p, inst)
    if k >= ctab[card, C_N_SKILLS]:
        return refuse(why, a, R_NO_SKILL, record)
    ok = True
    if row[S.SILENCED + p * S.MAX_DECK + inst] != 0:
        ok = refuse(why, a, R_SILENCED, record)
    if (ok or record) and row[S.SKILLS_USED + p * S.MAX_DECK + inst] & (1 << k):
        ok = refuse(why, a, R_SKILL_USED, record)
    if (ok or record) and not cost_ok(row, p, ctab[card, C_SK_COST + NUM_SK_COLS * k],
                                      ctab[card, C_SK_OD + NUM_SK_COLS * k], why, a, record):
        ok = False
    return ok


@helper
def attack_targets(row: np.ndarray, ctab: np.ndarray, p: int) -> int:
    """HB-B3/B4/K1: how many opposing fighters the Lead's attack may target."""
    lead = row[S.LEAD + p]
    o = 1 - p
    if lead < 0:
        return 0
    if has_bypass(row, ctab, p, lead):
        return field_count(row, o)
    return 1 if row[S.LEAD + o] >= 0 else 0


@njit(cache=True, inline="always")  # one call site: inlined, no argument passing per action
def act_ok(row: np.ndarray, ctab: np.ndarray, p: int, k: int, why: np.ndarray, a: int, record: bool) -> bool:
    """HB-A5/A6, B4, C6: the standing Lead, a payable [Act Cost], and a target for an attack."""
    lead = row[S.LEAD + p]
    if lead < 0:
        return refuse(why, a, R_ACT_NO_LEAD, record)
    card = card_of(row, p, lead)
    if k >= ctab[card, C_N_ACTIONS]:
        return refuse(why, a, R_NO_ACTION, record)
    ok = True
    if row[S.RESTED + p * S.MAX_DECK + lead] != 0:
        ok = refuse(why, a, R_LEAD_RESTED, record)
    if (ok or record) and not cost_ok(row, p, ctab[card, C_ACT_COST + NUM_ACT_COLS * k],
                                      ctab[card, C_ACT_OD + NUM_ACT_COLS * k], why, a, record):
        ok = False
    if (ok or record) and ctab[card, C_ACT_DMG + NUM_ACT_COLS * k] != 0 and attack_targets(row, ctab, p) == 0:
        ok = False
        if record:  # which rule left no target: with [Bypass] every fighter counts, without it only the Lead
            refuse(why, a, R_NO_BYPASS_TARGET if has_bypass(row, ctab, p, lead) else R_NO_LEAD_TARGET, record)
    return ok


@helper
def window_responder(row: np.ndarray) -> int:
    """HB-R5/R9: the actor's opponent answers first, then the players alternate."""
    return 1 - row[S.WIN_ACTOR] if row[S.WIN_STAGE] % 2 == 0 else row[S.WIN_ACTOR]


@helper
def auto_ok(row: np.ndarray, p: int) -> bool:
    """May ``p``'s single legal action be played by the kernel? Only where the legal set is public: steps whose
    options come from the hand are forced only with an empty hand (HB-R8 and the timing rule in RULES.md)."""
    st = row[S.STEP]
    if st == S.ST_CHARGE or st == S.ST_MAIN or st == S.ST_ACTION or st == S.ST_CLIMAX or st == S.ST_WINDOW \
            or st == S.ST_START_OPEN or st == S.ST_END_OPEN \
            or (st == S.ST_CHOOSE and row[S.CHOICE_KIND] == S.CH_EVOLVE):
        return row[S.HAND_COUNT + p] == 0
    return True


@helper
def trigger_decider(row: np.ndarray) -> int:
    """HB-L5/L6: the turn player's waiting abilities first, then the opponent's."""
    tp = row[S.TURN_PLAYER]
    for j in range(row[S.TRIG_COUNT]):
        if row[S.TRIG + j * S.NUM_TRIG_COLS + S.TQ_PLAYER] == tp:
            return tp
    return 1 - tp


@njit(cache=True, inline="always")
def decided(why: np.ndarray, lo: int, hi: int, code: int, record: bool) -> None:
    """The pending step decides actions ``lo..hi-1``: each is refused for ``code`` until the branch that looks at it
    finds it legal or records its own reasons (``code`` 0 leaves them blank for that branch)."""
    if record:
        why[lo:hi] = 0 if code == R_UNKNOWN else np.int64(1) << code


@njit(cache=True, inline="always")
def legal_row(row: np.ndarray, tables, p: int, out: np.ndarray, why: np.ndarray, record: bool, only: int) -> int:
    """Write ``p``'s legal actions into ``out`` and return how many there are (0 when ``p`` has no decision). With
    ``record`` (a constant at each call site), the branch that refuses an action also records why: ``why[a]`` gets
    the bit ``1 << code`` of every reason (``reasons.py``) and stays 0 for a legal action. With ``only`` >= 0 the
    loops skip the actions other than ``only`` whose legality is costly to work out (``out[only]`` is still exact;
    the other entries and the count are then partial): the step's legality check asks about one action."""
    out[:] = 0
    if row[H_STATUS] != LIVE or row[H_TO_ACT] != p:
        decided(why, 0, NUM_ACTIONS, R_GAME_OVER if row[H_STATUS] != LIVE else R_NOT_YOURS, record)
        return 0
    decided(why, 0, NUM_ACTIONS, R_WRONG_STEP, record)  # the ranges the pending step takes are decided below
    ctab = tables.cards
    st = row[S.STEP]
    if st == S.ST_SETUP_LEAD:
        decided(why, A_CHOOSE_LEAD, A_CHOOSE_LEAD_END, R_NO_DECK_CARD, record)
        base = S.DECK + p * S.MAX_DECK
        for j in range(row[S.DECK_COUNT + p]):
            inst = row[base + j]
            if inst >= S.LEAD_SLOTS:  # never: reset_row puts every card's first copy among the first LEAD_SLOTS
                continue
            a = A_CHOOSE_LEAD + inst
            if not wanted(only, a, a + 1):
                continue
            decided(why, a, a + 1, R_UNKNOWN, record)
            card = card_of(row, p, inst)
            if ctab[card, C_LEAD_OK] == 0:
                refuse(why, a, R_NOT_LEAD_CAPABLE, record)
                continue
            first = True  # one action per distinct card: copies are interchangeable
            for k in range(j):
                if card_of(row, p, row[base + k]) == card:
                    first = False
                    break
            if first:
                out[a] = 1
            else:
                refuse(why, a, R_OTHER_COPY, record)
    elif st == S.ST_TRIGGERS:
        decided(why, A_ORDER, A_ORDER_END, R_NO_TRIGGER, record)
        for j in range(row[S.TRIG_COUNT]):
            decided(why, A_ORDER + j, A_ORDER + j + 1, R_UNKNOWN, record)
            if row[S.TRIG + j * S.NUM_TRIG_COLS + S.TQ_PLAYER] == p:
                out[A_ORDER + j] = 1
            else:
                refuse(why, A_ORDER + j, R_OTHERS_TRIGGER, record)
    elif st == S.ST_CHARGE:
        decided(why, A_PASS, A_PASS + 1, R_UNKNOWN, record)
        out[A_PASS] = 1
        decided(why, A_HAND, A_HAND_END, R_NO_HAND_CARD, record)
        n = hand_slots(row, p)
        decided(why, A_HAND, A_HAND + n, R_UNKNOWN, record)
        for i in range(n):
            out[A_HAND + i] = 1
    elif st == S.ST_REFILL:
        decided(why, A_REFILL, A_REFILL_END, R_NO_BACKUP, record)
        n = row[S.BACKUP_COUNT + p]
        decided(why, A_REFILL, A_REFILL + n, R_UNKNOWN, record)
        for j in range(n):
            out[A_REFILL + j] = 1
    elif st == S.ST_MAIN:
        decided(why, A_PASS, A_PASS + 1, R_UNKNOWN, record)
        out[A_PASS] = 1
        decided(why, A_HAND, A_HAND_END, R_NO_HAND_CARD, record)
        decided(why, A_ONTO, A_ONTO_END, R_NO_HAND_CARD, record)
        for i in range(hand_slots(row, p)):
            onto = A_ONTO + S.FIELD_CAP * i
            if not (wanted(only, A_HAND + i, A_HAND + i + 1) or wanted(only, onto, onto + S.FIELD_CAP)):
                continue
            card = card_of(row, p, row[S.HAND + p * S.HAND_CAP + i])
            decided(why, A_HAND + i, A_HAND + i + 1, R_UNKNOWN, record)
            if hand_ok(row, ctab, p, card, st, why, A_HAND + i, record):
                out[A_HAND + i] = 1
            for pos in range(S.FIELD_CAP):
                a = onto + pos
                decided(why, a, a + 1, R_UNKNOWN, record)
                if onto_ok(row, ctab, p, card, pos, why, a, record):
                    out[a] = 1
        decided(why, A_SKILL, A_SKILL_END, R_UNKNOWN, record)
        for pos in range(S.FIELD_CAP if wanted(only, A_SKILL, A_SKILL_END) else 0):
            for k in range(S.MAX_SKILLS):
                a = A_SKILL + S.MAX_SKILLS * pos + k
                if skill_ok(row, ctab, p, pos, k, why, a, record):
                    out[a] = 1
        decided(why, A_SWAP, A_SWAP_END, R_UNKNOWN, record)
        for j in range(S.BACKUP_CAP):  # HB-M4: once per turn, a Lead to swap, a Back-Up fighter in slot j
            a = A_SWAP + j
            ok = True
            if row[S.SWAP_USED] != 0:
                ok = refuse(why, a, R_SWAP_USED, record)
            if (ok or record) and row[S.LEAD + p] < 0:
                ok = refuse(why, a, R_SWAP_NO_LEAD, record)
            if (ok or record) and j >= row[S.BACKUP_COUNT + p]:
                ok = refuse(why, a, R_NO_BACKUP, record)
            if ok:
                out[a] = 1
    elif st == S.ST_CHOOSE:
        if row[S.CHOICE_KIND] == S.CH_SWAP:
            decided(why, A_SWAP, A_SWAP_END, R_NO_BACKUP, record)
            for j in range(row[S.BACKUP_COUNT + p]):
                decided(why, A_SWAP + j, A_SWAP + j + 1, R_UNKNOWN, record)
                if row[S.RESTED + p * S.MAX_DECK + row[S.BACKUP + p * S.BACKUP_CAP + j]] == 0:
                    out[A_SWAP + j] = 1
                else:
                    refuse(why, A_SWAP + j, R_BACKUP_RESTED, record)
        else:
            decided(why, A_ONTO, A_ONTO_END, R_NO_HAND_CARD, record)
            for i in range(hand_slots(row, p)):
                card = card_of(row, p, row[S.HAND + p * S.HAND_CAP + i])
                for pos in range(S.FIELD_CAP):
                    a = A_ONTO + S.FIELD_CAP * i + pos
                    decided(why, a, a + 1, R_UNKNOWN, record)
                    if evolve_ok(row, ctab, p, field_at(row, p, pos), card, why, a, record):
                        out[a] = 1
            decided(why, A_PASS, A_PASS + 1, R_UNKNOWN, record)
            out[A_PASS] = 1
            for a in range(A_ONTO, A_ONTO_END):
                if out[a] != 0:
                    out[A_PASS] = 0  # an eligible evolve must be made: pass only says nothing is eligible
                    refuse(why, A_PASS, R_MUST_EVOLVE, record)
                    break
    elif st == S.ST_ACTION or st == S.ST_CLIMAX or st == S.ST_START_OPEN or st == S.ST_END_OPEN:
        decided(why, A_PASS, A_PASS + 1, R_UNKNOWN, record)
        out[A_PASS] = 1
        if st == S.ST_ACTION and wanted(only, A_ACT, A_ACT_END):
            decided(why, A_ACT, A_ACT_END, R_UNKNOWN, record)
            for k in range(S.MAX_ACTIONS):
                if act_ok(row, ctab, p, k, why, A_ACT + k, record):
                    out[A_ACT + k] = 1
        decided(why, A_HAND, A_HAND_END, R_NO_HAND_CARD, record)
        for i in range(hand_slots(row, p)):
            if not wanted(only, A_HAND + i, A_HAND + i + 1):
                continue
            decided(why, A_HAND + i, A_HAND + i + 1, R_UNKNOWN, record)
            if hand_ok(row, ctab, p, card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), st, why, A_HAND + i, record):
                out[A_HAND + i] = 1
    elif st == S.ST_TARGET:
        o = 1 - p
        decided(why, A_TARGET, A_TARGET_END, R_UNKNOWN, record)
        for pos in range(S.FIELD_CAP):
            if field_at(row, o, pos) >= 0:
                out[A_TARGET + pos] = 1
            else:
                refuse(why, A_TARGET + pos, R_NO_TARGET_HERE, record)
    elif st == S.ST_WINDOW:
        decided(why, A_PASS, A_PASS + 1, R_UNKNOWN, record)
        out[A_PASS] = 1
        decided(why, A_HAND, A_HAND_END, R_NO_HAND_CARD, record)
        for i in range(hand_slots(row, p)):
            if not wanted(only, A_HAND + i, A_HAND + i + 1):
                continue
            decided(why, A_HAND + i, A_HAND + i + 1, R_UNKNOWN, record)
            if hand_ok(row, ctab, p, card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), st, why, A_HAND + i, record):
                out[A_HAND + i] = 1
    n = 0
    for a in range(NUM_ACTIONS):
        n += out[a]
    return n


@kernel
def legal_some(row: np.ndarray, tables, p: int, out: np.ndarray, only: int) -> int:
    """``legal_row`` without its reasons (``record`` False: those stores compile away; ``out`` stands in for
    ``why``), for every action (``only`` -1) or for one: one compiled copy serves the mask and the step's check."""
    return legal_row(row, tables, p, out, out, False, only)


@helper
def mask_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> int:
    """Write ``p``'s legal actions into ``out``; returns how many there are (0 when ``p`` has no decision)."""
    return legal_some(row, tables, p, out, -1)


@helper
def action_legal(row: np.ndarray, tables, p: int, a: int, scratch: np.ndarray) -> bool:
    """Is action ``a`` (in range) legal for ``p``? The step's check: the same branches as ``mask_row``, which skip
    the costly checks of the other actions; ``scratch`` (NUM_ACTIONS int8) is overwritten."""
    legal_some(row, tables, p, scratch, a)
    return scratch[a] != 0


@njit(cache=True, nogil=True)  # called from Python (text.explain_illegal), like a batch kernel
def why_row(row: np.ndarray, tables, p: int, why: np.ndarray) -> int:
    """Why each action is not legal for ``p``: ``why[a]`` is the set of reason bits (``reasons.py``) the mask's own
    branches recorded, 0 for a legal action; returns the number of legal actions. A refused action that no branch
    gave a reason gets ``R_UNKNOWN`` (the explanation tests check that none does)."""
    out = np.zeros(NUM_ACTIONS, dtype=np.int8)
    n = legal_row(row, tables, p, out, why, True, -1)
    for a in range(NUM_ACTIONS):
        if out[a] == 0 and why[a] == 0:
            why[a] = np.int64(1) << R_UNKNOWN
    return n


# ----------------------------------------------------------------------------------------------------------------
# transitions
@helper
def open_window(row: np.ndarray, actor: int, ret: int) -> None:
    row[S.STEP] = S.ST_WINDOW
    row[S.WIN_ACTOR] = actor
    row[S.WIN_STAGE] = 0
    row[S.RET_STEP] = ret


@helper
def change_phase(row: np.ndarray, ret: int) -> None:
    """HB-R2: a phase change is answerable by the opponent."""
    push_entry(row, S.K_PHASE, row[S.TURN_PLAYER], -1, 0, -1)
    open_window(row, row[S.TURN_PLAYER], ret)


@helper
def has_trigger(row: np.ndarray, tables, q: int, inst: int, trigger: int) -> bool:
    etab = tables.effects
    card = card_of(row, q, inst)
    if row[S.SILENCED + q * S.MAX_DECK + inst] != 0:
        return False
    for e in range(MAX_EFFECTS):
        if etab[card, e, E_TRIGGER] == trigger and condition_holds(row, q, inst, etab[card, e, E_COND]):
            return True
    return False


@helper
def collect_triggers(row: np.ndarray, tables, trigger: int, next_step: int) -> None:
    """HB-P1/E1: every fighter on both fields whose ability triggers now waits for its owner's order."""
    ctab = tables.cards
    col = C_HAS_START if trigger == TR_START else C_HAS_END
    tp = row[S.TURN_PLAYER]
    n = 0
    for side in range(2):
        q = tp if side == 0 else 1 - tp
        for pos in range(S.FIELD_CAP):
            inst = field_at(row, q, pos)
            if (inst >= 0 and ctab[card_of(row, q, inst), col] != 0 and has_trigger(row, tables, q, inst, trigger)
                    and n < S.TRIG_CAP):
                row[S.TRIG + n * S.NUM_TRIG_COLS + S.TQ_PLAYER] = q
                row[S.TRIG + n * S.NUM_TRIG_COLS + S.TQ_INST] = inst
                n += 1
    row[S.TRIG_COUNT] = n
    row[S.TRIG_KIND] = trigger
    row[S.TRIG_NEXT] = next_step
    row[S.STEP] = S.ST_TRIGGERS


@helper
def take_trigger(row: np.ndarray, j: int) -> None:
    """The chosen waiting ability triggers: on the stack, and a window for the other player (HB-R2, R9)."""
    q = row[S.TRIG + j * S.NUM_TRIG_COLS + S.TQ_PLAYER]
    inst = row[S.TRIG + j * S.NUM_TRIG_COLS + S.TQ_INST]
    n = row[S.TRIG_COUNT]
    for k in range(j, n - 1):
        row[S.TRIG + k * S.NUM_TRIG_COLS + S.TQ_PLAYER] = row[S.TRIG + (k + 1) * S.NUM_TRIG_COLS + S.TQ_PLAYER]
        row[S.TRIG + k * S.NUM_TRIG_COLS + S.TQ_INST] = row[S.TRIG + (k + 1) * S.NUM_TRIG_COLS + S.TQ_INST]
    row[S.TRIG + (n - 1) * S.NUM_TRIG_COLS + S.TQ_PLAYER] = -1
    row[S.TRIG + (n - 1) * S.NUM_TRIG_COLS + S.TQ_INST] = -1
    row[S.TRIG_COUNT] = n - 1
    if not active_on_field(row, q, inst):
        return  # it left the field (or was silenced) while waiting: nothing triggers
    push_entry(row, S.K_TRIGGER, q, inst, row[S.TRIG_KIND], -1)
    open_window(row, q, S.ST_TRIGGERS)


@helper
def start_game(row: np.ndarray, tables) -> None:
    """HB-S2..S6: shuffle, random first player, 5 cards to hand, 5 to the heart, Leads revealed (a call)."""
    for q in range(2):
        shuffle_slice(row, S.DECK + q * S.MAX_DECK, row[S.DECK_COUNT + q])
    row[S.FIRST_PLAYER] = rng_below(row, 2)
    first = row[S.FIRST_PLAYER]  # read back as int32: the raw draw is unsigned
    row[S.TURN_PLAYER] = first
    for q in range(2):
        for _ in range(S.OPENING_HAND_SIZE):
            draw(row, q)
        for _ in range(S.START_HEART_SIZE):
            inst = pop_deck(row, q)
            if inst >= 0:
                heart_push(row, q, inst)
    for q in range(2):
        lead = row[S.LEAD + q]
        row[S.FACE_UP + q * S.MAX_DECK + lead] = 1
        row[S.SINCE_TURN + q * S.MAX_DECK + lead] = 1  # HB-I4: the reveal counts as entering in the first turn
    row[H_TURN] = 0
    # the reveal counts as calling the Leads: their call abilities wait, the first player's first (HB-L5)
    ctab = tables.cards
    n = 0
    for side in range(2):
        q = first if side == 0 else 1 - first
        lead = row[S.LEAD + q]
        if ctab[card_of(row, q, lead), C_HAS_CALL] != 0:
            row[S.TRIG + n * S.NUM_TRIG_COLS + S.TQ_PLAYER] = q
            row[S.TRIG + n * S.NUM_TRIG_COLS + S.TQ_INST] = lead
            n += 1
    row[S.TRIG_COUNT] = n
    row[S.TRIG_KIND] = TR_CALL
    row[S.TRIG_NEXT] = S.ST_START
    row[S.STEP] = S.ST_TRIGGERS


@helper
def play_card(row: np.ndarray, p: int, i: int, ret: int) -> None:
    """A support / Turbo / climax card: its cost is paid, it waits on the stack, a window opens."""
    inst = row[S.HAND + p * S.HAND_CAP + i]
    hand_card_to_resolving(row, p, i)
    push_entry(row, S.K_CARD, p, inst, 0, -1)
    open_window(row, p, ret)


@helper
def declare_action(row: np.ndarray, tables, p: int, k: int, target: int) -> None:
    """HB-A5, C6: rest the Lead, count the action, pay its cost; the action waits on the stack for answers."""
    ctab = tables.cards
    lead = row[S.LEAD + p]
    card = card_of(row, p, lead)
    row[S.RESTED + p * S.MAX_DECK + lead] = 1
    row[S.ACTED + p * S.MAX_DECK + lead] += 1
    pay(row, p, ctab[card, C_ACT_COST + NUM_ACT_COLS * k], ctab[card, C_ACT_OD + NUM_ACT_COLS * k])
    push_entry(row, S.K_ACTION, p, lead, k, target if ctab[card, C_ACT_DMG + NUM_ACT_COLS * k] > 0 else -1)
    open_window(row, p, S.ST_ACTION)


@helper
def end_of_turn_cleanup(row: np.ndarray) -> None:
    """HB-E2, L2, M4, X3: until-end-of-turn effects end; once-per-turn counters reset; the other player's turn."""
    for k in range(2 * S.MAX_DECK):
        row[S.ACTED + k] = 0
        row[S.SKILLS_USED + k] = 0
        row[S.MOD_ARMOR + k] = 0
        row[S.MOD_WARD + k] = 0
        row[S.MOD_COUNTER + k] = 0
        row[S.MOD_HP + k] = 0
        row[S.MOD_ATTACK + k] = 0
        row[S.MOD_STRIKE + k] = 0
        row[S.MOD_BYPASS + k] = 0
        row[S.SILENCED + k] = 0
    row[S.SWAP_USED] = 0
    row[S.CLIMAX_USED] = 0
    row[S.TURN_PLAYER] = 1 - row[S.TURN_PLAYER]
    row[S.STEP] = S.ST_START


@helper
def apply_action(row: np.ndarray, tables, p: int, a: int) -> None:
    """Apply a legal action of player ``p`` (legality is checked by the caller)."""
    ctab = tables.cards
    st = row[S.STEP]
    if st == S.ST_SETUP_LEAD:  # HB-S1
        inst = a - A_CHOOSE_LEAD
        zone_remove(row, S.DECK, S.DECK_COUNT, S.MAX_DECK, p, zone_find(row, S.DECK, S.DECK_COUNT, S.MAX_DECK, p, inst))
        row[S.LEAD + p] = inst
        row[S.FACE_UP + p * S.MAX_DECK + inst] = 0
        row[S.PLAYED + p * S.MAX_DECK + inst] = 1
        if p == 0:
            row[S.SETUP_PLAYER] = 1
        else:
            start_game(row, tables)
    elif st == S.ST_TRIGGERS:
        take_trigger(row, a - A_ORDER)
    elif st == S.ST_CHARGE:  # HB-P3, C1
        if a != A_PASS:
            charge_card(row, p, zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, a - A_HAND))
            draw(row, p)
        row[S.STEP] = S.ST_RISE
    elif st == S.ST_REFILL:  # HB-P5/P6: not a call, not the swap; the fighter keeps its state
        swap_lead_with(row, p, a - A_REFILL)
        row[S.STEP] = S.ST_START_OPEN
    elif st == S.ST_START_OPEN or st == S.ST_END_OPEN:  # HB-R3: a Turbo, or on to the main phase / end of turn
        if a == A_PASS:
            if st == S.ST_START_OPEN:
                change_phase(row, S.ST_MAIN)
            else:
                row[S.STEP] = S.ST_CLEANUP
        else:
            i = a - A_HAND
            card = card_of(row, p, row[S.HAND + p * S.HAND_CAP + i])
            pay(row, p, ctab[card, C_COST], ctab[card, C_OD])
            play_card(row, p, i, st)
    elif st == S.ST_CHOOSE:  # the paused effect gets its choice and resumes (effects.resolve_effects)
        if row[S.CHOICE_KIND] == S.CH_SWAP:
            row[S.CHOICE_VALUE] = a - A_SWAP
        else:
            row[S.CHOICE_VALUE] = a - A_ONTO if a != A_PASS else S.CHOICE_NOTHING
        row[S.STEP] = S.ST_WINDOW
    elif st == S.ST_MAIN:
        if a == A_PASS:  # HB-M7; HB-T2: the first player's first turn has no action phase
            change_phase(row, S.ST_CLIMAX if row[H_TURN] == 1 else S.ST_ACTION_START)
        elif A_HAND <= a < A_HAND_END:
            i = a - A_HAND
            inst = row[S.HAND + p * S.HAND_CAP + i]
            card = card_of(row, p, inst)
            if ctab[card, C_TYPE] == TYPE_FIGHTER:  # HB-F6..F8, F11: call
                pay(row, p, ctab[card, C_COST], 0)
                zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, i)
                if row[S.LEAD + p] < 0:
                    row[S.LEAD + p] = inst
                else:
                    zone_push(row, S.BACKUP, S.BACKUP_COUNT, S.BACKUP_CAP, p, inst)
                row[S.FACE_UP + p * S.MAX_DECK + inst] = 1
                row[S.RESTED + p * S.MAX_DECK + inst] = 0
                row[S.SINCE_TURN + p * S.MAX_DECK + inst] = row[H_TURN]
                row[S.PLAYED + p * S.MAX_DECK + inst] = 1
                push_entry(row, S.K_CALL, p, inst, 0, -1)
                open_window(row, p, S.ST_MAIN)
            else:  # HB-M3: a support card
                pay(row, p, ctab[card, C_COST], ctab[card, C_OD])
                play_card(row, p, i, S.ST_MAIN)
        elif A_ONTO <= a < A_ONTO_END:
            i = (a - A_ONTO) // S.FIELD_CAP
            pos = (a - A_ONTO) % S.FIELD_CAP
            inst = row[S.HAND + p * S.HAND_CAP + i]
            card = card_of(row, p, inst)
            if ctab[card, C_TYPE] == TYPE_FIGHTER:  # HB-I1, I9: pay the evolution's cost
                pay(row, p, ctab[card, C_COST], 0)
                evolve_fighter(row, p, pos, i)
            else:  # HB-I12: equip
                pay(row, p, ctab[card, C_COST], ctab[card, C_OD])
                zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, i)
                row[S.FACE_UP + p * S.MAX_DECK + inst] = 1
                row[S.STOCK_HOST + p * S.MAX_DECK + inst] = field_at(row, p, pos)
                row[S.PLAYED + p * S.MAX_DECK + inst] = 1
                zone_push(row, S.STOCK, S.STOCK_COUNT, S.STOCK_CAP, p, inst)
            push_entry(row, S.K_PLAYED, p, inst, 0, -1)
            open_window(row, p, S.ST_MAIN)
        elif A_SKILL <= a < A_SKILL_END:  # HB-L1/L2: skills
            pos = (a - A_SKILL) // S.MAX_SKILLS
            k = (a - A_SKILL) % S.MAX_SKILLS
            inst = field_at(row, p, pos)
            card = card_of(row, p, inst)
            pay(row, p, ctab[card, C_SK_COST + NUM_SK_COLS * k], ctab[card, C_SK_OD + NUM_SK_COLS * k])
            row[S.SKILLS_USED + p * S.MAX_DECK + inst] |= 1 << k
            push_entry(row, S.K_SKILL, p, inst, k, -1)
            open_window(row, p, S.ST_MAIN)
        else:  # HB-M4/M5: swap
            swap_lead_with(row, p, a - A_SWAP)
            row[S.SWAP_USED] = 1
    elif st == S.ST_ACTION:
        if a == A_PASS:  # HB-A11/A12
            change_phase(row, S.ST_CLIMAX)
        elif A_ACT <= a < A_ACT_END:
            k = a - A_ACT
            card = card_of(row, p, row[S.LEAD + p])
            o = 1 - p
            if ctab[card, C_ACT_DMG + NUM_ACT_COLS * k] > 0 and has_bypass(row, ctab, p, row[S.LEAD + p]) \
                    and field_count(row, o) > 1:
                row[S.PENDING_ACTION] = k
                row[S.STEP] = S.ST_TARGET
            else:
                target = row[S.LEAD + o]
                if target < 0:  # [Bypass] with only Back-Up fighters: the single one
                    target = field_at(row, o, 1)
                declare_action(row, tables, p, k, target)
        else:  # HB-R3: a Turbo at an open moment of the own turn
            i = a - A_HAND
            card = card_of(row, p, row[S.HAND + p * S.HAND_CAP + i])
            pay(row, p, ctab[card, C_COST], ctab[card, C_OD])
            play_card(row, p, i, S.ST_ACTION)
    elif st == S.ST_TARGET:  # HB-K1
        declare_action(row, tables, p, row[S.PENDING_ACTION], field_at(row, 1 - p, a - A_TARGET))
    elif st == S.ST_CLIMAX:
        if a == A_PASS:
            change_phase(row, S.ST_END)
        else:
            i = a - A_HAND
            card = card_of(row, p, row[S.HAND + p * S.HAND_CAP + i])
            if ctab[card, C_TYPE] == TYPE_CLIMAX:  # HB-X1/X3
                row[S.CLIMAX_USED] = 1
            pay(row, p, ctab[card, C_COST], ctab[card, C_OD])
            play_card(row, p, i, S.ST_CLIMAX)
    elif st == S.ST_WINDOW:  # HB-R4..R9
        if a == A_PASS:
            row[S.WIN_STAGE] = S.WIN_RESOLVING
        else:
            i = a - A_HAND
            inst = row[S.HAND + p * S.HAND_CAP + i]
            card = card_of(row, p, inst)
            pay(row, p, ctab[card, C_COST], ctab[card, C_OD])
            hand_card_to_resolving(row, p, i)
            push_entry(row, S.K_CARD, p, inst, 0, -1)
            if p == row[S.TURN_PLAYER] and row[S.WIN_STAGE] >= 1:
                row[S.WIN_STAGE] = S.WIN_RESOLVING  # the turn player answered the opponent's Turbo: the last word
            else:
                row[S.WIN_STAGE] += 1


@helper
def advance(row: np.ndarray, tables) -> None:
    """Run forced steps until a decision is pending or the game is over."""
    while True:
        if row[H_STATUS] != LIVE:
            return
        if settle_losses(row):
            return
        if any_ko(row, tables.cards):  # HB-B10: a KO is state-based, checked whenever HP or damage may have changed
            check_kos(row, tables)
            continue
        st = row[S.STEP]
        tp = row[S.TURN_PLAYER]
        op = 1 - tp
        if st == S.ST_SETUP_LEAD:
            set_decision(row, row[S.SETUP_PLAYER])
            return
        if st == S.ST_START:
            if row[S.DECK_COUNT + tp] == 0:  # HB-V2/V3: checked before the start-phase triggers
                row[S.LOST + tp] = 1
                continue
            if row[H_TURN] >= S.TURN_CAP:  # HB-V6: the turn cap ends the game as a draw
                finish(row, DRAW)
                return
            row[H_TURN] += 1
            st = S.ST_END  # HB-P1: collect the start-of-turn abilities below (one call site)
        if st == S.ST_TRIGGERS:
            if row[S.TRIG_COUNT] == 0:
                row[S.STEP] = row[S.TRIG_NEXT]
                continue
            set_decision(row, trigger_decider(row))
            return
        if st == S.ST_DRAW:  # HB-P2
            draw(row, tp)
            row[S.STEP] = S.ST_CHARGE
            continue
        if st == S.ST_RISE:  # HB-P4
            for pos in range(S.FIELD_CAP):
                inst = field_at(row, tp, pos)
                if inst >= 0:
                    row[S.RESTED + tp * S.MAX_DECK + inst] = 0
            row[S.STEP] = S.ST_REFILL
            continue
        if st == S.ST_REFILL:
            if row[S.LEAD + tp] < 0 and row[S.BACKUP_COUNT + tp] > 0:
                set_decision(row, tp)
                return
            row[S.STEP] = S.ST_START_OPEN
            continue
        if st == S.ST_ACTION_START:  # HB-A1..A4: once per action phase, the opponent first
            if field_count(row, op) == 0:
                break_heart(row, op)
                if settle_losses(row):
                    return
            if field_count(row, tp) == 0:
                break_heart(row, tp)
            row[S.STEP] = S.ST_ACTION
            continue
        if st == S.ST_END:  # HB-E1 (and HB-P1, redirected from ST_START above)
            start = row[S.STEP] == S.ST_START
            collect_triggers(row, tables, TR_START if start else TR_END, S.ST_DRAW if start else S.ST_END_OPEN)
            continue
        if st == S.ST_CLEANUP:
            if row[S.DECK_COUNT + tp] == 0:  # HB-V2/V3: checked after the end-phase triggers
                row[S.LOST + tp] = 1
                continue
            end_of_turn_cleanup(row)
            continue
        if st == S.ST_WINDOW:
            if row[S.WIN_STAGE] == S.WIN_RESOLVING:
                # resolving stops at a choice (ST_CHOOSE) and at a keyword ability that triggered on the way
                # ([X Strike], [Counter]): it opens its own window (win_stage 0) before it resolves
                while row[S.STACK_COUNT] > 0 and row[S.LOST] == 0 and row[S.LOST + 1] == 0 \
                        and row[S.STEP] == S.ST_WINDOW and row[S.WIN_STAGE] == S.WIN_RESOLVING:
                    resolve_top(row, tables)
                if row[S.LOST] != 0 or row[S.LOST + 1] != 0 or row[S.STEP] != S.ST_WINDOW \
                        or row[S.WIN_STAGE] != S.WIN_RESOLVING:
                    continue
                row[S.WIN_STAGE] = 0
                row[S.STEP] = row[S.RET_STEP]
                continue
            set_decision(row, window_responder(row))
            return
        if st == S.ST_CHOOSE:
            set_decision(row, row[S.CHOICE_PLAYER])
            return
        # ST_CHARGE, ST_MAIN, ST_ACTION, ST_TARGET, ST_CLIMAX: the turn player decides
        set_decision(row, tp)
        return


@helper
def settle(row: np.ndarray, tables, mask: np.ndarray) -> None:
    """Run every forced step up to the next decision or the end of the game; a decision with exactly one legal
    action is played here (not counted) when that is public (``auto_ok``). ``mask`` is scratch space."""
    while True:
        advance(row, tables)
        if row[H_STATUS] != LIVE:
            return
        for q in range(2):  # HB-E3: every distinct hand card within the addressable hand slots
            hand_window(row, q)
        p = row[H_TO_ACT]
        if mask_row(row, tables, p, mask) != 1 or not auto_ok(row, p):
            return
        for b in range(NUM_ACTIONS):
            if mask[b] != 0:
                apply_action(row, tables, p, b)
                break


@njit(cache=True, inline="always")
def reset_row(row: np.ndarray, tables, decks: np.ndarray, seed: np.int64, mask: np.ndarray) -> None:
    row[:] = 0
    row[H_WINNER] = NO_WINNER
    rng_seed(row, seed)
    for z in range(_ZONE_SPANS.shape[0]):
        for j in range(_ZONE_SPANS[z, 1]):
            row[_ZONE_SPANS[z, 0] + j] = -1
    for k in range(2 * S.MAX_DECK):
        row[S.DECK_LIST + k] = -1
        row[S.STOCK_HOST + k] = -1
    for j in range(S.STACK_CAP * S.NUM_STACK_COLS):
        row[S.STACK + j] = -1
    for j in range(S.TRIG_CAP * S.NUM_TRIG_COLS):
        row[S.TRIG + j] = -1
    seen = np.zeros(S.POOL_CAP, dtype=np.int8)
    for p in range(2):
        size = 0
        for i in range(S.MAX_DECK):
            size += decks[p, i] >= 0
        # instance order: the deck file's, except that a deck of more than LEAD_SLOTS cards lists the first copy of
        # every distinct card first, then the other copies (the deck is shuffled at HB-S2, so the order matters only
        # here): every card's first copy is then an instance the setup choice's range reaches (a pool has at most
        # MAX_TITLES = LEAD_SLOTS titles)
        seen[:] = 0 if size > S.LEAD_SLOTS else 2
        n = 0
        for i in range(S.MAX_DECK):
            card = decks[p, i]
            if card >= 0 and seen[card] == 0:
                seen[card] = 1
                row[S.DECK_LIST + p * S.MAX_DECK + n] = card
                n += 1
        for i in range(S.MAX_DECK):
            card = decks[p, i]
            if card >= 0 and seen[card] == 1:
                seen[card] = 2
            elif card >= 0:
                row[S.DECK_LIST + p * S.MAX_DECK + n] = card
                n += 1
        for i in range(n):
            row[S.DECK + p * S.MAX_DECK + i] = i
        row[S.DECK_COUNT + p] = n
    row[S.PENDING_ACTION] = -1
    row[S.KW_COUNTER] = -1
    row[S.KW_ATTACKER] = -1
    row[S.STEP] = S.ST_SETUP_LEAD
    row[S.SETUP_PLAYER] = 0
    settle(row, tables, mask)


# ----------------------------------------------------------------------------------------------------------------
# batch kernels: the step_row wrapper and the batch loops of the kernel contract are the core's one template
# (cardenvs/core/kernel_template.py), rendered into _kernels.py from these options (python -m
# cardenvs.core.kernel_template --write heartbreak after a change)
KERNEL_OPTIONS = {"reset_fills_mask": True, "observe_scratch": True, "cast_player": False,
                  "legal_check": "action_legal"}
