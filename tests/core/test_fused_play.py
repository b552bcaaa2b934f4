"""``BatchGame.play`` (the fused step + autoreset + observe + mask kernel where a game has one) gives exactly what
``step`` + ``observe`` + ``legal_mask`` give, in serial and parallel kernels, with and without autoreset."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.core.errors import IllegalActionError


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
