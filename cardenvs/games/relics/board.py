"""Board primitives over one state row: zone moves, the grid, attachments and character stats (Numba, no decisions).

Stats are computed on read: printed value + attached equipment or relic + modifiers until the next Up + cont
effects of characters in play (both sides) and of an active leader card.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.jit import kernel
from cardenvs.core.zones import zone_find, zone_push, zone_remove  # noqa: F401  (re-exported to this game's modules)

from .cards import (
    C_ATT,
    C_CLASS,
    C_DEF,
    C_DESC,
    C_HAS_CONT,
    C_QUAL_CLASS,
    C_QUAL_DESC,
    C_RELIC_ATT,
    C_RELIC_DEF,
    C_RELIC_SKILLS,
    C_REQ_CLASS,
    C_REQ_DESC,
    C_REQ_SKILL,
    C_SKILLS,
    C_TYPE,
    E_ATT,
    E_DEF,
    E_LEADER,
    E_OP,
    E_TARGET,
    E_TRIGGER,
    MAX_EFFECTS,
    OP_BOOST,
    SC_BLACK,
    SC_WHITE,
    SK_BLACK,
    SK_WHITE,
    T_LOCATION,
    TG_OPP_ALL,
    TG_OWN_ALL,
    TG_SELF,
    TR_CONT,
)
from . import state as S

TO_DISCARD, TO_DOOM, TO_RESERVES = 0, 1, 2


@kernel
def card_of(row: np.ndarray, p: int, inst: int) -> int:
    return row[S.DECK_LIST + p * S.MAX_DECK + inst]


# ---------------------------------------------------------------------------------------------------- piles and draws
@njit(cache=True, inline="always")
def to_discard(row: np.ndarray, p: int, inst: int) -> None:
    zone_push(row, S.DISCARD, S.DISCARD_COUNT, S.MAX_DECK, p, inst)


@njit(cache=True, inline="always")
def to_doom(row: np.ndarray, p: int, inst: int) -> None:
    zone_push(row, S.DOOM, S.DOOM_COUNT, S.MAX_DECK, p, inst)


@kernel
def add_to_hand(row: np.ndarray, p: int, inst: int) -> None:
    if row[S.HAND_COUNT + p] >= S.HAND_CAP:  # never reached: HAND_CAP is the whole item deck (kept as a guard)
        to_discard(row, p, inst)
        return
    zone_push(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, inst)
    row[S.DRAWN + p * S.MAX_DECK + inst] = 1


@kernel
def normalize_reserves(row: np.ndarray, p: int) -> None:
    """RL-P6: while ``p`` holds more than ``RES_VIEW`` reserve characters, the first ``RES_VIEW`` entries (the ones
    observed and named by the ``reserve`` actions) hold one copy of every different character in the reserves: a
    stable reorder, first copies first, then the extra copies. Copies are alike, so every choice stays reachable
    (a deck has at most ``RES_VIEW`` different characters, RL-D14). At most ``RES_VIEW`` reserves: left as they are."""
    n = row[S.RESERVES_COUNT + p]
    if n <= S.RES_VIEW:
        return
    base = S.RESERVES + p * S.RES_CAP
    firsts = np.empty(S.RES_CAP, dtype=np.int32)
    extras = np.empty(S.RES_CAP, dtype=np.int32)
    nf = 0
    ne = 0
    for j in range(n):
        inst = row[base + j]
        card = card_of(row, p, inst)
        seen = False
        for k in range(nf):
            if card_of(row, p, firsts[k]) == card:
                seen = True
                break
        if seen:
            extras[ne] = inst
            ne += 1
        else:
            firsts[nf] = inst
            nf += 1
    for k in range(nf):
        row[base + k] = firsts[k]
    for k in range(ne):
        row[base + nf + k] = extras[k]


@kernel
def add_to_reserves(row: np.ndarray, p: int, inst: int) -> None:
    """RL-P4: the reserves have no limit once the battle starts; ``RES_CAP`` is every character a player owns, so
    the guard below is never reached."""
    if row[S.RESERVES_COUNT + p] >= S.RES_CAP:
        to_discard(row, p, inst)
        return
    zone_push(row, S.RESERVES, S.RESERVES_COUNT, S.RES_CAP, p, inst)
    row[S.DRAWN + p * S.MAX_DECK + inst] = 1
    normalize_reserves(row, p)


@kernel
def remove_reserve(row: np.ndarray, p: int, j: int) -> int:
    """Take reserve entry ``j`` of ``p`` out of the reserves (RL-P6 order kept); returns its instance."""
    inst = zone_remove(row, S.RESERVES, S.RESERVES_COUNT, S.RES_CAP, p, j)
    normalize_reserves(row, p)
    return inst


@kernel
def draw_item(row: np.ndarray, p: int) -> bool:
    """RL-Z1, RL-V4: the top card of the item deck into the hand; nothing on an empty deck."""
    n = row[S.ITEM_DECK_COUNT + p]
    if n == 0:
        return False
    inst = zone_remove(row, S.ITEM_DECK, S.ITEM_DECK_COUNT, S.ITEM_DECK_SIZE, p, n - 1)
    row[S.KNOWN + p * S.MAX_DECK + inst] = 0  # a face-down draw: only its owner knows it
    add_to_hand(row, p, inst)
    return True


@kernel
def pop_character(row: np.ndarray, p: int) -> int:
    """RL-Z3: the top card of the character deck (-1 when empty)."""
    n = row[S.CHAR_DECK_COUNT + p]
    if n == 0:
        return -1
    inst = zone_remove(row, S.CHAR_DECK, S.CHAR_DECK_COUNT, S.CHAR_DECK_SIZE, p, n - 1)
    row[S.DRAWN + p * S.MAX_DECK + inst] = 1
    row[S.KNOWN + p * S.MAX_DECK + inst] = 0
    return inst


@njit(cache=True, inline="always")
def mark_known(row: np.ndarray, p: int, inst: int) -> None:
    """The card went from a public zone (play, discard, doom pile) to a hidden one: the opponent knows what it is."""
    row[S.KNOWN + p * S.MAX_DECK + inst] = 1


@kernel
def discard_from_hand(row: np.ndarray, p: int, i: int) -> int:
    inst = zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, i)
    to_discard(row, p, inst)
    return inst


# ---------------------------------------------------------------------------------------------------- the grid
@kernel
def at_slot(row: np.ndarray, p: int, slot: int) -> int:
    """The party instance standing on grid slot ``slot`` (0-2 front, 3-5 back), or -1."""
    for j in range(row[S.PARTY_COUNT + p]):
        inst = row[S.PARTY + p * S.PARTY_SIZE + j]
        if row[S.POS + p * S.MAX_DECK + inst] == slot:
            return inst
    return -1


@njit(cache=True, inline="always")
def slot_of(row: np.ndarray, p: int, inst: int) -> int:
    return row[S.POS + p * S.MAX_DECK + inst]


@njit(cache=True, inline="always")
def row_count(row: np.ndarray, p: int, back: int) -> int:
    n = 0
    for j in range(row[S.PARTY_COUNT + p]):
        inst = row[S.PARTY + p * S.PARTY_SIZE + j]
        if row[S.POS + p * S.MAX_DECK + inst] // S.ROW_SIZE == back:
            n += 1
    return n


@njit(cache=True, inline="always")
def depth(row: np.ndarray, p: int, inst: int) -> int:
    """RL-P3: rows between a character and the middle of the table; an empty front row collapses (gap)."""
    if slot_of(row, p, inst) < S.ROW_SIZE:
        return 0
    return 1 if row_count(row, p, 0) > 0 else 0


@njit(cache=True, inline="always")
def distance(row: np.ndarray, p: int, a: int, q: int, t: int) -> int:
    """RL-P3: front-front 1, front-back 2, back-back 3 (with empty front rows collapsing)."""
    return 1 + depth(row, p, a) + depth(row, q, t)


@njit(cache=True, inline="always")
def is_down(row: np.ndarray, p: int, inst: int) -> bool:
    return row[S.DOWN + p * S.MAX_DECK + inst] != 0


@njit(cache=True, inline="always")
def is_leader(row: np.ndarray, p: int, inst: int) -> bool:
    return row[S.LEADER + p] == inst and inst >= 0


# ---------------------------------------------------------------------------------------------------- location, leader
@kernel
def battlefield_card(row: np.ndarray) -> int:
    """The card id of the current location, or -1."""
    for q in range(2):
        if row[S.BATTLEFIELD_COUNT + q] > 0:
            return card_of(row, q, row[S.BATTLEFIELD + q])
    return -1


@kernel
def qualifies(row: np.ndarray, ctab: np.ndarray, p: int) -> bool:
    """RL-L2: the leader's class or one of its descriptors matches what the location names."""
    leader = row[S.LEADER + p]
    loc = battlefield_card(row)
    if leader < 0 or loc < 0 or row[S.FACE_DOWN + p * S.MAX_DECK + leader] != 0:
        return False
    card = card_of(row, p, leader)
    if (ctab[loc, C_QUAL_CLASS] >> ctab[card, C_CLASS]) & 1:
        return True
    return (ctab[loc, C_QUAL_DESC] & ctab[card, C_DESC]) != 0


