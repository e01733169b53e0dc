"""NumPy's index helpers and element-wise builders: `mgrid`/`ogrid`/`r_`/`c_`/`s_`/`index_exp`,
`fromfunction`, `fromiter`, `ndenumerate`/`ndindex`, `put`, `apply_along_axis`/`apply_over_axes`.

The grids' 1-D axes are NumPy's own (`np.ogrid` computes `arange(n) * step + start` in NumPy's
dtype, a few numbers each); the dense grid is those axes broadcast lazily, so `mgrid[0:n, 0:m]`
costs no n*m host array. `s_`/`index_exp`/`ndindex` build Python index objects and are NumPy's.
"""

from __future__ import annotations

import operator
import re
from typing import Any, Callable, Iterator

import numpy as np

from . import _bind, manipulation as mp
from ._index_values import _holds_no_array, numpy_packed
from .array import Array
from .graph.dtypes import refuse_array
from .graph.node import user_site
from .creation import arange, asarray, ones
from .searching import nonzero
from .numpy_writes import check_python_values
from .writes import check_writable

s_, index_exp, ndindex = np.s_, np.index_exp, np.ndindex


def _grid(key: Any, sparse: bool) -> Any:
    axes = np.ogrid[key]  # NumPy's axis values and dtype (a tuple for a tuple key)
    if not isinstance(axes, tuple):  # one slice: the 1-D array itself, in mgrid and ogrid alike
        return asarray(axes)
    vectors = [asarray(v) for v in axes]
    if sparse:
        return tuple(vectors)
    shape = tuple(max(v.shape[k] for v in axes) for k in range(len(axes)))
    return mp.stack([mp.broadcast_to(v, shape) for v in vectors])


class _Grid:
    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, key: Any) -> Any:
        return _grid(key, self.sparse)


mgrid = _Grid(sparse=False)
mgrid.__doc__ = "numpy.mgrid: a dense grid (one lazy broadcast of NumPy's 1-D axes per axis)."
ogrid = _Grid(sparse=True)
ogrid.__doc__ = "numpy.ogrid: the open grid, NumPy's 1-D axes as broadcastable Arrays."


class _Concatenator:
    """numpy.r_ / numpy.c_: slices become aranges (linspace for a complex step), a leading
    string sets 'axis[,ndmin[,trans1d]]', items are promoted together and concatenated lazily."""

    def __init__(self, axis: int, ndmin: int, trans1d: int) -> None:
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key: Any) -> Array:
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs, kinds = [], []
        for k, item in enumerate(key if isinstance(key, tuple) else (key,)):
            if isinstance(item, str):
                axis, ndmin, trans1d = _directive(item, k, axis, ndmin, trans1d)
                continue
            if isinstance(item, slice):
                obj = asarray(np.r_[item])
                if ndmin > 1:
                    obj = _ndmin(obj, ndmin)
                    obj = obj if trans1d == -1 else mp.swapaxes(obj, -1, trans1d)
                kinds.append(obj.dtype)
            elif type(item) in np.ScalarType:
                obj = asarray(item)
                kinds.append(item)
            else:
                obj = asarray(item)
                nd = obj.ndim
                obj = _ndmin(obj, ndmin)
                if trans1d != -1 and nd < ndmin:
                    k2, k1 = ndmin - nd, trans1d + (ndmin - nd + 1 if trans1d < 0 else 0)
                    order = list(range(ndmin))
                    obj = mp.permute_dims(obj, order[:k1] + order[k2:] + order[k1:k2])
                kinds.append(obj.dtype)
            objs.append(obj)
        if not objs:
            return asarray(np.r_[()])
        final = np.result_type(*kinds)
        return mp.concat([_ndmin(o.astype(final), ndmin) for o in objs], axis=axis)

    def __len__(self) -> int:
        return 0


def _directive(item: str, k: int, axis: int, ndmin: int, trans1d: int) -> tuple[int, int, int]:
    if k != 0:
        raise ValueError("special directives must be the first entry.")
    if item in ("r", "c"):
        raise NotImplementedError("r_['r'] / r_['c'] make numpy.matrix, which lazyarray does "
                                  "not have (docs/numpy_coverage.md)")
    try:
        parts = [int(p) for p in item.split(",")]
    except ValueError as exc:
        raise ValueError(f"unknown special directive {item!r}") from exc
    return (parts[0], parts[1] if len(parts) > 1 else ndmin,
            parts[2] if len(parts) > 2 else trans1d)


def _ndmin(x: Array, ndmin: int) -> Array:
    return x if x.ndim >= ndmin else mp.reshape(x, (1,) * (ndmin - x.ndim) + x.shape)


r_ = _Concatenator(0, 1, -1)
c_ = _Concatenator(-1, 2, 0)


