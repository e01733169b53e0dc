"""la.fft: the Array API fft extension.

The transforms are library calls (graph/ops_fft.py: pocketfft through NumPy on the CPU, cuFFT
through CuPy), and the elementwise work around them fuses. They need complex dtypes (a build
without them raises NotImplementedError naming that). fftfreq and rfftfreq
are fused kernels over the element index (no data read), fftshift and ifftshift are views of two
halves joined by one concat.

Arguments after the input may be passed by position as well, in NumPy's order (`fft(x, n)`,
`fftn(x, s, axes)`, `fftfreq(n, d)`), and `norm=None` is NumPy's "backward": NumPy programs call
them so. `fft2`/`ifft2`/`rfft2`/`irfft2` are the n-dimensional transforms over axes (-2, -1).
"""

from __future__ import annotations

import operator
import sys
import warnings
from typing import Any, Sequence

import numpy as np

from . import _bind
from .array import Array
from .creation import _place, host_result, host_values
from .graph import dtypes, get_op
from .graph.node import Node, user_site
from .graph.ops_random import flat_index
from .manipulation import concat, slice_node
from .reductions import _as_node
from .writes import check_writable
from .numpy_coverage import missing as _missing

_NORMS = ("backward", "ortho", "forward")


def _complex_of(dt: np.dtype) -> np.dtype | None:
    want = np.dtype(np.complex64 if dt == dtypes.float32 else np.complex128)
    return want if want in dtypes.SUPPORTED else None


def _prepare(x: Any, name: str, site: _bind.Site, real_input: bool) -> tuple[Node, np.dtype]:
    """x cast to the transform's input dtype, and the complex dtype of its spectrum."""
    node = _as_node(x, site)
    real = dtypes.float32 if node.dtype == np.float16 else node.dtype if node.dtype.kind == "f" else (
        np.dtype(node.dtype.char.lower()) if node.dtype.kind == "c" else dtypes.float64)
    ct = _complex_of(real)
    if ct is None:
        raise _bind.fail(NotImplementedError, f"fft.{name} needs complex dtypes, which this build "
                         "of lazyarray does not have yet", site)
    return _bind.cast(node, real if real_input else ct, site), ct


def _points(n: Any, site: _bind.Site, whole: int | None = None) -> int:
    """An FFT length as NumPy reads it: an integer (a bool, a float or a str is a TypeError:
    int() made 2.5 two points here), at least 1; -1 in an `s` tuple (`whole`) is the input's
    length."""
    if isinstance(n, (bool, np.bool_)):
        raise _bind.fail(TypeError, f"an integer is required for the number of points, not "
                         f"{n!r}", site)
    try:
        m = operator.index(n)
    except TypeError:
        raise _bind.fail(TypeError, f"'{type(n).__name__}' object cannot be interpreted as an "
                         "integer (the number of points)", site) from None
    if m == -1 and whole is not None:
        return whole
    if m < 1:
        raise _bind.fail(ValueError, f"Invalid number of FFT data points ({m}) specified.", site)
    return m


def _one_size(n: Any, site: _bind.Site, takes_bool: bool = False) -> tuple[int] | None:
    """fft/ifft/rfft/irfft's `n` as an `s` tuple (-1 is no length there, as NumPy). NumPy's
    rfft and ihfft take a bool as 0 or 1 (`takes_bool`), its other transforms refuse it."""
    if takes_bool and isinstance(n, (bool, np.bool_)):
        n = int(n)
    return None if n is None else (_points(n, site),)


_AXES_DEPRECATION = (
    "`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a future "
    "version of NumPy, this will raise an error and `s[i]` will correspond to the size along the "
    "transformed axis specified by `axes[i]`. To retain current behaviour, pass a sequence "
    "[0, ..., k-1] to `axes` for an array of dimension k.")


def _default_axes(node: Node, s: Sequence[int] | None, axes: Sequence[int] | None,
                  site: _bind.Site) -> Sequence[int]:
    """NumPy's axes of an n-dimensional transform: all, or the last len(s) with its
    DeprecationWarning (`np.fft.irfftn(X, img.shape)`) at the user's line, as NumPy's module."""
    if axes is not None:
        return axes
    if s is None:
        return tuple(range(node.ndim))
    frame = sys._getframe(1)
    while frame is not None and site and (frame.f_code.co_filename, frame.f_lineno) != site:
        frame = frame.f_back
    if frame is None or not site:
        warnings.warn(_AXES_DEPRECATION, DeprecationWarning, stacklevel=4)
    else:  # (warnings.warn's own attribution: the filters see the caller's module, __main__)
        g = frame.f_globals
        warnings.warn_explicit(_AXES_DEPRECATION, DeprecationWarning, site[0], site[1],
                               g.get("__name__"), g.setdefault("__warningregistry__", {}))
    return tuple(range(node.ndim))[-len(s):]


