"""Where the time of a batch step goes: ``python -m cardenvs.benchmarks.profiling GAME [GAME ...] [--out PATH]``.

For each batch size the benchmark loop (sample, ``BatchGame.step``, ``observe``, ``legal_mask``) runs with the
game's four kernels wrapped in timers, which splits every call into kernel time and the Python glue around it
(BatchGame's argument handling, rewards, autoreset bookkeeping). It adds the fixed cost of one kernel call three
ways: a serial ``njit`` call (what a small batch pays), the row slices on threads BatchGame uses for a large batch
(:mod:`cardenvs.core.threads`), and a ``prange`` dispatch for comparison; and ``cProfile`` top functions of the batch-1
loop, the single AEC env and the SB3 VecEnv, which show the Python hot spots by name.

``--obs-write`` measures instead the ceiling the observation size alone sets: a kernel that fills every row of a
``[1024, obs_dim]`` buffer of the game's observation dtype (float32, or the compact int8/int16 rows) and does
nothing else, on the batch core's row-slice threads (prints a table and writes ``obs_write.json`` beside ``--out``).
"""
from __future__ import annotations

import argparse
import cProfile
import dataclasses
import io
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit, prange

from .common import crash_summary, masked_uniform
from .workloads import aec_workload, resolve_spec, vec_workload

PROFILE_BATCHES = (1, 64, 1024)
KERNELS = ("batch_step", "batch_observe", "batch_mask", "batch_reset")


@njit(parallel=True, cache=True)
def _touch_prange(x: np.ndarray) -> None:
    for i in prange(x.shape[0]):
        x[i] += 1


@njit(cache=True, nogil=True)
def _touch_serial(x: np.ndarray) -> None:
    for i in range(x.shape[0]):
        x[i] += 1


@njit(cache=True, nogil=True)
def _touch_rows(x: np.ndarray, tables: Any) -> None:
    for i in range(x.shape[0]):
        x[i] += 1


def dispatch_cost(sizes: tuple[int, ...] = (1, 64, 1024, 4096), calls: int = 2000) -> dict[str, dict[str, float]]:
    """Microseconds per call of a near-empty kernel: serial, row slices on threads (every row count split, to show
    the hand-off cost), and ``prange`` (Numba's thread pool wake-up + join)."""
    from cardenvs.core.threads import threaded

    sliced = threaded(_touch_rows, min_rows=2)
    out: dict[str, dict[str, float]] = {}
    for n in sizes:
        x = np.zeros(n, dtype=np.int32)
        row = {}
        for name, fn in (("prange_us", _touch_prange), ("serial_us", _touch_serial),
                         ("threads_us", lambda x: sliced(x, None))):
            fn(x)
            t0 = time.perf_counter()
            for _ in range(calls):
                fn(x)
            row[name] = (time.perf_counter() - t0) / calls * 1e6
        out[str(n)] = row
    return out


class _Timed:
    """A kernel wrapped to add its wall time to ``acc[name]``."""

    def __init__(self, name: str, fn: Callable, acc: dict[str, float]) -> None:
        self.name, self.fn, self.acc = name, fn, acc

    def __call__(self, *args: Any) -> Any:
        t0 = time.perf_counter()
        out = self.fn(*args)
        self.acc[self.name] += time.perf_counter() - t0
        return out


