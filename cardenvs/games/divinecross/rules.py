"""divinecross rules as Numba kernels over one state row: reset, legal mask, apply, advance, and the batch wrappers.

Flow: ``step_row`` checks the action against ``mask_row``, applies it (``apply_action``), then ``settle`` runs
``advance`` (every forced step: setup redeals, the start of the game, the Draw Phase, the End Phase) to the next
decision; a decision with a single legal action is played automatically (and does not count as an agent decision)
only when public information makes it single (``forced_in_public``): whether a hidden hand leaves one option must
not show in *when* decisions come.
A KO'd Main Unit is replaced before anything else happens: while ``promote`` has a player's bit set, that player's
only decision is which Standby Unit moves up (DC-O5/O6), then the interrupted phase goes on.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import (
    H_STATUS,
    H_TO_ACT,
    H_TURN,
    H_WINNER,
    LIVE,
    NO_WINNER,
)
from cardenvs.core.jit import helper
from cardenvs.core.rng import rng_below, rng_seed, shuffle_slice
from cardenvs.core.turns import set_decision, truncate
from cardenvs.core.zones import deal_deck_lists, zone_push, zone_remove

from .actions import (
    A_CHARGE,
    A_CHARGE_END,
    A_EX_POWER,
    A_EX_POWER_END,
    A_EXTRA_DRAW,
    A_HAND,
    A_HAND_END,
    A_HOST,
    A_PASS,
    A_PROMOTE,
    A_RETREAT,
    A_RETREAT_END,
    A_SKILL,
    NUM_ACTIONS,
)
from .board import (
    attach,
    card_of,
    charge_unit,
    check_ko,
    clear_conditions,
    deal,
    discard_energy,
    draw_cards,
    energy_of,
    promote,
    retreat_cost,
    standby_at,
    to_discard,
    unit_at,
)
from .effects import fire, resolve_skill
from .reasons import (
    R_CHARGED,
    R_EMPTY_SLOT,
    R_EVENT_PLAYED,
    R_EX_USED,
    R_FIRST_TURN,
    R_GAME_OVER,
    R_NO_EX_POWER,
    R_NO_HAND_CARD,
    R_NO_MAIN_UNIT,
    R_NO_SUCH_SKILL,
    R_NO_TARGET,
    R_NOT_A_UNIT,
    R_NOT_YOUR_DECISION,
    R_OPPONENT_PROMOTES,
    R_PROMOTE_FIRST,
    R_RETREAT_COST,
    R_RETREATED,
    R_SKILL_ENERGY,
    R_STANDBY_FULL,
    R_STUNNED,
    R_UNKNOWN,
    R_WRONG_STEP,
)
from .vocab import (
    C_HAS_EX,
    C_N_SKILLS,
    C_S0_ENERGY,
    C_TYPE,
    MAX_SKILLS,
    TR_EX,
    TR_PLAY,
    TYPE_ASSIST,
    TYPE_EVENT,
    TYPE_UNIT,
)
from . import state as S


# ----------------------------------------------------------------------------------------------------------------
# small queries
@helper
def has_unit_in_hand(row: np.ndarray, ctab: np.ndarray, p: int) -> bool:
    for i in range(row[S.HAND_COUNT + p]):
        if ctab[card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), C_TYPE] == TYPE_UNIT:
            return True
    return False


@helper
def promoter(row: np.ndarray) -> int:
    """The player who must move a Standby Unit up now (the turn player first), or -1."""
    bits = row[S.PROMOTE]
    tp = row[S.TURN_PLAYER]
    if bits & (1 << tp):
        return tp
    if bits & (1 << (1 - tp)):
        return 1 - tp
    return -1


@helper
def skill_refusal(row: np.ndarray, ctab: np.ndarray, p: int, k: int, record: bool) -> int:
    """DC-K1/K2/C4/N3: why skill ``k`` of ``p``'s Main Unit cannot be used now (``R_*`` bits, 0: it can): it needs a
    Main Unit with that skill, an opponent's Main Unit, not the first turn, no stun, its Energy attached. With
    ``record`` every reason is found, else the search stops at the first."""
    u = row[S.MAIN + p]
    if u < 0:
        return R_NO_MAIN_UNIT
    card = card_of(row, p, u)
    if k >= ctab[card, C_N_SKILLS]:
        return R_NO_SUCH_SKILL
    bits = 0
    if row[S.MAIN + 1 - p] < 0:
        bits |= R_NO_TARGET
    if row[H_TURN] == 1:  # DC-K2: turn 1 is the first player's first turn
        bits |= R_FIRST_TURN
    if row[S.STUNNED + p] != 0:
        bits |= R_STUNNED
    if (record or bits == 0) and energy_of(row, p, u) < ctab[card, C_S0_ENERGY + k]:
        bits |= R_SKILL_ENERGY
    return bits


@helper
def skill_usable(row: np.ndarray, ctab: np.ndarray, p: int, k: int) -> bool:
    """Whether skill ``k`` of ``p``'s Main Unit can be used now (``skill_refusal`` finds no reason)."""
    return skill_refusal(row, ctab, p, k, False) == 0


