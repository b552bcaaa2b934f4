"""Statistics for tournaments: Wilson intervals, Newcombe differences, Bradley–Terry ratings, GSPRT.

Everything here is plain numpy over counts, so it is shared by the CLI, the Python API and the tests, and a result
can be recomputed from the counts stored in a JSON file. Draws (and truncated games) count as half a win
everywhere: a "score" is ``(wins + draws / 2) / games``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from cardenvs.core.errors import BadArgumentError

Z95 = 1.959963984540054  # two-sided 95% normal quantile


# ----- proportions ------------------------------------------------------------------------------------------------
def wilson(successes: np.ndarray | float, n: np.ndarray | float, z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wilson score interval for ``successes / n``; returns ``(rate, lo, hi)`` (arrays or floats).

    ``successes`` may be fractional (draws as half wins). Where ``n == 0`` the rate is nan and the interval [0, 1].
    Wilson rather than the normal interval because it stays inside [0, 1] and covers well near 0 and 1.
    """
    s = np.asarray(successes, dtype=np.float64)
    n_ = np.asarray(n, dtype=np.float64)
    safe_n = np.maximum(n_, 1.0)  # rows with n == 0 are overwritten below
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n_ > 0, s / safe_n, np.nan)
        z2n = z * z / safe_n
        centre = (p + z2n / 2) / (1 + z2n)
        half = z / (1 + z2n) * np.sqrt(np.maximum(p * (1 - p) / safe_n + z2n / (4 * safe_n), 0))
    lo = np.where(n_ > 0, np.clip(centre - half, 0.0, 1.0), 0.0)
    hi = np.where(n_ > 0, np.clip(centre + half, 0.0, 1.0), 1.0)
    if np.ndim(p) == 0:
        return float(p), float(lo), float(hi)
    return p, lo, hi


