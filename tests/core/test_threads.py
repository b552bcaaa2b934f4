"""Row slices on threads (``cardenvs.core.threads``): the multi-core path of every batch kernel gives exactly the
serial kernel's results, hands a failing slice's error back, and survives a fork."""
from __future__ import annotations

import multiprocessing

import numba
import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.core.threads import row_slices, split_rows, threaded


@numba.njit(cache=True, nogil=True)
def _add_row_index(states, tables, offsets):
    for i in range(states.shape[0]):
        states[i, :] += offsets[i] + tables[0]


@pytest.mark.parametrize("rows, threads", [(1, 2), (7, 3), (256, 2), (1000, 16)])
def test_row_slices_cover_every_row_once(rows: int, threads: int) -> None:
    slices = row_slices(rows, threads)
    assert slices[0][0] == 0 and slices[-1][1] == rows
    assert all(a < b for a, b in slices) and all(s[1] == t[0] for s, t in zip(slices, slices[1:]))
    sizes = [b - a for a, b in slices]
    assert max(sizes) - min(sizes) <= 1


def test_threaded_kernel_slices_per_row_arrays_only() -> None:
    states = np.zeros((301, 4), np.int32)
    offsets = np.arange(301, dtype=np.int32)
    tables = np.array([1000, 0, 0], np.int32)  # shared: never sliced, even where its length could match
    threaded(_add_row_index, min_rows=2, threads=3)(states, tables, offsets)
    np.testing.assert_array_equal(states, (offsets + 1000)[:, None].repeat(4, axis=1))


@numba.njit(cache=True, nogil=True)
def _gather_rows(rows, out, source, scale):
    for i in range(rows.shape[0]):
        out[i] = source[rows[i]] * scale[0] + scale[1]


def test_split_rows_cuts_the_sliced_arrays_only() -> None:
    """The explicit split (the policy's first layer): ``sliced`` arrays cut per thread, ``whole`` ones never, even
    with as many entries as there are rows."""
    old = numba.get_num_threads()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    try:
        rows = np.arange(300, dtype=np.int64)[::-1].copy()
        source = np.arange(300, dtype=np.float64)  # the same length as rows: still passed whole
        out = np.zeros(300)
        split_rows(_gather_rows, (rows, out), (source, np.array([2.0, 1.0])), min_rows=2)
        np.testing.assert_array_equal(out, source[rows] * 2 + 1)
    finally:
        numba.set_num_threads(old)


def test_threaded_reraises_a_failing_slice_after_all_slices_finish() -> None:
    seen: list[int] = []

    def kernel(states, tables, rows):
        seen.append(len(rows))
        if rows[0] != 0:
            raise ValueError("slice failed")

    with pytest.raises(ValueError, match="slice failed"):
        threaded(kernel, min_rows=2, threads=2)(np.zeros((10, 1)), None, np.arange(10))
    assert sorted(seen) == [5, 5]


def _threaded_in_child(queue) -> None:
    states = np.zeros((64, 2), np.int32)
    threaded(_add_row_index, min_rows=2, threads=2)(states, np.zeros(1, np.int32), np.arange(64, dtype=np.int32))
    queue.put(int(states.sum()))


def test_threaded_kernels_work_in_a_forked_child() -> None:
    threaded(_add_row_index, min_rows=2, threads=2)(np.zeros((8, 2), np.int32), np.zeros(1, np.int32),
                                                    np.arange(8, dtype=np.int32))  # workers started in the parent
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_threaded_in_child, args=(out,))
    child.start()
    child.join(timeout=120)
    assert child.exitcode == 0, "the forked child hung or failed"
    assert out.get(timeout=5) == 2 * sum(range(64))


def test_parallel_batch_equals_serial_batch(game_name: str) -> None:
    """The same games stepped with rows split across threads and in one loop end in identical states."""
    old = numba.get_num_threads()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    try:
        split = BatchGame(game_name, 300, seed=3, autoreset=True, parallel=True)
        single = BatchGame(game_name, 300, seed=3, autoreset=True, parallel=False)
        rng = np.random.default_rng(0)
        mask = single.legal_mask(single.to_act.copy()).copy()
        for _ in range(60):
            actions = np.where(mask > 0, rng.random(mask.shape), -1.0).argmax(axis=1).astype(np.int32)
            _, obs_a, mask_a = split.play(actions)
            _, obs_b, mask_b = single.play(actions)
            np.testing.assert_array_equal(split.states, single.states)
            np.testing.assert_array_equal(obs_a, obs_b)
            np.testing.assert_array_equal(mask_a, mask_b)
            mask = mask_b.copy()
    finally:
        numba.set_num_threads(old)
