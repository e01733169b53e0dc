"""The floating-point exceptions an evaluation raised, read once per evaluation.

Bits as NumPy's error callback passes them: 1 divide by zero, 2 overflow, 4 underflow, 8 invalid.
Two sources, ORed: the calling thread's hardware flags (the generated C kernels raise them, and OR
their OpenMP threads' flags into the caller's at the end of each parallel region), and NumPy's
error callback (`numpy_errstate`) for steps NumPy runs (the numpy backend, the C backend's
interpreted tier, op references): NumPy clears the hardware flags around every ufunc, so its own
report is the only one that survives. graph/_node.c holds both (a thread-local word for NumPy's);
without the compiled module, libm through ctypes (x86-64 and aarch64 flag values) and a
thread-local here.

In `collecting` mode (lazyarray/fp_errors.py re-running a graph through NumPy to name the ops),
NumPy's messages themselves are gathered instead.
"""

from __future__ import annotations

import contextlib
import ctypes
import platform
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..graph.node import _compiled

_local = threading.local()


def _note_python(kind: str, bits: int) -> None:
    _local.noted = getattr(_local, "noted", 0) | bits


class _Libm:
    """fenv through ctypes: the pure-Python path (no compiled graph._node)."""

    # (divide, over, under, invalid) per machine, as <fenv.h> defines them
    FLAGS = {"x86_64": (4, 8, 16, 1), "AMD64": (4, 8, 16, 1), "aarch64": (2, 4, 8, 1),
             "arm64": (2, 4, 8, 1)}

    def __init__(self) -> None:
        self.flags = self.FLAGS.get(platform.machine())
        self.lib = None
        if self.flags is not None:
            try:
                self.lib = ctypes.CDLL("libm.so.6")
            except OSError:
                self.lib = None
        self.mask = sum(self.flags) if self.flags else 0

    def clear(self) -> None:
        _local.noted = 0
        if self.lib is not None:
            self.lib.feclearexcept(self.mask)

    def test(self) -> int:
        bits = getattr(_local, "noted", 0)
        if self.lib is not None:
            f = self.lib.fetestexcept(self.mask)
            bits |= sum(1 << k for k, flag in enumerate(self.flags) if f & flag)
        return bits


if _compiled is not None and hasattr(_compiled, "fp_test"):
    clear: Callable[[], None] = _compiled.fp_clear
    test: Callable[[], int] = _compiled.fp_test
    _note_bits = _compiled.fp_note

    def note(kind: str, bits: int) -> None:
        """NumPy's `call`-mode callback: remember the bits for `test`."""
        _note_bits(bits)
else:
    _libm = _Libm()
    clear = _libm.clear
    test = _libm.test
    note = _note_python


def _python_call(fn: Callable, a: Any, b: Any, c: Any, hook: Callable, context: Any) -> Any:
    clear()
    result = fn(a, b, c)
    bits = test()
    if bits:
        hook(bits, context, b, c)
    return result


# call(fn, a, b, c, hook, context): fn(a, b, c) between clear and test; hook(bits, context, b, c)
# when a flag fired (la.jit's call; compiled: one C call instead of two).
call: Callable[..., Any] = getattr(_compiled, "fp_call", None) or _python_call


class _Collector:
    """NumPy's `log`-mode target: its messages ("divide by zero encountered in log"), in order,
    one per op as NumPy warns once per ufunc call (`np.log(x) + np.log(y)` warns twice under a
    warnings filter of "always"; they were kept once each)."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.sites: list[tuple[str, int] | None] = []  # the user line that built each op
        self.ops: list[int] = []  # the op (ufunc call) that wrote each: 'call' passes its flags
        self.site: tuple[str, int] | None = None  # the op running now (runtime/interpreter.py)
        self.op = 0  # and its number

    def write(self, text: str) -> None:
        text = text.strip()
        if text.startswith("Warning: "):
            text = text[len("Warning: "):]
        self.messages.append(text)
        self.sites.append(self.site)
        self.ops.append(self.op)


def numpy_errstate() -> contextlib.AbstractContextManager:
    """The NumPy error state the backends run NumPy steps under (instead of all='ignore'): the
    bits go to `test`, or the messages to the collector of a `collecting` block."""
    collector = getattr(_local, "collector", None)
    if collector is not None:
        return np.errstate(all="log", call=collector)
    return np.errstate(all="call", call=note)


try:  # NumPy's own error state, set without building an np.errstate (~4 us) per small run
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj

    _CALL_MODE: Any = _make_extobj(all="call", call=note)
except (ImportError, AttributeError, TypeError):  # another NumPy: np.errstate each time
    _extobj_contextvar = _CALL_MODE = None


def enter_numpy_errstate() -> Any:
    """`numpy_errstate().__enter__()` for lazyarray/eager.py's per-op runs: a token for
    `leave_numpy_errstate`, ~0.3 us where NumPy's internals allow."""
    if _CALL_MODE is None or getattr(_local, "collector", None) is not None:
        state = numpy_errstate()
        state.__enter__()
        return state
    return _extobj_contextvar.set(_CALL_MODE)


def leave_numpy_errstate(token: Any) -> None:
    if isinstance(token, np.errstate):
        token.__exit__(None, None, None)
    else:
        _extobj_contextvar.reset(token)


def collector() -> _Collector | None:
    """The `collecting` block's collector of this thread, or None."""
    return getattr(_local, "collector", None)


def is_collecting() -> bool:
    """Whether this thread runs inside a `collecting` block (the report's re-run)."""
    return getattr(_local, "collector", None) is not None


@contextlib.contextmanager
def collecting() -> Iterator[_Collector]:
    """NumPy's messages for the NumPy steps run inside the block (this thread)."""
    collector = _Collector()
    was = getattr(_local, "collector", None)
    _local.collector = collector
    try:
        with np.errstate(all="log", call=collector):
            yield collector
    finally:
        _local.collector = was
