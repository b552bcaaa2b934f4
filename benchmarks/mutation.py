"""Mutation testing of each game's rule code: ``python -m cardenvs.benchmarks.mutation [GAME ...] [--sample N]
[--seed S] [--rev REV] [--tests-rev REV] [--out DIR] [--resume]``.

How strong are a game's tests? Not the breaks their authors chose: the mutants a tool makes. `cosmic-ray
<https://cosmic-ray.readthedocs.io>`_ enumerates every mutation of the game's rule code (each comparison, operator,
number, boolean, ``not``, ``break``/``continue`` and loop, one at a time, see ``mutation.toml``); a seeded random
sample of them is applied one by one, each followed by the game's own tests; a mutant is **killed** when one of those
tests fails and the first failing test is recorded. The golden playthroughs are not among the tests: a golden hash
catches almost anything but names no rule, and is regenerated after the next intended rule change.

Everything runs in a copy of the repository (``git archive REV``), never in the checkout, whose editable install
others are using:

* the copy is first on ``PYTHONPATH`` and every test run checks that each ``cardenvs`` module it imported lives
  in the copy (a mutant run against the checkout's code would be a silent survivor);
* kernels run as plain Python (``NUMBA_DISABLE_JIT=1``): no compile per mutant, and so no compiled kernel at all
  that could be stale; each run also gets its own empty ``NUMBA_CACHE_DIR`` (``--jit`` runs compiled kernels,
  compiled afresh for each mutant in that empty folder);
* the copy's byte code is compiled once with hash-checked ``.pyc`` files and never written again
  (``PYTHONDONTWRITEBYTECODE``): a mutated file, whose hash differs, is always compiled from its source.

Mutations that only change how a kernel is compiled are left out: the ``@njit``/``@helper`` decorators (their
signatures and options) and type annotations. A mutant whose code does not compile is dropped as incompetent.
A mutant that makes a test hang past the timeout counts as killed by that test; one that breaks the import
(every test errors) counts as killed at import.

Writes ``<out>/<game>.json`` (every mutant: file, line, function, operator, the line before and after, outcome,
killing test and the rule IDs it names, seconds) after each mutant, so ``--resume`` continues an interrupted run,
and ``<out>/<game>.md``: the score per game and per file with a 95% interval, and every surviving mutant. The
sample is drawn from the full list of mutants of the game with ``random.Random(seed)`` and is the same for the same
commit, seed and size.
"""
from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any, Sequence

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

CONFIG = Path(__file__).with_name("mutation.toml")
REPO = Path(__file__).resolve().parents[1]  # the checkout this file lives in (editable install)
DEFAULT_OUT = REPO / "docs" / "mutation"
#: rule IDs as tests and code write them: LN-K3 in a docstring or comment, test_LN_K3_... in a test name
RULE_ID = re.compile(r"(?<![A-Za-z0-9])(LN|SF|HB|DC|RL)[-_]([A-Z]{1,2}\d+[a-z]?)(?![A-Za-z0-9])")
#: the pytest plugin written into the copy: records the first failing test and the test being run, checks imports
GUARD = '''"""Written by cardenvs.benchmarks.mutation into its copy: never part of the repository."""
import json, os, sys, time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
REPORT = Path(os.environ["MUTATION_REPORT"])
state = {"failed": None, "durations": {}, "docs": {}, "fixtures": {}, "collect_errors": [], "foreign": [], "passed": 0}
COV = None
if os.environ.get("MUTATION_COVERAGE"):  # the baseline: which test executes which line (started before any import)
    import coverage
    COV = coverage.Coverage(data_file=os.environ["MUTATION_COVERAGE"], include=os.environ["MUTATION_COVER"].split(","))
    COV.start()
CONTEXTS = []  # module- and session-scoped fixtures run in their own context: a test that uses one depends on it


def _save():
    REPORT.write_text(json.dumps(state))


def pytest_collection_modifyitems(items):
    for item in items:
        obj = getattr(item, "obj", None)
        state["docs"][item.nodeid] = (getattr(obj, "__doc__", None) or "")[:2000]
        state["fixtures"][item.nodeid] = list(getattr(item, "fixturenames", []))


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    if COV is None or fixturedef.scope == "function":
        yield
        return
    CONTEXTS.append("fixture:" + fixturedef.argname)
    COV.switch_context(CONTEXTS[-1])
    try:
        yield
    finally:
        CONTEXTS.pop()
        COV.switch_context(CONTEXTS[-1] if CONTEXTS else state.get("current") or "")


def pytest_collectreport(report):
    if report.failed:
        state["collect_errors"].append(report.nodeid)
        _save()


def pytest_runtest_logstart(nodeid, location):
    state["current"] = nodeid
    state["started"] = time.time()
    if COV is not None:
        COV.switch_context(nodeid)
    _save()


def pytest_runtest_logreport(report):
    state["durations"][report.nodeid] = state["durations"].get(report.nodeid, 0.0) + report.duration
    if report.failed and state["failed"] is None:
        lines = str(report.longrepr).strip().splitlines()
        state["failed"] = {"nodeid": report.nodeid, "when": report.when, "error": lines[-1][:300] if lines else ""}
    elif report.when == "call" and report.passed:
        state["passed"] += 1


def pytest_sessionfinish(session, exitstatus):
    # every cardenvs module this run imported must come from the copy, never from the checkout
    for name, mod in list(sys.modules.items()):
        if name == "cardenvs" or name.startswith("cardenvs."):
            f = getattr(mod, "__file__", None)
            if f and ROOT not in Path(f).resolve().parents:
                state["foreign"].append(f"{name}: {f}")
    state["current"] = None
    if COV is not None:
        COV.stop()
        COV.save()
    _save()
'''


class GameFailed(Exception):
    """A game that cannot be measured (its tests fail unmutated, or cannot be collected)."""


@dataclasses.dataclass
class Mutant:
    """One mutation of one file: cosmic-ray's (module, operator, occurrence), with where and what it changes."""
    id: str
    file: str  # relative to the repository root
    operator: str
    occurrence: int
    line: int
    function: str
    stmt_line: int  # where the statement holding the mutation starts (its first line, or its if/elif/for line)

    def key(self) -> tuple:
        return (self.file, self.operator, self.occurrence)


