"""Leaves, views, reductions, matmul and the opaque library ops.

Attrs are hashable tuples of Python values, so they take part in structural keys. Reductions carry
(axes, keepdims) with axes normalized and sorted; views carry their full target description.
"""

from __future__ import annotations

import numpy as np

from . import derivatives as d
from . import semantics
from .registry import OPERAND_ORDER, OpDef, OpKind, register


def _no_reference(xs, attrs, dtype):
    raise RuntimeError("leaves carry data; they have no reference implementation")


# --- leaves ------------------------------------------------------------------------------------------
INPUT = register(OpDef("input", OpKind.LEAF, _no_reference, arity=0,
                       doc="a buffer bound at run time (C-contiguous)"))
SCALAR = register(OpDef("scalar", OpKind.LEAF, _no_reference, arity=0, attr_names=("weak",),
                        doc="a 0-d value bound at run time: a kernel argument, never baked into code"))

# --- views: index arithmetic, never copies -------------------------------------------------------------


def slice_index(spec: tuple[tuple[int | None, int, int], ...],
                starts: tuple = ()) -> tuple[slice, ...]:
    """Python slices for a normalized (start, step, length) per dimension. A start of None is
    given at run time: the next of `starts` (the slice node's scalar inputs, in dim order)."""
    out, given = [], iter(starts)
    for start, step, length in spec:
        if start is None:
            start = int(next(given))
        if length == 0:
            out.append(slice(0, 0, 1))
            continue
        stop = start + step * length
        out.append(slice(start, stop if stop >= 0 else None, step))
    return tuple(out)


def _scatter_spec(attrs: tuple, starts: tuple) -> tuple:
    """The scatter spec writing the sliced positions. Run-time starts are read from their
    scalar leaves, which hold the checked Python ints the indexing line gave."""
    values = tuple(s.data for s in starts)
    return tuple(("slice", s.start, s.stop, s.step) for s in slice_index(attrs[0], values))


def _slice_vjp(g, y, xs, attrs):
    """The cotangent of a slice is g written into zeros at the sliced positions (none reaches a
    run-time start: an index has no derivative)."""
    spec = _scatter_spec(attrs, xs[1:])
    return (d.scatter(d.zeros(xs[0].shape, g.dtype), g, (), "set", spec),) + (None,) * (
        len(xs) - 1)


def _slice_write_back(parent, value, attrs, *starts):
    """The parent with `value` written at the sliced positions."""
    return d.scatter(parent, d.cast(value, parent.dtype), (), "set", _scatter_spec(attrs, starts))


BROADCAST = register(OpDef("broadcast_to", OpKind.VIEW,
                           lambda xs, a, d: np.broadcast_to(xs[0], a[0]), attr_names=("shape",),
                           properties=frozenset({"output_shape_attr"}),  # graph/generic.py
                           vjp=lambda g, y, xs, a: (d.sum_to(g, xs[0].shape),)))
RESHAPE = register(OpDef("reshape", OpKind.VIEW,
                         lambda xs, a, d: np.asarray(xs[0]).reshape(a[0]), attr_names=("shape",),
                         vjp=lambda g, y, xs, a: (d.reshape(g, xs[0].shape),),
                         write_back=lambda p, v, a: d.reshape(v, p.shape)))
PERMUTE = register(OpDef("permute", OpKind.VIEW,
                         lambda xs, a, d: np.asarray(xs[0]).transpose(a[0]), attr_names=("axes",),
                         properties=frozenset({"composable"}),
                         vjp=lambda g, y, xs, a: (d.permute(g, d.inverse_permutation(a[0])),),
                         write_back=lambda p, v, a: d.permute(v, d.inverse_permutation(a[0]))))
