"""``train.instance_head``: per-card actions scored from their card's observation block with shared weights
(``[ppo] instance_head``), the same head in the numpy forward pass, and ``GameSpec.action_obs_blocks``."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.core.batch import get_spec
from cardenvs.testing import recorded_observations

pytest.importorskip("sb3_contrib")

GAME = "simulfight"  # its play / use / ally / foe actions are numbered by deck instance


def _recorded(n_games: int = 8, steps: int = 40) -> tuple[np.ndarray, np.ndarray]:
    return recorded_observations(GAME, n_games, steps)


@pytest.fixture(scope="module")
def model():
    from sb3_contrib import MaskablePPO

    from cardenvs.train.features import card_embedding_kwargs
    from cardenvs.train.instance_head import InstanceHeadPolicy, instance_head_kwargs

    embedding = card_embedding_kwargs(GAME, 4)
    env = cardenvs.make_vec(GAME, 4, opponent="random", seed=0)
    m = MaskablePPO(InstanceHeadPolicy, env, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu",
                    policy_kwargs={"net_arch": [16], **embedding, **instance_head_kwargs(GAME, 8, embedding)})
    m.learn(128)  # the weights move off their initial values
    return m


def test_action_obs_blocks_name_the_card_each_action_concerns() -> None:
    """``SPEC.action_obs_blocks``: in random play, every legal ``play i`` is a card in hand at ``my_cards[i]``, every
    legal ``use i`` and ``ally i`` a unit in play there, every legal ``foe i`` an opposing unit at ``opp_cards[i]``
    (checked failing with ``use`` paired with ``opp_cards``)."""
    spec = get_spec(GAME)
    block = spec.obs_layout["my_cards"].shape[1]
    zone = {"play": "in_hand", "use": "in_play", "ally": "in_play", "foe": "in_play"}
    from cardenvs.games.simulfight.obs_layout import CARD

    obs, masks = _recorded(16, 120)
    seen = set()
    for action_field, obs_field in spec.action_obs_blocks:
        a0, n = spec.action_layout.offset(action_field), spec.action_layout[action_field].size
        blocks = obs[:, spec.obs_layout.offset(obs_field):][:, : n * block].reshape(len(obs), n, block)
        rows, inst = np.nonzero(masks[:, a0:a0 + n])
        assert np.all(blocks[rows, inst, CARD.offset("present")] == 1)
        assert np.all(blocks[rows, inst, CARD.offset(zone[action_field])] == 1), action_field
        if len(rows):
            seen.add(action_field)
    assert seen >= {"play", "use", "foe"}


@pytest.mark.parametrize("game, expect", [
    ("relics", {"hand", "reserve", "location", "pick", "target"}),
    ("heartbreak", {"choose_lead", "hand", "target"}),
])
def test_slot_numbered_action_obs_blocks_name_the_card_each_action_concerns(game: str, expect: set) -> None:
    """relics' and heartbreak's ``action_obs_blocks``: in random play every legal action of a range names a card
    present in block i of its field (every block opens with ``present`` / ``offered``): relics' ``hand i``,
    ``reserve j``, ``relic k``, ``location k``, ``pick j``, ``ability s`` at the own half ``grid[0]`` and ``target t``
    at the opposing half ``grid[1]``; heartbreak's ``choose_lead i`` (``lead_options``), ``hand i`` and ``target f``
    (``field[1]``). Checked failing with relics' ``target`` paired with ``grid[0]`` and heartbreak's with
    ``field[0]``."""
    from cardenvs.train.instance_head import instance_groups

    spec = get_spec(game)
    obs, masks = recorded_observations(game, 24, 150)
    seen = set()
    for g in instance_groups(game, spec.obs_card_ids):
        if g["action"] == "slot":  # a relics placement may name an empty slot
            continue
        rows, inst = np.nonzero(masks[:, g["a0"]:g["a0"] + g["n"]])
        block_start = np.minimum(g["rest_pos"][:, 0], g["id_pos"][:, 0])
        assert np.all(obs[rows, block_start[inst]] == 1), g["action"]
        if len(rows):
            seen.add(g["action"])
    assert seen >= expect, seen


def test_numpy_forward_pass_equals_the_torch_instance_head(model, tmp_path: Path) -> None:
    """The exported head (block, state and score weights; block positions) gives torch's probabilities and greedy
    actions on recorded observations (checked failing with the state term left out of the numpy head)."""
    import torch

    from cardenvs.agents import policy as policy_mod

    obs, masks = _recorded()
    with torch.no_grad():
        want = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks.astype(bool)).distribution.probs
    path = policy_mod.export(model, tmp_path / "inst.npz", GAME)
    agent = policy_mod.load_npz(path, game=GAME)
    assert agent.meta["instance_head"] == 8 and len(agent.instance) == 4
    np.testing.assert_allclose(agent.probs(obs, masks), want.numpy(), rtol=1e-4, atol=1e-6)
    rows = np.arange(1, len(obs), 3)
    np.testing.assert_allclose(agent.logits(obs, rows), agent.logits(obs[rows]), rtol=1e-6, atol=1e-6)
    torch_actions, _ = model.predict(obs, action_masks=masks.astype(bool), deterministic=True)
    assert np.array_equal(agent.act(obs, masks), np.asarray(torch_actions))
    # scoring only the legal actions (what act and probs do) gives the full head's logits on every legal action
    legal = masks != 0
    np.testing.assert_allclose(agent.logits(obs, None, legal)[legal], agent.logits(obs)[legal], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(agent.logits(obs, rows, legal[rows])[legal[rows]], agent.logits(obs[rows])[legal[rows]],
                               rtol=1e-6, atol=1e-6)


def test_a_card_scores_the_same_whatever_its_position(model) -> None:
    """Shared weights: with the position's summary ``h`` held, swapping the blocks of instances 2 and 7 swaps the
    logits of ``play 2`` and ``play 7`` and changes no other instance logit (checked failing with a per-position
    output added to the instance logits)."""
    import torch

    head = model.policy.action_net
    obs, _ = _recorded()
    with torch.no_grad():
        feats = model.policy.extract_features(torch.as_tensor(obs[:20]), model.policy.pi_features_extractor)
        h = model.policy.mlp_extractor.inner.forward_actor(feats)
        pos = head.pos0.numpy()  # play's blocks: [40, L] feature positions
        swapped = feats.clone()
        swapped[:, pos[2]], swapped[:, pos[7]] = feats[:, pos[7]], feats[:, pos[2]]
        before = head(torch.cat([h, feats], 1)).numpy()
        after = head(torch.cat([h, swapped], 1)).numpy()
    play = get_spec(GAME).action_layout.offset("play")
    np.testing.assert_allclose(after[:, play + 2], before[:, play + 7], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(after[:, play + 7], before[:, play + 2], rtol=1e-6, atol=1e-6)
    # use and ally read the same blocks (their logits move too); foe reads opp_cards and done reads h only
    layout = get_spec(GAME).action_layout
    others = [k for k in range(before.shape[1]) if k not in (play + 2, play + 7)
              and not any(layout.offset(f) <= k < layout.offset(f) + 40 for f in ("use", "ally"))]
    np.testing.assert_allclose(after[:, others], before[:, others], rtol=1e-6, atol=1e-6)


def test_saved_model_reloads_with_its_head(model, tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    model.save(tmp_path / "inst.zip")
    again = MaskablePPO.load(tmp_path / "inst.zip", device="cpu")
    assert type(again.policy).__name__ == "InstanceHeadPolicy"
    obs, masks = _recorded(4, 10)
    a, _ = model.predict(obs, action_masks=masks.astype(bool), deterministic=True)
    b, _ = again.predict(obs, action_masks=masks.astype(bool), deterministic=True)
    assert np.array_equal(a, b)


def test_instance_head_is_nothing_for_a_game_without_blocks() -> None:
    from cardenvs.train.instance_head import instance_head_kwargs

    assert instance_head_kwargs("levelneo", 16, {}) == {}
    assert instance_head_kwargs(GAME, 0, {}) == {}


def test_a_legal_mask_of_the_wrong_shape_is_one_clear_error(model, tmp_path: Path) -> None:
    """``NumpyPolicy.logits(obs, rows, legal)``: ``legal`` is checked against the rows read before any indexing."""
    from cardenvs.agents import policy as policy_mod
    from cardenvs.core.errors import BadArgumentError

    obs, masks = _recorded()
    agent = policy_mod.load_npz(policy_mod.export(model, tmp_path / "inst.npz", GAME), game=GAME)
    with pytest.raises(BadArgumentError, match=r"legal must be a \[3, "):
        agent.logits(obs, np.arange(3), masks)
    with pytest.raises(BadArgumentError, match="got shape"):
        agent.logits(obs, None, masks[:, :-1])


@pytest.mark.parametrize("damage, message", [
    (lambda g, d: g.update(rest_pos=g["rest_pos"] + d), "block positions outside"),
    (lambda g, d: g.update(id_pos=g["id_pos"] - d), "card-id positions outside"),
    (lambda g, d: g.update(a0=d), "lie outside the policy"),
    (lambda g, d: g.update(block_w=g["block_w"][1:]), "weight shapes"),
    (lambda g, d: g.update(rest_pos=g["rest_pos"][1:]), "must be"),
])
def test_a_damaged_instance_head_is_one_clear_error_at_load(model, tmp_path: Path, damage, message) -> None:
    """The head's Numba kernel reads observation positions and weights the file gives: a file whose positions or
    shapes do not fit is refused when the policy is built (all five cases checked failing without the check)."""
    from cardenvs.agents import policy as policy_mod
    from cardenvs.core.errors import BadArgumentError

    path = policy_mod.export(model, tmp_path / "inst.npz", GAME)
    meta, hidden, action, embed, instance = policy_mod.read_npz(path)
    policy_mod.NumpyPolicy(hidden, action, embed=embed, instance=instance)  # the undamaged file builds
    damage(instance[1], 10 * meta["obs_dim"])
    with pytest.raises(BadArgumentError, match=message):
        policy_mod.NumpyPolicy(hidden, action, embed=embed, instance=instance)


def test_a_head_on_a_network_without_hidden_layers_reads_the_embedded_input(tmp_path: Path) -> None:
    """With ``net_arch = []`` the head's state term reads the network's input, whose width with a card embedding is
    the embedded width, not the observation's: such a policy loads and gives torch's probabilities (checked failing
    with the observation width as that layer's width), and a wrong observation width is one clear error on this
    path too."""
    import torch
    from sb3_contrib import MaskablePPO

    from cardenvs.agents import policy as policy_mod
    from cardenvs.core.errors import BadArgumentError
    from cardenvs.train.features import card_embedding_kwargs
    from cardenvs.train.instance_head import InstanceHeadPolicy, instance_head_kwargs

    embedding = card_embedding_kwargs(GAME, 4)
    env = cardenvs.make_vec(GAME, 2, opponent="random", seed=0)
    flat = MaskablePPO(InstanceHeadPolicy, env, n_steps=8, batch_size=16, n_epochs=1, seed=0, device="cpu",
                       policy_kwargs={"net_arch": [], **embedding, **instance_head_kwargs(GAME, 8, embedding)})
    obs, masks = _recorded(4, 20)
    with torch.no_grad():
        want = flat.policy.get_distribution(torch.as_tensor(obs), action_masks=masks.astype(bool)).distribution.probs
    agent = policy_mod.load_npz(policy_mod.export(flat, tmp_path / "flat.npz", GAME), game=GAME)
    assert not agent.hidden
    np.testing.assert_allclose(agent.probs(obs, masks), want.numpy(), rtol=1e-4, atol=1e-6)
    with pytest.raises(BadArgumentError, match="observations of size"):
        agent.logits(obs[:, :-1])
