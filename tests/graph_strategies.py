"""Hypothesis strategies for random lazy expression graphs (shared by the fusion tests)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import lazyarray as la

UNARY = (la.tanh, la.sin, la.negative, la.abs, la.square, la.exp)
BINARY = (la.add, la.subtract, la.multiply, la.maximum)


def _small(x):
    return la.tanh(x) if x.dtype.kind == "f" else x


def _unary(data, pool):
    x = data.draw(st.sampled_from(pool))
    fn = data.draw(st.sampled_from(UNARY))
    return fn(_small(x)) if fn is la.exp else fn(x)


def _binary(data, pool):
    x = data.draw(st.sampled_from(pool))
    partners = [y for y in pool if _broadcastable(x.shape, y.shape)]
    fn = data.draw(st.sampled_from(BINARY))
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
    fn = data.draw(st.sampled_from([la.sum, la.max, la.mean, "softmax", "argmax"]))
    if fn == "softmax":
        return la.nn.softmax(x, axis=-1)
    if fn == "argmax":
        return la.argmax(x, axis=axis)
    return fn(x, axis=axis, keepdims=keep)


def _matmul(data, pool):
    x = data.draw(st.sampled_from(pool))
    if x.ndim != 2 or x.dtype.kind != "f":
        return None
    return x @ x.T if data.draw(st.booleans()) else x.T @ (x + 1)


def draw_expressions(data, max_ops: int = 8) -> list:
    """Draw inputs and a random sequence of ops over them; returns 1-3 output Arrays."""
    nd = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=nd, max_size=nd)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    pool = []
    for _ in range(data.draw(st.integers(1, 3))):
        sub = shape[data.draw(st.integers(0, len(shape))):]  # trailing dims: broadcastable
        pool.append(la.array(rng.standard_normal(sub)))
    makers = (_unary, _binary, _view, _reduction, _matmul)
    for _ in range(data.draw(st.integers(1, max_ops))):
        made = data.draw(st.sampled_from(makers))(data, pool)
        if made is not None:
            pool.append(made)
    n_out = data.draw(st.integers(1, min(3, len(pool))))
    return data.draw(st.lists(st.sampled_from(pool), min_size=n_out, max_size=n_out))
