"""Neural-network functions, written as compositions: the fusion planner makes each a few kernels."""

from __future__ import annotations

import math
from typing import Any

from . import elementwise as ew
from . import reductions as red
from .array import Array
from .autodiff import stop_gradient as _stop_gradient
from .creation import arange as _arange
from .manipulation import expand_dims as _expand_dims, moveaxis as _moveaxis, squeeze as _squeeze


def relu(x: Any) -> Array:
    return ew.maximum(x, 0)


def sigmoid(x: Any) -> Array:
    return 1 / (1 + ew.exp(-x))


def gelu(x: Any, approximate: bool = True) -> Array:
    """jax.nn.gelu: the tanh form by default, x/2 (1 + erf(x/sqrt 2)) with approximate=False
    (written as x/2 erfc(-x/sqrt 2), as JAX does: no cancellation where erf(x/sqrt 2) ~ -1)."""
    if not approximate:
        return 0.5 * x * ew.erfc(x * -math.sqrt(0.5))
    return 0.5 * x * (1 + ew.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def _stable_max(x: Any, axis: Any) -> Array:
    """max over axis, with non-finite maxima replaced by 0 so that x - max stays finite-safe.
    The shift cancels in every result, so derivatives skip it (stop_gradient, as JAX): the
    gradient of log_softmax-based cross-entropy is then the simplified softmax - onehot."""
    m = red.max(x, axis=axis, keepdims=True)
    return _stop_gradient(ew.where(ew.isfinite(m), m, 0))


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Array:
    m = _stable_max(x, axis)
    s = red.sum(ew.exp(x - m), axis=axis, keepdims=True)
    out = ew.log(s) + m
    if not keepdims:
        axes = axis if axis is not None else tuple(range(out.ndim))
        out = _squeeze(out, axis=axes)
    return out


def softmax(x: Any, axis: Any = -1) -> Array:
    e = ew.exp(x - _stable_max(x, axis))
    return e / red.sum(e, axis=axis, keepdims=True)


def log_softmax(x: Any, axis: Any = -1) -> Array:
    shifted = x - _stable_max(x, axis)
    return shifted - ew.log(red.sum(ew.exp(shifted), axis=axis, keepdims=True))


def cross_entropy(logits: Any, labels: Any, axis: int = -1) -> Array:
    """Mean softmax cross-entropy of `logits` against integer class `labels` (one per row).

    Computed from log_softmax, so it is finite for any finite logits; its gradient is
    (softmax(logits) - onehot(labels)) / rows, with no exp of an unshifted logit."""
    z = _moveaxis(logits, axis, -1) if axis not in (-1, logits.ndim - 1) else logits
    onehot = ew.equal(_expand_dims(labels, -1), _arange(z.shape[-1]))
    picked = red.sum(ew.where(onehot, log_softmax(z, axis=-1), 0.0), axis=-1)
    return -red.mean(picked)
