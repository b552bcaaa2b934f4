"""The SB3 VecEnv view: masks for the learner's pending decision, same-step autoreset, MaskablePPO end to end."""
from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.core.header import LIVE


def test_vec_env_masks_and_autoreset(game_name: str) -> None:
    env = cardenvs.make_vec(game_name, 16, opponent="random", seed=3)
    obs = env.reset()
    assert obs.shape == (16, env.observation_space.shape[0]) and obs.dtype == env.observation_space.dtype  # compact
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(3000):
        masks = np.stack(env.env_method("action_masks"))
        assert masks.dtype == np.bool_ and masks.any(axis=1).all(), "every game waits for a legal learner action"
        # the mask describes the learner's decision in a live game
        assert (env.game.status == LIVE).all()
        assert (env.game.to_act == env.seats).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            finished += 1
            assert "terminal_observation" in infos[i] and "TimeLimit.truncated" in infos[i]
            assert rewards[i] in (-1.0, 0.0, 1.0)
        assert (rewards[~dones] == 0).all()
        if finished >= 20:
            break
    assert finished >= 20


def test_vec_env_is_deterministic_for_a_seed(game_name: str) -> None:
    def run() -> np.ndarray:
        env = cardenvs.make_vec(game_name, 4, opponent="random", seed=7)
        env.reset()
        rng = np.random.default_rng(1)
        trace = []
        for _ in range(200):
            masks = env.action_masks()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, rewards, dones, _ = env.step(actions)
            trace.append(obs.sum() + rewards.sum())
        return np.array(trace)

    np.testing.assert_array_equal(run(), run())


def test_maskable_ppo_runs_2048_steps(game_name: str, tmp_path) -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = cardenvs.make_vec(game_name, 8, opponent="random", seed=0)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=256, n_epochs=1, seed=0,
                                    policy_kwargs={"net_arch": [64, 64]}, verbose=0)
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[np.arange(8), actions].all()


def test_gymnasium_vector_env_same_step_autoreset(game_name: str) -> None:
    from gymnasium.vector import AutoresetMode

    env = cardenvs.make_vector_env(game_name, 8, opponent="random", seed=1)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=5)
    assert obs.shape == (8, env.single_observation_space.shape[0])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(5000):
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
        done = terminated | truncated
        if done.any():
            assert (info["_final_obs"] == done).all()
            ended += int(done.sum())
        if ended >= 10:
            break
    assert ended >= 10


def test_draw_reward_replaces_zero_only_on_drawn_or_truncated_episodes() -> None:
    """``draw_reward`` (train config ``[train] draw_reward``) changes a draw's reward and nothing else: the same seed
    and actions give the same games, and only finished rows with no winner read the new value."""
    from cardenvs.core.errors import BadArgumentError
    from cardenvs.core.vector import SeatedBatch

    spec = cardenvs.get_game("relics")  # relics' random games often reach the rules' draw caps
    plain, costly = SeatedBatch(spec, 32, seed=3), SeatedBatch(spec, 32, seed=3, draw_reward=-0.5)
    plain.reset()
    costly.reset()
    rng = np.random.default_rng(0)
    draws = wins = 0
    for _ in range(1500):
        mask = plain.action_masks()
        assert np.array_equal(mask, costly.action_masks())
        acts = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        _, r_plain, done, _ = plain.step(acts)
        _, r_costly, done2, _ = costly.step(acts)
        assert np.array_equal(done, done2)
        drawn = done & (r_plain == 0)
        assert np.all(r_costly[drawn] == -0.5) and np.array_equal(r_costly[~drawn], r_plain[~drawn])
        draws, wins = draws + int(drawn.sum()), wins + int((done & ~drawn).sum())
    assert draws > 0 and wins > 0
    for bad in (2.0, "-0.5", True):
        with pytest.raises(BadArgumentError, match="draw_reward"):
            SeatedBatch(spec, 2, draw_reward=bad)
