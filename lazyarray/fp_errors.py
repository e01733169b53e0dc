"""Floating-point errors as NumPy reports them: `la.errstate`, `la.seterr`, `la.geterr`,
`la.seterrcall`, `la.geterrcall`, and the report an evaluation makes.

An evaluation reads its kernels' floating-point exception flags once (runtime/fp_status.py: a
clear before the plan runs and a test after, in C on the hit path). Nothing fired, nothing more
happens: that is the cost of the feature on every evaluation. When a flag fired whose mode is not
'ignore', the graph is re-run node by node through the ops' NumPy references under NumPy's 'log'
mode, which names the ufunc that raised each error: the report is then NumPy's own text
("divide by zero encountered in log") for NumPy's own cases, handled as the mode says: a
RuntimeWarning at the user's line that triggered the evaluation, FloatingPointError, the 'call'
function, 'print' or the 'log' object. A flag NumPy's re-run does not confirm (a fused kernel's
branch-free select computing a lane it then discards, a comparison with NaN) reports nothing: the
re-run is NumPy's semantics. Only evaluations that fired pay for the re-run.

The settings are fields of `la.config` (fp_divide, fp_over, fp_under, fp_invalid, fp_call):
`la.errstate(...)` is a `with la.config(...)` block (this thread or task), `la.seterr(...)` a
statement (the process default, as `la.config(...)`), so LAZYARRAY_FP_DIVIDE=raise works too.
Both set NumPy's error state as well, whose modes `np.errstate`/`np.seterr` set around lazyarray
ops: lazyarray/fp_state.py combines the two and keeps each op's report under the state it was
built in.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .graph import Graph
from .graph.signature import graph_signature
from .graph.node import _IS_LIBRARY, _is_library_file, built_count
from . import fp_state
from .runtime import fp_status
from .runtime.evaluate import ReferencePlan, split_leaves
from .settings import config, get_settings

CATEGORIES = fp_state.CATEGORIES  # NumPy's bits 1, 2, 4, 8 in this order
_TYPES = ("divide by zero", "overflow", "underflow", "invalid value")  # its message prefixes
_MODES = ("ignore", "warn", "raise", "call", "print", "log")
# evaluation.evaluate_pending, set by lazyarray.evaluation (which imports this module): where the
# modes change, pending Arrays are computed first under the modes their ops were built in
EVALUATE_PENDING: list = [None]


class _Exit(threading.local):
    depth = 0  # errstate exits running on this thread


_AT_EXIT = _Exit()


def _modes_change(changes: dict[str, Any]) -> bool:
    """Whether `changes` change a mode the pending ops were built in (or its call target)."""
    modes, calls = fp_state.modes(get_settings())
    for k, name in enumerate(CATEGORIES):
        mode = changes.get("fp_" + name)
        if mode is not None and mode != modes[k]:
            return True
    call = changes.get("fp_call", _UNSET)
    return call is not _UNSET and any(
        m in ("call", "log") and c is not call for m, c in zip(modes, calls))


def _settle_before(changes: dict[str, Any]) -> None:
    """Where `changes` change a mode, compute the pending Arrays first, under the modes they
    were built in (their warnings naming the lines that built them). Stricter modes: `y = x / 0`
    built under 'warn' must not raise in a later 'raise' block. Laxer ones too (fuzz54): `p =
    A / 0` then `with np.errstate(divide='ignore'): w = A + 1` computed p with its sibling w at
    the block's exit, silently, and a read of p inside such a block was silent; NumPy warned at
    p's line. So every pending Array was built under the modes in effect (a block's exit
    computes the block's own), and no evaluation mixes ops built under different modes."""
    if _modes_change(changes):
        with at_block_exit():
            _evaluate_pending()


def _evaluate_pending(since: int = 0) -> None:
    """NumPy computes each op at its line, under the modes in effect there: `with
    np.errstate(divide='ignore'): r = np.where(b != 0, a / b, 0)` never warns. A pending op
    evaluated after the block warned (raised, under a global 'raise'), so where the modes change
    the pending Arrays are computed first, under the modes they were built in: those built since
    node order `since` (a block's own, at its exit), or all (before the modes tighten)."""
    if EVALUATE_PENDING[0] is not None:
        EVALUATE_PENDING[0](since)


def geterr() -> dict[str, str]:
    """numpy.geterr: the floating-point error modes in effect (an op built now reports under
    them): NumPy's error state's where not NumPy's default, else lazyarray's (fp_state.py)."""
    return dict(zip(CATEGORIES, fp_state.modes_now()[0]))


