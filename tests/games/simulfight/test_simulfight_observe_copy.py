"""The observation copies static card blocks as int64 pairs when its buffer is 8-byte aligned and float by float
otherwise: both give the same floats."""
from __future__ import annotations

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.games.simulfight.observe import OBS_SIZE, observe_row


def test_an_unaligned_buffer_gets_the_same_observation() -> None:
    g = BatchGame("simulfight", 8, seed=4)
    rng = np.random.default_rng(1)
    for _ in range(30):
        mask = g.legal_mask()
        g.step(np.where(mask > 0, rng.random(mask.shape), -1.0).argmax(axis=1))
    buf = np.zeros(OBS_SIZE + 1, np.float32)
    unaligned = buf[1:]  # 4 bytes past an aligned start
    assert unaligned.ctypes.data % 8 == 4
    for i in range(8):
        for p in range(2):
            expected = g.observe(np.full(8, p, np.int32))[i].copy()
            observe_row(g.states[i], g.pool.tables, p, unaligned)
            np.testing.assert_array_equal(unaligned, expected)
            assert expected.any()
