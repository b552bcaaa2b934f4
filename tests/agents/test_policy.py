"""agents.policy: a saved MaskablePPO model as a batched agent, cached by path, usable through make_agent."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.agents import make_agent
from cardenvs.agents import policy as policy_mod
from cardenvs.core.errors import BadArgumentError
from cardenvs.train.evaluate import play_match

GAME = "levelneo" if "levelneo" in cardenvs.available_games() else cardenvs.available_games()[0]


@pytest.fixture(scope="module")
def saved_model(tmp_path_factory) -> Path:
    from sb3_contrib import MaskablePPO

    env = cardenvs.make_vec(GAME, 4, opponent="random", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    model.learn(64)
    path = tmp_path_factory.mktemp("policy") / "tiny.zip"
    model.save(path)
    return path


def test_load_wraps_a_model_and_caches_it(saved_model: Path) -> None:
    policy_mod.clear_cache()
    a = policy_mod.load(saved_model, game=GAME)
    b = make_agent(GAME, f"ppo:{saved_model}")
    assert a.model is b.model  # the second load came from the cache, not the disk
    assert policy_mod.load(str(saved_model)[:-4], game=GAME).model is a.model  # "name" means "name.zip"


def test_policy_agent_returns_legal_actions(saved_model: Path) -> None:
    agent = policy_mod.load(saved_model, game=GAME)
    batch = cardenvs.core.batch.BatchGame(GAME, 8, seed=1)
    who = batch.to_act.copy()
    mask = batch.legal_mask(who)
    actions = agent.act(batch.observe(who), mask, batch.states, who)
    assert actions.shape == (8,) and actions.dtype == np.int32
    assert np.all(mask[np.arange(8), actions] == 1)


def test_policy_plays_a_match_and_serves_as_vec_env_opponent(saved_model: Path) -> None:
    res = play_match(GAME, f"ppo:{saved_model}", "random", games=20, seed=0)
    assert res.games == 20
    env = cardenvs.make_vec(GAME, 4, opponent=f"ppo:{saved_model}", seed=0)
    env.reset()
    for _ in range(5):
        masks = env.action_masks()
        env.step_async(np.argmax(masks, axis=1))
        env.step_wait()


def test_load_rejects_a_model_of_another_game(saved_model: Path) -> None:
    others = [g for g in cardenvs.available_games() if g != GAME]
    if not others:
        pytest.skip("only one game registered")
    with pytest.raises(BadArgumentError, match="trained on observations"):
        policy_mod.load(saved_model, game=others[0])


def test_load_missing_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(BadArgumentError, match="no saved policy"):
        policy_mod.load(tmp_path / "nope.zip")
