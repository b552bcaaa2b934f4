"""``[bc] init = true`` (``train.bc.start_from_policy``): a fresh network set to a policy file's weights plays as that
file does, instance head included, also when the file's head reads fewer block entries (a ported policy)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.core.errors import BadArgumentError
from cardenvs.testing import recorded_observations

pytest.importorskip("sb3_contrib")

GAME = "simulfight"  # an instance head and a card embedding


def _model(seed: int, net_arch=(16,)):
    from sb3_contrib import MaskablePPO

    from cardenvs.train.features import card_embedding_kwargs
    from cardenvs.train.instance_head import InstanceHeadPolicy, instance_head_kwargs

    embedding = card_embedding_kwargs(GAME, 4)
    env = cardenvs.make_vec(GAME, 4, opponent="random", seed=0)
    return MaskablePPO(InstanceHeadPolicy, env, n_steps=16, batch_size=32, n_epochs=1, seed=seed, device="cpu",
                       policy_kwargs={"net_arch": list(net_arch), **embedding,
                                      **instance_head_kwargs(GAME, 8, embedding)})


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    from cardenvs.agents.policy import export

    m = _model(1)
    m.learn(64)  # off the initial weights
    return export(m, tmp_path_factory.mktemp("init") / "p.npz", GAME)


def _torch_logits(model, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    import torch as th

    with th.no_grad():
        dist = model.policy.get_distribution(th.as_tensor(obs.astype(np.float32)), action_masks=mask)
        return dist.distribution.logits.cpu().numpy()


def _numpy_logits(path: Path, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    from cardenvs.agents.policy import load_npz

    z = load_npz(path, game=GAME).logits(obs).astype(np.float64)
    z[mask == 0] = -np.inf
    return z - np.logaddexp.reduce(z, axis=1, keepdims=True)


def test_a_fresh_network_started_from_a_file_plays_as_the_file(exported: Path) -> None:
    from cardenvs.train.bc import start_from_policy

    obs, mask = recorded_observations(GAME, 6, 30)
    fresh = _model(7)
    before = _torch_logits(fresh, obs, mask)
    start_from_policy(fresh, str(exported))
    after = _torch_logits(fresh, obs, mask)
    want = _numpy_logits(exported, obs, mask)
    legal = mask != 0
    assert not np.allclose(before[legal], want[legal], atol=1e-2)
    np.testing.assert_allclose(after[legal], want[legal], atol=2e-2)  # float16 weights in the file
    assert (after.argmax(axis=1) == want.argmax(axis=1)).mean() > 0.98


def test_an_instance_head_reading_fewer_entries_gets_zero_weight_for_the_rest(exported: Path, tmp_path: Path) -> None:
    """A ported file's head reads the blocks' old entries only: started from it, the run's head (which reads every
    entry) gives the new entries zero weight and plays as the file."""
    from cardenvs.train.bc import start_from_policy

    with np.load(exported) as data:
        arrays = {k: data[k] for k in data.files}
    drop = 3  # the file's head forgets the 4th plain entry of every block, as a head of an older layout would
    for k in range(4):
        rest = arrays[f"inst{k}_rest_pos"]
        arrays[f"inst{k}_rest_pos"] = np.delete(rest, drop, axis=1)
        arrays[f"inst{k}_block_w"] = np.delete(arrays[f"inst{k}_block_w"], drop, axis=0)
    narrow = tmp_path / "narrow.npz"
    np.savez_compressed(narrow, **arrays)
    obs, mask = recorded_observations(GAME, 6, 30)
    fresh = _model(8)
    start_from_policy(fresh, str(narrow))
    legal = mask != 0
    np.testing.assert_allclose(_torch_logits(fresh, obs, mask)[legal], _numpy_logits(narrow, obs, mask)[legal],
                               atol=2e-2)
    assert not fresh.policy.action_net.block[0].weight[:, drop].any()


def test_a_file_of_another_width_is_refused_with_the_shapes(exported: Path) -> None:
    from cardenvs.train.bc import start_from_policy

    with pytest.raises(BadArgumentError, match="hidden layer 0"):
        start_from_policy(_model(9, net_arch=(32,)), str(exported))


def test_init_needs_a_policy_file_teacher() -> None:
    from cardenvs.train.bc import check_settings
    from cardenvs.train.config import DEFAULTS

    base = dict(DEFAULTS["bc"])
    check_settings({**base, "init": True, "teacher": "ppo:x.npz"})
    with pytest.raises(BadArgumentError, match="init"):
        check_settings({**base, "init": True, "teacher": "heuristic"})
    with pytest.raises(BadArgumentError, match="init"):
        check_settings({**base, "init": "yes"})


def test_cloning_after_init_fits_the_value_and_leaves_the_policy_exact(exported: Path) -> None:
    """With ``[bc] init`` the cloning rounds fit only the value's own parameters: the policy's logits stay the file's
    to the last bit (the card embedding, shared with the critic, is not moved by the value loss) and the value moves."""
    import torch as th

    from cardenvs.train.bc import clone, record, start_from_policy

    model = _model(11)
    start_from_policy(model, str(exported))
    obs, mask = recorded_observations(GAME, 6, 30)
    before = _torch_logits(model, obs, mask)
    with th.no_grad():
        v0 = model.policy.predict_values(th.as_tensor(obs.astype(np.float32))).numpy().copy()
    demos = record(GAME, 16, seed=3, teacher=f"ppo:{exported}", batch_games=16)
    fit = clone(model, demos, epochs=2, batch_size=64, learning_rate=1e-2, value_only=True)
    np.testing.assert_array_equal(_torch_logits(model, obs, mask), before)
    with th.no_grad():
        v1 = model.policy.predict_values(th.as_tensor(obs.astype(np.float32))).numpy()
    assert not np.allclose(v0, v1) and fit["agreement"] > 0.95
