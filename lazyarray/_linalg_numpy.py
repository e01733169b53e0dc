"""NumPy's linalg names outside the Array API, as compositions of la.linalg's calls (lazy):
`cond`, `multi_dot` (NumPy's matrix-chain order), `tensorinv`, `tensorsolve`; `LinAlgError` is
NumPy's class, the one lazyarray raises."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from . import elementwise as ew
from . import manipulation as mp
from . import reductions as red
from .array import Array
from .creation import asarray
from ._linalg_calls import inv, solve, svdvals
from ._linalg_compose import NUMPY_DOT, norm

LinAlgError = np.linalg.LinAlgError


def cond(x: Any, p: Any = None) -> Array:
    """numpy.linalg.cond: s[0]/s[-1] of the singular values (p None/2/-2), else
    norm(x, p) * norm(inv(x), p); NaN from a singular matrix becomes inf unless x has NaNs.
    An exactly singular x with such a p raises inv's LinAlgError (NumPy returns inf)."""
    a = asarray(x)
    if a.ndim >= 2 and a.shape[-1] * a.shape[-2] == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or p == 2 or p == -2:
        s = svdvals(a)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            raise LinAlgError("Last 2 dimensions of the array must be square")
        r = norm(a, p, axis=(-2, -1)) * norm(inv(a), p, axis=(-2, -1))
    x_nan = red.any(ew.isnan(a), axis=(-2, -1))
    return ew.where(ew.isnan(r) & ~x_nan, np.inf, r)


def _chain_order(shapes: Sequence[int]) -> list[list[int]]:
    """NumPy's _multi_dot_matrix_chain_order: the split points minimizing scalar products."""
    n = len(shapes) - 1
    m = np.zeros((n, n), dtype=np.double)
    s = np.empty((n, n), dtype=np.intp)
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            m[i, j] = np.inf
            for k in range(i, j):
                q = m[i, k] + m[k + 1, j] + shapes[i] * shapes[k + 1] * shapes[j + 1]
                if q < m[i, j]:
                    m[i, j], s[i, j] = q, k
    return s


def _chain(arrays: list[Array], s: Any, i: int, j: int) -> Array:
    if i == j:
        return arrays[i]
    return NUMPY_DOT[0](_chain(arrays, s, i, s[i, j]), _chain(arrays, s, s[i, j] + 1, j))


def multi_dot(arrays: Sequence[Any], *, out: Any = None) -> Array:
    """numpy.linalg.multi_dot: the product of the chain in the cheapest order (NumPy's rule);
    a 1-D first/last array is a row/column vector, as in NumPy."""
    if out is not None:
        raise TypeError("multi_dot: out= is not supported; assign the result instead")
    arrs = [asarray(a) for a in arrays]
    n = len(arrs)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    dot = NUMPY_DOT[0]  # numpy.dot, as NumPy's multi_dot calls: its reports name 'dot', and two
    if n == 2:  # N-d arrays take dot's rule, not matmul's stacks
        return dot(arrs[0], arrs[1])
    first_1d, last_1d = arrs[0].ndim == 1, arrs[-1].ndim == 1
    if first_1d:
        arrs[0] = arrs[0][None, :]
    if last_1d:
        arrs[-1] = arrs[-1][:, None]
    if any(a.ndim != 2 for a in arrs):
        raise LinAlgError("%d-dimensional array given. Array must be two-dimensional"
                          % next(a.ndim for a in arrs if a.ndim != 2))
    if n == 3:
        a, b, c = arrs
        cost1 = a.shape[0] * a.shape[1] * b.shape[1] + a.shape[0] * b.shape[1] * c.shape[1]
        cost2 = b.shape[0] * b.shape[1] * c.shape[1] + a.shape[0] * a.shape[1] * c.shape[1]
        result = dot(dot(a, b), c) if cost1 < cost2 else dot(a, dot(b, c))
    else:
        order = _chain_order([a.shape[0] for a in arrs] + [arrs[-1].shape[1]])
        result = _chain(arrs, order, 0, n - 1)
    if first_1d and last_1d:
        return result[0, 0]
    if first_1d or last_1d:
        return mp.ravel(result)
    return result


def tensorinv(a: Any, ind: int = 2) -> Array:
    """numpy.linalg.tensorinv: inv of the (prod(shape[ind:]), -1) matrix, reshaped."""
    x = asarray(a)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = x.shape[ind:] + x.shape[:ind]
    prod = int(np.prod(x.shape[ind:]))
    return mp.reshape(inv(mp.reshape(x, (prod, -1))), invshape)


def tensorsolve(a: Any, b: Any, axes: Any = None) -> Array:
    """numpy.linalg.tensorsolve: solve of the square matrix a reshapes to, reshaped."""
    x, y = asarray(a), asarray(b)
    an = x.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k)
            order.insert(an, k)
        x = mp.permute_dims(x, order)
    oldshape = x.shape[-(an - y.ndim):]
    prod = int(np.prod(oldshape))
    if x.size != prod ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    return mp.reshape(solve(mp.reshape(x, (prod, prod)), mp.ravel(y)), oldshape)