def split_batch_loop(game: str, batch: int, seconds: float = 2.0, seed: int = 0) -> dict[str, Any]:
    """Per-call microseconds of each part of the benchmark loop, kernels apart from glue."""
    from cardenvs.core.batch import BatchGame

    spec = resolve_spec(game)
    acc = {k: 0.0 for k in KERNELS}
    kernels = type(spec.kernels)(**{k: _Timed(k, getattr(spec.kernels, k), acc) for k in KERNELS})
    timed_spec = dataclasses.replace(spec, kernels=kernels)
    bg = BatchGame(timed_spec, batch, seed=seed, autoreset=True)
    rng = np.random.default_rng(seed)
    parts = {"sample": 0.0, "step (BatchGame.step)": 0.0, "observe (BatchGame.observe)": 0.0,
             "mask (BatchGame.legal_mask)": 0.0, "loop (to_act copy, counting)": 0.0}
    players = bg.to_act.copy()
    bg.observe(players)
    mask = bg.legal_mask(players)
    for _ in range(20):  # warm-up
        bg.step(masked_uniform(mask, rng), players=players)
        players = bg.to_act.copy()
        bg.observe(players)
        mask = bg.legal_mask(players)
    for k in acc:
        acc[k] = 0.0
    calls = decisions = resets = 0
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end:
        t0 = time.perf_counter()
        actions = masked_uniform(mask, rng)
        t1 = time.perf_counter()
        result = bg.step(actions, players=players)
        t2 = time.perf_counter()
        resets += int(np.count_nonzero(result.terminated | result.truncated))
        decisions += int(np.count_nonzero(players >= 0))
        players = bg.to_act.copy()
        t3 = time.perf_counter()
        bg.observe(players)
        t4 = time.perf_counter()
        mask = bg.legal_mask(players)
        t5 = time.perf_counter()
        parts["sample"] += t1 - t0
        parts["step (BatchGame.step)"] += t2 - t1
        parts["loop (to_act copy, counting)"] += t3 - t2
        parts["observe (BatchGame.observe)"] += t4 - t3
        parts["mask (BatchGame.legal_mask)"] += t5 - t4
        calls += 1
    total = sum(parts.values())
    us = lambda s: s / calls * 1e6  # noqa: E731
    split = {
        "kernel batch_step": us(acc["batch_step"]),
        "kernel batch_reset (autoreset)": us(acc["batch_reset"]),
        "glue in BatchGame.step": us(parts["step (BatchGame.step)"] - acc["batch_step"] - acc["batch_reset"]),
        "kernel batch_observe": us(acc["batch_observe"]),
        "glue in BatchGame.observe": us(parts["observe (BatchGame.observe)"] - acc["batch_observe"]),
        "kernel batch_mask": us(acc["batch_mask"]),
        "glue in BatchGame.legal_mask": us(parts["mask (BatchGame.legal_mask)"] - acc["batch_mask"]),
        "sampler (numpy masked_uniform)": us(parts["sample"]),
        "benchmark loop (to_act copy, counting)": us(parts["loop (to_act copy, counting)"]),
    }
    return {
        "batch": batch, "calls": calls, "decisions": decisions, "total_us_per_call": us(total),
        "decisions_per_s": decisions / total, "resets_per_decision": resets / max(decisions, 1),
        "us_per_call": split,
        "kernel_ns_per_decision": {k: acc[k] / max(decisions, 1) * 1e9 for k in KERNELS},
    }


def prange_vs_serial(batches: tuple[int, ...] = (1, 64, 1024, 4096), seconds: float = 0.3) -> dict[str, dict]:
    """Decisions/s of the ceiling's raw loop with its prange kernels and with the same loops compiled serial."""
    from .common import Budget, measure
    from .workloads import ceiling_raw_workload

    budget = Budget(seconds, 3, seconds)
    return {str(b): {"prange": measure(ceiling_raw_workload(b), budget).median,
                     "serial": measure(ceiling_raw_workload(b, serial=True), budget).median} for b in batches}


THREADING_VARIANTS: dict[str, dict[str, str]] = {
    "default": {},
    "OMP_WAIT_POLICY=passive": {"OMP_WAIT_POLICY": "passive"},
    "NUMBA_THREADING_LAYER=workqueue": {"NUMBA_THREADING_LAYER": "workqueue"},
    "NUMBA_NUM_THREADS=1": {"NUMBA_NUM_THREADS": "1"},
}


def _variant_probe(game: str, batches: tuple[int, ...], seconds: float) -> dict[str, Any]:
    """In a child: the dispatch cost and the benchmark loop's rate under this process's threading settings."""
    import numba

    from .common import Budget, measure
    from .workloads import batch_workload

    budget = Budget(seconds, 3, seconds)
    out: dict[str, Any] = {"dispatch": dispatch_cost((1, 1024), calls=500)}
    out["threading_layer"] = numba.threading_layer()
    out["rates"] = {str(b): measure(batch_workload(game, b), budget).median for b in batches}
    return out


