"""A Numba on-disk cache that cannot go stale: each cached kernel is keyed on every source it depends on.

Numba keys a cached function on its own file only. Our kernels compile constants and inlined helpers from other
files into themselves (a game's ``rules.py`` bakes in the offsets of its ``state.py`` and the zone helpers of
``cardenvs/core``; a heuristic in ``agents/`` inlines its game's kernels), so editing ``state.py`` alone left the
cached ``rules.py`` running the old offsets: silently wrong games.

:func:`install` puts :class:`DependencyStampLocator` first in Numba's list of cache locators. For a file of ours it
wraps the locator Numba would have used (same cache folder, same file names) and replaces the freshness stamp by
(Numba's own stamp of the file, a digest of its dependencies). The dependencies of a file are the file itself
and every module of ours it imports at module level, followed transitively (``from .state import X``,
``from . import effects``, ``from cardenvs.core.zones import y``). So editing ``state.py`` recompiles the kernels
of its game and the heuristic that inlines them, while editing ``cardenvs/core/batch.py`` or a game's ``text.py``
(which no kernel imports) recompiles nothing.

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
from typing import Callable

import sys

PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: folders whose cached kernels get dependency stamps: the package, and the sibling top-level packages of a checkout
ROOTS: tuple[Path, ...] = (PACKAGE_DIR,) + tuple(PACKAGE_DIR.parent / name for name in ("agents", "benchmarks"))


@functools.lru_cache(maxsize=None)
def _file_digest(path: str, mtime_ns: int, size: int) -> bytes:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


_FROM_IMPORT = re.compile(rb"^from[ \t]+(\.*)([A-Za-z_][\w.]*)?[ \t]+import[ \t]+\(?([\w, \t\n]+?)\)?[ \t]*(?:#.*)?$",
                          re.MULTILINE)
_PLAIN_IMPORT = re.compile(rb"^import[ \t]+([\w.]+)", re.MULTILINE)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def _module_file(parts: list[str]) -> Path | None:
    """The file of module ``parts`` (e.g. ["cardenvs", "core", "zones"]) if it is one of ours."""
    if not parts:
        return None
    if parts[0] == "cardenvs":
        base = PACKAGE_DIR
    else:
        base = next((r for r in ROOTS if r.name == parts[0]), None)
        if base is None:
            return None
    target = base.joinpath(*parts[1:])
    if target.with_suffix(".py").is_file():
        return target.with_suffix(".py")
    if (target / "__init__.py").is_file():
        return target / "__init__.py"
    return None


def _package_parts(path: Path) -> list[str]:
    """The dotted package of the module at ``path``, as parts (``cardenvs/games/levelneo/rules.py`` -> its package)."""
    for root in ROOTS:
        if root == path.parent or root in path.parents:
            rel = path.parent.relative_to(root.parent)
            return list(rel.parts)
    return []


def imported_files(path: Path) -> set[Path]:
    """Our modules that ``path`` imports directly (relative or absolute; ``from X import name`` also tries X.name)."""
    try:
        st = path.stat()
    except OSError:
        return set()
    # memoised on path, mtime and size as the digests are: every kernel of a module follows the same imports, and
    # parsing them again for each of a game's ~100 kernels cost seconds per import of the game
    return set(_imported_files(str(path), st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=None)
def _imported_files(path_text: str, mtime_ns: int, size: int) -> frozenset[Path]:
    path = Path(path_text)
    source = _read(path)
    package = _package_parts(path)
    found: set[Path] = set()
    for dots, module, names in _FROM_IMPORT.findall(source):
        if dots:
            up = len(dots) - 1
            base = package[: len(package) - up] if up else list(package)
        else:
            base = []
        parts = base + (module.decode().split(".") if module else [])
        target = _module_file(parts)
        if target is not None:
            found.add(target)
        for name in names.replace(b"\n", b" ").split(b","):
            name = name.strip().split(b" ")[0]
            sub = _module_file(parts + [name.decode()]) if name else None
            if sub is not None:
                found.add(sub)
    for module in _PLAIN_IMPORT.findall(source):
        parts = module.decode().split(".")
        for k in range(1, len(parts) + 1):
            target = _module_file(parts[:k])
            if target is not None:
                found.add(target)
    return frozenset(found)


def dependency_files(py_file: str | Path) -> list[Path]:
    """The source files a kernel defined in ``py_file`` may depend on (see the module docstring).

    Module-level imports only (an import inside a function is Python code, never compiled into a kernel); a package's
    ``__init__.py`` counts but its own imports are not followed (it re-exports; kernels import the modules), so that
    editing a game's ``__init__.py``, its text rendering or its docs recompiles none of its kernels."""
    path = Path(py_file).resolve()
    seen: set[Path] = set()
    todo = [path]
    while todo:
        current = todo.pop()
        if current in seen or not current.is_file():
            continue
        seen.add(current)
        if current.name == "__init__.py" and current != path:
            continue
        todo += [f for f in imported_files(current) if f not in seen]
    return sorted(seen)


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


