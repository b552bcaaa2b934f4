"""Issue 15: a first run says it is compiling (with progress) instead of going silent, and a cached run says nothing."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

from cardenvs.core.compiling import needs_compiling

PROBE = "from cardenvs.core.batch import BatchGame; BatchGame('simulfight', 2, seed=1).legal_mask(); print('ok')"


def run(code: str, cache_dir: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(cache_dir), **env})


def test_first_run_reports_compiling_and_a_cached_run_is_silent(tmp_path: Path) -> None:
    first = run(PROBE, tmp_path, CARDENVS_COMPILE_PROCESSES="1")  # one process: each kernel compiles here, named
    assert first.returncode == 0, first.stderr
    assert "compiling simulfight kernels (first run only)" in first.stderr
    # the kernels the program called, each named, and none it did not call (batch_step, batch_play)
    assert "compiled simulfight batch_reset in" in first.stderr and "compiled simulfight batch_mask in" in first.stderr
    assert "batch_step" not in first.stderr and "batch_play" not in first.stderr, first.stderr
    # stderr is a pipe here, as in a log file: one line before and one after each kernel, no redrawn progress line
    assert "\r" not in first.stderr
    assert first.stderr.count("compiling simulfight kernels (first run only): batch_mask ...") == 1, first.stderr
    second = run(PROBE, tmp_path)
    assert second.returncode == 0 and "compil" not in second.stderr, second.stderr
    quiet = run(PROBE, tmp_path / "other", CARDENVS_QUIET="1")
    assert quiet.returncode == 0 and "compil" not in quiet.stderr, quiet.stderr


def test_needs_compiling_reads_the_cache_index(tmp_path: Path) -> None:
    (tmp_path / "probe_mod.py").write_text(textwrap.dedent("""
        from numba import njit

        @njit(cache=True)
        def double(x):
            return 2 * x
    """))
    code = ("import sys; sys.path.insert(0, {!r}); from cardenvs.core.compiling import needs_compiling; "
            "import probe_mod; before = needs_compiling(probe_mod.double); probe_mod.double(2); "
            "print(before, needs_compiling(probe_mod.double))").format(str(tmp_path))
    assert run(code, tmp_path / "cache").stdout.split() == ["True", "False"]
    assert run(code, tmp_path / "cache").stdout.split() == ["False", "False"]  # the next process finds the cache


def test_needs_compiling_is_false_for_plain_functions() -> None:
    assert needs_compiling(len) is False


def test_a_kernel_takes_its_wrappers_place_at_its_first_call() -> None:
    """Issue 15: kernels compile at their first call, then the kernel itself replaces the wrapper (no cost per call
    after that); a kernel the program never called is still wrapped, so it was never compiled for it."""
    from cardenvs.core.batch import BatchGame
    from cardenvs.core.compiling import CompileOnFirstCall

    game = BatchGame("simulfight", 2, seed=1, parallel=False)  # reset: its first call
    assert not isinstance(game.kernels.batch_reset, CompileOnFirstCall)
    assert isinstance(game.kernels.batch_mask, CompileOnFirstCall)
    mask = game.legal_mask().copy()
    assert game.kernels.batch_mask is game.spec.kernels.batch_mask
    assert mask.any() and (game.legal_mask() == mask).all()  # the first call's result is the kernel's
    assert isinstance(game.kernels.batch_step, CompileOnFirstCall)


def test_a_terminal_gets_a_progress_line_that_ends_with_the_compile_time(monkeypatch) -> None:
    import io

    from cardenvs.core import compiling

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.delenv("CARDENVS_QUIET", raising=False)
    assert compiling.compile_with_progress("relics", "batch_step", lambda: 7) == 7
    text = screen.getvalue()
    assert "\r" in text and "compiling relics kernels (first run only): batch_step [" in text  # tqdm's redrawn line
    assert text.rstrip().endswith("compiled relics batch_step in 0 s (cached for later runs)")


def test_warm_up_makes_the_first_calls_of_the_play_out_kernels() -> None:
    """``BatchGame.warm_up`` (tournaments call it before their clock starts) calls the one kernel a fused batch's
    ``play_out`` uses, ``batch_play``, and no other (each would be seconds of compile on a first run)."""
    from cardenvs.core import compiling
    from cardenvs.core.batch import BatchGame

    game = "divinecross"
    names = ("batch_reset", "batch_step", "batch_observe", "batch_mask", "batch_play")
    for name in names:
        compiling._DONE.discard((game, name))
    BatchGame.warm_up(game, observe=False)
    BatchGame.warm_up(game)
    assert {name for name in names if (game, name) in compiling._DONE} == {"batch_play"}


HELPED = ("import sys; from cardenvs.core.batch import BatchGame; from cardenvs.core import compiling; "
          "g = BatchGame('simulfight', 2, seed=1); helper = compiling.HelperCompile._started.get('simulfight'); "
          "print('helper', None if helper is None else helper.kernels, flush=True); "
          "m = g.legal_mask().copy(); o = g.observe().copy(); "
          "print('mask', int(m.sum()), 'obs', float(o.sum()), 'running', helper is not None and helper.running())")


def test_a_first_run_compiles_the_small_kernels_in_a_second_process(tmp_path: Path) -> None:
    """Issue 15 (cold start): on a first run a second process compiles ``batch_mask`` and ``batch_observe`` into the
    cache while this one compiles the rest; the first call of either waits for it and loads what it wrote, with the
    same results as one process; nothing is left running; ``CARDENVS_COMPILE_PROCESSES=1`` keeps to one process."""
    helped = run(HELPED, tmp_path / "two")
    assert helped.returncode == 0, helped.stderr
    assert "helper ('batch_mask', 'batch_observe')" in helped.stdout, helped.stdout
    assert helped.stdout.strip().endswith("running False"), helped.stdout  # waited for, not left behind
    # the second process wrote the two kernels' cache entries (Numba names them after the kernel)
    cached = [f.name for f in (tmp_path / "two").rglob("*.nbi")]
    assert any("batch_mask" in name for name in cached) and any("batch_observe" in name for name in cached), cached
    alone = run(HELPED, tmp_path / "one", CARDENVS_COMPILE_PROCESSES="1")
    assert alone.returncode == 0, alone.stderr
    assert "helper None" in alone.stdout
    results = [line for line in helped.stdout.splitlines() if line.startswith("mask")]
    assert results and results == [line for line in alone.stdout.splitlines() if line.startswith("mask")]
    warm = run(HELPED, tmp_path / "two")  # everything cached: no second process
    assert "helper None" in warm.stdout and "compil" not in warm.stderr, (warm.stdout, warm.stderr)


def test_the_second_process_compiles_the_signatures_a_batch_calls(game_name: str) -> None:
    """``kernel_signature`` (what the second process compiles) is the signature a BatchGame's own calls use, for every
    kernel of every game, in serial and row-slice calls: otherwise the first run would compile each kernel twice."""
    from cardenvs.core.batch import BatchGame
    from cardenvs.core.compiling import kernel_signature

    for parallel in (False, True):
        batch = BatchGame(game_name, 300 if parallel else 3, seed=2, parallel=parallel)
        mask = batch.legal_mask().copy()
        batch.observe()
        batch.step(mask.argmax(axis=1).astype(np.int32))
        fused = BatchGame(game_name, 300 if parallel else 3, seed=2, parallel=parallel, autoreset=True, fused=True)
        fused.play(fused.legal_mask().argmax(axis=1).astype(np.int32))
    spec = batch.spec
    for name in spec.kernels._fields:
        dispatcher = getattr(spec.kernels, name)
        assert kernel_signature(spec, name) in dispatcher.signatures, (name, dispatcher.signatures)


def test_no_second_process_when_none_can_start(monkeypatch) -> None:
    """A first call never fails for want of a second process: with no Python executable to start (an embedded
    interpreter), one usable core, ``CARDENVS_COMPILE_PROCESSES=1`` or a start that fails, none is started."""
    from cardenvs.core import compiling
    from cardenvs.core.batch import get_spec

    spec = get_spec("simulfight")
    monkeypatch.setattr(compiling, "needs_compiling", lambda kernel: True)  # as if nothing were cached
    monkeypatch.setattr(compiling, "_DONE", set())

    def start() -> object:
        compiling.HelperCompile._started.pop(spec.name, None)
        return compiling.HelperCompile.start(spec)

    for nothing in ("", None):  # Python's documented values when it cannot tell
        monkeypatch.setattr(sys, "executable", nothing)
        assert start() is None
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    assert start() is None  # the start fails: nothing is started, nothing raises
    monkeypatch.setenv("CARDENVS_COMPILE_PROCESSES", "1")
    monkeypatch.setattr(sys, "executable", sys.__dict__.get("_base_executable") or "/usr/bin/python3")
    assert start() is None
    compiling.HelperCompile._started.pop(spec.name, None)


def test_a_first_call_that_finds_its_kernel_cached_waits_for_a_helper_that_is_only_exiting(monkeypatch) -> None:
    """Issue 15 (cold start; CI once caught this race): the second process can have written both kernels and still be
    exiting when this one's first calls find them cached; the first call reaps it then instead of leaving it running."""
    from cardenvs.core import compiling
    from cardenvs.core.batch import BatchGame

    game = BatchGame("simulfight", 2, seed=1, parallel=False)
    game.legal_mask(), game.observe()  # both helper kernels compiled and cached in this process
    exiting = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(2)"])
    helper = compiling.HelperCompile(game.spec, compiling.HELPER_KERNELS, exiting)
    monkeypatch.setitem(compiling.HelperCompile._started, "simulfight", helper)
    compiling._DONE.discard(("simulfight", "batch_mask"))
    fresh = BatchGame("simulfight", 2, seed=1, parallel=False)
    try:
        assert (fresh.legal_mask() == game.legal_mask()).all()
        assert not helper.running()
    finally:
        helper.stop()
