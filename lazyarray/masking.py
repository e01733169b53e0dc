"""Boolean-mask indexing (the Array API's "boolean array indexing").

`x[mask]` has a data-dependent shape, so it EVALUATES the mask when indexing (through `nonzero`,
as `nonzero` and `unique_*` do) and rewrites the index into an integer-array gather over `x` with
the mask's dimensions merged into one: `x` itself stays lazy and the gather fuses, unless the
mask's graph computes `x` anyway (`z[abs(z) < 2]`): then `x` is evaluated with the mask. Where
`x` is computed by then, the read is NumPy's `x[mask]` at once (indexing.py, eager.masked), and
`x[mask] = v` of computed values NumPy's masked assignment into a copy (`write_now`).
`x.at[mask].op(v)` has a static shape and is built without evaluating anything, as
`where(mask, op(x, v), x)`; only values with one row per true element (`x.at[mask].set(rows)`)
read the mask, and become an integer-array scatter.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _bind, eager
from .array import Array
from .graph.node import Node
from .manipulation import reshape_node
from .reductions import _as_node
from ._host_results import nonzero
from .cache import is_busy
from . import evaluation
from .evaluation import evaluate_arrays
from ._index_values import _is_array_index, _is_int_index, update_values, warn_complex_cast
from . import elementwise as ew


def is_mask(k: Any) -> bool:
    """A boolean index: a bool Array or ndarray, a Python/NumPy bool (0-d), or a list of bools."""
    if isinstance(k, (Array, np.ndarray)):
        return k.dtype.kind == "b"
    if isinstance(k, (bool, np.bool_)):
        return True
    return isinstance(k, list) and len(k) > 0 and np.asarray(k).dtype.kind == "b"


def _mask_node(mask: Any, site: _bind.Site) -> Node:
    return mask._node if isinstance(mask, Array) else _as_node(np.asarray(mask, bool), site)


def _computed_mask(mask: Any, site: _bind.Site, base: Node | None = None,
                   also: tuple[Array, ...] = ()) -> tuple[Node, Node]:
    """(mask node, base node) after evaluating the mask Array *itself*: it then holds its buffer,
    so `x[m]; y[m]; z[m]` compute m once (a fresh Array around its node left m pending, and each
    index evaluated its graph again: mandelbrot's loop built and ran it three times a step).

    A pending `base` (the indexed value) that the mask's graph computes anyway (`z[abs(z) < 2]`)
    is evaluated with it and comes back as a leaf: the gather would otherwise compute it again,
    and a loop `z = z[keep]` would carry every earlier step's graph (a new plan per step). A
    view of a computed mask (`masks[i]`) is read where it is: nothing to evaluate. `also`:
    pending Arrays the caller evaluates next (a masked write's value), in the same plan."""
    if isinstance(mask, Array) and mask._node.inputs and eager.view_value(mask._node) is None:
        done = eager.one_op_now(mask._node)  # `r > 0` of a computed r: NumPy's, no plan
        if done is not None:
            mask._node = done
            return _mask_node(mask, site), base
        held = Array(base) if base is not None and base.inputs and not is_busy() and _reaches(
            mask._node, base) else None  # (busy: la.grad traces, a leaf would cut its gradient)
        if held is None and not also and eager.LIMIT[0]:
            evaluation.to_host(mask)  # np.asarray(mask)'s C hit path: ~6 us less than
        else:  # evaluate_arrays' frames (azimint_naive's `data[np.logical_and(...)]` per bin)
            evaluate_arrays([mask], also if held is None else (held,) + also)
        if held is not None:
            base = held._node
    return _mask_node(mask, site), base


def _reaches(root: Node, target: Node) -> bool:
    """Whether `target` is in `root`'s pending graph (leaves are not walked)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        if n is target:
            return True
        for i in n.inputs:
            if i.inputs and id(i) not in seen:
                seen.add(id(i))
                stack.append(i)
    return False


def _flat_true(mask: Node, device: str, site: _bind.Site) -> Array:
    """The flat positions of the mask's true elements: evaluates the mask (its count is data)."""
    (flat,) = nonzero(Array(reshape_node(mask, (mask.size,), site)))
    return flat if flat.device == device else flat.to_device(device)


def _where_dims(keys: list[Any], j: int, m: int, ndim: int, site: _bind.Site) -> int:
    """The first dimension of x that the mask at keys[j] (m dims) covers."""
    consumed = sum(m if i == j else 1 for i, k in enumerate(keys)
                   if k is not None and k is not Ellipsis)
    if consumed > ndim:
        raise _bind.fail(IndexError, f"too many indices for array: array is {ndim}-dimensional, "
                         f"but {consumed} were indexed", site)
    fill = ndim - consumed
    return sum(fill if k is Ellipsis else 1 for k in keys[:j] if k is not None)


def _check_shape(mshape: tuple[int, ...], shape: tuple[int, ...], p: int,
                 site: _bind.Site) -> None:
    if tuple(shape[p:p + len(mshape)]) != tuple(mshape):  # NumPy's text: the first axis that differs
        i = next(i for i, (s, m) in enumerate(zip(shape[p:], mshape)) if s != m)
        raise _bind.fail(IndexError, f"boolean index did not match indexed array along axis {p + i}; "
                         f"size of axis is {shape[p + i]} but size of corresponding boolean axis "
                         f"is {mshape[i]}", site)


def _empty_mismatch(mshape: tuple[int, ...], shape: tuple[int, ...], p: int) -> bool:
    """An empty boolean index whose shape differs from the dimensions it covers: NumPy takes its
    nonzero() (empty integer arrays) without the shape check (`x[:, np.array([], bool)]` on
    x of shape (2, 3) is (2, 0))."""
    return len(mshape) > 0 and math.prod(mshape) == 0 and tuple(
        shape[p:p + len(mshape)]) != tuple(mshape)


def _masks_as_nonzero(keys: list[Any], shape: tuple[int, ...], site: _bind.Site) -> tuple:
    """Several boolean masks in one key (NumPy's quickstart: `a[b1, b2]`, `a[b1, b2] = 0`) as
    NumPy takes them: each mask of k dims becomes its nonzero()'s k integer arrays, which then
    broadcast with the other integer indices. The masks are read now (their counts are data)."""
    host = [np.asarray(k, dtype=bool) if is_mask(k) else None for k in keys]
    if any(h is not None and h.ndim == 0 for h in host):
        raise _bind.fail(IndexError, "lazyarray supports one 0-d boolean index per indexing "
                         "expression beside other boolean masks; index in two steps", site)
    width = [0 if k is None or k is Ellipsis else (h.ndim if h is not None else 1)
             for k, h in zip(keys, host)]
    if sum(width) > len(shape):
        raise _bind.fail(IndexError, f"too many indices for array: array is {len(shape)}-"
                         f"dimensional, but {sum(width)} were indexed", site)
    fill, out, p = len(shape) - sum(width), [], 0
    for k, h, w in zip(keys, host, width):
        if h is not None:
            if not _empty_mismatch(h.shape, shape, p):
                _check_shape(h.shape, shape, p, site)
            out.extend(np.nonzero(h))
        else:
            out.append(k)
        p += fill if k is Ellipsis else w
    return tuple(out)


def rewrite_getitem(node: Node, key: Any, site: _bind.Site) -> tuple[Node, Any]:
    """(node, key) with a boolean mask rewritten into a merged-dims integer-array index (or, for
    a 0-d mask, a new axis sliced to length 1 or 0); unchanged when the key holds no mask."""
    keys = list(key) if isinstance(key, tuple) else [key]
    masks = [i for i, k in enumerate(keys) if is_mask(k)]
    if not masks:
        return node, key
    if len(masks) > 1:
        return node, _masks_as_nonzero(keys, node.shape, site)
    (j,) = masks
    mask = _mask_node(keys[j], site)
    m = mask.ndim
    p = _where_dims(keys, j, m, node.ndim, site)
    if _empty_mismatch(mask.shape, node.shape, p):  # NumPy: m empty integer index arrays
        keys[j:j + 1] = [np.zeros(0, np.int64)] * m
        return node, tuple(keys)
    _check_shape(mask.shape, node.shape, p, site)
    if m > 0:  # its count is data: evaluate it (and the value it indexes, where computed anyway)
        mask, node = _computed_mask(keys[j], site, node)
    merged = node.shape[:p] + (math.prod(mask.shape),) + node.shape[p + m:]
    node = reshape_node(node, merged, site)
    if m == 0 and not _has_advanced_companion(keys, j):
        keys[j] = slice(0, 1 if bool(np.asarray(Array(mask))) else 0)
    elif m == 0:  # beside other advanced indices NumPy broadcasts it as an index of shape (1,)/(0,)
        keys[j] = np.zeros(1 if bool(np.asarray(Array(mask))) else 0, np.int64)
    else:
        keys[j] = _flat_true(mask, Array(node).device, site)
    return node, tuple(keys)


def write_now(x: Array, key: Array | np.ndarray, value: Any, site: _bind.Site) -> bool:
    """`x[mask] = v` at once (eager.masked_write) for a mask of x's leading dims, once the mask,
    x (where the mask's graph computes it) and a value Array are computed: nbody's
    `r[r > 0] = r[r > 0] ** -1.5` built a nonzero, a take and a scatter per step. False for the
    general path (at_update)."""
    if not key.ndim or key.ndim > x.ndim or tuple(key.shape) != x.shape[:key.ndim]:
        return False
    if type(value) is Array:
        if value.dtype != x.dtype or is_busy():
            return False
    elif eager.masked_scalar(value, x.dtype) is None:  # (float, int, bool: NumPy's stored value)
        return False
    if type(value) is Array and value._node.inputs:  # one op over computed values: NumPy's
        done = eager.one_op_now(value._node)
        if done is not None:
            value._node = done
    # a pending value is evaluated with the mask, one plan instead of two (nbody's `r[r > 0] =
    # r[r > 0] ** -1.5` before the value ran at once: the mask alone was a ~30 us evaluation
    # of a (100, 100) compare)
    also = (value,) if type(value) is Array and value._node.inputs and eager.view_value(
        value._node) is None else ()
    mask, node = _computed_mask(key, site, x._node, also)
    if node.inputs and not is_busy():  # x pending, its mask's graph another's (`y = f(x); y[m]
        # = v`): the masked scatter runs on the host and evaluates x first anyway (~165 us for
        # (100, 100) through the general path; NumPy 8); with the value where the mask did not
        # take it (a mask computed before: `m = y > 0; x[m] = np.sqrt(x[m])`), one plan that
        # computes x's graph once for both
        evaluate_arrays([x], tuple(v for v in also if v._node.inputs))
        node = x._node
    if type(value) is Array:
        data = eager.view_value(value._node)  # (a buffer, or a view of one)
        if data is None:
            evaluate_arrays([value])
            data = eager.view_value(value._node)
        if data is None:
            return False
        value = data
    own = eager.only_holder(node, 3 + (x._node is node))  # node, x._node, its `old`, the argument
    new = eager.masked_write(node, mask, value, own)
    if new is None:
        return False
    x._node = new
    return True


def _has_advanced_companion(keys: list[Any], j: int) -> bool:
    """Whether an integer or integer-array index stands beside the mask at keys[j]."""
    return any(_is_array_index(k) or isinstance(k, Array) or _is_int_index(k)
               for i, k in enumerate(keys) if i != j)


def at_update(x: Array, key: Any, mode: str, values: Any, site: _bind.Site) -> Array | None:
    """`x.at[mask].op(values)`, or None when the key holds no mask (the scatter path applies)."""
    keys = list(key) if isinstance(key, tuple) else [key]
    if not any(is_mask(k) for k in keys):
        return None
    while len(keys) > 1 and keys[-1] is Ellipsis:
        keys.pop()
    only = _mask_node(keys[0], site) if len(keys) == 1 else None
    if len(keys) != 1 or _empty_mismatch(only.shape, x.shape, 0):
        # beside other indices (or empty, NumPy's integer index): scatter at the true positions
        node, flat_key = rewrite_getitem(x._node, key, site)
        out = getattr(Array(node).at[flat_key], mode)(values)
        return Array(reshape_node(out._node, x.shape, site))
    node = x._node
    mask = _mask_node(keys[0], site)
    m = mask.ndim
    if m > node.ndim:
        raise _bind.fail(IndexError, f"too many indices for array: array is {node.ndim}-"
                         f"dimensional, but {m} were indexed", site)
    _check_shape(mask.shape, node.shape, 0, site)
    # (NumPy's shape errors come first and alone, its ComplexWarning after: fuzz47)
    value, promoted = update_values(node.dtype, values, mode, site, warn=False)
    given = value  # (its dtype: the ComplexWarning's)
    if m == node.ndim and value.ndim > 1:  # NumPy's boolean assignment (a mask of every dim)
        raise _bind.fail(TypeError, "NumPy boolean array indexing assignment requires a 0 or "
                         f"1-dimensional input, input has {value.ndim} dimensions", site)
    value = _bind.cast(value, promoted, site)
    rest = node.shape[m:]
    if value.ndim == len(rest) + 1 and value.shape[0] == 1:
        value = reshape_node(value, value.shape[1:], site)
    if value.ndim > len(rest) or not _broadcasts(value.shape, rest):
        # one row per true element: the count is data, so read the mask and scatter by position
        rows = reshape_node(node, (math.prod(mask.shape),) + rest, site)
        flat = _flat_true(_computed_mask(keys[0], site)[0], x.device, site)
        if m == node.ndim and value.ndim == 1 and value.shape[0] not in (1, flat.shape[0]):
            raise _bind.fail(ValueError, f"NumPy boolean array indexing assignment cannot "
                             f"assign {value.shape[0]} input values to the {flat.shape[0]} "
                             f"output values where the mask is true", site)
        warn_complex_cast(given, node.dtype, site)
        out = getattr(Array(rows).at[flat], mode)(Array(value))
        return Array(reshape_node(out._node, node.shape, site))
    warn_complex_cast(given, node.dtype, site)
    cond = Array(reshape_node(mask, mask.shape + (1,) * len(rest), site))
    v = Array(value)
    new = {"set": lambda: v, "add": lambda: x + v, "multiply": lambda: x * v,
           "min": lambda: ew.minimum(x, v), "max": lambda: ew.maximum(x, v)}[mode]()
    return ew.where(cond, ew.astype(new, node.dtype), x)  # computed in `promoted`, as JAX


def _broadcasts(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    try:
        return np.broadcast_shapes(shape, target) == tuple(target)
    except ValueError:
        return False
