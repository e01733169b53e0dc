"""la.random's key API: JAX-style explicit keys, numbers generated inside the fused kernels.

A key is a uint32 Array of shape (2,), always a leaf (data bound at run time): a new key in a loop
is a new kernel argument, never a new plan or a compile. `split` and `fold_in` derive keys on the
host (a few Philox blocks in NumPy: microseconds). The draws are lazy: `uniform(key, shape)` is
`philox(flat_index, stream, k0, k1)` (graph/ops_random.py) and a few elementwise ops, so

    y = x * (la.random.uniform(key, x.shape) > p)      # one kernel: reads x and the key once

Element i of a draw depends only on (key, i, stream), never on the backend, the shape of the loop
or the fusion around it: C, CUDA and NumPy yield the same bits, hence the same uniforms; draws that
go through libm (normal, truncated_normal) agree to the backends' last-ulp math.
NumPy's API (`rand`, `randint`, `default_rng`, ...) draws with these functions
(lazyarray/random_numpy.py); lazyarray/random.py is the namespace over both.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _bind
from . import elementwise as ew
from .array import Array
from .graph import dtypes, get_op
from .graph.node import Node, user_site
from .graph.ops_random import flat_index, philox_bits
from .manipulation import reshape_node, slice_node
from .reductions import _as_node, cumulative_sum
from .searching import argsort, searchsorted
from .indexing import take

_PHILOX, _INPUT = get_op("philox"), get_op("input")
_U32, _U64 = dtypes.uint32, dtypes.uint64
_SPLIT_STREAM, _FOLD_STREAM = 0xFFFFFFFF, 0xFFFFFFFE  # key derivation: never a data stream
_TWO_PI = 2.0 * math.pi


# --- keys ----------------------------------------------------------------------------------------
def key(seed: int) -> Array:
    """A key from an integer seed (its 64 bits: high word, low word), like jax.random.key."""
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    return Array(_bind.leaf(np.array([seed >> 32, seed & 0xFFFFFFFF], _U32)))


PRNGKey = key


def _key_data(k: Any, site: _bind.Site) -> np.ndarray:
    node = getattr(k, "_node", None)
    data = node.data if node is not None and node.op is _INPUT else np.asarray(k)
    if data.dtype != _U32 or data.shape[-1:] != (2,):
        raise _bind.fail(TypeError, f"a random key is a uint32 array of shape (2,), made by "
                         f"la.random.key(seed); got {data.dtype} {data.shape}", site)
    return data


def _key_node(k: Any, site: _bind.Site) -> Node:
    """The key as a (2,) uint32 leaf: a fresh leaf for computed keys, so the plan stays the same."""
    node = getattr(k, "_node", None)
    if node is not None and node.op is _INPUT and node.shape == (2,) and node.dtype == _U32:
        return node
    data = _key_data(k, site)
    if data.shape != (2,):
        raise _bind.fail(ValueError, f"one key expected, got keys of shape {data.shape} (index "
                         "the result of split)", site)
    return _bind.leaf(np.ascontiguousarray(data), site)


def split(k: Any, num: int = 2) -> Array:
    """`num` new independent keys, shape (num, 2): Philox blocks of the counters 0..num-1."""
    site = user_site(1)
    k0, k1 = (int(w) for w in _key_data(k, site).reshape(2))
    bits = philox_bits(np.arange(int(num), dtype=np.uint64), _SPLIT_STREAM, k0, k1)
    words = np.stack([bits >> np.uint64(32), bits & np.uint64(0xFFFFFFFF)], axis=-1)
    return Array(_bind.leaf(words.astype(_U32), site))


def fold_in(k: Any, data: int) -> Array:
    """A new key from a key and an integer (a step number, a worker id)."""
    site = user_site(1)
    k0, k1 = (int(w) for w in _key_data(k, site).reshape(2))
    bits = int(philox_bits(np.uint64(int(data) & 0xFFFFFFFFFFFFFFFF), _FOLD_STREAM, k0, k1))
    return Array(_bind.leaf(np.array([bits >> 32, bits & 0xFFFFFFFF], _U32), site))


# --- lazy bits -----------------------------------------------------------------------------------
def _shape(shape: Any) -> tuple[int, ...]:
    if shape is None:
        return ()
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _bits(k: Any, shape: tuple[int, ...], stream: int, site: _bind.Site) -> Array:
    """uint64 words 0 | 1 << 32 of Philox at each element's position (lazy, fusable)."""
    kn = _key_node(k, site)

    def word(j: int) -> Node:
        w = reshape_node(slice_node(kn, ((j, 1, 1),), site), (), site)
        return _bind.broadcast_to(_bind.cast(w, _U64, site), shape, site)

    index = flat_index(shape, site)
    s = _bind.broadcast_to(_bind.scalar_leaf(stream, _U64, site), shape, site)
    return Array(Node(_PHILOX, (index, s, word(0), word(1)), (), shape, _U64, site=site))


