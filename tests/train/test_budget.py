"""Issue 42 items 2 and 4: a training budget (``--max-minutes``) is a promise the whole command keeps, evaluations
included, with a curve of at least three evaluations and a bar that shows the budget; long evaluations show progress
on stderr and keep stdout for the results; docs/training names the shipped config's step count."""
from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cardenvs
from tiny_ppo import TINY_PPO

ROOT = Path(__file__).resolve().parents[2]
# 60 s: Python's start, the imports and the setup take under 10 s of it on a quiet 2-core machine (35 s were seen on a
# loaded one, where the process's exit took 9 s more)
BUDGET_MIN = 1.0
GAME = "simulfight" if "simulfight" in cardenvs.available_games() else cardenvs.available_games()[0]

# a tiny run: a small network (no card embedding or instance head), short rollouts, one deck pair, random opponents;
# [eval] games far larger than a 30 s budget holds and evaluations the config alone would make only at the start and
# the end (every = 100M steps)
TINY = TINY_PPO + """decks = ["aggro", "guard"]
[opponents]
mix = { random = 1.0 }
league_every = 100_000_000
[eval]
every = 100_000_000
games = 4000
holdout_pairs = 0
opponents = ["random", "heuristic"]
"""
# the kernels a run uses compile once after an install or an edit (up to a minute, printed): no budget can hold that,
# so a separate process compiles them first and the timed run measures the budget alone
WARM_UP = """
import cardenvs
from cardenvs.core.batch import BatchGame
BatchGame.warm_up({game!r})
env = cardenvs.make_vec({game!r}, 2, opponent="random", seed=0)
env.reset()
env.step(env.action_masks().argmax(axis=1))
"""


@pytest.fixture(scope="module")
def budgeted_run(tmp_path_factory) -> dict:
    """``python -m cardenvs.train.ppo GAME --max-minutes 1`` as a user runs it (its own process, timed from the
    outside), with the progress bar forced on although stderr is a pipe."""
    folder = tmp_path_factory.mktemp("budget")
    cfg = folder / "tiny.toml"
    cfg.write_text(TINY)
    out = folder / "run"
    subprocess.run([sys.executable, "-c", WARM_UP.format(game=GAME)], check=True, capture_output=True, timeout=600,
                   cwd=ROOT)
    env = dict(os.environ, CARDENVS_PROGRESS="1", COLUMNS="160")
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "cardenvs.train.ppo", GAME, "--config", str(cfg), "--max-minutes",
                           str(BUDGET_MIN), "--total-steps", "100000000", "--seed", "1", "--out", str(out)],
                          capture_output=True, text=True, timeout=240, env=env, cwd=ROOT)
    wall = time.perf_counter() - t
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = list(csv.DictReader(open(out / "eval.csv")))
    return {"wall": wall, "rows": rows, "stdout": proc.stdout, "stderr": proc.stderr, "out": out}


def test_a_budgeted_run_ends_within_its_budget_evaluations_included(budgeted_run: dict) -> None:
    """Issue 42 item 2: ``--max-minutes 10`` took 13 min 8 s (an unannounced 2-minute evaluation at step 64 and a final
    one of 131 s after the clock). The whole command, from its process start to its exit, ends within the budget plus
    the stated tolerance (train/budget.py), although [eval] asks for 4,000 games per opponent."""
    from cardenvs.train.budget import tolerance

    budget = 60 * BUDGET_MIN
    assert budgeted_run["wall"] <= budget + tolerance(budget), (budgeted_run["wall"], budgeted_run["stderr"][-2000:])
    assert (budgeted_run["out"] / "final.zip").exists() and (budgeted_run["out"] / "policy.npz").exists()


def test_a_budgeted_run_records_a_curve_of_at_least_three_evaluations(budgeted_run: dict) -> None:
    """Evaluations spaced in time with sizes that fit the budget (the config alone would give two points, a straight
    "curve"): at least three, at rising steps and wall times, the last one of the final model."""
    rows = budgeted_run["rows"]
    log = budgeted_run["stdout"]  # the log lines (the bar is on stderr)
    left = re.search(r"\[budget\] [\d:]+ for the whole command \((\d+):(\d\d) left after setup", log)
    assert left, log[-2000:]
    if int(left.group(1)) * 60 + int(left.group(2)) < 15:  # the budget still held (the test above): no time to train
        pytest.skip(f"the machine is too loaded for a curve: {left.group(0)}")
    assert len(rows) >= 3, rows
    steps = [int(float(r["step"])) for r in rows]
    walls = [float(r["wall_s"]) for r in rows]
    assert steps == sorted(steps) and len(set(steps)) == len(steps) and walls == sorted(walls), rows
    assert all(0 <= float(r["win_random"]) <= 1 and 0 <= float(r["win_heuristic"]) <= 1 for r in rows)
    summary = __import__("json").loads((budgeted_run["out"] / "summary.json").read_text())
    assert summary["steps"] == steps[-1]


