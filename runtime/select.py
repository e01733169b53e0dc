"""Which backend `auto` means on this machine: cupy with a GPU, else c with a compiler, else numpy.

The answer is worked out once per process (probing CuPy and the compiler costs ~150 µs). When no C
compiler works, `auto` falls back to the numpy backend with one warning that says why and how to fix
it; a missing GPU is the normal case and stays silent.
"""

from __future__ import annotations

import warnings

from .backend import _FACTORIES

_PREFERENCE = ("cupy", "c", "numpy")
_auto: str | None = None
# Called once `auto` is worked out: settings that depend on the backend (lazyarray's at-once path)
# wait for it rather than probe CuPy at import (importing CuPy costs ~1 s).
ON_RESOLVED: list = []


class SlowBackendWarning(RuntimeWarning):
    """lazyarray runs on its slow reference backend because a faster one cannot run here."""


def resolve_backend(name: str) -> str:
    if name != "auto":
        return name
    global _auto
    if _auto is None:
        # In preference order, stopping at the first that runs: asking every backend imported
        # dask (its probe finds `dask.array`), ~0.6 s of a process's first evaluation.
        _auto = next(b for b in _PREFERENCE
                     if b in _FACTORIES and _FACTORIES[b].unavailable_reason() is None)
        if _auto == "numpy" and "c" in _FACTORIES:
            reason = _FACTORIES["c"].unavailable_reason()
            warnings.warn(
                f"lazyarray falls back to its slow numpy reference backend because the C backend "
                f"cannot run here: {reason}", SlowBackendWarning, stacklevel=3)
        for hook in ON_RESOLVED:
            hook()
    return _auto


def resolved_auto() -> str | None:
    """What `auto` means, if it has been worked out already (never probes)."""
    return _auto


def forget_auto_backend() -> None:
    """Probe again on the next `auto` resolution (tests that change what is available)."""
    global _auto
    _auto = None