def load_config(path: Path = CONFIG) -> dict[str, Any]:
    """The per-game settings of ``mutation.toml``, each game's entry completed with the defaults."""
    raw = tomllib.loads(path.read_text())
    defaults = raw.get("defaults", {})
    return {game: {**defaults, **entry} for game, entry in raw.get("games", {}).items()}


def game_settings(config: dict[str, Any], game: str, files: Sequence[str] | None = None) -> dict[str, Any]:
    """``game``'s settings from ``load_config``, with ``files`` (paths in the game's folder) mutated instead of the
    configured ones when given (``--files``)."""
    return {**config[game], "files": list(files)} if files else config[game]


def missing_files(root: Path, games: Sequence[str], files: Sequence[str]) -> list[str]:
    """One line per name of ``files`` (``--files``) that is not a file in a game's folder under ``root``: a typo
    would otherwise mutate nothing and read as a run with no mutants."""
    problems = []
    for game in games:
        folder = root / "cardenvs" / "games" / game
        for name in files:
            if not (folder / name).is_file():
                present = sorted(p.name for p in folder.glob("*.py"))
                problems.append(f"--files {name}: no such file in {folder.relative_to(root)}/ "
                                f"(its Python files: {', '.join(present)})")
    return problems


def _in_compile_only_code(node: Any) -> bool:
    """True for a node in a decorator or a type annotation: it changes how a kernel compiles, not what it does."""
    child, parent = node, node.parent
    while parent is not None:
        if parent.type == "decorator":
            return True
        if parent.type == "tfpdef":  # a parameter with its annotation: `p: int | None`
            return True
        if parent.type == "funcdef" and getattr(parent, "annotation", None) is child:
            return True
        if parent.type == "annassign" and parent.children[1] is child:
            return True
        child, parent = parent, parent.parent
    return False


COMPOUND = {"if_stmt", "while_stmt", "for_stmt", "with_stmt", "try_stmt", "funcdef", "classdef", "decorated"}


def statement_line(node: Any) -> int:
    """The first line of the statement that holds ``node`` (for a condition, the line of its if/elif/while)."""
    child, parent = node, node.parent
    while parent is not None:
        if parent.type == "simple_stmt":
            return parent.start_pos[0]
        if parent.type in COMPOUND:
            keyword = child.get_first_leaf().get_previous_leaf()
            return keyword.start_pos[0] if keyword is not None else child.start_pos[0]
        child, parent = parent, parent.parent
    return node.start_pos[0]


def enumerate_mutants(root: Path, files: Sequence[str], exclude_operators: Sequence[str]) -> list[Mutant]:
    """Every mutant of ``files`` (paths relative to ``root``), numbered as cosmic-ray numbers them (its ``init``)."""
    import cosmic_ray.plugins
    from cosmic_ray.ast import ast_nodes, get_ast_from_path
    from cosmic_ray.ast.ast_query import ASTQuery

    operators = []
    for name in sorted(cosmic_ray.plugins.operator_names()):
        cls = cosmic_ray.plugins.get_operator(name)
        if name in exclude_operators or cls.arguments():  # operators needing arguments are opt-in in cosmic-ray
            continue
        operators.append((name, cls()))
    mutants: list[Mutant] = []
    for rel in files:
        module = get_ast_from_path(root / rel)
        nodes = list(ast_nodes(module))
        for name, op in operators:
            occurrence = 0
            for node in nodes:
                for start, _end in op.mutation_positions(node):
                    if not _in_compile_only_code(node):
                        mutants.append(Mutant(id=f"{rel}:{name}:{occurrence}", file=rel, operator=name,
                                              occurrence=occurrence, line=start[0],
                                              function=ASTQuery(node).get_definition_name() or "<module>",
                                              stmt_line=statement_line(node)))
                    occurrence += 1
    return mutants


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a proportion k/n (as fractions)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def rule_ids(text: str) -> list[str]:
    """The rule IDs in ``text`` (a test name, a docstring, a code comment), normalised to LN-K3, in order, once."""
    out: list[str] = []
    for m in RULE_ID.finditer(text):
        rid = f"{m.group(1)}-{m.group(2)}"
        if rid not in out:
            out.append(rid)
    return out


def source_rule_ids(lines: Sequence[str], line: int) -> list[str]:
    """Rule IDs that the mutated line's comment names, else the nearest comment above it in the same function."""
    for i in range(line - 1, -1, -1):
        text = lines[i]
        if "#" in text:
            ids = rule_ids(text[text.index("#"):])
            if ids:
                return ids
        if i < line - 1 and text.lstrip().startswith("def "):
            break
    return []


def copy_name(commit: str, tests_commit: str) -> str:
    """The folder of a copy: the commit, and the commit its ``tests/`` come from when that is another one."""
    return commit[:12] if tests_commit == commit else f"{commit[:12]}+tests-{tests_commit[:12]}"


