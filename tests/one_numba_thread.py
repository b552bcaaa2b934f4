"""An autouse fixture for test folders whose tests make many tiny batch-kernel calls: one Numba thread while they run.

On a small shared CI machine the kernels' thread pool contends with everything else (measured: the agents tests took
79 s with the default threads and 5 s with one). Import it in a folder's conftest.py.
"""
from __future__ import annotations

import numba
import pytest


@pytest.fixture(autouse=True)
def one_numba_thread():
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(old)


@pytest.fixture
def two_numba_threads():
    """Two Numba threads for one test (overriding the folder's one), so that a batch of ``PARALLEL_MIN_ROWS`` rows or
    more is really cut into row slices: for tests of what the slices compute together."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("Numba has one thread on this machine: no row slices to check")
    old = numba.get_num_threads()
    numba.set_num_threads(2)
    yield
    numba.set_num_threads(old)
