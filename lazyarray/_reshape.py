"""A node reshaped, as NumPy's `reshape` reads its shape argument. In the core layer because
`x.shape = s` (writes.set_shape, under the Array type) needs it; manipulation.reshape and the
other API modules use it from there."""

from __future__ import annotations

import math
import operator
from typing import Any, Sequence

import numpy as np

from . import _bind
from .graph import get_op
from .graph.node import Node

_RESHAPE = get_op("reshape")


def _shape_arg(shape: Any, site: _bind.Site = None) -> tuple[int, ...]:
    """A shape argument as NumPy reads it: integers (anything with `__index__`), never floats or
    bools (TypeError)."""
    items = (shape,) if hasattr(shape, "__index__") else shape
    if not hasattr(items, "__iter__"):  # (NumPy's texts, here and below: `x.reshape(n / 2)`)
        raise _bind.fail(TypeError, "expected a sequence of integers or a single integer, got "
                         f"'{shape!r}'", site)
    _bind.refuse_traced(*items)
    try:
        if any(isinstance(s, (bool, np.bool_)) for s in items):
            raise TypeError("an integer is required")
        return tuple(operator.index(s) for s in items)
    except TypeError as exc:
        raise _bind.fail(TypeError, str(exc), site) from None


def _plain_shape(shape: Any, size: int) -> tuple[int, ...] | None:
    """reshape_node's target for a shape of Python ints (at most one negative: the unknown size)
    that fits `size`, without `_shape_arg`'s checks; None for anything else, which the general
    path converts or reports."""
    items = (shape,) if type(shape) is int else shape
    if type(items) is not tuple and type(items) is not list:
        return None
    known, unknown = 1, -1
    for i, s in enumerate(items):
        if type(s) is not int:
            return None
        if s >= 0:
            known *= s
        elif unknown >= 0:
            return None
        else:
            unknown = i
    if unknown < 0:
        return tuple(items) if known == size else None
    if known == 0 or size % known:
        return None
    target = list(items)
    target[unknown] = size // known
    return tuple(target)


def reshape_node(node: Node, shape: Sequence[int], site: _bind.Site) -> Node:
    if shape == node.shape and type(shape) is tuple:  # matmul's final reshape, usually
        return node
    target = _plain_shape(shape, node.size)  # `x.reshape(-1)`, `x.reshape(b, -1)`: no checks
    if target is not None:
        if target == node.shape:
            return node
        return _bind.primitive(_RESHAPE, (node,), (target,), target, node.dtype, site)
    shape = list(_shape_arg(shape, site))
    unknown = [i for i, s in enumerate(shape) if s < 0]  # NumPy takes any negative size for -1
    if len(unknown) > 1:
        raise _bind.fail(ValueError, "can only specify one unknown dimension", site)  # NumPy's text
    known = math.prod(s for s in shape if s >= 0)
    if unknown:
        if known == 0 or node.size % known:
            raise _bind.fail(ValueError, f"cannot reshape array of size {node.size} into shape "
                             f"{_bind.numpy_shape_text(shape)}", site)
        shape[unknown[0]] = node.size // known
    target = tuple(shape)
    if math.prod(target) != node.size:
        raise _bind.fail(ValueError, f"cannot reshape array of size {node.size} into shape "
                         f"{_bind.numpy_shape_text(target)}", site)
    if target == node.shape:
        return node
    return _bind.primitive(_RESHAPE, (node,), (target,), target, node.dtype, site)
