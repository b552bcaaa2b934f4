"""``helper`` and ``kernel``: how the rules engines compile the functions that only other compiled functions call.

Plain ``njit`` gives every compiled function two entry points for callers outside Numba, a CPython wrapper (boxing
and unboxing each argument) and a C-callable wrapper. A function's machine code carries them, and Numba links the
whole code of every function a kernel calls into the kernel's own module and optimises and generates it again there,
so each wrapper is compiled once per caller up the chain. The rules engines (hundreds of small functions under a
few batch kernels) never call their helpers from Python in a game, so ``helper`` compiles them without both wrappers
(Numba's ``no_cpython_wrapper`` and ``no_cfunc_wrapper`` options): the cold first call of heartbreak's env path went
from about 32 to 25 s (docs/benchmarks). The code a kernel runs is the same.

A call from Python (tests, scenario tools, ``text.py``) still works: it goes to a twin of the function compiled with
the CPython wrapper, made at the first such call and cached in its own files (``<name>__from_python``), so a Python
caller costs one extra compile of that function the first time and nothing in later runs.

``kernel`` (the same family, for a function called with mixed argument types): Numba compiles a jitted function once
per distinct argument types seen at its call sites: an int32 read from the row, an int64 loop index and a literal
constant (``fire(..., TR_CAST, ...)`` makes a version for the literal 4) each make a new version, and every version
re-optimises and re-generates the machine code of all it calls. relics compiled 162 versions of its 63 functions that
way (``fire`` 9 times, each with the effect interpreter). ``kernel`` compiles the function as a ``helper`` behind a
shim that Numba inlines into every caller and that casts each argument annotated ``int`` to int64 and each ``bool``
to bool, so the function has one version. The values are the same, so the results are too. Called from Python
(tests, ``text.py``), the shim runs as plain Python and calls the helper's twin with int64 arguments.
"""
from __future__ import annotations

import inspect
import types
from typing import Any, Callable

import numpy as np
from numba import config, njit
from numba.core.registry import CPUDispatcher

#: the options every helper compiles with (the batch kernels, called from Python, keep their CPython wrapper)
HELPER_OPTIONS = {"cache": True, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
TWIN_SUFFIX = "__from_python"

__all__ = ["HELPER_OPTIONS", "TWIN_SUFFIX", "HelperDispatcher", "helper", "kernel"]


class HelperDispatcher(CPUDispatcher):
    """A helper's dispatcher: compiled callers type and link it as usual; a call from Python runs its twin."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        twin = self.__dict__.get("python_twin")
        if twin is None:
            twin = self.python_twin = _twin(self)
        return twin(*args, **kwargs)


def _twin(dispatcher: Any) -> Any:
    """The same function compiled with the CPython wrapper, under its own name so its cache files are its own."""
    f = dispatcher.py_func
    copy = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
    copy.__kwdefaults__, copy.__doc__, copy.__module__ = f.__kwdefaults__, f.__doc__, f.__module__
    copy.__qualname__ = f.__qualname__ + TWIN_SUFFIX
    options = {k: v for k, v in dispatcher.targetoptions.items() if k not in ("no_cpython_wrapper", "nopython")}
    options["cache"] = True
    return njit(*dispatcher._helper_signatures, **options)(copy)


def helper(*signatures: Any, **options: Any) -> Any:
    """``@helper`` or ``@helper(signature, inline=...)``: ``njit(cache=True)`` without the wrappers that only
    callers outside Numba need (see the module docstring). ``inline="always"`` functions need no ``helper``: they are
    never compiled on their own."""
    # a bare ``@helper``: its one argument is the function (signatures are not callable)
    if len(signatures) == 1 and callable(signatures[0]) and not options:
        return _make(signatures[0], (), {})

    def decorate(func: Callable) -> Any:
        return _make(func, signatures, options)

    return decorate


def _make(func: Callable, signatures: tuple, options: dict) -> Any:
    if config.DISABLE_JIT:  # pure Python (deliberate breakage runs): nothing to compile
        return func
    dispatcher = njit(*signatures, **{**HELPER_OPTIONS, **options})(func)
    dispatcher.__class__ = HelperDispatcher  # same layout: only the Python-side call differs
    dispatcher._helper_signatures = signatures
    return dispatcher


_CASTS = {"int": "_as_int", "bool": "bool"}


class _InlinedShim(CPUDispatcher):
    """A shim that Numba inlines into jitted callers; a call from Python runs its Python body (which calls the
    cached compiled function) instead of compiling the shim itself, uncached, in every process."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.py_func(*args, **kwargs)


def kernel(func: Callable) -> Any:
    """``@kernel``: a ``helper`` with one compiled version: arguments annotated ``int`` are cast to int64 and
    ``bool`` to bool at every call site (see the module docstring)."""
    if config.DISABLE_JIT:  # pure Python (deliberate breakage runs): nothing to unify
        return func
    impl = helper(func)  # without the CPython and C wrappers; Python calls reach its twin
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
