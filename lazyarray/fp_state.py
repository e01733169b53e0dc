"""NumPy's error state as lazyarray's floating-point modes: `np.errstate` around lazyarray ops.

Code that does `import numpy as np` sets its modes with `np.errstate` / `np.seterr` (SciPy's
generic Array-API code: `with np.errstate(divide='ignore', invalid='ignore'): temp = x *
xp.log(y)`). NumPy's ufuncs read that state where they compute, at their line; lazyarray's ops
compute later. So the state is read where each op is built: graph/node.py watches NumPy's
context variable (one read and an identity compare per node), and where a node is built under
another state than the pending ops were, those are computed first, under the state they were
built in (`_on_change`), as la.errstate's entry does. An evaluation reports under the state its
ops were built in (`BUILT_UNDER`), wherever it is read; an op computed at its line without a
node (la.jit's call, an at-once product) under the state now.

The mode of a category: NumPy's where it is not NumPy's default (warn; ignore for underflow),
else lazyarray's (`la.config(fp_...)`, LAZYARRAY_FP_*). la.errstate and la.seterr set both.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from .graph.node import user_site, watch, watch_seen
from .runtime import fp_status
from .settings import Settings, get_settings, numpy_raises

CATEGORIES = ("divide", "over", "under", "invalid")  # NumPy's bits 1, 2, 4, 8 in this order
_NUMPY_DEFAULTS = ("warn", "warn", "ignore", "warn")
_VAR = fp_status._extobj_contextvar  # NumPy 2's error state (None: another NumPy)

# The NumPy error state every pending op was built in (kept so by `_on_change`).
BUILT_UNDER: list = [None if _VAR is None else _VAR.get()]
# lazyarray.evaluation's, set at its import: settle(inputs, op) computes every pending Array and
# the pending inputs, returning the inputs substituted; busy() says an evaluation or a la.jit
# trace builds the nodes now (they belong to it, not to the user's line)
SETTLE: list = [None]
BUSY: list = [lambda: False]
# While la.jit traces (`recording_sites`): {user line: NumPy state} of the ops its body builds
# under another state than the trace's own (an np.errstate block in the body, SciPy's xlogy)
_SITES: list = [None]
_DECODED: dict[int, tuple[Any, tuple[str, ...], Any]] = {}  # id(state) -> (state, modes, call)


class _Silent(threading.local):
    depth = 0  # `silenced` blocks open on this thread


_SILENT = _Silent()
_IGNORE = (("ignore",) * 4, (None,) * 4)


def decode(state: Any) -> tuple[tuple[str, ...], Any]:
    """NumPy's modes (divide, over, under, invalid) and call of an error-state value."""
    hit = _DECODED.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1], hit[2]
    token = _VAR.set(state)
    try:
        err, call = np.geterr(), np.geterrcall()
    finally:
        _VAR.reset(token)
    modes = tuple(err[c] for c in CATEGORIES)
    if len(_DECODED) >= 64:
        _DECODED.clear()
    _DECODED[id(state)] = (state, modes, call)
    return modes, call


def modes(s: Settings, state: Any = None) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """The modes in effect and each one's 'call'/'log' target, under NumPy's error state
    `state` (default: the one the pending ops were built in) and lazyarray's settings `s`."""
    if _SILENT.depth:
        return _IGNORE
    if _VAR is None:
        own = (s.fp_divide, s.fp_over, s.fp_under, s.fp_invalid)
        return own, (s.fp_call,) * 4
    numpy_modes, numpy_call = decode(BUILT_UNDER[0] if state is None else state)
    if numpy_modes == _NUMPY_DEFAULTS:
        own = (s.fp_divide, s.fp_over, s.fp_under, s.fp_invalid)
        call = s.fp_call if s.fp_call is not None else numpy_call
        return own, (call,) * 4
    out, calls = [], []
    for k, name in enumerate(CATEGORIES):
        if numpy_modes[k] != _NUMPY_DEFAULTS[k]:
            out.append(numpy_modes[k])
            calls.append(numpy_call if numpy_call is not None else s.fp_call)
        else:
            out.append(getattr(s, "fp_" + name))
            calls.append(s.fp_call if s.fp_call is not None else numpy_call)
    return tuple(out), tuple(calls)


