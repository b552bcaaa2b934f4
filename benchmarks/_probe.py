"""Run in a fresh subprocess by :func:`benchmarks.throughput.compile_probe`; prints one JSON line.

Measures, from a clean interpreter: the import of the game, the first call of each batch kernel (a Numba compile
when ``NUMBA_CACHE_DIR`` points to an empty folder, a cache load when it holds the previous run's files), and then
the memory of a batch of ``--memory-batch`` games stepped for a while.
"""
from __future__ import annotations

import argparse
import json
import resource
import time


def rss_mib() -> float:
    try:
        import psutil

        return psutil.Process().memory_info().rss / 2**20
    except ImportError:  # /proc fallback (Linux)
        with open("/proc/self/statm") as fh:
            import os

            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_rss_mib() -> float:
    """This process's RSS high-water mark (``VmHWM``). Not ``ru_maxrss``: Linux carries that across ``exec``, so a
    child would report its parent's peak."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # not Linux: the best there is


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", required=True)
    ap.add_argument("--memory-batch", type=int, default=4096)
    ap.add_argument("--memory-steps", type=int, default=50)
    ap.add_argument("--path", choices=("step", "rl"), default="step",
                    help="step: reset, observe, mask, step (the env and tool path); rl: a fused batch (resets and play "
                         "through the fused kernel: tournaments, training evaluations, BatchGame.play loops)")
    args = ap.parse_args()

    t0 = time.perf_counter()
    import numpy as np

    from cardenvs.benchmarks.common import masked_uniform
    from cardenvs.benchmarks.workloads import resolve_spec
    from cardenvs.core.batch import BatchGame

    spec = resolve_spec(args.game)  # imports the game package (and numba)
    t_import = time.perf_counter() - t0

    t1 = time.perf_counter()
    game = BatchGame(spec, 2, seed=0, autoreset=True, fused=args.path == "rl")  # rl: resets through batch_play too
    if args.path == "rl":  # kernels compile at their first call: a fused batch compiles batch_play only
        _, _, mask = game.play(np.zeros(2, np.int32), players=np.full(2, -1, np.int32))  # no move: obs and mask
        game.play(masked_uniform(mask, np.random.default_rng(0)))
    else:
        players = game.to_act.copy()
        game.observe(players)  # batch_observe
        mask = game.legal_mask(players)  # batch_mask
        game.step(masked_uniform(mask, np.random.default_rng(0)), players=players)  # batch_step
    t_first = time.perf_counter() - t1
    rss_ready = rss_mib()

    out = {"game": args.game, "path": args.path, "import_s": t_import, "first_call_s": t_first,
           "total_s": t_import + t_first, "rss_ready_mib": rss_ready}
    if args.memory_batch > 0:
        rng = np.random.default_rng(1)
        big = BatchGame(spec, args.memory_batch, seed=0, autoreset=True)
        for _ in range(args.memory_steps):
            players = big.to_act.copy()
            big.observe(players)
            big.step(masked_uniform(big.legal_mask(players), rng), players=players)
        out.update({
            "memory_batch": args.memory_batch,
            "rss_after_batch_mib": rss_mib(),
            "peak_rss_mib": peak_rss_mib(),
            "batch_arrays_bytes": int(big.states.nbytes + big._obs.nbytes + big._mask.nbytes + big.decks.nbytes
                                      + big._errors.nbytes + big.seeds.nbytes),
        })
    print("PROBE " + json.dumps(out))


if __name__ == "__main__":
    main()
