"""Card-identity embeddings for MaskablePPO: ``[ppo] card_embedding = 8`` in a training config.

Every game's observation holds card ids (``GameSpec.obs_card_ids``: flat indices whose value is the card's pool index
+ 1, 0 for no card or a hidden one). Fed to an MLP as plain numbers, id 37 would look "between" ids 36 and 38. The
:class:`CardEmbeddingExtractor` instead looks each id up in a learned table (``n_cards + 1`` rows of ``dim`` values,
row 0 for "none"), so the policy can learn what each card does from its identity; the other observation values pass
through unchanged. Its output is ``[rest of the observation, embedding of id 1, embedding of id 2, ...]``.
:func:`cardenvs.agents.policy.export` writes the table and the index lists, and the numpy forward pass does the same
lookup, so a shipped policy still needs no torch.

A compact observation (issue 41: ``spec.obs_dtype`` int8/uint8/int16) reaches the network as its float view: both
extractors divide every stored value by its divisor (``spec.obs_divisors``, a torch buffer; card ids have divisor 1),
so learning sees the scale a float32 observation had. :class:`ScaledFlattenExtractor` does only that, for a run
without a card embedding. The exported weights read that float view; the numpy policy folds the divisors into its
first layer at load and reads the compact rows directly.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np


def _base():
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    return BaseFeaturesExtractor


def card_embedding_kwargs(game: Any, dim: int) -> dict:
    """``policy_kwargs`` entries that give ``game``'s policy a card embedding of ``dim`` values (none if the game's
    observation has no card ids or ``dim`` is 0), and for a compact observation the divisors that turn it into its
    float view (:class:`ScaledFlattenExtractor` when there is no embedding); nothing for a float32 observation without
    an embedding (SB3's own FlattenExtractor)."""
    from cardenvs.core.batch import get_spec

    spec = get_spec(game)
    ids = tuple(int(i) for i in (getattr(spec, "obs_card_ids", ()) or ()))
    scale = {} if spec.obs_dtype == np.float32 else {"divisors": [float(d) for d in spec.obs_divisors]}
    if dim <= 0 or not ids:
        return {"features_extractor_class": ScaledFlattenExtractor, "features_extractor_kwargs": scale} if scale else {}
    n_cards = len(spec.load_pool(None))
    return {"features_extractor_class": CardEmbeddingExtractor,
            "features_extractor_kwargs": {"card_idx": list(ids), "n_cards": int(n_cards), "dim": int(dim), **scale}}


def plain_indices(obs_dim: int, card_idx: Sequence[int]) -> np.ndarray:
    """The observation indices that :class:`CardEmbeddingExtractor` passes through unchanged, in the order of its
    output (every index but the card-id entries); the embeddings follow them, ``dim`` values per card-id entry."""
    return np.setdiff1d(np.arange(int(obs_dim)), np.asarray(list(card_idx), dtype=np.int64))


def _divisor_buffer(module: Any, obs_dim: int, divisors: Sequence[float] | None, card_idx: Sequence[int] = ()) -> None:
    """``module.divisors``: a float32 torch buffer of the compact observation's divisors (None for a float32 one),
    checked: one positive value per entry, 1 at the card-id entries (ids are stored unscaled)."""
    import torch

    if divisors is None:
        module.divisors = None
        return
    d = np.asarray(divisors, dtype=np.float32)
    if d.shape != (obs_dim,) or not (d > 0).all():
        raise ValueError(f"divisors must be {obs_dim} positive numbers, got shape {d.shape}")
    if len(card_idx) and (d[list(card_idx)] != 1).any():
        raise ValueError("card-id entries must have divisor 1 (ids are stored unscaled)")
    module.register_buffer("divisors", torch.as_tensor(d), persistent=False)


class ScaledFlattenExtractor(_base()):  # type: ignore[misc]
    """A compact observation -> its float view, flat: each stored value / its divisor (SB3's FlattenExtractor for
    compact rows)."""

    def __init__(self, observation_space: Any, divisors: Sequence[float]) -> None:
        obs_dim = int(np.prod(observation_space.shape))
        super().__init__(observation_space, features_dim=obs_dim)
        _divisor_buffer(self, obs_dim, divisors)

    def forward(self, obs: Any) -> Any:
        return obs.flatten(1) / self.divisors


class CardEmbeddingExtractor(_base()):  # type: ignore[misc]
    """Flat observation -> [non-id values, one learned embedding per card-id entry]; a compact observation's plain
    values are divided by their ``divisors`` first (its float view)."""

    def __init__(self, observation_space: Any, card_idx: Sequence[int], n_cards: int, dim: int = 8,
                 divisors: Sequence[float] | None = None) -> None:
        import torch
        from torch import nn

        obs_dim = int(np.prod(observation_space.shape))
        card_idx = [int(i) for i in card_idx]
        rest = plain_indices(obs_dim, card_idx)
        super().__init__(observation_space, features_dim=len(rest) + len(card_idx) * int(dim))
        self.n_cards = int(n_cards)
        self.dim = int(dim)
        self.register_buffer("card_idx", torch.as_tensor(card_idx, dtype=torch.long), persistent=False)
        self.register_buffer("rest_idx", torch.as_tensor(rest, dtype=torch.long), persistent=False)
        _divisor_buffer(self, obs_dim, divisors, card_idx)
        self.embedding = nn.Embedding(self.n_cards + 1, self.dim)

    def forward(self, obs: Any) -> Any:
        import torch

        ids = obs.index_select(1, self.card_idx).round().long().clamp_(0, self.n_cards)
        emb = self.embedding(ids).flatten(1)
        rest = obs.index_select(1, self.rest_idx)
        if self.divisors is not None:
            rest = rest / self.divisors.index_select(0, self.rest_idx)
        return torch.cat([rest, emb], dim=1)


__all__ = ["CardEmbeddingExtractor", "ScaledFlattenExtractor", "card_embedding_kwargs", "plain_indices"]
