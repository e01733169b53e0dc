"""Creation functions. `array` and `asarray` copy (a pending result never sees later changes to the
source); `asarray(x, copy=False)` shares the memory of `x` — the caller then must not write to it.
zeros/ones/full/empty are a broadcast scalar: they cost no memory until something needs them."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import _bind, _device
from .donation import own
from .array import Array, zero_d_array
from .graph import Node, dtypes, semantics
from .graph.node import user_site
from ._layout import check_order
from .manipulation import permute_node, slice_node
from .writes import numpy_layout_copies, view_of
from .result_layout import memory_axes  # (the at-once rule reads it too)
from .result_layout import (copied, fill_strided, fortran_contiguous, laid_out,
                            node_memory_axes, strided_layout)


def array(object: Any, dtype: Any = None, copy: bool = True, device: Any = None, *,  # noqa: A002
          order: str = "K", subok: bool = False, ndmin: int = 0, ndmax: Any = None,
          like: Any = None) -> Array:
    """numpy.array / jnp.array: a new Array holding a copy of `object`; `device="cuda:0"` (or GPU
    input data) puts it on a GPU. `ndmin` prepends length-1 axes, as NumPy's; NumPy 2.4's
    `ndmax` caps the axes a nested sequence makes; `order` is checked; a Fortran-ordered or
    transposed ndarray keeps its memory order where NumPy's copy does (`memory_axes`: its
    reductions fold as NumPy's)."""
    site = user_site(1)
    if like is not None:
        check_like(like)
    if ndmax is not None:
        object = _capped(object, dtype, ndmax, site)
    if copy is False and type(object) is not Array and not ndmin:  # NumPy's array(copy=False)
        return asarray(object, dtype, None if order == "K" else order, device=device,  # is its
                       copy=False)  # asarray's: a ValueError where a copy is needed (fuzz57)
    if order != "K":
        order = check_order(order, site)
        if order == "F" and not isinstance(object, (Array, np.ndarray)):  # (a nested list: NumPy's
            out = array(object, dtype, copy, device, order="C", ndmin=ndmin)  # Fortran-ordered copy)
            return Array(copied(out._node, "F")) if out.ndim > 1 else out
    if ndmin:
        out = array(object, dtype, copy, device, order=order)
        missing = operator.index(ndmin) - out.ndim
        return out.reshape((1,) * missing + out.shape) if missing > 0 else out
    if type(object) is np.ndarray and device is None:  # a loop's fresh batch: the common case
        memory = copy_axes(object, order)
        if memory is not None:  # NumPy's copy keeps that order: a view of a C leaf in it
            data = _bind.host_array(np.transpose(object, memory), dtype, site)
            own(data)
            return Array(_in_memory_order(_bind.leaf(data, site), memory, site))
        if dtype is None and object.dtype in _bind.SUPPORTED:  # host_array's answer, ~0.6 us sooner
            data = object.copy()  # (a C-contiguous copy: lazyarray's own, a plan may write over
            own(data)          # it once nothing reads it, lazyarray/donation.py)
            return Array(_bind.leaf(data, site))
        data = _bind.host_array(object, dtype, site)
        own(data)
        return Array(_bind.leaf(data, site))
    if type(object) is list and device is None and dtype is None and object and type(object[0]) in (
            float, int, list):  # `np.array([x, y, z])`, `[[a, b], [c, d]]`: ~2.4 -> 1.2 us
        data = _numbers_array(object)
        if data is not None:
            return Array(_bind.leaf(data, site))
    if type(object) is list and object and type(object[0]) is Array and device is None:
        values = _bind._buffer_values(object)
        if values is not object:  # computed elements (`np.array([s * (y - x), ...])` in a loop):
            data = np.array(values) if dtype is None else _bind.host_array(values, dtype, site)
            if data.dtype in _bind.SUPPORTED:  # an at-once result, as they are, so that the
                return Array(_bind.at_once_leaf(data, site))  # next small op is one too
    if isinstance(object, Array):
        out = _from_array(object, dtype, device, copy, site, order)
        return zero_d_array(out) if not out.shape and out is not object else out  # (an array)
    if _traced(object) and device is None:
        return full((), object, dtype)
    if _device.wants_device(device) or _device.is_device_array(object):
        return Array(_bind.leaf(_device.device_buffer(object, dtype, copy, device, site), site))
    return Array(_bind.leaf(_bind.host_array(object, dtype, site), site))