SLICE = register(OpDef("slice", OpKind.VIEW,
                       lambda xs, a, d: xs[0][slice_index(a[0], xs[1:])], arity=-1,
                       attr_names=("spec",),
                       doc="spec: (start, step, length) per dim; negative steps flip. A start of "
                           "None is a run-time int64 scalar input (inputs[1:], in dim order): "
                           "the key holds steps and lengths only (docs/caching.md)",
                       vjp=_slice_vjp, write_back=_slice_write_back))

# --- reductions ----------------------------------------------------------------------------------------


def _reduction(name, fn, identity, c_combine, properties=(), vjp=None, fold=None):
    def reference(xs, attrs, dtype):
        axes, keepdims = attrs  # NumPy's own floating-point reports (lazyarray/fp_errors.py)
        return np.asarray(fn(xs[0], axis=axes, keepdims=keepdims, dtype=dtype))

    return register(OpDef(name, OpKind.REDUCTION, reference, attr_names=("axes", "keepdims"),
                          c=c_combine, reduce_identity=identity,
                          properties=frozenset(properties), vjp=vjp, fold=fold,
                          differentiable=vjp is not None))


def _spread(g, xs, attrs):
    """A reduction's cotangent broadcast back over the reduced axes, in the input's dtype."""
    return d.unreduce(d.cast(g, xs[0].dtype), xs[0].shape, *attrs)


def _sum_vjp(g, y, xs, attrs):
    return (_spread(g, xs, attrs) if xs[0].dtype.kind == "f" else None,)


def _prod_vjp(g, y, xs, attrs):
    """g * prod / x where x != 0. At a zero, the product of the others: that of the non-zeros
    if it is the only zero of its slice, else 0 (prod / x would be 0 / 0 there)."""
    x, axes = xs[0], attrs[0]
    zero = d.compare("equal", x, 0.0)
    others = d.node("prod", (d.where(zero, 1.0, x),), (axes, True),
                    tuple(1 if i in axes else s for i, s in enumerate(x.shape)), x.dtype)
    zeros = d.sum_(d.where(zero, 1.0, 0.0, like=x), axes, keepdims=True)
    at_zero = d.where(d.compare("equal", d.broadcast(zeros, x.shape), 1.0),
                      d.broadcast(others, x.shape), 0.0)
    share = d.where(zero, at_zero, d.div(_spread(y, xs, attrs), x))
    return (d.mul(_spread(g, xs, attrs), share),)


def _extremum_vjp(g, y, xs, attrs):
    """max/min: the cotangent is shared evenly among the elements equal to the result (JAX)."""
    x = xs[0]
    hit = d.where(d.compare("equal", x, _spread(y, xs, attrs)), 1.0, 0.0, like=x)
    count = d.broadcast(d.sum_(hit, attrs[0], keepdims=True), x.shape)
    return (d.mul(_spread(g, xs, attrs), d.div(hit, count)),)


def _max_identity(dtype: np.dtype):
    return -np.inf if dtype.kind == "f" else (False if dtype.kind == "b" else np.iinfo(dtype).min)


def _min_identity(dtype: np.dtype):
    return np.inf if dtype.kind == "f" else (True if dtype.kind == "b" else np.iinfo(dtype).max)


def _untyped(fn):
    """A reduction without a dtype argument, cast to the node's dtype (a copy only where it
    differs: `astype` always copied, ~0.5 us of an at-once pooling window's max)."""
    return lambda x, axis, keepdims, dtype: np.asarray(fn(x, axis=axis, keepdims=keepdims)).astype(
        dtype, copy=False)


# "accumulates": float32 partial results may be carried in float64 (more accurate, same result dtype).
# Integer sums and products wrap like NumPy's (through the prelude's unsigned helpers: no C overflow UB).
# sum and prod call their ufunc's reduce: np.sum's Python wrapper was ~1.3 us of an at-once sum of
# (4, 5, 5, 1, 6) float32 (lenet's window, 3.9 us in all); for arrays the two are one call.
SUM = _reduction("sum", np.add.reduce, lambda dt: 0,
                 {"f": "{acc} = {acc} + {0}", "b": "{acc} = {acc} | {0}",
                  "*": "{acc} = la_add_{S}({acc}, {0})"}, ("linear", "accumulates"), _sum_vjp,
                 fold=np.add)
