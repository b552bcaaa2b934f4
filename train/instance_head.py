"""A policy head that scores per-card actions from the card's own observation block: ``[ppo] instance_head = 64``.

Some games number a range of actions by card instance: simulfight's ``play i``, ``use i``, ``ally i`` and ``foe i``
concern deck instance ``i``, which block ``i`` of ``my_cards`` / ``opp_cards`` describes (``GameSpec.action_obs_blocks``).
A plain MLP gives action ``i`` its own output weights, so it learns "play 5" as a position: on a starter deck position
5 is always the same card, on any other deck it is another card, and the policy is lost (docs/training: the same decks
reordered drop it from 0.83 to 0.48-0.53 against random). Here the logit of action ``i`` of a range is instead

    u_i = tanh(block_i @ W_block + h @ W_state + b)          (one W per range, shared by every i)
    logit_i = u_i @ v + c

where ``block_i`` is block ``i``'s values (its card id through the run's card embedding) and ``h`` the policy
network's last hidden layer (the whole position). The other actions (``done``) keep the usual linear output. The same
head runs in the numpy forward pass of a shipped policy (``cardenvs.agents.policy``).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np


def instance_groups(game: Any, card_idx: Sequence[int] = ()) -> list[dict]:
    """Per ``GameSpec.action_obs_blocks`` entry: the first action ``a0``, the count ``n``, and per instance the flat
    observation indices of its block's plain values (``rest_pos`` [n, L]) and card-id entries (``id_pos`` [n, K])."""
    from cardenvs.core.batch import get_spec

    spec = get_spec(game)
    if spec.action_layout is None or not spec.action_obs_blocks:
        return []
    ids = set(int(i) for i in card_idx)
    out = []
    for action_field, obs_field in spec.action_obs_blocks:
        a0, n = spec.action_layout.offset(action_field), spec.action_layout[action_field].size
        o0, shape = _obs_field(spec, obs_field)
        if len(shape) != 2 or shape[0] != n:
            raise ValueError(f"{spec.name}: {obs_field} {shape} does not hold one block per {action_field} action")
        size = shape[1]
        block = o0 + np.arange(n)[:, None] * size + np.arange(size)[None, :]
        id_mask = np.isin(block, sorted(ids))  # [n, size]
        is_id = id_mask[0]
        if not (id_mask == is_id).all():  # the same offsets must hold a card id in every block
            raise ValueError(f"{spec.name}: the blocks of {obs_field} hold their card ids at different offsets")
        out.append({"action": action_field, "a0": int(a0), "n": int(n),
                    "rest_pos": block[:, ~is_id].astype(np.int64), "id_pos": block[:, is_id].astype(np.int64)})
    return out


def _obs_field(spec: Any, name: str) -> tuple[int, tuple[int, ...]]:
    """Flat offset and shape of an observation field, or of one part of it: ``"grid[0]"`` is the first entry along
    the field's first axis (relics' own half of the grid, whose slot ``s`` the ``slot s`` action names)."""
    base, _, rest = name.partition("[")
    offset, shape = spec.obs_layout.offset(base), tuple(spec.obs_layout[base].shape)
    if not rest:
        return offset, shape
    index = rest[:-1] if rest.endswith("]") else ""
    if not index.isdigit() or not shape or int(index) >= shape[0]:
        raise ValueError(f"{spec.name}: action_obs_blocks names {name!r}; expected {base} or {base}[k] with k in "
                         f"0..{shape[0] - 1 if shape else 0} ({base} has shape {shape})")
    k = int(index)
    return offset + k * int(np.prod(shape[1:], dtype=np.int64)), shape[1:]


def _feature_positions(group: dict, rest_idx: np.ndarray | None, card_idx: np.ndarray | None, dim: int) -> np.ndarray:
    """Where each block input sits in the features vector (``CardEmbeddingExtractor``'s ``[rest values, embedding of
    each card-id entry]``, or the plain observation): [n, L] with the block's plain values first, then ``dim``
    values per card-id entry."""
    if rest_idx is None:
        return np.concatenate([group["rest_pos"], group["id_pos"]], axis=1)
    where_rest = {int(j): k for k, j in enumerate(rest_idx)}
    where_id = {int(j): k for k, j in enumerate(card_idx)}
    rows = []
    for rp, ip in zip(group["rest_pos"], group["id_pos"]):
        pos = [where_rest[int(j)] for j in rp]
        for j in ip:
            start = len(rest_idx) + where_id[int(j)] * dim
            pos.extend(range(start, start + dim))
        rows.append(pos)
    return np.asarray(rows, dtype=np.int64)


def _policy_base():
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    return MaskableActorCriticPolicy


