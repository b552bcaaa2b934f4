"""Every cardenvs game beside the anchors, in one run: ``python -m cardenvs.benchmarks.compare [--quick]``.

Measures (decisions/s, median of repeats, warm-up excluded, one masked-uniform sampler for everyone):
  * each registered game: the batch core at batch 1/64/1024/4096, the AEC env, the SB3 VecEnv (random opponent);
  * the Numba ceiling (``benchmarks/ceiling.py``): raw kernels, through BatchGame, and fused;
  * PettingZoo classic (leduc_holdem_v4, texas_holdem_v4, gin_rummy_v4, texas_holdem_no_limit_v6), RLCard
    (limit-holdem, doudizhu, uno, gin-rummy), pgx on CPU (leduc_holdem, kuhn_poker, backgammon; jit + vmap);
  * compile time (empty Numba cache) and cache-hit load time, each in a fresh process; bytes of state per game
    and peak RSS at batch 4096.
Writes JSON, a Markdown table and a log-scale PNG chart (``docs/benchmarks/`` in full mode) and prints the ratios
that matter last. ``--quick`` takes seconds (CI); the full run is for publishing.
"""
from __future__ import annotations

import argparse
import datetime as dt
import importlib.util  # noqa: F401  (cardenvs.available_games uses importlib.util)
import json
import os
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import anchors as A
from .anchors import Entry
from .common import Budget, crash_summary, fmt_rate, load_average, machine_info, measure, versions
from .throughput import BATCHES, QUICK_BATCHES, ROOT, compile_probe, state_memory
from .workloads import (
    aec_workload,
    batch_workload,
    ceiling_fused_workload,
    ceiling_raw_workload,
    vec_workload,
)

DOCS = ROOT / "docs" / "benchmarks"
ANCHOR_GROUPS = ("pettingzoo", "rlcard", "pgx")
REFERENCE_BATCH = 1024


def cardenvs_games() -> list[str]:
    import cardenvs

    return cardenvs.available_games()


def _timed(entry: Entry, batches: tuple[int, ...], make: Callable[[int], Callable[[int], int]], budget: Budget,
           log: Callable[[str], None]) -> Entry:
    """Fill ``entry.figures`` for each batch size; a failure becomes the entry's status, not a crash."""
    try:
        for b in batches:
            entry.figures[str(b)] = measure(make(b), budget).to_dict()
            log(f"  {entry.name:<28} {entry.api:<34} batch {b:>5}: {fmt_rate(entry.figures[str(b)]['median'])}/s")
    except Exception as err:
        entry.status = "error"
        entry.reason = f"{type(err).__name__}: {err}\n{traceback.format_exc(limit=4)}"
        log(f"  {entry.name} {entry.api}: ERROR {type(err).__name__}: {err}")
    return entry


def game_entries(game: str, batches: tuple[int, ...], budget: Budget, vec: bool, log,
                 on_entry: Callable[[Entry], None] | None = None,
                 on_start: Callable[[Entry], None] | None = None) -> list[Entry]:
    """The batch core, the AEC env and (``vec``) the SB3 VecEnv of one game, measured in this process."""
    try:
        from .workloads import resolve_spec

        spec = resolve_spec(game)
    except Exception as err:  # a game still being written: reported, never fatal
        return [Entry(game, "cardenvs", "batch core (BatchGame.play)", status="error",
                      reason=f"does not import: {err!r}")]
    dims = {"obs_dim": spec.obs_dim, "num_actions": spec.num_actions}
    plan = [
        (Entry(game, "cardenvs", "batch core (BatchGame.play)", **dims), batches, lambda b: batch_workload(game, b)),
        # the same loop through the three separate calls, to show what the fused kernel buys (reference batch only)
        (Entry(game, "cardenvs", "step + observe + legal_mask (3 calls)", **dims),
         tuple(b for b in batches if b == 1024) or batches[-1:], lambda b: batch_workload(game, b, fused=False)),
        (Entry(game, "cardenvs", "AEC env (agent_iter)", **dims), (1,), lambda b: aec_workload(game)),
    ]
    if vec:
        plan.append((Entry(game, "cardenvs", "SB3 VecEnv (random opponent)", **dims), batches,
                     lambda b: vec_workload(game, b)))
    out = []
    for entry, sizes, make in plan:
        if on_start:
            on_start(entry)
        out.append(_timed(entry, sizes, make, budget, log))
        if on_entry:
            on_entry(entry)
    return out


