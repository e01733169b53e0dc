"""Settings: a pydantic model; defaults from LAZYARRAY_* environment variables; `la.config(...)`.

Two scopes, as JAX's config:
- `la.config(backend="c")` as a statement changes the **process default**: every thread and task
  that has no `with` block of its own sees it, including threads started later.
- `with la.config(backend="numpy"): ...` changes settings for the current thread or asyncio task
  only (a `contextvars` context) and restores them exactly on exit, whatever the order in which
  blocks of several threads or tasks enter and exit. New asyncio tasks inherit their creator's
  blocks (they copy its context); new threads start from the process default (Python gives a
  thread an empty context;
  `contextvars.copy_context().run(f)` carries the blocks over).

A context's settings are the process default with its active blocks' changes applied in order.
Layers below that mirror a setting (plan cache size, kernel cache dir, threads, node budget, compile
guard) are process-wide: `on_change` listeners re-apply them when config changes and whenever an
evaluation runs under different settings than the last one (`apply_if_changed`).
"""

from __future__ import annotations

import contextvars
import dis
import functools
import os
import sys
import threading
import types
from typing import Any, Callable, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

BackendName = Literal["auto", "numpy", "c", "cupy", "dask"]
FPMode = Literal["ignore", "warn", "raise", "call", "print", "log"]  # np.seterr's modes


class Settings(BaseModel):
    model_config = ConfigDict(validate_assignment=True, extra="forbid")

    backend: BackendName = Field("auto", description="auto: cupy with a GPU, else c, else numpy")
    optimize: bool = Field(True, description="run the graph passes and fusion (off: node by node)")
    max_graph_nodes: int = Field(100, ge=2, description="pending graphs larger are evaluated")
    eager_size: int = Field(4096, ge=0, description="an op of at most this many elements that "
                            "reads values indexed out of computed arrays runs at once (index "
                            "loops; lazyarray/eager.py); 0: always lazy")
    plan_cache_size: int = Field(256, ge=0, description="plans kept in the LRU plan cache")
    plan_cache_bytes: int = Field(256 * 2**20, ge=0, description="bytes the cached plans may keep "
                                  "(their intermediate workspaces); the LRU plans beyond go")
    log_compiles: bool = Field(False, description="log every plan build and kernel compile")
    forbid_compiles: bool = Field(False, description="raise instead of compiling a kernel")
    background_compiles: bool = Field(
        True, description="backend='c': a plan whose kernels are not compiled yet runs through the "
        "NumPy executor while they compile in the background, where the bits are the same")
    cache_dir: str | None = Field(None, description="on-disk kernel cache; default: user cache dir")
    num_threads: int | None = Field(None, ge=1, description="OpenMP threads; default: all cores")
    chunks: Union[int, str, tuple] = Field(
        "auto", description="backend='dask': chunks of NumPy leaves (dask.array's chunks= rule)")
    # Floating-point errors (lazyarray/fp_errors.py; la.errstate / la.seterr set these).
    fp_divide: FPMode = Field("warn", description="division by zero: np.seterr(divide=)")
    fp_over: FPMode = Field("warn", description="overflow: np.seterr(over=)")
    fp_under: FPMode = Field("ignore", description="underflow: np.seterr(under=)")
    fp_invalid: FPMode = Field("warn", description="invalid value: np.seterr(invalid=)")
    fp_call: Any = Field(None, description="the 'call' mode's function or the 'log' mode's "
                         "object with .write (np.seterrcall)")
    debug_nans: bool = Field(False, description="an evaluation that made a NaN/inf from finite "
                             "inputs re-runs its graph op by op and raises FloatingPointError "
                             "naming the op and its line (lazyarray/nan_debug.py)")


def _from_environment() -> Settings:
    values: dict[str, str] = {}
    for name in Settings.model_fields:
        raw = os.environ.get("LAZYARRAY_" + name.upper())
        if raw is not None and raw != "":
            values[name] = raw
    return Settings.model_validate(values)  # pydantic parses "1", "true", "256" from strings


_default: Settings = _from_environment()


def _raises(s: Settings) -> bool:
    return "raise" in (s.fp_divide, s.fp_over, s.fp_under, s.fp_invalid)


# Whether the settings applied last (as eager_size's, _notify) have a floating-point mode
# 'raise': only then does a pending Array's construction check more (lazyarray/array.py and
# _trace.c's make_array call _handled.raises_at_the_line; fuzz46). Exactly True or False (C
# compares the pointer).
RAISE_MODE_ON: list = [_raises(_default)]
# The user's `warnings.catch_warnings` blocks entered and not left (lazyarray/warning_blocks.py):
# while one is, RAISE_MODE_ON is True too, so that a pending Array's construction asks
# _handled.raises_at_the_line whether the block records or turns warnings into errors (fuzz53).
WARNING_BLOCKS: list = [0]
# Whether NumPy's error state the pending ops were built in has a mode 'raise' (np.errstate
# around lazyarray ops: lazyarray/fp_state.py): RAISE_MODE_ON is True then too.
NUMPY_RAISES: list = [False]
# This context's active `with` blocks: (layers, their settings, the default they were derived from).
_Layers = tuple[tuple["config", dict[str, Any]], ...]
_scope: contextvars.ContextVar[tuple[_Layers, Settings, Settings] | None] = contextvars.ContextVar(
    "lazyarray_settings", default=None)