@helper
def play_refusal(row: np.ndarray, ctab: np.ndarray, p: int, inst: int) -> int:
    """DC-U4/E1/E2: why a card in hand cannot be played in its owner's Main Phase (``R_*`` bits, 0: it can)."""
    kind = ctab[card_of(row, p, inst), C_TYPE]
    if kind == TYPE_UNIT:
        return R_STANDBY_FULL if row[S.STANDBY_COUNT + p] >= S.STANDBY_CAP else 0
    if kind == TYPE_EVENT:
        return R_EVENT_PLAYED if row[S.EVENT_PLAYED + p] != 0 else 0
    return 0


# ----------------------------------------------------------------------------------------------------------------
# legal actions, and why the others are not (rules written once: the branch that refuses an action records why)
@njit(cache=True, inline="always")
def verdict(out: np.ndarray, why: np.ndarray, a: int, bits: int, record: bool) -> None:
    """Action ``a`` is legal when no reason refuses it; with ``record``, ``why[a]`` keeps the reasons."""
    if bits == 0:
        out[a] = 1
    if record:
        why[a] = bits


@njit(cache=True, inline="always")
def legal_row(row: np.ndarray, tables, p: int, out: np.ndarray, why: np.ndarray, record: bool) -> int:
    """Write ``p``'s legal actions into ``out``; returns how many there are (0 when ``p`` has no decision).

    With ``record`` (a constant at each call site, so with False the recording compiles away) every action also gets
    in ``why[a]`` the reasons that refuse it (``R_*`` bits of ``reasons.py``; 0 for a legal action), written by the
    branch that refuses it. The loops then run over every slot of a range, not only the filled ones, so that an
    empty slot gets its reason too."""
    out[:] = 0
    if row[H_STATUS] != LIVE or row[H_TO_ACT] != p:
        if record:
            why[:] = R_GAME_OVER if row[H_STATUS] != LIVE else R_NOT_YOUR_DECISION
        return 0
    ctab = tables.cards
    st = row[S.STEP]
    q = promoter(row)
    if record:  # what no branch below offers is refused by the step (or by the pending promotion)
        why[:] = R_WRONG_STEP if q < 0 else (R_PROMOTE_FIRST if q == p else R_OPPONENT_PROMOTES)
    if q >= 0:
        if q == p:  # DC-O5/O6
            n = row[S.STANDBY_COUNT + p]
            for s in range(S.STANDBY_CAP if record else n):
                verdict(out, why, A_PROMOTE + s, R_EMPTY_SLOT if s >= n else 0, record)
    elif st == S.ST_SETUP_PLACE:  # DC-S4
        n = row[S.HAND_COUNT + p]
        for i in range(S.HAND_CAP if record else n):
            if i >= n:
                bits = R_NO_HAND_CARD
            elif ctab[card_of(row, p, row[S.HAND + p * S.HAND_CAP + i]), C_TYPE] != TYPE_UNIT:
                bits = R_NOT_A_UNIT
            else:
                bits = 0
            verdict(out, why, A_HAND + i, bits, record)
    elif st == S.ST_EXTRA_DRAW:  # DC-S6
        verdict(out, why, A_PASS, 0, record)
        verdict(out, why, A_EXTRA_DRAW, 0, record)
    elif st == S.ST_MAIN:
        verdict(out, why, A_PASS, 0, record)
        n = row[S.HAND_COUNT + p]
        for i in range(S.HAND_CAP if record else n):
            bits = R_NO_HAND_CARD if i >= n else play_refusal(row, ctab, p, row[S.HAND + p * S.HAND_CAP + i])
            verdict(out, why, A_HAND + i, bits, record)
        n_units = 1 + row[S.STANDBY_COUNT + p]
        charged = R_CHARGED if row[S.CHARGED + p] != 0 else 0  # DC-C1: once per turn
        ex_used = R_EX_USED if row[S.EX_USED + p] != 0 else 0  # DC-K5: once per game
        for j in range(S.AREA_SIZE if record else n_units):
            if j >= n_units:
                verdict(out, why, A_CHARGE + j, R_EMPTY_SLOT, record)
                verdict(out, why, A_EX_POWER + j, R_EMPTY_SLOT, record)
                continue
            verdict(out, why, A_CHARGE + j, charged, record)
            bits = ex_used
            if (record or bits == 0) and ctab[card_of(row, p, unit_at(row, p, j)), C_HAS_EX] == 0:
                bits |= R_NO_EX_POWER
            verdict(out, why, A_EX_POWER + j, bits, record)
        m = row[S.MAIN + p]
        # DC-R5 (v2): a Stunned Main Unit may retreat (the stun leaves with it, DC-N5); forbidding it made a
        # repeatable stun (Sleep Pollen) a lock: the stunned player could neither attack nor retreat, ever
        bits = R_RETREATED if row[S.RETREATED + p] != 0 else 0  # DC-R1: once per turn
        if (record or bits == 0) and energy_of(row, p, m) < retreat_cost(row, ctab, p, m):  # DC-R2
            bits |= R_RETREAT_COST
        n = row[S.STANDBY_COUNT + p]
        for s in range(S.STANDBY_CAP if record else n):
            verdict(out, why, A_RETREAT + s, bits | (R_EMPTY_SLOT if s >= n else 0), record)
    elif st == S.ST_ASSIST_HOST:  # DC-E4
        n_units = 1 + row[S.STANDBY_COUNT + p]
        for j in range(S.AREA_SIZE if record else n_units):
            verdict(out, why, A_HOST + j, R_EMPTY_SLOT if j >= n_units else 0, record)
    elif st == S.ST_BATTLE:
        verdict(out, why, A_PASS, 0, record)
        for k in range(MAX_SKILLS):
            verdict(out, why, A_SKILL + k, skill_refusal(row, ctab, p, k, record), record)
    n = 0
    for a in range(NUM_ACTIONS):
        n += out[a]
    return n


