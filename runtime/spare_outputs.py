"""Large results of earlier runs, kept for the next run of the same plan once nobody holds them.

A fresh 64 MiB NumPy result is a fresh mmap: the kernel's first writes fault its pages in and the
OS zeroes them first, which costs as much as the kernel itself (sigmoid on 2^24 float32 here: 7.2
ms with a fresh result against 4.4 ms writing into a reused one; docs/c_backend.md). A plan's
workspace therefore hands each large output it returned to this pool after the run; the next run
of that workspace takes it back if the pool's reference is the only one left (the user dropped
the result and every view of it), else allocates anew. Reusing a buffer nobody references is what
`free` + `malloc` would do, minus the page faults.

The pool is bounded (`max_bytes`, least recently given first out) so a process that ran many
large plans does not keep all their results; a workspace that dies (its plan was evicted) takes
its entries with it.
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections import OrderedDict

import numpy as np

MIN_BYTES = 2**18  # smaller results come from malloc's free lists without page faults
max_bytes = 256 * 2**20

_lock = threading.Lock()
_pool: OrderedDict[tuple[int, int], np.ndarray] = OrderedDict()  # (owner id, slot) -> buffer
_nbytes = 0
_refcount = sys.getrefcount
_held: dict[int, int] = {}  # id(buffer) -> entries holding it (lazyarray/donation.py asks)


def holds(buf: np.ndarray) -> int:
    """How many references the pool holds to `buf` (0 or 1): a result the pool keeps for its
    plan's next run may still be donated (the pool takes only what nobody else references)."""
    return _held.get(id(buf), 0)


def held_table() -> dict[int, int]:
    """`holds`'s table itself (id(buffer) -> references), mutated in place: lazyarray/_trace.c
    reads it where a buffer's reference count decides whether a write may go in place."""
    return _held


def _hold(buf: np.ndarray, n: int) -> None:
    k = id(buf)
    count = _held.get(k, 0) + n
    if count:
        _held[k] = count
    else:
        _held.pop(k, None)


def take(owner: int, slot: int) -> np.ndarray | None:
    """The buffer `owner` gave for `slot` last time, if nothing else references it now."""
    global _nbytes
    with _lock:
        buf = _pool.pop((owner, slot), None)
        if buf is None:
            return None
        _nbytes -= buf.nbytes
        _hold(buf, -1)
    # 2: `buf` and getrefcount's argument. A result, a view of it or a memoryview holds more.
    return buf if _refcount(buf) == 2 else None


def give(owner: int, slot: int, buf: np.ndarray) -> None:
    global _nbytes
    with _lock:
        old = _pool.pop((owner, slot), None)
        if old is not None:
            _nbytes -= old.nbytes
            _hold(old, -1)
        _pool[owner, slot] = buf
        _nbytes += buf.nbytes
        _hold(buf, 1)
        while _nbytes > max_bytes and _pool:
            _, gone = _pool.popitem(last=False)
            _nbytes -= gone.nbytes
            _hold(gone, -1)


def forget(owner: int) -> None:
    """Drop every buffer `owner` gave (it is being freed)."""
    global _nbytes
    with _lock:
        for key in [k for k in _pool if k[0] == owner]:
            gone = _pool.pop(key)
            _nbytes -= gone.nbytes
            _hold(gone, -1)


def register(owner: object) -> int:
    """The key of `owner` in the pool; its entries go when it is collected."""
    weakref.finalize(owner, forget, id(owner))
    return id(owner)


def clear() -> None:
    global _nbytes
    with _lock:
        _pool.clear()
        _held.clear()
        _nbytes = 0
