"""agents.policy: a saved MaskablePPO model as a batched agent, cached by path, usable through make_agent; the shipped
``.npz`` format (export, numpy forward pass equal to torch's, loader checks) and ``make_agent(game, "ppo")``."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.agents import make_agent
from cardenvs.agents import policy as policy_mod
from cardenvs.core.errors import BadArgumentError
from cardenvs.core.threads import PARALLEL_MIN_ROWS
from cardenvs.testing import recorded_observations
from cardenvs.train.evaluate import play_match

GAME = "heartbreak"  # any game; one whose kernels other tests keep warm


def _scaled() -> dict:
    """The features extractor that turns a compact observation into its float view (train/features.py)."""
    from cardenvs.train.features import card_embedding_kwargs

    return card_embedding_kwargs(GAME, 0)


@pytest.fixture(scope="module")
def saved_model(tmp_path_factory) -> Path:
    from sb3_contrib import MaskablePPO

    env = cardenvs.make_vec(GAME, 4, opponent="random", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16, 16], **_scaled()})
    model.learn(256)  # a few hundred steps: the weights move away from their initial values
    import torch

    with torch.no_grad():  # biases start at 0 and barely move in 256 steps: give them values a forward pass must add
        gen = torch.Generator().manual_seed(0)
        for name, param in model.policy.named_parameters():
            if name.endswith("bias"):
                param.add_(0.2 * torch.randn(param.shape, generator=gen))
    path = tmp_path_factory.mktemp("policy") / "tiny.zip"
    model.save(path)
    policy_mod.trust_pickle_file(path)  # this process wrote it: SB3 zips load only when trusted (issue 43)
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


# ----- the shipped format ------------------------------------------------------------------------------------------
def _recorded_observations(n_games: int = 16, steps: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of real positions: random play, recording the player to act's view each step."""
    return recorded_observations(GAME, n_games, steps)


@pytest.fixture(scope="module")
def exported(saved_model: Path, tmp_path_factory) -> Path:
    return policy_mod.export(saved_model, tmp_path_factory.mktemp("npz") / f"{GAME}.npz", GAME,
                             config={"ppo": {"net_arch": [16, 16]}}, seed=0)


def test_numpy_forward_pass_equals_the_torch_policy(saved_model: Path, exported: Path, two_numba_threads) -> None:
    import torch

    obs, masks = _recorded_observations(40, 12)
    # enough rows that the first layer and the dense layers run as row slices on the batch core's threads
    assert len(obs) >= PARALLEL_MIN_ROWS
    model = policy_mod.load_model(saved_model)
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks.astype(bool))
        want = dist.distribution.probs.numpy()
    agent = policy_mod.load_npz(exported, game=GAME)
    got = agent.probs(obs, masks)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
    assert np.all(got[masks == 0] == 0)
    torch_actions, _ = model.predict(obs, action_masks=masks.astype(bool), deterministic=True)
    assert np.array_equal(agent.act(obs, masks), np.asarray(torch_actions))


def test_float16_weights_stay_close_to_the_torch_policy(saved_model: Path, tmp_path: Path) -> None:
    import torch

    obs, masks = _recorded_observations(8, 8)
    model = policy_mod.load_model(saved_model)
    with torch.no_grad():
        want = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks.astype(bool)).distribution.probs
    half = policy_mod.export(saved_model, tmp_path / "half.npz", GAME, weights_dtype="float16")
    full = policy_mod.export(saved_model, tmp_path / "full.npz", GAME)
    assert half.stat().st_size < 0.7 * full.stat().st_size
    got = policy_mod.load_npz(half, game=GAME).probs(obs, masks)
    np.testing.assert_allclose(got, want.numpy(), atol=5e-3)


