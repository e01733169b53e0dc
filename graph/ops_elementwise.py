"""Elementwise primitives. Each row: name, NumPy ufunc (its dtype rule and reference), C template.

Templates use {0}, {1}, {2} for operands, {T} for the C type of the operation's inputs, {F} for the libm
suffix ("f" for float32, "" for float64) and {S} for the dtype suffix (f32, i8, u64, b) that names a
helper in the generated code's prelude. A mapping is keyed by the inputs' dtype kind: f, i, u, b, or *.
Primitives are strict: the API layer casts operands to the loop dtypes NumPy picks before binding.
"""

from __future__ import annotations

import numpy as np

from . import semantics
from .registry import OpDef, OpKind, register

_LIBM = {"*": "{name}{{F}}({{0}})"}


def _ufunc_reference(ufunc: np.ufunc):
    def reference(xs, attrs, dtype):
        return ufunc(*xs)

    return reference


def _elementwise(name, ufunc, c, *, domain="any", properties=(), reference=None, arity=None):
    return register(
        OpDef(
            name=name,
            kind=OpKind.ELEMENTWISE,
            reference=reference or _ufunc_reference(ufunc),
            arity=arity if arity is not None else ufunc.nin,
            ufunc=ufunc,
            c=c,
            domain=domain,
            properties=frozenset(properties),
        )
    )


def _libm(name: str) -> dict[str, str]:
    return {"f": name + "{F}({0})"}


_INT_ID = {"i": "{0}", "u": "{0}", "b": "{0}"}

# --- unary -------------------------------------------------------------------------------------------
_elementwise("abs", np.absolute, {"f": "fabs{F}({0})", "i": "la_abs_{S}({0})", "u": "{0}", "b": "{0}"})
_elementwise("negative", np.negative, {"f": "(-{0})", "i": "la_neg_{S}({0})", "u": "la_neg_{S}({0})"},
             properties=("involution",))
_elementwise("positive", np.positive, {"*": "{0}"}, properties=("identity",))
for _name, _c in (("exp", "exp"), ("expm1", "expm1"), ("log1p", "log1p"), ("sin", "sin"),
                  ("cos", "cos"), ("tan", "tan"), ("arctan", "atan"), ("sinh", "sinh"),
                  ("cosh", "cosh"), ("tanh", "tanh"), ("arcsinh", "asinh")):
    _elementwise(_name, getattr(np, _name), _libm(_c))
for _name, _c, _dom in (("log", "log", "positive"), ("log2", "log2", "positive"),
                        ("log10", "log10", "positive"), ("sqrt", "sqrt", "positive"),
                        ("arcsin", "asin", "unit"), ("arccos", "acos", "unit"),
                        ("arccosh", "acosh", "ge1"), ("arctanh", "atanh", "unit")):
    _elementwise(_name, getattr(np, _name), _libm(_c), domain=_dom)
_elementwise("square", np.square, {"f": "({0} * {0})", "*": "la_mul_{S}({0}, {0})"})
_elementwise("reciprocal", np.reciprocal, {"f": "(({T})1 / {0})", "*": "la_recip_{S}({0})"},
             reference=lambda xs, a, d: semantics.reciprocal(xs[0]), domain="nonzero")
_elementwise("sign", np.sign, {"*": "la_sign_{S}({0})"})
for _name, _c in (("floor", "floor"), ("ceil", "ceil"), ("trunc", "trunc"), ("rint", "nearbyint")):
    _elementwise(_name, getattr(np, _name), {"f": _c + "{F}({0})", **_INT_ID})
_elementwise("isnan", np.isnan, {"f": "isnan({0})", "*": "0"})
_elementwise("isinf", np.isinf, {"f": "isinf({0})", "*": "0"})
_elementwise("isfinite", np.isfinite, {"f": "isfinite({0})", "*": "1"})
_elementwise("logical_not", np.logical_not, {"*": "(!{0})"}, properties=("involution",))
_elementwise("bitwise_invert", np.invert, {"b": "(!{0})", "*": "(({T})~{0})"},
             properties=("involution",))

