"""Card-identity embeddings for MaskablePPO: ``[ppo] card_embedding = 8`` in a training config.

Every game's observation holds card ids (``GameSpec.obs_card_ids``: flat indices whose value is the card's pool index
+ 1, 0 for no card or a hidden one). Fed to an MLP as plain numbers, id 37 would look "between" ids 36 and 38. The
:class:`CardEmbeddingExtractor` instead looks each id up in a learned table (``n_cards + 1`` rows of ``dim`` values,
row 0 for "none"), so the policy can learn what each card does from its identity; the other observation values pass
through unchanged. Its output is ``[rest of the observation, embedding of id 1, embedding of id 2, ...]``.
:func:`cardenvs.agents.policy.export` writes the table and the index lists, and the numpy forward pass does the same
lookup, so a shipped policy still needs no torch.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np


def _base():
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    return BaseFeaturesExtractor


def card_embedding_kwargs(game: Any, dim: int) -> dict:
    """``policy_kwargs`` entries that give ``game``'s policy a card embedding of ``dim`` values (nothing if the
    game's observation has no card ids or ``dim`` is 0)."""
    from cardenvs.core.batch import get_spec

    spec = get_spec(game)
    ids = tuple(int(i) for i in (getattr(spec, "obs_card_ids", ()) or ()))
    if dim <= 0 or not ids:
        return {}
    n_cards = len(spec.load_pool(None))
    return {"features_extractor_class": CardEmbeddingExtractor,
            "features_extractor_kwargs": {"card_idx": list(ids), "n_cards": int(n_cards), "dim": int(dim)}}


def plain_indices(obs_dim: int, card_idx: Sequence[int]) -> np.ndarray:
    """The observation indices that :class:`CardEmbeddingExtractor` passes through unchanged, in the order of its
    output (every index but the card-id entries); the embeddings follow them, ``dim`` values per card-id entry."""
    return np.setdiff1d(np.arange(int(obs_dim)), np.asarray(list(card_idx), dtype=np.int64))


class CardEmbeddingExtractor(_base()):  # type: ignore[misc]
    """Flat observation -> [non-id values, one learned embedding per card-id entry]."""

    def __init__(self, observation_space: Any, card_idx: Sequence[int], n_cards: int, dim: int = 8) -> None:
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
        self.embedding = nn.Embedding(self.n_cards + 1, self.dim)

    def forward(self, obs: Any) -> Any:
        import torch

        ids = obs.index_select(1, self.card_idx).round().long().clamp_(0, self.n_cards)
        emb = self.embedding(ids).flatten(1)
        return torch.cat([obs.index_select(1, self.rest_idx), emb], dim=1)


__all__ = ["CardEmbeddingExtractor", "card_embedding_kwargs", "plain_indices"]