def copy_axes(obj: np.ndarray, order: str) -> tuple[int, ...] | None:
    """The memory order (outermost axis first; None for C order) of NumPy's copy of `obj` in
    `order`: 'F' reversed axes, 'A' reversed where obj is Fortran- and not C-contiguous, 'K'
    obj's own (`memory_axes`). `np.array(x, order='F')` and `np.asarray(x, order='F')` of a
    C-ordered x were held C-ordered: their `ravel()` was a view (NumPy's is a copy) and their
    sums folded in C order, a last bit off (fuzz53, seed 22)."""
    if obj.ndim < 2 or order == "C":
        return None
    if order == "F" or order == "A" and obj.flags.f_contiguous and not obj.flags.c_contiguous:
        return tuple(range(obj.ndim))[::-1]
    return memory_axes(obj) if order == "K" else None


def _strided_leaf(obj: np.ndarray, dtype: Any, site: Any) -> Node:
    """`np.asarray` of an array in C order, a slice of a contiguous leaf where `obj` is strided
    (result_layout.strided_layout: its views and copies are then NumPy's), else the leaf."""
    data = _bind.host_array(obj, dtype, site)
    layout = strided_layout(obj)
    if layout is None:
        return _bind.leaf(data, site)
    leaf, spec = layout
    return slice_node(_bind.leaf(fill_strided(data, leaf, spec), site), spec, site)


def _in_memory_order(leaf: Node, axes: tuple[int, ...], site: Any) -> Node:
    """The value whose memory order is `axes`, from the leaf holding it in that order."""
    return permute_node(leaf, [axes.index(d) for d in range(len(axes))], site)


def _numbers_array(obj: list) -> np.ndarray | None:
    """NumPy's array of a list of Python numbers where it is float64 or int64 (host_array's
    answer then: no conversion, no check left); None for anything else (a ragged list, a big
    int's object dtype, a bool, a nested Array's other dtype): the general path decides."""
    try:
        data = np.array(obj)
    except (TypeError, ValueError, OverflowError):
        return None
    return data if data.dtype is dtypes.float64 or data.dtype is dtypes.int64 else None


def _traced(obj: Any) -> bool:
    """la.jit's traced scalar argument: a 0-d run-time scalar (`full`), not a host buffer of
    the value it had while tracing (converting it raises)."""
    return getattr(obj, "_lazyarray_weak_type", None) is not None


def _capped(object: Any, dtype: Any, ndmax: Any, site: _bind.Site) -> Any:  # noqa: A002
    """`np.array(..., ndmax=n)`: NumPy's checks of n (an int in [0, 64]); a nested sequence as
    NumPy reads it with that cap (its ValueError where the data has more levels; fewer levels
    would be an object array: lazyarray's TypeError). An array is not capped, as NumPy's."""
    n = operator.index(ndmax)
    if not 0 <= n <= 64:
        raise _bind.fail(ValueError, "ndmax must be in the range [0, NPY_MAXDIMS (64)] ", site)
    if isinstance(object, (Array, np.ndarray, np.generic)):
        return object
    try:
        return np.array(object, dtype=None if dtype is None else dtypes.to_dtype(dtype), ndmax=n)
    except Exception as exc:
        raise _bind.with_site(exc, site) from None