def test_export_records_the_metadata(exported: Path) -> None:
    meta, hidden, _, embed, _ = policy_mod.read_npz(exported)
    assert embed is None and meta["card_embedding"] == 0
    spec = cardenvs.get_game(GAME)
    from cardenvs.core.registry import RULES_VERSIONS

    assert meta["game"] == GAME and meta["rules_version"] == RULES_VERSIONS[GAME]
    assert meta["obs_dim"] == spec.obs_dim and meta["num_actions"] == spec.num_actions
    assert meta["obs_digest"] == policy_mod.observation_digest(spec)
    assert meta["steps"] >= 256 and meta["seed"] == 0 and meta["config"] == {"ppo": {"net_arch": [16, 16]}}
    assert meta["date"] and "commit" in meta
    assert [w.shape[1] for w, _ in hidden] == [16, 16]
    with np.load(exported, allow_pickle=False) as data:  # policy only: no value network, no optimizer state
        assert not any(k.startswith("vf") or "value" in k for k in data.files)


def test_sampling_and_argmax_pick_legal_actions(exported: Path) -> None:
    obs, masks = _recorded_observations(8, 6)
    for deterministic in (True, False):
        agent = policy_mod.load_npz(exported, game=GAME, seed=1, deterministic=deterministic)
        acts = agent.act(obs, masks)
        assert acts.dtype == np.int32 and np.all(masks[np.arange(len(acts)), acts] != 0)
    a = policy_mod.load_npz(exported, game=GAME, seed=5, deterministic=False).act(obs, masks)
    b = policy_mod.load_npz(exported, game=GAME, seed=5, deterministic=False).act(obs, masks)
    assert np.array_equal(a, b)  # a seeded sampler is reproducible


def test_act_rows_reads_the_rows_in_place(exported: Path) -> None:
    """``act_rows(obs, mask, rows)`` (what tournaments call for their live games) = ``act(obs[rows], mask[rows])``,
    without copying; bad row indices are one clear error."""
    obs, masks = _recorded_observations(8, 6)
    rows = np.array([5, 0, 3, len(obs) - 1, 3])
    for deterministic in (True, False):
        a = policy_mod.load_npz(exported, game=GAME, seed=2, deterministic=deterministic)
        b = policy_mod.load_npz(exported, game=GAME, seed=2, deterministic=deterministic)
        assert np.array_equal(a.act_rows(obs, masks, rows), b.act(obs[rows], masks[rows]))
    agent = policy_mod.load_npz(exported, game=GAME)
    np.testing.assert_array_equal(agent.logits(obs, rows), agent.logits(obs[rows]))
    for bad in (np.array([len(obs)]), np.array([-1]), np.array([0.5]), np.zeros((1, 1), np.int64)):
        with pytest.raises(BadArgumentError, match="rows must be integer indices"):
            agent.act_rows(obs, masks, bad)