def _float_dtype(dtype: Any, site: _bind.Site) -> np.dtype:
    dt = dtypes.float64 if dtype is None else dtypes.to_dtype(dtype)
    if dt.kind != "f":
        raise _bind.fail(TypeError, f"a floating dtype is required, got {dt}", site)
    return dt


def _unit(bits: Array, dt: np.dtype, high_word: bool = False) -> Array:
    """Uniform [0, 1) from the random bits, exact multiples of 2**-24 (float32: the top 24 bits of
    word 0, or 1) or 2**-53 (float64: 27 bits of word 1 and 26 of word 0). The integers go through
    int32, whose conversion to float vectorizes (uint64's does not on AVX2)."""
    words = (bits >> 32) if high_word else bits
    if dt == dtypes.float32:
        top = ew.astype(ew.astype(words, _U32) >> 8, dtypes.int32)
        return ew.astype(top, dt) * (2.0**-24)
    hi = ew.astype(ew.astype(ew.astype(bits >> 32, _U32) >> 5, dtypes.int32), dt)
    lo = ew.astype(ew.astype(ew.astype(bits, _U32) >> 6, dtypes.int32), dt)
    return hi * (2.0**-27) + lo * (2.0**-53)


def uniform(k: Any, shape: Any = (), dtype: Any = None, minval: Any = 0.0,
            maxval: Any = 1.0) -> Array:
    """Uniform on [minval, maxval) (float64 unless dtype says otherwise)."""
    site = user_site(1)
    dt = _float_dtype(dtype, site)
    u = _unit(_bits(k, _shape(shape), 0, site), dt)
    if isinstance(minval, (int, float)) and isinstance(maxval, (int, float)):
        if minval == 0.0 and maxval == 1.0:
            return u
        return ew.maximum(u * (maxval - minval) + minval, minval)
    return ew.astype(ew.maximum(u * (maxval - minval) + minval, minval), dt)


def normal(k: Any, shape: Any = (), dtype: Any = None) -> Array:
    """Standard normal by Box-Muller on two uniforms of the element's Philox block."""
    site = user_site(1)
    dt = _float_dtype(dtype, site)
    shp = _shape(shape)
    b0 = _bits(k, shp, 0, site)
    u1 = _unit(b0, dt)
    u2 = _unit(b0, dt, high_word=True) if dt == dtypes.float32 else _unit(_bits(k, shp, 1, site), dt)
    radius = ew.sqrt(ew.log1p(-u1) * -2.0)  # 1 - u1 is in (0, 1]: no log(0)
    return radius * ew.cos(u2 * _TWO_PI)


def bernoulli(k: Any, p: Any = 0.5, shape: Any = None) -> Array:
    """True with probability p (p a float or an Array broadcast against shape)."""
    site = user_site(1)
    pn = _as_node(p, site)
    shp = _bind.broadcast_shapes([pn.shape, _shape(shape)], site) if shape is not None else pn.shape
    return _unit(_bits(k, shp, 0, site), dtypes.float64) < p


def randint(k: Any, shape: Any, minval: int, maxval: int, dtype: Any = None) -> Array:
    """Integers in [minval, maxval) (int64 unless dtype says otherwise): the 64 random bits
    modulo the span (bias below span / 2**64)."""
    site = user_site(1)
    dt = dtypes.int64 if dtype is None else dtypes.to_dtype(dtype)
    lo, hi = int(minval), int(maxval)
    if hi <= lo:
        raise _bind.fail(ValueError, f"randint: maxval {hi} must exceed minval {lo}", site)
    bits = _bits(k, _shape(shape), 0, site)
    offset = bits if hi - lo == 1 << 64 else bits % (hi - lo)  # 2**64: every word is a draw
    if lo >= 0:
        return ew.astype(offset + lo, dt)
    return ew.astype(ew.astype(offset, dtypes.int64) + lo, dt)