PROD = _reduction("prod", np.multiply.reduce, lambda dt: 1,
                  {"f": "{acc} = {acc} * {0}", "b": "{acc} = {acc} & {0}",
                   "*": "{acc} = la_mul_{S}({acc}, {0})"}, ("accumulates",), _prod_vjp,
                  fold=np.multiply)
def _masked_sum(xs, attrs, dtype):
    """NumPy's `add.reduce(x, where=mask)`: its masked loop sums each run of True elements
    pairwise and adds the runs one after another, so `where(mask, x, 0)` summed pairwise differs
    in the last bits (fuzz44's seeds 330009, 410016: `np.var(c, where=c != 0)`). One library call
    on the host: NumPy's own order."""
    axes, keepdims = attrs
    return np.asarray(np.add.reduce(xs[0], axis=axes, keepdims=keepdims, where=xs[1],
                                    dtype=dtype))


def _masked_sum_vjp(g, y, xs, attrs):
    return (d.where(xs[1], d.unreduce(d.cast(g, xs[0].dtype), xs[0].shape, *attrs), 0.0),
            None)


MASKED_SUM = register(OpDef("masked_sum", OpKind.OPAQUE, _masked_sum, arity=2,
                            attr_names=("axes", "keepdims"), vjp=_masked_sum_vjp,
                            properties=frozenset({"dims_from_inputs"}),
                            doc="sum of x1 over axes where the bool x2 (x1's shape) is True, in "
                                "NumPy's order (its masked loop)"))


# "order_free": the fold order can change at most which of equal extremes (+0 or -0) or which NaN
# payload is the result (a backend may fold in any order it likes, e.g. in more lanes).
MAX = _reduction("max", _untyped(np.maximum.reduce), _max_identity,
                 {"*": "{acc} = la_max_{S}({acc}, {0})"},
                 ("needs_nonempty", "order_free"), _extremum_vjp)
MIN = _reduction("min", _untyped(np.minimum.reduce), _min_identity,
                 {"*": "{acc} = la_min_{S}({acc}, {0})"},
                 ("needs_nonempty", "order_free"), _extremum_vjp)
# any/all by their ufuncs' reduce, as np.any/np.all compute them (the same bool for every
# dtype, empty and 0-d inputs): np.any's Python wrappers were ~2 us of an index loop's
# `np.isnan(row).any()` (csv_table)
ANY = _reduction("any", _untyped(np.logical_or.reduce), lambda dt: False,
                 {"*": "{acc} = {acc} || {0}"}, ("order_free",))
ALL = _reduction("all", _untyped(np.logical_and.reduce), lambda dt: True,
                 {"*": "{acc} = {acc} && {0}"}, ("order_free",))


def _arg_reduction(name, fn, better, identity):
    """`better` is the C condition under which value {0} replaces the best so far {best}: strictly
    better (first occurrence wins) or the first NaN (NaN counts as the extreme, as in NumPy)."""

    method = fn.__name__  # (ndarray's own method: np.argmax's Python wrapper costs ~0.5 us)

    def reference(xs, attrs, dtype):
        (axis,), keepdims = attrs
        found = getattr(xs[0], method)(axis=axis, keepdims=keepdims)
        return np.asarray(found).astype(dtype, copy=False)

    c = {"f": f"({{0}} {better} {{best}} || ({{0}} != {{0}} && {{best}} == {{best}}))",
         "*": f"({{0}} {better} {{best}})"}
    return register(OpDef(name, OpKind.REDUCTION, reference, attr_names=("axes", "keepdims"),
                          c=c, reduce_identity=identity,
                          properties=frozenset({"needs_nonempty", "index"}),
                          differentiable=False))


