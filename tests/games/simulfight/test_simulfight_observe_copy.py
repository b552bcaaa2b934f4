"""The observation kernel is generic over its output (issue 41): into an int16 row at any alignment (the static card
blocks are copied entry by entry, not as int64 words of an aligned buffer any more) and into float64 (check_game's
range guard observes there a second time) it writes the same values as the batch's own int16 observe."""
from __future__ import annotations

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.games.simulfight.obs_layout import OBS_DTYPE
from cardenvs.games.simulfight.observe import OBS_SIZE, observe_row


def test_an_unaligned_buffer_and_a_float64_buffer_get_the_same_observation() -> None:
    g = BatchGame("simulfight", 8, seed=4)
    rng = np.random.default_rng(1)
    for _ in range(30):
        mask = g.legal_mask()
        g.step(np.where(mask > 0, rng.random(mask.shape), -1.0).argmax(axis=1))
    buf = np.zeros(OBS_SIZE + 1, OBS_DTYPE)
    unaligned = buf[1:]  # 2 bytes past an aligned start
    assert unaligned.ctypes.data % 8 != 0
    wide = np.zeros(OBS_SIZE, np.float64)
    for i in range(8):
        for p in range(2):
            expected = g.observe(np.full(8, p, np.int32))[i].copy()
            assert expected.dtype == OBS_DTYPE and expected.any()
            observe_row(g.states[i], g.pool.tables, p, unaligned)
            np.testing.assert_array_equal(unaligned, expected)
            observe_row(g.states[i], g.pool.tables, p, wide)
            np.testing.assert_array_equal(wide, expected)