def fromfunction(function: Callable[..., Any], shape: Any, *, dtype: Any = float,
                 like: Any = None, **kwargs: Any) -> Any:
    """numpy.fromfunction: `function(*index_grids)` with each grid a lazy broadcast of an arange
    (NumPy passes dense index arrays; the values are the same)."""
    shape = tuple(operator.index(s) for s in (shape if np.iterable(shape) else (shape,)))
    grids = [mp.broadcast_to(mp.reshape(arange(n, dtype=dtype), (n,) + (1,) * (len(shape) - k - 1)),
                             shape) for k, n in enumerate(shape)]
    return function(*grids, **kwargs)


def fromiter(iter: Any, dtype: Any, count: int = -1, *, like: Any = None) -> Array:  # noqa: A002
    """numpy.fromiter: the iterable is host data, read by NumPy once."""
    refuse_array(dtype)  # (NumPy reads an Array's `.dtype`; its array: a TypeError)
    return asarray(np.fromiter(iter, dtype, count))


def ndenumerate(arr: Any) -> Iterator[tuple[tuple[int, ...], Any]]:
    """numpy.ndenumerate: (index, value) pairs; evaluates `arr` (iteration reads values)."""
    return np.ndenumerate(np.asarray(arr))


def put(a: Array, ind: Any, v: Any, mode: str = "raise") -> None:
    """numpy.put: `a.flat[ind] = v` with v repeated to ind's length; rebinds the handle `a` as
    `a[...] = ...` does. The indices are read on the host (NumPy's bounds check and its
    last-write-wins order for repeated indices need their values)."""
    if not isinstance(a, Array):
        raise TypeError(f"argument 1 must be an Array, not {type(a).__name__}")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    check_writable(a, "put: output array is read-only")
    check_python_values(v, a.dtype)
    idx = np.asarray(ind).ravel()
    if idx.dtype.kind not in "iub" and idx.size:  # (`[]` is float64, and NumPy's put takes it)
        raise TypeError("Cannot cast array data from dtype('float64') to dtype('int64') "
                        "according to the rule 'safe'")
    idx = idx.astype(np.int64)
    n = a.size
    if n == 0 and idx.size:  # (NumPy's text, whatever the mode or the values: fuzz, seed 1500033)
        raise IndexError("cannot replace elements of an empty array")
    error = None
    if mode == "raise" and idx.size and np.size(v) and (idx.min() < -n or idx.max() >= n):
        first = int(np.flatnonzero((idx < -n) | (idx >= n))[0])
        error = IndexError(f"index {idx[first]} is out of bounds for axis 0 with size {n}")
        idx = idx[:first]  # NumPy's put writes the indices before the bad one, then raises
    idx = np.clip(idx, 0, n - 1) if mode == "clip" else idx % n if n else idx
    if idx.size:
        _put_values(a, idx, v)
    if error is not None:
        raise error


def _put_values(a: Array, idx: np.ndarray, v: Any) -> None:
    """put's write of in-bounds, non-negative flat indices `idx`."""
    vals = mp.ravel(asarray(v))
    if vals.size == 0:
        return  # NumPy: an empty v writes nothing
    take = np.arange(idx.size) % vals.size
    last = {int(i): k for k, i in enumerate(idx)}  # repeated indices: NumPy's last write wins
    keep = np.fromiter(last.values(), np.int64, len(last))
    flat = mp.ravel(a)
    flat[asarray(idx[keep])] = vals[asarray(take[keep])].astype(a.dtype)
    a[...] = mp.reshape(flat, a.shape)


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: Any, *args: Any,
                     **kwargs: Any) -> Array:
    """numpy.apply_along_axis: func1d on every 1-D slice along `axis` (a Python loop, as NumPy's;
    each call is lazy), the results stacked in the first result's dtype, as NumPy's buffer."""
    x = asarray(arr)
    axis = operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(axis, x.ndim)
    axis %= x.ndim
    moved = mp.moveaxis(x, axis, -1)
    outer = moved.shape[:-1]
    results = [asarray(func1d(moved[ix], *args, **kwargs)) for ix in np.ndindex(outer)]
    if not results:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    first = results[0]
    out = mp.reshape(mp.stack([r.astype(first.dtype) for r in results]), outer + first.shape)
    k = first.ndim
    order = list(range(axis)) + list(range(len(outer), len(outer) + k)) + list(
        range(axis, len(outer)))
    return mp.permute_dims(out, order)


def apply_over_axes(func: Callable[[Array, int], Any], a: Any, axes: Any) -> Array:
    """numpy.apply_over_axes: func(a, axis) for each axis in turn, the reduced axis kept."""
    val = asarray(a)
    n = val.ndim
    for axis in (axes,) if np.ndim(axes) == 0 else axes:
        axis = axis + n if axis < 0 else axis
        res = asarray(func(val, axis))
        if res.ndim != val.ndim:
            res = mp.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


