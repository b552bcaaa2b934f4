"""Say so when a game's kernels compile, with a progress line, instead of going silent for a minute; and compile only
the kernels a program uses.

The first use of a game in a fresh install (or after its sources change) compiles its Numba kernels; later processes
load them from the on-disk cache in about a second. A :class:`~cardenvs.core.batch.BatchGame` holds each of its
game's kernels behind a :class:`CompileOnFirstCall` until that kernel's first call in the process: that call looks at
the kernel's cache index and, when nothing usable is cached, compiles it under a progress line on stderr
(``compiling relics kernels (first run only): batch_step [00:21]``, then ``compiled relics batch_step in 24 s (cached
for later runs)``; when stderr is not a terminal, as in a log file, just a line before and one after); then the
kernel itself takes the wrapper's place, so later calls cost nothing extra. A ``fused=True`` batch (tournaments,
training evaluations: resets and play through the fused ``batch_play``) compiles that one kernel, and a program that
steps and observes never compiles ``batch_play``: each kernel links in the whole rules engine, so each costs seconds
of compile. Set ``CARDENVS_QUIET=1`` to silence the lines.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, Callable

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
        if not first or not needs_compiling(compiled):
            return kernel(*args)
        return compile_with_progress(game.spec.name, self.name, lambda: kernel(*args))


def compile_with_progress(game_name: str, kernel_name: str, call: Callable[[], Any]) -> Any:
    """Run ``call`` (the first call of a kernel that must compile) under a progress line on stderr."""
    if os.environ.get("CARDENVS_QUIET", "") not in ("", "0"):
        return call()
    desc = f"compiling {game_name} kernels (first run only): {kernel_name}"
    if _is_terminal(sys.stderr):
        result, elapsed = _call_under_ticking_line(desc, call)
    else:  # a log file: one line before and one after, not a line redrawn every second
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


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False
