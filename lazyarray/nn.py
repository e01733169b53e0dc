"""Neural-network functions, written as compositions: the fusion planner makes each a few kernels."""

from __future__ import annotations

import math
from typing import Any

from . import elementwise as ew
from . import reductions as red
from .array import Array


def relu(x: Any) -> Array:
    return ew.maximum(x, 0)


def sigmoid(x: Any) -> Array:
    return 1 / (1 + ew.exp(-x))


def gelu(x: Any, approximate: bool = True) -> Array:
    """The tanh form (jax.nn.gelu's default). The exact erf form needs an erf op, not built yet."""
    if not approximate:
        raise NotImplementedError("gelu(approximate=False) needs erf, which lazyarray lacks yet")
    return 0.5 * x * (1 + ew.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def _stable_max(x: Any, axis: Any) -> Array:
    """max over axis, with non-finite maxima replaced by 0 so that x - max stays finite-safe."""
    m = red.max(x, axis=axis, keepdims=True)
    return ew.where(ew.isfinite(m), m, 0)


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Array:
    m = _stable_max(x, axis)
    s = red.sum(ew.exp(x - m), axis=axis, keepdims=True)
    out = ew.log(s) + m
    if not keepdims:
        from .manipulation import squeeze

        axes = axis if axis is not None else tuple(range(out.ndim))
        out = squeeze(out, axis=axes)
    return out


def softmax(x: Any, axis: Any = -1) -> Array:
    e = ew.exp(x - _stable_max(x, axis))
    return e / red.sum(e, axis=axis, keepdims=True)


def log_softmax(x: Any, axis: Any = -1) -> Array:
    shifted = x - _stable_max(x, axis)
    return shifted - ew.log(red.sum(ew.exp(shifted), axis=axis, keepdims=True))