ARGMAX = _arg_reduction("argmax", np.argmax, ">", _max_identity)
ARGMIN = _arg_reduction("argmin", np.argmin, "<", _min_identity)

# --- matmul: a library call ---------------------------------------------------------------------------
def _matmul_reference(xs, attrs, dtype):
    """np.matmul with broadcast operands materialized: an input here may be a broadcast
    (`la.ones(n) * s`, a stride 0), where NumPy's matmul takes its own loop, a float32 sum in
    plain order (0.13% off for 1e5 terms); NumPy's user had a materialized product there, which
    goes to BLAS. Other layouts stay (a transposed `W.T` is NumPy's gemv with a transpose flag, as
    the user's; made contiguous, it was a gemm that sums in another order)."""
    return np.matmul(*(np.ascontiguousarray(x) if 0 in x.strides and x.size > 1 else x
                       for x in xs))


MATMUL = register(OpDef("matmul", OpKind.MATMUL, _matmul_reference, arity=2,
                        doc="(..., m, k) @ (..., k, n) with batch broadcasting; both inputs >= 2-D",
                        vjp=lambda g, y, xs, a: (d.matmul(g, d.matrix_transpose(xs[1])),
                                                 d.matmul(d.matrix_transpose(xs[0]), g))))


def _concat_vjp(g, y, xs, attrs):
    """Each input's cotangent is its slab of g along the concatenation axis."""
    (axis,), out, start = attrs, [], 0
    for x in xs:
        n = x.shape[axis]
        spec = tuple((start, 1, n) if i == axis else (0, 1, s) for i, s in enumerate(g.shape))
        out.append(d.cast(d.slice_(g, spec), x.dtype) if x.dtype.kind == "f" else None)
        start += n
    return out


def _cumsum_vjp(g, y, xs, attrs):
    """The transpose of a running sum is the running sum from the other end."""
    (axis,) = attrs
    if xs[0].dtype.kind != "f":
        return (None,)
    return (d.cast(d.flip(d.cumsum(d.flip(g, axis), axis), axis), xs[0].dtype),)


def _take_vjp(g, y, xs, attrs):
    """Scatter-add g back to the gathered positions (repeated indices accumulate)."""
    x, indices = xs
    (axis,) = attrs
    spec = (("slice", None, None, None),) * axis + (("array", 0),)
    return d.scatter(d.zeros(x.shape, x.dtype), g, (indices,), "add", spec), None


def _scatter_vjp(g, y, xs, attrs):
    """set: x's cotangent is g with the overwritten positions zeroed, the values' is g there;
    add: both see g (the values' gathered at the index)."""
    _, values, *index_nodes = xs
    mode, spec = attrs
    if mode not in ("set", "add"):
        raise NotImplementedError(f"no derivative rule for .at[...].{mode}()")
    picked = d.gather(g, spec, index_nodes)
    if picked.shape != values.shape:
        picked = (d.sum_to(picked, values.shape) if picked.ndim >= values.ndim
                  else d.reshape(picked, values.shape))
    gx = g if mode == "add" else d.scatter(g, d.zeros(values.shape, g.dtype), index_nodes,
                                           "set", spec)
    return (gx, picked) + (None,) * len(index_nodes)

# --- opaque library ops: run through their reference on every CPU backend -----------------------------
CONCAT = register(OpDef("concat", OpKind.OPAQUE, lambda xs, a, d: np.concatenate(xs, axis=a[0]),
                        arity=-1, attr_names=("axis",), vjp=_concat_vjp,
                        properties=frozenset({OPERAND_ORDER})))
CUMSUM = register(OpDef("cumsum", OpKind.OPAQUE,
                        lambda xs, a, d: np.cumsum(xs[0], axis=a[0], dtype=d), attr_names=("axis",),
                        vjp=_cumsum_vjp, properties=frozenset({OPERAND_ORDER})))