def threading_variants(game: str, batches: tuple[int, ...] = (1, 1024), seconds: float = 0.3) -> dict[str, Any]:
    """The same loop in fresh processes under each threading setting (they are read at Numba's start-up)."""
    import json
    import os
    import subprocess

    from .throughput import ROOT

    out: dict[str, Any] = {}
    for label, extra in THREADING_VARIANTS.items():
        env = dict(os.environ, **extra)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
        cmd = [sys.executable, "-m", "cardenvs.benchmarks.profiling", "--variant-probe", game, "--batches",
               *map(str, batches), "--seconds", str(seconds)]
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("VARIANT ")]
        out[label] = json.loads(lines[-1][8:]) if lines else {"error": proc.stderr.strip()[-800:]}
    return out


def cprofile_top(run: Callable[[int], int], seconds: float = 2.0, top: int = 14) -> str:
    """The ``top`` functions by own time over about ``seconds`` of ``run`` (after an untimed warm-up)."""
    n, spent = 1, 0.0
    while spent < 0.2 and n < 2**20:  # warm-up, which also sizes the profiled run
        t0 = time.perf_counter()
        run(n)
        spent = time.perf_counter() - t0
        n *= 2
    calls = max(1, int(n / 2 * seconds / max(spent, 1e-9)))
    prof = cProfile.Profile()
    prof.enable()
    run(calls)
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).strip_dirs().sort_stats("tottime").print_stats(top)
    text = buf.getvalue()
    start = text.find("   ncalls")
    return f"{calls} calls\n" + (text[start:].rstrip() if start >= 0 else text.rstrip())


@njit(cache=True, nogil=True)
def _fill_rows(states: np.ndarray, tables: Any, obs: np.ndarray) -> None:
    for i in range(obs.shape[0]):
        row = obs[i]
        for j in range(row.shape[0]):
            row[j] = 0
        row[i % row.shape[0]] = 1  # one value per row, like the one-hot fields of a real observation


def observation_write_ceiling(game: str, batch: int = 1024, seconds: float = 0.5, repeats: int = 5) -> dict[str, Any]:
    """Rows per second of writing a ``game``-sized observation row and nothing else, ``batch`` rows per call on the
    batch core's row-slice threads (:func:`cardenvs.core.threads.threaded`, as ``BatchGame`` runs its kernels): no
    game can produce observations faster. Best of ``repeats`` runs of about ``seconds`` each."""
    from cardenvs.core.threads import threaded

    spec = resolve_spec(game)
    width = spec.obs_dim
    obs = np.zeros((batch, width), spec.obs_dtype)  # the rows as the game stores them (compact or float32)
    states = np.zeros((batch, 1), np.int32)
    run = threaded(_fill_rows, min_rows=2)
    run(states, None, obs)
    best = 0.0
    for _ in range(repeats):
        calls, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            run(states, None, obs)
            calls += 1
        best = max(best, calls * batch / (time.perf_counter() - t0))
    return {"game": game, "batch": batch, "obs_floats": width, "obs_dtype": spec.obs_dtype.name,
            "obs_bytes_per_row": width * obs.itemsize, "rows_per_s": best, "bytes_per_s": best * width * obs.itemsize,
            "buffer_mib": obs.nbytes / 2**20}


