"""Issue 40: the pilots' batch loop is the core's (``cardenvs.core.kernels.decide_rows``); a heuristic names only its
per-row decision. The loop decides for live rows with a seat, leaves 0 elsewhere, hands the pilot's scratch on, and
replaces an illegal choice by the first legal action only with ``fallback``; a second process finds the heuristic's
batch kernel in Numba's cache although the loop it inlines takes ``decide`` as an argument."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from cardenvs.core.header import H_STATUS, LIVE, TERMINATED
from cardenvs.core.kernels import decide_rows

ROOT = Path(__file__).resolve().parents[2]
#: every heuristic's decision fits the core's loop ``decide(row, tables, p, mask, *work)`` (simulfight's ``tables`` is
#: its card and effect tables with its score weights and columns)
LOOPLESS = ("divinecross", "heartbreak", "levelneo", "relics", "simulfight")


# not cached: Numba would key a cache of this file's kernels on this file alone (the dependency stamps cover the
# package), so a changed decide_rows, which _batch inlines, would not reach it
@njit
def _choose(row, tables, p, mask, shift):
    """Action ``row[-1] + tables[p] + shift[0]``: reads the row, the tables, the seat and the scratch."""
    return row[-1] + tables[p] + shift[0]


@njit
def _batch(states, tables, players, masks, out, fallback):
    decide_rows(_choose, states, tables, players, masks, out, fallback, (np.full(1, 2, dtype=np.int32),))


def test_decide_rows_decides_live_seated_rows_and_falls_back_only_when_asked() -> None:
    states = np.zeros((5, 6), dtype=np.int32)
    states[:, H_STATUS] = LIVE
    states[3, H_STATUS] = TERMINATED
    states[:, -1] = [0, 1, 0, 0, 3]
    tables = np.array([0, 1], dtype=np.int32)  # seat 1 adds one
    players = np.array([0, 1, -1, 0, 0], dtype=np.int32)
    masks = np.ones((5, 6), dtype=np.int8)
    masks[4, 5] = 0  # row 4 chooses 3 + 0 + 2 = 5: illegal
    masks[4, :2] = 0
    out = np.full(5, -7, dtype=np.int32)
    _batch(states, tables, players, masks, out, True)
    # row 0: 0 + 0 + 2; row 1: 1 + 1 + 2; row 2 has no seat, row 3 is over; row 4 falls back to its first legal action
    assert out.tolist() == [2, 4, 0, 0, 2]
    _batch(states, tables, players, masks, out, False)
    assert out.tolist() == [2, 4, 0, 0, 5]


def test_the_heuristics_name_only_their_decision() -> None:
    """Their ``batch_decide`` has no loop of its own: it hands ``decide`` to the core's loop."""
    for game in LOOPLESS:
        path = ROOT / "agents" / f"heuristic_{game}.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        body = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "batch_decide")
        assert not [n for n in ast.walk(body) if isinstance(n, (ast.For, ast.While))], f"{path.name} loops itself"
        assert "decide_rows" in ast.unparse(body), path.name


PROBE = """
import importlib, sys
from cardenvs.core.batch import BatchGame
from cardenvs.core.registry import get_game
game = sys.argv[1]
pilot = importlib.import_module("cardenvs.agents.heuristic_" + game)
g = BatchGame(get_game(game), 2, seed=0)
pilot.HeuristicAgent().act(None, g.legal_mask(), g.states, g.to_act.copy())
kernel = pilot.batch_decide.__dict__.get("python_twin", pilot.batch_decide)  # a helper is called through its twin
print(sum(kernel.stats.cache_hits.values()), sum(kernel.stats.cache_misses.values()))
"""


@pytest.mark.parametrize("game", ("divinecross", "heartbreak"))  # a helper (called through its twin), an njit
def test_a_second_process_loads_the_heuristic_from_the_cache(game: str) -> None:
    """Numba keys its cache on a function's file: the core's loop, inlined with ``decide`` as its argument, must not
    make a heuristic's batch kernel compile again in every process (as a closure or a loop compiled on its own
    would: each process's ``decide`` pickles differently). The first run compiles or loads; the second must load."""
    env = {**os.environ, "CARDENVS_QUIET": "1", "CARDENVS_COMPILE_PROCESSES": "1"}
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", PROBE, game], env=env, capture_output=True, text=True,
                              timeout=900, cwd=ROOT.parent)
        assert done.returncode == 0, done.stderr[-3000:]
        runs.append(done.stdout.split()[-2:])
    assert runs[1] == ["1", "0"], runs