def test_the_bar_shows_the_budget_and_every_evaluation_is_announced(budgeted_run: dict) -> None:
    """The bar counts time against the budget (not the config's step count, whose ETA of hours ignored it), and each
    evaluation says before it starts what it plays and for how long at most."""
    err, log = budgeted_run["stderr"], budgeted_run["stdout"]
    assert "of 1:00 budget" in err and "evaluating vs heuristic" in err, err[-2000:]  # the bar, on stderr
    announced = re.findall(r"\[eval\] step [\d,]+: (?:the final evaluation: )?up to", log)
    assert len(announced) >= 2 and len(announced) == len(budgeted_run["rows"]), log[-3000:]
    assert "[budget]" in log


def test_the_evaluation_command_shows_progress_on_stderr_and_keeps_stdout_for_results() -> None:
    """Issue 42 item 4: ``python -m cardenvs.train.evaluate`` (93 s) printed nothing until the end."""
    proc = subprocess.run([sys.executable, "-m", "cardenvs.train.evaluate", GAME, "heuristic", "random", "--games",
                           "40"], capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "40/40 games" in proc.stderr, proc.stderr[-2000:]
    assert proc.stdout.startswith(f"{GAME}: heuristic vs random: 40 games") and "━" not in proc.stdout


def test_the_training_docs_name_the_shipped_configs_step_count() -> None:
    """docs/training said the levelneo config trains 3M steps; it is 4M."""
    from cardenvs.train.config import load_config

    steps = load_config("levelneo", None)["train"]["total_steps"]
    text = (ROOT / "docs" / "training" / "README.md").read_text()
    line = next(x for x in text.splitlines() if "train/configs/levelneo.toml (" in x)
    said = re.search(r"\(([\d.]+)M steps\)", line)
    assert said and float(said.group(1)) * 1e6 == steps, line


def test_the_budget_plan_reserves_the_final_evaluation_and_caps_the_evaluations_share() -> None:
    from cardenvs.train.budget import EVAL_SHARE, plan

    for seconds in (20, 30, 600, 5100):
        p = plan(seconds)
        assert p.points >= 3
        assert p.slice_s * (p.points - 1) + p.final_s <= EVAL_SHARE * seconds + 1e-9
        assert p.final_s >= p.slice_s
    assert plan(600).points > plan(30).points  # a longer budget, a denser curve


def test_an_evaluation_the_budget_has_no_time_for_is_skipped_and_said(capsys) -> None:
    """A setup that compiled the kernels on a loaded machine can use the whole budget (issue 42 item 2: a 1-minute
    run still evaluated for 13.5 s at step 0 and 12.1 s at the end with nothing left): such an evaluation is skipped,
    with a line that says so, instead of overrunning the budget by its first games."""
    from types import SimpleNamespace

    from cardenvs.train.ppo import MIN_EVAL_S, Trainer

    run = SimpleNamespace(deadline=time.perf_counter() - 5.0, verbose=True)
    assert not Trainer._eval_fits(run, 0.0, "the final evaluation")
    assert "the final evaluation is skipped: 0 s of the budget left" in capsys.readouterr().out
    assert not Trainer._eval_fits(run, MIN_EVAL_S - 0.1, "the first evaluation")
    assert Trainer._eval_fits(run, MIN_EVAL_S, "the first evaluation")
    assert capsys.readouterr().out.count("skipped") == 1


def test_a_setup_that_spends_the_budget_ends_the_command_at_its_end_with_one_line(tmp_path: Path) -> None:
    """Issue 42 item 2, the setup: on a cold cache at load 17 a 1-minute `cardenvs train` took 503 s, compiling the
    kernels (the trainer's own loops cannot stop a compile). The setup is held to the budget by an alarm until the
    first training step: here a command whose clock started two minutes ago with a one-minute budget stops at once,
    says why and what to do, and trains nothing."""
    from cardenvs.train.budget import BudgetSpentError
    from cardenvs.train.ppo import main

    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY)
    out = tmp_path / "run"
    t = time.perf_counter()
    with pytest.raises(BudgetSpentError, match=r"budget was spent before training began .*nothing was trained.*"
                                               r"Run the command again"):
        main([GAME, "--config", str(cfg), "--max-minutes", "1", "--out", str(out), "--no-progress", "-q"],
             clock_start=t - 120.0)
    assert time.perf_counter() - t < 30 and not (out / "final.zip").exists() and not (out / "policy.npz").exists()
    import signal

    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # disarmed: nothing fires later in this process


def test_training_without_the_train_extra_is_one_clear_error(monkeypatch) -> None:
    """Issue 42, the newcomer's path: after the Quick start's base install (no torch), `cardenvs train` ended in a
    ModuleNotFoundError traceback for sb3_contrib. It is one error naming what is missing and how to install it,
    before any work; `cardenvs exploit` alike."""
    import importlib.util

    from cardenvs.core.errors import BadArgumentError
    from cardenvs.train import exploit, ppo

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "sb3_contrib" else real(name, *a))
    with pytest.raises(BadArgumentError, match=r"cardenvs train needs the training extras.*missing: sb3_contrib.*"
                                               r"pip install torch==2.13.0 -e '\.\[train\]'"):
        ppo.main([GAME, "--max-minutes", "1"])
    with pytest.raises(BadArgumentError, match=r"cardenvs exploit needs the training extras"):
        exploit.main([GAME, "--minutes", "1"])