def isolated_game_entries(game: str, batches: tuple[int, ...], budget: Budget, vec: bool, log) -> list[Entry]:
    """:func:`game_entries` in a child process (``benchmarks/_worker.py``): a crashing game loses only itself."""
    cmd = [sys.executable, "-X", "faulthandler", "-m", "cardenvs.benchmarks._worker", "--game", game,
           "--batches", *map(str, batches), "--budget", str(budget.budget_s), "--repeats", str(budget.repeats),
           "--warmup", str(budget.warmup_s)]
    if not vec:
        cmd.append("--no-vec")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    entries: list[Entry] = []
    current: dict | None = None
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("ENTRY "):
            entries.append(Entry(**json.loads(line[6:])))
            current = None
        elif line.startswith("BEGIN "):
            current = json.loads(line[6:])
        elif line.strip():
            log(line.rstrip())
    stderr = proc.stderr.read() if proc.stderr else ""
    if proc.wait() != 0:
        why = f"child process exited with {proc.returncode}" + (
            f" (signal {-proc.returncode})" if proc.returncode < 0 else "")
        crashed = Entry(**current) if current else Entry(game, "cardenvs", "batch core (BatchGame.play)")
        crashed.status, crashed.reason = "error", f"{why}: {crash_summary(stderr)}"
        log(f"  {game} {crashed.api}: CRASHED ({why})")
        entries.append(crashed)
    return entries


def ceiling_entries(batches: tuple[int, ...], budget: Budget, log) -> list[Entry]:
    from .ceiling import SPEC

    dims = {"obs_dim": SPEC.obs_dim, "num_actions": SPEC.num_actions}
    return [
        _timed(Entry("ceiling", "ceiling", "raw kernels (4 prange calls)", **dims), batches, ceiling_raw_workload,
               budget, log),
        _timed(Entry("ceiling", "ceiling", "batch core (BatchGame.play)", **dims), batches,
               lambda b: batch_workload("ceiling", b), budget, log),
        _timed(Entry("ceiling", "ceiling", "fused kernel (64 steps/call)", **dims), batches,
               ceiling_fused_workload, budget, log),
        _timed(Entry("ceiling", "ceiling", "AEC env (agent_iter)", **dims), (1,), lambda b: aec_workload("ceiling"),
               budget, log),
    ]


def anchor_entries(groups: tuple[str, ...], batches: tuple[int, ...], budget: Budget, pgx_envs: tuple[str, ...],
                   pgx_scan: bool, log) -> list[Entry]:
    out: list[Entry] = []

    def note(e: Entry) -> Entry:
        figs = ", ".join(f"b{b}: {fmt_rate(m['median'])}/s" for b, m in e.figures.items())
        log(f"  {e.name:<28} {e.api:<34} {figs if e.status == 'ok' else e.status + ': ' + e.reason.splitlines()[0]}")
        out.append(e)
        return e

    if "pettingzoo" in groups:
        for name in A.PETTINGZOO_ENVS:
            note(A.pettingzoo_env(name, budget))
    if "rlcard" in groups:
        for name in A.RLCARD_ENVS:
            note(A.rlcard_env(name, budget))
    if "pgx" in groups:
        for name in pgx_envs:
            note(A.pgx_env(name, batches, budget))
        if pgx_scan and pgx_envs:
            note(A.pgx_env(pgx_envs[0], batches, budget, scan=A.PGX_SCAN_LENGTH))
    return out


# ----- ratios ----------------------------------------------------------------------------------------------------
def find(entries: list[Entry], group: str, name: str | None = None, api_prefix: str = "") -> Entry | None:
    for e in entries:
        if e.group == group and (name is None or e.name == name) and e.api.startswith(api_prefix) and e.status == "ok":
            return e
    return None


def anchor_rate(e: Entry, batch: int) -> float | None:
    """An anchor's figure at ``batch``; single-env anchors (no batch API) count with their one figure, since
    stepping ``batch`` copies one after another gives the same rate."""
    if str(batch) in e.figures:
        return e.median(batch)
    if list(e.figures) == ["1"]:
        return e.median(1)
    return None


