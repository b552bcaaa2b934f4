"""train.protocol (issue 38 step 4): disjoint training, validation and test deck sets; the pair-bootstrap interval;
the per-deck floor; balanced pairs for the bar against random."""
from __future__ import annotations

import pytest

from cardenvs.core.deckgen import deck_key, starter_decks
from cardenvs.eval.stats import wilson
from cardenvs.train.decks import deck_bank, holdout_pairs
from cardenvs.train.evaluate import MatchResult
from cardenvs.train.protocol import BALANCE, balanced_pairs, deck_floor, pair_bootstrap, sealed_pairs

GAME = "divinecross"


def _pair(wins0: int, wins1: int, games_per_seat: int = 50) -> MatchResult:
    seat0 = (wins0, 0, games_per_seat - wins0)
    seat1 = (wins1, 0, games_per_seat - wins1)
    return MatchResult(wins0 + wins1, 0, 2 * games_per_seat - wins0 - wins1, 0, {0: seat0, 1: seat1})


def test_the_test_set_shares_no_deck_with_training_validation_or_the_starters_and_grows_by_extension() -> None:
    import cardenvs

    spec = cardenvs.get_game(GAME)
    pairs = sealed_pairs(GAME, 3, train_seed=5, deck_bank=4, validation_pairs=2)
    assert len(pairs) == 3
    test_keys = [deck_key(d) for pair in pairs for d in pair]
    assert len(set(test_keys)) == 6
    bank = deck_bank(GAME, 4, 5)
    others = {deck_key(d) for d in bank} | {deck_key(d) for d in starter_decks(spec, spec.load_pool(None))} | {
        deck_key(d) for pair in holdout_pairs(GAME, 2, 5, exclude=bank) for d in pair}
    assert not others & set(test_keys)
    shorter = sealed_pairs(GAME, 2, train_seed=5, deck_bank=4, validation_pairs=2)
    assert [tuple(map(deck_key, p)) for p in shorter] == [tuple(map(deck_key, p)) for p in pairs[:2]]
    skipped = sealed_pairs(GAME, 1, train_seed=5, deck_bank=4, validation_pairs=2, skip=2)
    assert [tuple(map(deck_key, p)) for p in skipped] == [tuple(map(deck_key, pairs[2]))]


def test_the_pair_bootstrap_is_wide_when_pairs_disagree_and_narrow_when_they_agree() -> None:
    """Ten pairs of 100 games: alternately 20% and 80% won. The games' Wilson interval treats the 1,000 games as
    independent (about +-3 points); resampling whole pairs sees that half the pairs are lost and is far wider."""
    split = [_pair(10, 10) if k % 2 else _pair(40, 40) for k in range(10)]
    lo, hi = pair_bootstrap(split, seed=1)
    wins = sum(r.wins for r in split)
    _, wlo, whi = wilson(wins, 1000)
    assert lo < 0.5 < hi and (hi - lo) > 3 * float(whi - wlo)
    same = [_pair(25, 25) for _ in range(10)]
    assert pair_bootstrap(same, seed=1) == pytest.approx((0.5, 0.5))


def test_a_deck_the_pilot_plays_worse_than_random_is_below_the_floor() -> None:
    pairs = [("deck A", "deck B")]
    pilot = [_pair(2, 30)]       # deck A: 2 of 50, deck B: 30 of 50
    random_pilot = [_pair(20, 20)]  # random wins 20 of 50 with either deck
    floor = deck_floor(pairs, pilot, random_pilot)
    assert floor["decks"] == 2 and not floor["met"]
    assert [b["deck"] for b in floor["below"]] == ["deck A"]
    # exactly the random pilot's rate, or within the interval of it, is not below
    assert deck_floor(pairs, [_pair(20, 20)], random_pilot)["met"]
    assert deck_floor(pairs, [_pair(14, 20)], random_pilot)["met"]  # 0.28: its upper bound 0.42 reaches 0.40


def test_balanced_pairs_keep_only_pairs_whose_random_mirror_is_even() -> None:
    kept, info = balanced_pairs(GAME, 1, games=40, seed=3, train_seed=5, deck_bank=4, validation_pairs=2)
    assert info["kept"] == len(kept) <= 1 and info["tried"] >= info["kept"]
    for r in info["mirrors"]:
        w0, d0, l0 = r.by_seat[0]
        w1, d1, l1 = r.by_seat[1]
        share = (w0 + l1) / max(w0 + l1 + l0 + w1, 1)
        assert BALANCE[0] <= share <= BALANCE[1] and (d0 + d1) / r.games < 0.10
