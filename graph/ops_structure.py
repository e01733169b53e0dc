"""Leaves, views, reductions, matmul and the opaque library ops.

Attrs are hashable tuples of Python values, so they take part in structural keys. Reductions carry
(axes, keepdims) with axes normalized and sorted; views carry their full target description.
"""

from __future__ import annotations

import numpy as np

from . import semantics
from .registry import OpDef, OpKind, register


def _no_reference(xs, attrs, dtype):
    raise RuntimeError("leaves carry data; they have no reference implementation")


# --- leaves ------------------------------------------------------------------------------------------
INPUT = register(OpDef("input", OpKind.LEAF, _no_reference, arity=0,
                       doc="a buffer bound at run time (C-contiguous)"))
SCALAR = register(OpDef("scalar", OpKind.LEAF, _no_reference, arity=0, attr_names=("weak",),
                        doc="a 0-d value bound at run time: a kernel argument, never baked into code"))

# --- views: index arithmetic, never copies -------------------------------------------------------------


def slice_index(spec: tuple[tuple[int, int, int], ...]) -> tuple[slice, ...]:
    """Python slices for a normalized (start, step, length) per dimension."""
    out = []
    for start, step, length in spec:
        if length == 0:
            out.append(slice(0, 0, 1))
            continue
        stop = start + step * length
        out.append(slice(start, stop if stop >= 0 else None, step))
    return tuple(out)


BROADCAST = register(OpDef("broadcast_to", OpKind.VIEW,
                           lambda xs, a, d: np.broadcast_to(xs[0], a[0]), attr_names=("shape",)))
RESHAPE = register(OpDef("reshape", OpKind.VIEW,
                         lambda xs, a, d: np.reshape(xs[0], a[0]), attr_names=("shape",)))
PERMUTE = register(OpDef("permute", OpKind.VIEW,
                         lambda xs, a, d: np.transpose(xs[0], a[0]), attr_names=("axes",),
                         properties=frozenset({"composable"})))
SLICE = register(OpDef("slice", OpKind.VIEW,
                       lambda xs, a, d: xs[0][slice_index(a[0])], attr_names=("spec",),
                       doc="spec: (start, step, length) per dim; negative steps flip"))

# --- reductions ----------------------------------------------------------------------------------------


def _reduction(name, fn, identity, c_combine, properties=()):
    def reference(xs, attrs, dtype):
        axes, keepdims = attrs
        with np.errstate(all="ignore"):
            return np.asarray(fn(xs[0], axis=axes, keepdims=keepdims, dtype=dtype))

    return register(OpDef(name, OpKind.REDUCTION, reference, attr_names=("axes", "keepdims"),
                          c=c_combine, reduce_identity=identity,
                          properties=frozenset(properties)))


def _max_identity(dtype: np.dtype):
    return -np.inf if dtype.kind == "f" else (False if dtype.kind == "b" else np.iinfo(dtype).min)


def _min_identity(dtype: np.dtype):
    return np.inf if dtype.kind == "f" else (True if dtype.kind == "b" else np.iinfo(dtype).max)


def _untyped(fn):
    return lambda x, axis, keepdims, dtype: fn(x, axis=axis, keepdims=keepdims).astype(dtype)


# "accumulates": float32 partial results may be carried in float64 (more accurate, same result dtype).
# Integer sums and products wrap like NumPy's (through the prelude's unsigned helpers: no C overflow UB).
SUM = _reduction("sum", np.sum, lambda dt: 0,
                 {"f": "{acc} = {acc} + {0}", "b": "{acc} = {acc} | {0}",
                  "*": "{acc} = la_add_{S}({acc}, {0})"}, ("linear", "accumulates"))
PROD = _reduction("prod", np.prod, lambda dt: 1,
                  {"f": "{acc} = {acc} * {0}", "b": "{acc} = {acc} & {0}",
                   "*": "{acc} = la_mul_{S}({acc}, {0})"}, ("accumulates",))
MAX = _reduction("max", _untyped(np.max), _max_identity, {"*": "{acc} = la_max_{S}({acc}, {0})"},
                 ("needs_nonempty",))
