"""The time budget of a training command (``--max-minutes M``) and the progress bar of a training run.

A budget is a promise: the whole command, from the start of its process to its exit, ends within ``M`` minutes plus
:func:`tolerance` (5 s and 2% of the budget: Python's start before the clock can be read, and the last estimates).
How the trainer (:mod:`train.ppo`) keeps it:

- **the clock** starts when the process started (Linux ``/proc``; elsewhere when the command began), so imports, the
  env, the model and every evaluation count. A ``[bc]`` warm start is the one exception, stated in its log line: it
  records a fixed number of games, so the clock is moved on by its duration.
- **evaluations are planned in time**, :func:`plan`: ``points`` of them (3 to 25, one per 90 s of budget, the final
  one included), together at most ``EVAL_SHARE`` of the budget; each gets a time slice and plays the seat-swapped
  games that fit in it (:func:`train.evaluate.play_timed`, never more than ``[eval] games``); the final evaluation
  gets two slices. The first is at the start (the untrained policy, a run's baseline), the others spread evenly
  over the time left for training, each announced before it plays.
- **the final evaluation and saving are reserved**: training stops once the rest of the current rollout, its update,
  the final evaluation and saving would no longer fit (each measured as the run goes).
- **the bar shows the budget**: elapsed time against it, with the step count, the rate and what is being evaluated.
- **the setup is watched** (:class:`SetupWatch`): Python's start, the imports, and the kernels compiling at their
  first call after an install or an edit (minutes on a loaded machine, and no loop of the trainer's runs meanwhile)
  happen before the trainer can keep the budget itself. An alarm set for the budget's end (its tolerance included)
  stops the command there with one line saying so, whatever it was doing, until the first training step; kernels
  that finished compiling stay cached, so the next run starts where this one stopped.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from dataclasses import dataclass

from cardenvs.core.errors import CardenvsError

#: the whole command ends within budget + TOLERANCE_S + TOLERANCE_SHARE * budget
TOLERANCE_S = 5.0
TOLERANCE_SHARE = 0.02
#: the evaluations' share of the budget (all of them, the final one included)
EVAL_SHARE = 0.2
#: one evaluation point per this many seconds of budget, MIN_POINTS to MAX_POINTS in all
SECONDS_PER_POINT = 90.0
MIN_POINTS, MAX_POINTS = 3, 25


def tolerance(seconds: float) -> float:
    """How far past its budget of ``seconds`` a training command may end (stated in the docs and the log)."""
    return TOLERANCE_S + TOLERANCE_SHARE * float(seconds)


def process_start() -> float | None:
    """``time.perf_counter()``'s reading when this process started (Linux: ``/proc/self/stat``), or None where that
    cannot be read. Python's own start and the imports before the command's first line then count too."""
    try:
        with open("/proc/self/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        start_ticks = int(fields[19])  # field 22 of the line (starttime, in clock ticks after boot)
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        age = uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    if not 0 <= age < 3600:  # an implausible age (a clock oddity): rather the command's own start
        return None
    return time.perf_counter() - age


class BudgetSpentError(CardenvsError):
    """A budgeted command's setup (its start, the imports, compiling the kernels) used the whole budget."""


class _SetupAlarm(BaseException):
    """Raised by the alarm; a BaseException, like KeyboardInterrupt, so that no ``except Exception`` on the way (Numba's
    compiler has several) takes it for an error of its own."""


class SetupWatch:
    """An alarm at ``deadline`` plus the budget's tolerance, armed while the command is setting up (:func:`watch`).
    Where the platform has no ``SIGALRM`` (Windows) or the command runs off the main thread, nothing is armed and the
    setup's time is only counted."""

    def __init__(self, deadline: float, budget_s: float, game: str, clock_start: float) -> None:
        self.deadline, self.budget_s, self.game, self.clock_start = deadline, budget_s, game, clock_start
        self.armed = self.fired = False
        self._previous: object = None

    def arm(self) -> None:
        if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
            return
        left = self.deadline + tolerance(self.budget_s) - time.perf_counter()

        def _spent(signum: int, frame: object) -> None:
            self.fired = True
            raise _SetupAlarm()

        self._previous = signal.signal(signal.SIGALRM, _spent)
        signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))
        self.armed = True

    def disarm(self) -> None:
        """Training has begun: from here the trainer keeps the budget (idempotent)."""
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)  # type: ignore[arg-type]
            self.armed = False

    def __enter__(self) -> "SetupWatch":
        self.arm()
        return self

    def __exit__(self, exc_type: type | None, exc: BaseException | None, tb: object) -> bool:
        self.disarm()
        if exc is not None and (self.fired or isinstance(exc, _SetupAlarm)):
            raise self.error() from None  # whatever the alarm interrupted, and however it was wrapped on the way
        return False

    def error(self) -> BudgetSpentError:
        spent = time.perf_counter() - self.clock_start
        return BudgetSpentError(
            f"the {clock(self.budget_s)} budget was spent before training began ({spent:.0f} s: Python's start, the "
            f"imports and compiling {self.game}'s kernels, which a first run after an install or an edit does once; "
            f"later runs load them from the cache in seconds); nothing was trained. Run the command again (the "
            f"kernels compiled so far are cached) or give it more --max-minutes")