def _picks_with_the_network_on_every_row(agent, obs: np.ndarray, masks: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """What ``act_rows`` picked before forced decisions skipped the network: logits of every row, then the masked
    argmax or one uniform draw per row."""
    legal = masks[rows] != 0
    if agent.deterministic:
        z = agent.logits(obs, rows, legal)
        z[~legal] = -np.inf
        return np.argmax(z, axis=1)
    p = agent.probs(obs[rows], legal)
    u = agent.rng.random((len(rows), 1))
    cdf = np.cumsum(p, axis=1)
    return np.minimum((cdf < u * cdf[:, -1:]).sum(axis=1), p.shape[1] - 1)


def test_a_decision_with_one_legal_action_skips_the_network_and_changes_no_pick(exported: Path,
                                                                                   monkeypatch) -> None:
    """Rows with one legal action take it without a forward pass; the other rows, and a sampler's stream of draws,
    are as if every row had gone through the network."""
    obs, masks = _recorded_observations(16, 6)
    masks = masks.copy()
    forced = np.arange(0, len(masks), 3)
    for i in forced:  # one legal action left: the last of the row's legal ones
        keep = np.flatnonzero(masks[i])[-1]
        masks[i] = 0
        masks[i, keep] = 1
    forced = np.flatnonzero(np.count_nonzero(masks, axis=1) == 1)  # these and the ones recorded so
    assert 0 < len(forced) < len(masks) - 8
    rows = np.arange(len(obs))[::-1].copy()
    for deterministic in (True, False):
        agent = policy_mod.load_npz(exported, game=GAME, seed=3, deterministic=deterministic)
        twin = policy_mod.load_npz(exported, game=GAME, seed=3, deterministic=deterministic)
        seen = []
        real = policy_mod.NumpyPolicy._logits
        monkeypatch.setattr(policy_mod.NumpyPolicy, "_logits",
                            lambda self, o, r, legal: (seen.append(len(legal)), real(self, o, r, legal))[1])
        got = agent.act_rows(obs, masks, rows)
        monkeypatch.setattr(policy_mod.NumpyPolicy, "_logits", real)
        assert seen == [len(rows) - len(forced)]  # one pass, over the rows with a real choice only
        np.testing.assert_array_equal(got, _picks_with_the_network_on_every_row(twin, obs, masks, rows))
        np.testing.assert_array_equal(got[np.isin(rows, forced)], np.argmax(masks[rows][np.isin(rows, forced)], 1))
        # the next call draws from the same point of the stream as the twin's
        np.testing.assert_array_equal(agent.act_rows(obs, masks, rows),
                                      _picks_with_the_network_on_every_row(twin, obs, masks, rows))
    with pytest.raises(BadArgumentError, match="mask must be"):
        agent.act_rows(obs, masks[:, :-1], rows)


def test_the_policy_tanh_is_within_one_ulp_of_the_exact_tanh() -> None:
    """``tanh_rows`` (the hidden layers' activation): every float32 value within 1 ulp of tanh computed in float64
    and rounded; NaN stays NaN, +-inf and large values give +-1, signs and zeros kept."""
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(-12, 12, 400_000), rng.normal(0, 1, 200_000),
                        np.sign(rng.uniform(-1, 1, 100_000)) * 10 ** rng.uniform(-30, 1, 100_000),
                        np.linspace(8.9, 9.1, 20_000), -np.linspace(8.9, 9.1, 20_000)]).astype(np.float32)
    y = x.reshape(-1, 80).copy()
    policy_mod.tanh_rows(y)
    exact = np.tanh(x.astype(np.float64))
    ulp = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
    err = np.abs(y.ravel().astype(np.float64) - exact) / ulp
    assert err.max() <= 1.0, (err.max(), x[err.argmax()])
    special = np.array([[np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-38, -1e-38, 3e38]], dtype=np.float32)
    got = special.copy()
    policy_mod.tanh_rows(got)
    assert np.isnan(got[0, 0])
    np.testing.assert_array_max_ulp(got[0, 1:], np.array([1.0, -1.0, 0.0, -0.0, 1e-38, -1e-38, 1.0], np.float32), 1)
    assert np.signbit(got[0, 4]) and np.signbit(got[0, 6])


