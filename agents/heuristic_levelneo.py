"""A greedy rule-based levelneo player, batched: one Numba kernel decides for every row at once.

What it does, by decision (see ``cardenvs/games/levelneo/RULES.md`` for the rules):

* setup: go first; as main the turn-cost-1 character with the highest AP whose colour most of its deck list shares
  (colour cost, LN-D4: a support or event needs a character of its colour on the field); mulligan cards it cannot
  pay for early (turn cost 4 or more).
* main phase: play the strongest support it can afford (AP), then events and [Use] skills whose simulated effect
  raises a value of the public board by more than the card it costs. The value counts levels, hand and deck sizes
  (a deck about to run out loses, LN-V2), the battle's outcome, field AP, active characters, the turn player's
  attacks still to come this turn (its main beating the opposing main, its supports beating a resting character:
  so a main-phase AP boost, or resting an opposing support, is played when it makes an attack win), and the turn
  player's resting characters that the opponent's supports could attack next turn (LN-A3; so the main is
  re-activated after its attack when that saves a level). An event is spent from the hand for a fraction of a card
  (it has no other use than being played). The same value test picks events and skills in every battle window, so
  an AP boost is kept for the battle it swings.
* attack: with the main when its AP (plus at most one combi partner) beats the opponent's main, adding the weakest
  partner that also beats the best possible cover; then supports against resting characters they beat (the main,
  for a level down, before supports). Late in the deck race (below), when the main has a level to lose, as many
  Active supports stay back as the opponent's next turn has attacks that beat the main (its main alone or in a
  combi, supports alone or in pairs, each character in one attack): one cover stops one attack (LN-C1).
* defence: cover when the main would lose and has a level to lose (a support that wins the cover if there is one,
  else the weakest); Level Burst when its side is not winning the battle (a face-down card it once held and knows
  to carry Level Burst text first).
* chores: level down a revealed (spent) level card first; in a lost support combi discard the stronger attacker;
  discard the weakest card at end of turn.
* the deck race (LN-V2): every level up moves a deck card to the level zone, and a level the opponent takes back
  next turn has burnt that card for nothing. Once its deck is below CAREFUL_DECK cards and not RACE_MARGIN cards
  longer than the opponent's, the heuristic levels up after a won battle only when the level makes its main Level
  Neo, or can last (it has at least as many covers left as the opponent's next turn has attacks that beat the
  main); before that, always. Never when fewer than 2 cards would remain (the next draw would lose). Without this
  rule the strong starters lost to the designed-weak deck by deck-out, both mains levelling up and down every turn;
  with one cover taken as enough, a 20-minute exploiter that never levels up won 0.81 by the heuristic's deck-out.
* one-support effects (rest, activate, AP change): the candidate with the highest AP (the strongest opposing support
  to rest or weaken, the strongest own support to activate or boost).

Hidden information: the kernel reads the seat's own hand and deck list (the player built the deck: ``choose_main``
counts its colours), both public boards (mains, supports, rested flags, AP modifiers, level-zone sizes, face-up
flags), hand and deck sizes. To value an event or skill it applies it to a *copy* of
the row with the game's own interpreter and reads only public quantities of the result (a simulated ``draw`` moves a
hidden card into the copy's hand, but only the hand *size* is read; the face-down level cards are never read).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.header import H_TURN
from cardenvs.core.jit import helper
from cardenvs.core.kernels import copy_into, decide_rows

from .base import StateHeuristic

from cardenvs.games.levelneo.actions import (  # noqa: E402
    A_ATTACK, A_BURST, A_BURST_KNOWN, A_CHOOSE_MAIN, A_COMBI_LOSS, A_COVER, A_EFFECT_TARGET, A_GO_FIRST, A_HAND,
    A_LEVEL_DOWN, A_LEVEL_UP, A_PARTNER, A_PASS, A_SKILL, A_TARGET, A_HAND_END, A_SKILL_END,
)
from cardenvs.games.levelneo.board import card_of, is_rested, level_of, support_at  # noqa: E402
from cardenvs.games.levelneo.tables import (  # noqa: E402
    C_AP, C_COLOR, C_HAS_BURST, C_TURN_COST, C_TYPE, C_USE_EFFECT, TYPE_CHARACTER,
)
from cardenvs.games.levelneo.effects import (  # noqa: E402
    MAX_CONT_SOURCES, NUM_SOURCE_COLUMNS, active_conts, ap_given, compute_ap, one_candidate, one_side,
)
from cardenvs.games.levelneo.rules import apply_action, apply_choice, choice_fields, drain_effects  # noqa: E402
from cardenvs.games.levelneo.state import (  # noqa: E402
    AP_BATTLE, AP_PER_LEVEL, AP_TURN, ATK_A, ATK_B, ATTACKED, BATTLE, CHOICE_PLAYER, DECK_COUNT, DECK_LIST, DECK_SIZE, FACE_UP, HAND,
    HAND_CAP, HAND_COUNT, LEVEL, LEVEL_CAP, LEVEL_COUNT, MAIN, MAIN_PHASE, MAX_LEVEL, ST_LEVEL_UP,
    MARKER, NO_LEVEL_DOWN, ST_ATTACK, ST_BATTLE_WINDOW, ST_BURST, ST_CHOOSE_MAIN, ST_COMBI_LOSS, ST_COVER,
    ST_COVER_WINDOW, ST_DECL_WINDOW, ST_END, ST_LEVEL_DOWN, ST_MAIN, ST_MULLIGAN, ST_ORDER, ST_PARTNER, ST_TARGET,
    STEP, SUB, SUPPORT_CAP, SUPPORT_COUNT, TARGET, TURN_PLAYER,
)

__all__ = ["HeuristicAgent", "batch_decide", "decide"]

# value weights (AP units): a level is worth far more than a card, a battle outcome more than a level's AP bonus
W_LEVEL = 2000.0
W_CARD = 400.0
W_SUPPORT = 600.0
W_BATTLE = 1500.0
W_ACTIVE = 100.0
W_FIELD_AP = 0.1
W_SPEND = 150.0  # an event leaving the hand to be played: less than a card, since playing is its only use
W_MAIN_PROSPECT = 800.0  # the turn player's main can still attack this turn and beat the opposing main (a level)
W_NEO_PROSPECT = 5000.0  # ... as Level Neo: that attack wins the game (LN-V1)
W_SUPPORT_PROSPECT = 300.0  # a support can still attack this turn and beat a resting character (a support lost)
W_EXPOSED_MAIN = 800.0  # a resting main, with a level to lose, that an opposing support could attack next turn
W_EXPOSED_SUPPORT = 200.0  # a resting support that an opposing support could attack next turn
W_DECK_OUT = 5000.0  # per card below 2 in the deck: at 0 the player loses now, at 1 with its next draw (LN-V2)
W_MAIN_COLOUR = 100.0  # choose_main: per card of the deck list sharing the candidate's colour (LN-D4)
MULLIGAN_COST = 4  # cards this expensive are put back at the mulligan
# The deck race (LN-V2) matters below CAREFUL_DECK deck cards unless the deck is RACE_MARGIN cards longer than the
# opponent's (set on the starter matchups and checked on random training-bank decks, docs/training)
CAREFUL_DECK = 25
RACE_MARGIN = 6

# Per-position AP memo: a decision asks for the same characters' AP many times, and compute_ap rescans every [Cont]
# skill on the field per call. The memo holds each instance's AP (-1: not yet asked) and, in its last slot, how many
# [Cont] sources active_conts found (-1: not yet scanned); ap_given with those sources equals compute_ap.
MEMO_SIZE = 2 * DECK_SIZE + 1
MEMO_SOURCES = 2 * DECK_SIZE


@helper
def _ap(row, tables, q, inst, memo, sources):
    """compute_ap(row, tables, q, inst), memoised for one position (fill ``memo`` with -1 when the row changes)."""
    if inst < 0:
        return compute_ap(row, tables, q, inst)  # not a character (never asked for by the rules): no memo slot
    k = q * DECK_SIZE + inst
    v = memo[k]
    if v < 0:
        if memo[MEMO_SOURCES] < 0:
            memo[MEMO_SOURCES] = active_conts(row, tables, sources)
        v = ap_given(row, tables, q, inst, sources, memo[MEMO_SOURCES])
        memo[k] = v
    return v


@helper
def _neo(row, p):
    return level_of(row, p) >= MAX_LEVEL


@helper
def _battle_margin(row, tables, p, memo, sources):
    """(p takes part, p's side AP minus the other side's AP) for the battle in progress."""
    if row[BATTLE] == 0:
        return False, 0
    tp = row[TURN_PLAYER]
    op = 1 - tp
    atk = 0
    for inst in (row[ATK_A], row[ATK_B]):
        if inst >= 0:
            atk += _ap(row, tables, tp, inst, memo, sources)
    t = row[TARGET]
    dfn = _ap(row, tables, op, t, memo, sources) if t >= 0 else 0
    return True, (atk - dfn) if p == tp else (dfn - atk)


@helper
def _prospects(row, tables, memo, sources):
    """The turn player's attacks still to come this turn, valued: before its battle phase is over (main phase 1, the
    battle phase between battles), its main beating the opposing main (alone or with its strongest partner) and
    each support beating a resting character. Reads the public boards only."""
    st = row[STEP]
    if row[BATTLE] != 0 or row[H_TURN] <= 1:  # LN-T5: no battle phase on turn 1
        return 0.0
    if not ((st == ST_MAIN and row[MAIN_PHASE] == 1) or st == ST_BATTLE_WINDOW or st == ST_ATTACK):
        return 0.0
    tp = row[TURN_PLAYER]
    q = 1 - tp
    v = 0.0
    main = row[MAIN + tp]
    if not is_rested(row, tp, main) and not _attacked(row, tp, main):
        ap = _ap(row, tables, tp, main, memo, sources)
        if not _neo(row, tp):
            ap += _best_partner_ap(row, tables, tp, -1, memo, sources)
        if ap > _ap(row, tables, q, row[MAIN + q], memo, sources):
            v += W_NEO_PROSPECT if _neo(row, tp) else W_MAIN_PROSPECT
    for s in range(row[SUPPORT_COUNT + tp]):
        inst = support_at(row, tp, s)
        if not is_rested(row, tp, inst) and not _attacked(row, tp, inst):
            if _support_target(row, tables, tp, _ap(row, tables, tp, inst, memo, sources), memo, sources) >= 0:
                v += W_SUPPORT_PROSPECT
    return v


@helper
def _exposure(row, tables, memo, sources):
    """The turn player's resting characters the opponent's supports could attack in its next turn (LN-A3: a
    support attacks only a resting character; the turn player's characters stay resting until its own next turn,
    LN-T1): its main if it has a level to lose (its level bonus is the turn player's only), each resting support."""
    tp = row[TURN_PLAYER]
    q = 1 - tp
    strongest = -1
    for s in range(row[SUPPORT_COUNT + q]):
        strongest = max(strongest, _ap(row, tables, q, support_at(row, q, s), memo, sources))
    if strongest < 0:
        return 0.0
    v = 0.0
    main = row[MAIN + tp]
    if is_rested(row, tp, main) and row[LEVEL_COUNT + tp] > 0:
        if strongest > _ap(row, tables, tp, main, memo, sources) - AP_PER_LEVEL * level_of(row, tp):
            v += W_EXPOSED_MAIN
    for s in range(row[SUPPORT_COUNT + tp]):
        inst = support_at(row, tp, s)
        if is_rested(row, tp, inst) and strongest > _ap(row, tables, tp, inst, memo, sources):
            v += W_EXPOSED_SUPPORT
    return v


@helper
def _value(row, tables, p, memo, sources):
    """A score of the public position for ``p`` (used to compare a position with and without an event/skill)."""
    q = 1 - p
    v = W_LEVEL * (level_of(row, p) - level_of(row, q))
    v += W_CARD * (row[HAND_COUNT + p] - row[HAND_COUNT + q])
    v -= W_DECK_OUT * (max(0, 2 - row[DECK_COUNT + p]) - max(0, 2 - row[DECK_COUNT + q]))
    turn_sign = 1.0 if p == row[TURN_PLAYER] else -1.0
    v += turn_sign * (_prospects(row, tables, memo, sources) - _exposure(row, tables, memo, sources))
    v += W_SUPPORT * (row[SUPPORT_COUNT + p] - row[SUPPORT_COUNT + q])
    for side in range(2):
        sign = 1.0 if side == p else -1.0
        for s in range(-1, row[SUPPORT_COUNT + side]):
            inst = row[MAIN + side] if s < 0 else support_at(row, side, s)
            v += sign * W_FIELD_AP * _ap(row, tables, side, inst, memo, sources)
            if not is_rested(row, side, inst):
                v += sign * W_ACTIVE
    takes_part, m = _battle_margin(row, tables, p, memo, sources)
    if takes_part:
        tp = row[TURN_PLAYER]
        main_defending = p != tp and row[TARGET] == row[MAIN + p]
        if m > 0:
            v += W_BATTLE
        elif main_defending and (row[NO_LEVEL_DOWN + p] != 0 or row[LEVEL_COUNT + p] == 0):
            v -= 0.2 * W_BATTLE  # losing costs no level
        else:
            v -= W_BATTLE
        v += 0.2 * min(max(m, -1000), 1000)
    return v


@helper
def _choice_slot(row, tables, memo, sources):
    """The support slot for the effect waiting for a choice: the candidate with the highest AP (-1: none)."""
    cp, src, target, filt, eop = choice_fields(row, tables)
    q = one_side(cp, target)
    best = -1
    best_ap = -1
    for s in range(row[SUPPORT_COUNT + q]):
        inst = support_at(row, q, s)
        if one_candidate(row, tables, cp, src, target, filt, eop, inst):
            ap = _ap(row, tables, q, inst, memo, sources)
            if ap > best_ap:
                best, best_ap = s, ap
    return best


@helper
def _simulate(row, tables, memo, sources):
    """Resolve the queued effects of a simulated action, making the heuristic's own support choices."""
    drain_effects(row, tables)
    for _ in range(8):
        if row[CHOICE_PLAYER] < 0:
            return
        memo[:] = -1  # the row changed since the last choice
        s = _choice_slot(row, tables, memo, sources)
        if s < 0:
            return
        apply_choice(row, tables, s)
        drain_effects(row, tables)


@helper
def _best_use(row, tables, p, mask, scratch, memo, sources, seen):
    """The event or [Use] skill whose simulated effect gains the most value, or A_PASS when none gains.
    ``memo[0]``/``sources[0]`` memoise ``row``'s APs, ``memo[1]``/``sources[1]`` each simulated copy's;
    ``seen``: room for the event cards valued so far."""
    base = 0.0
    valued = False  # the base value is only needed once a candidate is legal (most windows offer none)
    best = A_PASS
    best_gain = 50.0  # a small margin: do not spend cards on rounding noise
    n_seen = 0  # event cards already valued in this decision: seen[:n_seen]
    for a in range(A_HAND, A_SKILL_END):  # hand cards (events) and [Use] skills, in action order
        if mask[a] == 0:
            continue
        if a < A_HAND_END:
            card = card_of(row, p, row[HAND + p * HAND_CAP + (a - A_HAND)])
            if tables.cards[card, C_TYPE] == TYPE_CHARACTER:
                continue  # supports are chosen by _best_support
            # A second copy of an event gains exactly what the first did (an event's effects read its card, never
            # its instance or hand slot), and only a strictly larger gain replaces the best: skip it.
            repeat = False
            for j in range(n_seen):
                if seen[j] == card:
                    repeat = True
                    break
            if repeat:
                continue
            seen[n_seen] = card
            n_seen += 1
        if not valued:
            base = _value(row, tables, p, memo[0], sources[0])
            valued = True
        copy_into(scratch, row)
        apply_action(scratch, tables, np.int64(p), np.int64(a))  # the types the kernels pass: one compiled version
        _simulate(scratch, tables, memo[1], sources[1])
        memo[1][:] = -1
        gain = _value(scratch, tables, p, memo[1], sources[1]) - base
        if a < A_HAND_END:
            gain += W_CARD - W_SPEND  # the event's own card: spent, not lost (see W_SPEND)
        if gain > best_gain:
            best, best_gain = a, gain
    return best


@helper
def _best_support(row, tables, p, mask):
    best = -1
    best_ap = -1
    for i in range(row[HAND_COUNT + p]):
        a = A_HAND + i
        if mask[a] == 0:
            continue
        card = card_of(row, p, row[HAND + p * HAND_CAP + i])
        if tables.cards[card, C_TYPE] != TYPE_CHARACTER:
            continue
        ap = tables.cards[card, C_AP] + (300 if tables.cards[card, C_USE_EFFECT] >= 0 else 0)
        if ap > best_ap:
            best, best_ap = a, ap
    return best


@helper
def _best_cover_ap(row, tables, q, exclude, memo, sources):
    """Highest AP among q's Active supports (the ones that could cover)."""
    best = -1
    for s in range(row[SUPPORT_COUNT + q]):
        inst = support_at(row, q, s)
        if inst != exclude and not is_rested(row, q, inst):
            best = max(best, _ap(row, tables, q, inst, memo, sources))
    return best


@helper
def _partner_slot(row, tables, p, mask, base_ap, need, want, memo, sources):
    """The weakest legal partner with base_ap + its AP > want, else > need, else -1."""
    for goal in (want, need):
        best = -1
        best_ap = 1 << 30
        for s in range(row[SUPPORT_COUNT + p]):
            if mask[A_PARTNER + s] == 0:
                continue
            ap = _ap(row, tables, p, support_at(row, p, s), memo, sources)
            if base_ap + ap > goal and ap < best_ap:
                best, best_ap = s, ap
        if best >= 0:
            return best
    return -1


@helper
def _best_partner_ap(row, tables, p, exclude, memo, sources):
    best = 0
    for s in range(row[SUPPORT_COUNT + p]):
        inst = support_at(row, p, s)
        if inst != exclude and not is_rested(row, p, inst) and not _attacked(row, p, inst):
            best = max(best, _ap(row, tables, p, inst, memo, sources))
    return best


@helper
def _attacked(row, p, inst):
    return row[ATTACKED + p * DECK_SIZE + inst] != 0


@helper
def _support_target(row, tables, p, atk_ap, memo, sources):
    """Best resting target a support attack of ``atk_ap`` beats: 0 (main) or 1 + slot; -1 when none."""
    q = 1 - p
    if is_rested(row, q, row[MAIN + q]) and atk_ap > _ap(row, tables, q, row[MAIN + q], memo, sources):
        return 0
    best = -1
    best_ap = -1
    for s in range(row[SUPPORT_COUNT + q]):
        inst = support_at(row, q, s)
        if is_rested(row, q, inst):
            ap = _ap(row, tables, q, inst, memo, sources)
            if atk_ap > ap > best_ap:
                best, best_ap = 1 + s, ap
    return best


@helper
def _next_turn_ap(row, tables, side, inst, as_turn_player, memo, sources):
    """``side``'s character ``inst`` in the opponent's next turn (or its own when ``as_turn_player``): today's AP
    without this turn's and this battle's modifiers, with the main's level bonus only on its own turn (LN-L4)."""
    k = side * DECK_SIZE + inst
    ap = _ap(row, tables, side, inst, memo, sources) - row[AP_TURN + k] - row[AP_BATTLE + k]
    if inst == row[MAIN + side]:
        if row[TURN_PLAYER] == side:
            ap -= AP_PER_LEVEL * level_of(row, side)
        if as_turn_player:
            ap += AP_PER_LEVEL * level_of(row, side)
    return ap


@helper
def _active_supports(row, p, exclude):
    """``p``'s supports that are Active and have not attacked this turn (those that can still cover), but
    ``exclude``."""
    n = 0
    for s in range(row[SUPPORT_COUNT + p]):
        inst = support_at(row, p, s)
        if inst != exclude and not is_rested(row, p, inst) and not _attacked(row, p, inst):
            n += 1
    return n


@helper
def _keep_back(row, tables, p, exclude, main_may_level, memo, sources):
    """Whether the turn player ``p`` keeps its Active supports (but ``exclude``) out of its attacks: when they are
    no more than the opponent's next turn has attacks that beat its main (``_beating_attacks``), while the main has a
    level to lose (or may gain one from the attack being declared) and the deck race matters, so that each such
    attack meets a cover and the level stays (LN-C1, LN-J5); with none Active there is nothing to spare. The count
    is asked only when it can decide: more supports than the opponent has characters (each is in one attack) are
    never all needed."""
    active = _active_supports(row, p, exclude)
    if active == 0:
        return True
    if (row[LEVEL_COUNT + p] == 0 and not main_may_level) or not _race_matters(row, p):
        return False
    if active > 1 + row[SUPPORT_COUNT + 1 - p]:
        return False
    return active <= _beating_attacks(row, tables, p, memo, sources)


@helper
def _race_matters(row, p):
    """Whether ``p`` must mind the deck race (LN-V2): its deck is running low and not clearly longer than the
    opponent's. Before that a level up or an attack with every support is worth its card (games between
    attacking decks end by Level Neo long before the decks run out)."""
    return row[DECK_COUNT + p] < CAREFUL_DECK and row[DECK_COUNT + p] - row[DECK_COUNT + 1 - p] < RACE_MARGIN


@helper
def _level_up_pays(row, tables, p, memo, sources):
    """Level up after a won battle (LN-L2 makes it a choice): every level up moves a deck card to the level zone,
    and a level the opponent takes back next turn (LN-J5) has only burnt that card, which loses the deck race
    (LN-V2) to an opponent who does not level. So level up when it makes the main Level Neo (its next won battle
    wins, LN-V1), when the race does not matter yet (``_race_matters``), or when the level can last: a support is
    left to cover, or no attack of the opponent's next turn beats the main. Never when fewer than 2 cards would
    remain (the next draw would lose)."""
    deck_after = row[DECK_COUNT + p] - 1
    if deck_after < 2:
        return False
    if level_of(row, p) + 1 >= MAX_LEVEL or not _race_matters(row, p):
        return True
    return _beating_attacks(row, tables, p, memo, sources) <= _covers_left(row, p)


@helper
def _covers_left(row, p):
    """The covers ``p`` has against the opponent's next turn (LN-C1: each rests an Active support, so each stops one
    attack): its supports still Active on its own turn (they stay so through the opponent's), every support when it
    is defending (its own start of turn activates them, LN-T1)."""
    return _active_supports(row, p, -1) if p == row[TURN_PLAYER] else row[SUPPORT_COUNT + p]


@helper
def _beating_attacks(row, tables, p, memo, sources):
    """How many separate attacks of the opponent's next turn could each beat or tie ``p``'s main without its level
    bonus (LN-J1, LN-L4), as far as the public boards tell: its main alone or with the weakest support that makes it
    win (LN-A4, LN-A5), then each support that wins alone, then support pairs (LN-A6; the main rests after its
    attack, LN-A3), each character in one attack. One cover stops one attack, so a level lasts only when at least
    as many covers are left. Events in the hidden hand and Level Bursts are not counted."""
    q = 1 - p
    defence = _next_turn_ap(row, tables, p, row[MAIN + p], False, memo, sources)
    n = row[SUPPORT_COUNT + q]
    used = 0  # bit s: support s is in an attack already (SUPPORT_CAP bits; no array to allocate per call)
    count = 0
    main_ap = _next_turn_ap(row, tables, q, row[MAIN + q], True, memo, sources)
    if main_ap >= defence:
        count += 1
    elif not _neo(row, q):
        best, best_ap = -1, 0
        for s in range(n):
            ap = _next_turn_ap(row, tables, q, support_at(row, q, s), False, memo, sources)
            if main_ap + ap >= defence and (best < 0 or ap < best_ap):
                best, best_ap = s, ap
        if best >= 0:
            used |= 1 << best
            count += 1
    for s in range(n):
        if not used & (1 << s) and _next_turn_ap(row, tables, q, support_at(row, q, s), False, memo, sources) >= defence:
            used |= 1 << s
            count += 1
    while True:  # the strongest left with the weakest that makes the pair win (the memo makes each AP one read)
        a, a_ap = -1, 0
        for s in range(n):
            ap = _next_turn_ap(row, tables, q, support_at(row, q, s), False, memo, sources)
            if not used & (1 << s) and (a < 0 or ap > a_ap):
                a, a_ap = s, ap
        if a < 0:
            break
        used |= 1 << a
        b, b_ap = -1, 0
        for s in range(n):
            ap = _next_turn_ap(row, tables, q, support_at(row, q, s), False, memo, sources)
            if not used & (1 << s) and a_ap + ap >= defence and (b < 0 or ap < b_ap):
                b, b_ap = s, ap
        if b < 0:
            break
        used |= 1 << b
        count += 1
    return count


@helper
def _card_keep_value(row, tables, p, inst):
    card = card_of(row, p, inst)
    ctab = tables.cards
    v = ctab[card, C_AP] if ctab[card, C_TYPE] == TYPE_CHARACTER else 2500
    if ctab[card, C_HAS_BURST] != 0:
        v += 300
    v -= 300 * max(0, ctab[card, C_TURN_COST] - row[MARKER + p] - 2)  # far from playable
    return v


@helper
def decide(row, tables, p, mask, scratch, memo, sources, seen):
    """The heuristic's action for player ``p`` in one row (``mask`` is p's legal mask). ``scratch``: a row to
    simulate on; ``memo``/``sources``: two AP memos (see ``_ap``), the first for ``row``, the second for ``scratch``;
    ``seen``: HAND_CAP ints of room."""
    memo[0][:] = -1
    memo_row = memo[0]
    sources_row = sources[0]
    st = row[STEP]
    tp = row[TURN_PLAYER]
    q = 1 - p
    ctab = tables.cards
    if row[CHOICE_PLAYER] >= 0:
        s = _choice_slot(row, tables, memo_row, sources_row)
        return A_EFFECT_TARGET + s if s >= 0 else -1
    if st == ST_LEVEL_UP:
        return A_LEVEL_UP if _level_up_pays(row, tables, p, memo_row, sources_row) else A_PASS
    if st == ST_ORDER:
        return A_GO_FIRST
    if st == ST_CHOOSE_MAIN:
        best = -1
        best_ap = -1
        for a in range(A_CHOOSE_MAIN, A_CHOOSE_MAIN + DECK_SIZE):
            if mask[a] != 0:
                card = card_of(row, p, a - A_CHOOSE_MAIN)
                ap = ctab[card, C_AP] + (300 if ctab[card, C_USE_EFFECT] >= 0 else 0)
                for i in range(DECK_SIZE):  # its own deck list: the colour cost the main pays for the others
                    other = row[DECK_LIST + p * DECK_SIZE + i]
                    if other >= 0 and ctab[other, C_COLOR] == ctab[card, C_COLOR]:
                        ap += W_MAIN_COLOUR
                if ap > best_ap:
                    best, best_ap = a, ap
        return best
    if st == ST_MULLIGAN:
        for i in range(row[HAND_COUNT + p]):
            if mask[A_HAND + i] != 0:
                card = card_of(row, p, row[HAND + p * HAND_CAP + i])
                if ctab[card, C_TURN_COST] >= MULLIGAN_COST:
                    return A_HAND + i
        return A_PASS
    if st == ST_MAIN or st == ST_BATTLE_WINDOW or st == ST_DECL_WINDOW or st == ST_COVER_WINDOW:
        if st == ST_MAIN and p == tp and row[SUB] == 0:
            a = _best_support(row, tables, p, mask)
            if a >= 0:
                return a
        return _best_use(row, tables, p, mask, scratch, memo, sources, seen)
    if st == ST_ATTACK:
        my_main = row[MAIN + p]
        opp_main_ap = _ap(row, tables, q, row[MAIN + q], memo_row, sources_row)
        if mask[A_ATTACK] != 0:
            main_ap = _ap(row, tables, p, my_main, memo_row, sources_row)
            if main_ap + (0 if _neo(row, p) else _best_partner_ap(row, tables, p, -1, memo_row, sources_row)) > opp_main_ap:
                return A_ATTACK
        if _keep_back(row, tables, p, -1, False, memo_row, sources_row):
            return A_PASS
        best = -1
        best_key = -1
        for s in range(row[SUPPORT_COUNT + p]):
            if mask[A_ATTACK + 1 + s] == 0:
                continue
            inst = support_at(row, p, s)
            ap = _ap(row, tables, p, inst, memo_row, sources_row)
            t = _support_target(row, tables, p, ap + _best_partner_ap(row, tables, p, inst, memo_row, sources_row),
                                memo_row, sources_row)
            if t >= 0:
                key = 10 if t == 0 else 1
                if key > best_key:
                    best, best_key = A_ATTACK + 1 + s, key
        return best if best >= 0 else A_PASS
    if st == ST_PARTNER:
        a_inst = row[ATK_A]
        a_ap = _ap(row, tables, p, a_inst, memo_row, sources_row)
        last_cover = _keep_back(row, tables, p, a_inst, a_inst == row[MAIN + p], memo_row, sources_row)
        if a_inst == row[MAIN + p]:
            need = _ap(row, tables, q, row[MAIN + q], memo_row, sources_row)
            want = max(need, _best_cover_ap(row, tables, q, -1, memo_row, sources_row))
            if a_ap > want or (last_cover and a_ap > need):
                return A_PASS  # wins alone (over any cover, or over the main while the last support stays back)
        else:
            t = _support_target(row, tables, p, a_ap, memo_row, sources_row)
            if t >= 0 or last_cover:
                return A_PASS  # beats a target alone, or the last support stays back as a cover
            need = 1 << 30
            qm = row[MAIN + q]
            if is_rested(row, q, qm):
                need = _ap(row, tables, q, qm, memo_row, sources_row)
            for s in range(row[SUPPORT_COUNT + q]):
                inst = support_at(row, q, s)
                if is_rested(row, q, inst):
                    need = min(need, _ap(row, tables, q, inst, memo_row, sources_row))
            want = need
        s = _partner_slot(row, tables, p, mask, a_ap, need, want, memo_row, sources_row)
        return A_PARTNER + s if s >= 0 else A_PASS
    if st == ST_TARGET:
        atk = 0
        for inst in (row[ATK_A], row[ATK_B]):
            if inst >= 0:
                atk += _ap(row, tables, p, inst, memo_row, sources_row)
        t = _support_target(row, tables, p, atk, memo_row, sources_row)
        if t >= 0 and mask[A_TARGET + t] != 0:
            return A_TARGET + t
        # nothing beatable: the weakest legal target
        best = -1
        best_ap = 1 << 30
        for k in range(1 + SUPPORT_CAP):
            if mask[A_TARGET + k] != 0:
                inst = row[MAIN + q] if k == 0 else support_at(row, q, k - 1)
                ap = _ap(row, tables, q, inst, memo_row, sources_row)
                if ap < best_ap:
                    best, best_ap = A_TARGET + k, ap
        return best
    if st == ST_COVER:
        atk = 0
        for inst in (row[ATK_A], row[ATK_B]):
            if inst >= 0:
                atk += _ap(row, tables, tp, inst, memo_row, sources_row)
        target = row[TARGET]
        if _ap(row, tables, p, target, memo_row, sources_row) > atk:
            return A_PASS  # the target wins by itself
        is_main = target == row[MAIN + p]
        if is_main and (row[LEVEL_COUNT + p] == 0 or row[NO_LEVEL_DOWN + p] != 0):
            return A_PASS  # nothing to lose
        winner = -1
        winner_ap = 1 << 30
        weakest = -1
        weakest_ap = 1 << 30
        for s in range(row[SUPPORT_COUNT + p]):
            if mask[A_COVER + s] == 0:
                continue
            ap = _ap(row, tables, p, support_at(row, p, s), memo_row, sources_row)
            if ap > atk and ap < winner_ap:
                winner, winner_ap = s, ap
            if ap < weakest_ap:
                weakest, weakest_ap = s, ap
        if winner >= 0:
            return A_COVER + winner
        if is_main and weakest >= 0 and row[LEVEL_COUNT + p] >= 1:
            return A_COVER + weakest  # sacrifice a support rather than a level
        return A_PASS
    if st == ST_BURST:
        takes_part, m = _battle_margin(row, tables, p, memo_row, sources_row)
        if takes_part and m <= 0:
            for k in range(row[LEVEL_COUNT + p]):  # a known face-down card with Level Burst text: a sure burst
                if mask[A_BURST_KNOWN + k] != 0 and ctab[card_of(row, p, row[LEVEL + p * LEVEL_CAP + k]), C_HAS_BURST]:
                    return A_BURST_KNOWN + k
            if mask[A_BURST] != 0:
                return A_BURST
        return A_PASS
    if st == ST_LEVEL_DOWN:
        for k in range(row[LEVEL_COUNT + p]):
            if mask[A_LEVEL_DOWN + k] != 0:
                inst = row[LEVEL + p * LEVEL_CAP + k]
                if row[FACE_UP + p * DECK_SIZE + inst] != 0:
                    return A_LEVEL_DOWN + k  # a revealed card has no burst left in it
        return A_LEVEL_DOWN
    if st == ST_COMBI_LOSS:
        a0 = _ap(row, tables, tp, row[ATK_A], memo_row, sources_row)
        a1 = _ap(row, tables, tp, row[ATK_B], memo_row, sources_row)
        return A_COMBI_LOSS if a0 >= a1 else A_COMBI_LOSS + 1
    if st == ST_END:
        best = -1
        best_v = 1 << 30
        for i in range(row[HAND_COUNT + p]):
            if mask[A_HAND + i] != 0:
                v = _card_keep_value(row, tables, p, row[HAND + p * HAND_CAP + i])
                if v < best_v:
                    best, best_v = A_HAND + i, v
        return best
    return -1


@njit(cache=True, nogil=True)
def batch_decide(states, tables, players, masks, out, fallback=True):
    """``decide`` for every row with ``players[i] >= 0``, by the core's loop (``decide_rows``: an illegal choice falls
    back to the first legal action, a safety net that should never be used since ``decide`` is written against the
    mask; the tests pass ``fallback=False`` to check the raw choices). Its scratch: a row, the memo, the continuous
    sources and the hand's seen list."""
    work = (np.empty(states.shape[1], dtype=states.dtype), np.empty((2, MEMO_SIZE), dtype=np.int32),
            np.empty((2, MAX_CONT_SOURCES, NUM_SOURCE_COLUMNS), dtype=np.int32), np.empty(HAND_CAP, dtype=np.int32))
    decide_rows(decide, states, tables, players, masks, out, fallback, work)


class HeuristicAgent(StateHeuristic):
    """Greedy levelneo player (see the module docstring); deterministic."""

    game = "levelneo"
    kernel = staticmethod(batch_decide)