def asarray(a: Any, dtype: Any = None, order: str | None = None, *, device: Any = None,
            copy: bool | None = None, like: Any = None) -> Array:
    """Array API `asarray` (numpy.asarray), but `copy=None` copies host data too, so later writes
    to `obj` (even through a writable base of a read-only view) never reach a pending expression.
    `copy=False` shares the memory of a C-contiguous array of a supported dtype (host or GPU) or raises ValueError — a hazard the caller
    accepts: writing to `obj` afterwards changes this Array and everything built from it.
    NumPy's `order` is checked; a Fortran-ordered or transposed ndarray keeps its memory order
    unless `order="C"` (`memory_axes`)."""
    site = user_site(1)
    if like is not None:
        check_like(like)
    if order is not None:
        order = check_order(order, site)
    if isinstance(a, Array):
        out = _from_array(a, dtype, device, copy, site, order or "K")
        if out is a and a._view is False and not a.shape and copy is not False:
            return zero_d_array(Array(a._node))  # (NumPy's scalar in: a 0-d array out)
        if out is a and order is not None and numpy_layout_copies(a, order):
            if copy is False:
                raise _bind.fail(ValueError, _no_copy_text(), site)
            return Array(copied(a._node, order))  # NumPy's copy in that order (fuzz47)
        return out
    if _traced(a) and device is None and copy is not False:
        return full((), a, dtype)
    if _device.wants_device(device) or _device.is_device_array(a):
        buffer = _device.device_buffer(a, dtype, copy is not False, device, site)
        return Array(_bind.leaf(buffer, site))
    if copy is not False:
        if isinstance(a, np.ndarray) and not a.flags.writeable and copy is None \
                and _is_itself(a, dtype, order):
            out = asarray(a, dtype, order, device=device, copy=True)
            return out if type(out._view) is tuple else view_of(out, Array(out._node),
                                                                writable=False)
        if isinstance(a, np.ndarray) and order == "F":
            memory = copy_axes(a, order)  # (NumPy's copy, or obj itself where it has that order)
            data = _bind.host_array(a if memory is None else np.transpose(a, memory), dtype,
                                    site)
            node = _bind.leaf(data, site)
            return Array(node if memory is None else _in_memory_order(node, memory, site))
        if not isinstance(a, np.ndarray) or order == "C" or a.flags.c_contiguous:
            return Array(_bind.leaf(_bind.host_array(a, dtype, site), site))
        if _broadcast_axes(a):  # `np.broadcast_to(x, s)`: NumPy's read-only view of x
            return _broadcast_root(a, dtype, site)
        memory = memory_axes(a)  # a Fortran-ordered or transposed array: NumPy's order kept
        inner = a if memory is None else np.transpose(a, memory)
        node = _strided_leaf(inner, dtype, site)
        return Array(node if memory is None else _in_memory_order(node, memory, site))
    if not isinstance(a, np.ndarray) and hasattr(a, "__dlpack__"):
        a = np.from_dlpack(a)
    if not (isinstance(a, np.ndarray) and a.flags.c_contiguous and a.dtype in dtypes.SUPPORTED
            and (dtype is None or dtypes.to_dtype(dtype) == a.dtype)):
        if _numpy_copies(a, dtype):  # NumPy refuses too (a list, a new dtype): its text
            raise _bind.fail(ValueError, _no_copy_text(), site)
        raise _bind.fail(ValueError, "asarray(copy=False): this input cannot be shared without a "
                         "copy (it is not a C-contiguous array of the requested, supported dtype)",
                         site)
    return Array(_bind.leaf(a, site))


def _is_itself(obj: np.ndarray, dtype: Any, order: str | None) -> bool:
    """Whether NumPy's `asarray(obj, dtype, order)` of a read-only `obj` is `obj` itself, whose
    writes raise: no new dtype, an order it has. Copies of a read-only array were writable here
    (fuzz53: `A = np.asarray(ro); A[0] = 1` passed, NumPy's raised). Not a read-only whole view
    of a writable array: lazyarray's own exports are that (`np.asarray(y)`, read-only as JAX's;
    NumPy's `asarray` of its own array is writable), and handing one back stays writable."""
    if _export_like(obj):
        return False
    if dtype is not None and dtypes.to_dtype(dtype) != obj.dtype:
        return False
    return (order is None or order in ("K", "A") or order == "C" and obj.flags.c_contiguous
            or order == "F" and obj.flags.f_contiguous)


def _export_like(obj: np.ndarray) -> bool:
    """Whether `obj` is a contiguous read-only view at the start of a writable array's memory,
    as lazyarray/array.py's `__array__` hands out (of a buffer, or of a byte buffer the numpy
    backend's pool keeps); not a broadcast (a 0 stride)."""
    base = obj.base
    return (isinstance(base, np.ndarray) and base.flags.writeable
            and (obj.flags.c_contiguous or obj.flags.f_contiguous) and 0 not in obj.strides
            and base.__array_interface__["data"][0] == obj.__array_interface__["data"][0])