def _rewrite_meta(src: Path, dst: Path, **changes) -> Path:
    import json

    with np.load(src, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta.update(changes)
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(dst, **arrays)
    return dst


@pytest.mark.parametrize("change, message", [
    ({"rules_version": 99}, "rules version 99"),
    ({"rules_version": "1"}, "rules version 1"),
    ({"obs_digest": "0000"}, "another .* observation layout"),
    ({"obs_dim": 3}, "another .* observation layout"),
    ({"num_actions": 2}, "has 2 actions"),
    ({"game": "nosuchgame"}, "policy for 'nosuchgame'"),
])
def test_loader_refuses_a_stale_or_foreign_policy(exported: Path, tmp_path: Path, change, message) -> None:
    bad = _rewrite_meta(exported, tmp_path / "bad.npz", **change)
    with pytest.raises(BadArgumentError, match=message):
        policy_mod.load_npz(bad, game=GAME)
    with pytest.raises(BadArgumentError, match=message):
        make_agent(GAME, f"ppo:{bad}")


def _as_trained_before_the_compact_observation(src: Path, dst: Path, digest: str) -> Path:
    """``src`` as a policy file written before issue 41 would be: no divisors or dtype (it read float32 rows), the
    observation digest of that time (field names and shapes, card ids, actions)."""
    import json

    with np.load(src, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    del arrays["obs_divisors"]
    meta = json.loads(str(arrays["meta"]))
    meta.pop("obs_dtype", None)
    meta["obs_digest"] = digest
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(dst, **arrays)
    return dst


def test_a_policy_trained_on_the_float32_observation_reads_the_compact_rows_float_view(exported: Path,
                                                                                      tmp_path: Path) -> None:
    """Issue 41: the compact observation's float view equals the float32 observation value for value, so a policy
    trained before the change (divinecross's shipped file) plays the same on the stored rows once the loader folds
    the divisors in, where its fields are the same; a file of other fields is still refused."""
    spec = cardenvs.get_game(GAME)
    assert spec.obs_dtype != np.float32
    legacy = _as_trained_before_the_compact_observation(exported, tmp_path / "legacy.npz",
                                                        policy_mod.float_view_digest(spec))
    obs, masks = _recorded_observations()
    now, before = policy_mod.load_npz(exported, game=GAME), policy_mod.load_npz(legacy, game=GAME)
    assert before.divisors is not None and before.obs_dtype == spec.obs_dtype
    np.testing.assert_allclose(before.probs(obs, masks), now.probs(obs, masks), rtol=1e-5, atol=1e-7)
    assert np.array_equal(before.act(obs, masks), now.act(obs, masks))
    other = _as_trained_before_the_compact_observation(exported, tmp_path / "other.npz", "0123456789abcdef")
    with pytest.raises(BadArgumentError, match="another .* observation layout"):
        policy_mod.load_npz(other, game=GAME)


def test_a_policy_of_older_rules_ships_again_only_with_a_bars_summary_that_meets_every_bar(exported: Path,
                                                                                          tmp_path: Path) -> None:
    """Issue 38: a policy trained on an older rules version of the same fields (divinecross's) becomes the default
    pilot again only by measuring it on today's rules (train/bars.py --ship): ``certify`` refuses a summary with a
    missed bar or of another game, and the file it writes loads as a current policy, its history in the metadata."""
    from cardenvs.agents.policy import certify, read_npz

    spec = cardenvs.get_game(GAME)
    older = _as_trained_before_the_compact_observation(exported, tmp_path / "older.npz",
                                                       policy_mod.float_view_digest(spec))
    older = _rewrite_meta(older, tmp_path / "older_rules.npz", rules_version=0)
    with pytest.raises(BadArgumentError, match="rules version 0"):
        policy_mod.load_npz(older, game=GAME)
    checks = [{"opponent": "heuristic", "check": "test", "win_rate": 0.7, "ci95": [0.68, 0.72], "passed": True}]
    for bad in ({"game": spec.name, "passed": False, "checks": checks}, {"game": "other", "passed": True}):
        with pytest.raises(BadArgumentError, match="every bar"):
            certify(older, GAME, tmp_path / "shipped.npz", bad)
    assert not (tmp_path / "shipped.npz").exists()
    out = certify(older, GAME, tmp_path / "shipped.npz", {"game": spec.name, "passed": True, "checks": checks,
                                                         "games": 2000})
    agent = policy_mod.load_npz(out, game=GAME)
    meta = read_npz(out)[0]
    assert meta["certified"]["trained_on"]["rules_version"] == 0 and meta["certified"]["checks"][0]["win_rate"] == 0.7
    from cardenvs.agents import describe_pilot

    assert "trained on rules version 0, its bars met on version" in describe_pilot(GAME, f"ppo:{out}")
    obs, masks = _recorded_observations()
    assert np.array_equal(agent.act(obs, masks), policy_mod.load_npz(exported, game=GAME).act(obs, masks))


def test_ppo_by_name_loads_the_shipped_policy(exported: Path, monkeypatch) -> None:
    monkeypatch.setenv(policy_mod.POLICY_DIR_ENV, str(exported.parent))
    agent = make_agent(GAME, "ppo", seed=0)
    assert isinstance(agent, policy_mod.NumpyPolicy) and agent.name == "ppo"
    from cardenvs.agents import default_pilot

    assert default_pilot(GAME) == "ppo"
    assert isinstance(make_agent(GAME, f"ppo:{exported}"), policy_mod.NumpyPolicy)


def test_ppo_by_name_without_a_shipped_policy_says_how_to_train_one(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(policy_mod, "policy_dirs", lambda: [tmp_path])
    with pytest.raises(BadArgumentError, match=f"no shipped policy for {GAME}; train one with `cardenvs train {GAME}`"):
        make_agent(GAME, "ppo")
    from cardenvs.agents import default_pilot

    assert default_pilot(GAME) == "heuristic"


def test_eval_defaults_to_the_strongest_pilot_and_names_it(exported: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    """`cardenvs eval GAME` with no --agents: the shipped policy where one ships, else the heuristic; first line."""
    from cardenvs.cli import main

    argv = ["eval", GAME, "--games", "2", "--bootstrap", "0", "--no-cards", "--json", str(tmp_path / "r.json")]
    monkeypatch.setenv(policy_mod.POLICY_DIR_ENV, str(exported.parent))
    assert main(argv) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{GAME}: pilot: ppo (shipped policy") and "default: the strongest available" in first
    monkeypatch.setattr(policy_mod, "policy_dirs", lambda: [tmp_path])
    assert main(argv) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{GAME}: pilot: heuristic (rule-based heuristic, default")
    assert main(argv + ["--agents", "random"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"{GAME}: pilot: random (uniformly random legal actions)"


def test_export_command_line(saved_model: Path, tmp_path: Path) -> None:
    out = policy_mod.main([str(saved_model), GAME, str(tmp_path / "cli.npz"), "--float16", "--seed", "7"])
    meta = policy_mod.read_npz(out)[0]
    assert meta["weights_dtype"] == "float16" and meta["seed"] == 7 and meta["game"] == GAME


def test_a_stale_shipped_policy_falls_back_to_the_heuristic_and_says_why(exported: Path, tmp_path: Path,
                                                                         monkeypatch) -> None:
    from cardenvs.agents import default_pilot, describe_pilot

    _rewrite_meta(exported, tmp_path / f"{GAME}.npz", rules_version=0)
    monkeypatch.setenv(policy_mod.POLICY_DIR_ENV, str(tmp_path))
    assert default_pilot(GAME) == "heuristic"
    assert "the shipped policy is not used" in describe_pilot(GAME, "heuristic")
    with pytest.raises(BadArgumentError, match="rules version 0"):
        policy_mod.load_shipped(GAME)


def test_a_policy_of_older_rules_plays_only_when_named_and_says_so(exported: Path, tmp_path: Path,
                                                                   monkeypatch) -> None:
    """Same observations and actions, older rules version: `ppo` / `ppo:FILE` asked for by name still play it (it
    reads every observation right), the pilot line says its strength predates the rules, and the default pilot does
    not take it (checked failing with older_rules admitted in default_pilot)."""
    from cardenvs.agents import default_pilot, describe_pilot
    from cardenvs.core.registry import RULES_VERSIONS

    older = RULES_VERSIONS[GAME] - 1
    stale = _rewrite_meta(exported, tmp_path / f"{GAME}.npz", rules_version=older)
    monkeypatch.setenv(policy_mod.POLICY_DIR_ENV, str(tmp_path))
    assert default_pilot(GAME) == "heuristic"
    for kind in ("ppo", f"ppo:{stale}"):
        assert isinstance(make_agent(GAME, kind, seed=0), policy_mod.NumpyPolicy)
        assert f"trained on {GAME} rules version {older} (now {RULES_VERSIONS[GAME]}" in describe_pilot(GAME, kind)
    with pytest.raises(BadArgumentError, match=f"rules version {older}"):
        policy_mod.load_npz(stale, game=GAME)  # the strict check stays the default of the loader


def test_a_distilled_policy_is_described_by_its_teachers_training(exported: Path, tmp_path: Path) -> None:
    """A policy fitted to a trained teacher ([bc] teacher) did 0 PPO steps of its own that matter: the report names
    its network, the teacher's network and training steps (checked failing with the distilled branch removed)."""
    from cardenvs.agents import describe_pilot

    meta = policy_mod.read_npz(exported)[0]
    plain = describe_pilot(GAME, f"ppo:{exported}")
    assert f"{int(meta['steps']):,} training steps" in plain and "distilled" not in plain
    teacher = {"name": "ppo", "steps": 8_003_584, "commit": "b081380c73", "hidden": [256, 256]}
    student = _rewrite_meta(exported, tmp_path / "student.npz", hidden=[64, 64],
                            warm_start={"agreement": 0.98, "teacher": teacher})
    text = describe_pilot(GAME, f"ppo:{student}")
    assert "a 64x64 network distilled from a 256x256 policy of 8,003,584 training steps, seed" in text
    assert text.count("commit ") == 1  # the pilot line names one short hash, the policy's own


def test_card_embedding_policy_exports_and_matches_torch(tmp_path: Path) -> None:
    """A policy with learned card-identity embeddings (train/features.py): the numpy forward pass looks the ids up in
    the exported table and gives the torch policy's probabilities."""
    import torch
    from sb3_contrib import MaskablePPO

    from cardenvs.train.features import card_embedding_kwargs

    kwargs = card_embedding_kwargs(GAME, 4)
    if not kwargs:
        pytest.skip(f"{GAME}'s observation has no card ids yet")
    env = cardenvs.make_vec(GAME, 4, opponent="random", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16], **kwargs})
    model.learn(128)
    obs, masks = _recorded_observations(8, 8)
    assert np.any(obs[:, kwargs["features_extractor_kwargs"]["card_idx"]] > 0)  # real ids in the recorded positions
    with torch.no_grad():
        want = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks.astype(bool)).distribution.probs
    path = policy_mod.export(model, tmp_path / "emb.npz", GAME)
    agent = policy_mod.load_npz(path, game=GAME)
    assert agent.meta["card_embedding"] == 4 and agent.obs_dim == cardenvs.get_game(GAME).obs_dim
    np.testing.assert_allclose(agent.probs(obs, masks), want.numpy(), rtol=1e-4, atol=1e-6)
    model.save(tmp_path / "emb.zip")  # and the zip reloads with its extractor (ppo:PATH.zip keeps working)
    policy_mod.trust_pickle_file(tmp_path / "emb.zip")
    policy_mod.clear_cache()
    assert policy_mod.load(tmp_path / "emb.zip", game=GAME).act(obs, masks).shape == (len(obs),)


def test_core_default_pilot_follows_the_registered_factory() -> None:
    """The core asks the agents package for the default pilot; a project's own factory gets "random" (as before)."""
    from cardenvs.core import agents as core_agents

    assert core_agents.default_pilot(GAME) in ("ppo", "heuristic")
    core_agents.register_agent_factory(lambda game, kind, seed=None: None)
    try:
        assert core_agents.default_pilot(GAME) == "random" and core_agents.describe_pilot(GAME, "random") == ""
    finally:
        core_agents.register_agent_factory(None)


def _skip_if_levelneo_teacher_is_stale() -> None:
    """The levelneo teacher and student were trained on the observation before issue 38 step 1 (1440 floats):
    they no longer load until both are retrained and distilled again."""
    meta = policy_mod.read_npz(Path(policy_mod.__file__).resolve().parents[1] / "agents/policies/teachers/levelneo.npz")[0]
    if meta["obs_digest"] != policy_mod.observation_digest(cardenvs.get_game("levelneo")):
        pytest.skip("the levelneo teacher predates levelneo's observation layout (issue 38 step 1): retrain it "
                    "(cardenvs train levelneo) and distil the shipped student again (train/configs/levelneo_distill.toml)")


def test_shipped_levelneo_pilot_is_the_student_of_its_distillation_config() -> None:
    """levelneo ships a 64x64 student (train/configs/levelneo_distill.toml) of the 256x256 teacher kept in
    agents/policies/teachers/: the config's teacher file is in the repository, and the shipped file's network and
    recorded teacher are that config's and that file's (a student of another teacher, or a teacher shipped in its
    place, fails here)."""
    from cardenvs.train.config import CONFIG_DIR, load_config

    repo = Path(policy_mod.__file__).resolve().parents[1]
    _skip_if_levelneo_teacher_is_stale()
    cfg = load_config("levelneo", CONFIG_DIR / "levelneo_distill.toml")
    spec = cfg["bc"]["teacher"]
    assert spec.startswith("ppo:")
    teacher_meta = policy_mod.read_npz(repo / spec[4:])[0]
    student_meta = policy_mod.read_npz(repo / "agents" / "policies" / "levelneo.npz")[0]
    assert student_meta["hidden"] == cfg["ppo"]["net_arch"]
    recorded = student_meta["warm_start"]["teacher"]
    assert recorded["name"] == spec
    assert (recorded["steps"], recorded["commit"], recorded["hidden"]) == (
        teacher_meta["steps"], teacher_meta["commit"], teacher_meta["hidden"])


def test_a_relative_policy_path_is_found_from_the_repository_root_too(tmp_path: Path, monkeypatch) -> None:
    """The shipped configs name files from the repository root (``[bc] teacher = "ppo:agents/policies/teachers/
    levelneo.npz"``): from another folder the same spelling still loads, and a missing file's error says where it
    looked."""
    _skip_if_levelneo_teacher_is_stale()
    monkeypatch.chdir(tmp_path)
    agent = make_agent("levelneo", "ppo:agents/policies/teachers/levelneo.npz")
    assert agent.meta["game"] == "levelneo"
    with pytest.raises(BadArgumentError, match=f"no saved policy at nowhere/x.npz \\(looked in {tmp_path}"):
        make_agent("levelneo", "ppo:nowhere/x.npz")


def test_the_forward_pass_runs_numpy_blas_on_one_thread_and_restores_it(exported: Path, monkeypatch) -> None:
    """OpenBLAS's own threads slowed a pilot 1.5x (docs/benchmarks): ``logits`` runs its products with numpy's BLAS on
    one thread, and leaves the thread count as it found it, also when the pass raises."""
    from threadpoolctl import threadpool_info, threadpool_limits

    def blas_threads() -> list[int]:
        return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]

    if not blas_threads():
        pytest.skip("numpy found no BLAS library that threadpoolctl controls")
    obs, masks = _recorded_observations(8, 6)
    agent = policy_mod.load_npz(exported, game=GAME)
    seen: list[list[int]] = []
    inner = agent._logits
    monkeypatch.setattr(agent, "_logits", lambda *a: (seen.append(blas_threads()), inner(*a))[1])
    with threadpool_limits(limits=2, user_api="blas"):
        agent.logits(obs)
        assert seen == [[1] * len(blas_threads())]
        assert set(blas_threads()) == {2}
        with pytest.raises(BadArgumentError):
            agent.logits(obs[:, :3])
        assert set(blas_threads()) == {2}


def test_search_pilot_by_name_rolls_out_the_default_pilot_and_plays_legal_moves() -> None:
    """``search[:N]`` (agents/search.py): N rollouts per legal action, the game's default pilot on both sides; a bad
    N is one clear error; its actions are legal and the states it is handed stay as they were."""
    from cardenvs.agents import default_pilot, describe_pilot, make_agent
    from cardenvs.agents.search import DEFAULT_ROLLOUTS, SearchAgent
    from cardenvs.core.batch import BatchGame

    agent = make_agent("divinecross", "search:3", seed=2)
    assert isinstance(agent, SearchAgent) and agent.rollouts == 3
    assert make_agent("divinecross", "search").rollouts == DEFAULT_ROLLOUTS
    assert type(agent.pilot) is type(make_agent("divinecross", default_pilot("divinecross")))
    assert "3 re-dealt rollouts" in describe_pilot("divinecross", "search:3")
    for bad in ("search:0", "search:x", "search:-2", "search:5000"):
        with pytest.raises(BadArgumentError, match="search:N takes a whole number"):
            make_agent("divinecross", bad)
    batch = BatchGame("divinecross", 6, seed=5)
    states = batch.states.copy()
    mask = batch.legal_mask()
    acts = agent.act(batch.observe(), mask, batch.states, batch.to_act.copy())
    assert np.all(mask[np.arange(6), acts] == 1)
    assert np.array_equal(batch.states, states)
