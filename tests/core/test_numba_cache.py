"""The Numba cache cannot go stale: a kernel is recompiled when a file it depends on changes, not only its own."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import cardenvs

PACKAGE = Path(cardenvs.__file__).resolve().parent

PROBE = '''
from numba import njit

from ...core._probe_core import CORE_VALUE
from .state import PROBE_VALUE


@njit(cache=True)
def probe():
    return PROBE_VALUE * 10 + CORE_VALUE
'''
RUN = "from cardenvs.games.levelneo._probe import probe; print(probe())"


def copy_package(tmp_path: Path) -> Path:
    """A copy of the cardenvs package (sources and data, no caches) with a probe kernel inside levelneo."""
    dest = tmp_path / "cardenvs"
    shutil.copytree(PACKAGE, dest, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    (dest / "games" / "levelneo" / "_probe.py").write_text(PROBE)
    with open(dest / "games" / "levelneo" / "state.py", "a") as f:
        f.write("\nPROBE_VALUE = 1\n")
    (dest / "core" / "_probe_core.py").write_text("CORE_VALUE = 1\n")
    return dest


def run_probe(root: Path, extra_env: dict | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
    env["PYTHONPATH"] = str(root)
    env.update(extra_env or {})
    out = subprocess.run([sys.executable, "-c", RUN], cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))


def test_a_constant_changed_in_state_py_reaches_the_cached_kernel_that_uses_it(tmp_path):
    """Numba alone keys ``_probe.py``'s cache on ``_probe.py`` only, and would print 11 three times."""
    pkg = copy_package(tmp_path)
    assert run_probe(tmp_path) == "11"
    assert list((pkg / "games" / "levelneo" / "__pycache__").glob("_probe.probe-*.nbi")), "no cache was written"
    assert run_probe(tmp_path) == "11"  # a cache hit, still right
    edit(pkg / "games" / "levelneo" / "state.py", "PROBE_VALUE = 1", "PROBE_VALUE = 2")
    assert run_probe(tmp_path) == "21"


def test_a_constant_changed_in_core_reaches_a_game_kernel(tmp_path):
    pkg = copy_package(tmp_path)
    assert run_probe(tmp_path) == "11"
    edit(pkg / "core" / "_probe_core.py", "CORE_VALUE = 1", "CORE_VALUE = 3")
    assert run_probe(tmp_path) == "13"


def test_heuristics_depend_on_the_game_they_inline():
    from cardenvs.core import numba_cache

    agents_dir = PACKAGE.parent / "agents"
    heuristic = agents_dir / "heuristic_relics.py"
    if not heuristic.exists():
        return
    files = numba_cache.dependency_files(heuristic)
    assert PACKAGE / "games" / "relics" / "state.py" in files and heuristic in files
    assert PACKAGE / "core" / "zones.py" in files and agents_dir / "base.py" in files
    assert PACKAGE / "games" / "levelneo" / "state.py" not in files
    assert agents_dir / "heuristic_levelneo.py" not in files  # editing one heuristic recompiles that one only


def test_the_locator_is_numbas_first_choice():
    from numba.core import caching

    from cardenvs.core.numba_cache import DependencyStampLocator, _impl_class

    assert _impl_class()._locator_classes[0] is DependencyStampLocator
    assert caching  # imported for the class lookup above


def test_only_what_a_kernel_imports_is_a_dependency():
    """Editing the batch core or the envs (no kernel imports them) must not recompile every game."""
    from cardenvs.core import numba_cache

    files = numba_cache.dependency_files(PACKAGE / "games" / "levelneo" / "rules.py")
    assert PACKAGE / "core" / "zones.py" in files and PACKAGE / "games" / "levelneo" / "state.py" in files
    for python_only in ("batch.py", "aec.py", "vector.py", "threads.py"):
        assert PACKAGE / "core" / python_only not in files, python_only
    assert not any("relics" in str(f) for f in files)


def test_a_kernel_cached_under_the_checkout_name_loads_under_the_package_name(tmp_path):
    """``python -m benchmarks.compare`` in a checkout imports the benchmarks as ``benchmarks.*``; the installed name is
    ``cardenvs.benchmarks.*`` (the same files). Numba pickles the module name into each cached kernel and imports it
    again on load, so one name's cache entry made the other name's first call fail with ModuleNotFoundError. Each
    name now has its own entries, and both load."""
    root = Path(cardenvs.__file__).resolve().parents[1]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "CARDENVS_QUIET": "1"}
    call = "from cardenvs.core.batch import BatchGame; BatchGame(p.SPEC, 2, seed=0).legal_mask(); print('ok')"
    elsewhere = tmp_path / "elsewhere"  # a working directory where the checkout's top-level names do not import
    elsewhere.mkdir()
    for module, where in (("benchmarks.ceiling", root), ("cardenvs.benchmarks.ceiling", elsewhere),
                          ("benchmarks.ceiling", root)):
        done = subprocess.run([sys.executable, "-c", f"import {module} as p; {call}"], cwd=where, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and done.stdout.strip() == "ok", (module, done.stderr[-2000:])


KERNEL_NAMES = ("batch_reset", "batch_step", "batch_observe", "batch_mask", "batch_play")
CACHE_PROBE = """
import sys
from cardenvs.core.compiling import kernel_signature
from cardenvs.core.registry import get_game
spec = get_game(sys.argv[1])
missed = []
for name in {kernels!r}:
    kernel = getattr(spec.kernels, name)
    kernel.compile(kernel_signature(spec, name))  # BatchGame's argument types; loaded from the cache when there
    if kernel.stats.cache_misses or not kernel.stats.cache_hits:
        missed.append(name)
print("missed:" + ",".join(missed))
"""


def test_a_second_process_loads_every_kernel_from_the_cache(game_name: str) -> None:
    """Issue 40: the batch loops are rendered per game from the core's template (``_kernels.py``) so that Numba
    caches them. This process compiles (or loads) all five kernels; a fresh process must then load each from the
    on-disk cache, not compile it: a loop that took row functions as arguments, or a closure, would miss here."""
    from cardenvs.core.compiling import kernel_signature
    from cardenvs.core.registry import get_game

    spec = get_game(game_name)
    for name in KERNEL_NAMES:
        getattr(spec.kernels, name).compile(kernel_signature(spec, name))
    env = {**os.environ, "CARDENVS_QUIET": "1", "CARDENVS_COMPILE_PROCESSES": "1"}
    done = subprocess.run([sys.executable, "-c", CACHE_PROBE.format(kernels=KERNEL_NAMES), game_name], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "missed:", done.stdout
