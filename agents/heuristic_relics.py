"""A greedy rule-based relics player, batched: one Numba kernel decides for every row at once.

What it does, by decision (see ``cardenvs/games/relics/RULES.md`` for the rules):

* Relic phase: battle for the location with the strongest relic; the strongest drawn character leads from the
  back row; every other drawn character is placed (Ranged characters and casters in the back row, the rest in
  front); the weakest reserve characters are the ones trimmed.
* Battle phase, first match wins: the most valuable Fight, Jump or Throw that defeats its target (worth the
  target's ATT + DEF, a lot more when it is the last one) without losing a more valuable attacker to a Counter
  (a Fight 2 rows away and a Throw are Ranged attacks: only a Ranged Counter answers them; a Throw also costs an
  equipment card and, like a Fight, downs the thrower); a Jump granted by an attached relic is taken like a
  printed one;
  a reserve character when the party has room; equipment and relics onto the strongest suitable character; an act
  ability (a character's or the leader card's) or an ATT boost spell or item whose boost opens a Fight that defeats
  someone, the boost on the character that will fight and the cost paid by another (a boost lasts only until the next
  Up, so one that opens nothing is kept: heuristic mirrors reached the round cap in 63% of battles before, 49% since,
  with relics winning 15% of games instead of 3%); a spell or item whose effect helps now (a strike that defeats
  someone, a down, an Up for a Down character, card draw); a Move that opens a winning Fight where none is open from
  today's places (RL-A4, RL-P3: a back-row character out of reach, a front row that empties and collapses the back row
  forward); otherwise Pass (which draws). It never retreats, recruits or appoints.
* How the game is won and lost (RL-V1, RL-V2): battles are won for their relics (4 win); a player with no card in
  hand and none in its item deck loses at once, so with the item deck empty it never spends its last card (a cast,
  an equipment, a Throw's discard); a Steal that takes the opponent's last card wins the game and comes first, and an
  act ability that makes the opponent discard (Shadow Crest) is used once the opponent's item deck is empty.
* Chores: keep the strongest characters after a won battle, discard the weakest cards, keep the whole hand at
  Resolution.

Hidden information: the kernel reads its own hand, line-up and reserves, both public boards, the location and
pile sizes; never the opponent's hand, reserves, decks or face-down characters.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.jit import helper
from cardenvs.core.kernels import decide_rows

from .base import StateHeuristic

from cardenvs.games.relics.actions import (
    A_ABILITY,
    A_FIGHT,
    A_HAND,
    A_LEADER_ABILITY,
    A_LOCATION,
    A_MOVE,
    A_PASS,
    A_PICK,
    A_PILE,
    A_RELIC,
    A_RESERVE,
    A_SLOT,
    A_TARGET,
    A_THROW,
)
from cardenvs.games.relics.board import (
    at_slot,
    att_of,
    card_of,
    cont_bonuses,
    def_of,
    distance,
    is_down,
    printed_att,
    skills_of,
    stat_given,
)
from cardenvs.games.relics.cards import (
    C_ACT,
    C_ATT,
    C_COST_DOWN,
    C_DEF,
    C_OPS,
    C_RELIC_ATT,
    C_RELIC_DEF,
    C_SKILLS,
    C_TYPE,
    E_ATT,
    E_DEF,
    E_N,
    E_OP,
    E_POWER,
    E_TARGET,
    E_TRIGGER,
    MAX_EFFECTS,
    OP_BOOST,
    OP_DOWN,
    OP_OPP_DISCARD,
    OP_STRIKE,
    OP_UP,
    PLAYER_OP_BITS,
    SK_BLACK,
    SK_COUNTER,
    SK_RANGED,
    SK_STEAL,
    SK_SUMMON,
    SK_WHITE,
    T_EQUIPMENT,
    TG_OWN_ALL,
    TG_OWN_ONE,
    TR_ACT,
    TR_CAST,
)
from cardenvs.games.relics.rules import MODE_FIGHT, MODE_JUMP, MODE_THROW, pending_card_id
from cardenvs.games.relics.state import (
    HAND,
    HAND_CAP,
    HAND_COUNT,
    ITEM_DECK_COUNT,
    JUMPER,
    LEADER,
    LEADER_CARD,
    LINEUP_SIZE,
    LINEUP_COUNT,
    LINEUP,
    LOC_PILE,
    MAX_DECK,
    NUM_LOCATIONS,
    PARTY_SIZE,
    PARTY_COUNT,
    POOL_CAP,
    PARTY,
    PEND_CARD,
    PEND_KIND,
    PEND_CASTER,
    PEND_SRC,
    POS,
    PK_CASTER,
    PK_OWN_TARGET,
    PK_REINFORCE,
    RES_CAP,
    RES_VIEW,
    RESERVES,
    RESERVES_COUNT,
    ROW_SIZE,
    SRC_CARD,
    ST_BATTLE,
    ST_DISCARD,
    ST_HAND,
    ST_JUMP,
    ST_KEEP,
    ST_LEADER,
    ST_LEADER_SLOT,
    ST_LOCATION,
    ST_PILE,
    ST_PLACE,
    ST_SLOT,
    ST_TARGET,
    ST_TRIM,
    STEP,
)

__all__ = ["HeuristicAgent", "batch_decide", "decide"]

LAST_ONE_BONUS = 100.0  # defeating the last opposing character wins the battle
# ops worth casting whenever the card is legal (the rules already refuse one that would change nothing, RL-M4): a
# boost, and every op on a player's cards (draws, take-backs, discards), read from the game's op vocabulary
_ALWAYS_HELPS = PLAYER_OP_BITS | (1 << OP_BOOST)


GAME_BONUS = 1000.0  # winning the game outright is worth more than any battle


@helper
def _last_card(row, q):
    """RL-V2: ``q`` holds one card and has no item deck left, so one more discard loses it the game (public counts)."""
    return row[HAND_COUNT + q] == 1 and row[ITEM_DECK_COUNT + q] == 0


@helper
def _can_spend(row, p, n):
    """RL-V2: a player whose hand and item deck are both empty loses at once. Spending ``n`` hand cards is safe while
    the item deck still holds a card (the next Pass draws it) or the hand keeps one."""
    return row[ITEM_DECK_COUNT + p] > 0 or row[HAND_COUNT + p] > n


@helper
def _worth(row, tables, q, inst):
    return float(att_of(row, tables, q, inst) + def_of(row, tables, q, inst))


@helper
def _card_worth(ctab, card):
    return float(ctab[card, C_ATT] + ctab[card, C_DEF])


@helper
def _attack_value(row, tables, p, att, q, tgt, mode):
    """Gain of an attack (``mode``: MODE_FIGHT, MODE_JUMP or MODE_THROW) by reading the same numbers the rules use."""
    ctab = tables.cards
    d_sk = skills_of(row, ctab, q, tgt)
    power = att_of(row, tables, p, att) if mode == MODE_FIGHT else printed_att(row, ctab, p, att)
    # RL-K5: Ranged reach used
    ranged = mode == MODE_THROW or (mode == MODE_FIGHT and distance(row, p, att, q, tgt) >= 2)
    hit = power >= def_of(row, tables, q, tgt)
    back = False
    if mode != MODE_JUMP and (d_sk & SK_COUNTER) != 0 and (not ranged or (d_sk & SK_RANGED) != 0):
        back = att_of(row, tables, q, tgt) >= def_of(row, tables, p, att)
    v = 0.0
    if hit:
        v += _worth(row, tables, q, tgt)
        if row[PARTY_COUNT + q] == 1:
            v += LAST_ONE_BONUS
        if (skills_of(row, ctab, p, att) & SK_STEAL) != 0 and _last_card(row, q):
            v += GAME_BONUS  # RL-K6 + RL-V2: the Steal discard takes the opponent's last card
    if back:
        v -= _worth(row, tables, p, att)
        if row[PARTY_COUNT + p] == 1:
            v -= 2 * LAST_ONE_BONUS
    if not hit:
        return -1.0
    return v


# A decision reads the same characters' ATT and DEF for many attacker/target pairs, and each att_of/def_of rescans
# every [Cont] boost (into two fresh arrays): ``stats[side, slot]`` memoises (instance, ATT, DEF) per grid slot for
# one position, and ``bonus`` holds the position's [Cont] boosts, found once by the rules' own ``cont_bonuses``.
STAT_INST, STAT_ATT, STAT_DEF = range(3)
UNKNOWN = -(1 << 30)  # not read yet (ATT and DEF are at least 0, instances at least -1)
# ``bonus`` layout: a found flag, then cont_bonuses' (every, single) for ATT, then for DEF
B_FOUND = 0
B_EVERY_ATT = 1
B_SINGLE_ATT = B_EVERY_ATT + 2
B_EVERY_DEF = B_SINGLE_ATT + 2 * MAX_DECK
B_SINGLE_DEF = B_EVERY_DEF + 2
BONUS_SIZE = B_SINGLE_DEF + 2 * MAX_DECK


@helper
def _stat(row, tables, q, inst, att, bonus):
    """``att_of`` (``att``) or ``def_of`` of ``inst``: the same ``stat_given`` with the same [Cont] boost sum, the
    boosts found once per position (clear ``bonus[B_FOUND]`` when the row changes)."""
    if bonus[B_FOUND] == 0:
        cont_bonuses(row, tables, E_ATT, bonus[B_EVERY_ATT:B_SINGLE_ATT], bonus[B_SINGLE_ATT:B_EVERY_DEF])
        cont_bonuses(row, tables, E_DEF, bonus[B_EVERY_DEF:B_SINGLE_DEF], bonus[B_SINGLE_DEF:BONUS_SIZE])
        bonus[B_FOUND] = 1
    if att:
        cont = bonus[B_EVERY_ATT + q] + bonus[B_SINGLE_ATT + q * MAX_DECK + inst]
    else:
        cont = bonus[B_EVERY_DEF + q] + bonus[B_SINGLE_DEF + q * MAX_DECK + inst]
    return stat_given(row, tables.cards, q, inst, att, cont)


@helper
def _slot_stats(row, tables, q, slot, stats, bonus):
    """(instance, ATT, DEF) of the character on ``q``'s ``slot`` (instance -1: empty), read once per position."""
    if stats[q, slot, STAT_INST] == UNKNOWN:
        inst = at_slot(row, q, slot)
        stats[q, slot, STAT_INST] = inst
        if inst >= 0:
            stats[q, slot, STAT_ATT] = _stat(row, tables, q, inst, True, bonus)
            stats[q, slot, STAT_DEF] = _stat(row, tables, q, inst, False, bonus)
    return stats[q, slot]


