"""One honest protocol for every strength figure (issue 38 step 4): three disjoint deck sets, cluster intervals, a
per-deck floor, balanced pairs for the bar against random.

**Deck sets.** Per game and training seed ``s`` (the run's ``[train] seed``):

- *training*: the run's deck bank, ``deck_bank`` random legal decks from seed ``s`` (:func:`train.decks.deck_bank`),
  and the starter decks;
- *validation*: random legal deck pairs from seed ``s + HOLDOUT_SEED_OFFSET`` (:func:`train.decks.holdout_pairs`),
  none in the training set. Training's ``[eval] holdout_pairs`` scores them at every evaluation and model selection
  (which stage to keep) may look at them, so a figure on them is a selection figure;
- *test* (sealed): random legal deck pairs from the seed family ``s + TEST_SEED_OFFSET + k``
  (:func:`sealed_pairs`), none in the training set nor among the first ``VALIDATION_EXCLUDED`` (20) validation
  pairs. Nothing in training or model selection draws from this family; the strength bars (:mod:`train.bars`)
  measure on it, once, at the end.

**Intervals.** Games within one deck pair are not independent draws of "a random deck": a policy that cannot pilot
one deck loses all of that pair's games together. :func:`pair_bootstrap` resamples whole deck pairs (a cluster
bootstrap) and gives the interval of the overall win rate; it is 3-5x wider than a Wilson interval over the games
on 20 pairs.

**Per-deck floor.** A pilot must not score below random piloting the same deck against the same opponent:
:func:`deck_floor` compares, deck by deck, the pilot's win rate (its 95% Wilson upper bound) with the random pilot's.

**Balanced pairs.** The bar against random (0.95) is measured only on pairs whose random mirror is balanced: of the
random-vs-random games on the pair, deck A's share of the decisive ones within 0.35-0.65 and draws under 10%
(:func:`balanced_pairs`; the number of candidate pairs tried and kept is reported). A pair so lopsided that random
pilots win with one deck three times in four says more about the decks than about any pilot.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .decks import HOLDOUT_SEED_OFFSET, deck_bank as make_bank, holdout_pairs

__all__ = ["BALANCE", "MAX_DRAWS", "TEST_SEED_OFFSET", "VALIDATION_EXCLUDED", "balanced_pairs", "deck_floor",
           "deck_rates", "pair_bootstrap", "sealed_pairs"]

#: the test decks' seed family starts here, added to the training seed (prime, far from the validation offset)
TEST_SEED_OFFSET = 2_000_029
#: the validation pairs kept out of the test set by default (the shipped configs' ``[eval] holdout_pairs``); a
#: random legal deck takes about a second to make, so the check is sized to what runs use
VALIDATION_EXCLUDED = 20
#: test decks are made in chunks of this many per seed of the family, so pair k does not depend on how many are asked
CHUNK = 16
#: a balanced pair: deck A's share of the random mirror's decisive games within this range ...
BALANCE = (0.35, 0.65)
#: ... and the mirror's draws below this share
MAX_DRAWS = 0.10


def sealed_pairs(game: Any, n_pairs: int, train_seed: int = 0, deck_bank: int = 256, skip: int = 0,
               validation_pairs: int = VALIDATION_EXCLUDED) -> list:
    """Pairs ``skip .. skip + n_pairs - 1`` of the test family of ``game`` for a run with ``train_seed`` and
    ``deck_bank``: random legal decks from the seeds ``train_seed + TEST_SEED_OFFSET + chunk`` (``CHUNK`` decks
    each), none equal (same cards) to a bank deck, a starter deck or a deck of the first ``validation_pairs``
    validation pairs, none repeated. Pair ``k`` does not depend on ``n_pairs`` (a longer list extends a shorter
    one)."""
    from cardenvs.core.batch import get_spec
    from cardenvs.core.deckgen import deck_key, random_decks, starter_decks

    spec = get_spec(game)
    bank = make_bank(spec, deck_bank, train_seed) if deck_bank > 0 else []
    validation = [d for pair in holdout_pairs(spec, validation_pairs, train_seed, exclude=bank) for d in pair]
    seen = {deck_key(d) for d in [*bank, *validation, *starter_decks(spec, spec.load_pool(None))]}
    want = 2 * (skip + n_pairs)
    out: list = []
    for chunk in range(4 * want // CHUNK + 8):  # a game with few fresh legal decks gets fewer pairs
        for d in random_decks(spec, CHUNK, train_seed + TEST_SEED_OFFSET + chunk):
            if deck_key(d) not in seen and len(out) < want:
                seen.add(deck_key(d))
                out.append(d)
        if len(out) >= want:
            break
    pairs = [(out[2 * k], out[2 * k + 1]) for k in range(len(out) // 2)]
    return pairs[skip:skip + n_pairs]


def balanced_pairs(game: Any, n_pairs: int, games: int = 100, seed: int = 0, train_seed: int = 0,
                   deck_bank: int = 256, max_tried: int | None = None,
                   validation_pairs: int = VALIDATION_EXCLUDED) -> tuple[list, dict]:
    """The first ``n_pairs`` test pairs whose random mirror (``games`` seat-swapped random-vs-random games) is
    balanced (:data:`BALANCE`, :data:`MAX_DRAWS`), trying at most ``max_tried`` (default ``4 * n_pairs``)
    candidates in the test family's order. Returns ``(pairs, info)``: ``info`` holds how many were tried and kept
    and each kept pair's mirror result (the random baseline of the floor against random)."""
    from .evaluate import play_match

    max_tried = 4 * n_pairs if max_tried is None else max_tried
    candidates = sealed_pairs(game, max_tried, train_seed, deck_bank, validation_pairs=validation_pairs)
    kept, mirrors, tried = [], [], 0
    for k, pair in enumerate(candidates):
        if len(kept) >= n_pairs:
            break
        tried += 1
        r = play_match(game, "random", "random", games=games, seed=seed * 1000 + k, decks=pair)
        # A plays deck 0 from seat 0 and deck 1 from seat 1: deck 0 wins A's seat-0 wins and B's seat-0 wins
        w0, d0, l0 = r.by_seat[0]
        w1, d1, l1 = r.by_seat[1]
        deck0_wins, deck1_wins = w0 + l1, l0 + w1
        decisive = deck0_wins + deck1_wins
        share = deck0_wins / decisive if decisive else 0.5
        if BALANCE[0] <= share <= BALANCE[1] and (d0 + d1) / max(r.games, 1) < MAX_DRAWS:
            kept.append(pair)
            mirrors.append(r)
    return kept, {"tried": tried, "kept": len(kept), "mirrors": mirrors}


