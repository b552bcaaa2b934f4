"""``endings.py``: how a finished simulfight game ended (``eval``'s "how games end"), read from the final state.

One test per ending code, reaching that ending the way the SF-E2 scenario tests do (``simulfight_helpers.Game``),
then random games played out through the batch core: every game the rules ended is explained, nothing else is.
"""
from __future__ import annotations

import numpy as np
from simulfight_helpers import PH_ATTACK, PH_DEFEND, Game

from cardenvs.testing import random_endings
from cardenvs.core.header import DRAW, H_STATUS, H_WINNER, TERMINATED, TRUNCATED
from cardenvs.core.rows import forfeit_game
from cardenvs.games.simulfight import SPEC
from cardenvs.games.simulfight.endings import BOTH_DOWN, ENDINGS, EVEN_HEALTH, KNOCKOUT
from cardenvs.games.simulfight.state import ROUND_CAP


def siege(h0: int, h1: int, both: bool = True) -> np.ndarray:
    """Siege Ram (5 damage to the opponent) from player 0, and from player 1 too with ``both``, at healths h0, h1;
    returns the final row."""
    ram = dict(play=["Siege Ram"], swords=3)
    g = Game().setup(PH_ATTACK, 3, dict(ram, health=h0), dict(ram if both else {}, health=h1))
    g.use(0, "Siege Ram")
    if both:
        g.use(1, "Siege Ram")
    assert g.row[H_STATUS] == TERMINATED
    return g.row.copy()


def test_endings_name_the_games_rules() -> None:
    assert SPEC.endings == ENDINGS
    assert [rule for rule, _ in ENDINGS] == ["SF-E2"] * 3
    assert "stayed above 0" in ENDINGS[KNOCKOUT][1] and "higher health won" in ENDINGS[BOTH_DOWN][1]
    assert "equal health" in ENDINGS[EVEN_HEALTH][1]


def test_SF_E2_endings_the_loser_alone_at_zero_is_read_as_a_knockout() -> None:
    finals = np.stack([siege(20, 5, both=False), siege(6, 3), siege(3, 9)])  # 20 vs 0; 1 vs -2; -2 vs 4
    assert finals[:, H_WINNER].tolist() == [0, 0, 1]
    assert SPEC.end_reason(finals).tolist() == [KNOCKOUT] * 3
    assert SPEC.end_reason(finals[0]).tolist() == [KNOCKOUT]  # one row (1-D) is one game


def test_SF_E2_endings_both_at_zero_or_less_is_read_as_higher_health_wins() -> None:
    finals = np.stack([siege(2, 1), siege(2, 3), siege(5, 4)])  # -3 vs -4; -3 vs -2; 0 vs -1
    assert finals[:, H_WINNER].tolist() == [0, 1, 0]
    assert SPEC.end_reason(finals).tolist() == [BOTH_DOWN] * 3


def test_SF_E2_endings_equal_health_at_zero_or_less_is_read_as_a_draw() -> None:
    finals = np.stack([siege(2, 2), siege(5, 5)])  # -3 each; 0 each
    assert finals[:, H_WINNER].tolist() == [DRAW, DRAW]
    assert SPEC.end_reason(finals).tolist() == [EVEN_HEALTH] * 2


def test_SF_E2_endings_a_header_that_does_not_fit_the_health_is_no_ending() -> None:
    """end_reason reads SF-E2 from the health, not only the header's winner, so that the random-play check
    (``random_endings``: every ended game is explained) would catch an engine that ended a game against the rule:
    a draw at unequal health, a draw above 0, or a winner whose health is not above the loser's is no ending."""
    draw = siege(2, 2)  # -3 each: a draw
    won = siege(2, 1)  # -3 vs -4: player 0 won
    rows = np.stack([draw] * 4 + [won] * 2)
    health = SPEC.state_layout.get(rows, "health")  # a view: writing it writes the rows
    health[0] = (-3, -4)  # a draw at unequal health, either way round
    health[1] = (-4, -3)
    health[2] = (1, 1)  # a draw with nobody at 0 or less
    health[4] = (-4, -4)  # the winner's health equal to the loser's
    health[5] = (-5, -4)  # the winner's health below the loser's
    assert SPEC.end_reason(rows).tolist() == [-1, -1, -1, EVEN_HEALTH, -1, -1]


def test_SF_E2_endings_truncation_forfeits_and_live_games_are_not_endings() -> None:
    g = Game().setup(PH_DEFEND, ROUND_CAP, dict(hand=["Herald"], gold=1), dict())
    live = g.row.copy()
    g.done(0)  # round 41 would start: truncated (SF-E4; eval counts truncation itself)
    assert g.row[H_STATUS] == TRUNCATED
    truncated = g.row.copy()
    g = Game().setup(PH_DEFEND, 3, dict(hand=["Herald"], gold=1), dict(health=1))
    forfeit_game(g.row, 1)  # a resignation at 1 health: no rule of the game ended it
    assert SPEC.end_reason(np.stack([live, truncated, g.row])).tolist() == [-1, -1, -1]


def test_SF_endings_every_random_game_that_ends_by_the_rules_is_explained() -> None:
    codes = random_endings(SPEC, draw_codes=(EVEN_HEALTH,))  # 200 random games, checked (cardenvs.testing)
    assert (codes == KNOCKOUT).any() and (codes == BOTH_DOWN).any()  # both wins occur in random play
