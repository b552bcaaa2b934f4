"""``BatchGame.play`` (the fused step + autoreset + observe + mask kernel where a game has one) gives exactly what
``step`` + ``observe`` + ``legal_mask`` give, in serial and parallel kernels, with and without autoreset."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.core.errors import IllegalActionError
from cardenvs.core.header import H_STATUS, TRUNCATED


def masked_choice(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    scores = np.where(mask > 0, rng.random(mask.shape), -1.0)
    return scores.argmax(axis=1).astype(np.int32)


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("autoreset", [True, False])
def test_play_equals_step_observe_mask(game_name: str, parallel: bool, autoreset: bool) -> None:
    fused = BatchGame(game_name, 48, seed=11, autoreset=autoreset, parallel=parallel)
    composed = BatchGame(game_name, 48, seed=11, autoreset=autoreset, parallel=parallel)
    rng = np.random.default_rng(5)
    viewers = np.where(np.arange(48) % 3 == 0, np.arange(48) % 2, -1).astype(np.int32)  # some fixed seats too
    mask = composed.legal_mask(composed.to_act.copy()).copy()
    ended_games = 0
    for step in range(1500):  # random levelneo games take 275-850 decisions: run until one has ended
        actions = masked_choice(mask, rng)
        r1, obs1, mask1 = fused.play(actions, viewers=viewers)
        r2, obs2, mask2 = composed._play_composed(actions, None, viewers, "raise")
        np.testing.assert_array_equal(fused.states, composed.states)
        np.testing.assert_array_equal(obs1, obs2)
        np.testing.assert_array_equal(mask1, mask2)
        np.testing.assert_array_equal(r1.rewards, r2.rewards)
        np.testing.assert_array_equal(r1.terminated, r2.terminated)
        np.testing.assert_array_equal(r1.truncated, r2.truncated)
        if composed.final_states is None:
            assert fused.final_states is None
        else:
            np.testing.assert_array_equal(fused.final_states, composed.final_states)
            ended_games += len(composed.final_states)
        mask = composed.legal_mask(composed.to_act.copy()).copy()
        if not autoreset and composed.done.all():
            break
        if autoreset and ended_games and step >= 400:
            break
    if autoreset:
        assert ended_games > 0, "no game ended: the autoreset path was not exercised"


def test_play_reports_an_illegal_action_and_leaves_its_row(game_name: str) -> None:
    game = BatchGame(game_name, 4, seed=3)
    mask = game.legal_mask().copy()
    actions = masked_choice(mask, np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(mask[2] == 0)[0])
    before = game.states[2].copy()
    with pytest.raises(IllegalActionError, match="game 2: illegal action"):
        game.play(actions)
    np.testing.assert_array_equal(game.states[2], before)
    assert game.decisions[0] > 0  # the legal rows were applied


def test_play_out_ends_every_game_and_counts_its_decisions(game_name: str) -> None:
    game = BatchGame(game_name, 16, seed=8)
    rng = np.random.default_rng(1)
    seen: list[int] = []

    def decide(who: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        assert (mask[who >= 0].sum(axis=1) > 0).all(), "a player to act with no legal action"
        assert not mask[who < 0].any()
        seen.append(int(np.count_nonzero(who >= 0)))
        return masked_choice(mask, rng)

    total = game.play_out(decide)
    assert game.done.all()
    assert total == sum(seen) == int(game.decisions.sum())
    with pytest.raises(Exception, match="autoreset"):
        BatchGame(game_name, 2, seed=0, autoreset=True).play_out(decide)


@pytest.mark.parametrize("parallel", [False, True])
def test_a_fused_batch_resets_through_play_exactly_as_batch_reset(game_name: str, parallel: bool) -> None:
    """Issue 15 (first run): a ``fused=True`` batch restarts its games through the fused kernel, so a tournament or
    RL loop compiles one kernel; the games it starts are ``batch_reset``'s, for every row and for chosen rows (also
    rows whose games have ended, which the fused kernel would otherwise restart with the rest), and the batch's
    mask buffer is left as it was."""
    n = 300 if parallel else 12
    plain = BatchGame(game_name, n, seed=21, parallel=parallel)
    fused = BatchGame(game_name, n, seed=21, parallel=parallel, fused=True)
    assert fused.fused and not plain.fused
    np.testing.assert_array_equal(fused.states, plain.states)
    rng = np.random.default_rng(3)
    for _ in range(40):  # move the games on, so a restart has something to undo
        mask = plain.legal_mask().copy()
        actions = masked_choice(mask, rng)
        plain.step(actions)
        fused.play(actions)
    np.testing.assert_array_equal(fused.states, plain.states)
    plain.states[1, H_STATUS] = fused.states[1, H_STATUS] = TRUNCATED  # a finished row that is not reset below
    kept_mask = fused._mask.copy()
    rows = np.zeros(n, dtype=bool)
    rows[[0, 3, n - 1]] = True
    plain.reset(seed=77, rows=rows)
    fused.reset(seed=77, rows=rows)
    np.testing.assert_array_equal(fused.states, plain.states)
    np.testing.assert_array_equal(fused._mask, kept_mask)
    plain.reset(seed=5)
    fused.reset(seed=5)
    np.testing.assert_array_equal(fused.states, plain.states)
    np.testing.assert_array_equal(fused.seeds, plain.seeds)


def test_a_fused_play_out_plays_the_same_games(game_name: str) -> None:
    """``play_out`` of a fused batch takes its first mask and observation from the fused kernel: the same games,
    decision for decision, as the four kernels give (a pilot that reads the observation and the mask)."""
    def pilot(who: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        seen.append((who.copy(), obs.copy(), mask.copy()))
        # a choice that depends on the observation: the legal action at an observation-chosen rank
        rank = (np.abs(obs).sum(axis=1) * 1000).astype(np.int64)
        counts = np.maximum((mask > 0).sum(axis=1), 1)
        order = np.cumsum(mask > 0, axis=1)
        return np.argmax(order > (rank % counts)[:, None], axis=1).astype(np.int32)

    runs = []
    for fused in (False, True):
        seen: list = []
        batch = BatchGame(game_name, 6, seed=8, fused=fused)
        total = batch.play_out(pilot)
        runs.append((total, seen, batch.states.copy()))
    assert runs[0][0] == runs[1][0] > 0
    np.testing.assert_array_equal(runs[0][2], runs[1][2])
    for (w0, o0, m0), (w1, o1, m1) in zip(runs[0][1], runs[1][1]):
        np.testing.assert_array_equal(w0, w1)
        np.testing.assert_array_equal(o0, o1)
        np.testing.assert_array_equal(m0, m1)