class Copy:
    """A copy of the repository at ``rev`` in which mutants are applied and tested: ``<where>/<commit>``, so that
    runs of different commits never share (or wipe) one copy. With ``tests_rev``, its ``tests/`` folder is that
    commit's instead (``<where>/<commit>+tests-<tests commit>``): the mutants of one commit's rule code against
    a later test suite, so that the same sample is measured again after tests were added (a rule-code change
    elsewhere in the game's files renumbers the mutants, and the sample of the later commit is another one)."""

    def __init__(self, repo: Path, rev: str, where: Path | None, tests_rev: str | None = None) -> None:
        self.repo = repo
        if not (repo / ".git").exists():
            raise SystemExit(f"mutation testing needs a git checkout of cardenvs; {repo} is not one")
        self.commit = self._rev_parse(rev)
        self.tests_commit = self._rev_parse(tests_rev) if tests_rev else self.commit
        self._tmp = None if where else tempfile.TemporaryDirectory(prefix="cardenvs_mutation_")
        self.root = (Path(where or self._tmp.name) / copy_name(self.commit, self.tests_commit)).resolve()
        marker = self.root / ".mutation_commit"
        stamp = self.commit if self.tests_commit == self.commit else f"{self.commit} tests {self.tests_commit}"
        if not (marker.exists() and marker.read_text().strip() == stamp):
            if self.root.exists() and any(self.root.iterdir()):
                raise SystemExit(f"{self.root} is not empty and is not a complete mutation copy of {self.commit}: "
                                 "give another --copy folder or remove it")
            if self.root.exists():
                shutil.rmtree(self.root)
            self.root.mkdir(parents=True)
            archive = subprocess.run(["git", "archive", self.commit], cwd=repo, capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", str(self.root)], input=archive.stdout, check=True)
            if self.tests_commit != self.commit:
                shutil.rmtree(self.root / "tests")
                archive = subprocess.run(["git", "archive", self.tests_commit, "tests"], cwd=repo,
                                         capture_output=True, check=True)
                subprocess.run(["tar", "-x", "-C", str(self.root)], input=archive.stdout, check=True)
            # the installed layout: cardenvs.agents, .benchmarks and .train are top-level folders of the repository
            for pkg in ("agents", "benchmarks", "train"):
                (self.root / "cardenvs" / pkg).symlink_to(Path("..") / pkg)
            # byte code checked by source hash, so that a mutated file can never run from an old .pyc
            subprocess.run([sys.executable, "-m", "compileall", "-q", "--invalidation-mode", "checked-hash",
                            "cardenvs", "agents", "tests"], cwd=self.root, check=True, capture_output=True)
            marker.write_text(stamp + "\n")
        (self.root / "_mutation_guard.py").write_text(GUARD)
        self.originals: dict[str, str] = {}

    def _rev_parse(self, rev: str) -> str:
        return subprocess.run(["git", "rev-parse", rev], cwd=self.repo, capture_output=True, text=True,
                              check=True).stdout.strip()

    def original(self, rel: str) -> str:
        """The file as committed (from git, never from the copy, where a killed run may have left a mutant)."""
        if rel not in self.originals:
            self.originals[rel] = subprocess.run(["git", "show", f"{self.commit}:{rel}"], cwd=self.repo,
                                                 capture_output=True, text=True, check=True).stdout
        return self.originals[rel]

    def restore(self, rels: Sequence[str] = ()) -> None:
        """Put back, as committed, ``rels`` and every file a mutant may have changed."""
        for rel in set(rels) | set(self.originals):
            text = self.original(rel)
            if (self.root / rel).read_text() != text:
                (self.root / rel).write_text(text)


def pytest_command(nodeids: Sequence[str], stop_first: bool) -> list[str]:
    return [sys.executable, "-m", "pytest", "-o", "addopts=", "-p", "no:xdist", "-p", "no:cacheprovider",
            "-p", "_mutation_guard", "-m", "not slow", "-q", "--no-header", "-W", "ignore", "--tb=line",
            *(["-x"] if stop_first else []), *nodeids]


SERVER = r"""
import ctypes, json, os, signal, sys, traceback


def die_with_parent():
    try:  # Linux: killed when the process that started this one dies, so no run outlives the runner
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


die_with_parent()
# what every test run imports before the copy's own code: imported once here, then each run is a fork
import numpy, numba, pytest, hypothesis, gymnasium, pettingzoo  # noqa: F401
assert not any(m == "cardenvs" or m.startswith("cardenvs.") for m in sys.modules)
for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 99
        try:
            os.setpgid(0, 0)
            die_with_parent()
            os.environ.update(job["env"])
            fd = os.open(job["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            code = int(pytest.main(job["args"]))
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    print(json.dumps({"pid": pid}), flush=True)
    _, status, usage = os.wait4(pid, 0)
    print(json.dumps({"status": os.waitstatus_to_exitcode(status), "cpu": usage.ru_utime + usage.ru_stime}),
          flush=True)
"""


class TestServer:
    """A process that has imported pytest, NumPy and Numba (with the JIT off) once and forks one child per test run:
    about a second of CPU saved per mutant. It never imports cardenvs (it asserts so), so each child imports the
    copy's code, mutated file included, afresh."""

    def __init__(self, copy: Copy) -> None:
        env = {**os.environ, "PYTHONPATH": str(copy.root), "PYTHONDONTWRITEBYTECODE": "1", "NUMBA_DISABLE_JIT": "1",
               "NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg"}
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER], cwd=copy.root, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(self, args: Sequence[str], env: dict[str, str], log: Path, timeout: float) -> tuple[int | None, float]:
        """(exit code or None on timeout, CPU seconds) of ``pytest args`` in a fresh fork."""
        import select
        import signal

        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"args": list(args), "env": env, "log": str(log)}) + "\n")
        self.proc.stdin.flush()
        pid = json.loads(self.proc.stdout.readline())["pid"]
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        timed_out = not ready
        if timed_out:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        done = json.loads(self.proc.stdout.readline())
        return (None if timed_out else done["status"]), done["cpu"]

    def close(self) -> None:
        """Stop the server; a test run still going (an interrupted run) dies with it (PR_SET_PDEATHSIG)."""
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def run_tests(copy: Copy, nodeids: Sequence[str], timeout: float, jit: bool, stop_first: bool = True,
              cover: Sequence[Path] = (), coverage_file: Path | None = None,
              server: TestServer | None = None) -> dict[str, Any]:
    """Run the tests in the copy; the guard's record plus the exit code (None on timeout), wall and CPU seconds.
    With ``cover``, coverage of those files is recorded in ``coverage_file``, one context per test. With
    ``server`` (kernels as plain Python only), the run is a fork of it."""
    import resource

    with tempfile.TemporaryDirectory(prefix="numba_cache_", dir=copy.root) as cache:
        report = Path(cache) / "report.json"
        extra = {"NUMBA_CACHE_DIR": cache, "MUTATION_REPORT": str(report)}
        t0 = time.perf_counter()
        if server is not None and not jit and not cover:
            log = Path(cache) / "log.txt"
            code, cpu = server.run(pytest_command(nodeids, stop_first)[3:], extra, log, timeout)
            tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
        else:
            env = {**os.environ, "PYTHONPATH": str(copy.root), "PYTHONDONTWRITEBYTECODE": "1",
                   "NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg", **extra}
            env.pop("NUMBA_DISABLE_JIT", None)
            if not jit:
                env["NUMBA_DISABLE_JIT"] = "1"
            if cover:
                env.update(MUTATION_COVERAGE=str(coverage_file), MUTATION_COVER=",".join(str(f) for f in cover))
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            try:
                proc = subprocess.run(pytest_command(nodeids, stop_first), cwd=copy.root, env=env,
                                      capture_output=True, text=True, timeout=timeout)
                code, tail = proc.returncode, (proc.stdout + proc.stderr)[-3000:]
            except subprocess.TimeoutExpired as exc:
                code, tail = None, str(exc.stdout or "")[-3000:]
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        seconds = time.perf_counter() - t0
        state = json.loads(report.read_text()) if report.exists() else {}
    state.update(exit_code=code, seconds=seconds, cpu_seconds=cpu, tail=tail)
    if state.get("foreign"):
        raise SystemExit("the tests imported cardenvs modules from outside the copy:\n  " +
                         "\n  ".join(state["foreign"][:10]))
    return state