def truncated_normal(k: Any, lower: float, upper: float, shape: Any = None,
                     dtype: Any = None) -> Array:
    """Standard normal restricted to [lower, upper], by the inverse CDF of a uniform between
    Phi(lower) and Phi(upper) (Acklam's rational approximation: relative error < 1.2e-9)."""
    site = user_site(1)
    dt = _float_dtype(dtype, site)
    lo, hi = float(lower), float(upper)
    if not lo < hi:
        raise _bind.fail(ValueError, f"truncated_normal: lower {lo} must be below upper {hi}", site)
    plo, phi = _phi(lo), _phi(hi)
    u = _unit(_bits(k, _shape(shape), 0, site), dtypes.float64) * (phi - plo) + plo
    z = _ndtri(ew.clip(u, 1e-300, 1.0 - 2.0**-53))
    return ew.astype(ew.clip(z, lo, hi), dt)


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


_A = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02, 1.383577518672690e02,
      -3.066479806614716e01, 2.506628277459239e00)
_B = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02, 6.680131188771972e01,
      -1.328068155288572e01, 1.0)
_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00, -2.549732539343734e00,
      4.374664141464968e00, 2.938163982698783e00)
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00,
      1.0)


def _poly(coeffs: tuple, x: Array) -> Array:
    out = x * coeffs[0] + coeffs[1]
    for c in coeffs[2:]:
        out = out * x + c
    return out


def _ndtri(p: Array) -> Array:
    """The standard normal quantile (fused elementwise ops: the tails and the centre)."""
    q = p - 0.5
    r = q * q
    centre = _poly(_A, r) * q / _poly(_B, r)
    tail_p = ew.minimum(p, 1.0 - p)
    t = ew.sqrt(ew.log(tail_p) * -2.0)
    tail = _poly(_C, t) / _poly(_D, t)
    tail = ew.where(p > 0.5, -tail, tail)
    return ew.where(tail_p < 0.02425, tail, centre)


# --- permutations and choices: a sort of Philox bits (argsort, a library call) ---------------
def _order(k: Any, n: int, site: _bind.Site) -> Array:
    """A random permutation of range(n): the stable argsort of the Philox bits of 0..n-1."""
    return argsort(_bits(k, (n,), 0, site), stable=True)


def permutation(k: Any, x: Any, axis: int = 0) -> Array:
    """A random permutation of range(x) (x an int) or of x along axis: the order of the Philox
    bits of 0..n-1 (argsort) and, for an array, a gather. All lazy."""
    site = user_site(1)
    if isinstance(x, (int, np.integer)):
        return _order(k, int(x), site)
    node = _as_node(x, site)
    return take(Array(node), _order(k, node.shape[axis], site), axis=axis)


def _weighted_order(k: Any, p: Any, n: int, site: _bind.Site) -> Array:
    """range(n) in the order of -log(u_i) / p_i (Efraimidis-Spirakis): its head is a sample
    without replacement, each pick proportional to p among those left, as NumPy's."""
    weights = ew.astype(Array(_as_node(p, site)), dtypes.float64)
    return argsort(-ew.log1p(-_unit(_bits(k, (n,), 0, site), dtypes.float64)) / weights,
                   stable=True)


def choice(k: Any, a: Any, shape: Any = (), replace: bool = True, p: Any = None,
           axis: int = 0) -> Array:
    """Samples of range(a) (a an int) or of a along axis; without replacement the head of a
    permutation (weighted by p: `_weighted_order`), with replacement and p by inverting its CDF
    (cumulative_sum, searchsorted). All lazy."""
    site = user_site(1)
    shp = _shape(shape)
    count = math.prod(shp)
    n = int(a) if isinstance(a, (int, np.integer)) else _as_node(a, site).shape[axis]
    if not replace:
        if count > n:
            raise _bind.fail(ValueError, "choice: cannot take a larger sample than the population "
                             "when replace=False", site)
        order = _order(k, n, site) if p is None else _weighted_order(k, p, n, site)
        idx = Array(reshape_node(slice_node(order._node, ((0, 1, count),), site), shp, site))
    elif p is not None:
        weights = ew.astype(Array(_as_node(p, site)), dtypes.float64)
        cdf = cumulative_sum(weights)
        u = _unit(_bits(k, shp, 0, site), dtypes.float64) * cdf[n - 1]
        idx = ew.minimum(searchsorted(cdf, u, side="right"), n - 1)
    else:
        idx = ew.astype(_bits(k, shp, 0, site) % n, dtypes.int64)
    return idx if isinstance(a, (int, np.integer)) else take(a, idx, axis=axis)


__all__ = ["PRNGKey", "bernoulli", "choice", "fold_in", "key", "normal", "permutation", "randint",
           "split", "truncated_normal", "uniform"]