@helper
def mask_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> int:
    """Write ``p``'s legal actions into ``out``; returns how many there are (0 when ``p`` has no decision)."""
    return legal_row(row, tables, p, out, out, False)  # ``out`` stands in for ``why``: never written without record


@njit(cache=True, nogil=True)  # called from Python (text.explain_illegal), like a batch kernel
def why_row(row: np.ndarray, tables, p: int, why: np.ndarray) -> int:
    """Write into ``why[a]`` the reasons (``R_*`` bits of ``reasons.py``) that refuse each action of ``p`` now, 0 for
    a legal action (``text.explain_illegal`` words them); returns how many actions are legal. A refused action that
    no branch gave a reason gets ``R_UNKNOWN`` (a test checks it never happens)."""
    mask = np.empty(NUM_ACTIONS, dtype=np.int8)
    n = legal_row(row, tables, p, mask, why, True)
    for a in range(NUM_ACTIONS):
        if mask[a] == 0 and why[a] == 0:
            why[a] = R_UNKNOWN
    return n


# ----------------------------------------------------------------------------------------------------------------
# transitions
@helper
def hand_index(row: np.ndarray, p: int, inst: int) -> int:
    for i in range(row[S.HAND_COUNT + p]):
        if row[S.HAND + p * S.HAND_CAP + i] == inst:
            return i
    return -1


