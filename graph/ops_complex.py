"""The complex-only primitives: conj, real, imag, and `complex` (a complex number from its two
parts; NumPy spells it `re + 1j * im`, whose complex multiply turns an infinite part into NaNs:
`inf * (0 + 1j)` has a NaN real part). (Which existing ops take complex inputs, and
their templates, is graph/complex_ops.py.)

`real`/`imag` have no NumPy ufunc, so their dtype rule lives in the API function (lazyarray/
complex_functions.py): complex64 -> float32, complex128 -> float64; a real input keeps its dtype
(`real(x)` is x, `imag(x)` zeros), as NumPy; `complex` takes two float arrays of one dtype (float32 ->
complex64, float64 -> complex128). Derivative rules are those of real inputs: autodiff
rejects complex inputs (docs/autodiff.md), so a rule only ever sees real ones.
"""

from __future__ import annotations

import numpy as np

from . import derivatives as d
from .complex_ops import COMPLEX_TEMPLATES
from .registry import OpDef, OpKind, register

def _real_write_back(parent, value, attrs):
    """`z.real[...] = v`: v with z's imaginary part; a real parent is its real part."""
    if parent.dtype.kind != "c":
        return value
    return d.node("complex", (value, d.node("imag", (parent,), (), parent.shape, value.dtype)), (),
                  parent.shape, parent.dtype)


def _imag_write_back(parent, value, attrs):
    """`z.imag[...] = v`: z's real part with v; NumPy's imag of a real array is read-only."""
    if parent.dtype.kind != "c":
        raise ValueError("assignment destination is read-only (the imaginary part of a real "
                         "array)")
    return d.node("complex", (d.node("real", (parent,), (), parent.shape, value.dtype), value), (),
                  parent.shape, parent.dtype)


CONJ = register(OpDef(
    name="conj", kind=OpKind.ELEMENTWISE, arity=1, ufunc=np.conjugate,
    reference=lambda xs, a, dt: np.conjugate(xs[0]),
    c={"c": COMPLEX_TEMPLATES["conj"], "*": "{0}"}, properties=frozenset({"involution"}),
    vjp=lambda g, y, xs, a: (d.ew("conj", g),),
    doc="complex conjugate; the identity on real inputs"))
REAL = register(OpDef(
    name="real", kind=OpKind.ELEMENTWISE, arity=1,
    reference=lambda xs, a, dt: np.real(xs[0]),
    c={"c": COMPLEX_TEMPLATES["real"], "*": "{0}"},
    vjp=lambda g, y, xs, a: (g,), write_back=_real_write_back,
    doc="real part: complex64 -> float32, complex128 -> float64; the identity on real inputs"))
IMAG = register(OpDef(
    name="imag", kind=OpKind.ELEMENTWISE, arity=1,
    reference=lambda xs, a, dt: np.imag(xs[0]),
    c={"c": COMPLEX_TEMPLATES["imag"], "*": "(({T})0)"},
    vjp=lambda g, y, xs, a: (None,), write_back=_imag_write_back,
    doc="imaginary part: complex64 -> float32, complex128 -> float64; zeros for real inputs"))


def _from_parts(xs, attrs, dtype):
    out = np.empty(np.broadcast_shapes(np.shape(xs[0]), np.shape(xs[1])), dtype)
    out.real, out.imag = xs[0], xs[1]
    return out


COMPLEX = register(OpDef(
    name="complex", kind=OpKind.ELEMENTWISE, arity=2, reference=_from_parts,
    c={"f": "la_make_{D}({0}, {1})"},
    differentiable=False,  # a complex result: autodiff rejects complex arrays (docs/autodiff.md)
    doc="the complex number re + im*j from two float parts of one dtype, each part kept as it is"))
