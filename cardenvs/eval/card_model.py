"""A card's effect on the result, separated from the deck it sits in (issue 42 item 3).

"Win rate when drawn minus when not drawn" (IWD) mixes a card with its deck: a deck that wins fast loses its long
games, and in long games every card of it is drawn, so all its cards read negative; a weak deck's few wins are its
long games, so its filler reads positive. Pooled over decks, a card sitting in three copies in one deck and one copy
in another compares games of different decks (Simpson's paradox).

The model here is a penalised logistic regression of each game's result (seat 0's score: 1 win, 1/2 draw or
truncation, 0 loss) on what the two seats drew, one row per game::

    logit P(seat 0 wins) = a[deck0] - a[deck1] + s + g[deck0] k0 - g[deck1] k1 + sum_c b[c] (x0[c] - x1[c])

* ``a``: each deck's (entry's) own strength, so a card of a strong deck is not credited with its deck's wins;
* ``s``: seat 0's edge;
* ``k``: how many different cards of its deck the seat drew (centred on that deck's mean): ``g[deck]`` takes what
  drawing one more card means for that deck, mostly game length (the deck-dependent bias of IWD above), and the
  average card's worth;
* ``x[c]``: whether the seat drew a copy of card ``c``. ``b[c]`` is then what drawing ``c`` does **instead of
  drawing the average card of the same deck**, in logits; a card both seats drew cancels.

``b`` has a normal prior (ridge: mean 0, standard deviation ``prior_sd`` logits), which pulls a card seen in few
games towards "like the average card" instead of letting noise flag it. The fit is Newton's method on the penalised
likelihood; the intervals are the Laplace approximation (the penalised Hessian's inverse), a card's figure is
reported in win-rate points at an even game (``100 * (sigmoid(b) - 1/2)``).

What it cannot tell: it is relative (the average card of the decks a card was played in scores 0, so a deck of
uniformly strong cards shows nothing: that is the deck's rating); it is observational (a card drawn in the games the
pilot played badly is blamed with them, and a card the pilot never plays measures a dead draw, see ``rarely
played``); a card whose worth depends on another card of the deck is credited with the pair's average; and it is
about this pilot (another pilot can value a card differently).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
import numpy as np

from . import stats
from .matches import SEAT0_WINS, SEAT1_WINS, Tally

__all__ = ["CardModel", "fit_card_model", "holm_flags", "MODEL_NAME", "MODEL_NOTE", "to_points"]

MODEL_NAME = "deck-adjusted card effect"
#: one line for pages and tables: what the number is
MODEL_NOTE = ("card effect: win-rate points (at an even game) of drawing this card instead of the average card of "
              "the same deck, from a penalised logistic model of the results with each deck's strength and draw "
              "count as terms")

#: prior standard deviation of a card's effect, logits (0.5 logits = 12 points at an even game)
PRIOR_SD = 0.5
#: the decks' strengths and draw slopes get a weak prior too (only to keep a separated deck finite)
_WEAK_SD = 10.0
_ROWS = 65536  # rows per block when building the dense card part


@dataclass
class CardModel:
    """Per modelled card (``card_ids``): effect ``b`` (logits), its standard error, the games where it was drawn."""

    card_ids: np.ndarray
    b: np.ndarray
    se: np.ndarray
    drawn_games: np.ndarray
    games: int
    iterations: int

    def interval(self, z: float = stats.Z95) -> tuple[np.ndarray, np.ndarray]:
        return self.b - z * self.se, self.b + z * self.se

    def rows(self, z: float = stats.Z95) -> dict[int, dict]:
        """card id -> {"effect", "effect_ci"} in win-rate points (fractions: 0.05 = 5 points) and ``effect_games``."""
        lo, hi = self.interval(z)
        return {int(c): {"effect": to_points(b), "effect_ci": [to_points(x), to_points(y)],
                         "effect_games": int(n)}
                for c, b, x, y, n in zip(self.card_ids, self.b, lo, hi, self.drawn_games)}


def to_points(logit: float) -> float:
    """A logit effect as the change of an even game's win probability (0.05: 5 points)."""
    return float(1.0 / (1.0 + math.exp(-float(logit))) - 0.5)


