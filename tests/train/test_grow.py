"""``train.grow``: a saved MaskablePPO model moved onto a longer observation and wider layers plays exactly as before."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

GAME = "levelneo"
APPENDED = 32  # the "old" model sees the observation without its last 32 values


def _old_model(tmp_path: Path, net: list[int]) -> Path:
    import gymnasium as gym
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from cardenvs.core.batch import get_spec
    from cardenvs.train.features import card_embedding_kwargs

    spec = get_spec(GAME)

    class Old(gym.Env):
        observation_space = gym.spaces.Box(-np.inf, np.inf, (spec.obs_dim - APPENDED,), np.float32)
        action_space = gym.spaces.Discrete(spec.num_actions)

        def reset(self, *, seed=None, options=None):
            return np.zeros(self.observation_space.shape, np.float32), {}

        def step(self, action):
            return np.zeros(self.observation_space.shape, np.float32), 0.0, True, False, {}

    kwargs = card_embedding_kwargs(GAME, 4)
    ext = kwargs["features_extractor_kwargs"]
    if "divisors" in ext:  # a compact observation (issue 41): the old model divided the old part as the new does
        ext["divisors"] = ext["divisors"][:spec.obs_dim - APPENDED]
    model = MaskablePPO("MlpPolicy", DummyVecEnv([Old]), seed=1, device="cpu", n_steps=8, batch_size=8,
                        policy_kwargs={"net_arch": {"pi": net, "vf": net}, **kwargs})
    path = tmp_path / "old.zip"
    model.save(str(path))
    from cardenvs.agents.policy import trust_pickle_file

    trust_pickle_file(path)  # this process wrote it: SB3 zips load only when trusted (issue 43)
    path.with_suffix(".json").write_text(json.dumps({"steps": 0, "config": {}, "lineage": []}))
    return path


def _outputs(model, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    import torch

    with torch.no_grad():
        t = torch.as_tensor(obs)
        return (model.policy.get_distribution(t).distribution.logits.numpy(),
                model.policy.predict_values(t).numpy())


@pytest.mark.parametrize("wider", [None, [24, 40]])
def test_grown_model_gives_the_old_outputs_whatever_the_new_values(tmp_path: Path, wider) -> None:
    """Appended observation values enter with zero weights and new units leave with zero weights: the grown
    model's logits and values equal the old model's on the old part of any observation (checked failing with the
    new inputs' weights left at their random init, and with new units' outgoing weights left random)."""
    from sb3_contrib import MaskablePPO

    from cardenvs.train.grow import grow

    old_path = _old_model(tmp_path, [16, 16])
    summary = grow(old_path, tmp_path / "new.zip", GAME, wider, seed=3)
    assert summary["obs"][1] - summary["obs"][0] == APPENDED
    old = MaskablePPO.load(str(old_path), device="cpu")
    new = MaskablePPO.load(str(tmp_path / "new.zip"), device="cpu")
    assert new.policy.mlp_extractor.policy_net[0].out_features == (wider or [16])[0]
    rng = np.random.default_rng(0)
    obs = rng.normal(size=(32, summary["obs"][1])).astype(np.float32)
    card_idx = new.policy_kwargs["features_extractor_kwargs"]["card_idx"]
    obs[:, card_idx] = rng.integers(0, 5, (32, len(card_idx)))
    logits_old, values_old = _outputs(old, obs[:, :-APPENDED])
    logits_new, values_new = _outputs(new, obs)
    np.testing.assert_allclose(logits_new, logits_old, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values_new, values_old, rtol=1e-5, atol=1e-5)
    # the appended values are live inputs: training can move their weights
    w = new.policy.mlp_extractor.policy_net[0].weight
    assert w.requires_grad and w.shape[1] == old.policy.mlp_extractor.policy_net[0].weight.shape[1] + APPENDED
    lineage = json.loads((tmp_path / "new.json").read_text())["lineage"]
    assert lineage[-1]["grown"]["net_arch"] == [[16, 16], wider or [16, 16]]


def test_grow_refuses_a_narrower_net_or_another_game(tmp_path: Path) -> None:
    from cardenvs.train.grow import GrowError, grow, main

    old_path = _old_model(tmp_path, [16, 16])
    with pytest.raises(GrowError, match="at least as wide"):
        grow(old_path, tmp_path / "x.zip", GAME, [8, 16])
    with pytest.raises(GrowError, match="positive whole numbers"):
        grow(old_path, tmp_path / "x.zip", GAME, [16, "32"])
    with pytest.raises(GrowError, match="actions"):
        grow(old_path, tmp_path / "x.zip", "divinecross")
    with pytest.raises(SystemExit) as exc:
        main([GAME, str(tmp_path / "missing.zip"), str(tmp_path / "x.zip")])
    assert exc.value.code == 2
    assert not (tmp_path / "x.zip").exists()


RESUME = """
[ppo]
n_steps = 32
batch_size = 256
n_epochs = 1
[train]
num_envs = 16
checkpoint_every = 100000
total_steps = 512
[opponents]
mix = { random = 1.0 }
[eval]
every = 100000
games = 10
opponents = ["random"]
"""


def test_resume_with_grow_trains_the_grown_model_and_without_it_is_one_clear_error(tmp_path: Path) -> None:
    """``[grow] enabled = true`` in a resumed run's config grows the model first (here onto the game's longer
    observation and a wider net) and trains it; resuming a model of a shorter observation without it is one
    ``BadArgumentError`` that names ``[grow]``, not SB3's traceback."""
    from sb3_contrib import MaskablePPO

    from cardenvs.core.errors import BadArgumentError
    from cardenvs.train.ppo import main

    old_path = _old_model(tmp_path, [16, 16])
    cfg = tmp_path / "resume.toml"
    cfg.write_text(RESUME)
    with pytest.raises(BadArgumentError, match=r"\[grow\]"):
        main([GAME, "--config", str(cfg), "--resume", str(old_path), "--out", str(tmp_path / "plain"), "-q",
              "--no-progress"])
    cfg.write_text(RESUME + "[grow]\nenabled = true\nnet_arch = [24, 24]\n")
    out = tmp_path / "grown-run"
    summary = main([GAME, "--config", str(cfg), "--resume", str(old_path), "--out", str(out), "-q", "--no-progress"])
    assert summary["steps"] >= 512
    model = MaskablePPO.load(summary["final_model"], device="cpu")
    assert model.policy.mlp_extractor.policy_net[0].out_features == 24
    lineage = json.loads((out / "run_state.json").read_text())["lineage"]
    assert any("grown" in entry for entry in lineage)