@helper
def _counter_takes(target_skills, ranged, target_att, attacker_def):
    """RL-K7: the target's Counter answers a melee attack (a Ranged one only when the target is Ranged too) and takes
    the attacker when the target's ATT reaches the attacker's DEF."""
    answers = (target_skills & SK_COUNTER) != 0 and (not ranged or (target_skills & SK_RANGED) != 0)
    return answers and target_att >= attacker_def


@helper
def _attack_value_known(row, tables, p, att, a_stats, q, tgt, t_stats, mode):
    """:func:`_attack_value` with both characters' ATT and DEF already read (``_slot_stats``); the same result."""
    ctab = tables.cards
    d_sk = skills_of(row, ctab, q, tgt)
    power = a_stats[STAT_ATT] if mode == MODE_FIGHT else printed_att(row, ctab, p, att)
    ranged = mode == MODE_THROW or (mode == MODE_FIGHT and distance(row, p, att, q, tgt) >= 2)
    hit = power >= t_stats[STAT_DEF]
    back = mode != MODE_JUMP and _counter_takes(d_sk, ranged, t_stats[STAT_ATT], a_stats[STAT_DEF])
    v = 0.0
    if hit:
        v += float(t_stats[STAT_ATT] + t_stats[STAT_DEF])
        if row[PARTY_COUNT + q] == 1:
            v += LAST_ONE_BONUS
        if (skills_of(row, ctab, p, att) & SK_STEAL) != 0 and _last_card(row, q):
            v += GAME_BONUS
    if back:
        v -= float(a_stats[STAT_ATT] + a_stats[STAT_DEF])
        if row[PARTY_COUNT + p] == 1:
            v -= 2 * LAST_ONE_BONUS
    if not hit:
        return -1.0
    return v