class flatiter:  # noqa: N801  (NumPy's name)
    """`x.flat`, as numpy.flatiter: indexing reads the ravelled Array lazily; iterating evaluates
    and yields NumPy scalars; `x.flat[i] = v` rebinds the handle `x` (NumPy writes x's memory),
    with v repeated to the selection's length as NumPy does."""

    def __init__(self, base: Array) -> None:
        self.base = base

    def __getitem__(self, key: Any) -> Array:
        return _flat_item(mp.ravel(self.base), key)

    def __setitem__(self, key: Any, value: Any) -> None:
        check_writable(self.base, "underlying array is read-only")  # (NumPy's flatiter text)
        flat = mp.ravel(self.base)
        want = _flat_item(flat, key).shape
        if not want and isinstance(value, (bool, int, float, complex, str, list, tuple,
                                           np.generic)):
            _check_single_item(value, self.base.dtype)
        if type(value) in (bool, int, float, complex, str, list, tuple) and (
                type(value) not in (list, tuple) or _holds_no_array(value)):
            # NumPy packs Python values item by item: NaN into ints is its ValueError
            value = numpy_packed(value, self.base.dtype, user_site(1))
        vals = asarray(value)
        size = int(np.prod(want))
        if vals.shape != want and vals.size not in (1, size) and vals.size:
            vals = mp.ravel(vals)[asarray(np.arange(size) % vals.size)]
        if vals.size == size and vals.shape != want:
            vals = mp.reshape(vals, want)
        flat[key] = vals.astype(self.base.dtype)
        self.base[...] = mp.reshape(flat, self.base.shape)

    def __iter__(self) -> Iterator[Any]:
        return iter(np.asarray(self.base).ravel())

    def __len__(self) -> int:
        return self.base.size

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        out = np.asarray(mp.ravel(self.base))
        return out if dtype is None else out.astype(dtype)

    def copy(self) -> Array:
        return mp.ravel(self.base)


_AXIS_0 = re.compile(r"^(index -?\d+ is out of bounds) for axis 0 with (size \d+)$")


def _flat_item(flat: Array, key: Any) -> Array:
    """`flat[key]` with NumPy's flatiter text for an index out of bounds, `index 6 is out of
    bounds for size 6` (the ravelled Array's says `for axis 0 with size 6`; fuzz55's seed 1032)."""
    try:
        return flat[key]
    except IndexError as exc:
        match = _AXIS_0.match(str(exc))
        if match is None:
            raise
        exc.args = (f"{match.group(1)} for {match.group(2)}",) + exc.args[1:]
        raise


def _check_single_item(value: Any, dtype: np.dtype) -> None:
    """NumPy's flatiter stores one element through its own setitem, which answers any value it
    cannot convert with `ValueError: Error setting single item of array.` (`a.flat[0] = 1j` into
    floats, `= [1, 2]`, `= 300` into int8), where indexing raises the conversion's own error or
    (a list) wrote its first item here (fuzz55's seed 2255). Asked of NumPy on one element."""
    if isinstance(value, (list, tuple)) and not _holds_no_array(value):
        return
    probe = np.zeros(1, dtype)
    try:
        probe.flat[0] = value
    except (TypeError, ValueError, OverflowError) as exc:
        raise _bind.fail(type(exc), str(exc), user_site(2)) from None


def _set_flat(x: Array, value: Any) -> None:
    """`x.flat = v`: every element, v repeated as NumPy does (rebinds x)."""
    check_writable(x, "array is read-only")  # (NumPy's text for the flat attribute)
    flatiter(x)[:] = value


Array.flat = property(flatiter, _set_flat, doc=flatiter.__doc__)  # type: ignore[attr-defined]


def mask_indices(n: int, mask_func: Callable[[Array, int], Any], k: int = 0) -> tuple[Array, ...]:
    """numpy.mask_indices: the indices where mask_func(ones((n, n)), k) is non-zero (a function
    of n and k: evaluated)."""
    return nonzero(asarray(mask_func(ones((n, n), dtype=np.int64), k)) != 0)


class vectorize:  # noqa: N801  (NumPy's name)
    """numpy.vectorize: NumPy's per-element Python loop (as in NumPy) on the evaluated inputs;
    the results come back as Arrays. For speed, write pyfunc with la operations instead: it is
    then lazy and fused as it stands."""

    def __init__(self, pyfunc: Any = np._NoValue, otypes: Any = None, doc: Any = None,
                 excluded: Any = None, cache: bool = False, signature: Any = None) -> None:
        self._options = dict(otypes=otypes, doc=doc, excluded=excluded, cache=cache,
                             signature=signature)
        self._np = None if pyfunc is np._NoValue else np.vectorize(pyfunc, **self._options)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._np is None:  # @la.vectorize(otypes=...) used as a decorator factory
            return vectorize(args[0], **self._options)
        host = [np.asarray(a) if isinstance(a, Array) else a for a in args]
        out = self._np(*host, **{k: np.asarray(v) if isinstance(v, Array) else v
                                 for k, v in kwargs.items()})
        return tuple(asarray(o) for o in out) if isinstance(out, tuple) else asarray(out)
