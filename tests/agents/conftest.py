"""One Numba thread while these tests run: the batch kernels do little work per call, and on a small shared CI
machine their thread pool contends with everything else (measured: the same tests took 79 s with the default
threads and 5 s with one)."""
from __future__ import annotations

import numba
import pytest


@pytest.fixture(autouse=True)
def _one_numba_thread():
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(old)
