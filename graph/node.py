"""The IR node: an immutable operation on input nodes, with its shape and dtype known at creation.

Building nodes is the library's hot path (every user-level op makes one), so a Node is a plain
`__slots__` object and its structural key, a hash of (op, attrs, dtype, shape, input keys) in which a
leaf counts only by its shape and dtype, is computed once here. Which leaves are the same object is
not part of the key; graph signatures add that (see `graph.signature`).

The key is *interned*: equal structures get the same small integer and different structures never do
(ids are never reused, even when the table is cleared), so equal keys mean equal structure with no
collision to verify. Each node also carries `pending`, an over-estimate of the nodes its unevaluated
graph holds, checked against a budget so that loops like `acc = acc + x` stay bounded (see
`set_node_budget`). Summing the inputs' counts counts a shared sub-graph once per use, which grows
exponentially when a value is used twice per step (`v / norm(v)`: x4 per step, so a 500-node budget
was "crossed" after ~40 real nodes); so the count is also capped by the nodes built since the last
cut (`start_segment`), an O(1) bound on everything a cut can find pending. Before a node with inputs
is built, a watched context variable (`watch`: NumPy's error state, lazyarray/fp_state.py) is
compared with the value the last build saw; a hook runs only where it changed.

The constructor and `user_site` have a compiled twin, graph/_node.c (`lazyarray.graph._node`, built
by `pip install` when a C compiler is there): `Node` then subclasses its `NodeBase`, and both share
this module's tables (`_KEYS`, `_BUDGET`, `_SEGMENT_START`, `_IS_LIBRARY`), so keys, budgets and
sites are the same whichever path built a node. `LAZYARRAY_PURE_PYTHON=1` (read at import) keeps
the Python path; `COMPILED` says which one runs (docs/caching.md, "Tracing").
"""

from __future__ import annotations

import contextvars
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import count
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .registry import OpDef