def _changes(all: str | None, modes: dict[str, str | None]) -> dict[str, str]:
    out = {}
    for name in CATEGORIES:
        mode = modes.get(name) or all
        if mode is not None:
            if mode not in _MODES:
                raise ValueError(f"invalid floating-point error mode {mode!r}; one of {_MODES}")
            out["fp_" + name] = mode
    return out


def seterr(all: str | None = None, divide: str | None = None, over: str | None = None,
           under: str | None = None, invalid: str | None = None) -> dict[str, str]:
    """numpy.seterr: set the modes (the process default, as `la.config(...)`); returns the old."""
    old = geterr()
    changes = _changes(all, {"divide": divide, "over": over, "under": under, "invalid": invalid})
    if changes:
        _settle_before(changes)  # what was built under other modes is computed under them
        config(**changes)
        np.seterr(**_numpy_modes(changes))  # NumPy's own scalars (`np.int64(2**62) * 4`)
        fp_state.check()  # (the ops built from now on are built under NumPy's new state)
    return old


def geterrcall() -> Any:
    """numpy.geterrcall: the 'call' mode's function (or the 'log' mode's object)."""
    call = get_settings().fp_call
    return np.geterrcall() if call is None else call


def _check_call(func: Any) -> None:
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise ValueError("the error callback must be callable or have a callable .write")


def seterrcall(func: Any) -> Any:
    """numpy.seterrcall: the 'call' function / 'log' object (process default); returns the old."""
    _check_call(func)
    old = geterrcall()
    config(fp_call=func)
    np.seterrcall(func)
    return old


_UNSET = object()


def _numpy_modes(changes: dict[str, Any]) -> dict[str, Any]:
    """`changes` (config fields) as np.errstate/np.seterr keywords. `la.int64` & co. are NumPy's
    scalar types, so `np.int64(2**62) * 4` or `x.sum() / 0` (a NumPy scalar) is NumPy's own
    arithmetic: the modes reach it only through NumPy's error state, set alongside lazyarray's.
    lazyarray's own NumPy runs set theirs (runtime/fp_status.py), so this changes none of them."""
    return {("call" if k == "fp_call" else k[3:]): v for k, v in changes.items()}


class errstate(contextlib.ContextDecorator):  # noqa: N801  (as np.errstate)
    """numpy.errstate: `with la.errstate(divide='ignore'): ...` or `@la.errstate(all='raise')`:
    the modes (and `call=`) for this thread or task until the block exits."""

    def __init__(self, *, call: Any = _UNSET, all: str | None = None, divide: str | None = None,
                 over: str | None = None, under: str | None = None,
                 invalid: str | None = None) -> None:
        self._changes: dict[str, Any] = _changes(
            all, {"divide": divide, "over": over, "under": under, "invalid": invalid})
        if call is not _UNSET:
            _check_call(call)
            self._changes["fp_call"] = call
        self._blocks: list[tuple[config, Any, int]] = []  # (block, NumPy's, node order or -1)

    def _recreate_cm(self) -> "errstate":
        """As a decorator: a fresh block per call (calls from several threads, recursion)."""
        fresh = object.__new__(errstate)
        fresh._changes, fresh._blocks = self._changes, []
        return fresh

    def __enter__(self) -> "errstate":
        changes = _modes_change(self._changes)
        if changes:  # built before, computed under the modes before
            _settle_before(self._changes)
        block = config.block(**self._changes)
        block.__enter__()
        numpy_block = np.errstate(**_numpy_modes(self._changes))
        numpy_block.__enter__()
        self._blocks.append((block, numpy_block, built_count() if changes else -1))
        fp_state.check()  # (NumPy's modes it leaves as they were may differ from the ops')
        return self

    def __exit__(self, *exc: object) -> None:
        block, numpy_block, since = self._blocks.pop()
        try:
            if since >= 0 and exc[0] is None:  # (an exception leaves them pending, as they were)
                with at_block_exit():  # (their warnings name the lines that built them)
                    _evaluate_pending(since)  # the block's own ops under the block's modes
        finally:
            try:
                block.__exit__(*exc)
            finally:
                numpy_block.__exit__(*exc)
            if exc[0] is None:
                fp_state.check()  # (what is pending was built under the block's state)
            else:
                fp_state.adopt()


@contextlib.contextmanager
def at_block_exit() -> Any:
    """A block's exit computing the block's ops (errstate's, warnings.catch_warnings'): their
    warnings name the lines that built them, as NumPy's did, not the `with` line."""
    _AT_EXIT.depth += 1
    try:
        yield
    finally:
        _AT_EXIT.depth -= 1


