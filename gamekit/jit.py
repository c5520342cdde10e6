"""``njit`` that imports numba only when a kernel is first used through numba.

Importing numba costs a process about half a second, more than the games of a small run, and
a run that plays through a game's C engine (``gamekit.cbuild``) never
calls a kernel through numba at all. So the kernel modules decorate with this ``njit``: it
takes numba's keyword options and returns a ``LazyKernel``. The first use of any lazy kernel
(a call, or an attribute such as ``py_func``) imports numba, turns every lazy kernel into
``numba.njit(**options)(function)`` and rebinds every module global that holds a lazy kernel
to its dispatcher, so numba, compiling one kernel, finds real dispatchers among its globals
(and inlines those marked ``inline="always"``). From then on ``njit`` returns dispatchers. A
lazy kernel numba meets some other way types itself through ``_numba_type_`` (which
activates), so it is always callable from compiled code.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

from .kernel_cache import use_cache_of

__all__ = ["LazyKernel", "activate", "active", "needs_compile", "njit"]

_pending: list[LazyKernel] = []
_active = False
_lock = threading.RLock()


class LazyKernel:
    """A function waiting to become a numba dispatcher; used like one."""

    def __init__(self, py_func: Callable[..., Any], options: dict[str, Any]):
        self._py_func = py_func
        self._options = options
        self._dispatcher: Any = None
        self.__name__ = py_func.__name__
        self.__qualname__ = py_func.__qualname__
        self.__module__ = py_func.__module__
        self.__doc__ = py_func.__doc__

    @property
    def py_func(self) -> Callable[..., Any]:
        """The Python function (numba not imported): plain arithmetic kernels run on numpy."""
        return self._py_func

    @property
    def dispatcher(self) -> Any:
        """The numba dispatcher (numba is imported and every lazy kernel made real)."""
        activate()
        return self._dispatcher

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.dispatcher(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_py_func", "_options", "_dispatcher"):
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __repr__(self) -> str:
        return f"<lazy kernel {self.__module__}.{self.__qualname__}>"


def njit(*args: Any, **options: Any) -> Any:
    """``@njit`` or ``@njit(cache=True, ...)``: numba's keyword options, applied on first use."""
    if len(args) == 1 and callable(args[0]) and not options:
        return _make(args[0], {})
    if args:
        raise TypeError("gamekit.jit.njit takes keyword options only (no signatures)")
    return lambda fn: _make(fn, options)


def _make(fn: Callable[..., Any], options: dict[str, Any]) -> Any:
    with _lock:
        if not _active:
            kernel = LazyKernel(fn, options)
            _pending.append(kernel)
            return kernel
    return _dispatcher(fn, options)


def _dispatcher(fn: Callable[..., Any], options: dict[str, Any]) -> Any:
    """numba's dispatcher of ``fn``; a cached one keeps its machine code in the folder keyed
    by the sources of ``fn``'s package (``kernel_cache.use_cache_of``), chosen as numba makes
    it (numba reads the folder then)."""
    import numba  # start-up: numba loads when a kernel is first used

    if options.get("cache"):
        use_cache_of(fn.__module__)
    return numba.njit(**options)(fn)


def active() -> bool:
    """True once numba has been imported for the kernels."""
    return _active


def activate() -> None:
    """Import numba and make every lazy kernel a dispatcher, rebinding module globals."""
    global _active
    if _active:
        return
    with _lock:
        if _active:
            return
        for kernel in _pending:
            kernel._dispatcher = _dispatcher(kernel._py_func, kernel._options)
        for module in list(sys.modules.values()):
            namespace = getattr(module, "__dict__", None)
            if not isinstance(namespace, dict):
                continue
            for name, value in list(namespace.items()):
                if type(value) is LazyKernel:
                    namespace[name] = value._dispatcher
        _pending.clear()
        _active = True


def needs_compile(kernel: Any) -> bool | None:
    """Whether numba's first call of ``kernel`` (a ``cache=True`` kernel, lazy or not) compiles
    it: True when numba's cache holds no machine code of its current code for this machine,
    False when it does (for any argument types: meant for a kernel called with one set), None
    when that cannot be told (numba's private index, read as numba reads it, moved). Imports
    numba: for a path about to use it. False with numba's JIT off: nothing compiles."""
    try:
        from numba.core.config import DISABLE_JIT  # start-up: numba, for a path about to use it

        if DISABLE_JIT:
            return False
        cache = kernel._cache
        key = cache._index_key(None, kernel.targetctx.codegen())
        index = cache._cache_file._load_index()
        return not any(k[1:] == key[1:] for k in index)
    except Exception:  # numba's internals moved: say so rather than guess
        return None