def pair_bootstrap(per_pair: Sequence[Any], resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95% cluster-bootstrap interval of the overall win rate over deck pairs: each resample draws as many pairs as
    there are, with replacement, and pools their games. ``per_pair``: match results (``wins``, ``games``)."""
    wins = np.array([r.wins for r in per_pair], dtype=np.float64)
    games = np.array([r.games for r in per_pair], dtype=np.float64)
    if wins.size == 0 or games.sum() == 0:
        return 0.0, 1.0
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, wins.size, size=(resamples, wins.size))
    rates = wins[pick].sum(axis=1) / np.maximum(games[pick].sum(axis=1), 1.0)
    lo, hi = np.quantile(rates, [0.025, 0.975])
    return float(lo), float(hi)


def deck_rates(pairs: Sequence[Any], per_pair: Sequence[Any]) -> list[tuple[Any, int, int]]:
    """``(deck, wins, games)`` of agent A with each deck of each pair: seat 0 holds deck 0 and seat 1 deck 1."""
    out = []
    for pair, r in zip(pairs, per_pair):
        for seat in (0, 1):
            w, d, l_ = r.by_seat[seat]
            out.append((pair[seat], int(w), int(w + d + l_)))
    return out


def deck_floor(pairs: Sequence[Any], pilot: Sequence[Any], random_pilot: Sequence[Any]) -> dict:
    """The per-deck floor: for each deck, the pilot's win rate against the opponent with it and a random pilot's
    against the same opponent with it (``pilot`` and ``random_pilot``: per-pair results, same pairs, same
    opponent). A deck is below the floor when the pilot's 95% Wilson upper bound is under the random pilot's rate."""
    from cardenvs.eval.stats import wilson

    below = []
    decks = 0
    for (deck, w, n), (_, rw, rn) in zip(deck_rates(pairs, pilot), deck_rates(pairs, random_pilot)):
        decks += 1
        _, _, hi = wilson(w, n)
        random_rate = rw / max(rn, 1)
        if n and float(hi) < random_rate:
            below.append({"deck": _deck_name(deck), "pilot": w / n, "pilot_games": n, "random": random_rate,
                          "random_games": rn})
    return {"decks": decks, "below": below, "met": not below}


def _deck_name(deck: Any) -> str:
    name = getattr(deck, "name", None)
    return str(name) if name else str(deck)[:60]