MIN = _reduction("min", _untyped(np.min), _min_identity, {"*": "{acc} = la_min_{S}({acc}, {0})"},
                 ("needs_nonempty",))
ANY = _reduction("any", _untyped(np.any), lambda dt: False, {"*": "{acc} = {acc} || {0}"})
ALL = _reduction("all", _untyped(np.all), lambda dt: True, {"*": "{acc} = {acc} && {0}"})


def _arg_reduction(name, fn, better, identity):
    """`better` is the C condition under which value {0} replaces the best so far {best}: strictly
    better (first occurrence wins) or the first NaN (NaN counts as the extreme, as in NumPy)."""

    def reference(xs, attrs, dtype):
        (axis,), keepdims = attrs
        return np.asarray(fn(xs[0], axis=axis, keepdims=keepdims)).astype(dtype)

    c = {"f": f"({{0}} {better} {{best}} || ({{0}} != {{0}} && {{best}} == {{best}}))",
         "*": f"({{0}} {better} {{best}})"}
    return register(OpDef(name, OpKind.REDUCTION, reference, attr_names=("axes", "keepdims"),
                          c=c, reduce_identity=identity,
                          properties=frozenset({"needs_nonempty", "index"})))


ARGMAX = _arg_reduction("argmax", np.argmax, ">", _max_identity)
ARGMIN = _arg_reduction("argmin", np.argmin, "<", _min_identity)

# --- matmul: a library call ---------------------------------------------------------------------------
MATMUL = register(OpDef("matmul", OpKind.MATMUL, lambda xs, a, d: np.matmul(*xs), arity=2,
                        doc="(..., m, k) @ (..., k, n) with batch broadcasting; both inputs >= 2-D"))

# --- opaque library ops: run through their reference on every CPU backend -----------------------------
CONCAT = register(OpDef("concat", OpKind.OPAQUE, lambda xs, a, d: np.concatenate(xs, axis=a[0]),
                        arity=-1, attr_names=("axis",)))
CUMSUM = register(OpDef("cumsum", OpKind.OPAQUE,
                        lambda xs, a, d: np.cumsum(xs[0], axis=a[0], dtype=d), attr_names=("axis",)))


def _take(xs, attrs, dtype):
    x, indices = xs
    (axis,) = attrs
    n = x.shape[axis]
    bad = (indices < -n) | (indices >= n)
    if bad.any():
        raise IndexError(
            f"index {int(indices[bad].flat[0])} is out of bounds for axis {axis} with size {n}"
        )
    return np.take(x, indices, axis=axis)


TAKE = register(OpDef("take", OpKind.OPAQUE, _take, arity=2, attr_names=("axis",),
                      doc="integer-array gather; out-of-bounds indices raise IndexError at evaluation"))


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
        else:
            out.append(arrays[item[1]])
    return tuple(out)


_SCATTER_UFUNC = {"add": np.add, "multiply": np.multiply, "min": np.minimum, "max": np.maximum}


def _scatter(xs, attrs, dtype):
    x, values, *index_arrays = xs
    mode, spec = attrs
    for k, arr in enumerate(index_arrays):
        axis_items = [i for i, item in enumerate(spec) if item[0] == "array" and item[1] == k]
        dim = sum(1 for item in spec[: axis_items[0]] if item[0] != "none")
        n = x.shape[dim]
        if arr.size and ((arr < -n) | (arr >= n)).any():
            bad = arr[(arr < -n) | (arr >= n)].flat[0]
            raise IndexError(f"index {int(bad)} is out of bounds for axis {dim} with size {n}")
    out = np.array(x, dtype=dtype, copy=True)
    index = scatter_index(spec, tuple(index_arrays))
    if mode == "set":
        out[index] = values
    else:
        _SCATTER_UFUNC[mode].at(out, index, values)
    return out


SCATTER = register(OpDef("scatter", OpKind.OPAQUE, _scatter, arity=-1, attr_names=("mode", "spec"),
                         doc="x.at[index].set/add/multiply/min/max(values): a functional update"))

__all__ = ["semantics"]
