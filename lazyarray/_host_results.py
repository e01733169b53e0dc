"""Results whose shape is data: `nonzero` EVALUATES its input when called (a lazy graph cannot
know the count) and returns Arrays over NumPy's result, computed on the host and put on the input's
device. Its own module, below elementwise.py (`where(condition)` alone is `nonzero`) and
masking.py (`x[mask]`), which searching.py (the rest of the Array API's searching functions, with
`unique_*` built the same way) sits above."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _bind
from .array import Array
from .graph.node import user_site
from ._bind import as_node as _as_node


def _array(x: Any, site: _bind.Site) -> Array:
    return x if isinstance(x, Array) else Array(_as_node(x, site))


def _leaf(values: np.ndarray, site: _bind.Site, device: str = "cpu") -> Array:
    """A result computed on the host, put back on the input's device."""
    out = Array(_bind.leaf(_bind.host_array(values, site=site, copy=False), site))
    return out if device == "cpu" else out.to_device(device)


def nonzero(a: Any) -> tuple[Array, ...]:
    """Array API `nonzero` (numpy.nonzero). Evaluates `x` when called: the count is data."""
    site = user_site(1)
    a = _array(a, site)
    if a.ndim == 0:
        raise _bind.fail(ValueError, "Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.", site)  # NumPy's text
    return tuple(_leaf(i.astype(np.int64), site, a.device) for i in np.nonzero(np.asarray(a)))