def _broadcast_axes(obj: np.ndarray) -> bool:
    """Whether `obj` is a read-only view that repeats its values along some axis (stride 0:
    `np.broadcast_to`, `np.broadcast_arrays`). `np.asarray` of it is that view, whose ufunc
    results NumPy lays out in C order (a 0 stride has no say in nditer's order), where a copy
    in its memory order (`memory_axes`, np.array's K order) made `A = la.asarray(
    np.broadcast_to(v, (3, 4)))` Fortran-ordered: `(A * 2).T.ravel()` was a copy where NumPy's
    is a view (fuzz53), and writes to A passed where NumPy's raise (read-only)."""
    return not obj.flags.writeable and any(
        s == 0 and n > 1 for s, n in zip(obj.strides, obj.shape))


def _broadcast_root(obj: np.ndarray, dtype: Any, site: Any) -> Array:
    """`np.asarray` of a broadcast view: the values it repeats, held as `asarray` holds them,
    broadcast again by a read-only view (la.broadcast_to's)."""
    compact = obj[tuple(slice(0, 1) if s == 0 and n > 1 else slice(None)
                        for s, n in zip(obj.strides, obj.shape))]
    base = asarray(compact, dtype)
    node = _bind.broadcast_to(base._node, obj.shape, site)
    return view_of(base, Array(node), lambda n: _bind.broadcast_to(n, obj.shape, site),
                   writable=False)


def _from_array(x: Array, dtype: Any, device: Any, copy: bool | None, site: Any,
                order: str = "K") -> Array:
    """Values are immutable, so a copy is a new handle on the same node (`x[i] = v` on it rebinds
    only the copy), laid out as NumPy's copy in `order` (result_layout.copied); a new dtype or
    device is a new value, which `copy=False` forbids (the Array API's rule)."""
    want = dtypes.to_dtype(dtype) if dtype is not None else x.dtype
    moves = device is not None and not _same_device(x.device, device)
    if copy is False and want != x.dtype:  # NumPy's refusal, its text
        raise _bind.fail(ValueError, _no_copy_text(), site)
    if copy is False and moves:
        raise _bind.fail(ValueError, "asarray(copy=False): a new device needs a copy", site)
    if want != x.dtype:
        out = x.astype(want, order=order)
    else:
        out = Array(copied(x._node, order)) if copy else x
    return out.to_device(device) if moves else out


def _numpy_copies(obj: Any, dtype: Any) -> bool:
    """Whether NumPy's own `asarray(obj, dtype, copy=False)` refuses (it needs a copy)."""
    try:
        np.asarray(obj, dtype=dtype, copy=False)
    except ValueError:
        return True
    except Exception:  # noqa: BLE001 (an input NumPy rejects otherwise: lazyarray's text)
        return False
    return False


def _no_copy_text() -> str:
    """NumPy's ValueError text for `copy=False` where a copy is needed (np.array(x, copy=False)
    of NumPy 1 programs), from the installed NumPy: it names the migration guide."""
    try:
        np.asarray([0], copy=False)
    except ValueError as exc:
        return str(exc)
    return "Unable to avoid copy while creating an array as requested."  # pragma: no cover


def _same_device(have: str, want: Any) -> bool:
    _device.wants_device(want)  # rejects unknown device names
    return want == have or (want == "cuda" and have.startswith("cuda"))


def _place(x: Array, device: Any) -> Array:
    """`device=` of the creation functions: None and 'cpu' keep the host, a GPU name uploads."""
    if device is None or _same_device(x.device, device):
        return x
    return x.to_device(device)


_SMALL_DIM = 1 << 31  # shapes of Python ints whose sizes stay below it need no more checks


def _shape(shape: Any, dtype: np.dtype, site: Any) -> tuple[int, ...]:
    """NumPy's shape argument: one integer (a 0-d integer array too) or a sequence of them;
    floats, bools and strings raise TypeError, as NumPy (they were truncated or parsed here)."""
    if type(shape) is int and 0 <= shape < _SMALL_DIM:  # (`np.zeros(n)` in a loop: ~2.5 -> 0.2 us)
        return (shape,)
    if type(shape) is tuple and len(shape) <= 4:
        size = 1
        for s in shape:
            if type(s) is not int or not 0 <= s < _SMALL_DIM:
                break
            size *= s
        else:
            if size < _SMALL_DIM:
                return shape
    if ((isinstance(shape, (int, np.integer)) and not isinstance(shape, (bool, np.bool_)))
            or _traced(shape) or isinstance(shape, (str, bytes))):
        shape = (_dim(shape, site),)  # la.jit's traced scalar raises, naming itself
    elif not hasattr(shape, "__iter__") or getattr(shape, "ndim", None) == 0:
        try:
            if isinstance(shape, (bool, np.bool_)):
                raise TypeError
            shape = (operator.index(shape),)  # a 0-d integer array
        except TypeError:
            raise _bind.fail(TypeError, "expected a sequence of integers or a single integer, "
                             f"got '{shape!r}'", site) from None
    shape = tuple(_dim(s, site) for s in shape)
    if any(s < 0 for s in shape):
        raise _bind.fail(ValueError, "negative dimensions are not allowed", site)  # NumPy's text
    return _bind.check_size(shape, dtype.itemsize, site)