def _modules():
    import torch
    from torch import nn

    class ActorWithFeatures(nn.Module):
        """SB3's MlpExtractor, whose policy latent also carries the features (the head reads the blocks there)."""

        def __init__(self, inner: nn.Module, features_dim: int) -> None:
            super().__init__()
            self.inner = inner
            self.latent_dim_pi = inner.latent_dim_pi + features_dim
            self.latent_dim_vf = inner.latent_dim_vf

        def forward(self, features):
            pi, vf = self.inner(features)
            return torch.cat([pi, features], dim=1), vf

        def forward_actor(self, features):
            return torch.cat([self.inner.forward_actor(features), features], dim=1)

        def forward_critic(self, features):
            return self.inner.forward_critic(features)

    class InstanceActionHead(nn.Module):
        """Logits: the usual linear output of ``h``, with each instance range's logits replaced by the shared-weight
        scores of its blocks."""

        def __init__(self, hidden_dim: int, num_actions: int, groups: list[dict], positions: list[np.ndarray],
                     width: int) -> None:
            super().__init__()
            self.hidden_dim = hidden_dim
            self.base = nn.Linear(hidden_dim, num_actions)
            self.a0 = [int(g["a0"]) for g in groups]
            self.n = [int(g["n"]) for g in groups]
            for k, pos in enumerate(positions):
                self.register_buffer(f"pos{k}", torch.as_tensor(pos, dtype=torch.long), persistent=False)
            self.block = nn.ModuleList(nn.Linear(p.shape[1], width) for p in positions)
            self.state = nn.ModuleList(nn.Linear(hidden_dim, width, bias=False) for _ in positions)
            self.score = nn.ModuleList(nn.Linear(width, 1) for _ in positions)

        def forward(self, latent):
            h, feats = latent[:, : self.hidden_dim], latent[:, self.hidden_dim:]
            logits = self.base(h).clone()
            for k, (a0, n) in enumerate(zip(self.a0, self.n)):
                blocks = feats[:, getattr(self, f"pos{k}")]  # [B, n, L]
                u = torch.tanh(self.block[k](blocks) + self.state[k](h).unsqueeze(1))
                logits[:, a0:a0 + n] = self.score[k](u).squeeze(-1)
            return logits

    return ActorWithFeatures, InstanceActionHead


class InstanceHeadPolicy(_policy_base()):  # type: ignore[misc]
    """MaskablePPO's MlpPolicy with :class:`InstanceActionHead` as its action output (``policy_kwargs``:
    ``instance_groups`` from :func:`instance_groups`, ``instance_width``)."""

    def __init__(self, *args: Any, instance_groups: list[dict] = (), instance_width: int = 64,
                 **kwargs: Any) -> None:
        self.instance_groups = [dict(g, rest_pos=np.asarray(g["rest_pos"]), id_pos=np.asarray(g["id_pos"]))
                                for g in instance_groups]
        self.instance_width = int(instance_width)
        super().__init__(*args, **kwargs)

    def _get_constructor_parameters(self) -> dict:
        data = super()._get_constructor_parameters()
        data.update(instance_groups=self.instance_groups, instance_width=self.instance_width)
        return data

    def _build_mlp_extractor(self) -> None:
        super()._build_mlp_extractor()
        wrapper, _ = _modules()
        self.mlp_extractor = wrapper(self.mlp_extractor, self.features_dim)

    def _build(self, lr_schedule: Any) -> None:
        from functools import partial

        super()._build(lr_schedule)
        _, head = _modules()
        fe = self.features_extractor
        rest_idx = getattr(fe, "rest_idx", None)
        card_idx = getattr(fe, "card_idx", None)
        dim = int(getattr(fe, "dim", 0))
        positions = [_feature_positions(g, None if rest_idx is None else rest_idx.cpu().numpy(),
                                        None if card_idx is None else card_idx.cpu().numpy(), dim)
                     for g in self.instance_groups]
        hidden = self.mlp_extractor.inner.latent_dim_pi
        self.action_net = head(hidden, int(self.action_space.n), self.instance_groups, positions, self.instance_width)
        if self.ortho_init:
            self.action_net.apply(partial(self.init_weights, gain=np.sqrt(2)))
            for out in [self.action_net.base, *self.action_net.score]:
                out.apply(partial(self.init_weights, gain=0.01))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)


def instance_head_kwargs(game: Any, width: int, embedding: dict) -> dict:
    """``policy_kwargs`` entries for ``[ppo] instance_head = width`` (nothing if 0 or the game declares no
    ``action_obs_blocks``); ``embedding``: the card-embedding entries (:func:`train.features.card_embedding_kwargs`)."""
    card_idx = (embedding.get("features_extractor_kwargs") or {}).get("card_idx", ())
    groups = instance_groups(game, card_idx=card_idx) if width > 0 else []
    if not groups:
        return {}
    return {"instance_groups": [dict(g, rest_pos=g["rest_pos"].tolist(), id_pos=g["id_pos"].tolist())
                                for g in groups], "instance_width": int(width)}


__all__ = ["InstanceHeadPolicy", "instance_groups", "instance_head_kwargs"]
