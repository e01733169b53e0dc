"""Index loops run at once: small values read out of computed arrays are computed at the line.

NumPy code that loops over indices (`A[i, j] -= np.dot(A[i, :j], A[j, :j])`) builds a graph of a
few tiny nodes per iteration whose structure changes with `i` and `j`: kept lazy, every cut is a
new plan (Cholesky 900x NumPy). Such values gain nothing from fusion, so they are computed as soon
as the op that reads them is built, node by node through the ops' NumPy references (the numpy
backend's semantics, errors and floating-point warnings), and the Array holds the result as a
leaf. The rule, checked where an Array is made (`Array.__init__`, `_trace.c`'s `make_array`):

- the result has at most `la.config.eager_size` elements (0 turns this off);
- it is not itself a view (a view of a computed array stays a view op: it costs nothing and
  follows writes to its base, lazyarray/writes.py);
- it reads, directly or through casts/broadcasts, an *indexed read*: a chain of view ops (slice,
  reshape, permute...) over a computed buffer, or an earlier result of this rule;
- its whole graph down to computed buffers is at most `_MAX_NODES` small nodes (a view op may
  read a large buffer: it only picks elements).

Everything else stays lazy as before: `la.tanh(x @ w + b)` on small user arrays still fuses into
one cached plan. Element writes into a computed buffer nothing else can read happen in place
(`write_in_place`): O(1) for `A[i, j] = v` instead of a copy of A.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from . import _bind
from .cache import _state
from .cuts import _LIVE
from .fp_errors import fired
from .graph import get_op
from .graph.registry import OpKind
from .graph.node import Node, _compiled, set_unkeyed_leaf_attrs
from .graph.ops_elementwise import UFUNC_REFERENCE_CODE, reference_broadcasts
from ._bind import FAST as _FAST
from .passes.rewrite import with_inputs
from .runtime import fp_status, spare_outputs
from .runtime.backend import CopyStats
from .graph.ops_structure import scatter_index, scatter_into
from .runtime.interpreter import _apply
from .result_layout import bound as in_memory_order
from .result_layout import result_axes
from . import result_layout as _result_layout

_INPUT, _SCALAR = get_op("input"), get_op("scalar")
_CAST, _BROADCAST = get_op("cast"), get_op("broadcast_to")
_SCATTER = get_op("scatter")
_REDUCTION = OpKind.REDUCTION
_FOLD: list = []  # `_walk`'s answer for a graph better run as one plan (`_computes_large`)
SEED_OPS = (get_op("take"),)  # advanced indexing's gathers read out of a computed array too
# The attrs of a leaf this rule made: an identity mark (leaves have no attrs of their own), so the
# next op finds its operand was an indexed read without a table. The structural key leaves it out
# (graph.node.set_unkeyed_leaf_attrs): a lazy graph over such a leaf is the graph over any buffer,
# and shares its plan (nbody built 3 plans apart by marks alone).
EAGER_MARK: tuple = _bind.AT_ONCE_MARK  # (defined there: _bind makes such leaves too)
set_unkeyed_leaf_attrs(EAGER_MARK)
_MAX_NODES = 24
# evaluation.evaluate_arrays, set by lazyarray.evaluation (which imports this module)
EVALUATE_ARRAYS: list = [None]
# evaluation._held_intermediates, set there too: the pending Arrays a walk computes on its way
HELD_INTERMEDIATES: list = [None]
_EXACT = 1 << 53  # a Python int float64 holds exactly up to this (where_now)
_WORK = 64  # an intermediate of a small result may have this many times eager_size elements
_UPDATE = 16  # a loop's region update of at-once values may have this many times (loop_update_now)
LIMIT = [4096]  # la.config.eager_size, mirrored by lazyarray.evaluation's settings hook
FOLDS = [False]  # whether plans run C kernels (set there too): `_computes_large`
_SCALAR_TYPES = (int, float, bool, complex)
_getrefcount = sys.getrefcount
_enter, _leave = fp_status.enter_numpy_errstate, fp_status.leave_numpy_errstate
_clear, _test = fp_status.clear, fp_status.test
_asarray = np.asarray
_C_VIEW_VALUE = getattr(_FAST, "view_value", None)  # None: pure Python, or an older build
_C_SAME_VIEW = getattr(_FAST, "same_view", None)
_C_DOT_NOW = getattr(_FAST, "dot_now", None)
_C_ONE_OP_NOW = getattr(_FAST, "one_op_now", None)
_C_VIEW_HOLDERS = getattr(_FAST, "view_holders", None)
_C_LIVE_HOLDERS = getattr(_compiled, "live_holders", None)  # graph/_node.c: cuts._LIVE scanned
_NUMPY_INTS = _bind.NUMPY_INTS
if _FAST is not None and hasattr(_FAST, "set_ufunc_reference"):
    _FAST.set_ufunc_reference(UFUNC_REFERENCE_CODE)
# sys.getrefcount(old) in write_in_place when only the written handle holds `old`: its `_node`,
# `new`'s inputs, the names `old` in __setitem__, settle and write_in_place, getrefcount's argument
_OLD_REFS = 6
# a zeros/empty/full base up to this many elements becomes a buffer at a write (as NumPy's is
# one already: an automaton's (1000, 10000) history written row by row stayed a scatter chain,
# cut and planned every few rows, at 2^22)
WRITE_LIMIT = 1 << 26


def _data_refs(data: np.ndarray) -> int:
    """`_getrefcount(data)` as the caller's own call would count it, less the pool of spare
    outputs' reference (runtime/spare_outputs.py keeps a large result for its plan's next run
    and hands it out only when nothing else references it): a sieve's 5,000,001-element
    `is_prime` came back from a plan held by the pool, so its writes never went in place and
    each built a plan (332 a call, past the plan cache's 256)."""
    return _getrefcount(data) - 1 - spare_outputs.holds(data)


def _is_view_op(op: Any) -> bool:
    return op.write_back is not None or op is _BROADCAST


def views_a_buffer(node: Node) -> bool:
    """Whether `node` is a chain of view ops over a leaf (a view of a computed array, which
    stays a view), rather than a view of a result computed here (`la.dot`'s final reshape)."""
    while _is_view_op(node.op) and node.inputs:  # (a slice's other inputs are its starts)
        node = node.inputs[0]
    return not node.inputs or node.op is _BROADCAST


def seeded(node: Node) -> bool:
    """Whether `node` reads an indexed read or an eager result (through casts and broadcasts):
    the cheap test made for every small Array before `run_now` walks its graph."""
    while node.op.write_back is not None and node.inputs:  # la.dot's final reshape
        node = node.inputs[0]
    if node.op in SEED_OPS:  # a gather out of an array (a copy, as NumPy's advanced indexing)
        return True
    return _reads_indexed(node, 1)


def _reads_indexed(node: Node, depth: int) -> bool:
    """An input (through casts and broadcasts), or with `depth` left an input's input, is an
    indexed read: `np.sum(x[:, i:i+k] * w, axis=...)` reads one through the product."""
    for i in node.inputs:
        while i.op is _CAST or i.op is _BROADCAST:
            i = i.inputs[0]
        if _indexed(i):
            return True
        if depth and i.inputs and _reads_indexed(i, depth - 1):
            return True
    return False


def run_now(node: Node) -> Node | None:
    """`node`'s value as a leaf, computed now, or None where the rule above says lazy."""
    if _is_view_op(node.op) and views_a_buffer(node) or (
            not seeded(node) or _state.busy or _state.stand_ins):
        return None
    if node.size > LIMIT[0]:
        return None
    return run_candidate(node)


def run_candidate(node: Node) -> Node | None:
    """`run_now` once its tests passed (lazyarray/_trace.c makes them in C: size, view, marks,
    `cache.PAUSED`)."""
    args = _leaf_values(node.inputs, reference_broadcasts(node.op))
    if args is not None:  # one op over computed values: the common case, no walk
        out = _run_one(node, args)
        if out.shape != node.shape:  # every input was broadcast further than NumPy would
            out = np.broadcast_to(out, node.shape)
        return _leaf(node, out)
    return _walk_and_run(node, LIMIT[0])


def arg_now(name: str, node: Node, site: Any) -> Node | None:
    """`np.argmin(x)` / argmax over every element of a leaf of this rule or a view of a computed
    buffer (dijkstra's `np.argmin(np.where(visited, np.inf, dist))`): NumPy's ndarray method
    on the buffer now, an int64 0-d leaf (NumPy's integer scalar), without the reduction's node,
    reduce_now's error state (an arg reduction raises no flag) and np.argmin's wrapper: ~7 -> ~3
    us. None where the rule is off, the input is empty (the general path raises its error) or
    above its size."""
    if not LIMIT[0] or _state.busy or _state.stand_ins or not node.size or (
            node.size > LIMIT[0] * _WORK):
        return None
    if node.inputs:
        data = view_value(node) if node.op.write_back is not None else None
        if data is None:
            return None
    elif node.attrs is EAGER_MARK and type(node.data) is np.ndarray:
        data = node.data
    else:
        return None
    if data.dtype.kind not in "biuf":
        return None  # (complex: NumPy's lexicographic order; the general path)
    found = data.argmin() if name == "argmin" else data.argmax()
    return Node(_INPUT, (), EAGER_MARK, (), _INT64, np.array(found, dtype=_INT64), site)


def where_now(operands: tuple, dtype: np.dtype, shape: tuple, site: Any) -> Node | None:
    """`where(c, x, y)` of computed buffers and Python numbers (dijkstra's `np.where(visited,
    np.inf, dist)`) as the leaf of NumPy's `where`, where this rule computes it anyway (an
    operand is one of its results, the result is small): without the three materialized inputs,
    the node and the rule's walk (~15 us of 19 a call). The condition a bool buffer, each value
    a buffer of the result's dtype or a Python number of a float64 result that float64 holds
    exactly; else None (the general path)."""
    if not LIMIT[0] or _state.busy or _state.stand_ins:
        return None
    size = 1
    for n in shape:
        size *= n
    if size > LIMIT[0]:
        return None
    values, seeded_by = [], False
    for k, o in enumerate(operands):
        if type(o) is tuple:
            v = o[1]
            if k == 0 or dtype != _FLOAT64 or not (type(v) is float or type(v) is int and
                                                        -_EXACT <= v <= _EXACT):
                return None
            values.append(v)
            continue
        if (o.inputs or o.op is not _INPUT or type(o.data) is not np.ndarray
                or o.dtype != (_BOOL if k == 0 else dtype)):
            return None
        seeded_by |= o.attrs is EAGER_MARK
        values.append(o.data)
    if not seeded_by:
        return None
    out = np.where(*values)
    if out.dtype != dtype or out.shape != shape:
        return None
    return Node(_INPUT, (), EAGER_MARK, shape, dtype, out, site)


def reduce_now(node: Node) -> Node | None:
    """A small reduction of a leaf of this rule or of a view of a computed buffer, computed now
    (lenet's `np.sum(p, axis=(1, 2, 3))` of the at-once window product `p`, its pooling's
    `np.max(x[:, 2*i:2*i+2, 2*j:2*j+2, :], axis=(1, 2))`): `run_now`'s answer, without the
    tests this case passes by its shape (such an input is an indexed read; a reduction is no
    view) nor the Array's: ~2 us of an at-once sum. None where the rule is off, the result is
    large or the view's buffer is not computed (the general path walks it)."""
    if not LIMIT[0] or node.size > LIMIT[0] or _state.busy or _state.stand_ins:
        return None
    if _C_ONE_OP_NOW is not None:  # the reference's call, flags and leaf in C (~1.5 us less)
        done = _C_ONE_OP_NOW(node)
        if done is not None:
            return done
    x = node.inputs[0]
    if x.inputs:
        data = view_value(x) if x.op.write_back is not None else None
        if data is None:
            return None
    elif x.attrs is EAGER_MARK:
        data = x.data
    else:
        return None
    return _leaf(node, _run_one(node, [data]))


def _walk_and_run(node: Node, limit: int) -> Node | None:
    """`node`'s value computed through its graph's references (None where `_walk` declines),
    keeping the values of the pending Arrays in the user's frames that the walk computed. One
    op over computed values (householder's `R[j:, :] - np.outer(...)` once the outer is a
    leaf) runs as `run_candidate`'s, in C where it can: no walk, no intermediate to keep. So
    does one op over one plain ufunc op of computed values within `limit` (mnist_mlp's `w += lr
    * np.outer(...)`: C's inner_value); the inner op's value is the update's alone there (the
    operand of `+=`), as at the C path's eager_size."""
    op = node.op
    if op.write_back is None and op is not _BROADCAST and op not in SEED_OPS:  # (views: _run's)
        if _C_ONE_OP_NOW is not None:
            done = _C_ONE_OP_NOW(node, limit)
            if done is not None:
                return done
        args = _leaf_values(node.inputs, reference_broadcasts(op)) if op.reference else None
        if args is not None:
            out = _run_one(node, args)
            if out.shape != node.shape:  # every input was broadcast further than NumPy would
                out = np.broadcast_to(out, node.shape)
            return _leaf(node, out)
    known: dict[int, Any] = {}
    order = _walk(node, limit, known)
    if order is _FOLD:
        return _through_a_plan(node)
    if order is None:
        return None
    out = _leaf(node, _run(node, order, known))
    if len(order) > 1:
        _keep_held(node, known)
    return out


def _keep_held(node: Node, values: dict[int, Any]) -> None:
    """Each pending Array of the user's frames whose node the walk computed holds that value now,
    as a plan keeps its held intermediates (lazyarray/evaluation.py `_held_intermediates`):
    nbody's `vel += acc * dt / 2` twice a step computed `acc`'s three (100, 100) products and
    matmuls twice, where NumPy computes them once. None while la.grad traces (its rule). A
    view of a computed buffer stays the view (`run_now`'s rule: a write into the buffer shows
    through it)."""
    held = HELD_INTERMEDIATES[0]([node]) if HELD_INTERMEDIATES[0] is not None else ()
    for a in held:
        n = a._node
        value = values.get(id(n))
        if value is not None and n.inputs and not (_is_view_op(n.op) and views_a_buffer(n)):
            a._node = _leaf(n, value)


def value_now(node: Node) -> np.ndarray | None:
    """The value of a computed buffer, or of a chain of view ops over one, where this rule may
    compute from it now (on, not tracing); None otherwise. For ops whose at-once result is one
    NumPy call on it (`np.roll`: two slices and a concat walked, ~30 us, for NumPy's ~5)."""
    if not LIMIT[0] or _state.busy or _state.stand_ins:
        return None
    if not node.inputs:
        data = node.data
        return data if node.op is _INPUT and type(data) is np.ndarray else None
    return view_value(node) if node.op.write_back is not None else None


def view_value(node: Node) -> np.ndarray | None:
    """The value of a chain of view ops over a computed buffer (a NumPy view of it), or None.
    Chains of slices and reshapes are replayed in C (lazyarray/_trace.c view_value)."""
    if _C_VIEW_VALUE is not None:
        try:
            value = _C_VIEW_VALUE(node)
        except OverflowError:  # a step past ssize_t (`x[::2**70]`): the Python replay below
            value = None
        if value is not None:
            return value
    chain = []
    while node.inputs:
        if node.op.write_back is None:
            return None
        chain.append(node)
        node = node.inputs[0]
    if node.op is not _INPUT or type(node.data) is not np.ndarray:
        return None
    value = node.data
    for n in reversed(chain):
        inputs = n.inputs
        if len(inputs) == 1:
            value = n.op.reference((value,), n.attrs, n.dtype)
            continue
        args = [value]  # and a slice's run-time starts
        for e in inputs[1:]:
            if e.inputs or e.op is not _SCALAR:
                return None
            args.append(e.data)
        value = n.op.reference(args, n.attrs, n.dtype)
    return value


def vector_dot(a: Node, b: Node, site: Any, fn: Any = np.matmul) -> Node | None:
    """`a @ b` (or `np.dot(a, b)`: `fn` np.dot) of two vectors at once, `fn`'s bits, as a leaf;
    None where either is no view of a computed buffer or the rule is off. The two are BLAS's dot
    where the strides are positive, but np.dot copies a vector of negative stride first where
    matmul sums it in a plain loop: their last bits differ there (`np.flip(x) @ y`)."""
    if _C_DOT_NOW is not None:  # the common case in one C call (lazyarray/_trace.c dot_now)
        done = _C_DOT_NOW(a, b, site, fn)
        if done is not None:
            return done
    if not LIMIT[0] or a.size > LIMIT[0] * _WORK or _state.busy or _state.stand_ins:
        return None
    out = _product_now(a, b, fn)
    if out is None:
        return None
    out = _asarray(out)
    return Node(_INPUT, (), EAGER_MARK, (), out.dtype, out, site)


def matrix_product(a: Node, b: Node, site: Any, fn: Any = np.matmul) -> Node | None:
    """`x @ y` of computed vectors and matrices of one dtype, a vector or an indexed read among
    them (covariance's `data[:, i] @ data[:, i:M]`, power iteration's `A @ v`): NumPy's matmul
    now, as a leaf. `run_now` computed the same through a walk over the general path's nodes
    (~30 us a call: a vector's reshape counts as an indexed read there too); None where the rule
    says lazy (a large result or operand, two plain matrices) or the shapes do not contract (the
    general path raises)."""
    if (not LIMIT[0] or _state.busy or _state.stand_ins or a.dtype != b.dtype
            or not (0 < a.ndim <= 2 and 0 < b.ndim <= 2) or a.shape[-1] != b.shape[0]
            or a.size > LIMIT[0] * _WORK or b.size > LIMIT[0] * _WORK
            or math.prod(a.shape[:-1]) * math.prod(b.shape[1:]) > LIMIT[0]
            or not (a.ndim == 1 or b.ndim == 1 or _indexed(a) or _indexed(b))):
        return None
    out = _product_now(a, b, fn)  # (np.dot for la.dot: its own bits, as vector_dot's)
    return None if out is None else Node(_INPUT, (), EAGER_MARK, out.shape, out.dtype, out, site)


def outer_now(a: Node, b: Node, site: Any) -> Node | None:
    """`np.outer(a, b)` of computed values of one numeric dtype, an indexed read among them,
    as NumPy's np.outer now (its bits: the same multiply), a leaf; None where the rule says
    lazy. Up to eager_size elements as any at-once result; up to `_UPDATE` times that where an
    operand is a result of this rule, the mark of an index loop's step whose update
    (`loop_update_now`) would compute the product anyway: mnist_mlp's `weights_1 += lr *
    np.outer(layer_0, delta)` (12,544 elements), householder's `np.outer(tau * w, w @ R)`.
    Lazy, the product was a ravel view of each operand, two reshapes, two broadcasts and a
    multiply, each walked and run through its reference at the write (~40 us of NumPy's 9)."""
    limit = LIMIT[0]
    if (not limit or _state.busy or _state.stand_ins or a.dtype != b.dtype
            or a.dtype.kind not in "biufc"):
        return None
    size = a.size * b.size
    if (size > limit * _UPDATE or a.size > limit * _WORK or b.size > limit * _WORK
            or not (_indexed(a) or _indexed(b))
            or size > limit and a.attrs is not EAGER_MARK and b.attrs is not EAGER_MARK):
        return None
    out = _product_now(a, b, _outer)
    if out is None or out.dtype != a.dtype:
        return None
    return Node(_INPUT, (), EAGER_MARK, out.shape, out.dtype, out, site)


def _outer(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """np.outer's computation (numpy/_core/numeric.py: the same multiply), without its Python
    layers (~1.5 us)."""
    return np.multiply(a.ravel()[:, None], b.ravel()[None, :])


def _product_now(a: Node, b: Node, fn: Any = np.matmul) -> Any:
    """NumPy's matmul (or `fn`) of two views of computed buffers under the flag-recording error
    state, or None: not both views of buffers. A raised flag is reported as NumPy reports it for
    this very call (its text and mode, at the user's line), with NumPy's value: the general path
    would sum in BLAS's order on contiguous copies, and an overflowing product can come out NaN
    there where NumPy's is inf."""
    va = view_value(a)
    vb = view_value(b) if va is not None else None
    if vb is None:
        return None
    token = _enter()
    try:
        _clear()
        out = fn(va, vb)
        bits = _test()
    finally:
        _leave(token)
    if bits:
        fired((), bits, rerun=lambda: fn(va, vb), key=(fn.__name__, va.shape, vb.shape),
              inputs=(va, vb), at_the_line=True)
    return out


def _indexed(node: Node) -> bool:
    """An indexed read (a view, a gather) or an eager result: what `seeded` looks for."""
    return node.attrs is EAGER_MARK or node.op in SEED_OPS or (
        bool(node.inputs) and node.op.write_back is not None)


def c_run_parts() -> tuple:
    """What lazyarray/_trace.c's one_op_now needs to run one op as `_run_one` does: NumPy's error
    state variable and 'call' value (None where this NumPy has none: then C leaves it to Python),
    the flags' clear and test, and `finish_one`."""
    if fp_status._CALL_MODE is None:
        return None, None, None, None, None
    return fp_status._extobj_contextvar, fp_status._CALL_MODE, _clear, _test, finish_one


def finish_one(node: Node, out: Any, bits: int) -> Node:
    """The leaf of a result C computed (lazyarray/_trace.c one_op_now) that is not a fresh array
    of the node's dtype and shape (NumPy broadcast the inputs less far than the graph), or that
    raised floating-point flags."""
    out = _result(node, out, bits)
    if out.shape != node.shape:
        out = np.broadcast_to(out, node.shape)
    return _leaf(node, out)


def _result(node: Node, out: Any, bits: int) -> np.ndarray:
    """A reference's result as an array of the node's dtype; its floating-point flags reported."""
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if out.dtype != node.dtype:
        out = out.astype(node.dtype)
    if bits:
        fired([node], bits, at_the_line=True)
    return out


def _run_one(node: Node, args: list) -> np.ndarray:
    """`_run` for one node whose inputs are computed."""
    token = _enter()
    try:
        _clear()
        try:
            out = node.op.reference(args, node.attrs, node.dtype)
        except Exception:  # again, for the error that names the op and the user's line
            out = _apply(node, tuple(args))
        bits = _test()
    finally:
        _leave(token)
    return _result(node, out, bits)


def _leaf_values(inputs: tuple, broadcasts: bool = False) -> list | None:
    """The values of `inputs` if every one is a computed leaf or a view of one (`A[i, :j] *
    A[j, :j]`: NumPy's views of the buffer, no walk), else None. `broadcasts`: the op's
    reference broadcasts its inputs itself, so a broadcast_to input is its input's value and
    a scalar leaf of the op's shape stays 0-d (`x - 1.0`: np.broadcast_to is 3.4 us)."""
    out = []
    for i in inputs:
        if broadcasts and i.op is _BROADCAST:
            i = i.inputs[0]
        if i.inputs:
            if i.op.write_back is None:
                return None
            v = view_value(i)
            if v is None:
                return None
            out.append(v)
            continue
        data = i.data
        if i.op is _INPUT:
            if type(data) is not np.ndarray:
                return None
            out.append(data)
        elif i.op is _SCALAR and type(data) in _SCALAR_TYPES:
            if i.dtype is _FLOAT64 or i.dtype.kind in "iub":  # no cast that overflows to inf
                v = np.asarray(data, dtype=i.dtype)  # (np.errstate costs ~4 us)
            else:
                with np.errstate(over="ignore"):
                    v = np.asarray(data, dtype=i.dtype)
            if type(data) is float and i.dtype.kind == "f" and np.isinf(v) and math.isfinite(data):
                return None  # `x32 + 1e300`: the lazy path reports the cast's overflow (errstate)
            out.append(np.broadcast_to(v, i.shape) if i.shape and not broadcasts else v)
        else:
            return None
    return out


def run_now_any(node: Node) -> Node | None:
    """`run_now` without the indexed-read condition (a write's values are small and computed)."""
    limit = LIMIT[0]
    if not node.inputs or node.size > limit:
        return None
    return _walk_and_run(node, limit)


def one_op_now(node: Node) -> Node | None:
    """An elementwise op whose inputs are all computed (buffers, views of them, scalars), run
    now by its NumPy reference at any size, or None. For a value the caller evaluates at once
    anyway (a masked write's mask and value, a mask a read needs): one NumPy call gives
    NumPy's bits and costs no plan. nbody's `r[r > 0] = r[r > 0] ** -1.5` (10,000 elements)
    ran a plan whose kernel called libm's scalar `pow` (~110 us; NumPy's SIMD loop ~25 us)."""
    if (not LIMIT[0] or _state.busy or _state.stand_ins or not node.inputs
            or node.op.kind is not OpKind.ELEMENTWISE):
        return None
    args = _leaf_values(node.inputs, reference_broadcasts(node.op))
    if args is None:
        return None
    out = _run_one(node, args)
    if out.shape != node.shape:
        out = np.broadcast_to(out, node.shape)
    return _leaf(node, out)


def element(node: Node) -> Node | None:
    """An element `A[i, j]` of a computed array, read now (NumPy's scalar is a copy): the
    program then holds no node over A's buffer, which a later write can take in place."""
    if not node.inputs or not LIMIT[0] or _state.busy or _state.stand_ins:
        return None  # (no inputs: computed already, by the rule for the op that made it)
    value = view_value(node)  # `A[i][j]`: views all the way down to a computed buffer
    if value is not None:
        return _leaf(node, value)
    return _walk_and_run(node, LIMIT[0])


def gather(x: Node, index: Node, site: Any) -> Node | None:
    """`x[cols]` in an index loop (spmv's `x[A_col[lo:hi]]`): NumPy's `data[idx]` now, for a
    computed x (a buffer or a view of one) and a computed integer index array of at least one
    dim, the result small; None for the general path (~16 us of index normalization), which
    also raises NumPy's IndexError at the line."""
    if (not LIMIT[0] or _state.busy or _state.stand_ins or index.dtype.kind not in "iu"
            or not index.shape or not x.shape):
        return None
    values = view_value(x)
    positions = view_value(index) if values is not None else None
    if positions is None or positions.size * (values.size // max(values.shape[0], 1)) > LIMIT[0]:
        return None
    try:
        out = values[positions]
    except IndexError:
        return None
    return Node(_INPUT, (), EAGER_MARK, out.shape, out.dtype, out, site)


def advanced_now(x: Node, key: tuple, site: Any) -> Node | None:
    """`A[idx]`, `A[idx, 2]`, `A[:, idx]`, `A[rows, cols]` for a computed A (a buffer or a view
    of one) and a key of ints, slices, None, `...` and NumPy index arrays (at least one): NumPy's
    `data[key]` now, a copy as NumPy's advanced indexing makes; None for the general path (~24
    us of index normalization and a take node for `A[idx]`, NumPy 0.9), which also raises
    NumPy's errors at the line, or where the result is past the at-once size."""
    if not LIMIT[0] or _state.busy or _state.stand_ins:
        return None
    values = view_value(x)
    if values is None:
        return None
    try:
        out = values[key]
    except (IndexError, ValueError, TypeError):
        return None
    if type(out) is not np.ndarray:  # (0-d index arrays alone: NumPy's scalar)
        out = np.asarray(out)
    if out.size > LIMIT[0] or out.dtype != x.dtype:
        return None
    return Node(_INPUT, (), EAGER_MARK, out.shape, out.dtype, out, site)


def masked(x: Node, mask: Node, site: Any) -> Node | None:
    """`x[mask]` for a computed x and a computed boolean mask of x's leading dims: NumPy's
    `data[mask]` now, one pass; None for the general path (the mask's nonzero, then a take:
    mandelbrot's nine masked reads a step each paid ~60 us of it). Not bounded by the eager
    size: the mask's count is data, so the general path evaluates the mask now anyway, and its
    gather over a computed x only defers a copy that this one makes."""
    if (not LIMIT[0] or _state.busy or _state.stand_ins or mask.dtype.kind != "b"
            or not mask.shape):
        return None
    values = view_value(x)
    bits = view_value(mask) if values is not None else None  # (a buffer or a view of one)
    if bits is None or values.shape[:bits.ndim] != bits.shape:
        return None
    out = values[bits]
    return Node(_INPUT, (), EAGER_MARK, out.shape, out.dtype, out, site)


def only_holder(old: Node, refs: int) -> bool:
    """Whether `old` is a computed buffer that nothing but the caller's `refs` references hold
    (its handle's `_node`, the caller's names, getrefcount's argument): no other Array, pending
    node or view reads it, and no NumPy array (an export, a view, the user's own) shares its
    memory; a view's bases are NumPy arrays only it references (not a DLPack or foreign
    owner, whose memory another library may still read). Then a write may go into it in
    place."""
    data = old.data
    if (old.op is not _INPUT or old.inputs or type(data) is not np.ndarray
            or not data.flags.writeable or _getrefcount(old) > refs
            or _data_refs(data) > 3):  # old.data, the name `data`, getrefcount's argument
        return False
    return bases_unshared(data)


def bases_unshared(data: np.ndarray) -> bool:
    """Whether `data`'s memory is reachable through `data` alone: it owns it, or it is a view
    (a plan's result may be a reshape of the array it allocated) whose bases are NumPy arrays
    nothing else references (not a DLPack or foreign owner, whose memory another library may
    still read)."""
    base = data.base
    while base is not None:
        if type(base) is not np.ndarray or _getrefcount(base) > 3:
            return False  # (the view's `.base`, the name `base`, getrefcount's argument)
        base = base.base
    return True


def masked_write(old: Node, mask: Node, value: Any, own: bool = False) -> Node | None:
    """The value of `x[mask] = v` for a computed x (`old`, a buffer), a computed boolean mask of
    its leading dims and a computed value of its dtype (a NumPy array, or a Python float into
    float64): NumPy's masked assignment into a copy of the buffer, or into the buffer itself
    where the handle is its `only_holder` (`own`: nbody's `r[r > 0] = ...` copied 80 KB a
    step); None for the general path (a scatter at the mask's nonzero), which also raises
    NumPy's errors at the line (a value that does not match the count). The copy keeps every
    other reader's value."""
    if (not LIMIT[0] or _state.busy or _state.stand_ins or old.inputs
            or type(old.data) is not np.ndarray or mask.dtype.kind != "b"
            or old.shape[:mask.ndim] != mask.shape):
        return None
    bits = view_value(mask)  # (a buffer or a view of one)
    if bits is None:
        return None
    if type(value) in _SCALAR_TYPES:
        value = masked_scalar(value, old.dtype)
        if value is None:
            return None
    elif type(value) is not np.ndarray or value.dtype != old.dtype:
        return None
    out = old.data if own else np.array(old.data, order="C")
    try:
        out[bits] = value
    except ValueError:  # (NumPy checks the count before it writes)
        return None
    if own:
        CopyStats.in_place_updates += 1
        return old
    return Node(_INPUT, (), (), out.shape, out.dtype, out, old.site)


def computed_values(new: Node) -> Node:
    """A write's node with its values (and indices) computed now where they are small: the
    caller drops the old node, so their graphs (`A[i] = A[i] * 2` reads A's buffer) stop
    counting as readers of the base. `new` itself where nothing is to compute."""
    if new.op is not _SCATTER or not LIMIT[0] or _state.busy or _state.stand_ins:
        return new
    inputs = list(new.inputs)
    changed = False
    for k in range(1, len(inputs)):
        v = inputs[k]
        if not v.inputs:
            continue
        if v.size <= LIMIT[0]:
            done = run_now_any(v)
            if done is None:
                done = _evaluated(v)
        else:  # (an index loop's region update: `loop_update_now`)
            done = loop_update_now(v)
        if done is not None:
            inputs[k] = done
            changed = True
    return with_inputs(new, tuple(inputs)) if changed else new


def _evaluated(v: Node) -> Node | None:
    """A small value whose graph is too large to run node by node (`KE[i] = energy(pos, vel)`),
    evaluated as any evaluation is (one cached plan, the same each step; pending Arrays its
    graph computes are kept, lazyarray/evaluation.py): left pending, the write's index would
    enter the key of whatever plan computes it later, a new plan per index."""
    held = _bind.Array(v)
    EVALUATE_ARRAYS[0]([held])
    done = held._node
    return None if done.inputs or type(done.data) is not np.ndarray else done


def _walk(node: Node, limit: int, known: dict[int, Any] | None = None) -> list[Node] | None:
    """The non-leaf nodes of `node`'s graph, inputs before readers (an iterative post-order), or
    None where it is no small graph over computed values. A large intermediate that a pending
    Array holds (`data -= mean`, then `data[:, i] @ data[:, i:]` in a loop) is that Array's
    value: the Array is evaluated once, as any evaluation would, and its buffer goes in `known`
    (else every later op would compute it again)."""
    order: list[Node] = []
    seen: set[int] = set()
    stack: list = [node]
    while stack:
        n = stack.pop()
        if type(n) is tuple:  # (node,): its inputs are all placed
            order.append(n[0])
            continue
        if id(n) in seen:
            continue
        seen.add(id(n))
        inputs = n.inputs
        if not inputs:
            if n.op is _INPUT:
                if type(n.data) is not np.ndarray:  # a device buffer, a stand-in
                    return None
            elif n.op is not _SCALAR or type(n.data) not in _SCALAR_TYPES:  # la.jit's tracer
                return None
            continue
        op = n.op
        if op.reference is None or op in SEED_OPS and _pending_scalar_index(n):
            return None
        if op.kind is _REDUCTION and FOLDS[0] and _computes_large(n.inputs[0], limit):
            return _FOLD  # a kernel folds it as it computes it (`_computes_large`)
        if op.write_back is None and op is not _BROADCAST and n.size > limit:
            held = _held_value(n) if known is not None else None
            if held is not None:
                known[id(n)] = held
                continue
            if n.size > limit * _WORK:
                return None  # a view op may read a large buffer: it only picks elements
        if len(seen) > _MAX_NODES:
            return None
        stack.append((n,))
        stack.extend(inputs)
    return order


def _computes_large(node: Node, limit: int) -> bool:
    """Whether a reduction's input `node` is an op (no view: a value computed here) of more
    than `limit` elements: conv2d's `np.sum(x[:, i:i+k, j:j+k, :, None] * w, axis=(1, 2, 3))`.
    The walk would materialize it through NumPy (through a plan of its own where an Array holds
    it: the argument of np.sum) and reduce it with NumPy's buffered iterator: ~30 us a call at
    (4, 3, 3, 8, 16) float32, NumPy 13. Through one plan (`_through_a_plan`), the reduction is
    one kernel that folds the product without storing it (a column fold, runtime/c/printer.py)
    and the plan's key holds no index (slice starts are arguments)."""
    while node.op is _CAST:
        node = node.inputs[0]
    return (node.size > limit and bool(node.inputs) and node.op.write_back is None
            and node.op is not _BROADCAST)


def _through_a_plan(node: Node) -> Node | None:
    """`node`'s value (small: the rule's) evaluated now as any evaluation is, one cached plan,
    as a leaf of this rule (the next op and a write of it take the at-once paths); None where
    the evaluation leaves no host buffer."""
    was, _state.busy = _state.busy, True  # (its Array must not run this rule again)
    try:
        held = _bind.Array(node)
    finally:
        _state.busy = was
    EVALUATE_ARRAYS[0]([held])
    done = held._node
    if done.inputs or type(done.data) is not np.ndarray:
        return None
    return _leaf(node, done.data)


def _pending_scalar_index(take: Node) -> bool:
    """`A[i]` with a 0-d index `i` this rule left pending (it reads no indexed read, or large
    data: `la.argmax(x)` of a large x): the gather stays pending with it, so the indexing line
    evaluates nothing (docs/semantics.md "Indexing"). Computed now, it would compute the index's
    graph at the line, evaluating a large held value through a plan. One structure either way:
    the index is the take's input."""
    index = take.inputs[1]
    return not index.shape and bool(index.inputs)


def _held_value(n: Node) -> np.ndarray | None:
    """The buffer of the pending Arrays whose value `n` is, evaluated now; None if none is held
    (a temporary of this op: computed with it). Every such Array gets the buffer: the first one
    alone was often a view (`path[:]`, whose node is its root's) while the root kept `n`, so
    Floyd-Warshall's `path[:] = minimum(path[:], add.outer(path[:, k], ...))` evaluated a graph
    one step longer each iteration (up to the node budget's cut: 11 steps, each run per step)."""
    if _C_LIVE_HOLDERS is not None:
        found = _C_LIVE_HOLDERS(_LIVE, n)
    else:
        found = [a for r in _LIVE if (a := r()) is not None and a._node is n]
    if not found:
        return None
    EVALUATE_ARRAYS[0](found)
    a = found[0]
    data = a._node.data
    return data if not a._node.inputs and type(data) is np.ndarray else None


def _run(node: Node, order: Any, values: dict[int, Any] | None = None) -> np.ndarray:
    """The nodes through their references, under NumPy's error state that records the
    floating-point flags; fired flags are reported as any evaluation's (la.errstate). An op
    whose reference is its ufunc gets its inputs as they are before broadcast_to (NumPy
    broadcasts them itself, as `run_candidate`'s one op does): np.broadcast_to cost 3.4 us a
    node, five of them in nbody's `np.triu(-(mass * mass.T) * inv_r, 1)`."""
    if values is None:
        values = {}
    token = fp_status.enter_numpy_errstate()
    try:
        fp_status.clear()
        for n in order:
            if n.op is _BROADCAST and n is not node:
                continue  # made where a reader needs the whole shape (`_arg`)
            whole = not reference_broadcasts(n.op)
            args = [_arg(i, values, whole) for i in n.inputs]
            try:
                out = n.op.reference(args, n.attrs, n.dtype)
            except Exception:  # again, for the error that names the op and the user's line
                out = _apply(n, tuple(args))
            if type(out) is not np.ndarray:
                out = np.asarray(out)
            if out.dtype != n.dtype:
                out = out.astype(n.dtype)
            if not whole and out.shape != n.shape:  # every input was broadcast further
                out = np.broadcast_to(out, n.shape)
            values[id(n)] = out
        bits = fp_status.test()
    finally:
        fp_status.leave_numpy_errstate(token)
    if bits:
        fired([node], bits)
    return values[id(node)]


def _arg(i: Node, values: dict[int, Any], whole: bool) -> Any:
    """Input `i`'s value for `_run`: of its own shape where `whole`, else maybe before its
    broadcast_to (a scalar leaf 0-d); a broadcast a reader needs whole is made once."""
    if not whole:
        while i.op is _BROADCAST:
            i = i.inputs[0]
    v = values.get(id(i))
    if v is not None:
        return v
    if i.op is _INPUT:
        return i.data
    if i.op is _BROADCAST:
        v = np.broadcast_to(_arg(i.inputs[0], values, True), i.shape)
        values[id(i)] = v
        return v
    v = np.asarray(i.data, dtype=i.dtype)  # a scalar leaf, maybe of an op's shape
    return np.broadcast_to(v, i.shape) if whole and i.shape else v


def buffer(value: np.ndarray, site: Any) -> Node:
    """A computed buffer holding `value` (made by the caller, owned by no one else)."""
    return Node(_INPUT, (), EAGER_MARK, value.shape, value.dtype, value, site)


def _leaf(node: Node, value: np.ndarray) -> Node:
    """A leaf holding its own C-contiguous copy (never a view of another buffer: that buffer may
    be written in place later). A value NumPy lays out in another order (`A.T * 2` is
    Fortran-ordered: the graph says so, `result_axes`) is held as the plans' results are: a
    leaf in its memory order and a permute view of it (lazyarray/result_layout.py), so later
    reductions fold as NumPy's. A C-contiguous value is checked too: a walk that computes a
    broadcast operand's op once and broadcasts its result (`A = la.asarray(np.broadcast_to(v,
    (3, 4))); (A * 2).T * 3`) hands back a C-ordered copy of a value NumPy lays out in
    Fortran order (fuzz53: its `.T.ravel()` was a copy, NumPy's a view)."""
    axes = result_axes(node) if value.ndim > 1 and value.shape == node.shape else None
    if axes is not None:
        return in_memory_order(node, axes, np.array(value.transpose(axes), order="C"),
                               EAGER_MARK)
    if value.base is not None or not value.flags.c_contiguous or not value.flags.writeable:
        value = np.array(value, order="C")
    return Node(_INPUT, (), EAGER_MARK, node.shape, node.dtype, value, node.site)


def settle(handle: Any, old: Node, new: Node, holders: int = 0) -> bool:
    """A write into the value `old` of `handle` made `new`: write `old`'s buffer in place where
    nothing else reads it (a zeros/empty/full base is made a buffer first), else compute `new`
    now if it is small; True if either (the handle then holds the value), False to leave `new`
    lazy. `holders`: references to `old` the caller knows of beyond the handle's and the
    call's (live views' links and chains)."""
    if not new.inputs or _state.busy or _state.stand_ins:
        return False
    if old.op is _BROADCAST and _is_fill(old):
        if old.size > WRITE_LIMIT or new.op is not _SCATTER or new.inputs[0] is not old:
            return False
        fresh = _fill_buffer(old)
        new = with_inputs(new, (fresh,) + new.inputs[1:])
        if not _scatter_now(fresh, new):
            return False
        handle._node = fresh
        return True
    if write_in_place(old, new, holders):
        return True
    if (new.op is _SCATTER and new.inputs[0] is old and old.op is _INPUT
            and type(old.data) is np.ndarray and new.dtype == old.dtype
            and old.size <= WRITE_LIMIT):
        # the buffer is not ours to write (a backend's result view, an export, another reader):
        # one copy the handle owns, written now; the next writes go into it in place. The values
        # first: a value too large to compute now leaves the write lazy, and a copy made before
        # that was thrown away (float32_mix's `w[0] /= np.float64(4.0)`: 100 MB, twice a call)
        values = _scatter_values(new)
        if values is not None:
            fresh = Node(_INPUT, (), (), old.shape, old.dtype, np.array(old.data, order="C"),
                         old.site)
            _scatter_now(fresh, with_inputs(new, (fresh,) + new.inputs[1:]), values)
            handle._node = fresh
            return True
    if new.size > LIMIT[0]:
        return False
    done = run_now_any(new)
    if done is None:
        return False
    handle._node = done
    return True


def _is_fill(node: Node) -> bool:
    """zeros / empty / full / *_like: a Python scalar (or a 0-d buffer: complex zeros) broadcast
    to a shape."""
    src = node.inputs[0]
    if src.inputs:
        return False
    data = src.data
    return (src.op is _SCALAR and type(data) in _SCALAR_TYPES
            or src.op is _INPUT and type(data) is np.ndarray and not data.ndim)


def _fill_buffer(node: Node) -> Node:
    value = node.inputs[0].data
    if (type(value) in (int, bool) or type(value) is float and math.copysign(1.0, value) > 0) \
            and value == 0:
        data = np.zeros(node.shape, dtype=node.dtype)  # (calloc: pages zeroed as touched)
    else:
        data = np.full(node.shape, value, dtype=node.dtype)
    return Node(_INPUT, (), (), node.shape, node.dtype, data, node.site)


def fill_read(handle: Any) -> bool:
    """An index loop's read of a fill (`x_old = x.copy()` of `x = np.zeros(n)`, then
    `x_old[i]`, `A[i, i + 1:] @ x_old[i + 1:]`: SOR's first sweep): the fill's buffer is made at
    its first indexed read, as at a first write (`_fill_buffer`), and the handle holds it; each
    read of the pending fill walked and ran its graph through the references (~25 us a read,
    40% of linear_solvers). Up to `_WORK` times eager_size elements; not while la.jit or
    la.grad trace. The value is the same: other handles on the fill keep theirs."""
    node = handle._node
    if (node.op is not _BROADCAST or not LIMIT[0] or _state.busy or _state.stand_ins
            or not _is_fill(node) or node.size > LIMIT[0] * _WORK):
        return False
    handle._node = _fill_buffer(node)
    return True


def is_settled_base(node: Node) -> bool:
    """Whether a write into `node` may settle: a computed buffer or a fill."""
    return not node.inputs or (node.op is _BROADCAST and _is_fill(node))


def view_holders(old: Node, views: list, extra: dict[int, int] | None = None) -> int | None:
    """References to `old` that the live `views` of its root hold (their links and view chains),
    or None when some node of those chains is read by anything else (a pending expression over
    `row * 2` would see a write into the buffer): only views may share a buffer written in
    place, as views share NumPy's memory."""
    if extra is None and _C_VIEW_HOLDERS is not None:  # the same counts in C (_trace.c)
        return _C_VIEW_HOLDERS(old, views, None)
    expected: dict[int, int] = dict(extra) if extra else {}
    chain: list[Node] = []
    seen: set[int] = set()
    for v in views:
        link = v._view
        if type(link) is not tuple or link[2] is not old:
            return None
        for held in (v._node, link[1], old):
            expected[id(held)] = expected.get(id(held), 0) + 1
        n = link[1]
        while n is not old:
            if id(n) in seen:
                break
            seen.add(id(n))
            chain.append(n)
            if not n.inputs or n.op.write_back is None or any(
                    i.inputs or i is old for i in n.inputs[1:]):  # (a slice's start leaves)
                return None
            n = n.inputs[0]
            expected[id(n)] = expected.get(id(n), 0) + 1
    for n in chain:  # references here: `chain`, the loop's name, getrefcount's argument
        if _getrefcount(n) - 3 != expected[id(n)]:
            return None
    return expected.get(id(old), 0)


def write_through_view(root: Any, view: Any, new: Node, live: list,
                       computed: list | None = None) -> bool:
    """The view's new value `new` written into the root's buffer through NumPy's view of it
    (the view's chain of slices, reshapes and permutes replayed on the buffer): `new` is a
    computed value of the view's shape, or a scatter into the view's value. Only when nothing
    but the root and its live views reads the buffer (`view_holders`, Python's counts).
    A value computed here and then not written goes into `computed`: the caller's general
    write takes it (computing it again warned its RuntimeWarnings twice: fuzz55's seed 0)."""
    old = root._node
    data = old.data
    if (old.op is not _INPUT or type(data) is not np.ndarray or not data.flags.owndata
            or _state.busy or _state.stand_ins):
        return False
    view_node = view._view[1]
    if new.op is _SCATTER and new.inputs[0] is view_node:
        target = view_value(view_node)
        values = _scatter_values(new)
        if values is None:
            return False
        apply = (new.attrs, values)
    else:
        if new.inputs:
            new = run_now_any(new)
            if new is None:
                return False
            if computed is not None:
                computed.append(new)
        if new.op is not _INPUT or type(new.data) is not np.ndarray:
            return False
        target = view_value(view_node)
        apply = None
    if (target is None or target.shape != view_node.shape or target.dtype != data.dtype
            or not np.may_share_memory(target, data)):
        return False  # a reshape NumPy would copy: the general path writes it back
    # the view's scatter holds the view's node too (its input): a known reader, as the views
    extra = {id(view_node): 1} if apply is not None else None
    del view_node  # (this frame's reference is no reader)
    holders = view_holders(old, live, extra)
    # references to `old`: the root's _node, this frame's `old`, getrefcount's argument
    if holders is None or _getrefcount(old) > 3 + holders or _data_refs(data) > 4:
        return False
    was_writeable = data.flags.writeable
    if not was_writeable:
        data.flags.writeable = True
    before = _touched(target, apply[1], apply[0][0], apply[0][1]) if apply is not None else None
    token = _enter()
    try:
        _clear()
        if apply is None:
            target[...] = new.data
        else:
            (mode, spec), values = apply
            scatter_into(target, values[0], tuple(values[1:]), mode, spec)
        bits = _test()
    finally:
        _leave(token)
        if not was_writeable:
            data.flags.writeable = False
    if bits and apply is not None:
        _scatter_fired(new, bits, target, before, apply[1])
    return True


_FLOAT64, _INT64, _NP_FLOAT64 = np.dtype(np.float64), np.dtype(np.int64), np.float64


def write_basic(handle: Any, key: Any, value: Any) -> bool:
    """An index loop's `A[i, j] = v`, `out[:, i, j, :] = s`, `A[i] = row` written straight into
    A's buffer, before any node is built (`_basic_write` says which keys and values). Only where
    `write_in_place` would write: A's value is a buffer of its own that nothing but the handle
    holds (the caller checked that no view of it is alive). False leaves it to the general path,
    which raises NumPy's errors (an index out of range, a sequence into an element, shapes that
    do not broadcast)."""
    old = handle._node
    if old.op is _BROADCAST:  # `N = np.zeros_like(G); N[1:-1, 1:-1] = ...` (maze's sweep):
        return _write_basic_into_fill(handle, old, key, value)  # the fill's buffer, made now
    data = old.data
    if old.op is not _INPUT or type(data) is not np.ndarray or _state.busy or _state.stand_ins:
        return False
    write = _basic_write(key, value, data.shape, data.dtype)
    if write is None:
        return False
    # references: the handle's _node, this frame's `old`, getrefcount's argument; the buffer's:
    # the node's data, this frame's `data`, the argument (a value viewing A's buffer adds its own)
    if _getrefcount(old) != 3 or _data_refs(data) != 3:
        return False
    flags = data.flags
    if not flags.owndata or not flags.writeable:
        return False
    if not _write(data, *write):
        return False
    if write[1]:
        del old
        mark_written(handle)
    return True


def mark_written(handle: Any) -> None:
    """A small buffer an element write went into is an index loop's value: its node becomes a
    leaf of this rule, so the next op over the whole buffer runs at once as ops over its slices
    do (jacobi_eigen's `V @ J` of a rotation `J = np.eye(n)` set by elements was a lazy chain
    cut through plans). `_trace.c`'s `mark_written` for its element writes. Only where the
    handle alone holds the node (references: its `_node`, getrefcount's argument)."""
    old = handle._node
    if old.attrs is EAGER_MARK or old.size > LIMIT[0] or _getrefcount(old) != 3:
        return
    handle._node = buffer(old.data, old.site)


def written_value(value: Any, handle: Any, key: Any = None) -> Node:
    """The node of the Array `value` that a basic write `handle[key] = value` assigns
    (`write_basic`), computed now where it is pending and the write's general path would compute
    it anyway (`computed_values`: a settled base, a value of its dtype): householder's `R[j:, :]
    = R[j:, :] - np.outer(...)`. The Array takes the leaf (its value, as `_keep_held` does):
    holding the graph, it read the written buffer, so the write could not go in place and
    copied R (6,000 elements) each column. An Array with views keeps its node (their links
    name it). Above eager_size, a region's value (`region_write_now`) is evaluated too."""
    node, old = value._node, handle._node
    if (not node.inputs or value._view is not None or node.dtype != old.dtype or _state.busy
            or _state.stand_ins or _is_view_op(node.op) or not is_settled_base(old)):
        return node
    if node.size <= LIMIT[0]:
        done = run_now_any(node)
        if done is None:
            done = _evaluated(node)
    else:
        done = loop_update_now(node)
        if done is None and region_write_now(old, key):
            done = _evaluated(node)
    if done is None:
        return node
    value._node = done
    return done


def region_write_now(old: Node, key: Any) -> bool:
    """Whether a pending value above eager_size written into a region of the buffer `old`
    (`B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])`, a stencil's update) is evaluated at its
    write, as one plan, and written into the buffer in place. Left lazy, each write was a
    scatter over the base: a chain of them cut at the node budget ran a kernel into a
    temporary, then a library call copying it into the base, per write, and the chain's Python
    bookkeeping (cut hooks, a graph of eight writes signed and walked) cost more than a plan's
    hit path per write (jacobi_1d 30 -> 22 ms, jacobi_2d 9.2 -> 5.2, heat_3d 8.9 -> 5.0; stop
    45). Not a write of the whole array (`x[...] = v`, `x[:] = v`): that is the value's own
    node, lazy and fused with what reads it. Not a fill, nor a buffer NumPy does not own
    (its memory may be another's)."""
    if key is None or not _basic_key(key) or _whole_key(key):
        return False  # (an index array's write, `X2[np.where(m)] = v`, keeps its value lazy)
    data = old.data
    return (old.op is _INPUT and type(data) is np.ndarray and data.flags.owndata
            and data.flags.writeable)


def _basic_key(key: Any) -> bool:
    """Ints, slices, None and Ellipsis alone: a region of the buffer (NumPy's basic indexing)."""
    items = key if type(key) is tuple else (key,)
    return all(type(k) is int or type(k) is slice or k is None or k is Ellipsis
               or isinstance(k, np.integer) for k in items)


def _whole_key(key: Any) -> bool:
    """`...`, `:`, or a tuple of them: a key that selects the whole array."""
    items = key if type(key) is tuple else (key,)
    return all(k is Ellipsis or (type(k) is slice and k == _ALL) for k in items)


_ALL = slice(None)


def _write_basic_into_fill(handle: Any, old: Node, key: Any, value: Any) -> bool:
    """`write_basic` into a small fill (`np.zeros(...)`, still a broadcast of its value) that
    only the handle holds: its buffer made now, as `settle` makes it, and written by NumPy's
    `data[key] = value`. The general path built a scatter over the fill and settled it: ~30 us
    for a (39, 39) region, NumPy 2."""
    if (not _is_fill(old) or old.size > WRITE_LIMIT or _state.busy or _state.stand_ins
            or _getrefcount(old) != 4):  # the handle's _node, `old` here and in the caller, the
        return False  # argument: no other Array or node reads the fill
    write = _basic_write(key, value, old.shape, old.dtype)
    if write is None:
        return False
    filled = _fill_buffer(old)
    if not _write(filled.data, *write):
        return False
    handle._node = buffer(filled.data, old.site) if write[1] and old.size <= LIMIT[0] else filled
    return True


def write_indexed(handle: Any, key: Any, value: Any) -> bool:
    """`N_[Xi[rem], Yi[rem]] = i + 1`: a write by computed integer index arrays (and ints) into a
    buffer only its handle holds, as NumPy's `data[key] = value` itself, after the general
    path's bounds check (min and max of each index: nothing is written where one is out of
    range). The general path built the scatter's nodes, cast the indices and walked them node
    by node: ~60 us for 2,000 points, NumPy 10 (mandelbrot's two writes a step). False leaves
    it to the general path: NumPy's errors at the line, other keys, values and dtypes."""
    old = handle._node
    if _state.busy or _state.stand_ins:
        return False
    fill = old.op is _BROADCAST and _is_fill(old) and old.size <= WRITE_LIMIT
    if fill:  # `N_ = np.zeros(...)`: its buffer, made at the first write (as `settle` does)
        old = _fill_buffer(old)
    data = old.data
    if old.op is not _INPUT or type(data) is not np.ndarray:
        return False
    items = key if type(key) is tuple else (key,)
    if not items or len(items) > data.ndim:
        return False
    arrays, index_shapes = [], []
    for k, n in zip(items, data.shape):
        t, array = type(k), k
        if t is int or t in _NUMPY_INTS:
            if not -n <= k < n:
                return False
            arrays.append(k)
            continue
        if t is _bind.Array:
            node = k._node
            k = node.data if node.op is _INPUT and not node.inputs else view_value(node)
            if k is None:
                done = _gathered(node)
                if done is not None:  # (the index Array takes the leaf)
                    array._node, k = done, done.data
        elif t is not np.ndarray:
            return False
        if type(k) is not np.ndarray or k.dtype.kind not in "iu" or not k.ndim:
            return False
        if k.size and not in_bounds(k, n):
            return False
        arrays.append(k)
        index_shapes.append(k.shape)
    if not index_shapes:
        return False
    tv = type(value)
    if tv is _NP_FLOAT64:
        if data.dtype != _FLOAT64:
            return False
    elif tv is float or tv is int or tv is bool:  # NumPy's conversion, where it cannot raise
        if masked_scalar(value, data.dtype) is None:  # nor warn (`used[S[r]] = True`: 62 us
            return False  # through the general path, NumPy 0.3; a sudoku solver's every call)
    elif tv is Node:  # a computed value of the array's dtype, of at most the selection's dims
        if value.dtype != data.dtype:
            return False
        node = value
        value = value.data if not value.inputs and value.op is _INPUT else view_value(value)
        if value is None:
            done = _gathered(node)
            value = None if done is None else done.data
        if type(value) is not np.ndarray:
            return False
        first = index_shapes[0]  # (np.broadcast_shapes costs ~4 us a call: the common case
        try:  # is one index shape and a value of the selection's shape, `a[i] = a[i] + 1`)
            selected = first if index_shapes.count(first) == len(index_shapes) else (
                np.broadcast_shapes(*index_shapes))
            target = selected + data.shape[len(items):]
            if value.shape != target and (value.ndim > len(target) or np.broadcast_shapes(
                    value.shape, target) != target):
                return False
        except ValueError:
            return False
    else:
        return False
    # references: the handle's _node (a fill's new buffer: none), this frame's `old`,
    # getrefcount's argument; the buffer's: the node's data, this frame's `data`, the argument
    # (a value viewing A's buffer adds its own)
    if _getrefcount(old) != 3 - fill or _data_refs(data) != 3:
        return False
    if not data.flags.writeable or not bases_unshared(data):
        return False
    try:
        data[tuple(arrays)] = value
    except (IndexError, ValueError):  # (checked above; NumPy checks before it writes)
        return False
    if fill:
        handle._node = old
    return True


_SMALL_INDEX = 64  # index arrays up to this size are bounds-checked as Python ints


def in_bounds(k: np.ndarray, n: int) -> bool:
    """Whether every index of the non-empty integer array `k` is in [-n, n), NumPy's bounds.
    A small `k` as Python ints (exact for uint64 too): NumPy's min and max cost ~1 us each, half
    of `v[idx] = 0`'s write of 3 indices (4.9 us, NumPy's 0.3)."""
    if k.size <= _SMALL_INDEX:
        values = k.ravel().tolist()
        return -n <= min(values) and max(values) < n
    return bool(-n <= k.min() and k.max() < n)


def _gathered(node: Node) -> Node | None:
    """A pending gather of a computed array by computed indices (`Xi[rem]` above eager_size:
    mandelbrot's first step), computed now as a leaf for a write by it (`write_indexed`), which
    reads its values anyway: left pending, the first write of the loop was the general path's
    scatter over `N_ = np.zeros(...)`, and every later write chained onto that scatter (19 ms
    of mandelbrot's 41, NumPy 1.9). None where it is no such gather, or it raises (the general
    path raises that error where it did)."""
    if node.op not in SEED_OPS or not LIMIT[0] or _state.busy or _state.stand_ins:
        return None
    args = _leaf_values(node.inputs)
    if args is None:
        return None
    try:
        return _leaf(node, _run_one(node, args))
    except Exception:  # noqa: BLE001  (an index out of bounds: the general path's error)
        return None


def write_basic_through_view(view: Any, key: Any, value: Any) -> bool:
    """`row[j] = v` (`A[i][j] = v`) for a view in sync with its root: `write_basic` into NumPy's
    view of the root's buffer, under `write_through_view`'s proof (only the root and its live
    views read the buffer: `view_holders`, Python's counts). False leaves it to the general
    path (lazyarray/writes.py)."""
    link = view._view
    root, view_node, old = link[0], link[1], link[2]
    if not link[3] or view._node is not view_node or root._node is not old or len(link) != 4:
        return False  # (five items: a dynamic view, a gather: writes.py scatters by its key)
    data = old.data
    if (old.op is not _INPUT or type(data) is not np.ndarray or type(root._view) is not list
            or _state.busy or _state.stand_ins):
        return False
    target = view_value(view_node)
    if target is None or target.base is not data:  # (a reshape NumPy would copy)
        return False
    write = _basic_write(key, value, target.shape, target.dtype)
    if write is None:
        return False
    live = []
    v = None
    for r in root._view:
        v = r()
        if v is not None:
            live.append(v)
    del link, view_node, root, v
    holders = view_holders(old, live)
    # references to `old`: the root's _node, this frame's `old`, getrefcount's argument, and the
    # views' links and chains; to the buffer: the node's data, `data`, the argument, `target`
    if holders is None or _getrefcount(old) > 3 + holders or _data_refs(data) > 4:
        return False
    flags = data.flags
    if not flags.owndata or not flags.writeable:
        return False
    if not _write(target, *write):
        return False
    for v in live:  # the views read the buffer again, evaluated ones included
        v._node = v._view[1]
    return True


def is_same_view(root_node: Node, key: Any, link: tuple) -> bool:
    """Whether the view `link` (writes.py's (root, view node, root node, writable)), in sync with
    `root_node`, is NumPy's `data[key]` of that node's computed buffer: the same memory, shape
    and strides. `A[:, j] -= x` assigns the view back after writing it (`A[:, j] = view`), a
    no-op then; this answers without building `A[:, j]`'s nodes (writes.same_view's way)."""
    data = root_node.data
    if (link[2] is not root_node or root_node.op is not _INPUT or type(data) is not np.ndarray):
        return False
    if type(key) is not tuple:
        key = (key,)
    if len(key) > data.ndim:
        return False
    element = len(key) == data.ndim
    for k in key:
        if type(k) is slice:
            element = False
        elif type(k) is not int and type(k) not in _NUMPY_INTS:
            return False
    if element:
        return False  # NumPy's scalar, not a view: writes.same_view decides
    try:
        target = data[key]
    except IndexError:
        return False
    value = view_value(link[1])
    if value is None or value.shape != target.shape:
        return False
    if _C_SAME_VIEW is not None:
        return _C_SAME_VIEW(value, target)
    return (value.strides == target.strides
            and value.__array_interface__["data"][0] == target.__array_interface__["data"][0])


def _basic_write(key: Any, value: Any, shape: tuple, dtype: np.dtype) -> tuple | None:
    """(key as a tuple, whether it selects one element, the value to assign) for a write NumPy's
    `data[key] = value` does as the general path would, else None. The key: Python or NumPy ints
    in range and slices. The value: a Python float (or NumPy float64) into float64, a Python int into
    float64 or an integer dtype (in its range), a Python bool into bool, the node of a computed
    value of the array's dtype (a buffer or a view of one; 0-d for an element), or for a region
    an ndarray whose cast cannot warn (its dtype, or real numbers into floats) or a flat list of
    Python floats and ints into float64 (14-15 us on the general path, NumPy's 0.3)."""
    if type(key) is not tuple:
        key = (key,)
    if len(key) > len(shape):
        return None
    element = len(key) == len(shape)
    for k, n in zip(key, shape):
        if type(k) is int or type(k) in _NUMPY_INTS:  # (`for i in np.arange(n)`)
            if not -n <= k < n:
                return None
        elif type(k) is slice:
            element = False
        else:
            return None
    tv = type(value)
    if tv is float or tv is _NP_FLOAT64:
        if dtype != _FLOAT64:
            return None
    elif tv is int:  # NumPy's conversion, where it cannot raise
        if dtype is _BOOL or dtype == _BOOL:  # (`Z[y, x] = 1` into a maze: NumPy's truth of
            value = bool(value)  # any int, 2**70 too; the general path took ~12 us, NumPy 0.07)
        elif dtype != _FLOAT64 and not (dtype.kind in "iu" and _int_fits(value, dtype)):
            return None
    elif tv is bool:  # `is_prime[i * i::i] = False` (a sieve: a plan per stride before)
        if dtype != _BOOL:
            return None
    elif tv is Node:  # an Array's node: computed, of the array's dtype
        if value.dtype != dtype or (element and value.shape != ()):
            return None
        value = value.data if not value.inputs and value.op is _INPUT else view_value(value)
        if type(value) is not np.ndarray:
            return None
    elif tv is np.ndarray:  # `A[i, :] = row` of NumPy's values: a cast that cannot warn
        if element or (value.dtype != dtype and not (
                value.dtype.kind in "biuf" and dtype.kind in "fc"
                and np.can_cast(value.dtype, dtype, "safe"))):
            return None
    elif tv is list and dtype == _FLOAT64 and not element:  # `A[i, :] = [0.5, 1, 2.0]`
        for v in value:
            if type(v) is not float and type(v) is not int:
                return None
        try:
            value = np.array(value, dtype=_FLOAT64)
        except OverflowError:  # (an int past float64's range: the general path's error)
            return None
    else:
        return None
    return key, element, value


_F32_MAX = float(np.finfo(np.float32).max)


def masked_scalar(value: Any, dtype: np.dtype) -> Any:
    """A Python scalar for `x[mask] = value` as the value NumPy's assignment stores into `dtype`,
    where that assignment can neither raise nor warn (`h[h < 0] = 0`, an int into a float
    array: the general path took ~30 us, NumPy 3); None for the general path, which raises
    NumPy's OverflowError / ValueError / warning at the line."""
    t, kind = type(value), dtype.kind
    if kind == "f" and dtype.itemsize >= 4:
        if t is float:
            overflows = dtype.itemsize == 4 and math.isfinite(value) and abs(value) > _F32_MAX
            return None if overflows else value  # (NumPy warns 'overflow encountered in cast')
        if t is int or t is bool:
            return float(value) if -_EXACT <= value <= _EXACT else None
        return None
    if kind in "iu" and (t is int or t is bool):
        return int(value) if _int_fits(int(value), dtype) else None
    if kind == "b" and (t is bool or t is int):
        return bool(value)  # (NumPy stores any int's truth: 2**70 too)
    return None


_INT_RANGES: dict[np.dtype, tuple[int, int]] = {
    np.dtype(t): (int(np.iinfo(t).min), int(np.iinfo(t).max))
    for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)}
_BOOL = np.dtype(np.bool_)


def _int_fits(value: int, dtype: np.dtype) -> bool:
    """Whether a Python int converts to an integer dtype exactly (NumPy raises OverflowError
    otherwise: the general path says so at the line)."""
    lo, hi = _INT_RANGES[dtype]
    return lo <= value <= hi


def _write(data: np.ndarray, key: tuple, element: bool, value: Any) -> bool:
    """`data[key] = value`, or False (nothing written) where NumPy would broadcast differently
    from the general path: extra leading dims, shapes that do not broadcast."""
    if element:
        data[key] = value
        return True
    target = data[key]
    if type(value) is np.ndarray and value.ndim > target.ndim:
        return False  # NumPy drops leading unit dims here; the general path says what it does
    try:
        target[...] = value
    except ValueError:  # shapes that do not broadcast: nothing written
        return False
    return True


def write_in_place(old: Node, new: Node, holders: int = 0) -> bool:
    """Apply the scatter `new` (over the leaf `old`) to `old`'s buffer itself, when nothing else
    can read that buffer: the handle being written holds the only reference to `old` (besides
    `new`, this call and the `holders` its views account for), `old`'s buffer is its own (not
    the user's array, not a view, not exported by np.asarray / DLPack: Python holds no other
    reference to it) and the written values are computed and small. Then the handle keeps
    `old`. Returns whether it did."""
    if (new.op is not _SCATTER or old.op is not _INPUT or new.inputs[0] is not old
            or new.dtype != old.dtype or LIMIT[0] == 0):
        return False
    data = old.data
    if type(data) is not np.ndarray or not data.flags.owndata:
        return False
    if _getrefcount(old) > _OLD_REFS + holders or _data_refs(data) > 3:
        return False
    return _scatter_now(old, new)


def _scatter_values(new: Node) -> list | None:
    """The scatter `new`'s values and indices as NumPy arrays, computed now where small; None
    where one is not computable here (too large, a device buffer, la.jit's tracer)."""
    values = []
    for v in new.inputs[1:]:
        if v.inputs:
            done = run_now_any(v)
            if done is None:
                done = loop_update_now(v)
            if done is None:
                return None
            if done.inputs:  # a view of its buffer in NumPy's memory order (`_leaf`)
                values.append(view_value(done))
                continue
            v = done
        elif v.op is _SCALAR and type(v.data) not in _SCALAR_TYPES:
            return None
        elif v.op is _INPUT and type(v.data) is not np.ndarray:
            return None
        values.append(v.data if v.op is _INPUT else np.asarray(v.data, v.dtype))
    return values


def loop_update_now(v: Node) -> Node | None:
    """A written value above eager_size computed now, where it combines a computed region with
    results of this rule: householder's `R[j:, :] = R[j:, :] - np.outer(tau * w, w @ R[j:, :])`
    (5,940 elements at j=1; `tau`, `w` and the product at-once leaves). Left lazy, it was a
    scatter whose value's shape shrinks with `j`: a new plan per column (99 a call) and each
    read of R ran one. Up to `_UPDATE` times eager_size (NumPy's passes over the value stay in
    cache) and a graph `_walk` takes; None otherwise (the caller's lazy path). Also `x op= v`
    of a root's buffer (mnist_mlp's `weights_1 += learning_rate * np.outer(layer_0, delta)`,
    lazyarray/writes.py `inplace_rest`)."""
    if (v.size > LIMIT[0] * _UPDATE or _state.busy or _state.stand_ins
            or not _reads_at_once_leaf(v)):
        return None
    return _walk_and_run(v, v.size)  # (the value is no held intermediate: the write's argument)


def _reads_at_once_leaf(node: Node) -> bool:
    """Whether a leaf of `node`'s graph (at most `_MAX_NODES` nodes looked at) is a result of
    this rule: the value belongs to an index loop's iteration, not to a whole-array program
    (a stencil of views of one buffer, which one fused plan computes better)."""
    stack, seen = [node], 0
    while stack and seen <= _MAX_NODES:
        n = stack.pop()
        seen += 1
        if not n.inputs:
            if n.attrs is EAGER_MARK:
                return True
            continue
        stack.extend(n.inputs)
    return False


def _scatter_now(old: Node, new: Node, values: list | None = None) -> bool:
    """The scatter `new` written into `old`'s buffer, its values computed now if small (or
    `values`, _scatter_values' already)."""
    data = old.data
    if values is None:
        values = _scatter_values(new)
    if values is None:
        return False
    mode, spec = new.attrs
    was_writeable = data.flags.writeable
    if not was_writeable:
        data.flags.writeable = True
    before = _touched(data, values, mode, spec)
    token = fp_status.enter_numpy_errstate()
    try:
        fp_status.clear()
        try:
            scatter_into(data, values[0], tuple(values[1:]), mode, spec)
        except (IndexError, ValueError) as exc:  # (its bounds check writes nothing first)
            raise _bind.fail(type(exc), str(exc), new.site) from None  # the user's line
        bits = fp_status.test()
    finally:
        fp_status.leave_numpy_errstate(token)
        if not was_writeable:
            data.flags.writeable = False
    if bits:
        _scatter_fired(new, bits, data, before, values)
    return True


def _touched(data: np.ndarray, values: tuple, mode: str, spec: tuple) -> tuple | None:
    """(index, old values) of the elements an accumulating scatter (add, multiply, min, max)
    reads and writes in place: its flags' report replays it on them (`_scatter_fired`). None
    for `set` (it reads none) or an index the scatter's own bounds check refuses."""
    if mode == "set":
        return None
    try:
        index = scatter_index(spec, tuple(values[1:]))
        return index, data[index].copy()
    except (IndexError, ValueError):
        return None


def _scatter_fired(new: Node, bits: int, data: np.ndarray, before: tuple | None,
                   values: tuple) -> None:
    """Report an in-place scatter's flags: by NumPy's own run on a copy holding the touched
    elements' old values (the re-run of `new`'s graph read the written buffer: `np.add.at(a,
    [0], 1e308)` of a = [1e308] re-ran inf + 1e308 and warned nothing; fuzz50)."""
    if before is None:
        fired([new], bits, at_the_line=True)
        return
    index, old = before
    mode, spec = new.attrs

    def replay() -> None:
        copy = data.copy()
        copy[index] = old
        scatter_into(copy, values[0], tuple(values[1:]), mode, spec)

    fired((), bits, rerun=replay, at_the_line=True)


if _FAST is not None and hasattr(_FAST, "set_fill_read"):  # the C getitem's reads of a fill
    _FAST.set_fill_read(fill_read)
    if hasattr(_FAST, "set_spare_pool"):
        _FAST.set_spare_pool(spare_outputs.held_table())  # (its reference does not share a buffer)


_result_layout.VIEW_VALUE[0] = view_value