# ---------------------------------------------------------------------------------------------------- attachments
@njit(cache=True, inline="always")
def attachment_card(row: np.ndarray, p: int, inst: int) -> int:
    """Card id of the equipment or relic on character ``inst`` of ``p``, or -1."""
    code = row[S.ATTACHED + p * S.MAX_DECK + inst]
    if code < 0:
        return -1
    return card_of(row, code // S.MAX_DECK, code % S.MAX_DECK)


@njit(cache=True, inline="always")
def attach(row: np.ndarray, p: int, char: int, owner: int, inst: int) -> None:
    row[S.ATTACHED + p * S.MAX_DECK + char] = owner * S.MAX_DECK + inst
    row[S.HOST + owner * S.MAX_DECK + inst] = char


@kernel
def meets_requirements(row: np.ndarray, ctab: np.ndarray, p: int, char: int, equip_card: int) -> bool:
    """RL-E1: equipment suits the classes, descriptors or skills it names (none named: anyone)."""
    rc = ctab[equip_card, C_REQ_CLASS]
    rd = ctab[equip_card, C_REQ_DESC]
    rs = ctab[equip_card, C_REQ_SKILL]
    if rc == 0 and rd == 0 and rs == 0:
        return True
    card = card_of(row, p, char)
    if (rc >> ctab[card, C_CLASS]) & 1:
        return True
    if rd & ctab[card, C_DESC]:
        return True
    return (rs & ctab[card, C_SKILLS]) != 0  # printed skills: equipment never qualifies a character for equipment


@kernel
def leave_play(row: np.ndarray, p: int, inst: int, dest: int) -> None:
    """A character leaves the party for ``dest``; its equipment shares its fate or is discarded (RL-E6), its relic
    goes back to its controller's sideboard (RL-E5), the leader card stays unattached (RL-L3)."""
    k = p * S.MAX_DECK + inst
    code = row[S.ATTACHED + k]
    if code >= 0:
        owner = code // S.MAX_DECK
        a = code % S.MAX_DECK
        row[S.HOST + owner * S.MAX_DECK + a] = -1
        if (row[S.DECK_LIST + owner * S.MAX_DECK + a] >= 0 and owner == p
                and zone_find(row, S.GEAR, S.GEAR_COUNT, S.PARTY_SIZE, p, a) >= 0):
            zone_remove(row, S.GEAR, S.GEAR_COUNT, S.PARTY_SIZE, p,
                        zone_find(row, S.GEAR, S.GEAR_COUNT, S.PARTY_SIZE, p, a))
            if dest == TO_DOOM:
                to_doom(row, p, a)
            else:
                to_discard(row, p, a)
    row[S.ATTACHED + k] = -1
    row[S.POS + k] = -1
    row[S.DOWN + k] = 0
    row[S.FACE_DOWN + k] = 0
    row[S.ATT_MOD + k] = 0
    row[S.DEF_MOD + k] = 0
    if row[S.LEADER + p] == inst:
        row[S.LEADER + p] = -1
    zone_remove(row, S.PARTY, S.PARTY_COUNT, S.PARTY_SIZE, p,
                zone_find(row, S.PARTY, S.PARTY_COUNT, S.PARTY_SIZE, p, inst))
    if dest == TO_DOOM:
        to_doom(row, p, inst)
    elif dest == TO_RESERVES:
        add_to_reserves(row, p, inst)
        row[S.KNOWN + k] = 1  # it was face up in play (Retreat, kept after a battle)
    else:
        to_discard(row, p, inst)


@kernel
def enter_party(row: np.ndarray, p: int, inst: int, slot: int, face_down: bool) -> None:
    """RL-U7: characters enter play Up."""
    k = p * S.MAX_DECK + inst
    zone_push(row, S.PARTY, S.PARTY_COUNT, S.PARTY_SIZE, p, inst)
    row[S.POS + k] = slot
    row[S.DOWN + k] = 0
    row[S.FACE_DOWN + k] = 1 if face_down else 0
    row[S.ATT_MOD + k] = 0
    row[S.DEF_MOD + k] = 0
    row[S.ATTACHED + k] = -1


# ---------------------------------------------------------------------------------------------------- relics
@kernel
def relic_count(row: np.ndarray, p: int) -> int:
    """RL-E4: relics ``p`` controls, in the sideboard or in play."""
    n = 0
    for q in range(2):
        for j in range(row[S.WON_COUNT + q]):
            if row[S.CONTROLLER + q * S.MAX_DECK + row[S.WON + q * S.SIDE_CAP + j]] == p:
                n += 1
    return n


@kernel
def sideboard_entry(row: np.ndarray, p: int, k: int) -> int:
    """Relic listing of ``p``: k < 5 its own won zone entry k, k >= 5 the opponent's entry k - 5; returns
    owner * MAX_DECK + inst when that card is a relic ``p`` controls, else -1."""
    q = p if k < S.SIDE_CAP else 1 - p
    j = k if k < S.SIDE_CAP else k - S.SIDE_CAP
    if j >= row[S.WON_COUNT + q]:
        return -1
    inst = row[S.WON + q * S.SIDE_CAP + j]
    if row[S.CONTROLLER + q * S.MAX_DECK + inst] != p:
        return -1
    return q * S.MAX_DECK + inst


# ---------------------------------------------------------------------------------------------------- stats
@kernel
def _cont_bonus(row: np.ndarray, tables, q: int, inst: int, column: int) -> int:
    """Sum of cont boosts (E_ATT or E_DEF) that apply to character ``inst`` of ``q`` (see ``cont_bonuses``)."""
    every = np.zeros(2, dtype=np.int32)
    single = np.zeros(2 * S.MAX_DECK, dtype=np.int32)
    cont_bonuses(row, tables, column, every, single)
    return every[q] + single[q * S.MAX_DECK + inst]


@njit(cache=True, inline="always")
def _attachment_bonus(row: np.ndarray, ctab: np.ndarray, q: int, inst: int, att: bool) -> int:
    a = attachment_card(row, q, inst)
    if a < 0:
        return 0
    if ctab[a, C_TYPE] == T_LOCATION:
        return ctab[a, C_RELIC_ATT] if att else ctab[a, C_RELIC_DEF]
    return ctab[a, C_ATT] if att else ctab[a, C_DEF]


@njit(cache=True, inline="always")
def printed_att(row: np.ndarray, ctab: np.ndarray, q: int, inst: int) -> int:
    """RL-E7: the value on the character card."""
    return ctab[card_of(row, q, inst), C_ATT]


@kernel
def cont_bonuses(row: np.ndarray, tables, column: int, every: np.ndarray, single: np.ndarray) -> None:
    """The [Cont] boosts of ``column`` (E_ATT or E_DEF) in force, found once per row: ``every[q]`` applies to each
    character of ``q``, ``single[q * MAX_DECK + inst]`` to that character only, so their sum is
    the boost of that character (``_cont_bonus``, the rules' per-character view). The observation calls it once
    per row instead of once per character and stat."""
    ctab = tables.cards
    etab = tables.effects
    every[:] = 0
    single[:] = 0
    for owner in range(2):
        for j in range(row[S.PARTY_COUNT + owner]):
            src = row[S.PARTY + owner * S.PARTY_SIZE + j]
            if row[S.FACE_DOWN + owner * S.MAX_DECK + src] != 0:
                continue
            card = card_of(row, owner, src)
            if ctab[card, C_HAS_CONT] == 0:
                continue
            for e in range(MAX_EFFECTS):
                if etab[card, e, E_TRIGGER] != TR_CONT or etab[card, e, E_OP] != OP_BOOST:
                    continue
                if etab[card, e, E_LEADER] != 0 and row[S.LEADER + owner] != src:
                    continue  # RL-K13
                tg = etab[card, e, E_TARGET]
                if tg == TG_SELF:
                    single[owner * S.MAX_DECK + src] += etab[card, e, column]
                elif tg == TG_OWN_ALL:
                    every[owner] += etab[card, e, column]
                elif tg == TG_OPP_ALL:
                    every[1 - owner] += etab[card, e, column]
        lc = card_of(row, owner, row[S.LEADER_CARD + owner])
        if ctab[lc, C_HAS_CONT] != 0 and qualifies(row, ctab, owner):
            for e in range(MAX_EFFECTS):
                if etab[lc, e, E_TRIGGER] != TR_CONT:
                    continue
                tg = etab[lc, e, E_TARGET]
                if tg == TG_SELF:
                    if row[S.LEADER + owner] >= 0:
                        single[owner * S.MAX_DECK + row[S.LEADER + owner]] += etab[lc, e, column]
                elif tg == TG_OWN_ALL:
                    every[owner] += etab[lc, e, column]
                elif tg == TG_OPP_ALL:
                    every[1 - owner] += etab[lc, e, column]


@kernel
def stat_given(row: np.ndarray, ctab: np.ndarray, q: int, inst: int, att: bool, cont: int) -> int:
    """RL-E7: ATT (``att``) or DEF of character ``inst`` of ``q``: printed value, attachment, modifiers and its [Cont]
    bonus ``cont``, at least 0."""
    k = q * S.MAX_DECK + inst
    if att:
        v = ctab[card_of(row, q, inst), C_ATT] + _attachment_bonus(row, ctab, q, inst, True) + row[S.ATT_MOD + k]
    else:
        v = ctab[card_of(row, q, inst), C_DEF] + _attachment_bonus(row, ctab, q, inst, False) + row[S.DEF_MOD + k]
    return max(v + cont, 0)


@kernel
def att_of(row: np.ndarray, tables, q: int, inst: int) -> int:
    return stat_given(row, tables.cards, q, inst, True, _cont_bonus(row, tables, q, inst, E_ATT))


@kernel
def def_of(row: np.ndarray, tables, q: int, inst: int) -> int:
    return stat_given(row, tables.cards, q, inst, False, _cont_bonus(row, tables, q, inst, E_DEF))


@kernel
def skills_of(row: np.ndarray, ctab: np.ndarray, q: int, inst: int) -> int:
    """Printed skills plus those granted by the attached equipment or relic (RL-K5 "from any source")."""
    s = ctab[card_of(row, q, inst), C_SKILLS]
    a = attachment_card(row, q, inst)
    if a >= 0:
        s |= ctab[a, C_RELIC_SKILLS] if ctab[a, C_TYPE] == T_LOCATION else ctab[a, C_SKILLS]
    return s


@kernel
def immune(row: np.ndarray, ctab: np.ndarray, caster_side: int, q: int, inst: int, school: int) -> bool:
    """RL-K1/K2: a standing (Up) Black / White character ignores the opponent's Black / White magic."""
    if q == caster_side or is_down(row, q, inst):
        return False
    s = skills_of(row, ctab, q, inst)
    if school == SC_BLACK:
        return (s & SK_BLACK) != 0
    if school == SC_WHITE:
        return (s & SK_WHITE) != 0
    return False