def _take(xs, attrs, dtype):
    x, indices = xs
    (axis,) = attrs
    try:
        return np.take(x, indices, axis=axis)  # NumPy checks the bounds while gathering
    except IndexError:
        n = x.shape[axis]
        bad = (indices < -n) | (indices >= n)
        if bad.any() and x.size:  # (the first bad index in order, in NumPy's words)
            raise IndexError(f"index {int(indices[bad].flat[0])} is out of bounds for axis "
                             f"{axis} with size {n}") from None
        raise


TAKE = register(OpDef("take", OpKind.OPAQUE, _take, arity=2, attr_names=("axis",),
                      doc="integer-array gather; out-of-bounds indices raise IndexError at evaluation",
                      # its result's dims are its inputs' dims and its reference reads sizes off
                      # the arrays: a size-generic plan may hold it (graph/generic.py)
                      properties=frozenset({"dims_from_inputs"}), vjp=_take_vjp))


def scatter_index(spec: tuple, arrays: tuple[np.ndarray, ...]) -> tuple:
    """Rebuild a NumPy index from its hashable spec; ('array', k) refers to the k-th index input."""
    out = []
    for item in spec:
        tag = item[0]
        if tag == "int":
            out.append(item[1])
        elif tag == "slice":
            out.append(slice(item[1], item[2], item[3]))
        elif tag == "none":
            out.append(None)
        elif tag == "ellipsis":  # covers no dimension, but separates advanced indices
            out.append(Ellipsis)
        else:
            out.append(arrays[item[1]])
    return tuple(out)


_SCATTER_UFUNC = {"add": np.add, "multiply": np.multiply, "min": np.minimum, "max": np.maximum}


def _scatter_into(out, xs, attrs):
    """`x.at[index].<mode>(values)` written into `out`, which holds x's value (x's own buffer when
    the plan donated it): bounds are checked first, so an error writes nothing."""
    _, values, *index_arrays = xs
    mode, spec = attrs
    try:  # (an empty selection: NumPy checks none of the indices, `A[[], [7]] = v`; fuzz41)
        empty = bool(index_arrays) and 0 in np.broadcast_shapes(*[a.shape for a in index_arrays])
    except ValueError:
        empty = False
    for k, arr in enumerate(index_arrays if not empty else ()):
        axis_items = [i for i, item in enumerate(spec) if item[0] == "array" and item[1] == k]
        dim = sum(1 for item in spec[: axis_items[0]] if item[0] not in ("none", "ellipsis"))
        n = out.shape[dim]
        # two reductions, no temporaries: 0.07 ms for 400,000 indices, the masks 0.42 ms
        if arr.size and (arr.min() < -n or arr.max() >= n):
            bad = arr[(arr < -n) | (arr >= n)].flat[0]
            raise IndexError(f"index {int(bad)} is out of bounds for axis {dim} with size {n}")
    index = scatter_index(spec, tuple(index_arrays))
    if mode == "set":
        out[index] = values
    else:
        _SCATTER_UFUNC[mode].at(out, index, values)


def _scatter(xs, attrs, dtype):
    out = np.array(xs[0], dtype=dtype, copy=True)
    _scatter_into(out, xs, attrs)
    return out


def scatter_into(out: np.ndarray, values: np.ndarray, index_arrays: tuple, mode: str,
                 spec: tuple) -> None:
    """`_scatter_into` from its parts (lazyarray/eager.py writes a buffer nothing else reads)."""
    _scatter_into(out, (None, values, *index_arrays), (mode, spec))


SCATTER = register(OpDef("scatter", OpKind.OPAQUE, _scatter, arity=-1, attr_names=("mode", "spec"),
                         doc="x.at[index].set/add/multiply/min/max(values): a functional update",
                         vjp=_scatter_vjp, in_place=_scatter_into))

__all__ = ["semantics"]