def collect(copy: Copy, game: str, cfg: dict[str, Any]) -> list[str]:
    """The node ids of the game's tests: its folder(s), and the core contract tests parametrized with its name."""
    paths = list(cfg["tests"]) + list(cfg.get("core_tests", []))
    env = {**os.environ, "PYTHONPATH": str(copy.root), "PYTHONDONTWRITEBYTECODE": "1", "NUMBA_DISABLE_JIT": "1"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "-p", "no:xdist", "-p", "no:cacheprovider",
                           "-m", "not slow", "--collect-only", "-q", *paths], cwd=copy.root, env=env,
                          capture_output=True, text=True)
    ids = [ln.strip() for ln in proc.stdout.splitlines() if "::" in ln and not ln.startswith(" ")]
    if proc.returncode != 0 or not ids:
        raise GameFailed(f"collecting {game}'s tests failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    own = tuple(p.rstrip("/") for p in cfg["tests"])
    param = re.compile(rf"[\[-]{re.escape(game)}[\]-]")
    left_out = set(cfg.get("deselect", []))
    return [i for i in ids
            if (i.startswith(own) or param.search(i)) and i.split("::")[-1].split("[")[0] not in left_out]


def order_tests(nodeids: Sequence[str], durations: dict[str, float], slow_s: float) -> list[str]:
    """Fast tests first, by file (module fixtures are built once), the slow ones last, fastest first: with ``-x``
    a killed mutant stops at its first failing test."""
    by_file: dict[str, list[str]] = {}
    slow = []
    for i in nodeids:
        if durations.get(i, 0.0) >= slow_s:
            slow.append(i)
        else:
            by_file.setdefault(i.split("::")[0], []).append(i)
    files = sorted(by_file, key=lambda f: sum(durations.get(i, 0.0) for i in by_file[f]))
    return [i for f in files for i in by_file[f]] + sorted(slow, key=lambda i: durations.get(i, 0.0))


class TestMap:
    """Which tests execute which line of the mutated files: the baseline's coverage, one context per test, and one
    per module- or session-scoped fixture (every test that uses the fixture depends on its lines)."""

    def __init__(self, data_file: Path, root: Path, rels: Sequence[str], fixtures: dict[str, list[str]]) -> None:
        from coverage import CoverageData

        data = CoverageData(basename=str(data_file))
        data.read()
        self.lines = {rel: {ln: set(ctx) for ln, ctx in data.contexts_by_lineno(str(root / rel)).items()}
                      for rel in rels}
        self.users: dict[str, list[str]] = {}
        for nodeid, names in fixtures.items():
            for name in names:
                self.users.setdefault(name, []).append(nodeid)

    def tests_for(self, m: Mutant) -> set[str] | None:
        """The tests that execute the mutated statement; None when it runs at import (every test depends on it)."""
        contexts: set[str] = set()
        for ln in range(m.stmt_line, m.line + 1):
            contexts |= self.lines[m.file].get(ln, set())
        if "" in contexts:
            return None
        tests: set[str] = set()
        for c in contexts:
            tests.update(self.users.get(c[len("fixture:"):], ()) if c.startswith("fixture:") else (c,))
        return tests


def select_tests(ordered: Sequence[str], covering: set[str] | None, durations: dict[str, float],
                 slow_s: float) -> list[str]:
    """The tests run for one mutant: those that execute its statement, fastest first, then every other test faster
    than ``slow_s`` (a guard against what coverage cannot see, such as a subprocess); all tests when ``covering``
    is None."""
    if covering is None:
        return list(ordered)
    first = sorted((i for i in ordered if i in covering), key=lambda i: durations.get(i, 0.0))
    return first + [i for i in ordered if i not in covering and durations.get(i, 0.0) < slow_s]


def describe(original: str, mutated: str, line: int) -> tuple[str, str]:
    """The changed line before and after (the first differing line at or after ``line``)."""
    a, b = original.splitlines(), mutated.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            return ("\n".join(a[i1:i2]).strip(), "\n".join(b[j1:j2]).strip())
    return (a[line - 1].strip() if line <= len(a) else "", "")


def run_mutant(copy: Copy, m: Mutant, tests: Sequence[str], docs: dict[str, str], timeout: float,
               jit: bool, covering: int | None = None, server: TestServer | None = None) -> dict[str, Any]:
    """Apply one mutant in the copy, run the tests, restore the file; the record for the JSON."""
    import cosmic_ray.plugins
    from cosmic_ray.mutating import mutate_code

    original = copy.original(m.file)
    record: dict[str, Any] = {**dataclasses.asdict(m), "covering_tests": "all" if covering is None else covering,
                              "tests_run": len(tests)}
    mutated = mutate_code(original, cosmic_ray.plugins.get_operator(m.operator)(), m.occurrence)
    if mutated is None:
        return {**record, "outcome": "incompetent", "reason": "cosmic-ray made no change"}
    record["before"], record["after"] = describe(original, mutated, m.line)
    record["rules_in_code"] = source_rule_ids(original.splitlines(), m.line)
    try:
        compile(mutated, m.file, "exec")
    except SyntaxError as exc:
        return {**record, "outcome": "incompetent", "reason": f"does not compile: {exc.msg}"}
    path = copy.root / m.file
    path.write_text(mutated)
    try:
        state = run_tests(copy, tests, timeout, jit, server=server)
    finally:
        path.write_text(original)
    record["seconds"] = round(state["seconds"], 2)
    record["cpu_seconds"] = round(state["cpu_seconds"], 2)
    failed = state.get("failed")
    if state["exit_code"] is None:
        killer = state.get("current") or "?"
        record.update(outcome="killed", how="timeout", test=killer)
    elif failed:
        record.update(outcome="killed", how="failed" if failed["when"] == "call" else f"error in {failed['when']}",
                      test=failed["nodeid"], error=failed["error"])
    elif state["exit_code"] == 0:
        record.update(outcome="survived")
    else:  # no test failed but pytest did not pass: the mutant broke collection (the import)
        record.update(outcome="killed", how="import", test=", ".join(state.get("collect_errors", [])[:3]) or "import",
                      error=state["tail"].strip().splitlines()[-1][:300] if state["tail"].strip() else "")
    if record.get("test"):
        name = record["test"].split("::")[-1]
        record["test_rules"] = rule_ids(name + " " + docs.get(record["test"], ""))
    return record


def summarise(records: Sequence[dict[str, Any]], files: Sequence[str]) -> dict[str, Any]:
    """Score per game and per file (competent mutants only), with 95% Wilson intervals."""
    def score(rs: list[dict[str, Any]]) -> dict[str, Any]:
        n = len(rs)
        k = sum(r["outcome"] == "killed" for r in rs)
        lo, hi = wilson(k, n)
        return {"mutants": n, "killed": k, "survived": n - k, "score": k / n if n else None, "ci95": [lo, hi],
                "killed_by_rule_test": sum(bool(r.get("test_rules")) for r in rs if r["outcome"] == "killed"),
                "timeouts": sum(r.get("how") == "timeout" for r in rs),
                "import_errors": sum(r.get("how") == "import" for r in rs)}

    competent = [r for r in records if r["outcome"] != "incompetent"]
    secs = [r["seconds"] for r in competent if "seconds" in r]
    cpus = [r["cpu_seconds"] for r in competent if "cpu_seconds" in r]
    return {"game": score(competent), "cpu_seconds_per_mutant": {"mean": statistics.fmean(cpus) if cpus else None,
                                                                "median": statistics.median(cpus) if cpus else None},
            "files": {f: score([r for r in competent if r["file"].endswith("/" + f)]) for f in files},
            "incompetent": len(records) - len(competent),
            "seconds_per_mutant": {"mean": statistics.fmean(secs) if secs else None,
                                   "median": statistics.median(secs) if secs else None,
                                   "killed_median": statistics.median([r["seconds"] for r in competent
                                                                       if r["outcome"] == "killed"] or [0.0]),
                                   "survived_median": statistics.median([r["seconds"] for r in competent
                                                                         if r["outcome"] == "survived"] or [0.0])}}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _code(text: str) -> str:
    text = " ".join(text.split())
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`" if text else "(nothing)"


def markdown(report: dict[str, Any]) -> str:
    """The generated table of one game: score, per file, the survivors, and every killed mutant with its test."""
    s, meta = report["summary"], report["meta"]
    g = s["game"]
    lines = [f"# Mutation testing: {meta['game']}", "",
             f"Generated by `{meta['command']}` (do not edit by hand; see docs/CHECKS.md, \"Mutation testing\").", "",
             f"Commit `{meta['commit']}`"
             + (f" (its rule code; the tests of commit `{meta['tests_commit']}`)"
                if meta.get("tests_commit", meta["commit"]) != meta["commit"] else "")
             + f", cosmic-ray {meta['cosmic_ray']}, {meta['mutants_total']} mutants of "
             f"{', '.join(meta['files'])}; a random sample of {meta['sample']} (seed {meta['seed']}), "
             f"{meta['done']} run; kernels {'compiled' if meta['jit'] else 'as plain Python (NUMBA_DISABLE_JIT=1)'}; "
             f"{meta['tests']} tests (the game's folder and its core contract tests; no golden test; not "
             f"{', '.join('`' + d + '`' for d in meta.get('tests_deselected', []))})"
             + ("; left out as too slow in plain Python (baseline seconds with coverage): " +
                ", ".join(f"`{k.split('::')[-1]}` {v}" for k, v in meta.get("tests_left_out", {}).items())
                if meta.get("tests_left_out") else "") + ".", "",
             f"**Score {_pct(g['score'])}** ({g['killed']} of {g['mutants']} killed; 95% interval "
             f"{_pct(g['ci95'][0])}-{_pct(g['ci95'][1])}); killed by a test that names a rule ID: "
             f"{g['killed_by_rule_test']}; by a timeout: {g['timeouts']}"
             + (f" (at most {meta['timeout_cap_s']:.0f} s a mutant)" if meta.get("timeout_cap_s") else "")
             + f"; at import: {g['import_errors']}; "
             f"incompetent (dropped): {s['incompetent']}. Seconds per mutant: median "
             f"{s['seconds_per_mutant']['median'] or 0:.1f} (killed {s['seconds_per_mutant']['killed_median']:.1f}, "
             f"survived {s['seconds_per_mutant']['survived_median']:.1f}) wall on the shared machine, "
             f"{s['cpu_seconds_per_mutant']['median'] or 0:.1f} s of CPU.", "",
             "| file | mutants | killed | survived | score | 95% interval |", "|---|---:|---:|---:|---:|---|"]
    for f, fs in s["files"].items():
        lines.append(f"| {f} | {fs['mutants']} | {fs['killed']} | {fs['survived']} | {_pct(fs['score'])} | "
                     f"{_pct(fs['ci95'][0])}-{_pct(fs['ci95'][1])} |")
    recs = sorted(report["mutants"], key=lambda r: (r["file"], r["line"], r["operator"]))
    survivors = [r for r in recs if r["outcome"] == "survived"]
    lines += ["", f"## Surviving mutants ({len(survivors)})", "",
              "Each needs a scenario test that fails on it, or a reason why it is equivalent.", "",
              "*executed by*: the tests that run the mutated statement (baseline coverage); 0 means no test reaches "
              "it.", "",
              "| file:line | function | rule (code comment) | operator | before | after | executed by |",
              "|---|---|---|---|---|---|---:|"]
    for r in survivors:
        lines.append(f"| {Path(r['file']).name}:{r['line']} | {r['function']} | {', '.join(r['rules_in_code']) or '-'} "
                     f"| {r['operator'].split('/')[-1]} | {_code(r['before'])} | {_code(r['after'])} | "
                     f"{r.get('covering_tests', '?')} |")
    killed = [r for r in recs if r["outcome"] == "killed"]
    lines += ["", f"## Killed mutants ({len(killed)})", "",
              "| file:line | rule (code comment) | operator | after | killed by | its rule IDs |",
              "|---|---|---|---|---|---|"]
    for r in killed:
        test = r["test"].split("::")[-1] if r.get("how") != "import" else "(import)"
        how = "" if r.get("how") == "failed" else f" ({r.get('how')})"
        lines.append(f"| {Path(r['file']).name}:{r['line']} | {', '.join(r['rules_in_code']) or '-'} | "
                     f"{r['operator'].split('/')[-1]} | {_code(r['after'])} | {test}{how} | "
                     f"{', '.join(r.get('test_rules', [])) or '-'} |")
    dropped = [r for r in recs if r["outcome"] == "incompetent"]
    if dropped:
        lines += ["", f"## Incompetent mutants, dropped ({len(dropped)})", ""]
        lines += [f"- {Path(r['file']).name}:{r['line']} {r['operator'].split('/')[-1]}: {r.get('reason')}"
                  for r in dropped]
    return "\n".join(lines) + "\n"


#: the section of a game's RULES.md that :func:`write_breakage_section` owns (issue 39: the deliberate-breakage
#: tables come from the tool's runs, not from breaks chosen by the people who wrote the tests)
BREAKAGE_HEADING = "## Deliberate breakage"
BREAKAGE_BEGIN = ("<!-- generated from docs/mutation/{game}.json by `python -m cardenvs.benchmarks.mutation {game} "
                  "--tables`: do not edit -->")