_lock = threading.Lock()  # serializes changes of the process default
_listeners: list[Callable[[Settings], None]] = []  # layers below that mirror a setting (caching)
_applied: list[Settings | None] = [None]  # the settings the listeners last saw


def get_settings() -> Settings:
    """The settings in effect in this thread / asyncio task."""
    scope = _scope.get()
    if scope is None:
        return _default
    if scope[2] is not _default:  # the default changed under this context's blocks
        return _set_layers(scope[0])
    return scope[1]


def _set_layers(layers: _Layers) -> Settings:
    if not layers:
        _scope.set(None)
        return _default
    merged: dict[str, Any] = {}
    for _, changes in layers:
        merged.update(changes)
    default = _default
    settings = default.model_copy(update=merged)  # values were validated when the block was made
    _scope.set((layers, settings, default))
    return settings


def on_change(listener: Callable[[Settings], None]) -> None:
    """Call `listener(settings)` now and whenever the settings in effect change."""
    _listeners.append(listener)
    listener(get_settings())


def apply_if_changed() -> Settings:
    """The settings in effect, after re-applying the listeners if they last saw other settings
    (another thread's or task's block): one identity check on the evaluation path."""
    s = get_settings()
    if _applied[0] is not s:
        _notify(s)
    return s


def warning_blocks_changed(by: int) -> None:
    """A user's `warnings.catch_warnings` block entered (1) or left (-1): RAISE_MODE_ON again."""
    WARNING_BLOCKS[0] = max(WARNING_BLOCKS[0] + by, 0)
    RAISE_MODE_ON[0] = _raises(get_settings()) or WARNING_BLOCKS[0] > 0 or NUMPY_RAISES[0]


def numpy_raises(raises: bool) -> None:
    """NumPy's error state the pending ops are built in has a mode 'raise' (True) or not."""
    if raises is not NUMPY_RAISES[0]:
        NUMPY_RAISES[0] = raises
        RAISE_MODE_ON[0] = _raises(get_settings()) or WARNING_BLOCKS[0] > 0 or raises


def _notify(s: Settings) -> None:
    _applied[0] = s
    RAISE_MODE_ON[0] = _raises(s) or WARNING_BLOCKS[0] > 0 or NUMPY_RAISES[0]
    for listener in _listeners:
        listener(s)


@functools.lru_cache(maxsize=4096)
def _opens_with(code: types.CodeType, lasti: int) -> bool:
    """Whether the call at `lasti` is a `with` statement's context expression (the next instruction
    enters it). Then `la.config(...)` never touches the process default, so other threads cannot
    glimpse the change between the call and `__enter__`. Unknown bytecode answers False: the
    statement path, which `__enter__` undoes."""
    for ins in dis.get_instructions(code):
        if ins.offset > lasti:
            return ins.opname in ("BEFORE_WITH", "SETUP_WITH", "BEFORE_ASYNC_WITH",
                                  "SETUP_ASYNC_WITH")
    return False


def _validated(changes: dict[str, object]) -> dict[str, object]:
    """The changes as the Settings model stores them (pydantic validates each assignment)."""
    for name in changes:
        if name not in Settings.model_fields:
            raise TypeError(f"unknown setting {name!r}; known: {sorted(Settings.model_fields)}")
    checked = _default.model_copy()
    for name, value in changes.items():
        setattr(checked, name, value)  # validates
    return {name: getattr(checked, name) for name in changes}


class config:  # noqa: N801  (a function-like context manager, as users call it)
    """Change settings: `la.config(backend="c")` (the process default), or
    `with la.config(backend="numpy"): ...` (this thread or task, until the block exits)."""

    def __init__(self, **changes: object) -> None:
        global _default
        self._changes = _validated(changes)
        self._layered = False
        frame = sys._getframe(1)
        self._block = _opens_with(frame.f_code, frame.f_lasti)
        if self._block:  # `with la.config(...)`: nothing changes until __enter__
            return
        with _lock:  # a statement, or a `with` this Python's bytecode hides: the default changes
            self._before = _default
            self._after = _default = _default.model_copy(update=self._changes)
        scope = _scope.get()
        if scope is not None:  # inside blocks: this change must also win over them, here
            self._push(scope[0])
        _notify(get_settings())

    @classmethod
    def block(cls, **changes: object) -> "config":
        """A `with` block's config made by library code (la.errstate), where the caller's
        bytecode says nothing: nothing changes until `__enter__`."""
        self = cls.__new__(cls)
        self._changes = _validated(changes)
        self._layered = False
        self._block = True
        return self

    def _push(self, layers: _Layers) -> None:
        self._layered = True
        _set_layers(layers + ((self, self._changes),))

    def __enter__(self) -> Settings:
        """A block, not a default change: undo the default change, keep it in this context."""
        if not self._block:
            self._undo_default()
        if not self._layered:
            scope = _scope.get()
            self._push(scope[0] if scope is not None else ())
        s = get_settings()
        _notify(s)
        return s

    def _undo_default(self) -> None:
        global _default
        with _lock:
            if _default is self._after:
                _default = self._before
            else:  # the default changed since: undo only what is still this config's value
                undo = {name: getattr(self._before, name) for name, value in self._changes.items()
                        if getattr(_default, name) == value}
                _default = _default.model_copy(update=undo)

    def __exit__(self, *exc: object) -> None:
        scope = _scope.get()
        layers = scope[0] if scope is not None else ()
        _set_layers(tuple(layer for layer in layers if layer[0] is not self))
        _notify(get_settings())

