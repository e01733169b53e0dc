"""Integer-array ("advanced") indexing after the basic part of an index has been applied as a view.

NumPy's rule, which this follows: all integer-array indices (and, once any is present, the integers
beside them) broadcast together to one shape B; B's dimensions replace the indexed dimensions where
the first advanced index stood when the advanced indices are adjacent in the index, and go FIRST
in the result when a slice, None or Ellipsis separates them (`x[[0, 1], :, [1, 2]]`,
`x[0, :, [1, 2]]`; an Ellipsis that covers no dimension separates too).
Several arrays gather through one `take` over their dimensions merged into one (a flat index), so
the gather stays a single opaque step.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _bind
from .array import Array
from .graph import dtypes
from .graph.node import Node
from .manipulation import permute_node, reshape_node
from . import elementwise as ew


def broadcast_index_shape(indices: list[Node], site: _bind.Site) -> tuple[int, ...]:
    """B, the shape the index arrays broadcast to; NumPy's IndexError when they do not."""
    try:
        return tuple(np.broadcast_shapes(*(n.shape for n in indices)))
    except ValueError:
        shown = "".join(_bind.numpy_shape_text(n.shape) + " " for n in indices)  # (NumPy's)
        raise _bind.fail(IndexError, "shape mismatch: indexing arrays could not be broadcast "
                         f"together with shapes {shown}", site) from None


def _flat_index(indices: list[Node], sizes: list[int], shape: tuple[int, ...],
                site: _bind.Site) -> Node:
    """One index into the merged dimensions; an out-of-bounds entry in any array maps to the
    merged size itself, so the take raises IndexError at evaluation instead of reading a
    neighbour."""
    total = math.prod(sizes)
    flat, valid = None, None
    stride = total
    for node, n in zip(indices, sizes):
        stride //= n if n else 1
        i = Array(node)
        i = ew.where(i < 0, i + n, i)
        ok = (i >= 0) & (i < n)
        term = i * stride if stride != 1 else i
        flat = term if flat is None else flat + term
        valid = ok if valid is None else valid & ok
    out = ew.where(valid, flat, total)
    return _bind.broadcast_to(_bind.cast(out._node, dtypes.int64, site), shape, site)


def gather(result: Node, positions: list[int], indices: list[Node], adjacent: bool,
           take: Any, site: _bind.Site) -> Node:
    """Apply the integer-array indices (at dims `positions` of the sliced `result`) NumPy's way;
    `take(node, index, axis)` binds the gather."""
    shape = broadcast_index_shape(indices, site)
    if not adjacent:
        rest = [d for d in range(result.ndim) if d not in positions]
        result = permute_node(result, positions + rest, site)
        positions = list(range(len(positions)))
    first = positions[0]
    if len(indices) == 1:
        return take(result, _bind.broadcast_to(indices[0], shape, site), first)
    sizes = [result.shape[d] for d in positions]
    merged = result.shape[:first] + (math.prod(sizes),) + result.shape[first + len(sizes):]
    result = reshape_node(result, merged, site)
    return take(result, _flat_index(indices, sizes, shape, site), first)