def newcombe_diff(s1: np.ndarray, n1: np.ndarray, s2: np.ndarray, n2: np.ndarray,
                  z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference of two independent proportions ``p1 - p2`` with Newcombe's hybrid Wilson interval (method 10)."""
    p1, l1, u1 = (np.asarray(x, dtype=np.float64) for x in wilson(s1, n1, z))
    p2, l2, u2 = (np.asarray(x, dtype=np.float64) for x in wilson(s2, n2, z))
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    if np.ndim(d) == 0:
        return float(d), float(lo), float(hi)
    return d, lo, hi


# ----- Bradley–Terry --------------------------------------------------------------------------------------------
def bradley_terry(points: np.ndarray, games: np.ndarray, prior: float = 1.0, tol: float = 1e-10,
                  max_iter: int = 20000) -> np.ndarray:
    """Bradley–Terry strengths by Hunter's MM iterations; returns log-strengths (natural log, mean 0).

    ``points[..., i, j]`` is i's score against j (wins + draws / 2) and ``games[..., i, j]`` the games between them
    (symmetric); leading axes are independent problems (bootstrap replicates are fitted together). ``prior`` adds
    that many virtual drawn games to every pair that met, so a deck that never won still has a finite rating; it
    is negligible at tournament sizes and keeps the MM update well defined.
    """
    pts = np.asarray(points, dtype=np.float64)
    n = np.asarray(games, dtype=np.float64)
    met = n > 0
    pts = pts + np.where(met, prior / 2, 0.0)
    n = n + np.where(met, prior, 0.0)
    if n.ndim == 2:
        pts, n = pts[None], n[None]
    wins = pts.sum(axis=-1)  # [B, E]
    log_pi = np.zeros(wins.shape)
    for _ in range(max_iter):
        pi = np.exp(log_pi)
        denom = (n / (pi[..., :, None] + pi[..., None, :])).sum(axis=-1)
        new = np.log(np.maximum(wins, 1e-300)) - np.log(np.maximum(denom, 1e-300))
        new -= new.mean(axis=-1, keepdims=True)  # fix the scale's free constant: geometric mean 1
        if np.max(np.abs(new - log_pi)) < tol:
            log_pi = new
            break
        log_pi = new
    return log_pi[0] if np.asarray(points).ndim == 2 else log_pi


def log_strength_to_elo(log_pi: np.ndarray) -> np.ndarray:
    """Natural-log BT strengths on the Elo scale (400 points = 10:1 odds), centred on the mean."""
    elo = 400.0 / math.log(10.0) * np.asarray(log_pi)
    return elo - elo.mean(axis=-1, keepdims=True)


def elo_to_score(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger (logistic Elo)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass
class Ratings:
    labels: list[str]
    elo: np.ndarray  # [E], centred
    lo: np.ndarray  # [E] 95% bootstrap percentile interval
    hi: np.ndarray
    order: np.ndarray  # indices, strongest first
    bootstrap: int

    def rows(self) -> list[dict]:
        return [
            {"rank": r + 1, "label": self.labels[i], "elo": float(self.elo[i]), "ci": [float(self.lo[i]), float(self.hi[i])]}
            for r, i in enumerate(self.order)
        ]


#: bootstrap replicates are held in memory together (about 32 * entries**2 bytes each): a cap, not a default
MAX_BOOTSTRAP = 100_000


def rate(results: np.ndarray, labels: list[str], bootstrap: int = 1000, seed: int = 0, prior: float = 1.0) -> Ratings:
    """Bradley–Terry Elo ratings with bootstrap 95% intervals from a tournament's ``results[E, E, 4]`` counts.

    ``results[i, j]`` = games with i in seat 0 and j in seat 1: (i wins, j wins, draws, truncated). The bootstrap
    resamples the games of every seating independently (multinomial with the observed outcome frequencies), so
    the intervals reflect exactly the sampling noise of this tournament's schedule.
    """
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, (int, np.integer)) or not 0 <= bootstrap <= MAX_BOOTSTRAP:
        raise BadArgumentError(f"--bootstrap must be an integer from 0 to {MAX_BOOTSTRAP}, got {bootstrap!r}")
    res = np.asarray(results, dtype=np.int64)
    e = res.shape[0]
    pts, n = _points(res[None].astype(np.float64))
    elo = log_strength_to_elo(bradley_terry(pts[0], n[0], prior))
    if bootstrap > 0:
        entropy = [int(seed), 0xB007] if seed >= 0 else [-int(seed), 0xB007, 1]  # SeedSequence takes no negatives
        rng = np.random.default_rng(np.random.SeedSequence(entropy))
        boot = np.zeros((bootstrap, e, e, 4))
        for i in range(e):
            for j in range(e):
                total = int(res[i, j].sum())
                if total == 0:
                    continue
                # truncations are folded into draws: they score the same and need no separate category here
                probs = np.array([res[i, j, 0], res[i, j, 1], res[i, j, 2] + res[i, j, 3]], dtype=np.float64) / total
                draws = rng.multinomial(total, probs, size=bootstrap)
                boot[:, i, j, :3] = draws
        bpts, bn = _points(boot)
        belo = log_strength_to_elo(bradley_terry(bpts, bn, prior))
        lo, hi = np.percentile(belo, [2.5, 97.5], axis=0)
    else:
        lo = hi = np.full(e, np.nan)
    order = np.argsort(-elo, kind="stable")
    return Ratings(list(labels), elo, lo, hi, order, bootstrap)


def _points(res: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-pair score and game counts over both seatings from ``res[..., i, j, 4]``."""
    half = 0.5 * (res[..., 2] + res[..., 3])
    pts = res[..., 0] + half + np.swapaxes(res[..., 1] + half, -1, -2)  # i's score as seat 0 and as seat 1
    games = res.sum(axis=-1)
    n = games + np.swapaxes(games, -1, -2)
    return pts, n


def pair_scores(results: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(points[i, j], games[i, j])``: i's score against j over both seatings."""
    pts, n = _points(np.asarray(results, dtype=np.float64))
    return pts, n


# ----- sequential test ------------------------------------------------------------------------------------------
_SCORES = np.array([1.0, 0.5, 0.0])  # win, draw, loss


def _constrained_mle(freq: np.ndarray, target: float) -> np.ndarray:
    """The trinomial closest (max likelihood) to ``freq[..., 3]`` whose mean score is ``target``.

    The Lagrange condition gives ``p_i = f_i / (1 + lam (a_i - t))``; ``lam`` solves ``sum f_i (a_i - t) /
    (1 + lam (a_i - t)) = 0``, a decreasing function of ``lam`` on the interval where every ``p_i`` stays positive,
    so bisection (vectorised over the leading axes) finds it.
    """
    d = _SCORES - target
    lo = np.full(freq.shape[:-1], -1.0 / d.max() + 1e-12)
    hi = np.full(freq.shape[:-1], -1.0 / d.min() - 1e-12)
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        g = np.sum(freq * d / (1.0 + mid[..., None] * d), axis=-1)
        lo = np.where(g > 0, mid, lo)
        hi = np.where(g > 0, hi, mid)
    p = freq / (1.0 + (0.5 * (lo + hi))[..., None] * d)
    return p / p.sum(axis=-1, keepdims=True)


def gsprt_llr(wins: np.ndarray | float, draws: np.ndarray | float, losses: np.ndarray | float, elo0: float,
              elo1: float) -> np.ndarray | float:
    """Generalised SPRT log-likelihood ratio of H1 (elo1) over H0 (elo0) for trinomial (W, D, L) counts.

    Both hypotheses are composite over the draw rate; each is replaced by its maximum-likelihood trinomial with the
    hypothesised mean score (Van den Bergh's GSPRT, the test Fishtest uses). A tiny pseudo-count keeps the
    constrained MLE defined when an outcome has not been seen yet. Counts may be arrays (many tests at once).
    """
    counts = np.stack(np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in (wins, draws, losses))), axis=-1) + 1e-3
    freq = counts / counts.sum(axis=-1, keepdims=True)
    p0 = _constrained_mle(freq, elo_to_score(elo0))
    p1 = _constrained_mle(freq, elo_to_score(elo1))
    llr = np.sum(counts * (np.log(p1) - np.log(p0)), axis=-1)
    return float(llr) if llr.ndim == 0 else llr


@dataclass
class SprtBounds:
    lower: float  # accept H0 at or below
    upper: float  # accept H1 at or above

    @classmethod
    def of(cls, alpha: float = 0.05, beta: float = 0.05) -> "SprtBounds":
        return cls(math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))

    def decide(self, llr: float) -> str | None:
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


__all__ = [
    "bradley_terry", "elo_to_score", "gsprt_llr", "log_strength_to_elo", "MAX_BOOTSTRAP", "newcombe_diff",
    "pair_scores", "rate", "Ratings", "score_to_elo", "SprtBounds", "wilson", "Z95"
]
