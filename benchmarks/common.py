"""What every benchmark shares: the one random-legal-action sampler, the timing protocol, and machine facts.

Timing protocol (the same for every environment, ours and the anchors):
  1. warm-up: run the workload until ``warmup_s`` has passed (compilation, caches, first episodes), excluded;
  2. calibrate: pick the number of calls so one repeat lasts about ``budget_s``;
  3. repeat that many calls ``repeats`` times; each repeat gives decisions/s; the figure is the median.
A *decision* is one action applied for one player in one game (a batch step over N live games is N decisions).
"""
from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata

import numpy as np


def masked_uniform(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` ([M, A], nonzero = legal).

    The one sampler used for every environment in these benchmarks (same algorithm as
    ``agents.base.masked_uniform``, copied so the benchmark does not move when the agents do): uniform noise in
    [1, 2) times the mask, argmax. The pgx runner uses the same formula in ``jax.numpy`` inside its jitted step
    and the fused Numba ceiling the same formula in Numba, because moving every mask to numpy would measure the
    transfer, not the environment.
    """
    noise = rng.random(mask.shape, dtype=np.float32) + 1.0  # > 0, so any legal action beats every illegal one
    return (noise * (mask != 0)).argmax(axis=1).astype(np.int32)  # the method: no np.argmax dispatch layer


@dataclass
class Budget:
    """How long to measure: ``budget_s`` per repeat, ``repeats`` repeats, ``warmup_s`` of excluded warm-up."""

    budget_s: float = 0.6
    repeats: int = 5
    warmup_s: float = 0.4

    @classmethod
    def quick(cls) -> Budget:
        return cls(budget_s=0.05, repeats=3, warmup_s=0.05)

    @classmethod
    def tiny(cls) -> Budget:
        return cls(budget_s=0.01, repeats=2, warmup_s=0.01)


@dataclass
class Measurement:
    """Decisions per second of one workload: the median and every repeat."""

    median: float
    runs: list[float] = field(default_factory=list)
    calls_per_run: int = 0
    decisions_per_run: int = 0
    load_1m: float | None = None  # the machine's 1-minute load average when the repeats ended

    def to_dict(self) -> dict:
        return {"median": self.median, "runs": self.runs, "calls_per_run": self.calls_per_run,
                "decisions_per_run": self.decisions_per_run, "load_1m": self.load_1m}


def measure(run: Callable[[int], int], budget: Budget, finish: Callable[[], None] | None = None) -> Measurement:
    """Time ``run(n)`` (does n calls, returns the decisions made) by the protocol above.

    ``finish`` is called before a clock stops (e.g. ``block_until_ready`` for JAX's asynchronous dispatch), so the
    time covers all the work that was started.
    """
    finish = finish or (lambda: None)
    # warm-up, excluded: also finds the number of calls that fills a repeat
    n, spent, t_end = 1, 0.0, time.perf_counter() + budget.warmup_s
    while True:
        t0 = time.perf_counter()
        run(n)
        finish()
        spent = time.perf_counter() - t0
        if (time.perf_counter() >= t_end and spent > 0.002) or n >= 2**30:
            break
        if spent < budget.budget_s / 4:
            n *= 2
    calls = max(1, int(n * budget.budget_s / max(spent, 1e-9)))
    runs, decisions = [], 0
    for _ in range(budget.repeats):
        t0 = time.perf_counter()
        decisions = run(calls)
        finish()
        runs.append(decisions / (time.perf_counter() - t0))
    load = load_average()
    return Measurement(statistics.median(runs), runs, calls, decisions, load[0] if load else None)


# ----- machine and versions --------------------------------------------------------------------------------------
def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_average() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def machine_info() -> dict:
    import numba

    from cardenvs.core.threads import usable_cores

    info = {
        "cpu_model": cpu_model(),
        "logical_cores": os.cpu_count(),
        "usable_cores": usable_cores(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "load_average_1_5_15": load_average(),
    }
    try:  # the layer is known once a parallel kernel has run; OMP spin/yield settings matter under load
        info["numba_threading_layer"] = numba.threading_layer()
    except ValueError:
        info["numba_threading_layer"] = "not initialised"
    info["env"] = {k: v for k, v in os.environ.items()
                   if k.startswith(("OMP_", "NUMBA_", "MKL_", "OPENBLAS_", "XLA_", "JAX_"))}
    try:
        import psutil

        info["memory_total_gib"] = round(psutil.virtual_memory().total / 2**30, 1)
    except ImportError:
        pass
    return info


PACKAGES = ("cardenvs", "numpy", "numba", "gymnasium", "pettingzoo", "stable-baselines3", "rlcard", "pgx", "jax",
            "jaxlib", "psutil", "matplotlib")


def versions() -> dict[str, str]:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    if out["cardenvs"] == "not installed":  # running from a checkout without `pip install -e`
        import cardenvs

        out["cardenvs"] = f"{cardenvs.__version__} (checkout)"
    try:
        import subprocess

        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        if rev.returncode == 0:
            out["cardenvs_git"] = rev.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return out


def crash_summary(stderr: str, limit: int = 1500) -> str:
    """The useful part of a dead child's stderr: faulthandler's error and stack (without the module list), or the
    tail."""
    start = stderr.find("Fatal Python error")
    if start >= 0:
        text = stderr[start:].split("\nExtension modules:")[0]
        return text.strip()[:limit]
    return stderr.strip()[-limit:]


def fmt_rate(x: float | None) -> str:
    """A decisions/s figure in a short human form (1.23M, 456k, 789)."""
    if x is None or not np.isfinite(x):
        return "-"
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= div:
            return f"{x / div:.3g}{unit}"
    return f"{x:.3g}"


__all__ = [
    "Budget", "cpu_model", "crash_summary", "fmt_rate", "load_average", "machine_info", "masked_uniform", "measure",
    "Measurement", "PACKAGES", "versions"
]
