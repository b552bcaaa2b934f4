"""``RowChecker.bad_rows``: every row the one-row check refuses, found in one pass (the completeness check screens its
changed rows with it). It must refuse exactly the rows :meth:`RowChecker.first_error` refuses one at a time, for the
generic checks and for a game's own hook (relics and simulfight have one)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE
from cardenvs.core.rows import RowChecker


def _damaged_rows(game_name: str, rng: np.random.Generator) -> np.ndarray:
    """Live rows of random play, each with one state column set to a value of that column in another row, or to
    a value out of any range: a mix of rows every check passes and rows one check or another refuses."""
    game = BatchGame(game_name, 24, seed=3)
    picked = []
    for step in range(60):
        live = game.status == LIVE
        if not live.any():
            break
        if step % 6 == 0:
            picked.extend(game.states[live].copy())
        mask = game.legal_mask()
        game.step(np.argmax((rng.random(mask.shape) + 1) * (mask != 0), axis=1).astype(np.int32))
    rows = np.array(picked, dtype=np.int32)
    width = rows.shape[1]
    for i in range(len(rows)):
        column = int(rng.integers(width))
        rows[i, column] = rows[rng.integers(len(rows)), column] if i % 3 else rng.choice([-7, 10_000])
    return rows


def test_bad_rows_refuses_exactly_the_rows_the_one_row_check_refuses(game_name: str) -> None:
    rng = np.random.default_rng(7)
    rows = _damaged_rows(game_name, rng)
    game = BatchGame(game_name, 1)
    checker = RowChecker(game.spec, len(game.pool))
    one_by_one = np.array([checker.first_error(rows[i:i + 1], np.arange(i, i + 1)) is not None
                           for i in range(len(rows))])
    assert 0 < one_by_one.sum() < len(rows)  # both kinds are there: the comparison can fail either way
    np.testing.assert_array_equal(checker.bad_rows(rows), one_by_one)
