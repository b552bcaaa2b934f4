"""A Numba on-disk cache that cannot go stale: each cached kernel is keyed on every source it depends on.

Numba keys a cached function on its own file only. Our kernels compile constants and inlined helpers from other
files into themselves (a game's ``rules.py`` bakes in the offsets of its ``state.py`` and the zone helpers of
``cardenvs/core``; a heuristic in ``agents/`` inlines its game's kernels), so editing ``state.py`` alone left the
cached ``rules.py`` running the old offsets: silently wrong games.

:func:`install` puts :class:`DependencyStampLocator` first in Numba's list of cache locators. For a file of ours it
wraps the locator Numba would have used (same cache folder, same file names) and replaces the freshness stamp by
(Numba's own stamp of the file, a digest of its dependencies). The dependencies of a file are, by convention:

- every ``*.py`` file in ``cardenvs/core`` (header, zones, RNG and turn helpers are inlined everywhere);
- for a file of a game (``cardenvs/games/<name>/``), every ``*.py`` file of that game (its modules import each
  other freely);
- for any other file (the heuristics in ``agents/``, the benchmark ceiling): the file itself, the files of its own
  folder it imports relatively (``from .base import ...``, followed transitively), and every ``*.py`` file of each
  game it names as ``cardenvs.games.<name>``. Editing one heuristic so recompiles that heuristic only.

A stamp that differs makes Numba treat the index as empty and recompile, exactly as when the file itself changes.
The digest hashes file contents (memoised on path, mtime and size), so touching a file without changing it
recompiles nothing. ``tests/core/test_numba_cache.py`` edits a constant in a copy of a game's ``state.py`` and checks
the next run sees it.
"""
from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path

from numba.core import caching

PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: folders whose cached kernels get dependency stamps: the package, and the sibling top-level packages of a checkout
ROOTS: tuple[Path, ...] = (PACKAGE_DIR,) + tuple(PACKAGE_DIR.parent / name for name in ("agents", "benchmarks"))
_GAME_REFERENCE = re.compile(rb"cardenvs\.games\.([A-Za-z_][A-Za-z0-9_]*)")


@functools.lru_cache(maxsize=None)
def _file_digest(path: str, mtime_ns: int, size: int) -> bytes:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


_RELATIVE_IMPORT = re.compile(rb"^\s*from \.([A-Za-z_][A-Za-z0-9_]*)? import ([A-Za-z0-9_, ()]+)", re.MULTILINE)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def _relative_closure(path: Path) -> set[Path]:
    """``path`` and the modules of its folder it imports relatively, transitively."""
    seen: set[Path] = set()
    todo = [path]
    while todo:
        current = todo.pop()
        if current in seen or not current.is_file():
            continue
        seen.add(current)
        for module, names in _RELATIVE_IMPORT.findall(_read(current)):
            candidates = [module] if module else [n.strip() for n in names.strip(b"()").split(b",")]
            todo += [current.parent / (c.decode() + ".py") for c in candidates if c]
    return seen


def dependency_files(py_file: str | Path) -> list[Path]:
    """The source files a kernel defined in ``py_file`` may depend on (see the module docstring)."""
    path = Path(py_file).resolve()
    core = PACKAGE_DIR / "core"
    folders = {core}
    files: set[Path] = set()
    if path.parent.parent == PACKAGE_DIR / "games":
        folders.add(path.parent)
    elif path.parent != core:
        files |= _relative_closure(path)
        for name in set(_GAME_REFERENCE.findall(b"".join(_read(f) for f in files))):
            game_dir = PACKAGE_DIR / "games" / name.decode()
            if game_dir.is_dir():
                folders.add(game_dir)
    for folder in folders:
        files |= set(folder.glob("*.py"))
    return sorted(files)


def dependency_stamp(py_file: str | Path) -> str:
    """A digest of the names and contents of every dependency of ``py_file``: the part of the key Numba lacks."""
    h = hashlib.sha256()
    for path in dependency_files(py_file):
        try:
            st = path.stat()
        except OSError:  # removed while we looked
            continue
        h.update(str(path).encode())
        h.update(_file_digest(str(path), st.st_mtime_ns, st.st_size))
    return h.hexdigest()


def _is_ours(py_file: str) -> bool:
    try:
        path = Path(py_file).resolve()
    except OSError:
        return False
    return any(root == path.parent or root in path.parents for root in ROOTS)


class DependencyStampLocator(caching._CacheLocator):
    """Numba's own locator for the file, with its freshness stamp extended by :func:`dependency_stamp`."""

    #: the locators Numba would otherwise pick for a file on disk, in its own order of preference
    WRAPPED = (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator, caching.UserWideCacheLocator)

    def __init__(self, inner: caching._CacheLocator, py_file: str) -> None:
        self._inner = inner
        self._py_file = py_file  # Numba reads this attribute of a locator in its messages

    def ensure_cache_path(self) -> None:
        self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return (self._inner.get_source_stamp(), dependency_stamp(self._py_file))

    def get_disambiguator(self) -> str:
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func, py_file):
        if not (os.path.exists(py_file) and _is_ours(py_file)):
            return None
        for locator_class in cls.WRAPPED:
            inner = locator_class.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner, py_file)
        return None


def _impl_class() -> type:
    # CacheImpl in Numba >= 0.61, _CacheImpl before
    return getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")


def install() -> None:
    """Make :class:`DependencyStampLocator` Numba's first choice (idempotent). Call before any kernel is defined."""
    impl = _impl_class()
    if impl._locator_classes and impl._locator_classes[0] is DependencyStampLocator:
        return
    impl._locator_classes = [DependencyStampLocator] + [c for c in impl._locator_classes
                                                       if c is not DependencyStampLocator]
