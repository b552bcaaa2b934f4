"""Agents tests run Numba on one thread (see tests/one_numba_thread.py)."""
from one_numba_thread import one_numba_thread, two_numba_threads  # noqa: F401  (autouse fixture; opt-in)