def _dim(s: Any, site: Any) -> int:
    if type(s) is int:
        return s
    if _traced(s):
        return int(s)  # la.jit's traced scalar raises, naming itself
    if isinstance(s, (bool, np.bool_)):
        raise _bind.fail(TypeError, "an integer is required", site)
    try:
        return operator.index(s)
    except TypeError:
        raise _bind.fail(TypeError, f"'{type(s).__name__}' object cannot be interpreted as an "
                         "integer", site) from None


def full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *,
         device: Any = None, like: Any = None) -> Array:
    """numpy.full / Array API `full`: a broadcast scalar (no memory until needed); `order='F'`
    lays it out Fortran-ordered, as NumPy's (its later sums fold down the columns)."""
    site = user_site(1)
    if like is not None:
        check_like(like)
    if (type(fill_value) is float and _float64(dtype) and order == "C"
            and device is None):  # `np.zeros(n)` in a loop: ~3.1 -> 2 us
        return Array(_bind.broadcast_to(_bind.scalar_leaf(fill_value, dtypes.float64, site),
                                        _shape(shape, dtypes.float64, site), site))
    if order != "C" and check_order(order, site, "CF") == "F":
        return Array(copied(full(shape, fill_value, dtype, device=device)._node, "F"))
    if device is not None:
        return _place(full(shape, fill_value, dtype), device)
    if isinstance(fill_value, Array):
        dt = dtypes.to_dtype(dtype) if dtype is not None else fill_value.dtype
        return Array(_bind.broadcast_to(_bind.cast(fill_value._node, dt, site),
                                        _shape(shape, dt, site), site))
    if dtype is None:
        weak = dtypes.weak_type_of(fill_value)
        if weak is int and type(fill_value) is int and not -(1 << 63) <= fill_value < 1 << 63:
            weak = None  # NumPy's np.array(2**63) is uint64; beyond uint64, object (TypeError)
        dt = dtypes.result_type(weak) if weak else _bind.host_array(fill_value, site=site).dtype
    else:
        dt = dtypes.to_dtype(dtype)
    traced = getattr(fill_value, "_lazyarray_weak_type", None)  # la.jit's scalar argument
    if traced is not None:  # its value is known only at run time: a scalar argument, cast
        weak_dt = dtypes.result_type(traced)
        node = _bind.scalar_leaf(fill_value, weak_dt, site)
        if dt != weak_dt:
            node = Node(_bind.CAST, (node,), (), (), dt, None, site)
        return Array(_bind.broadcast_to(node, _shape(shape, dt, site), site))
    if isinstance(fill_value, (list, tuple, np.ndarray)) and np.ndim(fill_value) > 0:
        return _full_of_array(shape, fill_value, dt, site)
    value = fill_value.item() if isinstance(fill_value, np.generic) else fill_value
    if dt.kind in "iu" and isinstance(value, float):  # astype's rule (graph/semantics.py)
        value = semantics.cast(np.array(value), dt).item()  # (NumPy: platform garbage + warning)
    if type(value) is int and dt.kind in "iub":
        _bind.check_weak_int(value, dt, site)  # bool: through a C long, as NumPy
    node = _bind.scalar_leaf(dt.type(value).item() if dt.kind != "b" else bool(value), dt, site)
    return Array(_bind.broadcast_to(node, _shape(shape, dt, site), site))


def _float64(dtype: Any) -> bool:
    """Whether `dtype` is None or float64 by one of its common names (`float`, `np.float64`, the
    dtype, as *_like passes it): identity tests, no conversion."""
    return dtype is None or dtype is dtypes.float64 or dtype is float or dtype is np.float64


