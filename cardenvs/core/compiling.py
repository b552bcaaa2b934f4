"""Say so when a game's kernels compile, with a progress line, instead of going silent for a minute; and compile only
the kernels a program uses.

The first use of a game in a fresh install (or after its sources change) compiles its Numba kernels; later processes
load them from the on-disk cache in about a second. A :class:`~cardenvs.core.batch.BatchGame` holds each of its
game's kernels behind a :class:`CompileOnFirstCall` until that kernel's first call in the process: that call looks at
the kernel's cache index and, when nothing usable is cached, compiles it under a progress line on stderr
(``compiling relics kernels (first run only): batch_step [00:21]``, then ``compiled relics batch_step in 24 s (cached
for later runs)``; when stderr is not a terminal, as in a log file, or a progress bar is on screen, just a line before
and one after); then the
kernel itself takes the wrapper's place, so later calls cost nothing extra. A ``fused=True`` batch (tournaments,
training evaluations: resets and play through the fused ``batch_play``) compiles that one kernel, and a program that
steps and observes never compiles ``batch_play``: each kernel links in the whole rules engine, so each costs seconds
of compile. Set ``CARDENVS_QUIET=1`` to silence the lines.

The compiler uses one core, and every kernel links most of its game's rules engine, so the kernels of a game share
most of their compile work through Numba's on-disk cache: a helper function another process has compiled and cached
is loaded, not compiled again. So when a first call finds nothing cached, a second Python process
(:class:`HelperCompile`) compiles the game's two smallest kernels, ``batch_mask`` and ``batch_observe``, on the other
core at the same time: their helpers (the mask rules, the observation writers) reach the cache while this process
is still typing the rest of the engine, and it loads them from there. The first call of a kernel that process is
compiling waits for it. On two cores this took relics' first env-path call from 30.4 to 22.4 s. Where only one core
is usable, or with ``CARDENVS_COMPILE_PROCESSES=1``, everything compiles in this process as before.
"""
from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

__all__ = ["CompileOnFirstCall", "HelperCompile", "needs_compiling", "kernel_arguments", "kernel_signature",
           "compile_with_progress", "HELPER_KERNELS"]

#: (game, kernel) pairs whose first call in this process has been made
_DONE: set[tuple[str, str]] = set()


