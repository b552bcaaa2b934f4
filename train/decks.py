"""Deck-general training: each new episode's two decks are drawn from the starter decks and from random legal decks.

``[train] decks = "mixed"`` in a config turns it on (``random_deck_share`` of the seats get a random legal deck,
the others a starter deck, each seat drawn on its own, so starter-vs-random pairings happen too). The random decks
come from a bank of ``deck_bank`` decks made once at the start from the run's seed with
:func:`cardenvs.core.deckgen.random_decks` (a random deck takes a few hundred validated moves: too slow to build
per episode). :func:`holdout_pairs` makes evaluation pairs from another seed and drops any deck the bank holds,
so "unseen decks" are decks training never used.

The sampler hooks the vector env's :class:`~cardenvs.core.batch.BatchGame`: before rows are reset it writes their
new deck pairs into ``game.decks`` (the packed ``int32[N, 2, max_deck]`` the reset kernel deals from).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

#: added to the run's seed for the held-out evaluation decks (never the bank's seed)
HOLDOUT_SEED_OFFSET = 1_000_003


def deck_bank(game: Any, n: int, seed: int) -> list:
    """``n`` random legal decks of ``game`` from ``seed`` (deck i does not depend on n)."""
    from cardenvs.core.deckgen import random_decks

    return random_decks(game, n, seed)


def holdout_pairs(game: Any, n_pairs: int, seed: int, exclude: Sequence[Any] = ()) -> list[tuple[Any, Any]]:
    """``n_pairs`` pairs of random legal decks from ``seed + HOLDOUT_SEED_OFFSET``, none equal (same cards) to a
    deck in ``exclude`` or to a starter deck."""
    from cardenvs.core.deckgen import deck_key, random_decks, starter_decks

    spec = _spec(game)
    seen = {deck_key(d) for d in exclude} | {deck_key(d) for d in starter_decks(spec, spec.load_pool(None))}
    out: list = []
    batch = 0
    while len(out) < 2 * n_pairs:
        for d in random_decks(spec, 4 * n_pairs, seed + HOLDOUT_SEED_OFFSET + batch):
            if deck_key(d) not in seen and len(out) < 2 * n_pairs:
                seen.add(deck_key(d))
                out.append(d)
        batch += 1
        if batch > 20:
            break  # a game with very few legal decks: fewer pairs than asked
    return [(out[2 * k], out[2 * k + 1]) for k in range(len(out) // 2)]


def _starter_probabilities(names: Sequence[str], weights: Mapping[str, float], game: str) -> np.ndarray | None:
    """Each starter deck's share of the starter draws: ``weights[name]`` (default 1), normalised; None when all are
    equal (the sampler then draws as it always did, so runs without weights keep their deck streams)."""
    from cardenvs.core.errors import BadArgumentError

    if not isinstance(weights, Mapping):
        raise BadArgumentError(f"starter_weights must be a table of starter deck name = weight, got {weights!r}")
    unknown = sorted(set(weights) - set(names))
    if unknown:
        raise BadArgumentError(f"starter_weights: {', '.join(map(repr, unknown))} is not a starter deck of {game} "
                         f"(starter decks: {', '.join(names)})")
    w = []
    for name in names:
        v = weights.get(name, 1.0)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) or v < 0:
            raise BadArgumentError(f"starter_weights: {name!r} must be a number >= 0, got {v!r}")
        w.append(float(v))
    total = sum(w)
    if total <= 0:
        raise BadArgumentError("starter_weights: at least one starter deck needs a weight above 0")
    if all(x == w[0] for x in w):
        return None
    return np.asarray(w) / total


def _spec(game: Any):
    from cardenvs.core.batch import get_spec

    return get_spec(game)


class DeckSampler:
    """Draws each new episode's deck pair: a starter deck or a bank deck per seat (``random_share`` of them random)."""

    def __init__(self, game: Any, seed: int, random_share: float = 0.5, bank_size: int = 256,
                 starters: Sequence[str] | None = None, starter_weights: Mapping[str, float] | None = None) -> None:
        from cardenvs.core.deckgen import named_starter_decks

        self.spec = _spec(game)
        pool = self.spec.load_pool(None)
        named = ([(s, self.spec.load_deck(s, pool)) for s in starters] if starters
                 else named_starter_decks(self.spec, pool))
        self.starter_names = [name for name, _ in named]
        self.starters = [deck for _, deck in named]
        self.starter_p = _starter_probabilities(self.starter_names, starter_weights or {}, self.spec.name)
        self.bank = deck_bank(self.spec, bank_size, seed) if random_share > 0 and bank_size > 0 else []
        self.random_share = float(random_share) if self.bank else 0.0
        self.rng = np.random.default_rng([int(seed), 0xDEC5])
        self.max_deck = self.spec.max_deck
        self._packed = {id(d): self._pack(d) for d in self.starters + self.bank}
        self.drawn = {"starter": 0, "random": 0}

    def _pack(self, deck: Any) -> np.ndarray:
        row = np.full(self.max_deck, -1, dtype=np.int32)
        row[: len(deck)] = deck.card_ids
        return row

    def draw(self) -> Any:
        if self.random_share > 0 and self.rng.random() < self.random_share:
            self.drawn["random"] += 1
            return self.bank[int(self.rng.integers(len(self.bank)))]
        self.drawn["starter"] += 1
        if self.starter_p is None:
            return self.starters[int(self.rng.integers(len(self.starters)))]
        return self.starters[int(self.rng.choice(len(self.starters), p=self.starter_p))]

    def fork(self, seed: int) -> "DeckSampler":
        """A sampler over the same decks, bank and weights that draws on its own (from ``seed``): the warm start's
        recorded games use the run's decks without moving the run's own deck stream."""
        import copy

        twin = copy.copy(self)
        twin.rng = np.random.default_rng([int(seed), 0xDEC5])
        twin.drawn = {"starter": 0, "random": 0}
        return twin

    def assign(self, game: Any, rows: np.ndarray) -> None:
        """Write fresh deck pairs into ``game.decks`` (and ``game.deck_pairs``) for the rows about to be reset."""
        for i in np.flatnonzero(rows):
            pair = (self.draw(), self.draw())
            game.decks[i, 0] = self._packed[id(pair[0])]
            game.decks[i, 1] = self._packed[id(pair[1])]
            if hasattr(game, "deck_pairs") and len(game.deck_pairs) > i:
                game.deck_pairs[i] = pair

    def attach(self, game: Any) -> None:
        """Make ``game.reset`` draw new decks for the rows it resets (the instance's reset, nothing else changes)."""
        from cardenvs.core.batch import row_mask

        original = game.reset

        def reset(seed: Any = None, rows: Any = None) -> None:
            self.assign(game, row_mask(rows, game.num_games))
            original(seed, rows=rows)

        game.reset = reset


__all__ = ["DeckSampler", "deck_bank", "holdout_pairs", "HOLDOUT_SEED_OFFSET"]