def _axes_and_sizes(node: Node, s: Sequence[int] | None, axes: Sequence[int] | None,
                    site: _bind.Site) -> tuple[tuple[int, ...], tuple[int, ...]]:
    axes = _default_axes(node, s, axes, site)
    axes = tuple(_bind.normalize_axis(a, node.ndim, site) for a in axes)  # repeats are NumPy's
    if s is None:
        s = tuple(node.shape[a] for a in axes)
    if len(s) != len(axes):
        raise _bind.fail(ValueError, "fft: s and axes must have the same length", site)
    return tuple(_points(n, site, node.shape[a]) for n, a in zip(s, axes)), axes


def _call(name: str, node: Node, s, axes, norm: str, shape, dtype, site) -> Array:
    norm = "backward" if norm is None else norm  # NumPy's default spelled None
    if norm not in _NORMS:
        raise _bind.fail(ValueError, f"fft: norm must be one of {_NORMS}, not {norm!r}", site)
    return Array(_bind.primitive(get_op(name), (node,), (s, axes, norm), shape, dtype, site))


def _resized(node: Node, s, axes) -> tuple[int, ...]:
    shape = list(node.shape)
    for n, a in zip(s, axes):
        shape[a] = n
    return tuple(shape)


def _into(numpy_fn: Any, args: tuple, out: Any, site: _bind.Site) -> Any:
    """NumPy 2's `out=` of the transforms (probe54: a TypeError here): NumPy's own transform of
    the values into `out`, so its checks and texts, its loop's precision (out's dtype chooses it:
    a float32 input into complex128 is transformed in float64) and hfft's new array (NumPy's hfft
    leaves `out` alone) are NumPy's; an Array `out` then takes the result. A host library call,
    as the NumPy fallback of an unsupported keyword was. A 1-tuple of an Array is that Array, as
    NumPy's gufunc takes `out=(y,)` (it was handed to NumPy: 'output array is read-only')."""
    if type(out) is tuple and len(out) == 1 and isinstance(out[0], Array):
        out = out[0]
    if isinstance(out, Array):
        check_writable(out, "output array is read-only")
    target = np.empty(out.shape, out.dtype) if isinstance(out, Array) else out
    try:
        result = numpy_fn(*host_values(*args), out=target)
    except Exception as exc:
        raise _bind.with_site(exc, site) from None
    if result is not target:
        return host_result(result)
    if isinstance(out, Array):
        out[...] = target
    return out


def _complex_transform(name: str, x, s, axes, norm, site) -> Array:
    node, ct = _prepare(x, name, site, real_input=False)
    s, axes = _axes_and_sizes(node, s, axes, site)
    if not axes:  # NumPy's fftn over no axes (a 0-d input, axes=()): the input itself, in its
        # dtype (it was cast to complex here, a 0-d one a scalar; fuzz56)
        return x if isinstance(x, Array) else Array(_bind.leaf(np.array(x), site))
    return _call(name, node, s, axes, norm, _resized(node, s, axes), ct, site)


def fft(a: Any, n: int | None = None, axis: int = -1, norm: str = "backward",
        out: Any = None) -> Array:
    site = user_site(1)
    if out is not None:
        return _into(np.fft.fft, (a, n, axis, norm), out, site)
    return _complex_transform("fftn", a, _one_size(n, site), (axis,), norm, site)


def ifft(a: Any, n: int | None = None, axis: int = -1, norm: str = "backward",
         out: Any = None) -> Array:
    site = user_site(1)
    if out is not None:
        return _into(np.fft.ifft, (a, n, axis, norm), out, site)
    return _complex_transform("ifftn", a, _one_size(n, site), (axis,), norm, site)


def fftn(a: Any, s=None, axes=None, norm: str = "backward", out: Any = None) -> Array:
    if out is not None:
        return _into(np.fft.fftn, (a, s, axes, norm), out, user_site(1))
    return _complex_transform("fftn", a, s, axes, norm, user_site(1))