def modes_now(s: Settings | None = None) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """The modes an op computed now, at its line, reports under."""
    return modes(get_settings() if s is None else s, None if _VAR is None else _VAR.get())


def now() -> Any:
    """NumPy's error state now (for `modes`)."""
    return None if _VAR is None else _VAR.get()


@contextlib.contextmanager
def silenced() -> Iterator[None]:
    """Every mode 'ignore' on this thread (a value computed again for its result only, after its
    error was raised: lazyarray/_handled.py), whatever NumPy's state says."""
    _SILENT.depth += 1
    try:
        yield
    finally:
        _SILENT.depth -= 1


def _reported(s: Settings, state: Any) -> tuple:
    """What decides a report: the modes, and the target of those that call one."""
    out, calls = modes(s, state)
    return out, tuple(c if m in ("call", "log") else None for m, c in zip(out, calls))


def _lazyarrays_own(state: Any) -> bool:
    """A state lazyarray's own NumPy runs set (runtime/fp_status.py): its flags' 'call' target
    or the report's collector; nodes built under it are the run's."""
    if fp_status.is_collecting():
        return True
    call = decode(state)[1]
    return call is fp_status.note or isinstance(call, fp_status._Collector)


def _on_change(inputs: tuple, op: Any) -> tuple:
    """graph/node.py's watch hook: a node is about to be built under another NumPy error state
    than the pending ops were. Where that changes a mode, they are computed first, under the
    modes they were built in (their warnings naming their lines), so no evaluation mixes ops
    built under different modes; returns the node's inputs (computed ones as leaves)."""
    new, old = _VAR.get(), BUILT_UNDER[0]
    if new is old:
        return inputs
    own = _lazyarrays_own(new)
    if own or BUSY[0]():
        if _SITES[0] is not None and not own:
            _SITES[0][user_site(1)] = new  # (a traced op: its report follows this state)
        watch_seen(old)  # (the next node asks again)
        return inputs
    s = get_settings()
    if _reported(s, old) != _reported(s, new) and SETTLE[0] is not None:
        try:
            inputs = SETTLE[0](inputs, op)
        finally:
            _built_under(new)
    else:
        _built_under(new)
    return inputs


@contextlib.contextmanager
def recording_sites() -> Iterator[dict]:
    """la.jit's trace: the lines of its body that built ops under another NumPy state than
    the trace's (an `np.errstate` block inside the function), with that state. A call reports
    those ops under it and the others under the state at the call, as NumPy's calls would."""
    check()  # (the trace starts under the state now)
    was, _SITES[0] = _SITES[0], {}
    try:
        yield _SITES[0]
    finally:
        _SITES[0] = was


def _built_under(state: Any) -> None:
    """Every op built from now on is built under `state`: the watch compares with it (the
    value the watch last saw is always this one outside the hook, so a state that comes back
    to it after a `check` unseen by any node still calls the hook)."""
    BUILT_UNDER[0] = state
    watch_seen(state)
    numpy_raises("raise" in decode(state)[0])


def check() -> None:
    """What a node's construction does where NumPy's state changed, without a node: la.errstate's
    entry and exit and la.seterr, after setting it (the ops built from then on are built under
    it)."""
    if _VAR is not None and _VAR.get() is not BUILT_UNDER[0]:
        _on_change((), None)


def adopt() -> None:
    """The pending ops count as built under NumPy's state now, without computing them (a
    la.errstate block left by an exception leaves its pending ops pending, as before)."""
    if _VAR is not None and not BUSY[0]():
        _built_under(_VAR.get())


if _VAR is not None:
    # NumPy's state stored in this context as the value it has (its default): a variable found
    # in the context is cached by CPython, one never set is looked up on every read (~20 ns of
    # each node built). Nothing NumPy reads changes.
    _VAR.set(_VAR.get())
    watch(_VAR, _on_change)
