"""The practical ceiling: a minimal card game written to the same kernel contract as the cardenvs rulesets.

Each player has a 20-card deck of values 1..10 and 30 life; a decision plays one of up to 5 hand cards, which deals
its value to the opponent; then the opponent draws and acts. That is the least a card game does per decision:
draw from a deck with the in-row counter RNG, update a few fields, write a mask and a 56-float observation.

Because it satisfies :class:`cardenvs.core.spec.GameSpec`, it can be measured three ways:
  * ``raw``: its four prange kernels called directly from a Python loop with the shared numpy sampler (the
    ceiling for any game driven the way the cardenvs benchmark drives a game: step, observe, mask, sample);
  * ``batchgame``: through :class:`cardenvs.core.batch.BatchGame` exactly like a registered game (the cost of
    the generic Python glue on a game that costs almost nothing);
  * ``fused``: one Numba call running many decisions per row with the same sampler formula inside the kernel
    (no Python at all: the machine's ceiling for this kind of work).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit, prange, uint64

from cardenvs.core.cards import CardPool
from cardenvs.core.decks import Deck
from cardenvs.core.header import (
    DRAW,
    H_DECISIONS,
    H_NEEDS,
    H_STATUS,
    H_TO_ACT,
    H_TURN,
    H_WINNER,
    HEADER,
    LIVE,
    NO_WINNER,
    TERMINATED,
    TRUNCATED,
)
from cardenvs.core.layout import Layout, fields
from cardenvs.core.rng import rng_below, rng_seed, shuffle_slice, splitmix64
from cardenvs.core.spec import GameSpec, Kernels

DECK, HAND, LIFE, CAP, VALUES = 20, 5, 30, 200, 10

STATE = Layout("ceiling_state", HEADER + fields(
    ("deck_list", (2, DECK), "card id of each instance"),
    ("deck", (2, DECK), "instance ids, top of deck last", True),
    ("hand", (2, HAND), "instance ids in hand", True),
    ("played", (2, DECK), "instance ids played", True),
    ("deck_count", (2,), "cards left in each deck"),
    ("hand_count", (2,), "cards in each hand"),
    ("played_count", (2,), "cards each player has played"),
    ("life", (2,), "life points"),
))
OBS = Layout("ceiling_obs", fields(
    ("hand", (HAND, VALUES), "one-hot value of each own hand slot"),
    ("life", (2,), "own, opponent life / 30"),
    ("deck_count", (2,), "own, opponent deck size / 20"),
    ("opp_hand_count", (), "opponent hand size / 5"),
    ("my_turn", (), "1 when this player is to act"),
), dtype_scalar=np.float32)

O_LIST, O_DECK, O_HAND, O_PLAYED, O_DC, O_HC, O_PC, O_LIFE = STATE.offsets(
    "deck_list", "deck", "hand", "played", "deck_count", "hand_count", "played_count", "life")
OB_HAND, OB_LIFE, OB_DC, OB_OPP_HC, OB_TURN = OBS.offsets("hand", "life", "deck_count", "opp_hand_count", "my_turn")
STATE_SIZE, OBS_SIZE = STATE.size, OBS.size


# ----- rules over one row ------------------------------------------------------------------------------------------
@njit(cache=True)
def _draw(row: np.ndarray, p: int) -> None:
    dc = row[O_DC + p]
    hc = row[O_HC + p]
    if dc > 0 and hc < HAND:
        row[O_HAND + p * HAND + hc] = row[O_DECK + p * DECK + dc - 1]
        row[O_DECK + p * DECK + dc - 1] = -1
        row[O_DC + p] = dc - 1
        row[O_HC + p] = hc + 1


@njit(cache=True)
def reset_row(row: np.ndarray, deck_ids: np.ndarray, seed: np.int64) -> None:
    row[:] = -1
    row[H_STATUS] = LIVE
    row[H_WINNER] = NO_WINNER
    row[H_DECISIONS] = 0
    row[H_TURN] = 0
    rng_seed(row, seed)
    for p in range(2):
        n = 0
        for i in range(DECK):
            row[O_LIST + p * DECK + i] = deck_ids[p, i]
            if deck_ids[p, i] >= 0:
                row[O_DECK + p * DECK + n] = i
                n += 1
        row[O_DC + p] = n
        row[O_HC + p] = 0
        row[O_PC + p] = 0
        row[O_LIFE + p] = LIFE
        shuffle_slice(row, O_DECK + p * DECK, n)
        for _ in range(3):
            _draw(row, p)
    first = rng_below(row, 2)
    row[H_TO_ACT] = first
    row[H_NEEDS] = 1 << first
    _draw(row, first)


@njit(cache=True)
def _finish(row: np.ndarray, winner: int, status: int) -> None:
    row[H_STATUS] = status
    row[H_WINNER] = winner
    row[H_TO_ACT] = -1
    row[H_NEEDS] = 0


@njit(cache=True)
def step_row(row: np.ndarray, values: np.ndarray, p: int, a: int) -> int:
    """Play hand slot ``a`` for player ``p``; 1 (and the row untouched) if that is not legal."""
    if row[H_STATUS] != LIVE or row[H_TO_ACT] != p or a < 0 or a >= row[O_HC + p]:
        return 1
    hc = row[O_HC + p]
    inst = row[O_HAND + p * HAND + a]
    row[O_HAND + p * HAND + a] = row[O_HAND + p * HAND + hc - 1]
    row[O_HAND + p * HAND + hc - 1] = -1
    row[O_HC + p] = hc - 1
    row[O_PLAYED + p * DECK + row[O_PC + p]] = inst
    row[O_PC + p] += 1
    row[O_LIFE + 1 - p] -= values[row[O_LIST + p * DECK + inst]]
    row[H_DECISIONS] += 1
    row[H_TURN] += 1
    if row[O_LIFE + 1 - p] <= 0:
        _finish(row, p, TERMINATED)
        return 0
    q = 1 - p
    _draw(row, q)
    if row[O_HC + q] == 0:  # nothing left to play: higher life wins
        lp, lq = row[O_LIFE + p], row[O_LIFE + q]
        _finish(row, p if lp > lq else (q if lq > lp else DRAW), TERMINATED)
    elif row[H_TURN] >= CAP:
        _finish(row, NO_WINNER, TRUNCATED)
    else:
        row[H_TO_ACT] = q
        row[H_NEEDS] = 1 << q
    return 0


@njit(cache=True)
def observe_row(row: np.ndarray, p: int, out: np.ndarray) -> None:
    out[:] = 0.0
    q = 1 - p
    for s in range(row[O_HC + p]):
        inst = row[O_HAND + p * HAND + s]
        out[OB_HAND + s * VALUES + row[O_LIST + p * DECK + inst] - 1] = 1.0
    out[OB_LIFE] = row[O_LIFE + p] / LIFE
    out[OB_LIFE + 1] = row[O_LIFE + q] / LIFE
    out[OB_DC] = row[O_DC + p] / DECK
    out[OB_DC + 1] = row[O_DC + q] / DECK
    out[OB_OPP_HC] = row[O_HC + q] / HAND
    out[OB_TURN] = 1.0 if row[H_TO_ACT] == p else 0.0


@njit(cache=True)
def mask_row(row: np.ndarray, p: int, out: np.ndarray) -> None:
    out[:] = 0
    if p >= 0 and row[H_STATUS] == LIVE and row[H_TO_ACT] == p:
        out[: row[O_HC + p]] = 1


# ----- the same four loops as prange kernels: the raw ceiling (no Python between rows, Numba's own threads) ---------
@njit(parallel=True, cache=True)
def prange_reset(states, tables, decks, seeds, rows):
    for i in prange(states.shape[0]):
        if rows[i]:
            reset_row(states[i], decks[i], seeds[i])


@njit(parallel=True, cache=True)
def prange_step(states, tables, players, actions, errors):
    values = tables[0]
    for i in prange(states.shape[0]):
        errors[i] = 0
        if players[i] >= 0:
            errors[i] = step_row(states[i], values, players[i], actions[i])


@njit(parallel=True, cache=True)
def prange_observe(states, tables, players, out):
    for i in prange(states.shape[0]):
        if players[i] >= 0:
            observe_row(states[i], players[i], out[i])
        else:
            out[i, :] = 0.0


@njit(parallel=True, cache=True)
def prange_mask(states, tables, players, out):
    for i in prange(states.shape[0]):
        mask_row(states[i], players[i], out[i])


# ----- the batch kernels of the GameSpec contract (plain loops; BatchGame threads them over row slices) ----------
@njit(cache=True, nogil=True)
def batch_reset(states, tables, decks, seeds, rows):
    for i in range(states.shape[0]):
        if rows[i]:
            reset_row(states[i], decks[i], seeds[i])


@njit(cache=True, nogil=True)
def batch_step(states, tables, players, actions, errors):
    values = tables[0]
    for i in range(states.shape[0]):
        errors[i] = 0
        if players[i] >= 0:
            errors[i] = step_row(states[i], values, players[i], actions[i])


@njit(cache=True, nogil=True)
def batch_observe(states, tables, players, out):
    for i in range(states.shape[0]):
        if players[i] >= 0:
            observe_row(states[i], players[i], out[i])
        else:
            out[i, :] = 0.0


@njit(cache=True, nogil=True)
def batch_mask(states, tables, players, out):
    for i in range(states.shape[0]):
        mask_row(states[i], players[i], out[i])


# ----- fused: sampler + step + autoreset + observe + mask, many decisions per call --------------------------------
@njit(cache=True, inline="always")
def _uniform(key: np.ndarray, i: int) -> float:
    key[i] = splitmix64(key[i])
    return (key[i] >> uint64(40)) * (1.0 / (1 << 24))


@njit(parallel=True, cache=True)
def fused_run(states, values, decks, seeds, keys, obs, mask, n_steps):
    """``n_steps`` random legal decisions in every row; finished rows restart with ``seeds[i] += N``."""
    n = states.shape[0]
    total = 0
    for i in prange(n):
        row = states[i]
        for _ in range(n_steps):
            p = row[H_TO_ACT]
            best, arg = -1.0, 0
            for a in range(mask.shape[1]):  # the shared sampler: argmax((U + 1) * mask)
                v = (_uniform(keys, i) + 1.0) * mask[i, a]
                if v > best:
                    best, arg = v, a
            step_row(row, values, p, arg)
            total += 1
            if row[H_STATUS] != LIVE:
                seeds[i] += n
                reset_row(row, decks[i], seeds[i])
            p = row[H_TO_ACT]
            observe_row(row, p, obs[i])
            mask_row(row, p, mask[i])
    return total


# ----- the GameSpec ---------------------------------------------------------------------------------------------
_CARD_VALUES = np.arange(1, VALUES + 1, dtype=np.int32)
POOL = CardPool(paths=[], cards=[{"name": f"v{v}", "value": int(v)} for v in _CARD_VALUES], tables=(_CARD_VALUES,))
STARTER = Deck("ceiling", "", np.repeat(np.arange(VALUES, dtype=np.int32), 2))


def _action_name(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    return f"play hand slot {action}"


def _render(row: np.ndarray, pool: CardPool, viewer: int | None) -> str:
    life = row[O_LIFE:O_LIFE + 2]
    return f"ceiling game: life {life[0]} / {life[1]}, to act {row[H_TO_ACT]}"


def _hide(row: np.ndarray, viewer: int, rng: np.random.Generator, pool: CardPool) -> np.ndarray:
    out = row.copy()
    q = 1 - viewer
    dc = out[O_DECK + q * DECK: O_DECK + q * DECK + out[O_DC + q]]
    rng.shuffle(dc)
    return out


SPEC = GameSpec(
    name="ceiling", version=0, description="minimal card game: the benchmark's practical ceiling",
    num_actions=HAND, state_layout=STATE, obs_layout=OBS, max_deck=DECK, turn_cap=CAP, simultaneous=False,
    kernels=Kernels(batch_reset, batch_step, batch_observe, batch_mask), package_dir=Path(__file__).parent,
    load_pool=lambda paths=None: POOL, load_deck=lambda deck, pool: deck if isinstance(deck, Deck) else STARTER,
    action_name=_action_name, render=_render, hide=_hide, default_decks=(STARTER, STARTER),  # type: ignore[arg-type]
)

#: the same four kernels as prange loops (the raw ceiling, and the profile's dispatch comparison)
PRANGE_KERNELS = Kernels(prange_reset, prange_step, prange_observe, prange_mask)


__all__ = [
    "batch_mask", "batch_observe", "batch_reset", "batch_step", "CAP", "DECK", "fused_run", "HAND", "LIFE",
    "mask_row", "O_DC", "O_DECK", "O_HAND", "O_HC", "O_LIFE", "O_LIST", "O_PC", "O_PLAYED", "OB_DC", "OB_HAND",
    "OB_LIFE", "OB_OPP_HC", "OB_TURN", "OBS", "OBS_SIZE", "observe_row", "POOL", "PRANGE_KERNELS", "prange_mask",
    "prange_observe", "prange_reset", "prange_step", "reset_row", "SPEC", "STARTER", "STATE", "STATE_SIZE",
    "step_row", "VALUES"
]
