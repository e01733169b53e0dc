"""Kernel-compile counters and the switch that turns a compile into an error.

The plan cache and the tests read these counters (every cache is observable); `lazyarray` sets
`forbid_compiles` from its settings, since runtime/ never imports the user layer.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, fields


class CompileForbidden(RuntimeError):
    """A kernel had to be compiled while compiles were forbidden (settings.forbid_compiles)."""


@dataclass
class CompileStats:
    kernels_compiled: int = 0  # kernels built by the compiler (a translation unit counts each kernel)
    kernel_disk_hits: int = 0  # kernels found in the on-disk cache and loaded
    kernel_memory_hits: int = 0  # kernels whose library was already loaded in this process
    translation_units: int = 0  # compiler invocations
    kernels_queued: int = 0  # kernels handed to the background compiler (runtime/c/background.py)
    interpreted_runs: int = 0  # C plan runs through the NumPy executor while compiling (c_tiered)
    quick_units: int = 0  # quick (-O0, unindexed) compiles of stand-in kernels (runtime/c/quick.py)
    quick_kernels: int = 0  # kernels those built
    stand_in_runs: int = 0  # C plan runs through quick kernels while -O3 compiles (c_tiered)
    compile_waits: int = 0  # plans built waiting for the compiler (CBackend.compile, cache miss)

    def snapshot(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


stats = CompileStats()
forbid_compiles: bool = False
_lock = threading.Lock()


def reset() -> None:
    """Zero every counter (tests call it before asserting on counts)."""
    with _lock:
        for f in fields(stats):
            setattr(stats, f.name, 0)


def count(name: str, n: int = 1) -> None:
    with _lock:
        setattr(stats, name, getattr(stats, name) + n)


def set_forbid_compiles(flag: bool) -> None:
    global forbid_compiles
    forbid_compiles = bool(flag)
