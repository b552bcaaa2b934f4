"""Issue 15 (cold compile): the rules engines' helpers compile without the CPython and C wrappers
(``cardenvs.core.jit.helper``), and a call from Python still works, through a wrapped twin with its own cache files."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import numpy as np

import cardenvs
from cardenvs.core.jit import TWIN_SUFFIX, HelperDispatcher
from cardenvs.core.batch import BatchGame, get_spec

ROOT = Path(cardenvs.__file__).resolve().parent
HELPER_SOURCE = '''
from numba import int64, njit
from cardenvs.core.jit import helper

@helper
def add(a, b):
    return a + b

@helper(int64(int64))
def square(x):
    return x * x

@njit(cache=True)
def sum_of_squares(n):
    total = 0
    for i in range(n):
        total = add(total, square(i))
    return total
'''


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_a_helper_has_no_wrappers_and_python_calls_reach_its_twin(tmp_path: Path) -> None:
    (tmp_path / "helper_mod.py").write_text(HELPER_SOURCE)
    mod = _load(tmp_path / "helper_mod.py", "helper_mod")
    try:
        assert isinstance(mod.add, HelperDispatcher)
        assert mod.add.targetoptions["no_cpython_wrapper"] and mod.add.targetoptions["no_cfunc_wrapper"]
        assert mod.sum_of_squares(5) == 30  # compiled callers link the helpers as usual
        compiled = list(mod.add.signatures)
        assert mod.add(2, 3) == 5 and mod.square(4) == 16  # a call from Python (a wrapperless call would crash)
        twin = mod.add.python_twin
        assert twin.py_func.__qualname__ == "add" + TWIN_SUFFIX
        assert not twin.targetoptions.get("no_cpython_wrapper", False)
        assert mod.add.signatures == compiled  # the Python calls compiled nothing on the helper: they went to the twin
        assert len(mod.square.signatures) == 1  # the eager signature compiled once, for compiled callers
        cached = {p.name.split("-")[0] for p in tmp_path.rglob("*.nbi")}
        assert {"helper_mod.add", "helper_mod.add" + TWIN_SUFFIX, "helper_mod.sum_of_squares"} <= cached
    finally:
        sys.modules.pop("helper_mod", None)


def test_a_game_helper_called_from_python_matches_its_kernel(game_name: str) -> None:
    """The mask helper of every game (compiled wrapperless for the kernels) answers a Python call with the same
    mask as the batch kernel."""

    spec = get_spec(game_name)
    rules = importlib.import_module(f"cardenvs.games.{game_name}.rules")
    mask_row = getattr(rules, "mask_row", None)
    if not isinstance(mask_row, HelperDispatcher) or getattr(mask_row, "impl", None) is not None:
        mask_row = getattr(mask_row, "impl", mask_row)  # relics: the one-version function behind its shim
    assert isinstance(mask_row, HelperDispatcher), f"{game_name}: mask_row is {type(mask_row).__name__}"
    game = BatchGame(spec, 4, seed=11)
    who = game.to_act.copy()
    expected = game.legal_mask(who)
    for i in range(4):
        out = np.zeros(spec.num_actions, dtype=np.int8)
        mask_row(game.states[i], game.pool.tables, np.int64(who[i]), out)
        assert np.array_equal(out, expected[i])


def test_rules_engines_compile_their_helpers_without_wrappers() -> None:
    """Every compiled function of the games, the shared core helpers and the heuristics is a ``helper``, a batch
    kernel (``nogil=True``, called from Python), inlined (``inline="always"``) or parallel: a plain
    ``@njit(cache=True)`` would bring its wrappers back into every caller's compile."""
    files = sorted((ROOT / "games").glob("*/*.py")) + sorted((ROOT / "core").glob("*.py")) + sorted(
        (ROOT.parent / "agents").glob("*.py"))
    plain = []
    for path in files:
        for k, line in enumerate(path.read_text().splitlines(), 1):
            m = re.match(r"\s*@njit\((.*)\)", line)
            if m and not any(word in m.group(1) for word in ("nogil", "inline", "parallel")):
                plain.append(f"{path.relative_to(ROOT.parent)}:{k}: {line.strip()}")
    assert not plain, "use cardenvs.core.jit.helper for:\n" + "\n".join(plain)