BREAKAGE_END = "<!-- end of the generated breakage table -->"


def _rule_key(rule: str) -> tuple:
    """LN-K3 < LN-K12 < LN-L1: the checklist's order (prefix letters, then the number)."""
    m = re.match(r"([A-Z]+)-([A-Z]+)(\d+)([a-z]?)$", rule)
    return (m.group(1), m.group(2), int(m.group(3)), m.group(4)) if m else (rule, "", 0, "")


def breakage_table(report: dict[str, Any]) -> str:
    """The RULES.md breakage table of one run, one row per rule ID: the sampled mutants of lines whose code comments
    name the rule (its code broken: how many the tests caught), the mutants caught by a test that names the rule
    (its tests at work), and one of those as an example (the one-line change and the failing test); then the
    mutants that neither a comment nor a killing test ties to a rule, and the survivors."""
    meta, g = report["meta"], report["summary"]["game"]
    recs = sorted((r for r in report["mutants"] if r["outcome"] != "incompetent"),
                  key=lambda r: (r["file"], r["line"], r["operator"]))
    in_code: dict[str, list[dict[str, Any]]] = {}
    by_test: dict[str, list[dict[str, Any]]] = {}
    for r in recs:
        for rule in r["rules_in_code"]:
            in_code.setdefault(rule, []).append(r)
        if r["outcome"] == "killed":
            for rule in r.get("test_rules", []):
                by_test.setdefault(rule, []).append(r)

    def test_name(r: dict[str, Any]) -> str:
        if r.get("how") == "import":
            return "(import)"
        return r["test"].split("::")[-1] + ("" if r.get("how") == "failed" else f" ({r.get('how')})")

    def change(r: dict[str, Any]) -> str:
        return f"{Path(r['file']).name}:{r['line']} {_code(r['after'])}"

    tests_commit = meta.get("tests_commit", meta["commit"])
    lines = [BREAKAGE_BEGIN.format(game=meta["game"]), "", textwrap.fill(
             f"One-line changes (mutants) drawn at random from {', '.join(meta['files'])} (cosmic-ray's operators, "
             f"seed {meta['seed']}), each run as plain Python against the game's tests with the golden digests left "
             f"out (docs/CHECKS.md, \"Mutation testing\"): rule code of commit `{meta['commit'][:7]}`, tests of "
             f"`{tests_commit[:7]}`, {g['killed']} of {g['mutants']} caught ({_pct(g['score'])}). Per rule ID: "
             f"*its code*, the mutants of lines whose comments name the rule (caught / sampled); *its tests*, the "
             f"mutants caught by a test that names it; an example of those. Every mutant is listed in "
             f"[docs/mutation/{meta['game']}.md](../../../docs/mutation/{meta['game']}.md); the survivors' reasons "
             f"(equivalent mutants) are in docs/CHECKS.md.", width=118, break_on_hyphens=False), "",
             "| rule | its code | its tests | example: the change, the test that failed |", "|---|---:|---:|---|"]
    for rule in sorted(set(in_code) | set(by_test), key=_rule_key):
        code = in_code.get(rule, [])
        caught = sum(r["outcome"] == "killed" for r in code)
        tests = by_test.get(rule, [])
        example = next((r for r in tests if rule in r["rules_in_code"]), tests[0] if tests else next(
            (r for r in code if r["outcome"] == "killed"), None))
        lines.append(f"| {rule} | {f'{caught} / {len(code)}' if code else '-'} | {len(tests) or '-'} | "
                     + (f"{change(example)}: `{test_name(example)}`" if example else "-") + " |")
    untied = [r for r in recs if r["outcome"] == "killed" and not r["rules_in_code"] and not r.get("test_rules")]
    if untied:
        names = list(dict.fromkeys(test_name(r) for r in untied))
        lines.append(f"| (no rule ID) | - | {len(untied)} | caught by tests that name no rule: "
                     + ", ".join(f"`{t}`" for t in names[:3]) + (f" (+{len(names) - 3} more)" if len(names) > 3 else "")
                     + " |")
    survivors = [r for r in recs if r["outcome"] == "survived"]
    lines += ["", textwrap.fill(f"Not caught ({len(survivors)}): " + (
        "; ".join(f"{Path(r['file']).name}:{r['line']} ({', '.join(r['rules_in_code']) or 'no rule'})"
                  for r in survivors) or "none") + ".", width=118, break_on_hyphens=False), BREAKAGE_END]
    return "\n".join(lines) + "\n"


