"""Shared fixtures: the registered games that import in this checkout."""
from __future__ import annotations

import os

import numba
import pytest

import cardenvs
from cardenvs.core.threads import usable_cores

GAMES = cardenvs.available_games()
# from the registry, without importing the games: one game that fails to import must not stop every test's collection
SIMULTANEOUS = [g for g in GAMES if g in cardenvs.SIMULTANEOUS_GAMES]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_name" in metafunc.fixturenames:
        metafunc.parametrize("game_name", GAMES)
    if "simultaneous_game" in metafunc.fixturenames:
        metafunc.parametrize("simultaneous_game", SIMULTANEOUS)


def pytest_configure(config: pytest.Config) -> None:
    """In a pytest-xdist worker, the cores shared out: Numba's and torch's thread pools sized cores / workers, so that
    two workers on two cores do not run four threads."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        threads = max(1, usable_cores() // workers)
        os.environ.setdefault("OMP_NUM_THREADS", str(threads))  # torch reads it at import
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))


MAX_WORKERS = 4  # each worker imports torch and loads every game's kernels (about 1 GB); more buys little here


@pytest.hookimpl(optionalhook=True)  # known only where pytest-xdist is installed
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): one worker per core, at most ``MAX_WORKERS``."""
    return max(1, min(usable_cores(), MAX_WORKERS))
