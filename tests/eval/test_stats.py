"""The statistics of the evaluation tool on synthetic data with a known truth (no game needed, all fast)."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.eval import stats


@pytest.mark.parametrize("p", [0.08, 0.3, 0.5, 0.85])
@pytest.mark.parametrize("n", [40, 400])
def test_wilson_covers_the_true_rate_about_95_percent(p: float, n: int) -> None:
    rng = np.random.default_rng(1234 + int(p * 100) + n)
    reps = 20000
    k = rng.binomial(n, p, size=reps)
    _, lo, hi = stats.wilson(k, np.full(reps, n))
    coverage = np.mean((lo <= p) & (p <= hi))
    # Wilson's coverage oscillates around the nominal level for discrete data; 93-97.5% is its known band here
    assert 0.93 <= coverage <= 0.975, coverage


def test_wilson_edges() -> None:
    rate, lo, hi = stats.wilson(0, 10)
    assert rate == 0 and lo == 0 and 0 < hi < 0.35
    rate, lo, hi = stats.wilson(10, 10)
    assert rate == 1 and hi == pytest.approx(1) and 0.65 < lo < 1
    rate, lo, hi = stats.wilson(0, 0)
    assert np.isnan(rate) and (lo, hi) == (0.0, 1.0)
    # draws as half wins: fractional successes are fine and shrink towards the middle
    rate, lo, hi = stats.wilson(5.5, 10)
    assert rate == pytest.approx(0.55) and lo < 0.55 < hi


def test_newcombe_difference_covers() -> None:
    rng = np.random.default_rng(7)
    p1, p2, n1, n2, reps = 0.6, 0.45, 300, 500, 20000
    d, lo, hi = stats.newcombe_diff(rng.binomial(n1, p1, reps), n1, rng.binomial(n2, p2, reps), n2)
    assert 0.93 <= np.mean((lo <= p1 - p2) & (p1 - p2 <= hi)) <= 0.975


def _simulate_round_robin(elo: np.ndarray, games: int, draw_rate: float, rng: np.random.Generator) -> np.ndarray:
    """results[i, j, 4] for a round robin with logistic strengths, each seating ``games`` times."""
    e = elo.size
    res = np.zeros((e, e, 4), dtype=np.int64)
    for i in range(e):
        for j in range(e):
            if i == j:
                continue
            s = stats.elo_to_score(elo[i] - elo[j])
            # a draw takes half a point from each side's win chance, so the expected score stays s
            dr = draw_rate * 2 * min(s, 1 - s)
            probs = [s - dr / 2, 1 - s - dr / 2, dr, 0.0]
            res[i, j] = rng.multinomial(games, probs)
    return res


def test_bradley_terry_recovers_known_strengths() -> None:
    true = np.array([-250.0, -80.0, 0.0, 60.0, 270.0])
    res = _simulate_round_robin(true, 3000, 0.1, np.random.default_rng(3))
    ratings = stats.rate(res, list("abcde"), bootstrap=300, seed=1)
    centred = true - true.mean()
    assert np.max(np.abs(ratings.elo - centred)) < 15
    assert list(ratings.order) == [4, 3, 2, 1, 0]
    assert np.all(ratings.hi - ratings.lo < 40)


def test_bradley_terry_bootstrap_intervals_cover() -> None:
    true = np.array([-120.0, -30.0, 0.0, 40.0, 110.0])
    rng = np.random.default_rng(5)
    inside = []
    for rep in range(30):
        res = _simulate_round_robin(true, 300, 0.1, rng)
        r = stats.rate(res, list("abcde"), bootstrap=200, seed=rep)
        inside.append((r.lo <= true) & (true <= r.hi))
    coverage = np.mean(inside)
    assert 0.85 <= coverage <= 1.0, coverage


def test_bradley_terry_handles_a_deck_that_never_wins() -> None:
    res = np.zeros((3, 3, 4), dtype=np.int64)
    res[0, 1, 0] = res[1, 0, 1] = 50  # 0 always beats 1
    res[0, 2, 0] = res[2, 0, 1] = 30
    res[1, 2, 1] = res[2, 1, 0] = 30  # 2 always beats 1
    ratings = stats.rate(res, ["a", "b", "c"], bootstrap=50)
    assert np.all(np.isfinite(ratings.elo)) and ratings.order[-1] == 1


def _run_sprt(true_elo: float, elo0: float, elo1: float, runs: int, seed: int, per_round: int = 100,
              max_games: int = 30000, draw_rate: float = 0.2) -> tuple[np.ndarray, np.ndarray]:
    """Many sequential tests at once (vectorised): decisions (+1 H1, -1 H0, 0 none) and games used."""
    rng = np.random.default_rng(seed)
    s = stats.elo_to_score(true_elo)
    probs = [s - draw_rate / 2, draw_rate, 1 - s - draw_rate / 2]
    bounds = stats.SprtBounds.of(0.05, 0.05)
    counts = np.zeros((runs, 3))
    decision = np.zeros(runs, dtype=int)
    used = np.zeros(runs, dtype=int)
    for rnd in range(max_games // per_round):
        live = decision == 0
        if not live.any():
            break
        counts[live] += rng.multinomial(per_round, probs, size=int(live.sum()))
        llr = stats.gsprt_llr(counts[:, 0], counts[:, 1], counts[:, 2], elo0, elo1)
        newly_h1 = live & (llr >= bounds.upper)
        newly_h0 = live & (llr <= bounds.lower)
        decision[newly_h1], decision[newly_h0] = 1, -1
        used[newly_h1 | newly_h0] = (rnd + 1) * per_round
    used[decision == 0] = max_games
    return decision, used


def test_sprt_stops_early_on_a_clear_difference() -> None:
    decision, used = _run_sprt(true_elo=150, elo0=0, elo1=20, runs=200, seed=11)
    assert np.all(decision == 1)
    assert np.median(used) <= 400  # a few rounds, far from the 30000 cap


def test_sprt_does_not_accept_h1_on_a_null() -> None:
    decision, used = _run_sprt(true_elo=0, elo0=0, elo1=40, runs=400, seed=12)
    h1_rate = np.mean(decision == 1)
    assert h1_rate <= 0.09, h1_rate  # nominal alpha 0.05 (checking after rounds only makes it smaller)
    assert np.mean(decision == -1) >= 0.85


def test_gsprt_matches_the_normal_approximation() -> None:
    w, d, l_ = 1200.0, 500.0, 800.0
    n = w + d + l_
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l_ * s ** 2) / n
    s0, s1 = stats.elo_to_score(0), stats.elo_to_score(20)
    approx = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
    assert stats.gsprt_llr(w, d, l_, 0, 20) == pytest.approx(approx, rel=0.05)


# statsmodels 0.15.0 values (proportion_confint(..., method="wilson") and confint_proportions_2indep(...,
# method="newcomb", compare="diff")), written here so that the test needs no statsmodels (issue 18 item 5)
STATSMODELS_WILSON = [
    (81, 263, 0.2552885198782742, 0.36620957698280004),
    (0, 10, 0.0, 0.27753279986288926),
    (10, 10, 0.7224672001371106, 1.0),
    (1, 2, 0.09453120573423068, 0.9054687942657693),
    (500, 1000, 0.4690696003681042, 0.5309303996318958),
    (37.5, 80, 0.36335561088952173, 0.5770080222064486),
    (3, 1000, 0.0010207838811386195, 0.008783014053503176),
]
STATSMODELS_NEWCOMBE = [
    ((56, 70, 48, 80), 0.05243147240236498, 0.33387265403690614),
    ((9, 10, 3, 10), 0.1705227239345029, 0.809017973535488),
    ((500, 1000, 450, 1000), 0.0062317148928489954, 0.09349837183977762),
]


@pytest.mark.parametrize("s, n, lo, hi", STATSMODELS_WILSON)
def test_wilson_matches_statsmodels(s, n, lo, hi) -> None:
    from cardenvs.train.evaluate import wilson as train_wilson

    _, got_lo, got_hi = stats.wilson(s, n)
    assert got_lo == pytest.approx(lo, abs=1e-12) and got_hi == pytest.approx(hi, abs=1e-12)
    assert train_wilson(s, n) == pytest.approx((lo, hi), abs=1e-12)  # the training evaluator uses the same one


@pytest.mark.parametrize("counts, lo, hi", STATSMODELS_NEWCOMBE)
def test_newcombe_matches_statsmodels(counts, lo, hi) -> None:
    s1, n1, s2, n2 = counts
    _, got_lo, got_hi = stats.newcombe_diff(s1, n1, s2, n2)
    assert got_lo == pytest.approx(lo, abs=1e-12) and got_hi == pytest.approx(hi, abs=1e-12)


def test_wilson_has_one_copy() -> None:
    import inspect

    from cardenvs.train import evaluate

    assert "sqrt" not in inspect.getsource(evaluate.wilson)


@pytest.mark.parametrize("bootstrap", [-1, 10**9, 1.5, True])
def test_rate_refuses_a_bootstrap_count_out_of_bounds(bootstrap) -> None:
    from cardenvs.core.errors import BadArgumentError

    with pytest.raises(BadArgumentError):
        stats.rate(np.zeros((2, 2, 4), np.int64), ["a", "b"], bootstrap=bootstrap)


def test_rate_takes_a_negative_or_huge_seed() -> None:
    res = np.zeros((2, 2, 4), np.int64)
    res[0, 1] = (30, 10, 0, 0)
    res[1, 0] = (12, 28, 0, 0)
    for seed in (-1, 2**70):
        stats.rate(res, ["a", "b"], bootstrap=50, seed=seed)


# Published LLR values of the logistic-Elo trinomial GSPRT (the test Fishtest ran on W/D/L counts), as listed in the
# fastchess tournament manager's SPRT test suite (two decimals): (wins, draws, losses, elo0, elo1, LLR).
PUBLISHED_TRINOMIAL_LLR = [
    (21404, 40708, 21184, 0.5, 2.5, -1.57),
    (57433, 106593, 57030, 0.0, 2.0, -2.59),
]


@pytest.mark.parametrize("wins, draws, losses, elo0, elo1, llr", PUBLISHED_TRINOMIAL_LLR)
def test_gsprt_matches_published_fishtest_style_llr(wins, draws, losses, elo0, elo1, llr) -> None:
    """Issue 18: the GSPRT reproduces independently published LLRs to their two decimals (a swapped draw/loss count,
    a BayesElo model or a normal approximation would not: swapping draws and losses gives about -152)."""
    assert stats.gsprt_llr(wins, draws, losses, elo0, elo1) == pytest.approx(llr, abs=0.006)
