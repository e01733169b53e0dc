"""One-operand einsum sums (`'ij->i'`, `'ii'`, `'i->'`) in NumPy's own order.

NumPy sums a one-operand einsum in its sum-of-products loop (SIMD lanes, four vectors a step),
not in np.sum's pairwise order that la.sum follows: a composition of diagonal and sum gave row
sums of a (200, 300) matrix a last bit off on 157 of 200 rows (stop 52). Small computed operands
take NumPy's function at once (lazyarray/host_now.py); this op is the same call inside a plan,
past the at-once size and on the general path. One library call on the host (np.einsum) and
cupy.einsum on the device (whose order is CuPy's: the GPU sums are not NumPy's bits anyway).
The operand is already cast to the result dtype by the front end (lazyarray/contraction.py).
No derivative rule: la.grad traces the composition instead (lazyarray/jit.py `differentiating`).
"""

from __future__ import annotations

import numpy as np

from .registry import OpDef, OpKind, register


def _reference(xs, attrs, dtype):
    return np.asarray(np.einsum(attrs[0], xs[0]), dtype=dtype)


def _on_device(xs, attrs, dtype):
    import cupy  # optional: present with a GPU

    return cupy.einsum(attrs[0], xs[0]).astype(dtype, copy=False)


EINSUM_SUMS = register(OpDef(
    "einsum_sums", OpKind.OPAQUE, _reference, arity=1, attr_names=("subscripts",),
    cupy=_on_device, differentiable=False,
    properties=frozenset({"derivative_not_implemented"}),
    doc="einsum(subscripts, x) of one operand that sums a label, in NumPy's einsum order"))
