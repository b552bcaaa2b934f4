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
    two workers on two cores do not run four threads. On the controller, the kernels compiled before the workers
    start (:func:`_warm_kernels_before_workers`)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        threads = max(1, usable_cores() // workers)
        os.environ.setdefault("OMP_NUM_THREADS", str(threads))  # torch reads it at import
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    _warm_kernels_before_workers(config)


#: the games split between the two warm-up processes, about even: cold, one game to a core beside the other, relics
#: compiled in 149 s, heartbreak 158, levelneo 94, divinecross 74, simulfight 40 (2026-12-01; the split before,
#: relics and simulfight against the other three, kept one core idle for 136 of 326 s)
WARM_GROUPS = (("relics", "levelneo"), ("heartbreak", "divinecross", "simulfight"))


def _warm_kernels_before_workers(config: pytest.Config) -> None:
    """On the xdist controller of a whole-suite run, compile the kernels most tests call once (tests/warm_kernels.py,
    the games split over two processes) before the workers start: otherwise each worker of a cold run compiles every
    game's kernels itself, the same minutes of work done once per worker. A warm cache makes this a few seconds;
    ``CARDENVS_TEST_WARM=0`` skips it; a subset of tests (paths or ``-n 0``) skips it too."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    if hasattr(config, "workerinput") or os.environ.get("CARDENVS_TEST_WARM", "1") == "0":
        return
    if not config.getoption("numprocesses", None) or config.getoption("collectonly", False):
        return
    if getattr(config, "args_source", None) != pytest.Config.ArgsSource.TESTPATHS:
        return
    script = Path(__file__).with_name("warm_kernels.py")
    groups = [[g for g in group if g in GAMES] for group in WARM_GROUPS]
    groups = [g for g in groups if g] if usable_cores() > 1 else [[g for group in groups for g in group]]
    sys.stderr.write("compiling the games' kernels once before the workers start (a few seconds when cached)\n")
    started = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, str(script), *group], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for group in groups]
    errors = [(group, p.communicate()[1]) for group, p in zip(groups, procs)]
    failed = [(group, err) for (group, err), p in zip(errors, procs) if p.returncode != 0]
    took = time.perf_counter() - started
    sys.stderr.write(f"warmed the kernels of {len(GAMES)} games in {took:.0f} s before starting the workers\n")
    for group, err in failed:  # the tests themselves will say what is wrong; this only must not hide it
        sys.stderr.write(f"warm-up of {', '.join(group)} failed (the tests compile on first call instead):\n"
                         f"{err.strip().splitlines()[-1] if err.strip() else '(no output)'}\n")


MAX_WORKERS = 4  # each worker imports torch and loads every game's kernels (about 1 GB); more buys little here


@pytest.hookimpl(optionalhook=True)  # known only where pytest-xdist is installed
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): one worker per core, at most ``MAX_WORKERS``."""
    return max(1, min(usable_cores(), MAX_WORKERS))


@pytest.fixture(autouse=True)
def _ctrl_c_is_keyboard_interrupt():
    """Every test starts with Python's own Ctrl-C handler. A library one test loads may leave SIGINT ignored or
    handled in the worker process (seen under xdist: the ctrl-C tests failed only on the worker that ran other files
    first), and an ignored SIGINT is inherited by the subprocesses a test starts, so the interrupt tests would test
    that worker's history instead of cardenvs."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield


#: Cases that run only with ``-m slow`` (or ``-m ""``): the longest of the default run on the 2-core CI machine
#: (seconds measured there, cold Numba cache, ``--durations=25``), each still covered in the default run by its
#: cheaper siblings (the same check on the other games, the other copy modes, the shorter interrupt delay).
SLOW_CASES = {
    "tests/train/test_grow.py::test_resume_with_grow_trains_the_grown_model_and_without_it_is_one_clear_error": 184,
    "tests/core/test_robustness.py::test_a_copied_aec_env_continues_the_same_game[relics-deepcopy]": 181,
    "tests/core/test_robustness.py::test_a_copied_aec_env_continues_the_same_game[heartbreak-deepcopy]": 95,
    "tests/core/test_replay.py::test_play_a_whole_game_from_a_script[relics]": 171,
    "tests/core/test_replay.py::test_play_a_whole_game_from_a_script[heartbreak]": 47,
    "tests/core/test_hostile_cli.py::test_finding10_ctrl_c_during_eval_exits_130_and_writes_nothing[12.0]": 132,
    "tests/core/test_invariants.py::test_invariants_under_every_pilot_pairing[heartbreak]": 111,
    "tests/core/test_invariants.py::test_invariants_under_every_pilot_pairing[relics]": 90,
    "tests/train/test_ppo.py::test_a_chain_file_runs_its_stages_in_turn_each_from_the_last": 87,
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid in SLOW_CASES:
            item.add_marker(pytest.mark.slow(reason=f"{SLOW_CASES[item.nodeid]} s in CI"))