_INVALID = 3
# Plans whose `invalid` flag a re-run did not confirm while their inputs held NaN (keys: graph
# signature, or la.jit's trace). The C kernels' comparisons raise `invalid` on a NaN operand
# (gcc emits signaling compares), where NumPy's comparisons do not: a loop over NaN-holding data
# re-ran every evaluation through NumPy (`maximum(x, 0)` 0.29 -> 9 ms on 2^20 with 10% NaN). Such
# an evaluation of a remembered plan skips the re-run; one whose inputs hold no NaN re-runs.
_UNCONFIRMED: set[Any] = set()
_MAX_UNCONFIRMED = 1024


def fired(outputs: Any, bits: int, rerun: Callable[[], Any] | None = None,
          key: Any = None, inputs: Sequence[Any] | None = None, at_the_line: bool = False,
          sites: dict | None = None) -> None:
    """An evaluation of `outputs` (nodes, or one node) raised the floating-point flags `bits`:
    report them as the settings say (graph/_node.c's hit path, cache.run_cached and la.jit call
    this). `rerun`: runs the graph through the references instead (la.jit keeps a data-free
    copy of its traced graph, re-run on the call's values), `key` names its plan and `inputs`
    are its input arrays. The modes: those the ops were built under (lazyarray/fp_state.py);
    `at_the_line`, an op computed at its line without a node (la.jit's call, eager's products
    and scatters): NumPy's error state now; `sites`, {line: state} of the ops a la.jit body
    built inside an np.errstate block (fp_state.recording_sites): that state."""
    s = get_settings()
    modes, calls = fp_state.modes(s, fp_state.now() if at_the_line else None)
    by_site = {site: fp_state.modes(s, state) for site, state in (sites or {}).items()}
    active = {k for k in range(4) if bits >> k & 1 and (modes[k] != "ignore" or any(
        m[k] != "ignore" for m, _ in by_site.values()))}
    if not active:
        return
    scalars: Sequence[Any] = ()
    if rerun is None:
        nodes = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
        graph = Graph(nodes)
        rerun = functools.partial(_rerun, graph)
        inputs, scalars = split_leaves(graph)
    nan_inputs = active == {_INVALID} and _hold_nan(inputs or ())
    if nan_inputs:
        if key is None:
            key = graph_signature(nodes)[0]
        key = (key, _fixed_values(inputs or (), scalars))
        if (key, bits) in _UNCONFIRMED:
            return
    reported = False
    found = numpy_messages(rerun)
    kinds = [next((k for k, t in enumerate(_TYPES) if text.startswith(t)), None)
             for text, _site, _op in found]
    flags: dict[int, int] = {}  # each op's flags: NumPy's 'call' passes them all (divide and
    for (_text, _site, op), k in zip(found, kinds):  # invalid of `0 / 0` and `1 / 0`: 9)
        flags[op] = flags.get(op, 0) | (0 if k is None else 1 << k)
    for (text, site, op), k in zip(found, kinds):
        mode, call = modes, calls
        if site in by_site:
            mode, call = by_site[site]
        if k in active and mode[k] != "ignore":
            reported = True
            _dispatch(mode[k], k, text, call[k], site if _AT_EXIT.depth else None, flags[op])
    if nan_inputs and not reported:
        if len(_UNCONFIRMED) >= _MAX_UNCONFIRMED:
            _UNCONFIRMED.clear()
        _UNCONFIRMED.add((key, bits))


def _fixed_values(arrays: Sequence[Any], scalars: Sequence[Any]) -> tuple:
    """The plan's scalar arguments and one-element inputs, as bytes: part of an unconfirmed
    plan's key, since they decide its flags (`x % d` of a NaN-holding x: d = NaN flags nothing
    in NumPy, d = 0.0 'invalid value'; the second was skipped as the first's plan, fuzz48)."""
    out = []
    for a in (*arrays, *scalars):
        if isinstance(a, (np.ndarray, np.generic)) and a.size <= 1:
            out.append((a.dtype.str, a.tobytes()))
        elif isinstance(a, (bool, int, float, complex)):
            out.append((type(a).__name__, np.asarray(a).tobytes()))
    return tuple(out)


def _hold_nan(arrays: Sequence[Any]) -> bool:
    """Whether a float or complex input holds a NaN (min propagates it: no temporary array)."""
    with np.errstate(all="ignore"):
        for a in arrays:
            if isinstance(a, np.ndarray) and a.dtype.kind in "fc" and a.size:
                m = a.min() if a.dtype.kind == "f" else a.real.min() + a.imag.min()
                if m != m:
                    return True
    return False


