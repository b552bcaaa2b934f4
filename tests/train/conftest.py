"""Training tests run Numba on one thread (see tests/one_numba_thread.py) and restore torch's thread count."""
from __future__ import annotations

import pytest
from one_numba_thread import one_numba_thread  # noqa: F401  (autouse fixture)


@pytest.fixture(autouse=True)
def _restore_torch_threads():
    import torch

    old = torch.get_num_threads()
    yield
    torch.set_num_threads(old)
