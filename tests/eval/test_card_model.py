"""The deck-adjusted card effect (issue 42 item 3, cardenvs.eval.card_model) on games whose truth is known.

Synthetic games reproduce the confound that made "win rate when drawn minus when not drawn" (IWD) unusable: deck A
wins its short games and loses its long ones, and in long games every card gets drawn, so every card of A reads
negative by IWD and every card of the weak deck B positive. One card of each deck is planted: A's card 0 is strong,
B's card 10 weak. The model must find exactly those two, each the right way, where IWD gets card 10's sign wrong.
"""
from __future__ import annotations

import numpy as np

from cardenvs.eval.card_model import fit_card_model, holm_flags, to_points
from cardenvs.eval.cards_stats import card_table
from cardenvs.eval.matches import SEAT0_WINS, SEAT1_WINS, Tally

N_CARDS = 20  # deck A holds cards 0-9, deck B cards 10-19
STRONG, WEAK = 0, 10


def _games(n: int, seed: int) -> Tally:
    """``n`` games of A against B, half with A in seat 0; a short game draws 4 of a deck's 10 cards, a long one 8."""
    rng = np.random.default_rng(seed)
    a_seat = np.arange(n) % 2  # A's seat in each game
    long_game = rng.random(n) < 0.5
    k = np.where(long_game, 8, 4)
    drawn = np.zeros((n, 2, N_CARDS), bool)
    for i in range(n):
        for deck, seat in ((0, a_seat[i]), (1, 1 - a_seat[i])):
            drawn[i, seat, deck * 10 + rng.choice(10, k[i], replace=False)] = True
    a_drew = drawn[np.arange(n), a_seat]
    b_drew = drawn[np.arange(n), 1 - a_seat]
    # A is the stronger deck but loses long games; its card 0 helps it, B's card 10 hurts B
    logit = 1.2 - 3.0 * long_game + 1.0 * a_drew[:, STRONG] + 1.0 * b_drew[:, WEAK]
    a_wins = rng.random(n) < 1 / (1 + np.exp(-logit))
    outcome = np.where(a_wins == (a_seat == 0), SEAT0_WINS, SEAT1_WINS).astype(np.int8)
    seats = np.stack([np.where(a_seat == 0, 0, 1), np.where(a_seat == 0, 1, 0)], axis=1).astype(np.int32)
    # the per-entry counters card_table reads (games with the card in the deck / drawn / not drawn / points)
    cards = np.zeros((2, N_CARDS, 8), np.int64)
    for i in range(n):
        for seat in (0, 1):
            e = seats[i, seat]
            won = 2 if (outcome[i] == SEAT0_WINS) == (seat == 0) else 0
            for c in range(e * 10, e * 10 + 10):
                cards[e, c, 0] += 1
                cards[e, c, 1] += won
                col = 2 if drawn[i, seat, c] else 4
                cards[e, c, col] += 1
                cards[e, c, col + 1] += won
    return Tally(np.zeros((2, 2, 4), np.int64), np.zeros((2, 2, 4), np.int64), cards, np.arange(n, dtype=np.int64),
                 outcome, np.full(n, -1, np.int8), np.where(long_game, 20, 10).astype(np.int32), seats,
                 np.packbits(drawn, axis=2))


def test_the_effect_separates_a_card_from_its_deck_where_iwd_does_not() -> None:
    tally = _games(6000, seed=3)
    iwd = {r["card_id"]: r["iwd"] for r in card_table(tally.cards, [f"c{i}" for i in range(N_CARDS)])}
    # the confound, as IWD shows it: every card of A negative but the planted one, B's planted weak card positive
    assert all(iwd[c] < 0 for c in range(1, 10)) and iwd[WEAK] > 0
    model = fit_card_model(tally, 2, N_CARDS)
    assert model is not None and list(model.card_ids) == list(range(N_CARDS))
    flags = dict(zip(model.card_ids.tolist(), holm_flags(model.b, model.se).tolist()))
    assert flags[STRONG] == 1 and flags[WEAK] == -1
    assert [c for c, f in flags.items() if f and c not in (STRONG, WEAK)] == []
    # the planted effects are one logit each way, relative to the deck's average card (which they shift by 1/10)
    lo, hi = model.interval()
    assert lo[STRONG] < 0.9 < hi[STRONG] and lo[WEAK] < -0.9 < hi[WEAK]
    others = np.delete(model.b, [STRONG, WEAK])
    assert np.all(np.abs(others) < 0.35)
    assert to_points(model.b[STRONG]) > 0.15 and to_points(model.b[WEAK]) < -0.15


def test_holm_flags_nothing_in_a_pool_of_average_cards() -> None:
    """70 cards whose true effect is 0: plain 95% intervals flag about 3.5 of them, Holm's test about one in 20
    reports. Over 200 simulated reports the share of reports with any flag stays near 5%."""
    rng = np.random.default_rng(7)
    se = np.full(70, 0.1)
    any_flag = sum(bool(np.any(holm_flags(rng.normal(0, 0.1, 70), se))) for _ in range(200))
    naive = sum(int(np.sum(np.abs(rng.normal(0, 0.1, 70)) > 1.96 * 0.1)) for _ in range(200)) / 200
    assert any_flag <= 20 and naive > 2.5
    assert holm_flags(np.array([1.0, -1.0, 0.01]), np.array([0.1, 0.1, 0.1])).tolist() == [1, -1, 0]


def test_merged_tallies_keep_each_games_card_flags_in_game_order() -> None:
    whole = _games(40, seed=1)
    part = lambda s: Tally(whole.results, whole.first, whole.cards, whole.game_ids[s], whole.outcomes[s],  # noqa
                           whole.first_player[s], whole.turns[s], whole.seats[s], whole.drawn[s])
    merged = part(slice(25, 40)).merge(part(slice(0, 25)))
    np.testing.assert_array_equal(merged.game_ids, whole.game_ids)
    np.testing.assert_array_equal(merged.drawn_flags(N_CARDS), whole.drawn_flags(N_CARDS))
    np.testing.assert_array_equal(merged.seats, whole.seats)
    assert fit_card_model(Tally.empty(2, N_CARDS), 2, N_CARDS) is None
