"""The tournaments' seeded random pilot: its one-pass Numba pick gives the choices of the plain numpy formula."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.eval.matches import SeededRandomPilot, _splitmix


def numpy_choices(mask: np.ndarray, seeds: np.ndarray, seats: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The reference: the pick-th legal action found by cumsum and argmax (pick = floor(u * legal count))."""
    key = _splitmix(seeds.astype(np.uint64) ^ _splitmix((seats.astype(np.int64) + 2 * counts).astype(np.uint64)))
    u = (key >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))
    running = np.cumsum(mask != 0, axis=1, dtype=np.int32)
    pick = np.floor(u * running[:, -1]).astype(np.int32)
    return np.argmax(running > pick[:, None], axis=1).astype(np.int32)


@pytest.mark.parametrize("width", [1, 2, 7, 98, 339])
@pytest.mark.parametrize("density", [0.0, 0.05, 0.5, 1.0])
def test_pilot_matches_the_numpy_formula(width: int, density: float) -> None:
    rng = np.random.default_rng(width * 100 + int(density * 10))
    mask = (rng.random((500, width)) < density).astype(np.int8)
    seeds = rng.integers(-2**63, 2**63 - 1, 500, dtype=np.int64)
    seats = rng.integers(0, 2, 500).astype(np.int32)
    counts = rng.integers(0, 10**6, 500)
    expected = numpy_choices(mask, seeds, seats, counts)
    pilot = SeededRandomPilot()
    np.testing.assert_array_equal(pilot.act_rows(mask, seeds, seats, counts), expected)
    np.testing.assert_array_equal(pilot.act_rows(mask.astype(bool), seeds, seats, counts), expected)
    rows = np.flatnonzero(rng.random(500) < 0.5)  # act_into: only the chosen rows are written
    out = np.full(500, -9, np.int32)
    pilot.act_into(mask, rows, seeds[rows], seats[rows], counts[rows], out)
    np.testing.assert_array_equal(out[rows], expected[rows])
    assert (np.delete(out, rows) == -9).all()