def row_costs(game: str, rows: int = 1024, plies: int = 240, repeats: int = 15) -> dict[str, float]:
    """Single-thread cost of each kernel per row (ns), over ``rows`` states sampled from random self-play at every
    stage of the game (not just openings): what one decision costs before any threading or Python glue."""
    from cardenvs.core.batch import BatchGame
    from cardenvs.core.header import H_TO_ACT

    bg = BatchGame(resolve_spec(game), rows, seed=3, autoreset=True, parallel=False)
    rng = np.random.default_rng(0)
    snaps = []
    mask = bg.legal_mask(bg.to_act.copy()).copy()
    for ply in range(plies):
        if ply % 24 == 0:
            snaps.append(bg.states.copy())
        bg.step(masked_uniform(mask, rng), players=bg.to_act.copy())
        mask = bg.legal_mask(bg.to_act.copy()).copy()
    pool = np.concatenate(snaps)
    states = pool[rng.choice(len(pool), rows, replace=False)].copy()
    players = states[:, H_TO_ACT].copy()
    k, tables = bg.spec.kernels, bg.pool.tables
    obs = np.zeros((rows, bg.spec.obs_dim), bg.spec.obs_dtype)
    masks = np.zeros((rows, bg.spec.num_actions), np.int8)
    errors = np.zeros(rows, np.int32)
    k.batch_mask(states, tables, players, masks)
    actions = masked_uniform(masks, rng)

    def best_ns(fn: Callable[[], Any]) -> float:
        fn()
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return min(times) / rows * 1e9

    hot = obs[:16]  # 16 rows of output that stay in cache: how much of observe is computing, how much memory

    def observe_into_hot_rows() -> None:
        for b in range(0, rows, 16):
            k.batch_observe(states[b:b + 16], tables, players[b:b + 16], hot)

    copy_ns = best_ns(lambda: states.copy())
    return {
        "observe": best_ns(lambda: k.batch_observe(states, tables, players, obs)),
        "observe_output_in_cache": best_ns(observe_into_hot_rows),
        "mask": best_ns(lambda: k.batch_mask(states, tables, players, masks)),
        "step": max(0.0, best_ns(lambda: k.batch_step(states.copy(), tables, players, actions, errors)) - copy_ns),
        "obs_floats": float(bg.spec.obs_dim),
        "obs_bytes": float(bg.spec.obs_dim * bg.spec.obs_dtype.itemsize),
    }


def profile_game(game: str, batches: tuple[int, ...] = PROFILE_BATCHES, seconds: float = 2.0,
                 cprofile: bool = True, save: Callable[[dict], None] | None = None,
                 threading: bool = True) -> dict[str, Any]:
    """Every profile of one game; ``save(partial)`` after each part, so a crash keeps what was measured.
    ``threading``/``cprofile``: also the threading-settings table and the cProfile listings (about the machine and
    the Python glue more than the game: the full run does them for the first game only, to stay in its budget)."""
    from .workloads import batch_workload

    save = save or (lambda partial: None)
    out: dict[str, Any] = {"game": game, "split": [split_batch_loop(game, b, seconds) for b in batches]}
    save(out)
    out["row_costs"] = row_costs(game)
    save(out)
    if threading:
        out["threading"] = threading_variants(game)
        save(out)
    if cprofile:
        out["cprofile_batch1"] = cprofile_top(batch_workload(game, 1), seconds)
        out["cprofile_aec"] = cprofile_top(aec_workload(game), seconds)
        save(out)
        try:
            out["cprofile_vec1024"] = cprofile_top(vec_workload(game, 1024), seconds)
        except Exception as err:  # the VecEnv needs agents/ and SB3; report rather than fail
            out["cprofile_vec1024"] = f"not measured: {err!r}"
        save(out)
    return out


def profile_game_isolated(game: str, seconds: float, threading: bool = True) -> dict[str, Any]:
    """:func:`profile_game` in a child process: a game that crashes loses only the parts not yet saved."""
    import json
    import os
    import subprocess
    import tempfile

    from .throughput import ROOT

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "profile.json"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
        cmd = [sys.executable, "-X", "faulthandler", "-m", "cardenvs.benchmarks.profiling", game, "--game-json", str(path),
               "--seconds", str(seconds)] + ([] if threading else ["--no-threading", "--no-cprofile"])
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
        out = json.loads(path.read_text()) if path.exists() else {"game": game}
    if proc.returncode != 0:
        out["crash"] = f"child process exited with {proc.returncode}: {crash_summary(proc.stderr)}"
    return out


def _md_split(res: dict[str, Any]) -> list[str]:
    cols = res["split"]
    head = "| part (µs per batch call) | " + " | ".join(f"batch {c['batch']}" for c in cols) + " |"
    lines = [head, "|---|" + "---:|" * len(cols)]
    for key in cols[0]["us_per_call"]:
        cells = []
        for c in cols:
            v = c["us_per_call"][key]
            cells.append(f"{v:,.1f} ({100 * v / c['total_us_per_call']:.0f}%)")
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    lines.append("| **total** | " + " | ".join(f"**{c['total_us_per_call']:,.1f}**" for c in cols) + " |")
    lines.append("| decisions/s in this instrumented loop | " + " | ".join(
        f"{c['decisions_per_s']:,.0f}" for c in cols) + " |")
    lines.append("| kernel ns per decision: step / observe / mask / reset | " + " | ".join(
        " / ".join(f"{c['kernel_ns_per_decision'][k]:.0f}" for k in KERNELS) for c in cols) + " |")
    lines.append("| game ends per decision (autoreset share) | " + " | ".join(
        f"{c['resets_per_decision']:.4f}" for c in cols) + " |")
    return lines


