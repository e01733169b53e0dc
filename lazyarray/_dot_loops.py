"""The arithmetic of NumPy's dot loops: `vdot`, `einsum` (unoptimized), `correlate` and
`convolve` compute in loops that check no floating-point flags (`np.vdot([inf, 1], [0, 1])` is
NaN silently; `np.dot`, `np.vecdot` and `@` warn). Their compositions here multiply, add, sum and
matmul through the twins of graph/ops_unchecked.py, whose flags the report leaves unread."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _bind
from ._matmul import matmul_general
from .array import Array
from .graph.node import user_site
from .graph.ops_unchecked import DOT_ADD as _ADD, DOT_CAST as _CAST, DOT_MATMUL as _MATMUL, \
    DOT_MULTIPLY as _MULTIPLY
from .graph.ops_unchecked import DOT_SUM as _SUM
from .reductions import _reduce, _sum_dtype


def multiply(x: Any, y: Any) -> Array:
    return Array(_bind.elementwise(_MULTIPLY, x, y, site=user_site(1)))


def astype(x: Array, dtype: np.dtype) -> Array:
    """NumPy's float16 dot loops sum in float32 and round to half once, flags unchecked."""
    return Array(_bind.primitive(_CAST, (x._node,), (), x.shape, np.dtype(dtype), user_site(1)))


def add(x: Any, y: Any) -> Array:
    return Array(_bind.elementwise(_ADD, x, y, site=user_site(1)))


def sum(x: Array, axis: Any = None, dtype: Any = None) -> Array:  # noqa: A001
    """np.sum's dtype rule (small integers widen) where `dtype` is None."""
    node = x._node
    return _reduce("sum", node, axis, False, dtype or _sum_dtype(node.dtype), user_site(1), _SUM)


def matmul(x: Any, y: Any) -> Array:
    return matmul_general(x, y, user_site(1), _MATMUL)
