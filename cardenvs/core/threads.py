"""Run a game's batch kernels over many rows on several cores: contiguous row slices on a thread pool.

Every game writes each batch kernel once, as a plain ``@njit(cache=True, nogil=True)`` loop over its rows. For a
large batch, :func:`threaded` splits the rows into one contiguous slice per thread and calls the same compiled
kernel on each slice from a thread pool; ``nogil`` lets the slices run at the same time.

Why not ``prange``: a ``parallel=True`` copy of a kernel is a second compilation of the whole rules tree (the
gufunc), which doubled each game's first-call compile time (levelneo: 47 s serial only, 74 s with the prange
copies), and it needed a near-copy of every kernel in every game. Row slices of C-contiguous arrays keep the
kernel's signature, so no new compilation happens, and the results are the serial kernel's by construction
(rows are independent). The thread count follows ``numba.get_num_threads()``, so ``NUMBA_NUM_THREADS`` and
``numba.set_num_threads`` keep working as before.
"""
from __future__ import annotations

import itertools
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

#: from this many rows up a batch is split across threads (measured on 2 cores: handing a slice to another thread
#: costs about as much as stepping a few hundred rows)
PARALLEL_MIN_ROWS = 256


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class _Call:
    """One :func:`_run_calls`: the slices its workers have started and finished, the first failure, and whether the
    caller has given up (an interrupt): a slice not started by then never starts, one started is waited for."""

    __slots__ = ("lock", "done", "active", "finished", "failure", "cancelled")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done: queue.SimpleQueue = queue.SimpleQueue()  # a wake-up token per finished slice; the counts are truth
        self.active = 0
        self.finished = 0
        self.failure: BaseException | None = None
        self.cancelled = False


class _Workers:
    """Daemon threads that run ``(fn, args, call)`` jobs, counting them in their :class:`_Call`.

    ``queue.SimpleQueue`` (C, one lock) rather than ``ThreadPoolExecutor``: a hand-off costs about 23 µs instead
    of about 63 µs (2 cores; a ``prange`` dispatch is about 16 µs)."""

    def __init__(self, count: int) -> None:
        self.pid = os.getpid()
        self.count = count
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        for k in range(count):
            threading.Thread(target=self._serve, name=f"cardenvs-rows-{k}", daemon=True).start()

    def _serve(self) -> None:
        while True:
            fn, args, call = self.jobs.get()
            with call.lock:
                if call.cancelled:  # the caller was interrupted before this slice started: it must not write now
                    continue
                call.active += 1
            failure = None
            try:
                fn(*args)
            except BaseException as err:  # handed back to the caller, which re-raises it
                failure = err
            with call.lock:
                call.active -= 1
                call.finished += 1
                if failure is not None and call.failure is None:
                    call.failure = failure
            call.done.put(None)


_workers: _Workers | None = None


def _get_workers() -> _Workers:
    global _workers
    # a forked child (multiprocessing, SubprocVecEnv) inherits the object but not the threads: start new ones
    if _workers is None or _workers.pid != os.getpid():
        _workers = _Workers(max(1, usable_cores() - 1))
    return _workers


def row_slices(num_rows: int, threads: int) -> list[tuple[int, int]]:
    """``threads`` contiguous ``(start, stop)`` ranges covering ``0..num_rows`` as evenly as possible."""
    bounds = [num_rows * k // threads for k in range(threads + 1)]
    return [(a, b) for a, b in itertools.pairwise(bounds) if b > a]


def _threads_for(num_rows: int, min_rows: int, threads: int | None) -> int:
    """How many threads a call over ``num_rows`` rows gets: ``threads`` (default ``numba.get_num_threads()``), at
    most one per ``min_rows / 2`` rows, and 1 below ``min_rows``."""
    if num_rows < min_rows:
        return 1
    wanted = threads if threads is not None else numba.get_num_threads()
    return min(wanted, num_rows // max(1, min_rows // 2))


def _run_calls(kernel: Callable, calls: list[tuple]) -> None:
    """``kernel(*args)`` for each argument tuple: the first on this thread, the others on the workers; returns when
    all are done (re-raising the first failure).

    No slice writes after this returns, even when the caller is interrupted (Ctrl-C) while it waits: the interrupt
    cancels the slices no worker has started and waits for the running ones before it is raised (a second Ctrl-C
    meanwhile is absorbed). The counts live in the :class:`_Call`, so an interrupt between two bytecodes cannot lose
    track of a slice."""
    workers = _get_workers()
    call = _Call()  # one per call: concurrent callers never share
    others = len(calls) - 1
    try:
        for args in calls[1:]:
            workers.jobs.put((kernel, args, call))
        kernel(*calls[0])  # this thread takes the first slice instead of waiting idle
        while True:
            with call.lock:
                if call.finished == others:
                    break
            call.done.get()
    except BaseException as first:
        while True:  # cancel what has not started, wait for what runs; nothing may write after we return
            try:
                with call.lock:
                    call.cancelled = True
                    if call.active == 0:
                        break
                call.done.get()
            except BaseException:  # noqa: S112 (a second interrupt: keep waiting, the first one is raised)
                continue
        raise first
    if call.failure is not None:
        raise call.failure


def split_rows(kernel: Callable, sliced: tuple, whole: tuple = (), min_rows: int = PARALLEL_MIN_ROWS) -> None:
    """``kernel(*sliced, *whole)`` with every array of ``sliced`` cut into the same contiguous row slices, one per
    thread (``numba.get_num_threads()``, at most one per usable core); ``whole`` is passed as it is. The explicit
    form of :func:`threaded`, for kernels whose row arrays are not first (a policy's forward pass)."""
    num_rows = sliced[0].shape[0]
    wanted = _threads_for(num_rows, min_rows, None)
    if wanted <= 1:
        kernel(*sliced, *whole)
        return
    slices = row_slices(num_rows, min(wanted, _get_workers().count + 1))
    _run_calls(kernel, [(*[x[a:b] for x in sliced], *whole) for a, b in slices])


def threaded(kernel: Callable, min_rows: int = PARALLEL_MIN_ROWS, threads: int | None = None) -> Callable:
    """``kernel(states, tables, *rest)`` run over row slices on ``threads`` threads (default: at each call,
    ``numba.get_num_threads()``, at most one per usable core).

    Arguments after ``tables`` that are arrays with one entry per row (first dimension equal to the number of rows)
    are sliced with the rows; everything else (``tables``, scalars, buffers of another length) is passed whole.
    Below ``min_rows`` rows, or with one thread, the kernel is called directly.
    """

    def run(states: np.ndarray, tables: Any, *rest: Any) -> None:
        num_rows = states.shape[0]
        wanted = _threads_for(num_rows, min_rows, threads)
        if wanted <= 1:
            kernel(states, tables, *rest)
            return
        per_row = [isinstance(a, np.ndarray) and a.ndim > 0 and a.shape[0] == num_rows for a in rest]
        slices = row_slices(num_rows, min(wanted, _get_workers().count + 1))
        # the views are made here, so a worker only calls the compiled kernel (which releases the GIL at once)
        _run_calls(kernel, [(states[a:b], tables, *[x[a:b] if cut else x for x, cut in zip(rest, per_row)])
                            for a, b in slices])

    run.__name__ = f"threaded_{getattr(kernel, '__name__', 'kernel')}"
    run.__doc__ = kernel.__doc__
    run.kernel = kernel  # type: ignore[attr-defined]
    return run


__all__ = ["PARALLEL_MIN_ROWS", "row_slices", "split_rows", "threaded", "usable_cores"]