def rules_md_path(game: str) -> Path:
    return REPO / "cardenvs" / "games" / game / "RULES.md"


def write_breakage_section(report: dict[str, Any], path: Path | None = None) -> Path:
    """Replace the body of RULES.md's "Deliberate breakage" section with :func:`breakage_table` of ``report``."""
    path = path or rules_md_path(report["meta"]["game"])
    text = path.read_text()
    start = text.find("\n" + BREAKAGE_HEADING)
    if start < 0:
        raise SystemExit(f"{path}: no '{BREAKAGE_HEADING}' section to write the mutation table into")
    body = text.index("\n", start + 1) + 1
    end = text.find("\n## ", body)
    end = len(text) if end < 0 else end + 1
    path.write_text(text[:body] + breakage_table(report) + "\n" + text[end:])
    return path


def breakage_section(path: Path) -> str:
    """The generated part of RULES.md's breakage section as it stands (what :func:`write_breakage_section` wrote)."""
    text = path.read_text()
    begin = text.find("<!-- generated from docs/mutation/")
    end = text.find(BREAKAGE_END, begin)
    return "" if begin < 0 or end < 0 else text[begin:end + len(BREAKAGE_END)] + "\n"


def run_game(game: str, cfg: dict[str, Any], copy: Copy, sample: int, seed: int, out: Path, resume: bool,
             jit: bool, command: str, log: Any = print, timeout_cap: float | None = None) -> dict[str, Any]:
    """Baseline, sample, run every sampled mutant of one game; writes and returns the report. ``timeout_cap``: the
    most seconds a mutant's tests may run before it counts as killed by a timeout (default: no cap)."""
    import importlib.metadata

    files = [f for f in cfg["files"] if (copy.root / "cardenvs" / "games" / game / f).is_file()]
    absent = sorted(set(cfg["files"]) - set(files))
    if absent:  # a configured file the copy's commit does not have yet (e.g. --rev before a split): said, not hidden
        log(f"{game}: not in {copy.commit[:8]}, so not mutated: {', '.join(absent)}")
    if not files:
        raise GameFailed(f"{game}: none of {', '.join(cfg['files'])} is in cardenvs/games/{game}/ at {copy.commit[:8]}")
    rels = [f"cardenvs/games/{game}/{f}" for f in files]
    copy.restore(rels)  # a run killed mid-mutant leaves its mutant behind
    mutants = enumerate_mutants(copy.root, rels, cfg.get("exclude_operators", []))
    chosen = random.Random(seed).sample(mutants, min(sample, len(mutants)))
    json_path = out / f"{game}.json"
    done: dict[str, dict[str, Any]] = {}
    if resume and json_path.exists():
        old = json.loads(json_path.read_text())
        same_tests = old["meta"].get("tests_commit", old["meta"]["commit"]) == copy.tests_commit
        if old["meta"]["commit"] == copy.commit and same_tests and old["meta"]["seed"] == seed and \
                old["meta"]["jit"] == jit:
            done = {r["id"]: r for r in old["mutants"]}
    nodeids = collect(copy, game, cfg)
    log(f"{game}: {len(mutants)} mutants in {', '.join(files)}; sample {len(chosen)} (seed {seed}); "
        f"{len(nodeids)} tests; {len(done)} already done")
    # the baseline: every test must pass unmutated; its coverage says which tests can see each mutant
    cov_file = copy.root / f".mutation_coverage_{game}_{'jit' if jit else 'py'}"
    base_file = cov_file.with_suffix(".json")
    base = json.loads(base_file.read_text()) if base_file.exists() else {}
    if base.get("nodeids") != nodeids:
        base = run_tests(copy, nodeids, timeout=7200, jit=jit, stop_first=False,
                         cover=[copy.root / r for r in rels], coverage_file=cov_file)
        if base["exit_code"] != 0:
            raise GameFailed(f"{game}: the tests fail on the unmutated copy "
                             f"({'compiled' if jit else 'NUMBA_DISABLE_JIT=1'}):\n{base['tail']}")
        base["nodeids"] = nodeids
        base_file.write_text(json.dumps(base))
    slow_s = cfg.get("slow_test_s", 2.0)
    # a random-play sweep that takes minutes as plain Python names no rule and would cost minutes per survivor
    too_slow = {i: round(base["durations"].get(i, 0.0), 1) for i in nodeids
                if base["durations"].get(i, 0.0) > cfg.get("max_test_s", math.inf)}
    ordered = order_tests([i for i in nodeids if i not in too_slow], base["durations"], slow_s)
    test_map = TestMap(cov_file, copy.root, rels, base["fixtures"])
    startup = 60.0  # a run's own start (imports, collection) on a loaded machine
    log(f"{game}: baseline passes ({base['passed']} tests, {base['seconds']:.0f} s with coverage); "
        f"timeout per mutant {startup:.0f} s + 3 x its tests' baseline seconds"
        + (f", at most {timeout_cap:.0f} s" if timeout_cap else ""))
    meta = {"game": game, "commit": copy.commit, "tests_commit": copy.tests_commit, "seed": seed, "sample": len(chosen), "mutants_total": len(mutants),
            "files": files, "tests": len(ordered), "tests_left_out": too_slow,
            "tests_deselected": list(cfg.get("deselect", [])), "jit": jit,
            "baseline_seconds": round(base["seconds"], 1),
            "cosmic_ray": importlib.metadata.version("cosmic-ray"), "command": command,
            "excluded_operators": cfg.get("exclude_operators", []), "timeout_cap_s": timeout_cap}
    records: list[dict[str, Any]] = []
    report: dict[str, Any] = {}
    server = None if jit else TestServer(copy)
    try:
        for n, m in enumerate(chosen, 1):
            rec = done.get(m.id)
            if rec is None:
                copy.restore()
                covering = test_map.tests_for(m)
                tests = select_tests(ordered, covering, base["durations"], slow_s)
                # a mutant that loops forever is stopped after 3 x what its tests took unmutated
                timeout = startup + 3.0 * sum(base["durations"].get(i, 0.0) for i in tests)
                if timeout_cap:  # a baseline under coverage on a loaded machine can make that an hour
                    timeout = min(timeout, timeout_cap)
                rec = run_mutant(copy, m, tests, base["docs"], timeout, jit,
                                 None if covering is None else len(covering), server)
                log(f"{game} {n}/{len(chosen)} {m.file.split('/')[-1]}:{m.line} {m.operator.split('/')[-1]} "
                    f"{rec['outcome']} {rec.get('test', '').split('::')[-1]} {rec.get('seconds', 0):.0f} s "
                    f"(CPU {rec.get('cpu_seconds', 0):.1f} s, {rec.get('tests_run', 0)} tests)")
            records.append(rec)
            meta["done"] = len(records)
            report = {"meta": meta, "summary": summarise(records, files), "mutants": records}
            json_path.write_text(json.dumps(report, indent=1) + "\n")
    finally:
        if server is not None:
            server.close()
    (out / f"{game}.md").write_text(markdown(report))
    if out.resolve() == DEFAULT_OUT.resolve():  # the committed reading: RULES.md's table follows it
        write_breakage_section(report)
    return report