def ifftn(a: Any, s=None, axes=None, norm: str = "backward", out: Any = None) -> Array:
    if out is not None:
        return _into(np.fft.ifftn, (a, s, axes, norm), out, user_site(1))
    return _complex_transform("ifftn", a, s, axes, norm, user_site(1))


def _rfftn(x, s, axes, norm, site) -> Array:
    node, ct = _prepare(x, "rfft", site, real_input=True)
    s, axes = _axes_and_sizes(node, s, axes, site)
    shape = list(_resized(node, s, axes))
    shape[axes[-1]] = s[-1] // 2 + 1
    return _call("rfftn", node, s, axes, norm, tuple(shape), ct, site)


def _irfftn(x, s, axes, norm, site, name="irfftn") -> Array:
    node, ct = _prepare(x, name, site, real_input=False)
    axes = _default_axes(node, s, axes, site)
    axes = tuple(_bind.normalize_axis(a, node.ndim, site) for a in axes)  # (a % ndim took 3)
    if s is None:
        s = tuple(node.shape[a] for a in axes[:-1]) + (2 * (node.shape[axes[-1]] - 1),)
    s = tuple(_points(n, site, node.shape[a]) for n, a in zip(s, axes))
    real = np.dtype(ct.char.lower())
    return _call("irfftn", node, s, axes, norm, _resized(node, s, axes), real, site)


def rfft(a: Any, n: int | None = None, axis: int = -1, norm: str = "backward",
         out: Any = None) -> Array:
    site = user_site(1)
    if out is not None:
        return _into(np.fft.rfft, (a, n, axis, norm), out, site)
    return _rfftn(a, _one_size(n, site, takes_bool=True), (axis,), norm, site)


def irfft(a: Any, n: int | None = None, axis: int = -1, norm: str = "backward",
          out: Any = None) -> Array:
    site = user_site(1)
    if out is not None:
        return _into(np.fft.irfft, (a, n, axis, norm), out, site)
    return _irfftn(a, _one_size(n, site), (axis,), norm, site, "irfft")


def rfftn(a: Any, s=None, axes=None, norm: str = "backward", out: Any = None) -> Array:
    if out is not None:
        return _into(np.fft.rfftn, (a, s, axes, norm), out, user_site(1))
    return _rfftn(a, s, axes, norm, user_site(1))


def irfftn(a: Any, s=None, axes=None, norm: str = "backward", out: Any = None) -> Array:
    if out is not None:
        return _into(np.fft.irfftn, (a, s, axes, norm), out, user_site(1))
    return _irfftn(a, s, axes, norm, user_site(1))


def hfft(a: Any, n: int | None = None, axis: int = -1, norm: str = "backward",
         out: Any = None) -> Array:
    site = user_site(1)
    if out is not None:
        return _into(np.fft.hfft, (a, n, axis, norm), out, site)
    n = n if n is None else _points(n, site)
    node, ct = _prepare(a, "hfft", site, real_input=False)
    ax = _bind.normalize_axis(axis, node.ndim, site)
    m = int(n) if n is not None else 2 * (node.shape[ax] - 1)
    return _call("hfft", node, (m,), (ax,), norm, _resized(node, (m,), (ax,)),
                 np.dtype(ct.char.lower()), site)