@helper
def _best_attack(row, tables, p, mask, stats, bonus):
    q = 1 - p
    best = -1
    best_v = 0.5
    stats[:] = UNKNOWN
    for a in range(PARTY_SIZE):
        any_attack = False  # the attacker's stats are only read when one of its attacks is legal
        for k in range(a * PARTY_SIZE, (a + 1) * PARTY_SIZE):
            if mask[A_FIGHT + k] != 0 or mask[A_THROW + k] != 0:
                any_attack = True
                break
        if not any_attack:
            continue
        a_stats = _slot_stats(row, tables, p, a, stats, bonus)
        att = a_stats[STAT_INST]
        if att < 0:
            continue
        for t in range(PARTY_SIZE):
            k = a * PARTY_SIZE + t
            if mask[A_FIGHT + k] == 0 and mask[A_THROW + k] == 0:
                continue
            t_stats = _slot_stats(row, tables, q, t, stats, bonus)
            tgt = t_stats[STAT_INST]
            if tgt < 0:
                continue
            if mask[A_FIGHT + k] != 0:
                v = _attack_value_known(row, tables, p, att, a_stats, q, tgt, t_stats, MODE_FIGHT)
                if v > best_v:
                    best, best_v = A_FIGHT + k, v
            if mask[A_THROW + k] != 0 and _can_spend(row, p, 1):  # the thrown equipment leaves the hand
                v = _attack_value_known(row, tables, p, att, a_stats, q, tgt, t_stats, MODE_THROW) - 2.0  # costs an equipment card
                if v > best_v:
                    best, best_v = A_THROW + k, v
    return best