def table(reports: Sequence[dict[str, Any]]) -> str:
    """The summary table printed at the end (and pasted into docs/CHECKS.md)."""
    rows = ["| game | commit | mutants run | killed | score | 95% interval | lowest file | s/mutant, median (CPU) |",
            "|---|---|---:|---:|---:|---|---|---:|"]
    for rep in reports:
        s, meta = rep["summary"], rep["meta"]
        g = s["game"]
        worst = min(((f, fs) for f, fs in s["files"].items() if fs["mutants"]), key=lambda x: x[1]["score"],
                    default=("-", {"score": None, "mutants": 0}))
        rows.append(f"| {meta['game']} | {meta['commit'][:7]} | {g['mutants']} | {g['killed']} | {_pct(g['score'])} | "
                    f"{_pct(g['ci95'][0])}-{_pct(g['ci95'][1])} | {worst[0]} {_pct(worst[1]['score'])} "
                    f"(n={worst[1]['mutants']}) | {s['seconds_per_mutant']['median'] or 0:.0f} "
                    f"({s['cpu_seconds_per_mutant']['median'] or 0:.1f} CPU) |")
    return "\n".join(rows)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m cardenvs.benchmarks.mutation", description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", help="games to test (default: every game in mutation.toml)")
    ap.add_argument("--sample", type=int, help="mutants per game (default: mutation.toml's, 140)")
    ap.add_argument("--seed", type=int, help="seed of the random sample (default: mutation.toml's, 39)")
    ap.add_argument("--rev", default="HEAD", help="the commit to test (default HEAD; never the working tree)")
    ap.add_argument("--tests-rev", help="take the tests/ folder from this commit instead (default: --rev's): the "
                                        "same mutants of --rev's rule code against later tests")
    ap.add_argument("--copy", type=Path, help="folder for the copies, one per commit, kept and reused by later runs "
                                              "of the same commit (default: a temporary folder)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for <game>.json and <game>.md")
    ap.add_argument("--resume", action="store_true", help="keep the mutants already in <out>/<game>.json "
                                                          "(same commit, seed and --jit)")
    ap.add_argument("--jit", action="store_true", help="run the kernels compiled (a fresh cache per mutant) "
                                                       "instead of as plain Python: much slower")
    ap.add_argument("--files", nargs="+", metavar="FILE", help="mutate these files of each game's folder instead of "
                    "mutation.toml's (e.g. --files endings.py; give --out a folder of its own)")
    ap.add_argument("--tables", action="store_true", help="only rewrite <out>/<game>.md from <out>/<game>.json "
                                                          "(no copy, no run), and with the default --out the game's "
                                                          "RULES.md breakage table; print the summary table")
    ap.add_argument("--nice", type=int, default=15, help="niceness of the run (default 15: the machine is shared)")
    ap.add_argument("--timeout-cap", type=float, dest="timeout_cap", help="at most this many seconds per mutant "
                    "before it counts as killed by a timeout (default: 60 s + 3 x its tests' baseline seconds, "
                    "uncapped; a mutant that loops forever then costs that long)")
    return ap.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    args = parse_args(argv)
    config = load_config()
    games = args.games or list(config)
    unknown = [g for g in games if g not in config]
    if unknown:
        raise SystemExit(f"no mutation settings for {', '.join(unknown)} in {CONFIG} (games: {', '.join(config)})")
    if args.files:
        problems = missing_files(REPO, games, args.files)
        if problems:
            raise SystemExit("\n".join(problems))
    if args.tables:
        reports = []
        for game in games:
            path = args.out / f"{game}.json"
            if not path.exists():
                raise SystemExit(f"no results for {game}: {path} does not exist (run without --tables first)")
            reports.append(json.loads(path.read_text()))
            (args.out / f"{game}.md").write_text(markdown(reports[-1]))
            if args.out.resolve() == DEFAULT_OUT.resolve():
                write_breakage_section(reports[-1])
        print(table(reports))
        return reports
    try:
        import cosmic_ray  # noqa: F401
    except ImportError:
        raise SystemExit("mutation testing needs cosmic-ray: pip install -e '.[test]' (or pip install cosmic-ray)")
    if args.nice and hasattr(os, "nice"):
        os.nice(args.nice)
    copy = Copy(REPO, args.rev, args.copy, args.tests_rev)
    args.out.mkdir(parents=True, exist_ok=True)
    command = "python -m cardenvs.benchmarks.mutation " + " ".join(argv if argv is not None else sys.argv[1:])
    reports: list[dict[str, Any]] = []
    failures: list[str] = []
    for game in games:
        cfg = game_settings(config, game, args.files)
        sample = args.sample if args.sample is not None else cfg["sample"]
        seed = args.seed if args.seed is not None else cfg["seed"]
        try:
            reports.append(run_game(game, cfg, copy, sample, seed, args.out, args.resume, args.jit, command.strip(),
                                    log=lambda line: print(line, flush=True), timeout_cap=args.timeout_cap))
        except GameFailed as exc:  # e.g. its tests fail as plain Python: said, and the next game is run
            failures.append(str(exc))
            print(exc, flush=True)
    print(table(reports))
    if failures:
        raise SystemExit("\n".join(failures))
    return reports


def _stop(signum: int, frame: Any) -> None:
    """``kill`` of a run: raised as SystemExit, so the finally blocks put the mutated file back."""
    raise SystemExit(f"stopped by signal {signum}")


__all__ = [
    "breakage_section", "breakage_table", "BREAKAGE_END", "BREAKAGE_HEADING", "collect", "COMPOUND", "CONFIG", "Copy", "copy_name", "DEFAULT_OUT", "describe", "enumerate_mutants", "game_settings", "GameFailed", "GUARD",
    "load_config", "main", "markdown", "Mutant", "order_tests", "parse_args", "pytest_command", "REPO", "RULE_ID",
    "rule_ids", "rules_md_path", "run_game", "run_mutant", "run_tests", "select_tests", "SERVER", "source_rule_ids", "statement_line",
    "summarise", "table", "TestMap", "TestServer", "wilson", "write_breakage_section"
]


if __name__ == "__main__":
    import signal

    signal.signal(signal.SIGTERM, _stop)
    main()