def fit_card_model(tally: Tally, n_entries: int, n_cards: int, min_drawn: int = 20, prior_sd: float = PRIOR_SD,
                   tol: float = 1e-9, max_iter: int = 100) -> CardModel | None:
    """The model of the module docstring on a tally's games (None when the tally has no per-game card flags or no
    card was drawn in ``min_drawn`` games and also missed in some)."""
    if tally.drawn is None or tally.seats is None or tally.games == 0:
        return None
    flags = tally.drawn_flags(n_cards)  # [G, 2, C]
    seats = tally.seats.astype(np.int64)
    out = tally.outcomes
    y = np.where(out == SEAT0_WINS, 1.0, np.where(out == SEAT1_WINS, 0.0, 0.5))
    drawn_games = flags.sum(axis=(0, 1))
    # a card both drawn and missed in enough seat-games; a card drawn every time is its deck's strength
    seat_games = np.zeros(n_cards, np.int64)
    held = np.zeros((n_entries, n_cards), bool)
    held[np.nonzero(tally.cards[..., 0] > 0)] = True
    for side in (0, 1):
        seat_games += held[seats[:, side]].sum(axis=0)
    keep = np.flatnonzero((drawn_games >= min_drawn) & (seat_games - drawn_games >= 1))
    if keep.size == 0:
        return None
    x0 = flags[:, 0, keep]
    x1 = flags[:, 1, keep]
    k = np.stack([flags[:, 0].sum(axis=1), flags[:, 1].sum(axis=1)], axis=1).astype(np.float64)  # [G, 2]
    # centre each deck's draw count on its own mean, so g and a do not share what a deck's average game is
    sums = np.bincount(seats.ravel(), weights=k.ravel(), minlength=n_entries)
    cnt = np.bincount(seats.ravel(), minlength=n_entries)
    k = k - (sums / np.maximum(cnt, 1))[seats]
    e = n_entries
    # the sparse part: five (column, value) slots per row: a[e0] +1, a[e1] -1, s, g[e0] +k0, g[e1] -k1
    cols = np.stack([seats[:, 0], seats[:, 1], np.full(len(y), 2 * e), e + seats[:, 0], e + seats[:, 1]], axis=1)
    vals = np.stack([np.ones(len(y)), -np.ones(len(y)), np.ones(len(y)), k[:, 0], -k[:, 1]], axis=1)
    n_sparse = 2 * e + 1
    d = (x0.astype(np.int8) - x1.astype(np.int8))  # [G, C'] in {-1, 0, 1}
    n_dense = d.shape[1]
    penalty = np.concatenate([np.full(n_sparse, 1.0 / _WEAK_SD ** 2), np.full(n_dense, 1.0 / prior_sd ** 2)])
    theta = np.zeros(n_sparse + n_dense)
    it = 0
    hess = None
    for it in range(1, max_iter + 1):
        eta = (theta[cols] * vals).sum(axis=1) + _dense_dot(d, theta[n_sparse:])
        mu = 1.0 / (1.0 + np.exp(-eta))
        w = mu * (1.0 - mu)
        grad = np.concatenate([_sparse_t(cols, vals, y - mu, n_sparse), _dense_t(d, y - mu)]) - penalty * theta
        hess = _hessian(cols, vals, d, w, n_sparse) + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        theta += step
        if np.max(np.abs(step)) < tol:
            break
    cov_diag = np.diag(np.linalg.inv(hess))
    return CardModel(keep, theta[n_sparse:].copy(), np.sqrt(cov_diag[n_sparse:]), drawn_games[keep], int(len(y)), it)


def _dense_dot(d: np.ndarray, beta: np.ndarray) -> np.ndarray:
    out = np.empty(d.shape[0])
    for s in range(0, d.shape[0], _ROWS):
        out[s:s + _ROWS] = d[s:s + _ROWS].astype(np.float64) @ beta
    return out


def _dense_t(d: np.ndarray, r: np.ndarray) -> np.ndarray:
    out = np.zeros(d.shape[1])
    for s in range(0, d.shape[0], _ROWS):
        out += r[s:s + _ROWS] @ d[s:s + _ROWS].astype(np.float64)
    return out


def _sparse_t(cols: np.ndarray, vals: np.ndarray, r: np.ndarray, n: int) -> np.ndarray:
    return np.bincount(cols.ravel(), weights=(vals * r[:, None]).ravel(), minlength=n)


def _hessian(cols: np.ndarray, vals: np.ndarray, d: np.ndarray, w: np.ndarray, n_sparse: int) -> np.ndarray:
    """X'WX of the row layout above, block by block (the deck columns are two non-zeros a row, never dense)."""
    n_dense = d.shape[1]
    h = np.zeros((n_sparse + n_dense, n_sparse + n_dense))
    slots = cols.shape[1]
    for p in range(slots):
        for q in range(slots):
            h[:n_sparse, :n_sparse] += np.bincount(cols[:, p] * n_sparse + cols[:, q],
                                                   weights=w * vals[:, p] * vals[:, q],
                                                   minlength=n_sparse * n_sparse).reshape(n_sparse, n_sparse)
    cross = np.zeros((n_sparse, n_dense))
    dense = np.zeros((n_dense, n_dense))
    for s in range(0, d.shape[0], _ROWS):
        block = d[s:s + _ROWS].astype(np.float64)
        wb = w[s:s + _ROWS]
        dense += (block * wb[:, None]).T @ block
        for p in range(slots):
            onehot_w = wb * vals[s:s + _ROWS, p]
            c = cols[s:s + _ROWS, p]
            for j in range(n_dense):
                cross[:, j] += np.bincount(c, weights=onehot_w * block[:, j], minlength=n_sparse)
    h[:n_sparse, n_sparse:] = cross
    h[n_sparse:, :n_sparse] = cross.T
    h[n_sparse:, n_sparse:] = dense
    return h


def holm_flags(b: np.ndarray, se: np.ndarray, alpha: float = 0.05) -> np.ndarray:
    """+1 / -1 where an effect is reliably above / below 0 over the whole pool, 0 elsewhere: Holm's step-down test of
    every card at family-wise level ``alpha`` (two-sided normal tests). With 95% intervals alone a pool of 70 cards
    all equal to the average would show three or four "reliable" cards; this shows one in 20 reports."""
    b, se = np.asarray(b, np.float64), np.asarray(se, np.float64)
    p = np.array([math.erfc(abs(x) / s / math.sqrt(2.0)) if s > 0 else 1.0 for x, s in zip(b, se)])
    out = np.zeros(b.size, np.int8)
    m = b.size
    for rank, i in enumerate(np.argsort(p, kind="stable")):
        if p[i] > alpha / (m - rank):
            break
        out[i] = 1 if b[i] > 0 else -1
    return out