def markdown(results: list[dict[str, Any]], dispatch: dict[str, dict[str, float]], ratios: dict | None,
             ceiling: dict[str, Any] | None, serial: dict[str, dict] | None = None) -> str:
    out = ["# Where the time goes", "",
           "Generated by `python -m cardenvs.benchmarks.profiling` (called by `python -m cardenvs.benchmarks.compare` for every game "
           "below 100x PettingZoo `texas_holdem_v4` or below pgx `leduc_holdem` at batch 1024). The loop is the "
           "benchmark's (sample, step, observe, mask) with the game's kernels wrapped in timers; *glue* is the "
           "time inside the BatchGame method that is not its kernel. Timer overhead is about 0.2 µs per call.", ""]
    if ratios:
        out += ["## The bar", ""]
        for game, r in ratios.get("games", {}).items():
            def x(v: float | None) -> str:
                return "n/a" if v is None else f"{v:.3g}x"
            out.append(f"- {game} at batch {ratios['batch']}: {x(r['vs_texas_holdem_v4'])} texas_holdem_v4 (bar "
                       f"100x), {x(r['vs_pgx_leduc_holdem'])} pgx leduc_holdem (bar 1x), {x(r['vs_ceiling_raw'])} "
                       f"the ceiling's raw kernels")
        out.append("")
    out += ["## Fixed cost of a kernel call (near-empty kernel, µs per call)", "",
            "| rows | serial njit | row slices on threads (BatchGame from 256 rows) | prange |", "|---:|---:|---:|---:|"]
    out += [f"| {n} | {d['serial_us']:.2f} | {d['threads_us']:.2f} | {d['prange_us']:.2f} |"
            for n, d in dispatch.items()]
    out.append("")
    if serial:
        out += ["## prange against serial kernels (the ceiling game's raw loop, decisions/s)", "",
                "| batch | 4 prange kernels | the same loops, serial | serial / prange |", "|---:|---:|---:|---:|"]
        out += [f"| {b} | {v['prange']:,.0f} | {v['serial']:,.0f} | {v['serial'] / v['prange']:.2f}x |"
                for b, v in serial.items()]
        out.append("")
    if ceiling:
        out += ["## Reference: the ceiling game through the same BatchGame loop", ""]
        out += _md_split({"split": [ceiling]}) + [""]
    for res in results:
        out += [f"## {res['game']}", ""]
        if "split" in res:
            out += _md_split(res) + [""]
        if "row_costs" in res:
            rc = res["row_costs"]
            total = rc["observe"] + rc["mask"] + rc["step"]
            out += ["### One decision, one thread (serial kernels, ns per row, 1024 states from every stage of play)",
                    "", "| kernel | ns per row | share |", "|---|---:|---:|"]
            out += [f"| {name} | {rc[name]:,.0f} | {rc[name] / total:.0%} |" for name in ("step", "observe", "mask")]
            out += [f"| **total** | **{total:,.0f}** | |", "",
                    f"The observation is {rc['obs_floats']:,.0f} values "
                    f"({rc.get('obs_bytes', rc['obs_floats'] * 4):,.0f} bytes a row); one thread's ceiling for this "
                    f"game is about {1e9 / total:,.0f} decisions/s before threading and Python glue."]
            if "observe_output_in_cache" in rc:
                hot = rc["observe_output_in_cache"]
                out += [f"The same observations written over and over into 16 rows that stay in cache take "
                        f"{hot:,.0f} ns per row: about {max(0.0, 1 - hot / rc['observe']):.0%} of observe is "
                        f"moving its {rc.get('obs_bytes', rc['obs_floats'] * 4) / 1024:,.1f} KiB per row to and from "
                        f"memory."]
            out.append("")
        if "crash" in res:
            out += ["The profiling process crashed after the parts shown here:", "", "```", res["crash"], "```", ""]
        if "threading" in res:
            out += ["### Threading settings (fresh process each; decisions/s of the same loop)", "",
                    "| setting | layer | prange call, 1 row (µs) | prange call, 1024 rows (µs) | batch 1 | "
                    "batch 1024 |",
                    "|---|---|---:|---:|---:|---:|"]
            for label, v in res["threading"].items():
                if "error" in v:
                    out.append(f"| {label} | error | | | | |")
                    continue
                d, r = v["dispatch"], v["rates"]
                out.append(f"| {label} | {v['threading_layer']} | {d['1']['prange_us']:.1f} | "
                           f"{d['1024']['prange_us']:.1f} | {r.get('1', 0):,.0f} | {r.get('1024', 0):,.0f} |")
            out.append("")
        for key, title in (("cprofile_batch1", "cProfile, batch core at batch 1 (own time)"),
                           ("cprofile_aec", "cProfile, single AEC env"),
                           ("cprofile_vec1024", "cProfile, SB3 VecEnv at 1024 envs (random opponent)")):
            if key in res:
                out += [f"### {title}", "", "```", res[key], "```", ""]
    return "\n".join(out)