def reference_batch(entries: list[Entry]) -> int:
    """1024 when measured, else the largest batch any cardenvs game was measured at (quick mode)."""
    sizes = {int(b) for e in entries if e.group == "cardenvs" for b in e.figures}
    return REFERENCE_BATCH if REFERENCE_BATCH in sizes or not sizes else max(sizes)


def ratios(entries: list[Entry], batch: int | None = None) -> dict[str, Any]:
    batch = batch or reference_batch(entries)
    anchors = [e for e in entries if e.group in ANCHOR_GROUPS and e.status == "ok"]
    best = max(((anchor_rate(e, batch), e) for e in anchors if anchor_rate(e, batch)), default=(None, None),
               key=lambda t: t[0])
    texas = find(entries, "pettingzoo", "texas_holdem_v4")
    pgx_leduc = find(entries, "pgx", "leduc_holdem")
    ceil_raw = find(entries, "ceiling", api_prefix="raw")
    ceil_bg = find(entries, "ceiling", api_prefix="batch core")
    ceil_fused = find(entries, "ceiling", api_prefix="fused")
    out: dict[str, Any] = {
        "batch": batch,
        "best_anchor": None if best[1] is None else {"name": best[1].name, "group": best[1].group,
                                                     "api": best[1].api, "rate": best[0]},
        "games": {},
    }

    def div(a: float | None, b: float | None) -> float | None:
        return None if a is None or b is None or b == 0 else a / b

    for e in entries:
        if e.group != "cardenvs" or not e.api.startswith("batch core") or e.status != "ok":
            continue
        rate = e.median(batch)
        aec = find(entries, "cardenvs", e.name, "AEC")
        r = {
            "rate": rate,
            "vs_best_anchor": div(rate, best[0]),
            "vs_texas_holdem_v4": div(rate, texas and texas.median(1)),
            "vs_pgx_leduc_holdem": div(rate, pgx_leduc and pgx_leduc.median(batch)),
            "vs_ceiling_raw": div(rate, ceil_raw and ceil_raw.median(batch)),
            "vs_ceiling_batchgame": div(rate, ceil_bg and ceil_bg.median(batch)),
            "vs_ceiling_fused": div(rate, ceil_fused and ceil_fused.median(batch)),
            "aec_vs_texas_holdem_v4": div(aec and aec.median(1), texas and texas.median(1)),
        }
        # the brief's bar: 100x PettingZoo texas_holdem_v4 and at least pgx leduc_holdem at the same batch
        r["needs_profile"] = bool((r["vs_texas_holdem_v4"] is not None and r["vs_texas_holdem_v4"] < 100)
                                  or (r["vs_pgx_leduc_holdem"] is not None and r["vs_pgx_leduc_holdem"] < 1))
        out["games"][e.name] = r
    return out


# ----- output ------------------------------------------------------------------------------------------------------
def _row_label(e: Entry) -> str:
    return f"{e.name} [{e.api}]"


def table_rows(entries: list[Entry], batches: tuple[int, ...]) -> list[list[str]]:
    rows = []
    for e in entries:
        if e.status == "ok":
            cells = [fmt_rate(e.median(b)) for b in batches]
        else:
            cells = [e.status] + [""] * (len(batches) - 1)
        rows.append([e.group, e.name, e.api, str(e.obs_dim or ""), str(e.num_actions or ""), *cells])
    return rows


def print_table(entries: list[Entry], batches: tuple[int, ...]) -> None:
    header = ["group", "env", "api", "obs", "actions", *[f"b={b}" for b in batches]]
    rows = table_rows(entries, batches)
    try:
        from rich.console import Console
        from rich.table import Table

        t = Table(title="decisions/s (median of repeats; random legal actions; obs + mask included)")
        for i, h in enumerate(header):
            t.add_column(h, justify="right" if i >= 3 else "left")
        for r in rows:
            t.add_row(*r)
        Console(width=160).print(t)
    except ImportError:
        widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
        for r in [header, *rows]:
            print("  ".join(str(x).ljust(w) for x, w in zip(r, widths)))