@helper
def _fight_potential(row, tables, p):
    """The best Fight value open to ``p`` from where its characters stand once they are Up again (the next round at
    the latest): what Passing until the round ends offers."""
    ctab = tables.cards
    q = 1 - p
    best = 0.0
    for i in range(row[PARTY_COUNT + p]):
        c = row[PARTY + p * PARTY_SIZE + i]
        reach = 2 if (skills_of(row, ctab, p, c) & SK_RANGED) != 0 else 1  # RL-K4
        for j in range(row[PARTY_COUNT + q]):
            t = row[PARTY + q * PARTY_SIZE + j]
            if distance(row, p, c, q, t) <= reach:
                v = _attack_value(row, tables, p, c, q, t, MODE_FIGHT)
                if v > best:
                    best = v
    return best


@helper
def _exposed(row, tables, p, c):
    """The worth of ``p``'s character ``c`` when an opposing character could defeat it by a Fight from where they
    stand, else 0."""
    ctab = tables.cards
    q = 1 - p
    d = def_of(row, tables, p, c)
    for j in range(row[PARTY_COUNT + q]):
        o = row[PARTY + q * PARTY_SIZE + j]
        reach = 2 if (skills_of(row, ctab, q, o) & SK_RANGED) != 0 else 1
        if distance(row, q, o, p, c) <= reach and att_of(row, tables, q, o) >= d:
            return _worth(row, tables, p, c)
    return 0.0


@helper
def _best_move(row, tables, p, mask):
    """RL-A4, RL-P3: the Move (to the other row: the mover goes Down) after which a Fight that defeats someone is
    open, where none is from today's places (a back-row character out of reach, or a front row that empties and
    collapses the back row forward), less what the mover risks in its new place; -1 when none gains."""
    now = _fight_potential(row, tables, p)
    best = -1
    best_v = now + 0.5
    moved = row.copy()
    for a in range(PARTY_SIZE):
        c = at_slot(row, p, a)
        if c < 0:
            continue
        risk = _exposed(row, tables, p, c)
        for b in range(PARTY_SIZE):
            k = A_MOVE + a * PARTY_SIZE + b
            if mask[k] == 0:
                continue
            moved[POS + p * MAX_DECK + c] = b
            v = _fight_potential(moved, tables, p) - _exposed(moved, tables, p, c) + risk
            moved[POS + p * MAX_DECK + c] = a
            if v > best_v:
                best, best_v = k, v
    return best


