"""Say so when a game's kernels compile, with a progress bar, instead of going silent for a minute.

The first use of a game in a fresh install (or after its sources change) compiles its Numba kernels; later processes
load them from the on-disk cache in about a second. :func:`compile_with_progress` runs once per game per process,
before the first :class:`~cardenvs.core.batch.BatchGame` of that game touches its kernels: it looks at each kernel's
cache index, and if any kernel has nothing usable cached it compiles them one at a time on a scratch one-game batch
(the same argument types as the real calls, so nothing compiles twice) under a progress bar on stderr:
``compiling relics kernels (first run only): 2/5 [00:41, batch_observe]``. Set ``CARDENVS_QUIET=1`` to silence it.
"""
from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

_DONE: set[str] = set()


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


def compile_with_progress(game: Any) -> None:
    """Compile ``game``'s kernels (a BatchGame, before its first kernel call) with a progress bar if any is not
    cached. Runs at most once per game per process."""
    spec = game.spec
    if spec.name in _DONE:
        return
    _DONE.add(spec.name)
    kernels = {name: k for name, k in spec.kernels._asdict().items() if k is not None}
    todo = [name for name, k in kernels.items() if needs_compiling(k)]
    if not todo:
        return
    from tqdm.auto import tqdm  # imported only when there is something to show

    quiet = os.environ.get("CARDENVS_QUIET", "") not in ("", "0")
    states = np.zeros((1, game.states.shape[1]), np.int32)
    tables, decks, seeds = game.pool.tables, game.decks[:1].copy(), np.zeros(1, np.int64)
    who = np.full(1, -1, np.int32)
    acts, errors, ended = np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros(1, np.int32)
    obs = np.zeros((1, spec.obs_dim), np.float32)
    mask = np.zeros((1, spec.num_actions), np.int8)
    calls = {
        "batch_reset": lambda k: k(states, tables, decks, seeds, np.ones(1, np.bool_)),
        "batch_step": lambda k: k(states, tables, who, acts, errors),
        "batch_observe": lambda k: k(states, tables, np.zeros(1, np.int32), obs),
        "batch_mask": lambda k: k(states, tables, np.zeros(1, np.int32), mask),
        "batch_play": lambda k: k(states, tables, decks, seeds, 1, False, who, acts, errors, ended,
                                  np.zeros((1, states.shape[1]), np.int32), who, True, obs, mask),
    }
    order = [name for name in calls if name in todo]
    if "batch_reset" not in order:
        order.insert(0, "batch_reset")  # the scratch game must exist before the other kernels run on it
    with tqdm(total=len(order), desc=f"compiling {spec.name} kernels (first run only)", file=sys.stderr,
              disable=quiet, leave=False, bar_format="{desc}: {n}/{total} [{elapsed}{postfix}]") as bar:
        for name in order:
            bar.set_postfix_str(name)
            calls[name](kernels[name])
            bar.update(1)
    if not quiet:
        print(f"compiled {spec.name} kernels in {bar.format_dict['elapsed']:.0f} s (cached for later runs)",
              file=sys.stderr)
