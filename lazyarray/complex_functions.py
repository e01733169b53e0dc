"""real, imag and conj: the Array API's complex functions (NumPy's real/imag/conj); from_parts.

`real`/`imag` map complex64 -> float32 and complex128 -> float64; on real inputs `real` is the
input and `imag` zeros of its dtype, and `conj` is the identity (as NumPy; the standard asks for
complex inputs only). Primitives and views only, below elementwise.py (whose `round` takes complex
numbers apart); `angle`, a composition over `arctan2`, is in numpy_math.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _bind
from .array import Array
from .writes import view_of
from .graph import dtypes, get_op
from .graph.node import user_site

_REAL, _IMAG, _CONJ = get_op("real"), get_op("imag"), get_op("conj")
_COMPLEX = get_op("complex")


def _part(op: Any, x: Any, site: _bind.Site) -> Array:
    node = _bind.operand(x, site)
    if not isinstance(node, _bind.Node):
        node = _bind.scalar_leaf(node[1], dtypes.result_type(node[0]), site)
    dtype = dtypes.real_dtype(node.dtype)
    return Array(_bind.primitive(op, (node,), (), node.shape, dtype, site))


_SCALARS = (int, float, complex, bool)


def _scalar_part(part: Any) -> Any:
    """np.real / np.imag of a number: NumPy's `val.real` (a Python number's is a Python number,
    a NumPy scalar's its scalar), where a 0-d array was given (probe55)."""
    if isinstance(part, np.generic):
        out = Array(_bind.leaf(np.asarray(part)))
        out._view = False  # (creation.host_result's stand-in; creation imports this module)
        return out
    return part


def real(val: Any) -> Array:
    """The real part (NumPy `real`, Array API `real`): a view NumPy code writes through."""
    if type(val) in _SCALARS or isinstance(val, np.generic):
        return _scalar_part(val.real)
    site = user_site(1)
    return view_of(val, _part(_REAL, val, site), lambda n: _part(_REAL, Array(n), site)._node)


def imag(val: Any) -> Array:
    """The imaginary part (NumPy `imag`, Array API `imag`); zeros for a real input (read-only,
    as NumPy's)."""
    if type(val) in _SCALARS or isinstance(val, np.generic):
        return _scalar_part(val.imag)
    site = user_site(1)
    out = _part(_IMAG, val, site)
    return view_of(val, out, lambda n: _part(_IMAG, Array(n), site)._node,
                   writable=out.dtype != getattr(val, "dtype", None))


def conj(x: Any) -> Array:
    """The complex conjugate (NumPy `conjugate`, Array API `conj`); the identity on real input."""
    return Array(_bind.elementwise(_CONJ, x, site=user_site(1)))


conjugate = conj


def from_parts(re: Array, im: Array) -> Array:
    """The complex Array re + im*j from two float Arrays of one dtype and shape, each part kept as
    it is (`re + 1j * im` multiplies: an infinite `im` would make the real part NaN)."""
    site = user_site(1)
    return Array(_bind.primitive(_COMPLEX, (re._node, im._node), (), re.shape,
                                 dtypes.complex_dtype(re.dtype), site))