def _load_compiled() -> Any:
    """graph/_node.c's module, or None: not built (no compiler at install) or not wanted."""
    if os.environ.get("LAZYARRAY_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        from . import _node  # the optional C extension: absent where no compiler built it
    except ImportError:
        return None
    return _node


_compiled = _load_compiled()
COMPILED: bool = _compiled is not None  # the compiled constructor and user_site are in use

# Frames from these directories are library frames; the first other frame is the user's line.
_LIBRARY_DIRS: tuple[str, ...] = ()


_IS_LIBRARY: dict[str, bool] = {}  # filename -> is a library file: one dict hit per frame


def _forget_library_files() -> None:
    _IS_LIBRARY.clear()
    if _compiled is not None:
        _compiled.forget_sites()  # its per-instruction cache of sites and library frames


def register_library_dir(path: str) -> None:
    global _LIBRARY_DIRS
    path = os.path.dirname(os.path.abspath(path)) + os.sep
    if path not in _LIBRARY_DIRS:
        _LIBRARY_DIRS = _LIBRARY_DIRS + (path,)
        _forget_library_files()


register_library_dir(__file__)


# Files inside those directories that are user code all the same (the `python -m lazyarray` demo).
_USER_FILES: frozenset[str] = frozenset()


def register_user_file(path: str) -> None:
    global _USER_FILES
    _USER_FILES = _USER_FILES | {os.path.abspath(path)}
    _forget_library_files()


def _is_library_file(filename: str) -> bool:
    """Once per file name. Normalized first: `.../lazyarray/../tests/x.py` is not inside the
    package, though its text starts with the package's directory ("<stdin>" stays as it is)."""
    path = filename if filename.startswith("<") else os.path.normpath(filename)
    lib = path.startswith(_LIBRARY_DIRS) and filename not in _USER_FILES
    _IS_LIBRARY[filename] = lib
    return lib


def user_site(depth: int = 1) -> tuple[str, int] | None:
    """(filename, line) of the innermost frame outside lazyarray: where the user built the op.
    Runs once per traced op, so library-ness is remembered per file name."""
    frame = sys._getframe(depth)
    known = _IS_LIBRARY.get
    while frame is not None:
        filename = frame.f_code.co_filename
        lib = known(filename)
        if lib is None:
            lib = _is_library_file(filename)
        if not lib:
            return filename, frame.f_lineno
        frame = frame.f_back
    return None


def format_site(site: tuple[str, int] | None) -> str:
    return f"{site[0]}:{site[1]}" if site else "<unknown>"


# --- structural keys and the pending-graph budget (the caching issue) --------------------------------
_KEYS: dict[tuple, int] = {}  # exact structure -> key
_NEXT_KEY = count(1).__next__
_MAX_KEYS = 500_000  # cleared past this: later equal structures get new keys (a miss, never a false hit)
_BUDGET: list = [10_000, None]  # [max pending nodes, cut(inputs) -> inputs] set by the user layer
_SERIAL = count(1).__next__  # numbers the nodes with inputs as they are built
_SEGMENT_START = [0]  # the serial when the last cut made every live pending graph a leaf
_ORDER = [0]  # nodes with inputs completed (each node's `order`; graph/_node.c keeps its own)


def _intern(structure: tuple) -> int:
    key = _KEYS.get(structure)
    if key is None:
        if len(_KEYS) >= _MAX_KEYS:
            _KEYS.clear()
            for fn in _KEYS_CLEARED:
                fn()
        key = _KEYS[structure] = _NEXT_KEY()
    return key


_KEYS_CLEARED: list[Callable[[], None]] = []


_UNKEYED: list = [object()]  # [the attrs object a leaf's key leaves out]


def set_unkeyed_leaf_attrs(attrs: tuple) -> None:
    """A leaf whose attrs are this very object keys as a leaf with `()`: a mark the layers
    above read (lazyarray/eager.py's "computed at once"), not a different structure, so graphs
    over marked and unmarked buffers share their plans."""
    _UNKEYED[0] = attrs
    if _compiled is not None and hasattr(_compiled, "set_unkeyed_leaf_attrs"):
        _compiled.set_unkeyed_leaf_attrs(attrs)


def on_keys_cleared(fn: Callable[[], None]) -> None:
    """`fn()` runs whenever the structure-key table is cleared, here or in graph/_node.c: keys
    cached outside it (lazyarray/_bind.py's scalar-leaf keys) must go, or a stale key would make
    a later equal structure miss its plan."""
    _KEYS_CLEARED.append(fn)
    if _compiled is not None and hasattr(_compiled, "on_keys_cleared"):
        _compiled.on_keys_cleared(lambda: [f() for f in _KEYS_CLEARED] and None)


CutHook = Callable[[tuple["Node", ...], "OpDef"], tuple["Node", ...]]
WatchHook = Callable[[tuple["Node", ...], "OpDef | None"], tuple["Node", ...]]


_PAUSED: list = [0, None]  # [depth of `cuts_paused`, the hook it took away]
_PAUSE_LOCK = threading.Lock()


def set_node_budget(limit: int, cut: CutHook | None) -> None:
    """Past `limit` pending nodes, a new node's inputs and op go through `cut` (which may
    evaluate them and return leaves) before the node is built; `cut=None` turns the budget off."""
    with _PAUSE_LOCK:
        if _PAUSED[0]:
            _BUDGET[0], _PAUSED[1] = limit, cut  # takes effect when the pause ends
        else:
            _BUDGET[0], _BUDGET[1] = limit, cut


@contextmanager
def cuts_paused() -> Iterator[None]:
    """No cut while graph passes build nodes: a cut evaluates every live pending Array and hands
    back leaves, which in the middle of a rewrite would splice evaluated leaves into the graph
    being rewritten (the memory planner then met slots no step writes). Evaluation already
    refuses cuts while the plan cache is busy; this covers `la.explain`, `to_dask` and direct
    `optimize` calls. Nestable and thread-safe: the hook comes back when the last pause ends."""
    with _PAUSE_LOCK:
        if _PAUSED[0] == 0:
            _PAUSED[1], _BUDGET[1] = _BUDGET[1], None
        _PAUSED[0] += 1
    try:
        yield
    finally:
        with _PAUSE_LOCK:
            _PAUSED[0] -= 1
            if _PAUSED[0] == 0:
                _BUDGET[1], _PAUSED[1] = _PAUSED[1], None


def start_segment(pending: int = 0) -> None:
    """Every live pending graph was just evaluated (a cut) or forgotten: nodes built from now on
    are all that can be pending, so their number caps every node's `pending`. `pending`: nodes
    known to be pending now (an exact count), counted as built in the new segment."""
    _SEGMENT_START[0] = _SERIAL() - pending


def built_in_segment() -> int:
    """Nodes built since `start_segment` (plus one per call: the serial is consumed)."""
    return _SERIAL() - _SEGMENT_START[0]


def built_count() -> int:
    """Nodes with inputs completed so far: the `order` of the last one. Unlike the serial, only
    building a node moves it (after its cut hook returns), so a loop body that builds the same
    nodes each time around advances it by the same amount per iteration (lazyarray/cuts.py
    splits an evaluated tail at those boundaries)."""
    return _ORDER[0]


# [context variable, its value the last build saw, hook(inputs, op) -> inputs]: `watch`
_WATCH: list = [None, None, None]


def watch(var: contextvars.ContextVar | None, hook: WatchHook | None) -> None:
    """Where `var`'s value is not the one the last build saw, `hook(inputs, op)` runs before a
    node with inputs is built and returns the inputs to build on (the layers above compute what
    is pending when NumPy's error state changes: lazyarray/fp_state.py). `watch(None, None)`:
    off. One context-variable read and an identity compare per node."""
    _WATCH[:] = [var, None if var is None else var.get(), hook]
    if _compiled is not None:
        _compiled.watch(var, hook)


def watch_seen(value: Any) -> None:
    """The watched variable's value `value` counts as seen: the next build that finds another
    calls the hook."""
    _WATCH[1] = value
    if _compiled is not None:
        _compiled.watch_seen(value)


def set_cut_threshold(limit: int) -> None:
    """Call the cut hook for every node past `limit` pending (-1: every node with inputs, while
    the user layer waits for the program point where it cuts)."""
    _BUDGET[0] = limit
# -------------------------------------------------------------------------------------------------


class _PyNode:
    """Node's fields and constructor in Python: the fallback of graph/_node.c's `NodeBase`."""

    __slots__ = (
        "__weakref__",
        "attrs",
        "data",
        "dtype",
        "inputs",
        "key",
        "op",
        "order",
        "pending",
        "shape",
        "site",
    )

    def __init__(
        self,
        op: OpDef,
        inputs: tuple[Node, ...],
        attrs: tuple,
        shape: tuple[int, ...],
        dtype: np.dtype,
        data: Any = None,
        site: tuple[str, int] | None = None,
    ) -> None:
        self.op = op
        self.attrs = attrs
        self.shape = shape
        self.dtype = dtype
        self.data = data
        self.site = site
        n = len(inputs)
        if n:
            var = _WATCH[0]
            if var is not None:
                value = var.get()
                if value is not _WATCH[1]:
                    _WATCH[1] = value  # (before the hook: the nodes it builds check nothing)
                    inputs = _WATCH[2](inputs, op)
            serial = _SERIAL()
            if n == 2:  # the common arities spelled out: this runs once per traced op
                pending = 1 + inputs[0].pending + inputs[1].pending
            elif n == 1:
                pending = 1 + inputs[0].pending
            else:
                pending = 1
                for i in inputs:
                    pending += i.pending
            if pending > _BUDGET[0]:
                built = serial - _SEGMENT_START[0]  # shared sub-graphs summed per use: cap it
                if built < pending:
                    pending = built
                if pending > _BUDGET[0] and _BUDGET[1] is not None:
                    inputs = _BUDGET[1](inputs, op)
                    pending = 1 + sum([i.pending for i in inputs])
                    built = _SERIAL() - _SEGMENT_START[0]
                    if built < pending:
                        pending = built
            self.pending = pending
            if n == 2:
                structure = (op, attrs, dtype, shape, inputs[0].key, inputs[1].key)
            elif n == 1:
                structure = (op, attrs, dtype, shape, inputs[0].key)
            else:
                structure = (op, attrs, dtype, shape, *[i.key for i in inputs])
        else:
            self.pending = 0  # the budget counts operations: leaves are a plan's inputs
            structure = (op, () if attrs is _UNKEYED[0] else attrs, dtype, shape)
        key = _KEYS.get(structure)
        self.key = key if key is not None else _intern(structure)
        if n:
            _ORDER[0] += 1  # after the hook: nodes a cut builds come first
            self.order = _ORDER[0]
        else:
            self.order = 0
        self.inputs = inputs


if _compiled is not None:
    _compiled.bind(_KEYS, _BUDGET, _SEGMENT_START, _IS_LIBRARY, _is_library_file, _MAX_KEYS)
    _SERIAL = _compiled.next_serial  # one counter and one key table for both paths
    _intern = _compiled.intern  # noqa: F811
    built_count = _compiled.built_count  # noqa: F811
    user_site = _compiled.user_site  # noqa: F811  (same rules, same depth meaning)


class Node(_compiled.NodeBase if _compiled is not None else _PyNode):  # type: ignore[misc]
    """One operation. `data` is set only on leaves: an input buffer, or a Python scalar's value."""

    __slots__ = ()

    op: OpDef
    inputs: tuple[Node, ...]
    attrs: tuple
    shape: tuple[int, ...]
    dtype: np.dtype
    key: int
    pending: int
    order: int
    data: Any
    site: tuple[str, int] | None

    @property
    def holds_buffer(self) -> bool:
        """An `input` leaf: user data or an evaluated result, read as a buffer."""
        return self.op.name == "input"

    @property
    def is_leaf(self) -> bool:
        return not self.inputs and self.op.is_leaf

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    def __repr__(self) -> str:
        attrs = f" {self.attrs}" if self.attrs else ""
        return f"<{self.op.name}{attrs} {self.dtype}{list(self.shape)}>"

    def __reduce__(self) -> tuple:
        """copy, deepcopy and pickle restore the fields as they were (the key is kept, as for a
        slots object); the compiled NodeBase has no slots for copyreg to find."""
        return _rebuilt, (type(self), *[getattr(self, name) for name in _FIELDS])


_FIELDS = ("op", "inputs", "attrs", "shape", "dtype", "key", "pending", "data", "site")


def _rebuilt(cls: type, *values: Any) -> Node:
    node = _new_node(cls)
    for name, value in zip(_FIELDS, values):
        setattr(node, name, value)
    if not hasattr(node, "order"):  # the Python path's slot (the compiled field starts at 0)
        node.order = 0  # a copy is not built in the program's order: no tail splits at it
    return node


if _compiled is not None:
    _compiled.set_node_class(Node)  # what the compiled fast paths build
_new_node = Node.__new__
# `Node(op, inputs, attrs, shape, dtype, data, site)` with all seven arguments: graph/_node.c's
# `build` skips the type call's keyword parsing (0.22 -> 0.14 us a node).
build_node: Callable[..., Node] = getattr(_compiled, "build", None) or Node


def leaf_like(template: Node, data: Any) -> Node:
    """A leaf equal to the leaf `template` but for its data: the key is copied, not interned again
    (`la.jit` wraps every result this way; ~0.1 us less than `Node(...)`)."""
    node = _new_node(Node)
    node.op, node.inputs, node.attrs, node.shape = template.op, (), template.attrs, template.shape
    node.dtype, node.data, node.site, node.pending = template.dtype, data, template.site, 0
    node.key = template.key
    return node
