"""The background compiler: kernels compile in one worker thread while the caller goes on.

`submit(kernels, keys)` queues (symbol, source) pairs and returns one `Future` per kernel, resolved
to its C function. The worker takes everything queued at once and compiles it as one translation
unit (`c_compiler.load_kernels`): a loop that built three plans while the first compile ran pays
one more compiler start, not three. A kernel already queued or compiling is not queued again; its
future is shared. One worker, because this machine class has 2 cores: the caller's Python keeps
one, the compiler takes the other. The worker waits for the compiler with the GIL released, and
runs it at niceness COMPILER_NICENESS: at equal priority on this shared machine (load ~4) the
caller's loop ran 1.5-3x slower while a compile ran (Adam 125-144 -> 90-98 ms, the accumulator
177-233 -> 86-98 ms with niceness 10; benchmarks/bench_loops.py rows, two runs each).

At interpreter exit the queued compiles are finished (`wait_for_compiles`, bounded by
EXIT_WAIT_S), so the next process finds the kernels on disk: a short script run repeatedly
would otherwise never get a compiled kernel. A forked child starts its own worker for what the
parent had queued.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future

from . import compiler as c_compiler
from .priority import lower_priority as _lower_priority

EXIT_WAIT_S = 120.0

_lock = threading.Lock()
_wake = threading.Condition(_lock)
_queue: list[tuple[str, str, str | None]] = []  # (symbol, source, structural key) not started yet
_pending: dict[str, tuple[Future, str, str | None]] = {}  # symbol -> (future, source, key):
# queued or compiling
_worker: list[threading.Thread] = []  # the running worker, if any


def submit(kernels: Sequence[tuple[str, str]], keys: Sequence[str | None],
           header_source: Callable[[list[str]], str]) -> list[Future]:
    """One future per (symbol, source): the kernel's C function once compiled (or loaded)."""
    futures = []
    with _lock:
        for (symbol, source), key in zip(kernels, keys):
            entry = _pending.get(symbol)
            if entry is None:
                entry = _pending[symbol] = (Future(), source, key)
                _queue.append((symbol, source, key))
            futures.append(entry[0])
        _header[0] = header_source
        if not _worker or not _worker[0].is_alive():
            _start_worker()
        _wake.notify()
    return futures


_header: list[Callable[[list[str]], str] | None] = [None]


def _start_worker() -> None:
    worker = threading.Thread(target=_work, name="lazyarray-compiler", daemon=True)
    _worker[:] = [worker]
    worker.start()


def _work() -> None:
    _lower_priority()
    while True:
        with _lock:
            while not _queue:
                _wake.wait()
            batch, _queue[:] = list(_queue), []
            header = _header[0]
        _compile(batch, header)


def _compile(batch: list[tuple[str, str, str | None]], header) -> None:
    """Compile `batch` as one unit; every future gets its function or the error."""
    kernels = [(symbol, source) for symbol, source, _ in batch]
    try:
        functions = c_compiler.load_kernels(kernels, header, [key for _, _, key in batch])
    except BaseException as exc:  # a CompileError reaches the plan that runs next
        outcome = [(None, exc)] * len(batch)
    else:
        outcome = [(fn, None) for fn in functions]
    with _lock:
        futures = [_pending.pop(symbol)[0] for symbol, _, _ in batch]
        _wake.notify_all()
    for future, (fn, exc) in zip(futures, outcome):
        if exc is None:
            future.set_result(fn)
        else:
            future.set_exception(exc)


def queued(symbols: Sequence[str]) -> dict[str, Future]:
    """The futures of those `symbols` queued or compiling now."""
    with _lock:
        return {s: _pending[s][0] for s in symbols if s in _pending}


def compiling() -> int:
    """Kernels queued or being compiled now."""
    with _lock:
        return len(_pending)


def wait_for_compiles(timeout: float | None = None) -> bool:
    """Block until every kernel queued so far is compiled (or failed); False on timeout."""
    with _lock:
        return _wake.wait_for(lambda: not _pending, timeout)


def _finish_at_exit() -> None:
    wait_for_compiles(EXIT_WAIT_S)


def _after_fork_in_child() -> None:
    """The worker thread does not exist in a child: a new one compiles everything pending,
    including what the parent's worker was compiling at the fork."""
    global _lock, _wake
    _lock = threading.Lock()
    _wake = threading.Condition(_lock)
    _worker.clear()
    _queue[:] = [(symbol, source, key) for symbol, (_, source, key) in _pending.items()]
    if _queue:
        _start_worker()


atexit.register(_finish_at_exit)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