def ihfft(a: Any, n: int | None = None, axis: int = -1, norm: str = "backward",
          out: Any = None) -> Array:
    site = user_site(1)
    if out is not None:
        return _into(np.fft.ihfft, (a, n, axis, norm), out, site)
    n = n if n is None else _one_size(n, site, takes_bool=True)[0]
    node, ct = _prepare(a, "ihfft", site, real_input=True)
    ax = _bind.normalize_axis(axis, node.ndim, site)
    m = int(n) if n is not None else node.shape[ax]
    return _call("ihfft", node, (m,), (ax,), norm, _resized(node, (m // 2 + 1,), (ax,)), ct,
                 site)


# --- frequencies and shifts: no library call ----------------------------------------------------
def _freq_dtype(dtype: Any) -> np.dtype:
    return dtypes.float64 if dtype is None else dtypes.to_dtype(dtype)


def _freq_points(n: Any, site: _bind.Site) -> int:
    """fftfreq's n: a Python or NumPy integer, NumPy's ValueError for anything else (a float,
    a 0-d array: int() took them here); fftfreq(True) is NumPy's TypeError."""
    if not isinstance(n, (int, np.integer)) or isinstance(n, np.bool_):
        raise _bind.fail(ValueError, "n should be an integer", site)
    return int(n)


def fftfreq(n: int, d: float = 1.0, device: Any = None, *, dtype: Any = None) -> Array:
    """[0, 1, ..., n//2 - 1 (or (n-1)//2), -(n//2), ..., -1] / (d * n), computed in the kernel
    from the element index: k - n * (k >= (n + 1) // 2)."""
    site = user_site(1)
    if type(n) is bool:  # NumPy's empty(True) (rfftfreq(True) is one point)
        raise _bind.fail(TypeError, f"expected a sequence of integers or a single integer, got "
                         f"'{n}'", site)
    n = _freq_points(n, site)
    if n < 0:
        raise _bind.fail(ValueError, "negative dimensions are not allowed", site)
    k = Array(flat_index((n,), site))
    signed = k.astype(dtypes.int64) - (k >= (n + 1) // 2).astype(dtypes.int64) * n
    return _place(signed.astype(_freq_dtype(dtype)) * (1.0 / (d * n)), device)  # (`device=`
    # was ignored: an unknown name is a ValueError, as NumPy's; fuzz56)


def rfftfreq(n: int, d: float = 1.0, device: Any = None, *, dtype: Any = None) -> Array:
    """[0, 1, ..., n//2] / (d * n), computed in the kernel from the element index."""
    site = user_site(1)
    n = _freq_points(n, site)
    m = n // 2 + 1
    k = Array(flat_index((m,), site))
    return _place(k.astype(_freq_dtype(dtype)) * (1.0 / (d * int(n))), device)


def _roll_halves(x: Any, axes: Any, forward: bool, site: _bind.Site) -> Array:
    node = _as_node(x, site)
    axes = tuple(range(node.ndim)) if axes is None else (
        (axes,) if isinstance(axes, int) else tuple(axes))
    out = Array(node)
    for ax in (a % node.ndim for a in axes):
        n = out.shape[ax]
        if n < 2:
            continue
        cut = n - n // 2 if forward else n // 2  # fftshift moves the last n//2 to the front

        def part(start, length, src=out, ax=ax):
            spec = tuple((start, 1, length) if i == ax else (0, 1, s)
                         for i, s in enumerate(src.shape))
            return Array(slice_node(src._node, spec, site))

        out = concat([part(cut, n - cut), part(0, cut)], axis=ax)
    return out


def fftshift(x: Any, axes: Any = None) -> Array:
    """Zero frequency to the centre: the two halves swapped (views joined by one concat)."""
    return _roll_halves(x, axes, True, user_site(1))


def ifftshift(x: Any, axes: Any = None) -> Array:
    return _roll_halves(x, axes, False, user_site(1))


__all__ = ["fft", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifftn", "ifftshift", "ihfft",
           "irfft", "irfftn", "rfft", "rfftfreq", "rfftn"]


# NumPy's two-dimensional names: the n-dimensional transforms over axes (-2, -1)
def fft2(a: Any, s: Any = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
         out: Any = None) -> Array:
    if out is not None:
        return _into(np.fft.fft2, (a, s, axes, norm), out, user_site(1))
    return _complex_transform("fftn", a, s, axes, norm, user_site(1))


def ifft2(a: Any, s: Any = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
          out: Any = None) -> Array:
    if out is not None:
        return _into(np.fft.ifft2, (a, s, axes, norm), out, user_site(1))
    return _complex_transform("ifftn", a, s, axes, norm, user_site(1))


def rfft2(a: Any, s: Any = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
          out: Any = None) -> Array:
    if out is not None:
        return _into(np.fft.rfft2, (a, s, axes, norm), out, user_site(1))
    return _rfftn(a, s, axes, norm, user_site(1))


def irfft2(a: Any, s: Any = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
           out: Any = None) -> Array:
    if out is not None:
        return _into(np.fft.irfft2, (a, s, axes, norm), out, user_site(1))
    return _irfftn(a, s, axes, norm, user_site(1))


def __getattr__(name: str) -> Any:
    """A NumPy fft name lazyarray lacks: the reason, from lazyarray/numpy_coverage.py."""
    raise _missing(__name__, name)
