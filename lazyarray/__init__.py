"""lazyarray: NumPy-like arrays that evaluate lazily, fuse into few generated kernels, and cache.

Write ordinary array code; nothing runs until you look at a result (print, np.asarray, float(),
iteration, la.eval, la.block_until_ready). See README.md and docs/architecture.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import graph, passes, runtime  # noqa: F401  (lower layers first)
from . import _bind  # noqa: F401  (registers library frames for error sites)
from .array import Array, LazyExpr
from .settings import Settings, config, get_settings
from .fp_errors import errstate, geterr, geterrcall, seterr, seterrcall
from . import warning_blocks as _warning_blocks
from .creation import (arange, array, asarray, empty, empty_like, eye, full, full_like, linspace,
                       ones, ones_like, zeros, zeros_like)
from .elementwise import *  # noqa: F401,F403
from .elementwise import astype, clip, power, round
from .elementwise import numpy_where as where
from .complex_functions import conj, conjugate, imag, real
from .evaluation import block_until_ready, eval
from .cache import (CacheInfo, cache_info, clear_caches,  # plan cache observability
                    wait_for_compiles)
from .jit import jit
from .autodiff import grad, jvp, stop_gradient, value_and_grad, vjp
from .explain import Explanation, explain, to_dot
from ._device import from_dlpack
# The namespace's dtype objects are NumPy's scalar types (la.float64 is np.float64), as in NumPy's
# own namespace, CuPy and JAX; an Array's .dtype is a numpy.dtype, which compares equal to them. Not
# dtype instances: np.dtype's == converts its other operand, so `None == np.dtype("float64")` and
# `np.dtype("float64") == "float64"` are True, and an Array API client that compared a missing
# table entry (None) with la.float64 took it for a match (docs/semantics.md, "Dtype objects").
from numpy import (bool_, complex64, complex128, float16, float32, float64, half, int8, int16,  # noqa: E402
                   int32, int64, uint8, uint16, uint32, uint64)
from .indexing import take
from .linalg import matmul, tensordot, vecdot
from .contraction import einsum
from .manipulation import (broadcast_arrays, broadcast_to, concat, concatenate, expand_dims,
                           flatten, flip, matrix_transpose, moveaxis, permute_dims, ravel, reshape,
                           split, squeeze, stack, swapaxes, transpose)
from .reductions import (all, any, argmax, argmin, cumprod, cumsum, cumulative_prod, cumulative_sum,
                         max, mean, min, prod, std, sum, var)
from .shaping import (broadcast_shapes, diff, meshgrid, repeat, roll, take_along_axis, tile, tril,
                      triu, unstack)
from .searching import (argsort, count_nonzero, isin, nonzero, searchsorted, sort, unique_all,
                        unique_counts, unique_inverse, unique_values)
from .numpy_math import (allclose, angle, array_equal, array_equiv, deg2rad, degrees, divmod,
                         fabs, fix, float_power, fmax, fmin, heaviside, isclose, isneginf,
                         isposinf, ldexp, modf, nan_to_num, rad2deg, radians, sinc)
from .numpy_reductions import (amax, amin, average, median, nanmax, nanmean, nanmin, nanprod,
                               nanstd, nansum, nanvar, ptp)
from .numpy_shapes import (append, argwhere, atleast_1d, atleast_2d, atleast_3d, column_stack,
                           diag, diagonal, dot, dstack, flatnonzero, fliplr, flipud, hstack, inner,
                           kron, outer, rot90, row_stack, trace, unique, vdot, vstack)
from .numpy_arrange import (array_split, copy, cross, convolve, correlate, delete,  # noqa: E402
                            diag_indices, diag_indices_from, diagflat, dsplit, ediff1d, geomspace,
                            hsplit, identity, indices, iscomplex, iscomplexobj, isreal, isrealobj,
                            isscalar, ix_, logspace, ndim, pad, ravel_multi_index, rollaxis,
                            select, shape, size, trapezoid, tri, tril_indices, tril_indices_from,
                            triu_indices, triu_indices_from, unravel_index, vsplit)
from .numpy_statistics import (bincount, corrcoef, cov, digitize, nancumprod, nancumsum,  # noqa: E402
                               nanmedian, nanpercentile, nanquantile, percentile, quantile)
from . import nn  # noqa: E402
from . import fft, random  # noqa: E402  (la.fft, la.random; la.linalg is lazyarray/linalg.py)
from numpy import polynomial  # noqa: E402  (NumPy's package itself: host work on a few
# coefficients; an Array argument is evaluated, results are NumPy's: docs/numpy_coverage.md)
from . import _methods  # noqa: F401,E402  (attaches ndarray-style methods and operators)
from . import complex_ordering  # noqa: F401,E402  (NumPy's order of complex numbers)
from . import _protocols  # noqa: F401,E402  (NumPy's __array_ufunc__ / __array_function__)
_warning_blocks.install()  # warnings.catch_warnings blocks hold for lazy ops (their edges compute)
from ._protocols import LazyArrayFallbackWarning  # noqa: E402
from . import ufuncs as _ufuncs  # noqa: E402
from .ufuncs import ufunc  # noqa: E402
from .array_api import (__array_api_version__, __array_namespace_info__, can_cast, e,  # noqa: E402
                        finfo, iinfo, inf, isdtype, nan, newaxis, pi, result_type)


# NumPy names beyond the Array API (issue 24): index tricks, histograms, sets, types, ...
from .numpy_types import (ScalarType, byte, cdouble, common_type, complexfloating,  # noqa: E402
                          csingle, double, dtype, euler_gamma, False_, floating, generic, inexact,
                          int_, intc, integer, intp, issubdtype, iterable, little_endian, long,
                          longlong, min_scalar_type, mintypecode, ndarray, number,
                          promote_types, sctypeDict, short, signedinteger, single, True_,
                          typecodes, typename, ubyte, uint, uintc, uintp, ulong, ulonglong,
                          unsignedinteger, ushort)
from .numpy_index_tricks import (apply_along_axis, apply_over_axes, c_, flatiter,  # noqa: E402
                                 fromfunction, fromiter, index_exp, mask_indices, mgrid,
                                 ndenumerate, ndindex, ogrid, put, r_, s_, vectorize)
from .numpy_sets import (argpartition, in1d, intersect1d, lexsort, partition,  # noqa: E402
                         setdiff1d, setxor1d, union1d)
from .numpy_histograms import (histogram, histogram2d, histogram_bin_edges,  # noqa: E402
                               histogramdd, interp)
from .numpy_gradient import gradient  # noqa: E402
from .numpy_floats import (around, bitwise_count, frexp, nanargmax, nanargmin,  # noqa: E402
                           packbits, spacing, unpackbits)
from .numpy_polynomial import (poly, poly1d, polyadd, polyder, polydiv, polyfit,  # noqa: E402
                               polyint, polymul, polysub, polyval, roots, vander)
from .numpy_writes import copyto, fill_diagonal, place, put_along_axis, putmask  # noqa: E402
from .numpy_selection import (asanyarray, asarray_chkfinite, ascontiguousarray,  # noqa: E402
                              asfortranarray, block, choose, compress, extract, insert,
                              piecewise, real_if_close, require, resize, sort_complex,
                              trim_zeros)
from .numpy_windows import bartlett, blackman, hamming, hanning, i0, kaiser, unwrap  # noqa: E402
from .numpy_products import einsum_path, matvec, vecmat  # noqa: E402
from .numpy_printing import (array2string, array_repr, array_str, base_repr,  # noqa: E402
                             binary_repr, format_float_positional, format_float_scientific,
                             get_printoptions, printoptions, set_printoptions)
from . import emath, lib  # noqa: E402  (la.emath, la.lib.stride_tricks)
from .dask import from_dask as _from_dask  # noqa: E402  (imports no Dask itself)
from .numpy_io import (frombuffer, fromfile, fromregex, fromstring, genfromtxt,  # noqa: E402
                       load, loadtxt, save, savetxt, savez, savez_compressed)
from .numpy_info import info  # noqa: E402
from .numpy_flags import isfortran, may_share_memory, shares_memory  # noqa: E402
from .numpy_nditer import broadcast, nditer  # noqa: E402
from .numpy_coverage import missing as _missing  # noqa: E402  (linalg.py's too)
from ._expired_names import removed as _removed  # noqa: E402
exceptions = np.exceptions  # AxisError, ... : the classes lazyarray raises are NumPy's


def from_dask(darr):  # noqa: E302  (lazyarray/dask.py imports Dask only when called)
    """An Array over a dask array, computed chunk by chunk on backend="dask" (docs/dask.md)."""
    return _from_dask(darr)


from . import _einops  # noqa: E402

_einops.register()  # einops.rearrange(x, ...) on Arrays, once einops is imported

bool = bool_  # noqa: A001  (la.bool, as in the Array API)
__version__ = "0.1.0"

# la.add & co. become ufunc objects over the functions above (.outer, .reduce, .at, out=, ...)
_ufuncs.wrap_namespace(globals())  # noqa: E402
_protocols.install_fast_array_ufunc()  # (np.maximum(t, u) on the C path: the ufuncs exist now)

# The public namespace: `dir(la)`, `help(la)` and `from lazyarray import *` show these only.
_MODULES = frozenset({"graph", "passes", "runtime", "annotations", "Any", "np", "user_site",
                      "get_op", "dtypes", "asarray_operand", "creation", "elementwise", "evaluation",
                      "cache", "settings", "fp_errors", "autodiff", "explain", "indexing",
                      "manipulation",
                      "reductions", "array", "cuts", "jit", "generic_plan", "dask", "array_api",
                      "shaping", "searching", "complex_functions", "warnings", "numpy_math",
                      "numpy_reductions", "numpy_shapes", "advanced_index", "contraction",
                      "numpy_arrange", "numpy_statistics", "numpy_types",
                      "numpy_index_tricks", "numpy_sets", "numpy_histograms",
                      "numpy_gradient", "numpy_floats", "numpy_polynomial", "numpy_coverage",
                      "numpy_writes", "numpy_selection", "numpy_windows", "numpy_products",
                      "numpy_printing", "numpy_io", "numpy_info", "numpy_flags", "numpy_nditer", "ufuncs"})
__all__ = sorted(n for n in list(globals()) if (not n.startswith("_") or n in (
    "__array_api_version__", "__array_namespace_info__")) and n not in _MODULES)


def __dir__() -> list[str]:
    return list(__all__)


def __getattr__(name: str) -> Any:
    """A NumPy name lazyarray lacks: an AttributeError with the reason and what to use instead
    (lazyarray/numpy_coverage.py, the table of docs/numpy_coverage.md), or NumPy's own text for a
    name NumPy 2 removed (`np.float_`, `np.NaN`: lazyarray/_expired_names.py)."""
    raise _removed(name, __name__) or _missing(__name__, name)
