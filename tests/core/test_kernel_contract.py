"""Issue 18 item 2: the per-row contract of every game's batch kernels (cardenvs/core/spec.py), run for every game.

- a skipped row (``players[i] = -1``) is left untouched and reports no error, whatever ``errors[i]`` held before;
- ``errors[i]`` is cleared for every row that is not in error (no stale error from an earlier call);
- one row with an illegal action is left untouched and does not change what happens in the other rows.
Each is checked on the plain ``batch_step`` kernel and on the fused ``batch_play`` where the game has one.
"""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, H_TO_ACT, LIVE

N = 12


def midgame(game_name: str) -> BatchGame:
    """``N`` live games a few random legal decisions in (rows differ)."""
    g = BatchGame(game_name, N, seed=123)
    rng = np.random.default_rng(0)
    for k in range(6):
        mask = g.legal_mask(out=np.zeros((N, g.spec.num_actions), np.int8))
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], np.int32)
        who = np.where((g.status == LIVE) & (np.arange(N) % 3 >= k % 2), g.to_act, -1).astype(np.int32)
        g.step(acts, players=who)
    if not (g.status == LIVE).all():
        g.reset(999, rows=g.status != LIVE)
    return g


def legal_and_illegal(g: BatchGame) -> tuple[np.ndarray, np.ndarray]:
    """For each row: a legal action of the player to act, and an illegal one (in range)."""
    mask = g.legal_mask(out=np.zeros((N, g.spec.num_actions), np.int8))
    assert mask.any(axis=1).all() and (~mask.astype(bool)).any(axis=1).all()
    return mask.argmax(1).astype(np.int32), (mask == 0).argmax(1).astype(np.int32)


def step_kernel(g: BatchGame, who: np.ndarray, acts: np.ndarray, errors: np.ndarray) -> None:
    g.spec.kernels.batch_step(g.states, g.pool.tables, who.astype(np.int32), acts, errors)


def play_kernel(g: BatchGame, who: np.ndarray, acts: np.ndarray, errors: np.ndarray) -> None:
    obs = np.zeros((N, g.spec.obs_dim), np.float32)
    mask = np.zeros((N, g.spec.num_actions), np.int8)
    ended = np.zeros(N, np.int32)
    finals = np.zeros_like(g.states)
    g.spec.kernels.batch_play(g.states, g.pool.tables, g.decks, g.seeds.copy(), N, True, who.astype(np.int32), acts,
                              errors, ended, finals, np.full(N, -1, np.int32), True, obs, mask)


def kernels(game_name: str) -> list:
    g = BatchGame(game_name, 1, seed=0)
    return [step_kernel] + ([play_kernel] if g.spec.kernels.batch_play is not None else [])


@pytest.mark.parametrize("which", ["batch_step", "batch_play"])
def test_skipped_rows_are_untouched_and_report_no_error(game_name, which) -> None:
    g = midgame(game_name)
    run = {"batch_step": step_kernel, "batch_play": play_kernel}[which]
    if run not in kernels(game_name):
        pytest.skip(f"{game_name} has no fused batch_play")
    legal, _ = legal_and_illegal(g)
    skip = np.arange(N) % 2 == 0
    who = np.where(skip, -1, g.to_act).astype(np.int32)
    before = g.states.copy()
    errors = np.ones(N, np.int32)  # stale errors from an earlier call
    run(g, who, legal, errors)
    assert (g.states[skip] == before[skip]).all(), "a skipped row changed"
    assert errors.tolist() == [0] * N, f"errors not cleared: {errors.tolist()}"


@pytest.mark.parametrize("which", ["batch_step", "batch_play"])
def test_one_bad_row_leaves_the_others(game_name, which) -> None:
    g = midgame(game_name)
    run = {"batch_step": step_kernel, "batch_play": play_kernel}[which]
    if run not in kernels(game_name):
        pytest.skip(f"{game_name} has no fused batch_play")
    legal, illegal = legal_and_illegal(g)
    twin = g.clone()
    bad = 5
    acts = legal.copy()
    acts[bad] = illegal[bad]
    before = g.states.copy()
    errors = np.zeros(N, np.int32)
    run(g, g.to_act.copy(), acts, errors)
    assert errors.tolist() == [1 if i == bad else 0 for i in range(N)]
    assert (g.states[bad] == before[bad]).all(), "the row with the illegal action changed"
    # the other rows went exactly as when they are stepped without the bad row
    who = twin.to_act.copy()
    who[bad] = -1
    errors2 = np.ones(N, np.int32)
    run(twin, who, legal, errors2)
    assert errors2.tolist() == [0] * N
    others = np.arange(N) != bad
    assert (g.states[others] == twin.states[others]).all()
    assert (g.states[others] != before[others]).any()  # and they did move


def test_errors_are_cleared_by_the_next_good_step(game_name) -> None:
    g = midgame(game_name)
    legal, illegal = legal_and_illegal(g)
    errors = np.zeros(N, np.int32)
    step_kernel(g, g.to_act.copy(), illegal, errors)
    assert errors.tolist() == [1] * N
    step_kernel(g, g.to_act.copy(), legal, errors)
    assert errors.tolist() == [0] * N
    assert ((g.states[:, H_STATUS] != LIVE) | (g.states[:, H_TO_ACT] >= 0)).all()
