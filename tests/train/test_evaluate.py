"""train.evaluate.play_match: seat-swapped head-to-head counts on the batch core."""
from __future__ import annotations

import cardenvs
from cardenvs.agents import RandomAgent
from cardenvs.train.evaluate import play_match, wilson


def test_match_is_seat_swapped_and_counts_add_up() -> None:
    for game in cardenvs.available_games():
        res = play_match(game, RandomAgent(0), "random", games=41, seed=2, batch_size=16)
        assert res.games == 42  # rounded up to an even number: half the games in each seat
        assert sum(res.by_seat[0]) == sum(res.by_seat[1]) == 21
        assert res.wins + res.draws + res.losses == 42
        lo, hi = res.ci
        assert 0 <= lo <= res.win_rate <= hi <= 1


def test_match_is_reproducible() -> None:
    game = cardenvs.available_games()[0]
    a = play_match(game, "random", "random", games=30, seed=4)
    b = play_match(game, "random", "random", games=30, seed=4)
    assert a.to_dict() == b.to_dict()


def test_wilson_interval() -> None:
    lo, hi = wilson(80, 100)
    assert abs(lo - 0.711) < 0.002 and abs(hi - 0.867) < 0.002
    assert wilson(0, 0) == (0.0, 1.0)