def needs_compiling(kernel: Any) -> bool:
    """True when ``kernel`` (a Numba dispatcher) has neither a compiled overload in this process nor a usable entry in
    its on-disk cache (a stale cache's index reads as empty)."""
    if getattr(kernel, "overloads", None):
        return False
    cache = getattr(kernel, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    if cache_file is None:
        return False  # not a cached dispatcher: nothing we can tell
    try:
        return not cache_file._load_index()
    except Exception:  # noqa: BLE001 (a private Numba API: on any surprise, say nothing)
        return False


class CompileOnFirstCall:
    """One kernel of a BatchGame until its first call, which compiles it (with a progress line when nothing is
    cached), puts the kernel itself in the game's ``kernels`` and runs the call."""

    __slots__ = ("game", "name", "kernel")

    def __init__(self, game: Any, name: str, kernel: Any) -> None:
        self.game, self.name, self.kernel = game, name, kernel

    def __call__(self, *args: Any) -> Any:
        game, kernel = self.game, self.kernel
        game.kernels = game.kernels._replace(**{self.name: kernel})
        compiled = getattr(game.spec.kernels, self.name)  # the dispatcher (``kernel`` may be its threaded wrapper)
        key = (game.spec.name, self.name)
        first = key not in _DONE
        _DONE.add(key)
        if not first:
            return kernel(*args)
        if not needs_compiling(compiled):
            started = HelperCompile._started.get(game.spec.name)
            if started is not None and self.name in started.kernels:
                started.reap_when_done()
            return kernel(*args)
        helper = HelperCompile.start(game.spec)
        if helper is not None and self.name in helper.kernels and helper.running():
            compile_with_progress(game.spec.name, f"{self.name} (in a second process)", helper.wait)
            if not needs_compiling(compiled):
                return kernel(*args)
        return compile_with_progress(game.spec.name, self.name, lambda: kernel(*args))


#: the kernels the second process compiles: the smallest ones, whose helpers every other kernel links as well
HELPER_KERNELS = ("batch_mask", "batch_observe")


class HelperCompile:
    """The second process of a first run: compiles a game's :data:`HELPER_KERNELS` into the on-disk cache (see the
    module docstring). One per game per process; it is stopped at exit if still running (what it has written is
    complete: Numba writes each cache file whole)."""

    _started: dict[str, "HelperCompile | None"] = {}

    def __init__(self, spec: Any, kernels: tuple[str, ...], process: subprocess.Popen) -> None:
        self.spec, self.kernels, self.process = spec, kernels, process

    @classmethod
    def start(cls, spec: Any) -> "HelperCompile | None":
        """The helper process for ``spec`` (started at the first call, when one is worth starting), or None."""
        if spec.name in cls._started:
            return cls._started[spec.name]
        cls._started[spec.name] = None
        from .threads import usable_cores

        if os.environ.get("CARDENVS_COMPILE_PROCESSES", "") == "1" or usable_cores() < 2 or not sys.executable:
            return None  # not wanted, one core, or an embedded interpreter with no Python to start
        kernels = tuple(n for n in HELPER_KERNELS if (spec.name, n) not in _DONE
                        and getattr(spec.kernels, n, None) is not None and needs_compiling(getattr(spec.kernels, n)))
        if not kernels or not _registered(spec):
            return None
        root = str(Path(__file__).resolve().parents[2])  # the folder this cardenvs is imported from
        env = {**os.environ, "CARDENVS_QUIET": "1", "CARDENVS_COMPILE_PROCESSES": "1",
               "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)}
        try:
            code = "import sys; from cardenvs.core.compiling import _compile_main as m; sys.exit(m(sys.argv[1:]))"
            process = subprocess.Popen([sys.executable, "-c", code, spec.name, *kernels],
                                       env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
        except (OSError, ValueError):  # no second process: everything compiles here
            return None
        helper = cls._started[spec.name] = cls(spec, kernels, process)
        atexit.register(helper.stop)
        return helper

    def running(self) -> bool:
        return self.process.poll() is None

    def wait(self) -> int:
        return self.process.wait()

    def reap_when_done(self) -> None:
        """Wait for the process once every kernel it compiles is in the cache: it is only exiting then, and a first
        call that found its kernel already cached would otherwise leave it running until this process exits."""
        if self.running() and not any(needs_compiling(getattr(self.spec.kernels, n)) for n in self.kernels):
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:  # stuck after its work: stopped at exit, as before
                pass

    def stop(self) -> None:
        if self.running():
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()


def _registered(spec: Any) -> bool:
    """True when another process gets this very game by its name (a registered game, not a spec made in code)."""
    try:
        from .registry import get_game

        return get_game(spec.name) is spec
    except Exception:  # noqa: BLE001 (an unknown name, a failing import: no helper process, nothing else changes)
        return False


def kernel_arguments(spec: Any, name: str, pool: Any = None) -> tuple:
    """Arguments of the types :class:`~cardenvs.core.batch.BatchGame` passes to the kernel ``name`` (one row; the
    row slices of a threaded call have the same types): what the helper process compiles for."""
    tables = (pool if pool is not None else spec.load_pool(None)).tables
    states = np.zeros((1, spec.state_layout.size), np.int32)
    decks = np.full((1, 2, spec.max_deck), -1, np.int32)
    seeds = np.zeros(1, np.int64)
    seats = np.zeros(1, np.int32)
    obs = np.zeros((1, spec.obs_dim), spec.obs_dtype)
    mask = np.zeros((1, spec.num_actions), np.int8)
    if name == "batch_reset":
        return states, tables, decks, seeds, np.ones(1, np.bool_)
    if name == "batch_step":
        return states, tables, seats, seats.copy(), np.zeros(1, np.int32)
    if name in ("batch_observe", "batch_mask"):
        return states, tables, seats, obs if name == "batch_observe" else mask
    if name == "batch_play":
        flags = np.zeros(1, np.int32)
        return (states, tables, decks, seeds, 1, True, seats, seats.copy(), flags, flags.copy(), states.copy(),
                seats.copy(), True, obs, mask)
    raise ValueError(f"no kernel named {name!r}")


def kernel_signature(spec: Any, name: str, pool: Any = None) -> tuple:
    """The Numba signature (argument types) of a BatchGame's call of kernel ``name``."""
    import numba

    return tuple(numba.typeof(a) for a in kernel_arguments(spec, name, pool))


def _compile_main(argv: list[str]) -> int:
    """``python -m cardenvs.core.compiling GAME KERNEL...``: compile those kernels into the on-disk cache."""
    from .registry import get_game  # not .batch: batch imports this module (no import circle)

    if len(argv) < 2:
        print("usage: python -m cardenvs.core.compiling GAME KERNEL [KERNEL ...]", file=sys.stderr)
        return 2
    spec = get_game(argv[0])
    for name in argv[1:]:
        getattr(spec.kernels, name).compile(kernel_signature(spec, name))
    return 0


def compile_with_progress(game_name: str, kernel_name: str, call: Callable[[], Any]) -> Any:
    """Run ``call`` (the first call of a kernel that must compile) under a progress line on stderr."""
    if os.environ.get("CARDENVS_QUIET", "") not in ("", "0"):
        return call()
    desc = f"compiling {game_name} kernels (first run only): {kernel_name}"
    if _is_terminal(sys.stderr) and not _under_live_display(sys.stderr):
        result, elapsed = _call_under_ticking_line(desc, call)
    else:  # a log file or a live display: one line before and one after, not a line redrawn every second
        print(f"{desc} ...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        result = call()
        elapsed = time.perf_counter() - start
    print(f"compiled {game_name} {kernel_name} in {elapsed:.0f} s (cached for later runs)", file=sys.stderr)
    return result


def _call_under_ticking_line(desc: str, call: Callable[[], Any]) -> tuple[Any, float]:
    """``call()`` under a tqdm line whose elapsed time keeps moving; returns its result and the seconds it took."""
    from tqdm.auto import tqdm  # imported only when there is something to show

    with tqdm(total=1, desc=desc, file=sys.stderr,
              leave=False, bar_format="{desc} [{elapsed}]") as bar:
        stop = threading.Event()

        def tick() -> None:  # the compiler gives no progress of its own: keep the elapsed time moving
            while not stop.wait(1.0):
                bar.refresh()

        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
        try:
            result = call()
        finally:
            stop.set()
            ticker.join()
        elapsed = bar.format_dict["elapsed"]
    return result, elapsed


def _under_live_display(stream: Any) -> bool:
    """True when ``stream`` is a rich live display's stand-in for stderr (a progress bar is on screen): it prints
    each write as a line of its own above the display, so a line redrawn every second became a new line every
    second; the two plain lines are written instead, and the display's own clock keeps moving."""
    if "rich" not in sys.modules:
        return False
    from rich.file_proxy import FileProxy

    return isinstance(stream, FileProxy)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False