def ratio_lines(rat: dict[str, Any]) -> list[str]:
    lines = []
    best = rat["best_anchor"]
    if best:
        lines.append(f"best anchor at batch {rat['batch']}: {best['name']} [{best['group']}, {best['api']}] "
                     f"{fmt_rate(best['rate'])}/s")
    for game, r in rat["games"].items():
        def x(v: float | None) -> str:
            return "n/a" if v is None else (f"{v:.3g}x")
        lines.append(
            f"{game} batch core @ {rat['batch']}: {fmt_rate(r['rate'])}/s = {x(r['vs_best_anchor'])} best anchor, "
            f"{x(r['vs_texas_holdem_v4'])} PettingZoo texas_holdem_v4, {x(r['vs_pgx_leduc_holdem'])} pgx leduc, "
            f"{x(r['vs_ceiling_raw'])} ceiling (raw kernels), {x(r['vs_ceiling_batchgame'])} ceiling (BatchGame), "
            f"{x(r['vs_ceiling_fused'])} ceiling (fused); single AEC env = {x(r['aec_vs_texas_holdem_v4'])} "
            f"texas_holdem_v4" + ("  -> below the bar: see docs/benchmarks/PROFILE.md" if r["needs_profile"] else ""))
    return lines


QUIET_LOAD = 0.7  # 1-minute load average above which a run is flagged as taken on a busy machine


def max_load(entries: list[Entry]) -> float | None:
    loads = [f.get("load_1m") for e in entries for f in e.figures.values() if f.get("load_1m") is not None]
    return max(loads) if loads else None


def busy_warning(report: dict[str, Any], entries: list[Entry]) -> list[str]:
    peak = max_load(entries)
    before = (report["meta"].get("load_before") or [0])[0]
    if max(before, peak or 0) <= QUIET_LOAD:
        return [f"The machine was quiet: 1-minute load {before} before the run, at most {peak} during it.", ""]
    return [f"**Warning: the machine was busy (1-minute load {before} before the run, up to {peak} during it); "
            "other processes competed for the cores, so these figures are low and noisy.**", ""]