# --- binary ------------------------------------------------------------------------------------------
_COMM_ASSOC = ("commutative", "associative")
_elementwise("add", np.add, {"f": "({0} + {1})", "b": "({0} | {1})", "*": "la_add_{S}({0}, {1})"},
             properties=_COMM_ASSOC)
_elementwise("subtract", np.subtract, {"f": "({0} - {1})", "*": "la_sub_{S}({0}, {1})"})
_elementwise("multiply", np.multiply,
             {"f": "({0} * {1})", "b": "({0} & {1})", "*": "la_mul_{S}({0}, {1})"},
             properties=_COMM_ASSOC)
_elementwise("divide", np.divide, {"f": "({0} / {1})"})
_elementwise("floor_divide", np.floor_divide, {"*": "la_floordiv_{S}({0}, {1})"})
_elementwise("remainder", np.remainder, {"*": "la_rem_{S}({0}, {1})"})
_elementwise("power", np.power, {"f": "pow{F}({0}, {1})", "*": "la_pow_{S}({0}, {1})"},
             reference=lambda xs, a, d: semantics.power(*xs), domain="power")
_elementwise("maximum", np.maximum, {"f": "la_max_{S}({0}, {1})", "*": "(({0}) > ({1}) ? ({0}) : ({1}))"},
             properties=_COMM_ASSOC + ("idempotent",))
_elementwise("minimum", np.minimum, {"f": "la_min_{S}({0}, {1})", "*": "(({0}) < ({1}) ? ({0}) : ({1}))"},
             properties=_COMM_ASSOC + ("idempotent",))
_elementwise("arctan2", np.arctan2, {"f": "atan2{F}({0}, {1})"})
_elementwise("hypot", np.hypot, {"f": "hypot{F}({0}, {1})"}, properties=("commutative",))
_elementwise("logaddexp", np.logaddexp, {"f": "la_logaddexp_{S}({0}, {1})"},
             properties=("commutative",))
for _name, _op, _props in (("equal", "==", ("commutative",)), ("not_equal", "!=", ("commutative",)),
                           ("less", "<", ()), ("less_equal", "<=", ()), ("greater", ">", ()),
                           ("greater_equal", ">=", ())):
    _elementwise(_name, getattr(np, _name), {"*": "({0} " + _op + " {1})"}, properties=_props)
_elementwise("logical_and", np.logical_and, {"*": "({0} && {1})"}, properties=_COMM_ASSOC)
_elementwise("logical_or", np.logical_or, {"*": "({0} || {1})"}, properties=_COMM_ASSOC)
_elementwise("logical_xor", np.logical_xor, {"*": "((!{0}) != (!{1}))"}, properties=_COMM_ASSOC)
_elementwise("bitwise_and", np.bitwise_and, {"*": "(({T})({0} & {1}))"}, properties=_COMM_ASSOC)
_elementwise("bitwise_or", np.bitwise_or, {"*": "(({T})({0} | {1}))"}, properties=_COMM_ASSOC)
_elementwise("bitwise_xor", np.bitwise_xor, {"*": "(({T})({0} ^ {1}))"}, properties=_COMM_ASSOC)
_elementwise("bitwise_left_shift", np.left_shift, {"*": "la_shl_{S}({0}, {1})"},
             domain="shift")
_elementwise("bitwise_right_shift", np.right_shift, {"*": "la_shr_{S}({0}, {1})"},
             domain="shift")

# --- ternary and casts -------------------------------------------------------------------------------
register(OpDef(
    name="where", kind=OpKind.ELEMENTWISE, arity=3,
    reference=lambda xs, a, d: np.where(*xs),
    c={"*": "({0} ? {1} : {2})"},
    doc="where(cond: bool, x, y): x and y already share the result dtype",
))
register(OpDef(
    name="cast", kind=OpKind.ELEMENTWISE, arity=1,
    reference=lambda xs, a, d: semantics.cast(xs[0], d),
    c={"*": "la_cast_{S}_{D}({0})"},
    doc="astype: float→int truncates, saturates, NaN→0 (graph/semantics.py)",
))