@functools.lru_cache(maxsize=None)
def _locator_class() -> type:
    """:class:`DependencyStampLocator`, made when Numba is imported (it subclasses Numba's locator): ``import
    cardenvs`` does not import Numba, so a command that compiles nothing (``cardenvs --help``, ``decks validate``)
    does not wait for it."""
    from numba.core import caching

    class DependencyStampLocator(caching._CacheLocator):
        """Numba's own locator for the file, with its freshness stamp extended by :func:`dependency_stamp`."""

        #: the locators Numba would otherwise pick for a file on disk, in its own order of preference
        WRAPPED = (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator, caching.UserWideCacheLocator)

        def __init__(self, inner: caching._CacheLocator, py_file: str, module: str = "cardenvs") -> None:
            self._inner = inner
            self._py_file = py_file  # Numba reads this attribute of a locator in its messages
            # A checkout's top-level folders import under two names (``benchmarks.ceiling`` from the repository root,
            # ``cardenvs.benchmarks.ceiling`` installed), and Numba pickles the module name into each cache entry and
            # imports it again on load: an entry one name wrote failed to load where the other name is all there is.
            # Each top-level name other than ``cardenvs`` gets its own entries (the usual name keeps its file names).
            top = (module or "").split(".")[0]
            self._name_tag = "" if top == "cardenvs" else "_" + "".join(c if c.isalnum() else "_" for c in top)

        def ensure_cache_path(self) -> None:
            self._inner.ensure_cache_path()

        def get_cache_path(self) -> str:
            return self._inner.get_cache_path()

        def get_source_stamp(self):
            return (self._inner.get_source_stamp(), dependency_stamp(self._py_file))

        def get_disambiguator(self) -> str:
            return self._inner.get_disambiguator() + self._name_tag

        @classmethod
        def from_function(cls, py_func, py_file):
            if not (os.path.exists(py_file) and _is_ours(py_file)):
                return None
            for locator_class in cls.WRAPPED:
                inner = locator_class.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner, py_file, getattr(py_func, "__module__", None) or "")
            return None

    return DependencyStampLocator


def __getattr__(name: str):  # DependencyStampLocator, once Numba is imported
    if name == "DependencyStampLocator":
        return _locator_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _impl_class() -> type:
    from numba.core import caching

    # CacheImpl in Numba >= 0.61, _CacheImpl before
    return getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")


def _install_now() -> None:
    impl = _impl_class()
    locator = _locator_class()
    if impl._locator_classes and impl._locator_classes[0] is locator:
        return
    impl._locator_classes = [locator] + [c for c in impl._locator_classes if c is not locator]


class AfterImport:
    """A finder on ``sys.meta_path`` that lets module ``name`` load as usual and calls ``then()`` the moment it has
    (before any module importing it goes on): Numba's ``caching`` module gets the locator before ``numba`` itself
    has finished importing, so before any kernel can be defined; ``import cardenvs`` registers the games with
    PettingZoo when PettingZoo loads instead of importing it."""

    def __init__(self, name: str, then: Callable[[], None]) -> None:
        self.name, self.then = name, then

    def find_spec(self, fullname: str, path: object = None, target: object = None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        import importlib.util

        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            exec_module = spec.loader.exec_module

            def exec_then(module: object) -> None:
                exec_module(module)
                self.then()

            spec.loader.exec_module = exec_then  # type: ignore[method-assign]
        return spec


def after_import(name: str, then: Callable[[], None]) -> None:
    """Call ``then()`` now if module ``name`` is loaded, else the moment it loads (once; idempotent per name)."""
    if name in sys.modules:
        then()
    elif not any(isinstance(f, AfterImport) and f.name == name for f in sys.meta_path):
        sys.meta_path.insert(0, AfterImport(name, then))


def install() -> None:
    """Make :class:`DependencyStampLocator` Numba's first choice (idempotent). Call before any kernel is defined:
    at once when Numba's caching module is loaded, else the moment it loads."""
    after_import("numba.core.caching", _install_now)


__all__ = [
    "after_import", "AfterImport", "dependency_files", "dependency_stamp", "DependencyStampLocator", "imported_files",
    "install", "PACKAGE_DIR", "ROOTS"
]