def _full_of_array(shape: Any, fill_value: Any, dt: np.dtype, site: _bind.Site) -> Array:
    """np.full(shape, [1, 2, 3]): the values broadcast over `shape` (`np.copyto`, casting
    'unsafe', as NumPy's full), copied once; NumPy's error where they do not broadcast."""
    target = _shape(shape, dt, site)
    values = _bind.host_array(fill_value, site=site)
    try:
        np.broadcast_shapes(values.shape, target)
        ok = len(values.shape) <= len(target) and np.broadcast_shapes(values.shape, target) == target
    except ValueError:
        ok = False
    if not ok:
        raise _bind.fail(ValueError, "could not broadcast input array from shape "
                         f"{_bind.numpy_shape_text(values.shape)} into shape "
                         f"{_bind.numpy_shape_text(target)}", site)
    return Array(_bind.broadcast_to(_bind.leaf(values.astype(dt), site), target, site))


def zeros(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None,
          like: Any = None) -> Array:
    """numpy.zeros / Array API `zeros`."""
    if like is not None:
        check_like(like)
    if _float64(dtype):  # (full's fast path: a float fill of float64)
        return full(shape, 0.0, None, order, device=device)
    return full(shape, 0, dtype, order, device=device)


def ones(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None,
          like: Any = None) -> Array:
    """numpy.ones / Array API `ones`."""
    if like is not None:
        check_like(like)
    if _float64(dtype):
        return full(shape, 1.0, None, order, device=device)
    return full(shape, 1, dtype, order, device=device)


def empty(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None,
          like: Any = None) -> Array:
    """numpy.empty / Array API `empty`, but zeros: an uninitialized buffer would make results
    depend on garbage."""
    return zeros(shape, dtype, order, device=device, like=like)


def check_like(like: Any) -> None:
    """NumPy's `like=`: an array with `__array_function__` (an ndarray, an Array) only says
    which library answers, here this one; anything else is NumPy's TypeError (the creation
    functions refused the keyword, a TypeError of their own; fuzz56)."""
    if like is not None and not hasattr(type(like), "__array_function__"):
        raise TypeError("The `like` argument must be an array-like that implements the "
                        "`__array_function__` protocol.")


def _like(x: Any, dtype: Any, order: Any = "K", shape: Any = None) -> tuple[Any, Any]:
    """The shape and dtype of a *_like result: x's unless `shape=`/`dtype=` say otherwise
    (NumPy's keywords; `order` checked, changing nothing)."""
    if order != "K":
        check_order(order, user_site(1))
    if isinstance(x, Array):
        have_shape, have_dtype = x.shape, x.dtype
    else:
        host = np.asarray(x)
        have_shape, have_dtype = host.shape, host.dtype
    return (have_shape if shape is None else shape), (dtype if dtype is not None else have_dtype)


def _like_device(x: Any, device: Any) -> Any:
    """x's device, None for the host's (full's fast path takes no `device`)."""
    if device is not None or not isinstance(x, Array):
        return device
    have = x.device
    return None if have == "cpu" else have


def zeros_like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True,
               shape: Any = None, *, device: Any = None) -> Array:
    """numpy.zeros_like / Array API `zeros_like` (on x's device unless `device=` says otherwise)."""
    out = zeros(*_like(a, dtype, order, shape), device=_like_device(a, device))
    return _laid_out_like(out, a, order, shape)


def ones_like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True,
              shape: Any = None, *, device: Any = None) -> Array:
    """numpy.ones_like / Array API `ones_like`."""
    out = ones(*_like(a, dtype, order, shape), device=_like_device(a, device))
    return _laid_out_like(out, a, order, shape)


def empty_like(x: Any, dtype: Any = None, order: str = "K", subok: bool = True,
               shape: Any = None, *, device: Any = None) -> Array:
    """numpy.empty_like / Array API `empty_like`, but zeros (see `empty`)."""
    out = zeros(*_like(x, dtype, order, shape), device=_like_device(x, device))
    return _laid_out_like(out, x, order, shape)


def full_like(a: Any, fill_value: Any, dtype: Any = None, order: str = "K", subok: bool = True,
              shape: Any = None, *, device: Any = None) -> Array:
    """numpy.full_like / Array API `full_like`."""
    shape_, dt = _like(a, dtype, order, shape)
    out = full(shape_, fill_value, dt, device=_like_device(a, device))
    return _laid_out_like(out, a, order, shape)


