"""Hypothesis strategies for random lazy expression graphs (shared by the fusion tests)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import lazyarray as la

UNARY = (la.tanh, la.sin, la.negative, la.abs, la.square, la.exp)
BINARY = (la.add, la.subtract, la.multiply, la.maximum)
# with adversarial data (`draw_expressions(dtype=...)`), also the ops whose edges differ most
MORE_UNARY = (la.log, la.log1p, la.expm1, la.cos, la.sqrt, la.floor, la.sign, la.reciprocal,
              lambda x: la.nn.sigmoid(x), lambda x: x.astype(np.int32).astype(x.dtype))
MORE_BINARY = (la.divide, la.floor_divide, la.remainder, la.minimum, la.power)


def _small(x):
    return la.tanh(x) if x.dtype.kind == "f" else x


def _unary(data, pool, more=False):
    x = data.draw(st.sampled_from(pool))
    fn = data.draw(st.sampled_from(UNARY + MORE_UNARY if more else UNARY))
    return fn(_small(x)) if fn is la.exp else fn(x)


def _binary(data, pool, more=False):
    x = data.draw(st.sampled_from(pool))
    partners = [y for y in pool if _broadcastable(x.shape, y.shape)]
    fn = data.draw(st.sampled_from(BINARY + MORE_BINARY if more else BINARY))
    if data.draw(st.booleans()):
        return fn(x, data.draw(st.sampled_from([0.5, 2, -1.25])))
    return fn(x, data.draw(st.sampled_from(partners)))


def _broadcastable(a, b):
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


def _view(data, pool):
    x = data.draw(st.sampled_from(pool))
    kind = data.draw(st.sampled_from(["T", "slice", "flip", "reshape", "expand", "broadcast"]))
    if x.ndim == 0 or kind == "expand":
        return la.expand_dims(x, 0)
    if kind == "T":
        return x.T
    if kind == "broadcast":
        return la.broadcast_to(x, (2,) + x.shape)
    if kind == "reshape":
        return x.reshape(-1) if data.draw(st.booleans()) else x.reshape(x.shape[::-1] if
                                                                          x.ndim == 2 else -1)
    if kind == "flip":
        return la.flip(x, axis=data.draw(st.integers(0, x.ndim - 1)))
    d = data.draw(st.integers(0, x.ndim - 1))
    n = x.shape[d]
    start = data.draw(st.integers(0, max(n - 1, 0)))
    step = data.draw(st.sampled_from([1, 2, -1]))
    key = [slice(None)] * x.ndim
    key[d] = slice(start, None, step) if step > 0 else slice(start, None, -1)
    return x[tuple(key)]


def _reduction(data, pool):
    x = data.draw(st.sampled_from([p for p in pool if p.ndim > 0] or pool))
    if x.ndim == 0:
        return la.sum(x)
    axis = data.draw(st.one_of(st.none(), st.integers(0, x.ndim - 1)))
    keep = data.draw(st.booleans())
    fn = data.draw(st.sampled_from([la.sum, la.max, la.mean, "softmax", "argmax", la.var,
                                    "logsumexp", "log_softmax"]))
    if fn == "softmax":
        return la.nn.softmax(x, axis=-1)
    if fn in ("logsumexp", "log_softmax"):
        return getattr(la.nn, fn)(x, axis=-1)
    if fn == "argmax":
        return la.argmax(x, axis=axis)
    return fn(x, axis=axis, keepdims=keep)


def _matmul(data, pool):
    x = data.draw(st.sampled_from(pool))
    if x.ndim != 2 or x.dtype.kind != "f":
        return None
    return x @ x.T if data.draw(st.booleans()) else x.T @ (x + 1)


def draw_expressions(data, max_ops: int = 8, dtype=None) -> list:
    """Draw inputs and a random sequence of ops over them; returns 1-3 output Arrays. With a
    `dtype`, the inputs are `adversarial` values of that dtype instead of standard normals."""
    nd = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=nd, max_size=nd)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    pool = []
    for _ in range(data.draw(st.integers(1, 3))):
        sub = shape[data.draw(st.integers(0, len(shape))):]  # trailing dims: broadcastable
        values = rng.standard_normal(sub) if dtype is None else adversarial(rng, dtype, sub)
        pool.append(la.array(values))
    makers = (_unary, _binary, _view, _reduction, _matmul)
    for _ in range(data.draw(st.integers(1, max_ops))):
        maker = data.draw(st.sampled_from(makers))
        made = (maker(data, pool, True) if dtype is not None and maker in (_unary, _binary)
                else maker(data, pool))
        if made is not None:
            pool.append(made)
    n_out = data.draw(st.integers(1, min(3, len(pool))))
    return data.draw(st.lists(st.sampled_from(pool), min_size=n_out, max_size=n_out))


# --- adversarial data (issue 9): the values where backends disagree if any do ------------------------
EXACT_UNARY = (la.negative, la.abs, la.square)
EXACT_BINARY = (la.add, la.subtract, la.multiply, la.maximum, la.minimum)
ADVERSARIAL_DTYPES = (np.float32, np.float64, np.int32, np.int64, np.uint8, np.int8)


def adversarial(rng: np.random.Generator, dtype, shape) -> np.ndarray:
    """Mostly special values: NaN, ±inf, ±0.0, subnormals, values near overflow, integer extremes."""
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        pool = [info.min, info.max, info.min + 1, info.max - 1, 0, 1, -1 if dt.kind == "i" else 2,
                info.max // 2, 3, 7]
        return rng.choice(np.array(pool, dt), size=shape)
    info = np.finfo(dt)
    pool = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, info.smallest_subnormal,
                     -info.smallest_subnormal, info.tiny, info.tiny / 3, info.max, -info.max,
                     np.sqrt(info.max) * 1.5, -np.sqrt(info.max), 1.0, -1.0, 0.5, 88.7, -103.9,
                     709.7, -745.0, 1e-30, 3.0], dt)
    normal = rng.standard_normal(shape).astype(dt)
    return np.where(rng.random(shape) < 0.6, rng.choice(pool, size=shape), normal).astype(dt)


def draw_exact_expressions(data, max_ops: int = 6) -> list:
    """Adversarial inputs of one dtype and ops whose result is correctly rounded and independent of
    evaluation order (so every backend must give NumPy's bits): exact unary/binary ops, views,
    max/min/argmax reductions, where and comparisons."""
    dtype = data.draw(st.sampled_from(ADVERSARIAL_DTYPES))
    nd = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.lists(st.integers(1, 5), min_size=nd, max_size=nd)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    pool = [la.array(adversarial(rng, dtype, shape[data.draw(st.integers(0, len(shape))):]))
            for _ in range(data.draw(st.integers(1, 3)))]
    for _ in range(data.draw(st.integers(1, max_ops))):
        kind = data.draw(st.sampled_from(["unary", "binary", "view", "reduce", "where"]))
        x = data.draw(st.sampled_from(pool))
        if kind == "unary":
            made = data.draw(st.sampled_from(EXACT_UNARY))(x)
        elif kind == "binary":
            partners = [y for y in pool if _broadcastable(x.shape, y.shape)]
            made = data.draw(st.sampled_from(EXACT_BINARY))(x, data.draw(st.sampled_from(partners)))
        elif kind == "view":
            made = _view(data, pool)
        elif kind == "where":
            partners = [y for y in pool if _broadcastable(x.shape, y.shape)]
            made = la.where(x > 0, x, data.draw(st.sampled_from(partners)))
        elif x.ndim == 0:
            made = la.max(x)
        else:
            axis = data.draw(st.one_of(st.none(), st.integers(0, x.ndim - 1)))
            fn = data.draw(st.sampled_from([la.max, la.min, la.argmax, la.argmin]))
            made = fn(x, axis=axis)
        if made.dtype.kind in "fiu" and made.dtype == pool[0].dtype:
            pool.append(made)
        else:
            pool.append(made.astype(pool[0].dtype))
    n_out = data.draw(st.integers(1, min(3, len(pool))))
    return data.draw(st.lists(st.sampled_from(pool), min_size=n_out, max_size=n_out))