def markdown(report: dict[str, Any], entries: list[Entry], batches: tuple[int, ...]) -> str:
    meta = report["meta"]
    m = meta["machine"]
    out = [
        "# cardenvs benchmarks",
        "",
        f"Generated by `python -m cardenvs.benchmarks.compare{' --quick' if meta['quick'] else ''}` on {meta['started']} "
        f"({meta['duration_s']:.0f} s). Machine: {m['cpu_model']}, {m['usable_cores']} usable cores, "
        f"{m.get('memory_total_gib', '?')} GiB; Numba threads {m['numba_threads']}. Load average (1/5/15 min) "
        f"before: {meta['load_before']}, after: {meta['load_after']}.",
        "",
        "Time per part of the run: " + ", ".join(f"{k} {v:.0f} s" for k, v in meta.get("phases_s", {}).items()) + ".",
        "",
        *busy_warning(report, entries),
        "Figures are **decisions per second** (one action applied for one player in one game), the median of "
        f"{meta['budget']['repeats']} repeats of about {meta['budget']['budget_s']} s each after "
        f"{meta['budget']['warmup_s']} s of excluded warm-up. Every loop draws random legal actions with the same "
        "masked-uniform sampler (`argmax((U[0,1) + 1) * mask)`, numpy; the same formula in jnp inside pgx's jitted "
        "step and in Numba inside the fused ceiling) and produces the acting player's observation and mask each "
        "decision; finished games restart inside the loop. Single-env APIs have only a batch-1 figure.",
        "",
        "| group | env | api | obs | actions | " + " | ".join(f"b={b}" for b in batches) + " |",
        "|---|---|---|---:|---:|" + "---:|" * len(batches),
    ]
    for r in table_rows(entries, batches):
        out.append("| " + " | ".join(r) + " |")
    out += ["", f"## Ratios at batch {report['ratios']['batch']}", ""]
    out += [f"- {line}" for line in ratio_lines(report["ratios"])]
    notes = [e for e in entries if e.status != "ok"]
    if notes:
        out += ["", "## Not measured", ""]
        out += [f"- {e.name} [{e.group}]: {e.status}: {e.reason.splitlines()[0] if e.reason else ''}" for e in notes]
    out += ["", "## Compile and load time (fresh process each)", "",
            "Each path compiles only the kernels it calls (a kernel compiles at its first call): the env and tool path "
            "(reset, observe, mask, step) and, on another empty cache, the RL path (a `fused=True` batch: resets "
            "and play through the fused kernel).", "",
            "| game | import (empty cache) | first kernel calls (empty cache: compile) | total, empty cache | "
            "import (cache hit) | first kernel calls (cache hit: load) | total, cache hit | RL path total, empty cache |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for game, c in report["compile"].items():
        if "skipped" in c:
            out.append(f"| {game} | skipped ({c['skipped']}) | | | | | | |")
            continue
        cold, warm, cold_rl = c.get("cold", {}), c.get("warm", {}), c.get("cold_rl", {})

        def s(d: dict, k: str) -> str:
            return f"{d[k]:.2f} s" if k in d else "error"
        out.append(f"| {game} | {s(cold, 'import_s')} | {s(cold, 'first_call_s')} | {s(cold, 'total_s')} | "
                   f"{s(warm, 'import_s')} | {s(warm, 'first_call_s')} | {s(warm, 'total_s')} | "
                   f"{s(cold_rl, 'total_s')} |")
    pgx_compile = [e for e in entries if e.group == "pgx" and e.status == "ok"]
    if pgx_compile:
        out += ["", "pgx jit compile (trace + XLA, per batch size, in the benchmark process): " + "; ".join(
            f"{e.name}: " + ", ".join(f"b{b} {t:.1f} s" for b, t in e.extra.get("compile_s", {}).items())
            for e in pgx_compile)]
    out += ["", "## Memory", "", "| game | state bytes/game | obs bytes/row (dtype) | mask bytes/game | "
            "RSS ready (MiB) | RSS after batch 4096 (MiB) | peak RSS (MiB) |", "|---|---:|---:|---:|---:|---:|---:|"]
    for game, mem in report["memory"].items():
        w = mem.get("probe", {})

        def f(k: str, w: dict = w) -> str:
            return f"{w[k]:.0f}" if k in w else "-"

        dtype = f" ({mem['obs_dtype']})" if "obs_dtype" in mem else ""
        out.append(f"| {game} | {mem.get('state_bytes_per_game', '-')} | {mem.get('obs_bytes_per_game', '-')}{dtype} | "
                   f"{mem.get('mask_bytes_per_game', '-')} | {f('rss_ready_mib')} | {f('rss_after_batch_mib')} | "
                   f"{f('peak_rss_mib')} |")
    for e in pgx_compile:
        sb = e.extra.get("state_bytes_per_game", {})
        if sb:
            out.append(f"| pgx {e.name} (State pytree incl. obs + mask) | {next(iter(sb.values())):.0f} | | | | | |")
    out += ["", "## Versions", "", ", ".join(f"{k} {v}" for k, v in meta["versions"].items()), "",
            "Chart: `throughput.png` (log scale). Raw figures (every repeat): `compare.json`.", ""]
    return "\n".join(out)


def chart(entries: list[Entry], batches: tuple[int, ...], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    ok = [e for e in entries if e.status == "ok"]
    labels = [f"{e.name}\n{e.api}" for e in ok]
    fig, ax = plt.subplots(figsize=(max(10, 0.75 * len(ok) + 3), 6.5))
    width = 0.8 / len(batches)
    colors = plt.get_cmap("viridis")(np.linspace(0.1, 0.85, len(batches)))
    x = np.arange(len(ok))
    for k, b in enumerate(batches):
        vals = [e.median(b) or 0.0 for e in ok]
        ax.bar(x + (k - (len(batches) - 1) / 2) * width, vals, width, label=f"batch {b}", color=colors[k])
    for i, e in enumerate(ok):  # shade the groups so ours, the ceiling and the anchors read apart
        ax.axvspan(i - 0.45, i + 0.45, color={"cardenvs": "#dbeafe", "ceiling": "#e5e7eb"}.get(e.group, "#fef3c7"),
                   zorder=-1, lw=0)
    texas, leduc = find(entries, "pettingzoo", "texas_holdem_v4"), find(entries, "pgx", "leduc_holdem")
    ref = reference_batch(entries)
    if texas:  # the project's bars, drawn across the chart
        ax.axhline(100 * texas.median(1), ls="--", lw=0.8, color="#b91c1c", label="100x PettingZoo texas_holdem_v4")
    if leduc and leduc.median(ref):
        ax.axhline(leduc.median(ref), ls=":", lw=0.8, color="#1d4ed8", label=f"pgx leduc_holdem at batch {ref}")
    ax.set_yscale("log")
    ax.set_ylabel("decisions / s (log scale)")
    ax.set_xticks(x)
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(axis="y", which="major", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ----- the run ---------------------------------------------------------------------------------------------------
def run(
    quick: bool = False,
    budget: Budget | None = None,
    batches: tuple[int, ...] | None = None,
    groups: tuple[str, ...] = ANCHOR_GROUPS,
    games: list[str] | None = None,
    compile_times: bool | None = None,
    vec: bool = True,
    pgx_envs: tuple[str, ...] | None = None,
    out_dir: Path | None = None,
    profile: bool | None = None,
    isolate: bool = True,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Measure everything and write ``compare.json``, ``RESULTS.md`` and ``throughput.png`` into ``out_dir``."""
    t_start = time.perf_counter()
    budget = budget or (Budget.quick() if quick else Budget())
    batches = batches or (QUICK_BATCHES if quick else BATCHES)
    compile_times = (not quick) if compile_times is None else compile_times
    profile = (not quick) if profile is None else profile
    pgx_envs = pgx_envs if pgx_envs is not None else (A.PGX_ENVS[:1] if quick else A.PGX_ENVS)
    out_dir = out_dir or (ROOT / "benchmarks" / "results" if quick else DOCS)
    out_dir.mkdir(parents=True, exist_ok=True)
    games = cardenvs_games() if games is None else games
    meta: dict[str, Any] = {
        "started": dt.datetime.now().isoformat(timespec="seconds"), "quick": quick, "budget": vars(budget),
        "batches": list(batches), "load_before": load_average(), "machine": machine_info(), "versions": versions(),
        "games": games,
    }
    log(f"cardenvs compare: games {games}, batches {list(batches)}, load {meta['load_before']}")

    # seconds spent in each part of the run, so a run over its time budget says where the time went
    phases: dict[str, float] = {}
    meta["phases_s"] = phases
    t_phase = time.perf_counter()

    def phase_done(name: str) -> None:
        nonlocal t_phase
        now = time.perf_counter()
        phases[name] = round(now - t_phase, 1)
        t_phase = now

    entries: list[Entry] = []
    for game in games:
        entries += (isolated_game_entries if isolate else game_entries)(game, batches, budget, vec, log)
        phase_done(f"measure {game}")
    entries += ceiling_entries(batches, budget, log)
    phase_done("measure ceiling")
    meta["machine"] = machine_info()  # again, now that a parallel kernel has picked the Numba threading layer
    entries += anchor_entries(groups, batches, budget, pgx_envs, pgx_scan=not quick, log=log)
    phase_done("measure anchors")

    compile_info: dict[str, Any] = {}
    memory: dict[str, Any] = {}
    probes: dict[str, Any] = {}
    if compile_times:
        # one game at a time: a first run compiles in two processes (cardenvs.core.compiling.HelperCompile), one
        # per core, so two probes at once would measure each other
        log(f"  compile probes, one at a time: {', '.join([*games, 'ceiling'])} "
            "(fresh processes, empty Numba cache then cache hit)")
        probes = {game: compile_probe(game) for game in [*games, "ceiling"]}
        phase_done("compile probes")
    for game in [*games, "ceiling"]:
        try:
            memory[game] = state_memory(game)
        except Exception as err:
            memory[game] = {"error": repr(err)}
        if compile_times:
            compile_info[game] = probes[game]
            warm = compile_info[game].get("warm", {})
            if "peak_rss_mib" in warm:
                memory[game]["probe"] = {k: warm[k] for k in ("memory_batch", "rss_ready_mib", "rss_after_batch_mib",
                                                              "peak_rss_mib", "batch_arrays_bytes")}
        else:
            compile_info[game] = {"skipped": "quick mode" if quick else "disabled"}

    phase_done("state memory")
    rat = ratios(entries)
    report: dict[str, Any] = {"meta": meta, "entries": [e.to_dict() for e in entries], "ratios": rat,
                              "compile": compile_info, "memory": memory}

    if profile:
        from .profiling import write_profile

        slow = [g for g, r in rat["games"].items() if r["needs_profile"]]
        if slow:
            log(f"  profiling {slow} (below 100x texas_holdem_v4 or below pgx leduc_holdem at batch 1024)")
            report["profile"] = write_profile(slow, rat, out_dir / "PROFILE.md")
            phase_done("profile")

    meta["load_after"] = load_average()
    meta["max_load_1m_during_measurements"] = max_load(entries)
    meta["finished"] = dt.datetime.now().isoformat(timespec="seconds")
    meta["duration_s"] = time.perf_counter() - t_start
    (out_dir / "compare.json").write_text(json.dumps(report, indent=1, default=str))
    (out_dir / "RESULTS.md").write_text(markdown(report, entries, batches))
    try:
        chart(entries, batches, out_dir / "throughput.png",
              f"decisions/s, random legal actions, {meta['machine']['cpu_model']} "
              f"({meta['machine']['usable_cores']} cores); load {meta['load_before']}")
    except Exception as err:  # a chart problem must not lose the figures
        log(f"  chart failed: {err!r}")

    print_table(entries, batches)
    print()
    for line in ratio_lines(rat):
        print(line)
    print("time per part: " + ", ".join(f"{k} {v:.0f} s" for k, v in phases.items()))
    print(f"\nwrote {out_dir / 'compare.json'}, {out_dir / 'RESULTS.md'}, {out_dir / 'throughput.png'} "
          f"in {meta['duration_s']:.0f} s; load before {meta['load_before']}, after {meta['load_after']}")
    return report


def wait_until_quiet(max_wait_s: float, threshold: float = QUIET_LOAD, log=print) -> bool:
    """Poll the 1-minute load average until it is at most ``threshold`` (True) or ``max_wait_s`` passed (False)."""
    t_end = time.time() + max_wait_s
    while True:
        load = load_average()
        if not load or load[0] <= threshold:
            return True
        if time.time() >= t_end:
            log(f"machine still busy after {max_wait_s:.0f} s (load {load}); measuring anyway, flagged as busy")
            return False
        log(f"waiting for a quiet machine: load {load}")
        time.sleep(15)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="seconds (CI): batches 1 and 64, short repeats, no probes")
    ap.add_argument("--batches", type=int, nargs="+")
    ap.add_argument("--budget", type=float, help="seconds per repeat")
    ap.add_argument("--repeats", type=int)
    ap.add_argument("--games", nargs="+", help="cardenvs games (default: every registered game that imports)")
    ap.add_argument("--anchors", nargs="*", choices=ANCHOR_GROUPS, help="anchor groups (default: all)")
    ap.add_argument("--pgx-envs", nargs="+", help=f"pgx games (default: {' '.join(A.PGX_ENVS)})")
    ap.add_argument("--no-vec", action="store_true", help="skip the SB3 VecEnv figures")
    ap.add_argument("--compile", dest="compile_times", action="store_true", default=None,
                    help="run the fresh-process compile probes (default: on in full mode)")
    ap.add_argument("--no-compile", dest="compile_times", action="store_false")
    ap.add_argument("--no-profile", dest="profile", action="store_false", default=None)
    ap.add_argument("--in-process", action="store_true",
                    help="measure the games in this process (default: one child process per game, so a crash "
                         "in a game loses only that game)")
    ap.add_argument("--out-dir", type=Path, help="default: docs/benchmarks (full), benchmarks/results (quick)")
    ap.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS",
                    help=f"first wait up to SECONDS for the 1-minute load to fall to {QUIET_LOAD}")
    args = ap.parse_args(argv)
    if args.wait_quiet:
        wait_until_quiet(args.wait_quiet)
    budget = Budget.quick() if args.quick else Budget()
    if args.budget:
        budget.budget_s = args.budget
    if args.repeats:
        budget.repeats = args.repeats
    run(quick=args.quick, budget=budget, batches=tuple(args.batches) if args.batches else None,
        groups=tuple(args.anchors) if args.anchors is not None else ANCHOR_GROUPS, games=args.games,
        compile_times=args.compile_times, vec=not args.no_vec,
        pgx_envs=tuple(args.pgx_envs) if args.pgx_envs else None, out_dir=args.out_dir, profile=args.profile,
        isolate=not args.in_process)
    return 0


__all__ = [
    "anchor_entries", "ANCHOR_GROUPS", "anchor_rate", "busy_warning", "cardenvs_games", "ceiling_entries", "chart",
    "DOCS", "find", "game_entries", "isolated_game_entries", "main", "markdown", "max_load", "print_table",
    "QUIET_LOAD", "ratio_lines", "ratios", "REFERENCE_BATCH", "reference_batch", "run", "table_rows",
    "wait_until_quiet"
]


if __name__ == "__main__":
    sys.exit(main())