@helper
def _att_boost(etab, card, trigger, target):
    """The ATT an effect of ``card`` with ``trigger`` (TR_CAST or TR_ACT) gives each character of ``target``
    (TG_OWN_ALL or TG_OWN_ONE), summed over its effects; 0 for none."""
    n = 0
    for e in range(MAX_EFFECTS):
        if etab[card, e, E_TRIGGER] == trigger and etab[card, e, E_OP] == OP_BOOST and etab[card, e, E_TARGET] == target:
            n += etab[card, e, E_ATT]
    return n


@helper
def _boost_opens(row, tables, p, every, one, payer):
    """The best Fight that an ATT boost would open this turn (``every`` to each of ``p``'s characters, ``one`` more to
    one of them), where no Fight defeats anyone today: an Up character other than ``payer`` (the one the boost's cost
    downs) that reaches a target it cannot defeat now and would then. Returns (value, the character's instance);
    value 0 when the boost opens nothing. A boost lasts until the next Up (RL-U4), so it is spent on a Fight the
    alternation leaves open for the next turn, not cast for its own sake."""
    ctab = tables.cards
    q = 1 - p
    best = 0.0
    best_c = -1
    for i in range(row[PARTY_COUNT + p]):
        c = row[PARTY + p * PARTY_SIZE + i]
        if c == payer or is_down(row, p, c):
            continue
        att = att_of(row, tables, p, c)
        c_def = def_of(row, tables, p, c)
        reach = 2 if (skills_of(row, ctab, p, c) & SK_RANGED) != 0 else 1  # RL-K4
        for j in range(row[PARTY_COUNT + q]):
            t = row[PARTY + q * PARTY_SIZE + j]
            d = distance(row, p, c, q, t)
            t_def = def_of(row, tables, q, t)
            if d > reach or att >= t_def or att + every + one < t_def:
                continue
            v = float(att_of(row, tables, q, t) + t_def)
            if row[PARTY_COUNT + q] == 1:
                v += LAST_ONE_BONUS
            if _counter_takes(skills_of(row, ctab, q, t), d >= 2, att_of(row, tables, q, t), c_def):
                v -= float(att + c_def)
            if v > best:
                best, best_c = v, c
    return best, best_c


@helper
def _discard_value(row, etab, card, q):
    """RL-V2: an act ability that makes ``q`` discard (Shadow Crest) once ``q``'s item deck is empty, when every card
    ``q`` loses brings its loss nearer; one that takes ``q``'s last cards wins the game."""
    n = 0
    for e in range(MAX_EFFECTS):
        if etab[card, e, E_TRIGGER] == TR_ACT and etab[card, e, E_OP] == OP_OPP_DISCARD:
            n += etab[card, e, E_N]
    if n == 0 or row[ITEM_DECK_COUNT + q] > 0 or row[HAND_COUNT + q] == 0:
        return 0.0
    return GAME_BONUS if row[HAND_COUNT + q] <= n else 1.0


@helper
def _best_boost(row, tables, p, mask):
    """The act ability (a character's or the leader card's) whose ATT boost opens a Fight (``_boost_opens``), or that
    takes the opponent's cards once its item deck is empty (``_discard_value``); -1 for none.
    RL-U1: a character's act ability downs that character; the leader card's downs the leader."""
    ctab = tables.cards
    etab = tables.effects
    best = -1
    best_v = 0.5
    for s in range(PARTY_SIZE):
        if mask[A_ABILITY + s] == 0:
            continue
        c = at_slot(row, p, s)
        card = card_of(row, p, c)
        if ctab[card, C_ACT] < 0:
            continue
        v, _ = _boost_opens(row, tables, p, _att_boost(etab, card, TR_ACT, TG_OWN_ALL),
                            _att_boost(etab, card, TR_ACT, TG_OWN_ONE), c)
        v = max(v, _discard_value(row, etab, card, 1 - p))
        if v > best_v:
            best, best_v = A_ABILITY + s, v
    if mask[A_LEADER_ABILITY] != 0:
        card = card_of(row, p, row[LEADER_CARD + p])
        v, _ = _boost_opens(row, tables, p, _att_boost(etab, card, TR_ACT, TG_OWN_ALL),
                            _att_boost(etab, card, TR_ACT, TG_OWN_ONE), row[LEADER + p])
        v = max(v, _discard_value(row, etab, card, 1 - p))
        if v > best_v:
            best, best_v = A_LEADER_ABILITY, v
    return best


