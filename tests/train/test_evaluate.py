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


def test_all_starters_spreads_games_over_every_ordered_starter_pair() -> None:
    """``play_starters``: n x n pairings (mirrors included), equal games each, counts that add up; a pilot against
    itself scores exactly half (common random numbers, seats swapped within each pairing)."""
    from cardenvs.train.evaluate import play_starters

    game = "divinecross"
    names = cardenvs.get_game(game).starter_decks()
    per: dict = {}
    res = play_starters(game, "heuristic", "heuristic", games=len(names) ** 2 * 4, seed=2, per_pairing=per)
    assert sorted(per) == sorted(f"{a} vs {b}" for a in names for b in names)
    assert all(r.games == 4 for r in per.values())
    assert res.games == 4 * len(names) ** 2 == sum(res.by_seat[0]) + sum(res.by_seat[1])
    assert res.wins == res.losses  # the same deterministic pilot in both seats of every seed
    vs_random = play_starters(game, "heuristic", "random", games=len(names) ** 2 * 4, seed=2)
    assert vs_random.win_rate > 0.8