def watch(deadline: float | None, budget_s: float, game: str, clock_start: float) -> SetupWatch | None:
    """A :class:`SetupWatch` for a budgeted command, to enter around its setup and run (``None`` without a budget)."""
    return None if deadline is None else SetupWatch(deadline, budget_s, game, clock_start)


@dataclass(frozen=True)
class Plan:
    """How a budget of ``seconds`` is spent on evaluations: ``points`` evaluations (the final one included), each
    periodic one up to ``slice_s`` seconds, the final one up to ``final_s``."""

    seconds: float
    points: int
    slice_s: float
    final_s: float


def plan(seconds: float, left: float | None = None) -> Plan:
    """The evaluations of a budget of ``seconds`` of which ``left`` remain when training starts (default: all)."""
    left = float(seconds if left is None else max(left, 0.0))
    points = int(min(MAX_POINTS, max(MIN_POINTS, 1 + round(float(seconds) / SECONDS_PER_POINT))))
    slice_s = EVAL_SHARE * left / (points + 1)  # the final evaluation counts twice
    return Plan(float(seconds), points, slice_s, 2 * slice_s)


def clock(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``) of a duration."""
    s = int(max(seconds, 0))
    h, rest = divmod(s, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


class TrainBar:
    """The training run's progress bar (tqdm, on stderr). With a budget its total is the budget's seconds and it
    fills with elapsed time; without one, with steps against the config's total. The text after it names the step,
    the rate and, while an evaluation runs, what it plays."""

    def __init__(self, game: str, total_steps: int, start_steps: int, budget_s: float | None = None,
                 clock_start: float | None = None) -> None:
        from tqdm import tqdm

        self.budget_s = budget_s
        self.total_steps = int(total_steps)
        self.start_steps = int(start_steps)
        self.clock_start = time.perf_counter() if clock_start is None else clock_start
        self.note = ""
        self.last = 0.0
        total = int(round(budget_s)) if budget_s is not None else self.total_steps
        self.bar = tqdm(total=total, initial=0 if budget_s is not None else self.start_steps, file=sys.stderr,
                        bar_format="{desc} |{bar}|{postfix}", desc=game, dynamic_ncols=True, mininterval=0.0)

    def update(self, steps: int, rate: float, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last < 0.5:
            return
        self.last = now
        elapsed = now - self.clock_start
        if self.budget_s is not None:
            self.bar.n = int(min(elapsed, self.budget_s))
            text = f"{clock(elapsed)} of {clock(self.budget_s)} budget, step {steps:,}, {rate:,.0f} steps/s"
        else:
            self.bar.n = min(int(steps), self.total_steps)
            left = (self.total_steps - steps) / rate if rate > 0 else None
            text = (f"step {steps:,} of {self.total_steps:,}, {rate:,.0f} steps/s"
                    + (f", ~{clock(left)} left" if left is not None else "") + f", {clock(elapsed)} so far")
        self.bar.set_postfix_str(text + (f"; {self.note}" if self.note else ""), refresh=False)
        self.bar.refresh()

    def set_note(self, note: str, steps: int, rate: float) -> None:
        self.note = note
        self.update(steps, rate, force=True)

    def close(self) -> None:
        self.bar.close()


__all__ = [
    "BudgetSpentError", "clock", "EVAL_SHARE", "MAX_POINTS", "MIN_POINTS", "Plan", "plan", "process_start",
    "SECONDS_PER_POINT", "SetupWatch", "tolerance", "TOLERANCE_S", "TOLERANCE_SHARE", "TrainBar", "watch"
]
