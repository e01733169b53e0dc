"""One-operand einsum sums (`'ij->i'`, `'ii'`, `'i->'`), einsum contractions of more operands and
`np.dot` of an operand past 2-D, in NumPy's own loops' order.

NumPy sums a one-operand einsum in its sum-of-products loop (SIMD lanes, four vectors a step),
not in np.sum's pairwise order that la.sum follows: a composition of diagonal and sum gave row
sums of a (200, 300) matrix a last bit off on 157 of 200 rows (stop 52). Small computed operands
take NumPy's function at once (lazyarray/host_now.py); this op is the same call inside a plan,
past the at-once size and on the general path. One library call on the host (np.einsum) and
cupy.einsum on the device (whose order is CuPy's: the GPU sums are not NumPy's bits anyway).
The operand is already cast to the result dtype by the front end (lazyarray/contraction.py).
No derivative rule: la.grad traces the composition instead (lazyarray/jit.py `differentiating`).

Two or more operands (probe57): NumPy's unoptimized einsum sums their products in one loop, and
`np.dot` (`np.inner`: b's rows for its columns) with an operand of more than 2 dimensions takes no
BLAS product but one BLAS dot per output element (a row of a by a column of b: `np.dot(rgb, [0.299,
0.587, 0.114])`, the gray conversion every image tutorial writes); compositions (matmul's gemv,
pairwise sums) differed from both in the last bits. Each is NumPy's call on the materialized
(C-ordered) operands; cast to the result dtype by the front end; np.dot's report names 'dot' (it
checks the flags).
"""

from __future__ import annotations

import numpy as np

from .registry import OpDef, OpKind, register


def _reference(xs, attrs, dtype):
    return np.asarray(np.einsum(attrs[0], *xs), dtype=dtype)


def _on_device(xs, attrs, dtype):
    import cupy  # optional: present with a GPU

    return cupy.einsum(attrs[0], *xs).astype(dtype, copy=False)


EINSUM_LOOP = register(OpDef(
    "einsum_loop", OpKind.OPAQUE, _reference, arity=-1, attr_names=("subscripts",),
    cupy=_on_device, differentiable=False,
    properties=frozenset({"derivative_not_implemented"}),
    doc="einsum(subscripts, x, ...) that sums a label or multiplies operands, in NumPy's "
        "unoptimized einsum loop"))


def _dot_reference(xs, attrs, dtype):
    return np.asarray(getattr(np, attrs[0])(xs[0], xs[1]), dtype=dtype)


def _dot_on_device(xs, attrs, dtype):
    import cupy  # optional: present with a GPU

    return getattr(cupy, attrs[0])(xs[0], xs[1]).astype(dtype, copy=False)


DOT_ND = register(OpDef(
    "dot_nd", OpKind.OPAQUE, _dot_reference, arity=2, attr_names=("function",),
    cupy=_dot_on_device, differentiable=False, properties=frozenset({"derivative_not_implemented"}),
    doc="np.dot(x, y) or np.inner(x, y) (`function`) with an operand past 2-D: one BLAS dot per "
        "output element, as NumPy"))