@helper
def _card_helps(row, tables, p, card, bonus):
    """Whether a spell or item is worth casting now (a cheap reading of its ops)."""
    ctab = tables.cards
    etab = tables.effects
    q = 1 - p
    ops = ctab[card, C_OPS]
    if ops & (1 << OP_STRIKE):
        for e in range(MAX_EFFECTS):
            if etab[card, e, E_TRIGGER] == TR_CAST and etab[card, e, E_OP] == OP_STRIKE:
                for j in range(row[PARTY_COUNT + q]):
                    inst = row[PARTY + q * PARTY_SIZE + j]
                    if _stat(row, tables, q, inst, False, bonus) <= etab[card, e, E_POWER]:
                        return True
        return False
    if ops & (1 << OP_UP):
        for j in range(row[PARTY_COUNT + p]):
            if is_down(row, p, row[PARTY + p * PARTY_SIZE + j]):
                return True
        return False
    if ops & (1 << OP_DOWN):
        for j in range(row[PARTY_COUNT + q]):
            if not is_down(row, q, row[PARTY + q * PARTY_SIZE + j]):
                return True
        return False
    if ops & (1 << OP_BOOST):
        every = _att_boost(etab, card, TR_CAST, TG_OWN_ALL)
        one = _att_boost(etab, card, TR_CAST, TG_OWN_ONE)
        if every > 0 or one > 0:  # an ATT boost is kept for the turn it opens a Fight
            v, who = _boost_opens(row, tables, p, every, one, -1)
            if v <= 0.5:
                return False
            if ctab[card, C_COST_DOWN] != 0:  # RL-U1: someone other than the Fight's attacker must pay
                for j in range(row[PARTY_COUNT + p]):
                    c = row[PARTY + p * PARTY_SIZE + j]
                    if c != who and not is_down(row, p, c):
                        return True
                return False
            return True
    return (ops & _ALWAYS_HELPS) != 0


@helper
def _strongest_slot(row, tables, p, mask, base, want_down):
    """Legal own slot (action ``base + s``) with the strongest character (a Down one first when asked)."""
    best = -1
    best_v = -1e9
    for s in range(PARTY_SIZE):
        if mask[base + s] == 0:
            continue
        c = at_slot(row, p, s)
        v = 0.0
        if c >= 0:
            v = float(att_of(row, tables, p, c))
            if want_down and is_down(row, p, c):
                v += 100.0
        if v > best_v:
            best, best_v = base + s, v
    return best


@helper
def _free_slot(row, p, mask, base, back_first):
    for k in range(PARTY_SIZE):
        s = (k + ROW_SIZE) % PARTY_SIZE if back_first else k
        if mask[base + s] != 0:
            return base + s
    return -1


@helper
def _weakest_hand(row, tables, p, mask):
    ctab = tables.cards
    best = -1
    best_v = 1e9
    for i in range(row[HAND_COUNT + p]):
        if mask[A_HAND + i] == 0:
            continue
        card = card_of(row, p, row[HAND + p * HAND_CAP + i])
        v = float(ctab[card, C_ATT] + ctab[card, C_DEF])
        if ctab[card, C_TYPE] != T_EQUIPMENT:
            v += 1.5
        if v < best_v:
            best, best_v = A_HAND + i, v
    return best


