"""Observation encoding (one compact int16 row per player view, issue 41) and the card re-deal of ``hide``.

What player ``p`` sees: its own side live (hand, deck contents but not their order, units, resources, its own plan
so far, including what the plan has queued against the opponent) and as the opponent's plan sees it (its phase-start
snapshot: the Foes the opponent may target, their health and Protection, p's health for the opponent's conditions);
the opponent only as it stood at the start of the phase (``snap_*``), plus the public deck list and discard pile,
and the cards both players know are in the opponent's hand (``shown``: its deck ran out since they were drawn).
Nothing else of the opponent's hand, nor deck order or the in-progress plan reaches the vector (SF-R2), and neither
does what the opponent's plan has queued against ``p``.
The kernels write integers only: counts, health, resources and amounts as they are, which the layout's divisors
(``obs_layout``'s docstring) turn into the float view of before (health / 10, gold / 5, ...); the unbounded counters
are clipped to the declared Box times their divisor (``bounded``, issue 43 #11). The writers are generic over the
output's dtype: the envs observe into int16, check_game's range guard into float64 (nothing may wrap).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cardenvs.core.header import H_TURN
from cardenvs.core.jit import helper

from . import obs_layout as L
from . import state as S
from .cards import (
    C_COST_AMOUNT, CARD_HEALTH, CARD_HIDDEN, CARD_IN_DECK, CARD_IN_DISCARD, CARD_IN_HAND, CARD_IN_PLAY, CARD_KNOWN,
    CARD_PLANNED_DAMAGE, CARD_PLANNED_STUN, CARD_PROTECTED, CARD_RESOLVING, CARD_SIZE, CARD_START_HEALTH,
    CARD_START_PROTECTED, CARD_START_STUNNED, CARD_STATIC_END, CARD_STUNNED, CARD_USED, E_AMOUNT, E_OP, E_TARGET,
)
from .obs_layout import OBS, OBS_SIZE
from .rules import decision_ok

__all__ = ["OBS", "OBS_SIZE", "write_obs", "observe_row", "redeal_cards"]

STATE_VIEW = S.STATE.get  # a named field of a row as a view of it, shaped (hide's helpers write through these)


@njit(cache=True, inline="always")
def bounded(x: int, divide_by: int) -> int:
    """``x``, an entry stored x``divide_by``, clipped so that its float view stays within +-``OBS_LIMIT`` (1000, the
    float32 observation's Box before issue 41; issue 43 #11): health, resources and queued amounts have no cap in the
    rules, and a schema-valid custom pool (+10 gold, +20 health a use, 40 copies) grows them past 1000 in a few
    rounds. The clip is also what keeps them inside int16 (10,000 at most). Values inside are returned unchanged, so
    observations of the shipped pool are exact."""
    limit = L.OBS_LIMIT * divide_by
    return min(max(x, -limit), limit)


@njit(cache=True, inline="always")
def copy_static(features: np.ndarray, card: int, out: np.ndarray, at: int) -> None:
    """The static part of ``card``'s CARD block (``tables.features``, stored as the observation is) at ``out[at:]``:
    a copy in int16, a conversion into the range guard's float64."""
    for f in range(CARD_STATIC_END):
        out[at + f] = features[card, f]


@helper
def write_snapshot(row: np.ndarray, side: int, at: int, out: np.ndarray) -> None:
    """The PLAYER block at ``out[at:]`` for ``side`` as it stood at the phase start (deck and discard sizes do not
    change during plans, so the live ones are the phase start's)."""
    snap = S.SNAP_PLAYER + side * S.PLAYER_SNAPSHOT_SIZE
    out[at + L.PLAYER_HEALTH] = bounded(row[snap + S.SP_HEALTH], 10)
    for r in range(S.NUM_RESOURCES):
        out[at + L.PLAYER_RESOURCES + r] = bounded(row[snap + S.SP_RESOURCES + r], 5)
        out[at + L.PLAYER_NEXT_ROUND + r] = bounded(row[snap + S.SP_NEXT_ROUND + r], 5)
    out[at + L.PLAYER_HAND] = bounded(row[snap + S.SP_HAND], 5)  # a snapshot field: no row check bounds it
    out[at + L.PLAYER_DECK] = row[S.DECK_COUNT + side]
    out[at + L.PLAYER_DISCARD] = row[S.DISCARD_COUNT + side]
    out[at + L.PLAYER_UNITS] = row[S.SNAP_PLAY_COUNT + side]


@helper
def write_obs(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, features: np.ndarray, p: int,
              out: np.ndarray) -> None:
    """``observe_row`` on the unpacked tables, into ``out`` of any numeric dtype (int16: the envs; float64: the
    range guard)."""
    out[:] = 0
    if p < 0 or p > 1:
        return
    q = 1 - p
    # a row no rule writes (a bad phase or pending decision: rules.decision_ok) shows no phase and no decision, and
    # nothing is read through it; every row the rules write passes
    sound = decision_ok(row, cards, p)
    if row[S.PHASE] == S.PH_DEFEND or row[S.PHASE] == S.PH_ATTACK:
        out[L.O_PHASE + row[S.PHASE]] = 1
    out[L.O_ROUND] = bounded(row[H_TURN], 10)  # at most ROUND_CAP from the rules; the row check allows more
    own_open = row[S.PLAN_OPEN + p] != 0
    out[L.O_PLAN_OPEN] = 1 if own_open else 0
    resolving = own_open and sound and row[S.SUB + p] != S.SUB_MAIN
    if own_open and sound:
        out[L.O_DECISION + row[S.SUB + p]] = 1
    # players: me live, the opponent from the snapshot (deck and discard do not change during plans)
    me = L.O_ME
    out[me + L.PLAYER_HEALTH] = bounded(row[S.HEALTH + p], 10)
    for r in range(S.NUM_RESOURCES):
        out[me + L.PLAYER_RESOURCES + r] = bounded(row[S.RESOURCES + p * S.NUM_RESOURCES + r], 5)
        out[me + L.PLAYER_NEXT_ROUND + r] = bounded(row[S.NEXT_ROUND + p * S.NUM_RESOURCES + r], 5)
    out[me + L.PLAYER_HAND] = row[S.HAND_COUNT + p]
    out[me + L.PLAYER_DECK] = row[S.DECK_COUNT + p]
    out[me + L.PLAYER_DISCARD] = row[S.DISCARD_COUNT + p]
    out[me + L.PLAYER_UNITS] = row[S.PLAY_COUNT + p]
    write_snapshot(row, q, L.O_OPP, out)
    write_snapshot(row, p, L.O_ME_START, out)  # what the opponent's plan sees of me (its filters, its Foes)
    # my plan against the opponent (stored on the opponent's in_* fields)
    out[L.O_PLANNED + L.PLANNED_DAMAGE] = bounded(row[S.IN_PLAYER_DAMAGE + q], 10)
    for r in range(S.NUM_RESOURCES):
        out[L.O_PLANNED + L.PLANNED_RESOURCES + r] = bounded(row[S.IN_RESOURCES + q * S.NUM_RESOURCES + r], 5)
        out[L.O_PLANNED + L.PLANNED_NEXT_ROUND + r] = bounded(row[S.IN_NEXT_ROUND + q * S.NUM_RESOURCES + r], 5)
    # the ability I am resolving
    if resolving:
        inst = row[S.CUR_INST + p]
        card = row[S.DECK_LIST + p * S.MAX_DECK + inst]
        t = row[S.CUR_TRIGGER + p]
        k = min(row[S.CUR_ENTRY + p], effects.shape[2] - 1)
        out[L.O_PENDING + L.PENDING_TRIGGER + t] = 1
        out[L.O_PENDING + L.PENDING_OP + effects[card, t, k, E_OP]] = 1
        out[L.O_PENDING + L.PENDING_AMOUNT] = effects[card, t, k, E_AMOUNT]  # -10..20 (the schema)
        out[L.O_PENDING + L.PENDING_TARGET + effects[card, t, k, E_TARGET]] = 1
        out[L.O_PENDING + L.PENDING_COST] = cards[card, C_COST_AMOUNT + t]  # 0..20 (the schema)
        out[L.O_PENDING + L.PENDING_ENTRY + k] = 1
    # my instances
    for inst in range(S.MAX_DECK):
        card = row[S.DECK_LIST + p * S.MAX_DECK + inst]
        if card < 0:
            continue
        base = L.O_MY_CARDS + inst * CARD_SIZE
        copy_static(features, card, out, base)
        at = p * S.MAX_DECK + inst
        loc = row[S.LOC + at]
        if loc == S.LOC_DECK:
            out[base + CARD_IN_DECK] = 1
        elif loc == S.LOC_HAND:
            out[base + CARD_IN_HAND] = 1
            out[base + CARD_KNOWN] = row[S.SHOWN + at]
        elif loc == S.LOC_PLAY:
            out[base + CARD_IN_PLAY] = 1
            out[base + CARD_HEALTH] = bounded(row[S.UNIT_HEALTH + at], 5)
            out[base + CARD_PROTECTED] = row[S.PROTECTED + at]
            out[base + CARD_STUNNED] = row[S.STUNNED + at]
            out[base + CARD_USED] = row[S.USED + at]
        elif loc == S.LOC_DISCARD:
            out[base + CARD_IN_DISCARD] = 1
    if resolving:
        out[L.O_MY_CARDS + row[S.CUR_INST + p] * CARD_SIZE + CARD_RESOLVING] = 1
    for j in range(min(row[S.SNAP_PLAY_COUNT + p], S.MAX_DECK)):  # my units as the opponent's plan sees them: its Foes
        inst = row[S.SNAP_PLAY + p * S.MAX_DECK + j]
        if inst < 0 or inst >= S.MAX_DECK:  # past the snapshot's units (a row no rule writes)
            continue
        at = p * S.MAX_DECK + inst
        base = L.O_MY_CARDS + inst * CARD_SIZE
        out[base + CARD_START_HEALTH] = bounded(row[S.SNAP_HEALTH + at], 5)
        out[base + CARD_START_PROTECTED] = row[S.SNAP_PROTECTED + at]
        out[base + CARD_START_STUNNED] = row[S.SNAP_STUNNED + at]
    # the opponent's instances: discard is public, units as at the phase start, the rest (deck or hand) hidden
    for inst in range(S.MAX_DECK):
        card = row[S.DECK_LIST + q * S.MAX_DECK + inst]
        if card < 0:
            continue
        base = L.O_OPP_CARDS + inst * CARD_SIZE
        copy_static(features, card, out, base)
        at = q * S.MAX_DECK + inst
        if row[S.LOC + at] == S.LOC_DISCARD:
            out[base + CARD_IN_DISCARD] = 1
        elif row[S.SHOWN + at] != 0:  # known to be in hand (at the phase start: the flag outlives a play this phase)
            out[base + CARD_IN_HAND] = 1
            out[base + CARD_KNOWN] = 1
        else:
            out[base + CARD_HIDDEN] = 1
        out[base + CARD_PLANNED_DAMAGE] = bounded(row[S.IN_DAMAGE + at], 5)
        out[base + CARD_PLANNED_STUN] = row[S.IN_STUN + at]
    for j in range(min(row[S.SNAP_PLAY_COUNT + q], S.MAX_DECK)):
        inst = row[S.SNAP_PLAY + q * S.MAX_DECK + j]
        if inst < 0 or inst >= S.MAX_DECK:
            continue
        at = q * S.MAX_DECK + inst
        base = L.O_OPP_CARDS + inst * CARD_SIZE
        out[base + CARD_HIDDEN] = 0
        out[base + CARD_IN_PLAY] = 1
        out[base + CARD_HEALTH] = bounded(row[S.SNAP_HEALTH + at], 5)
        out[base + CARD_PROTECTED] = row[S.SNAP_PROTECTED + at]
        out[base + CARD_STUNNED] = row[S.SNAP_STUNNED + at]


@helper
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    """Write player ``p``'s observation of ``row`` into ``out`` (zeros for ``p`` outside 0..1)."""
    write_obs(row, tables.cards, tables.effects, tables.features, p, out)


def redeal_cards(row: np.ndarray, viewer: int, rng: np.random.Generator, pool: Any = None) -> np.ndarray:
    """A copy of ``row`` with the cards ``viewer`` cannot know re-dealt: the opponent's hand cards that are not known
    (``shown``) and its deck are pooled, shuffled and dealt back with the same sizes (the known ones stay in the
    hand: a deck that ran out showed them, and a reshuffle brings back only discarded cards), and the viewer's own
    deck order is shuffled (no card ever reveals a position in a deck, and a re-formed deck is shuffled, SF-E3).
    The viewer's hand, every unit, both discard piles and all counters are kept. What :func:`hide` does before it
    re-deals the other seat's plan; check_game's decision-timing check re-deals with this alone
    (``SPEC.extra["timing_hide"]``): it pins the cards a step reveals, and a plan is revealed whole when it lands."""
    del pool  # the cards' identities are not read
    out = np.array(row, dtype=np.int32, copy=True)
    opp = 1 - viewer
    hand = S.STATE.get(out, "hand")
    deck = S.STATE.get(out, "deck")
    hand_n = int(S.STATE.get(out, "hand_count")[opp])
    deck_n = int(S.STATE.get(out, "deck_count")[opp])
    shown = S.STATE.get(out, "shown")
    in_hand = hand[opp, :hand_n]
    known = in_hand[shown[opp, in_hand] != 0]
    hidden = np.concatenate([in_hand[shown[opp, in_hand] == 0], deck[opp, :deck_n]])
    rng.shuffle(hidden)
    new_hand = np.concatenate([known, hidden[:hand_n - known.size]])
    new_deck = hidden[hand_n - known.size:]
    loc = S.STATE.get(out, "loc")
    drawn = S.STATE.get(out, "drawn")
    loc[opp, new_hand] = S.LOC_HAND
    loc[opp, new_deck] = S.LOC_DECK
    drawn[opp, new_hand] = 1
    hand[opp, :hand_n] = new_hand
    deck[opp, :deck_n] = new_deck
    own_n = int(S.STATE.get(out, "deck_count")[viewer])
    own = deck[viewer, :own_n].copy()
    rng.shuffle(own)
    deck[viewer, :own_n] = own
    # write the edited fields back (STATE.get returns reshaped views of the copy)
    out[S.STATE.slice("hand")] = hand.reshape(-1)
    out[S.STATE.slice("deck")] = deck.reshape(-1)
    out[S.STATE.slice("loc")] = loc.reshape(-1)
    out[S.STATE.slice("drawn")] = drawn.reshape(-1)
    return out
