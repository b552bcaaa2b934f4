"""Throughput of one cardenvs game: ``python -m cardenvs.benchmarks.throughput GAME [--quick] [--json PATH]``.

Reports decisions/s of the batch core at each batch size (step + observation + mask of the player to act, random
legal actions drawn in the loop, finished games restarted in the same step), the single AEC env's decisions/s
through ``agent_iter``, the first-call compile time in a fresh process with an empty Numba cache and the cache-hit
load time in a second fresh process, and the memory of a 4096-game batch. ``GAME`` may also be ``ceiling``.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .common import Budget, fmt_rate, machine_info, measure, versions
from .workloads import aec_workload, batch_workload, resolve_spec

BATCHES = (1, 64, 1024, 4096)
QUICK_BATCHES = (1, 64)
ROOT = Path(__file__).resolve().parent.parent


def compile_probe(game: str, memory_batch: int = 4096, timeout: float = 900.0) -> dict[str, Any]:
    """Two fresh interpreters sharing a new, empty ``NUMBA_CACHE_DIR``: the first compiles, the second loads (the
    env and tool path: reset, observe, mask, step).

    Returns ``{"cold": {...}, "warm": {...}, "cold_rl": {...}}`` (see ``benchmarks/_probe.py``); the memory figures
    come from the warm run, where no compiler memory is in the peak. ``cold_rl`` is a third fresh interpreter on
    another empty cache that takes the RL path (a ``fused=True`` batch: ``batch_play`` alone): kernels compile at
    their first call, so each path compiles only its own kernels.
    """
    out: dict[str, Any] = {}
    for cache_phases in ((("cold", 0, "step"), ("warm", memory_batch, "step")), (("cold_rl", 0, "rl"),)):
        with tempfile.TemporaryDirectory(prefix="cardenvs-numba-cache-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
            for phase, mem, path in cache_phases:
                cmd = [sys.executable, "-m", "cardenvs.benchmarks._probe", "--game", game, "--memory-batch", str(mem),
                       "--path", path]
                t0 = time.perf_counter()
                proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=timeout)
                wall = time.perf_counter() - t0
                lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("PROBE ")]
                if proc.returncode != 0 or not lines:
                    out[phase] = {"error": (proc.stderr or proc.stdout).strip()[-2000:]}
                    continue
                out[phase] = json.loads(lines[-1][6:])
                out[phase]["process_wall_s"] = wall
            if cache_phases[-1][0] == "warm":  # the env path's cache, after the run that loaded from it
                out["cache_files"] = sum(len(files) for _, _, files in os.walk(cache))
    return out


def state_memory(game: Any) -> dict[str, int]:
    """Bytes per game: the state row, and the observation and mask buffers the batch keeps beside it."""
    spec = resolve_spec(game)
    return {
        "state_bytes_per_game": spec.state_layout.size * 4,
        "obs_bytes_per_game": spec.obs_dim * spec.obs_dtype.itemsize,  # compact rows: 1 or 2 bytes a value
        "obs_dtype": spec.obs_dtype.name,
        "mask_bytes_per_game": spec.num_actions,
        "deck_bytes_per_game": 2 * spec.max_deck * 4,
    }


def game_throughput(game: str, budget: Budget, batches: tuple[int, ...] = BATCHES, aec: bool = True,
                    compile_times: bool = True, log=print) -> dict[str, Any]:
    """Every figure of one game; ``log`` gets one line per measurement as it lands."""
    spec = resolve_spec(game)
    result: dict[str, Any] = {
        "game": game, "env_name": spec.env_name, "obs_dim": spec.obs_dim, "num_actions": spec.num_actions,
        "memory": state_memory(game), "batch": {}, "aec": None, "compile": None,
    }
    for b in batches:
        m = measure(batch_workload(game, b), budget)
        result["batch"][str(b)] = m.to_dict()
        log(f"  {game} batch {b:>5}: {fmt_rate(m.median)} decisions/s")
    if aec:
        m = measure(aec_workload(game), budget)
        result["aec"] = m.to_dict()
        log(f"  {game} AEC env: {fmt_rate(m.median)} decisions/s")
    if compile_times:
        result["compile"] = compile_probe(game)
        c = result["compile"]
        log(f"  {game} first call: cold {c.get('cold', {}).get('first_call_s', float('nan')):.2f} s, "
            f"cache hit {c.get('warm', {}).get('first_call_s', float('nan')):.2f} s")
    return result


def print_table(result: dict[str, Any]) -> None:
    rows = [(f"batch core, batch {b}", fmt_rate(m["median"])) for b, m in result["batch"].items()]
    if result["aec"]:
        rows.append(("AEC env (agent_iter)", fmt_rate(result["aec"]["median"])))
    c = result.get("compile") or {}
    for phase, label in (("cold", "empty cache (compile)"), ("warm", "cache hit (load)")):
        if phase in c and "first_call_s" in c[phase]:
            rows.append((f"import, {label}", f"{c[phase]['import_s']:.2f} s"))
            rows.append((f"first kernel calls, {label}", f"{c[phase]['first_call_s']:.2f} s"))
        elif phase in c:
            rows.append((f"first call, {label}", "error"))
    if "warm" in c and "peak_rss_mib" in c["warm"]:
        rows.append((f"peak RSS at batch {c['warm']['memory_batch']}", f"{c['warm']['peak_rss_mib']:.0f} MiB"))
    rows.append(("state bytes per game", str(result["memory"]["state_bytes_per_game"])))
    width = max(len(r[0]) for r in rows)
    mem = result["memory"]
    print(f"\n{result['env_name']}  (obs {result['obs_dim']} {mem.get('obs_dtype', 'float32')} values, "
          f"{mem['obs_bytes_per_game']} bytes; {result['num_actions']} actions)")
    for label, value in rows:
        print(f"  {label:<{width}}  {value:>10}")
    print("  (figures are decisions/s, median of repeats)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", help="a registered game (cardenvs.available_games()) or 'ceiling'")
    ap.add_argument("--quick", action="store_true", help="seconds, not minutes: batches 1 and 64, no compile probe")
    ap.add_argument("--batches", type=int, nargs="+", help=f"batch sizes (default {' '.join(map(str, BATCHES))})")
    ap.add_argument("--budget", type=float, help="seconds per repeat")
    ap.add_argument("--repeats", type=int, help="repeats (the median is reported)")
    ap.add_argument("--no-compile", action="store_true", help="skip the fresh-process compile/cache probe")
    ap.add_argument("--json", type=Path, help="where to write the JSON (default: benchmarks/results/GAME.json)")
    args = ap.parse_args(argv)

    budget = Budget.quick() if args.quick else Budget()
    if args.budget:
        budget.budget_s = args.budget
    if args.repeats:
        budget.repeats = args.repeats
    batches = tuple(args.batches) if args.batches else (QUICK_BATCHES if args.quick else BATCHES)
    result = game_throughput(args.game, budget, batches, compile_times=not (args.quick or args.no_compile))
    result.update({"budget": vars(budget), "machine": machine_info(), "versions": versions()})
    print_table(result)
    path = args.json or ROOT / "benchmarks" / "results" / f"{args.game}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1))
    print(f"wrote {path}")
    return 0


__all__ = [
    "BATCHES", "compile_probe", "game_throughput", "main", "print_table", "QUICK_BATCHES", "ROOT", "state_memory"
]


if __name__ == "__main__":
    sys.exit(main())