@helper
def play_card(row: np.ndarray, tables, p: int, i: int) -> None:
    """DC-U4, DC-E1..E5: a Unit to an empty Standby slot; an Event/Action resolves; an Assist waits for its host."""
    ctab = tables.cards
    inst = row[S.HAND + p * S.HAND_CAP + i]
    card = card_of(row, p, inst)
    kind = ctab[card, C_TYPE]
    if kind == TYPE_ASSIST:
        row[S.PENDING_CARD] = inst
        row[S.STEP] = S.ST_ASSIST_HOST
        return
    zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, i)
    row[S.PLAYED + p * S.DECK_SIZE + inst] = 1
    if kind == TYPE_UNIT:
        zone_push(row, S.STANDBY, S.STANDBY_COUNT, S.STANDBY_CAP, p, inst)
        row[S.FACE_UP + p * S.DECK_SIZE + inst] = 1
        return
    if kind == TYPE_EVENT:
        row[S.EVENT_PLAYED + p] = 1
    to_discard(row, p, inst)  # DC-E5: it resolves from the discard pile (no extra zone)
    fire(row, tables, p, card, -1, TR_PLAY)
    check_ko(row, ctab)


@helper
def retreat(row: np.ndarray, ctab: np.ndarray, p: int, s: int) -> None:
    """DC-R1..R3, DC-N5: pay the retreat cost in Energy, swap the Main Unit with Standby slot ``s``."""
    m = row[S.MAIN + p]
    discard_energy(row, p, m, retreat_cost(row, ctab, p, m))
    row[S.MAIN + p] = standby_at(row, p, s)
    row[S.STANDBY + p * S.STANDBY_CAP + s] = m
    row[S.RETREATED + p] = 1
    clear_conditions(row, p)


@helper
def apply_action(row: np.ndarray, tables, p: int, a: int) -> None:
    """Apply a legal action of player ``p`` (legality is checked by the caller)."""
    ctab = tables.cards
    st = row[S.STEP]
    if promoter(row) >= 0:
        promote(row, p, a - A_PROMOTE)
        return
    if st == S.ST_SETUP_PLACE:  # DC-S4: face down until the reveal (DC-S8)
        inst = zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, a - A_HAND)
        row[S.MAIN + p] = inst
        row[S.FACE_UP + p * S.DECK_SIZE + inst] = 0
        row[S.PLAYED + p * S.DECK_SIZE + inst] = 1
        if p == 0:
            row[S.SETUP_PLAYER] = 1
        else:
            row[S.STEP] = S.ST_START
    elif st == S.ST_EXTRA_DRAW:  # DC-S6: one card per opponent redeal; pass declines the rest
        if a == A_EXTRA_DRAW:
            draw_cards(row, p, 1)
            row[S.EXTRA_LEFT + p] -= 1
        else:
            row[S.EXTRA_LEFT + p] = 0
    elif st == S.ST_MAIN:
        if a == A_PASS:
            row[S.STEP] = S.ST_BATTLE
        elif A_HAND <= a < A_HAND_END:
            play_card(row, tables, p, a - A_HAND)
        elif A_CHARGE <= a < A_CHARGE_END:  # DC-C1/C2
            row[S.CHARGED + p] = 1
            charge_unit(row, p, unit_at(row, p, a - A_CHARGE))
            check_ko(row, ctab)
        elif A_RETREAT <= a < A_RETREAT_END:
            retreat(row, ctab, p, a - A_RETREAT)
        elif A_EX_POWER <= a < A_EX_POWER_END:  # DC-K4/K5
            u = unit_at(row, p, a - A_EX_POWER)
            row[S.EX_USED + p] = 1
            fire(row, tables, p, card_of(row, p, u), u, TR_EX)
            check_ko(row, ctab)
    elif st == S.ST_ASSIST_HOST:  # DC-E4
        inst = row[S.PENDING_CARD]
        zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, hand_index(row, p, inst))
        row[S.PLAYED + p * S.DECK_SIZE + inst] = 1
        attach(row, S.ASSIST, S.ASSIST_COUNT, p, unit_at(row, p, a - A_HOST), inst)
        row[S.PENDING_CARD] = -1
        row[S.STEP] = S.ST_MAIN
    elif st == S.ST_BATTLE:  # DC-T6/T7, DC-K1
        if a != A_PASS:
            row[S.LAST_DAMAGE] = resolve_skill(row, tables, p, a - A_SKILL)
            check_ko(row, ctab)
        row[S.STEP] = S.ST_END
        row[S.END_STAGE] = S.ES_POISON