@helper
def _pending_card(row, p):
    return card_of(row, p, row[PEND_CARD])


@helper
def decide(row, tables, p, mask, stats, bonus):
    """The heuristic's action for player ``p`` in one row (``mask`` is p's legal mask); ``stats`` and ``bonus``:
    scratch for ``_slot_stats`` and ``_stat``."""
    bonus[B_FOUND] = 0
    ctab = tables.cards
    st = row[STEP]
    q = 1 - p
    if st == ST_LOCATION:
        best = -1
        best_v = -1.0
        for k in range(2 * NUM_LOCATIONS):
            if mask[A_LOCATION + k] == 0:
                continue
            owner = p if k < NUM_LOCATIONS else q
            card = card_of(row, owner, row[LOC_PILE + owner * NUM_LOCATIONS + (k % NUM_LOCATIONS)])
            v = float(ctab[card, C_RELIC_ATT] + ctab[card, C_RELIC_DEF])
            if v > best_v:
                best, best_v = A_LOCATION + k, v
        return best
    if st == ST_LEADER:
        best = -1
        best_v = -1.0
        for j in range(row[LINEUP_COUNT + p]):
            v = _card_worth(ctab, card_of(row, p, row[LINEUP + p * LINEUP_SIZE + j]))
            if mask[A_PICK + j] != 0 and v > best_v:
                best, best_v = A_PICK + j, v
        return best
    if st == ST_LEADER_SLOT:
        return _free_slot(row, p, mask, A_SLOT, True)
    if st == ST_PLACE:
        card = card_of(row, p, row[LINEUP + p * LINEUP_SIZE])
        back = (ctab[card, C_SKILLS] & (SK_RANGED | SK_BLACK | SK_WHITE | SK_SUMMON)) != 0
        a = _free_slot(row, p, mask, A_SLOT, back)
        return a if a >= 0 else A_PASS
    if st == ST_TRIM:
        best = -1
        best_v = 1e9
        for j in range(min(row[RESERVES_COUNT + p], RES_VIEW)):  # the reserve actions name RES_VIEW entries
            v = _card_worth(ctab, card_of(row, p, row[RESERVES + p * RES_CAP + j]))
            if mask[A_RESERVE + j] != 0 and v < best_v:
                best, best_v = A_RESERVE + j, v
        return best
    if st == ST_BATTLE:
        a = _best_attack(row, tables, p, mask, stats, bonus)
        if a >= 0:
            return a
        best = -1
        best_v = -1.0
        for j in range(min(row[RESERVES_COUNT + p], RES_VIEW)):  # the reserve actions name RES_VIEW entries
            if mask[A_RESERVE + j] != 0:
                v = _card_worth(ctab, card_of(row, p, row[RESERVES + p * RES_CAP + j]))
                if v > best_v:
                    best, best_v = A_RESERVE + j, v
        if best >= 0:
            return best
        for k in range(2 * NUM_LOCATIONS):
            if mask[A_RELIC + k] != 0:
                return A_RELIC + k
        boost = _best_boost(row, tables, p, mask)
        if boost >= 0:
            return boost
        if _can_spend(row, p, 1):  # RL-V2: never play the last card with the item deck empty
            for i in range(row[HAND_COUNT + p]):
                if mask[A_HAND + i] != 0:
                    card = card_of(row, p, row[HAND + p * HAND_CAP + i])
                    if ctab[card, C_TYPE] == T_EQUIPMENT or _card_helps(row, tables, p, card, bonus):
                        return A_HAND + i
        m = _best_move(row, tables, p, mask)
        if m >= 0:
            return m
        return A_PASS
    if st == ST_SLOT:
        kind = row[PEND_KIND]
        if kind == PK_REINFORCE:
            return _free_slot(row, p, mask, A_SLOT, False)
        if kind == PK_OWN_TARGET:
            card = pending_card_id(row)
            one = _att_boost(tables.effects, card, TR_ACT if row[PEND_SRC] != SRC_CARD else TR_CAST, TG_OWN_ONE)
            if one > 0:  # an ATT boost goes to the character whose Fight it opens
                payer = row[PEND_CASTER] if row[PEND_CASTER] >= 0 else row[LEADER + p]  # its cost downs the payer
                v, who = _boost_opens(row, tables, p, 0, one, payer)
                if v > 0.5:
                    for s in range(PARTY_SIZE):
                        if mask[A_SLOT + s] != 0 and at_slot(row, p, s) == who:
                            return A_SLOT + s
            want_down = (ctab[_pending_card(row, p), C_OPS] & (1 << OP_UP)) != 0 if row[PEND_SRC] == SRC_CARD else True
            return _strongest_slot(row, tables, p, mask, A_SLOT, want_down)
        if kind == PK_CASTER:
            # the weakest legal caster: keep strong characters for fights, and never the one an ATT boost is for
            keep = -1
            if row[PEND_SRC] == SRC_CARD:
                card = _pending_card(row, p)
                every = _att_boost(tables.effects, card, TR_CAST, TG_OWN_ALL)
                one = _att_boost(tables.effects, card, TR_CAST, TG_OWN_ONE)
                if every > 0 or one > 0:
                    _, keep = _boost_opens(row, tables, p, every, one, -1)
            best = -1
            best_v = 1e9
            for s in range(PARTY_SIZE):
                c = at_slot(row, p, s)
                if mask[A_SLOT + s] != 0 and c >= 0:
                    v = _worth(row, tables, p, c) + (1e6 if c == keep else 0.0)  # the boosted one only if alone
                    if v < best_v:
                        best, best_v = A_SLOT + s, v
            return best
        return _strongest_slot(row, tables, p, mask, A_SLOT, False)  # equipment / relic host, appoint, keep
    if st == ST_TARGET:
        etab = tables.effects
        card = pending_card_id(row)
        power = -1
        for e in range(MAX_EFFECTS):
            if etab[card, e, E_OP] == OP_STRIKE:
                power = etab[card, e, E_POWER]
        best = -1
        best_v = -1e9
        for t in range(PARTY_SIZE):
            if mask[A_TARGET + t] == 0:
                continue
            c = at_slot(row, q, t)
            v = float(att_of(row, tables, q, c))
            if power >= 0 and def_of(row, tables, q, c) <= power:
                v += 100.0
            if v > best_v:
                best, best_v = A_TARGET + t, v
        return best
    if st == ST_JUMP:
        jumper = row[JUMPER]
        best = A_PASS
        best_v = 0.5
        for t in range(PARTY_SIZE):
            if mask[A_TARGET + t] != 0:
                v = _attack_value(row, tables, p, jumper, q, at_slot(row, q, t), MODE_JUMP)
                if v > best_v:
                    best, best_v = A_TARGET + t, v
        return best
    if st == ST_DISCARD:
        return _weakest_hand(row, tables, p, mask)
    if st == ST_PILE:  # take back the strongest card offered
        best = -1
        best_v = -1.0
        for cid in range(POOL_CAP):
            if mask[A_PILE + cid] != 0 and _card_worth(ctab, cid) > best_v:
                best, best_v = A_PILE + cid, _card_worth(ctab, cid)
        return best
    if st == ST_KEEP:
        a = _strongest_slot(row, tables, p, mask, A_SLOT, False)
        return a if a >= 0 else A_PASS
    if st == ST_HAND:
        return A_PASS
    return -1


@njit(cache=True, nogil=True)
def batch_decide(states, tables, players, masks, out, fallback=True):
    """``decide`` for every row with ``players[i] >= 0``, by the core's loop (``decide_rows``: an illegal choice falls
    back to the first legal action; the tests pass ``fallback=False`` to check the raw choices). Its scratch: the
    parties' stats and the bonus table."""
    work = (np.empty((2, PARTY_SIZE, 3), dtype=np.int64), np.empty(BONUS_SIZE, dtype=np.int32))
    decide_rows(decide, states, tables, players, masks, out, fallback, work)


class HeuristicAgent(StateHeuristic):
    """Greedy relics player (see the module docstring); deterministic."""

    game = "relics"
    kernel = staticmethod(batch_decide)
