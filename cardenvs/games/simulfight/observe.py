"""Observation encoding (one float32 row per player view) and ``hide`` for the hidden-information check.

What player ``p`` sees: its own side live (hand, deck contents but not their order, units, resources, its own plan
so far, including what the plan has queued against the opponent); the opponent only as it stood at the start of
the phase (``snap_*``), plus the public deck list and discard pile. Nothing of the opponent's hand, deck order or
in-progress plan reaches the vector (SF-R2), and neither does what the opponent's plan has queued against ``p``.
Values are scaled to roughly [0, 10].
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types as _nt, void

from cardenvs.core.header import H_TURN
from cardenvs.core.layout import Layout, fields

from .cards import C_COST_AMOUNT, E_AMOUNT, E_OP, E_TARGET, F_STATIC
from .state import (
    NB_CARDS, NB_EFFECTS, NB_INT, NB_ROW,
    LOC_DECK, LOC_DISCARD, LOC_HAND, LOC_PLAY, MAX_DECK, O_CUR_ENTRY, O_CUR_INST, O_CUR_TRIGGER,
    O_DECK_COUNT, O_DECK_LIST, O_DISCARD_COUNT, O_HAND_COUNT, O_HEALTH, O_IN_DAMAGE, O_IN_NEXT,
    O_IN_PLAYER_DAMAGE, O_IN_RES, O_IN_STUN, O_LOC, O_NEXT, O_PHASE, O_PLAN_OPEN, O_PLAY_COUNT, O_PROTECTED,
    O_RES, O_SNAP_HEALTH, O_SNAP_PLAY, O_SNAP_PLAY_COUNT, O_SNAP_PLAYER, O_SNAP_PROTECTED, O_SNAP_STUNNED,
    O_STUNNED, O_SUB, O_UHEALTH, O_USED, SNAP_PLAYER_COLS, SP_GOLD, SP_HAND, SP_HEALTH, SP_NEXT_GOLD, SP_SHIELDS,
    SP_SWORDS, STATE, SUB_MAIN,
)

# per-instance feature columns: static card features first (precomputed per card), then the instance's state
(F_LOC_DECK, F_LOC_HAND, F_LOC_PLAY, F_LOC_DISCARD, F_HIDDEN, F_HEALTH, F_PROTECTED, F_STUNNED, F_USED,
 F_RESOLVING, F_PLANNED_DAMAGE, F_PLANNED_STUN) = range(F_STATIC, F_STATIC + 12)
F_COLS = F_STATIC + 12
PLAYER_COLS = 11  # health/10, gold/5, shields/5, swords/5, hand/5, deck/10, discard/10, next gold/shields/swords/5, units/5
PENDING_COLS = 3 + 5 + 1 + 8 + 1  # trigger, op, amount/5, target kind, cost amount/5

OBS = Layout(
    "simulfight_obs",
    fields(
        ("phase", (2,), "one-hot: Defend, Attack"),
        ("round", (), "round number / 10"),
        ("plan_open", (), "1 while my plan for this phase is open"),
        ("decision", (3,), "one-hot of my pending decision: plan step, choose the paying ally, choose a target"),
        ("me", (PLAYER_COLS,), "me (live): health/10, gold/5, shields/5, swords/5, hand/5, deck/10, discard/10, "
                               "next-round gold, shields, swords /5, units in play/5"),
        ("opp", (PLAYER_COLS,), "the opponent at the phase start, same columns"),
        ("planned", (7,), "my plan against the opponent so far: player damage/10, gold, shields, swords now /5, "
                          "gold, shields, swords next round /5"),
        ("pending", (PENDING_COLS,), "the ability I am resolving (zeros in the plan step): trigger one-hot (3), "
                                     "op of the current effect one-hot (5), its amount/5, its target kind one-hot "
                                     "(8), the ability's cost amount/5"),
        ("my_cards", (MAX_DECK, F_COLS), "per instance of my deck: static card features (present, id/10, gold/5, "
                                         "health/5, per trigger has-ability, cost kind one-hot, cost/5), zone one-hot "
                                         "(deck, hand, play, discard), hidden=0, health/5, Protected, Stunned, used "
                                         "this phase, being resolved, 0, 0"),
        ("opp_cards", (MAX_DECK, F_COLS), "per instance of the opponent's deck, at the phase start: static "
                                          "features, zone (play, discard; deck and hand both show as hidden=1), "
                                          "health/5, Protected, Stunned, 0, 0, my planned damage/5, my planned Stun"),
    ),
    dtype_scalar=np.float32,
)
OBS_SIZE = OBS.size
(OB_PHASE, OB_ROUND, OB_PLAN_OPEN, OB_DECISION, OB_ME, OB_OPP, OB_PLANNED, OB_PENDING, OB_MY_CARDS,
 OB_OPP_CARDS) = OBS.offsets("phase", "round", "plan_open", "decision", "me", "opp", "planned", "pending",
                            "my_cards", "opp_cards")


@njit(void(NB_ROW, NB_CARDS, NB_EFFECTS, _nt.float32[:, ::1], NB_INT, _nt.float32[::1]), cache=True)
def observe_row(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, features: np.ndarray, p: int,
                out: np.ndarray) -> None:
    out[:] = 0.0
    if p < 0 or p > 1:
        return
    q = 1 - p
    out[OB_PHASE + row[O_PHASE]] = 1.0
    out[OB_ROUND] = row[H_TURN] / 10.0
    own_open = row[O_PLAN_OPEN + p] != 0
    out[OB_PLAN_OPEN] = 1.0 if own_open else 0.0
    if own_open:
        out[OB_DECISION + row[O_SUB + p]] = 1.0
    # players: me live, the opponent from the snapshot (deck and discard do not change during plans)
    me = OB_ME
    out[me] = row[O_HEALTH + p] / 10.0
    for r in range(3):
        out[me + 1 + r] = row[O_RES + p * 3 + r] / 5.0
        out[me + 7 + r] = row[O_NEXT + p * 3 + r] / 5.0
    out[me + 4] = row[O_HAND_COUNT + p] / 5.0
    out[me + 5] = row[O_DECK_COUNT + p] / 10.0
    out[me + 6] = row[O_DISCARD_COUNT + p] / 10.0
    out[me + 10] = row[O_PLAY_COUNT + p] / 5.0
    op = OB_OPP
    snap = O_SNAP_PLAYER + q * SNAP_PLAYER_COLS
    out[op] = row[snap + SP_HEALTH] / 10.0
    out[op + 1] = row[snap + SP_GOLD] / 5.0
    out[op + 2] = row[snap + SP_SHIELDS] / 5.0
    out[op + 3] = row[snap + SP_SWORDS] / 5.0
    out[op + 4] = row[snap + SP_HAND] / 5.0
    out[op + 5] = row[O_DECK_COUNT + q] / 10.0
    out[op + 6] = row[O_DISCARD_COUNT + q] / 10.0
    for r in range(3):
        out[op + 7 + r] = row[snap + SP_NEXT_GOLD + r] / 5.0
    out[op + 10] = row[O_SNAP_PLAY_COUNT + q] / 5.0
    # my plan against the opponent (stored on the opponent's in_* fields)
    out[OB_PLANNED] = row[O_IN_PLAYER_DAMAGE + q] / 10.0
    for r in range(3):
        out[OB_PLANNED + 1 + r] = row[O_IN_RES + q * 3 + r] / 5.0
        out[OB_PLANNED + 4 + r] = row[O_IN_NEXT + q * 3 + r] / 5.0
    # the ability I am resolving
    if own_open and row[O_SUB + p] != SUB_MAIN:
        inst = row[O_CUR_INST + p]
        card = row[O_DECK_LIST + p * MAX_DECK + inst]
        t = row[O_CUR_TRIGGER + p]
        k = min(row[O_CUR_ENTRY + p], effects.shape[2] - 1)
        out[OB_PENDING + t] = 1.0
        out[OB_PENDING + 3 + effects[card, t, k, E_OP]] = 1.0
        out[OB_PENDING + 8] = effects[card, t, k, E_AMOUNT] / 5.0
        out[OB_PENDING + 9 + effects[card, t, k, E_TARGET]] = 1.0
        out[OB_PENDING + 17] = cards[card, C_COST_AMOUNT + 3 * t] / 5.0
    # my instances
    for inst in range(MAX_DECK):
        card = row[O_DECK_LIST + p * MAX_DECK + inst]
        if card < 0:
            continue
        base = OB_MY_CARDS + inst * F_COLS
        for f in range(F_STATIC):
            out[base + f] = features[card, f]
        at = p * MAX_DECK + inst
        loc = row[O_LOC + at]
        if loc == LOC_DECK:
            out[base + F_LOC_DECK] = 1.0
        elif loc == LOC_HAND:
            out[base + F_LOC_HAND] = 1.0
        elif loc == LOC_PLAY:
            out[base + F_LOC_PLAY] = 1.0
            out[base + F_HEALTH] = row[O_UHEALTH + at] / 5.0
            out[base + F_PROTECTED] = row[O_PROTECTED + at]
            out[base + F_STUNNED] = row[O_STUNNED + at]
            out[base + F_USED] = row[O_USED + at]
        elif loc == LOC_DISCARD:
            out[base + F_LOC_DISCARD] = 1.0
    if own_open and row[O_SUB + p] != SUB_MAIN:
        out[OB_MY_CARDS + row[O_CUR_INST + p] * F_COLS + F_RESOLVING] = 1.0
    # the opponent's instances: discard is public, units as at the phase start, the rest (deck or hand) hidden
    for inst in range(MAX_DECK):
        card = row[O_DECK_LIST + q * MAX_DECK + inst]
        if card < 0:
            continue
        base = OB_OPP_CARDS + inst * F_COLS
        for f in range(F_STATIC):
            out[base + f] = features[card, f]
        at = q * MAX_DECK + inst
        if row[O_LOC + at] == LOC_DISCARD:
            out[base + F_LOC_DISCARD] = 1.0
        else:
            out[base + F_HIDDEN] = 1.0
        out[base + F_PLANNED_DAMAGE] = row[O_IN_DAMAGE + at] / 5.0
        out[base + F_PLANNED_STUN] = row[O_IN_STUN + at]
    for j in range(row[O_SNAP_PLAY_COUNT + q]):
        inst = row[O_SNAP_PLAY + q * MAX_DECK + j]
        at = q * MAX_DECK + inst
        base = OB_OPP_CARDS + inst * F_COLS
        out[base + F_HIDDEN] = 0.0
        out[base + F_LOC_PLAY] = 1.0
        out[base + F_HEALTH] = row[O_SNAP_HEALTH + at] / 5.0
        out[base + F_PROTECTED] = row[O_SNAP_PROTECTED + at]
        out[base + F_STUNNED] = row[O_SNAP_STUNNED + at]


@njit(cache=True, nogil=True)
def batch_observe(states, tables, players, out):
    cards = tables[0]
    effects = tables[1]
    features = tables[2]
    for i in range(states.shape[0]):
        observe_row(states[i], cards, effects, features, players[i], out[i])


def hide(row: np.ndarray, viewer: int, rng: np.random.Generator, pool: Any = None) -> np.ndarray:
    """A copy of ``row`` with exactly what ``viewer`` cannot know re-dealt: the opponent's hand and deck are pooled,
    shuffled and dealt back with the same sizes, and the viewer's own deck order is shuffled (no card ever reveals a
    position in a deck, and a re-formed deck is shuffled, SF-E3). The viewer's hand, every unit, both discard piles and
    all counters are kept. Still a valid state (``test_hide_redeals_exactly_what_the_viewer_cannot_know``).

    The opponent's in-progress plan is not re-dealt here; ``test_SF_R2_observation_is_identical_whatever_the_other_
    player_planned`` checks that the viewer's observation is the same whatever the opponent has planned so far.
    """
    out = np.array(row, dtype=np.int32, copy=True)
    opp = 1 - viewer
    hand = STATE.get(out, "hand")
    deck = STATE.get(out, "deck")
    hand_n = int(STATE.get(out, "hand_count")[opp])
    deck_n = int(STATE.get(out, "deck_count")[opp])
    hidden = np.concatenate([hand[opp, :hand_n], deck[opp, :deck_n]])
    rng.shuffle(hidden)
    new_hand, new_deck = hidden[:hand_n], hidden[hand_n:]
    loc = STATE.get(out, "loc")
    drawn = STATE.get(out, "drawn")
    loc[opp, new_hand] = LOC_HAND
    loc[opp, new_deck] = LOC_DECK
    drawn[opp, new_hand] = 1
    hand[opp, :hand_n] = new_hand
    deck[opp, :deck_n] = new_deck
    own_n = int(STATE.get(out, "deck_count")[viewer])
    own = deck[viewer, :own_n].copy()
    rng.shuffle(own)
    deck[viewer, :own_n] = own
    # write the edited fields back (STATE.get returns reshaped views of the copy)
    out[STATE.slice("hand")] = hand.reshape(-1)
    out[STATE.slice("deck")] = deck.reshape(-1)
    out[STATE.slice("loc")] = loc.reshape(-1)
    out[STATE.slice("drawn")] = drawn.reshape(-1)
    return out