@helper
def redeal(row: np.ndarray, p: int) -> None:
    """DC-S5: the hand (shown to the opponent) goes back into the deck; shuffle and draw 5 again. What the reveal
    showed stays known: per card id, the most copies one reveal showed (``shown``, a lower bound on the deck list's
    copies: which copy was shown cannot be told apart, so reveals are not summed)."""
    n = row[S.HAND_COUNT + p]
    base = S.HAND + p * S.HAND_CAP
    for i in range(n):
        card = row[S.DECK_LIST + p * S.DECK_SIZE + row[base + i]]
        copies = 0
        for j in range(n):
            if row[S.DECK_LIST + p * S.DECK_SIZE + row[base + j]] == card:
                copies += 1
        k = S.SHOWN + p * S.POOL_CAP + card
        row[k] = max(row[k], copies)
    while row[S.HAND_COUNT + p] > 0:
        inst = zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, row[S.HAND_COUNT + p] - 1)
        zone_push(row, S.DECK, S.DECK_COUNT, S.DECK_SIZE, p, inst)
    shuffle_slice(row, S.DECK + p * S.DECK_SIZE, row[S.DECK_COUNT + p])
    draw_cards(row, p, S.OPENING_HAND_SIZE)
    row[S.REDEALS + p] += 1


@helper
def advance(row: np.ndarray, tables) -> None:
    """Run forced steps until a decision is pending or the game is over."""
    ctab = tables.cards
    while True:
        if row[H_STATUS] != LIVE:
            return
        q = promoter(row)
        if q >= 0:
            set_decision(row, q)
            return
        st = row[S.STEP]
        tp = row[S.TURN_PLAYER]
        op = 1 - tp
        if st == S.ST_SETUP_PLACE:
            p = row[S.SETUP_PLAYER]
            if p >= 0:  # DC-S4: always a decision (even with one Unit: the hand is hidden, so is its being forced)
                set_decision(row, p)
                return
            # DC-S5/S9: both hands are checked at the same moment, before anyone places or draws extra;
            # only a player without a Unit starts over, and each redeal offers the opponent one extra draw (DC-S6)
            lack0 = not has_unit_in_hand(row, ctab, 0)
            lack1 = not has_unit_in_hand(row, ctab, 1)
            if not lack0 and not lack1:
                row[S.SETUP_PLAYER] = 0
                row[S.STEP] = S.ST_EXTRA_DRAW
                continue
            if row[S.REDEALS] + row[S.REDEALS + 1] >= S.REDEAL_CAP:
                truncate(row)
                return
            for q in range(2):
                if (lack0 if q == 0 else lack1):
                    redeal(row, q)
                    row[S.EXTRA_LEFT + 1 - q] += 1
            continue
        if st == S.ST_EXTRA_DRAW:  # DC-S6: player 0's offers, then player 1's (public: counts of public redeals)
            q = -1
            for r in range(2):
                if row[S.EXTRA_LEFT + r] > 0 and row[S.DECK_COUNT + r] == 0:
                    row[S.EXTRA_LEFT + r] = 0  # an empty deck offers nothing (its size is public)
                if q < 0 and row[S.EXTRA_LEFT + r] > 0:
                    q = r
            if q < 0:
                row[S.STEP] = S.ST_SETUP_PLACE
                continue
            row[S.EXTRA_PLAYER] = q
            set_decision(row, q)
            return
        if st == S.ST_START:  # DC-S7/S8
            first = rng_below(row, 2)
            row[S.FIRST_PLAYER] = first
            row[S.TURN_PLAYER] = first
            for p in range(2):
                row[S.FACE_UP + p * S.DECK_SIZE + row[S.MAIN + p]] = 1
            row[H_TURN] = 0
            row[S.STEP] = S.ST_DRAW
            continue
        if st == S.ST_DRAW:  # DC-T1/T2
            if row[H_TURN] >= S.TURN_CAP:
                truncate(row)
                return
            row[H_TURN] += 1
            for p in range(2):
                row[S.CHARGED + p] = 0
                row[S.RETREATED + p] = 0
                row[S.EVENT_PLAYED + p] = 0
            for k in range(S.DECK_SIZE):  # guards last until the start of their owner's next turn
                row[S.GUARD + tp * S.DECK_SIZE + k] = 0
            draw_cards(row, tp, 1)
            check_ko(row, ctab)
            row[S.STEP] = S.ST_MAIN
            continue
        if st == S.ST_MAIN or st == S.ST_ASSIST_HOST or st == S.ST_BATTLE:
            set_decision(row, tp)
            return
        if st == S.ST_END:  # DC-T8, DC-N1..N4
            stage = row[S.END_STAGE]
            row[S.END_STAGE] = stage + 1
            if stage == S.ES_POISON:
                if row[S.POISONED + tp] != 0:
                    deal(row, tp, row[S.MAIN + tp], S.POISON_DAMAGE)
                    check_ko(row, ctab)
            elif stage == S.ES_STUN:
                row[S.STUNNED + tp] = 0
            else:  # ES_PASS_TURN
                for k in range(S.BOOST, S.BOOST_END):
                    row[k] = 0
                row[S.TURN_PLAYER] = op
                row[S.STEP] = S.ST_DRAW
            continue
        return  # unknown step: leave the row as is (never reached)