def _laid_out_like(out: Array, x: Any, order: Any, shape: Any) -> Array:
    """A *_like result in NumPy's layout: x's memory order for 'K' (`np.zeros_like(A.T)` is
    Fortran-ordered: its later sums fold down the columns), Fortran order for 'F', and for 'A'
    where x is Fortran-contiguous only; C order otherwise and wherever `shape=` is given."""
    if shape is not None or out.ndim < 2 or order == "C":
        return out
    key = check_order(order, None)
    if key == "F":
        return Array(copied(out._node, "F"))
    if isinstance(x, Array):
        axes = node_memory_axes(x._node)
    else:
        host = np.asarray(x)
        axes = memory_axes(host) if key == "K" or not host.flags.c_contiguous else None
    if axes is None:
        return out
    if key == "A":  # (Fortran-contiguous and not C: x's axes in reverse)
        if axes != tuple(range(out.ndim))[::-1] or not _fortran_contiguous(x):
            return out
    return Array(laid_out(out._node, axes))


def _fortran_contiguous(x: Any) -> bool:
    if isinstance(x, Array):  # (no copy made to find out)
        return fortran_contiguous(x._node)
    return bool(np.asarray(x).flags.f_contiguous)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None, *,
           device: Any = None, like: Any = None) -> Array:
    """numpy.arange / Array API `arange`, computed eagerly (its length depends on the values)."""
    site = user_site(1)
    check_like(like)
    values = np.arange(start, stop, step,
                       dtype=dtypes.to_dtype(dtype) if dtype is not None else None)
    return _place(Array(_bind.leaf(_bind.host_array(values, site=site, copy=False), site)), device)


def linspace(start: float, stop: float, num: int = 50, endpoint: bool = True,
             retstep: bool = False, dtype: Any = None, axis: int = 0, *,
             device: Any = None) -> Array | tuple[Array, Array]:
    """numpy.linspace / Array API `linspace` (computed on the host); retstep=True also gives
    NumPy's step (a 0-d Array standing for NumPy's float64 scalar, an array for array
    endpoints), `axis` places the samples for array endpoints."""
    site = user_site(1)
    _bind.refuse_traced(start, stop, num)  # computed now: a traced value would stay baked in
    start, stop, num = host_values(start, stop, num)
    values, step = np.linspace(start, stop, num, endpoint=endpoint, retstep=True, axis=axis,
                               dtype=dtypes.to_dtype(dtype) if dtype is not None else None)
    samples = _place(Array(_bind.leaf(_bind.host_array(values, site=site, copy=False), site)),
                     device)
    if not retstep:
        return samples
    spacing = _place(Array(_bind.leaf(np.asarray(step), site)), device)
    if isinstance(step, np.generic):  # NumPy's scalar step: its repr `np.float64(0.25)` (probe49)
        spacing._view = False
    return samples, spacing


def host_values(*values: Any) -> tuple[Any, ...]:
    """Array arguments of a function computed on the host, evaluated to NumPy: handed to NumPy
    as Arrays they would dispatch back here through `__array_function__` (RecursionError)."""
    return tuple(np.asarray(v) if isinstance(v, Array) else v for v in values)


def host_result(value: Any) -> Array:
    """NumPy's result of work done on the host, as an Array (a leaf): NumPy's *scalar*
    (`np.unravel_index(7, s)`'s entries, `np.add.reduce(x)`) stays one, a 0-d Array standing for it
    (`_view` False: its repr is `np.int64(1)`, and `t += 1` rebinds `t`), a 0-d ndarray stays an array."""
    out = Array(_bind.leaf(np.asarray(value, order="C")))  # (ascontiguousarray makes 0-d 1-d)
    if isinstance(value, np.generic):
        out._view = False
    return out


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None,
        order: str = "C", *, device: Any = None, like: Any = None) -> Array:
    """numpy.eye / Array API `eye` (computed on the host; `order` changes nothing)."""
    site = user_site(1)
    check_like(like)
    if order != "C":
        check_order(order, site, "CF")
    values = np.eye(N, M, k, dtype=dtypes.to_dtype(dtype) if dtype is not None else np.float64)
    return _place(Array(_bind.leaf(values, site)), device)