def write_profile(games: list[str], ratios: dict | None = None, path: Path | None = None,
                  seconds: float = 2.0) -> dict[str, Any]:
    from .throughput import ROOT

    path = path or ROOT / "docs" / "benchmarks" / "PROFILE.md"
    results = [profile_game_isolated(g, seconds, threading=(i == 0)) for i, g in enumerate(games)]
    dispatch = dispatch_cost()
    ceiling = split_batch_loop("ceiling", 1024, seconds)
    serial = prange_vs_serial()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown(results, dispatch, ratios, ceiling, serial))
    return {"games": results, "dispatch": dispatch, "ceiling_1024": ceiling, "prange_vs_serial": serial,
            "path": str(path)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="+")
    ap.add_argument("--variant-probe", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--game-json", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--batches", type=int, nargs="+", default=[1, 1024], help=argparse.SUPPRESS)
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per batch size")
    ap.add_argument("--out", type=Path, help="default docs/benchmarks/PROFILE.md")
    ap.add_argument("--no-threading", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--no-cprofile", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--obs-write", action="store_true",
                    help="only the observation-write ceiling per game (see the module docstring)")
    args = ap.parse_args(argv)
    from cardenvs.core.errors import UnknownGameError

    for game in args.games:
        try:
            resolve_spec(game)
        except UnknownGameError as err:
            ap.error(str(err))  # one line and exit 2, like any other bad argument
    if args.obs_write:
        import json

        rows = [observation_write_ceiling(g) for g in args.games]
        print(f"{'game':12s} {'obs values':>10s} {'dtype':>7s} {'bytes/row':>9s} {'buffer MiB':>10s} {'rows/s':>10s} "
              f"{'GB/s':>6s}")
        for r in rows:
            print(f"{r['game']:12s} {r['obs_floats']:10d} {r['obs_dtype']:>7s} {r['obs_bytes_per_row']:9d} "
                  f"{r['buffer_mib']:10.1f} {r['rows_per_s'] / 1e6:9.2f}M {r['bytes_per_s'] / 1e9:6.1f}")
        out = (args.out.parent if args.out else Path("docs/benchmarks")) / "obs_write.json"
        out.write_text(json.dumps(rows, indent=1))
        print(f"wrote {out}")
        return 0
    if args.variant_probe:
        import json

        print("VARIANT " + json.dumps(_variant_probe(args.games[0], tuple(args.batches), args.seconds)))
        return 0
    if args.game_json:
        import json

        profile_game(args.games[0], seconds=args.seconds, save=lambda r: args.game_json.write_text(json.dumps(r)),
                     threading=not args.no_threading, cprofile=not args.no_cprofile)
        return 0
    res = write_profile(args.games, None, args.out, args.seconds)
    print(Path(res["path"]).read_text())
    return 0


__all__ = [
    "cprofile_top", "dispatch_cost", "KERNELS", "main", "markdown", "observation_write_ceiling", "prange_vs_serial",
    "PROFILE_BATCHES", "profile_game", "profile_game_isolated", "row_costs", "split_batch_loop", "THREADING_VARIANTS",
    "threading_variants", "write_profile"
]


if __name__ == "__main__":
    sys.exit(main())
