"""Buffer donation: a plan may write its results into an input buffer that nothing can read again.

`A[i] = v` names a new value (a scatter over A's old one); after `x = x * 2 + 1` nothing names the
old x. When such an old value is a plan *input* (a leaf: the buffer an earlier evaluation left) and
no one can read it any more, the plan may update it in place (a chain of scatters) or write an
elementwise result over it: no new buffer, no copy. "No one" is decided from Python's reference
counts, conservatively (any doubt keeps the copy):

- the graph: every node the evaluation computes on the way is referenced only by the graph's own
  nodes (no Array, view link or other pending graph holds it), and the outputs' holders are the
  Arrays the evaluation rebinds (the caller checked: `allowed()`, see below);
- the leaf node: referenced only by the graph's nodes (no live Array, no view link, no other
  pending node) and by the evaluation's own lists;
- its buffer: a result of an earlier evaluation (`own`: never the user's array, not one from
  `la.asarray(x, copy=False)` or DLPack), writeable, C-contiguous, referenced only by the leaf
  (and the C backend's pool of spare outputs): an `np.asarray(A)` export, a NumPy view or a
  memoryview holds a reference to it or to its base, so it is not donated while it lives.

Which inputs are donated is part of the plan's key (`EvaluateOptions.donate`), so a plan built to
write over an input never runs for a graph whose input is still live. Only the numpy and C
backends donate, only buffers of at least `MIN_BYTES` (a small copy costs less than the test), and
only plans that cannot raise a data error after their first write (`runtime`'s library calls other
than matmul and index-free scatters could): otherwise a failed evaluation would leave the pending
graph over a half-written input. Anything else that interrupts a donating run (Ctrl-C, a
`la.errstate(...='raise')` report) marks the donated leaves lost: reading them raises
`DonatedBufferError` instead of computing from the overwritten buffer.
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections.abc import Sequence
from contextlib import contextmanager
from functools import partial
from typing import Any, Iterator

import numpy as np

from .graph import Node, get_op
from .graph.kernel_ir import LibraryCall, Program
from .graph.node import _compiled
from .graph.registry import OpKind
from .runtime import spare_outputs

MIN_BYTES = 2**16
BACKENDS = ("numpy", "c")
_INPUT = get_op("input")
_refcount = sys.getrefcount
_OWNED: dict[int, weakref.ref] = {}  # id(buffer) -> weak reference: results of evaluations


class DonatedBufferError(RuntimeError):
    """A value whose buffer a failed evaluation had begun to overwrite (donation)."""


class _State(threading.local):
    allowed: bool = False  # the caller proved the outputs' holders are the Arrays it rebinds


_state = _State()


@contextmanager
def allowed() -> Iterator[None]:
    """Evaluations inside may donate: the caller evaluates every pending Array that holds the
    outputs and rebinds them to the results (a node-budget cut; a single Array's evaluation whose
    node only it holds)."""
    was = _state.allowed
    _state.allowed = True
    try:
        yield
    finally:
        _state.allowed = was


def own(buffer: Any) -> None:
    """Remember `buffer` (an evaluation's result) as lazyarray's own: a later plan may donate it."""
    if type(buffer) is np.ndarray and buffer.nbytes >= MIN_BYTES:
        key = id(buffer)
        _OWNED[key] = weakref.ref(buffer, partial(_drop, key))


def _drop(key: int, ref: weakref.ref) -> None:
    if _OWNED.get(key) is ref:
        del _OWNED[key]


def _owned(buffer: np.ndarray) -> bool:
    ref = _OWNED.get(id(buffer))
    return ref is not None and ref() is buffer


# References to a candidate buffer when nothing else holds it: the leaf's `data`, the
# evaluation's `arrays` list, `candidates`' local, `_free_buffer`'s argument and getrefcount's.
_BUFFER_REFS = 5


def _free_buffer(buffer: Any) -> bool:
    if type(buffer) is not np.ndarray or buffer.nbytes < MIN_BYTES or not _owned(buffer):
        return False
    if _refcount(buffer) != _BUFFER_REFS + spare_outputs.holds(buffer):
        return False
    flags = buffer.flags  # (it holds a reference to the buffer: counted first)
    if not (flags.writeable and flags.c_contiguous and flags.aligned):
        return False
    base = buffer.base  # an arena the buffer is a view of: only the buffer (and `base`) hold it
    return base is None or (type(base) is np.ndarray and base.base is None and _refcount(base) == 3)


def candidates(arrays: Sequence[Any]) -> list[int]:
    """Positions of input buffers that may be donated, by the buffers alone (cheap: most
    evaluations stop here)."""
    found = []
    for k in range(len(arrays)):  # (not enumerate: its reused tuple would hold a reference)
        buffer = arrays[k]
        if _free_buffer(buffer):
            found.append(k)
    return found


# References to a dead leaf node from outside its graph's inputs tuples: the evaluation's
# `leaves` list, `dead_inputs`' `inputs` list and its list of candidates.
_LEAF_REFS = 3


def dead_inputs(outputs: Sequence[Node], leaves: Sequence[Node], arrays: Sequence[Any],
                options: Any) -> tuple[int, ...]:
    """Positions (among the array leaves) of inputs this evaluation may write over; () mostly."""
    if not _state.allowed or options.backend not in BACKENDS or not options.optimize:
        return ()
    if getattr(options, "debug_nans", False):
        return ()  # its check re-runs the graph from the leaves
    found = candidates(arrays)
    if not found:
        return ()
    inputs = [n for n in leaves if n.op is _INPUT]
    refs = outside_references(outputs, [inputs[k] for k in found])
    if refs is None:
        return ()  # an intermediate is held from outside: it could be computed again later
    return tuple([k for k, r in zip(found, refs) if r == _LEAF_REFS])


def outside_references(outputs: Sequence[Node], nodes: Sequence[Node]) -> list[int] | None:
    """None when a node the graph computes on the way (with inputs, not an output) is referenced
    from outside the graph; else per node of `nodes`, its references other than the slots of the
    graph's inputs tuples (each graph node counted once). The reference of graph/_node.c's one
    walk, and the pure-Python path."""
    edges, order = _edges(outputs)  # (its list holds a reference to every node: counted out)
    if _held_intermediate(outputs, edges, order):
        return None
    in_graph = {id(n) for n in order}
    refs = []
    for node in nodes:  # own references: `node`, getrefcount's argument and `order`'s
        refs.append(_refcount(node) - 2 - (edges.get(id(node), 0) + 1 if id(node) in in_graph
                                            else 0))
    del order
    return refs


python_outside_references = outside_references  # the reference (tests compare the C walk)
# graph/_node.c's walk: one C walk instead of `shared_intermediates`' and `_edges`' (~0.25 ms in
# Python on a few hundred nodes, once per cut of a loop).
if getattr(_compiled, "outside_references", None) is not None:
    outside_references = _compiled.outside_references  # noqa: F811


def _edges(outputs: Sequence[Node]) -> tuple[dict[int, int], list[Node]]:
    """Per node of the graph, how many inputs tuples of its nodes hold it (each node once);
    and the nodes (kept alive by the list while the counts are compared)."""
    edges: dict[int, int] = {}
    seen: set[int] = set()
    order: list[Node] = []
    stack = list(outputs)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        for i in node.inputs:
            edges[id(i)] = edges.get(id(i), 0) + 1
            if id(i) not in seen:
                stack.append(i)
    return edges, order


# References to an intermediate only the graph holds, besides its inputs tuples: `_edges`' order
# list, the loop variable below and getrefcount's argument.
_NODE_REFS = 3


def _held_intermediate(outputs: Sequence[Node], edges: dict[int, int], order: list[Node]) -> bool:
    """Whether a node the graph computes on the way is referenced from outside its nodes (graph/
    _node.c's `shared_intermediates`, in Python)."""
    out = {id(o) for o in outputs}
    for node in order:
        if node.inputs and id(node) not in out and _refcount(node) != edges[id(node)] + _NODE_REFS:
            return True
    return False


def safe_to_donate(program: Program) -> bool:
    """Whether no step can raise a data error (an index out of bounds, a singular matrix): a
    donating plan must not stop half way through overwriting an input."""
    for step in program.steps:
        if isinstance(step, LibraryCall) and step.op.kind is not OpKind.MATMUL and not (
                step.op.in_place is not None and len(step.inputs) == 2):
            return False
    return True


def marked(plan: Any, program: Program) -> Any:
    """`plan`, marked when its program writes over donated inputs (`donates`): a failed run of
    it marks those inputs lost, whatever the error."""
    if program.donated:
        plan.donates = True
    return plan


class _Lost:
    """A donated leaf's data after its evaluation failed: converting it raises."""

    nbytes = 0

    def __init__(self, shape: tuple[int, ...], dtype: np.dtype) -> None:
        self.shape, self.dtype = shape, dtype

    def __array__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        raise DonatedBufferError(
            "this value was lost: an evaluation that wrote its result over the value's buffer "
            "(buffer donation, docs/caching.md) failed part way (an interrupt or a raised "
            "floating-point error); compute it again")


def mark_lost(leaves: Sequence[Node], positions: Sequence[int]) -> None:
    """After a donating run raised: the donated leaves' buffers may hold part of the results."""
    inputs = [n for n in leaves if n.op is _INPUT]
    for k in positions:
        leaf = inputs[k]
        leaf.data = _Lost(leaf.shape, leaf.dtype)


def flag_rerun(bits: int) -> Any:
    """A stand-in for fp_errors' NumPy re-run after a donating run raised floating-point flags:
    the inputs that re-run would read are overwritten, so NumPy reports each fired category once
    (from a scalar op that raises it), unconfirmed: a warning may be one NumPy would not give,
    never one lost."""
    def rerun() -> None:
        one, big, tiny = np.float64(1.0), np.float64(1e308), np.float64(1e-308)
        if bits & 1:
            np.divide(one, np.float64(0.0))
        if bits & 2:
            np.multiply(big, big)
        if bits & 4:
            np.multiply(tiny, tiny)
        if bits & 8:
            np.subtract(np.float64(np.inf), np.float64(np.inf))

    return rerun