def _rerun(graph: Graph) -> Any:
    return ReferencePlan(graph).run(*split_leaves(graph))


def numpy_messages(rerun: Callable[[], Any]) -> list[tuple[str, tuple[str, int] | None, int]]:
    """NumPy's error messages, in op order, each with the user line that built its op and the
    op's number, for a node-by-node run through the references (the error path only). Data the
    interpreter cannot read (device buffers): none."""
    with fp_status.collecting() as found:
        try:
            rerun()
        except Exception:
            pass
    return list(zip(found.messages, found.sites, found.ops))


def _dispatch(mode: str, k: int, text: str, call: Any, site: tuple[str, int] | None,
              flags: int) -> None:
    if mode == "warn":
        if site is None or not _warn_at(text, site):
            warnings.warn(text, RuntimeWarning, stacklevel=user_stacklevel())
    elif mode == "raise":
        raise FloatingPointError(text)
    elif mode == "print":
        print("Warning: " + text, file=sys.stderr)  # where NumPy prints it
    elif mode == "call":
        if call is None or not callable(call):
            raise ValueError(f"floating-point error mode 'call' ({text}) has no function: "
                             "la.seterrcall(f) or la.errstate(call=f)")
        call(_TYPES[k], flags)  # (NumPy's: every flag its ufunc call raised)
    elif mode == "log":
        write = getattr(call, "write", None)
        if write is None:
            raise ValueError(f"floating-point error mode 'log' ({text}) has no object with "
                             ".write: la.seterrcall(obj) or la.errstate(call=obj)")
        write(f"Warning: {text}\n")


def _warn_at(text: str, site: tuple[str, int]) -> bool:
    """At an errstate block's exit, which computes the block's ops: warn at the line that built
    the op, as warnings.warn from the user's frame would there (NumPy warned at that line, not
    at the `with` line the exit runs at), where that frame's file holds the line."""
    frame = sys._getframe(3)  # _dispatch's caller's caller
    while frame is not None and (_IS_LIBRARY.get(frame.f_code.co_filename)
                                 or _is_library_file(frame.f_code.co_filename)):
        frame = frame.f_back
    if frame is None or frame.f_code.co_filename != site[0]:
        return False
    g = frame.f_globals
    name = g.get("__name__", "<string>")
    # (the module's globals find its source line through its loader, which answers only to its
    # own name: a module run by `python -m pkg.mod` is `__main__` with pkg.mod's loader, whose
    # get_source('__main__') raised ImportError out of every warning here; fuzz57)
    source = g if getattr(g.get("__loader__"), "name", name) == name else None
    warnings.warn_explicit(text, RuntimeWarning, site[0], site[1], name,
                           g.setdefault("__warningregistry__", {}), source)
    return True


def user_stacklevel() -> int:
    """warnings.warn's stacklevel for the innermost frame outside lazyarray (the user's line
    that triggered the evaluation), counted from warn's caller."""
    frame = sys._getframe(2)  # _dispatch's caller's caller: warn's caller is _dispatch (level 1)
    level = 2
    while frame is not None:
        filename = frame.f_code.co_filename
        lib = _IS_LIBRARY.get(filename)
        if lib is None:
            lib = _is_library_file(filename)
        if not lib:
            return level
        frame = frame.f_back
        level += 1
    return 1


# Whether each of the user's `warnings.catch_warnings` blocks now entered records (innermost
# last; lazyarray/warning_blocks.py keeps it): an op built in one is computed at its line
# (`_handled.raises_at_the_line`), so the block's list holds its warnings when the block's own
# lines read it (the stdlib's documented idiom: `with catch_warnings(
# record=True) as w: ...; assert len(w) == 1` inside the block; fuzz53).
RECORDING: list[bool] = []


def at_the_line() -> bool:
    """Whether a pending op built now computes at its line for the innermost user block: it
    records, or the filters turn RuntimeWarning into an error (`simplefilter("error")`: NumPy's
    RuntimeWarning reaches a handler around the op's line, the caller checks the try)."""
    if not RECORDING:
        return False
    return RECORDING[-1] or turns_into_errors()


def turns_into_errors() -> bool:
    """Whether the first warning filter that may match a RuntimeWarning is 'error'."""
    for action, _message, category, _module, _lineno in warnings.filters:
        if issubclass(RuntimeWarning, category):
            return action == "error"
    return False