@helper
def forced_in_public(row: np.ndarray, p: int) -> bool:
    """True when whether ``p``'s decision has a single legal action follows from public information only.

    Only such decisions are auto-played: the setup placement reads the hidden hand, and so does the Main Phase
    while the hand holds cards (are they playable?), so those stay decisions even with one legal action;
    otherwise the opponent would learn about the hand from *when* decisions appear."""
    if promoter(row) >= 0:
        return True
    st = row[S.STEP]
    if st == S.ST_SETUP_PLACE:
        return False
    if st == S.ST_MAIN:
        return row[S.HAND_COUNT + p] == 0
    return True


@helper
def settle(row: np.ndarray, tables, mask: np.ndarray) -> None:
    """Advance, then auto-play decisions that have exactly one legal action, known to everyone to be forced."""
    while True:
        advance(row, tables)
        if row[H_STATUS] != LIVE:
            return
        p = row[H_TO_ACT]
        if mask_row(row, tables, p, mask) != 1 or not forced_in_public(row, p):
            return
        for a in range(NUM_ACTIONS):
            if mask[a] != 0:
                apply_action(row, tables, np.int64(p), a)
                break


@njit(cache=True, inline="always")
def reset_row(row: np.ndarray, tables, decks: np.ndarray, seed: np.int64) -> None:
    """DC-S1..S3: (the greeting has no effect) shuffle each deck, draw 5 each; then placements (DC-S4)."""
    row[:] = 0
    row[H_WINNER] = NO_WINNER
    rng_seed(row, seed)
    for start, end in ((S.DECK_LIST, S.DECK_LIST_END), (S.DECK, S.DECK_END), (S.HAND, S.HAND_END),
                       (S.MAIN, S.MAIN_END), (S.STANDBY, S.STANDBY_END), (S.ENERGY, S.ENERGY_END),
                       (S.ASSIST, S.ASSIST_END), (S.KO, S.KO_END), (S.DISCARD, S.DISCARD_END),
                       (S.HOST, S.HOST_END)):
        for j in range(start, end):
            row[j] = -1
    deal_deck_lists(row, decks, S.DECK_LIST, S.DECK, S.DECK_COUNT, S.DECK_SIZE)
    row[S.FIRST_PLAYER] = -1
    row[S.PENDING_CARD] = -1
    for p in range(2):
        shuffle_slice(row, S.DECK + p * S.DECK_SIZE, row[S.DECK_COUNT + p])
        draw_cards(row, p, S.OPENING_HAND_SIZE)
    row[S.STEP] = S.ST_SETUP_PLACE
    row[S.SETUP_PLAYER] = -1  # the hands are checked first (DC-S5)
    row[S.EXTRA_PLAYER] = -1
    mask = np.empty(NUM_ACTIONS, dtype=np.int8)
    settle(row, tables, mask)


# ----------------------------------------------------------------------------------------------------------------
# batch kernels: the step_row wrapper and the batch loops of the kernel contract are the core's one template
# (cardenvs/core/kernel_template.py), rendered into _kernels.py from these options (python -m
# cardenvs.core.kernel_template --write divinecross after a change)
KERNEL_OPTIONS = {}
