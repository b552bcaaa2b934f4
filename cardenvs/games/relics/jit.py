"""``kernel``: a relics Numba function compiled once, whatever argument types its callers pass.

Numba compiles a jitted function once per distinct argument types seen at its call sites: an int32 read from the
row, an int64 loop index and a literal constant (``fire(..., TR_CAST, ...)`` makes a version for the literal 4)
each make a new version, and every version of a function re-optimises and re-generates the machine code of all it
calls. relics compiled 162 versions of its 63 functions that way (``fire`` 9 times, each with the effect
interpreter). ``kernel`` compiles ``func`` (cached) behind a shim that Numba inlines into every caller and that casts
each argument annotated ``int`` to int64 and each ``bool`` to bool, so the function has one version. The values are
the same, so the results are too. Called from Python (tests, ``text.py``), the shim runs as plain Python and calls
the cached compiled function with int64 arguments: the same version, nothing compiled per process.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np
from numba import config, njit
from numba.core.registry import CPUDispatcher

from cardenvs.core.jit import helper

_CASTS = {"int": "_as_int", "bool": "bool"}


class _InlinedShim(CPUDispatcher):
    """A shim that Numba inlines into jitted callers; a call from Python runs its Python body (which calls the
    cached compiled function) instead of compiling the shim itself, uncached, in every process."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.py_func(*args, **kwargs)


def kernel(func: Callable) -> Any:
    """``njit(cache=True)`` with one compiled version: int and bool arguments are cast at every call site."""
    if config.DISABLE_JIT:  # pure Python (deliberate breakage runs): nothing to unify
        return func
    impl = helper(func)  # without the CPython and C wrappers (cardenvs.core.jit); Python calls reach its twin
    params = list(inspect.signature(func).parameters.values())
    names = [p.name for p in params]
    passed = [f"{_CASTS[p.annotation]}({p.name})" if p.annotation in _CASTS else p.name for p in params]
    source = f"def {func.__name__}({', '.join(names)}):\n    return _impl({', '.join(passed)})\n"
    namespace = {"_impl": impl, "_as_int": np.int64}
    exec(source, namespace)  # noqa: S102 (a fixed template over the function's own parameter names)
    shim = namespace[func.__name__]
    shim.__doc__, shim.__module__, shim.__qualname__ = func.__doc__, func.__module__, func.__qualname__
    dispatcher = njit(inline="always")(shim)
    dispatcher.__class__ = _InlinedShim  # same layout: only the Python-side call differs
    dispatcher.impl = impl  # the compiled function itself (its one signature: ``impl.signatures``)
    return dispatcher
