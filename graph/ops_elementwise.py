"""Elementwise primitives. Each row: name, NumPy ufunc (its dtype rule and reference), C template.

Templates use {0}, {1}, {2} for operands, {T} for the C type of the operation's inputs, {F} for the libm
suffix ("f" for float32, "" for float64) and {S} for the dtype suffix (f32, i8, u64, b) that names a
helper in the generated code's prelude. A mapping is keyed by the inputs' dtype kind: f, i, u, b, or *.
Primitives are strict: the API layer casts operands to the loop dtypes NumPy picks before binding.
"""

from __future__ import annotations

import math

import numpy as np

from . import derivatives as d
from . import semantics
from .complex_ops import with_complex
from .registry import OpDef, OpKind, register

_LIBM = {"*": "{name}{{F}}({{0}})"}


def _ufunc_reference(ufunc: np.ufunc):
    def reference(xs, attrs, dtype):
        return ufunc(*xs)

    return reference


UFUNC_REFERENCE_CODE = _ufunc_reference(np.add).__code__  # shared by every plain ufunc reference


def _where_reference(xs, attrs, dtype):
    return np.where(*xs)


def _power_reference(xs, attrs, dtype):
    return semantics.power(*xs)  # (np.power; integers broadcast first with np.broadcast_arrays)


_BROADCASTING = frozenset({UFUNC_REFERENCE_CODE, _where_reference.__code__,
                           _power_reference.__code__})


def reference_broadcasts(op: OpDef) -> bool:
    """Whether `op`'s reference is its ufunc (or np.where, power's) called on the inputs as they
    are, so that NumPy broadcasts them itself (lazyarray/eager.py then skips the graph's
    broadcast_to nodes, ~4 us of np.broadcast_to each: dijkstra's `np.where(visited, np.inf,
    dist)`; nbody's `r ** -1.5` at once 33.4 -> 30.7 us at 10,000 elements)."""
    return getattr(op.reference, "__code__", None) in _BROADCASTING


# Ops whose C template gives the NumPy reference's bits on every real input (correctly rounded or
# exact, with the same NaN/inf/-0.0/overflow/division-by-zero/shift-width edges; docs/semantics.md;
# any NaN counts as one value): property "numpy_bits"; "numpy_bits_integer" where that holds for
# integer inputs only (float floor_divide, remainder and power follow other formulas).
# The C backend may run a plan of such ops through the NumPy kernel-IR executor while its kernels
# compile (runtime/c/tiered.py); tests/test_c_tiered.py checks every entry bit for bit.
_NUMPY_BITS = frozenset({
    "abs", "negative", "positive", "square", "sqrt", "reciprocal", "floor", "ceil", "trunc",
    "rint", "isnan", "isinf", "isfinite", "signbit", "copysign", "logical_not", "bitwise_invert",
    "add", "subtract", "multiply", "divide", "equal", "not_equal", "less",
    "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
    "bitwise_and", "bitwise_or", "bitwise_xor", "maximum", "minimum"})
_NUMPY_BITS_INTEGER = frozenset({"floor_divide", "remainder", "power", "bitwise_left_shift",
                                 "bitwise_right_shift"})


def _bits_property(name: str) -> tuple[str, ...]:
    if name in _NUMPY_BITS:
        return ("numpy_bits",)
    return ("numpy_bits_integer",) if name in _NUMPY_BITS_INTEGER else ()


def _elementwise(name, ufunc, c, *, domain="any", properties=(), reference=None, arity=None,
                 vjp=None, differentiable=True):
    properties = tuple(properties) + _bits_property(name)
    return register(
        OpDef(
            name=name,
            kind=OpKind.ELEMENTWISE,
            reference=reference or _ufunc_reference(ufunc),
            arity=arity if arity is not None else ufunc.nin,
            ufunc=ufunc,
            c=with_complex(name, c),  # the complex template (kind "c"), if the op takes complex
            domain=domain,
            properties=frozenset(properties),
            vjp=vjp,
            differentiable=differentiable,
        )
    )


# Derivative rules. A unary op's rule is g * f'(x), with f' given in terms of x and the output y.
def _chain(dfdx):
    return lambda g, y, xs, a: (d.mul(g, dfdx(xs[0], y)),)


def _zero(g, y, xs, a):
    """Piecewise-constant ops (floor, sign, ...): derivative zero wherever it exists."""
    return (None,) * len(xs)


def _rsqrt_1m(x):  # 1 / sqrt(1 - x*x)
    return d.div(1.0, d.ew("sqrt", d.sub(1.0, d.mul(x, x))))


_NONDIFF = {"vjp": None, "differentiable": False}  # results are bool or bits: no derivative


# Own exp, expm1, tanh, log, log1p (runtime/c/math.py), sin, cos (c_trig.py): one implementation
# for the vector body and the scalar tail of every loop: a recomputed value has one bit pattern
# (issue 9).
_OWN_MATH = frozenset({"exp", "expm1", "tanh", "log", "log1p", "sin", "cos",
                       "atan", "asin", "acos",  # runtime/c/inverse.py
                       "sinh", "cosh", "asinh", "acosh", "atanh",  # runtime/c/hyper.py
                       "cbrt", "tan"})  # runtime/c/cbrt.py, c_trig.py


# runtime/c/log.py: helper names are letters before the dtype suffix
_OWN_NAMES = {"exp2": "exptwo", "log2": "logtwo", "log10": "logten"}


def _libm(name: str) -> dict[str, str]:
    if name in _OWN_NAMES:
        return {"f": "la_" + _OWN_NAMES[name] + "_{S}({0})"}
    if name in _OWN_MATH:
        return {"f": "la_" + name + "_{S}({0})"}
    return {"f": name + "{F}({0})"}


_INT_ID = {"i": "{0}", "u": "{0}", "b": "{0}"}

# --- unary -------------------------------------------------------------------------------------------
_elementwise("abs", np.absolute, {"f": "fabs{F}({0})", "i": "la_abs_{S}({0})", "u": "{0}", "b": "{0}"},
             vjp=_chain(lambda x, y: d.ew("sign", x)))
_elementwise("negative", np.negative, {"f": "(-{0})", "i": "la_neg_{S}({0})", "u": "la_neg_{S}({0})"},
             properties=("involution",), vjp=lambda g, y, xs, a: (d.neg(g),))
_elementwise("positive", np.positive, {"*": "{0}"}, properties=("identity",),
             vjp=lambda g, y, xs, a: (g,))
for _name, _c, _dfdx in (
        ("exp", "exp", lambda x, y: y),
        ("expm1", "expm1", lambda x, y: d.add(y, 1.0)),
        ("log1p", "log1p", lambda x, y: d.div(1.0, d.add(x, 1.0))),
        ("sin", "sin", lambda x, y: d.ew("cos", x)),
        ("cos", "cos", lambda x, y: d.neg(d.ew("sin", x))),
        ("tan", "tan", lambda x, y: d.add(d.mul(y, y), 1.0)),
        ("arctan", "atan", lambda x, y: d.div(1.0, d.add(d.mul(x, x), 1.0))),
        ("sinh", "sinh", lambda x, y: d.ew("cosh", x)),
        ("cosh", "cosh", lambda x, y: d.ew("sinh", x)),
        ("tanh", "tanh", lambda x, y: d.sub(1.0, d.mul(y, y))),
        ("arcsinh", "asinh", lambda x, y: d.div(1.0, d.ew("sqrt", d.add(d.mul(x, x), 1.0)))),
        ("cbrt", "cbrt", lambda x, y: d.div(1.0 / 3.0, d.mul(y, y))),
        ("exp2", "exp2", lambda x, y: d.mul(y, float(np.log(2.0))))):
    _elementwise(_name, getattr(np, _name), _libm(_c), vjp=_chain(_dfdx),
                 reference=(lambda xs, a, d: semantics.expm1(xs[0])) if _name == "expm1" else None)
for _name, _c, _dom, _dfdx in (
        ("log", "log", "positive", lambda x, y: d.div(1.0, x)),
        ("log2", "log2", "positive", lambda x, y: d.div(1.0 / np.log(2.0), x)),
        ("log10", "log10", "positive", lambda x, y: d.div(1.0 / np.log(10.0), x)),
        ("sqrt", "sqrt", "positive", lambda x, y: d.div(0.5, y)),
        ("arcsin", "asin", "unit", lambda x, y: _rsqrt_1m(x)),
        ("arccos", "acos", "unit", lambda x, y: d.neg(_rsqrt_1m(x))),
        ("arccosh", "acosh", "ge1",
         lambda x, y: d.div(1.0, d.ew("sqrt", d.sub(d.mul(x, x), 1.0)))),
        ("arctanh", "atanh", "unit", lambda x, y: d.div(1.0, d.sub(1.0, d.mul(x, x))))):
    _elementwise(_name, getattr(np, _name), _libm(_c), domain=_dom, vjp=_chain(_dfdx))


def _erf_reference(complement: bool):
    """NumPy has no erf: math.erf/erfc per element (libm's, within an ulp; scipy.special's erfc
    was hundreds of ulps off near its underflow, x > 25), in float64, rounded to the loop dtype."""
    fn = np.frompyfunc(math.erfc if complement else math.erf, 1, 1)

    def reference(xs, attrs, dtype):
        return np.asarray(fn(np.asarray(xs[0], np.float64)), np.float64).astype(dtype)

    return reference


# erf/erfc (runtime/c/erf.py): no NumPy ufunc, np.sin's dtype rule (real floats only).
_TWO_OVER_SQRT_PI = 1.1283791670955126
for _name, _sign in (("erf", 1.0), ("erfc", -1.0)):
    register(OpDef(
        name=_name, kind=OpKind.ELEMENTWISE, arity=1, reference=_erf_reference(_sign < 0),
        loop_rule=np.sin, c={"f": "la_" + _name + "_{S}({0})"},
        vjp=_chain(lambda x, y, _k=_sign * _TWO_OVER_SQRT_PI: d.mul(
            d.ew("exp", d.neg(d.mul(x, x))), _k))))
_elementwise("square", np.square, {"f": "({0} * {0})", "*": "la_mul_{S}({0}, {0})"},
             vjp=_chain(lambda x, y: d.mul(x, 2.0)))
_elementwise("reciprocal", np.reciprocal, {"f": "(({T})1 / {0})", "*": "la_recip_{S}({0})"},
             reference=lambda xs, a, d: semantics.reciprocal(xs[0]), domain="nonzero",
             vjp=_chain(lambda x, y: d.neg(d.mul(y, y))))
_elementwise("sign", np.sign, {"*": "la_sign_{S}({0})"}, vjp=_zero)
for _name, _c in (("floor", "floor"), ("ceil", "ceil"), ("trunc", "trunc"), ("rint", "nearbyint")):
    _elementwise(_name, getattr(np, _name), {"f": _c + "{F}({0})", **_INT_ID}, vjp=_zero)
_elementwise("isnan", np.isnan, {"f": "isnan({0})", "*": "0"}, **_NONDIFF)
_elementwise("isinf", np.isinf, {"f": "isinf({0})", "*": "0"}, **_NONDIFF)
_elementwise("isfinite", np.isfinite, {"f": "isfinite({0})", "*": "1"}, **_NONDIFF)
_elementwise("logical_not", np.logical_not, {"*": "(!{0})"}, properties=("involution",),
             **_NONDIFF)
_elementwise("bitwise_invert", np.invert, {"b": "(!{0})", "*": "(({T})~{0})"},
             properties=("involution",), **_NONDIFF)
# la.stop_gradient: the identity to every pass (folded away), a wall to derivatives; any dtype.
register(OpDef(name="stop_gradient", kind=OpKind.ELEMENTWISE, arity=1,
               reference=lambda xs, a, d: np.array(xs[0], copy=True), c={"*": "{0}"},
               properties=frozenset({"identity", "numpy_bits"}), vjp=_zero))
# NumPy's C-ordered copy of a value it lays out in another order (`A.T.copy()`,
# `np.ascontiguousarray(A.T * 2)`): the same values, but the copy's later reductions fold in C
# order (passes/numpy_layout.py) and its views are those of C-contiguous memory. Not an `identity`
# (the folding pass would drop it); a kernel stage that copies.
register(OpDef(name="contiguous", kind=OpKind.ELEMENTWISE, arity=1,
               reference=lambda xs, a, d: np.array(xs[0], order="C"), c={"*": "{0}"},
               properties=frozenset({"numpy_bits"}), vjp=lambda g, y, xs, a: (g,),
               doc="a C-ordered copy (numpy.ascontiguousarray's layout, the same values)"))

# --- binary ------------------------------------------------------------------------------------------
_COMM_ASSOC = ("commutative", "associative")
_elementwise("add", np.add, {"f": "({0} + {1})", "b": "({0} | {1})", "*": "la_add_{S}({0}, {1})"},
             properties=_COMM_ASSOC, vjp=lambda g, y, xs, a: (g, g))
_elementwise("subtract", np.subtract, {"f": "({0} - {1})", "*": "la_sub_{S}({0}, {1})"},
             vjp=lambda g, y, xs, a: (g, d.neg(g)))
_elementwise("multiply", np.multiply,
             {"f": "({0} * {1})", "b": "({0} & {1})", "*": "la_mul_{S}({0}, {1})"},
             properties=_COMM_ASSOC, vjp=lambda g, y, xs, a: (d.mul(g, xs[1]), d.mul(g, xs[0])))
_elementwise("divide", np.divide, {"f": "({0} / {1})"},
             vjp=lambda g, y, xs, a: (d.div(g, xs[1]), d.neg(d.mul(g, d.div(y, xs[1])))))
_elementwise("floor_divide", np.floor_divide, {"*": "la_floordiv_{S}({0}, {1})"}, vjp=_zero)
_elementwise("remainder", np.remainder, {"*": "la_rem_{S}({0}, {1})"},
             vjp=lambda g, y, xs, a: (g, d.neg(d.mul(g, d.ew("floor_divide", *xs)))))
_elementwise("fmod", np.fmod, {"f": "fmod{F}({0}, {1})", "*": "la_fmod_{S}({0}, {1})"},
             vjp=lambda g, y, xs, a: (g, d.neg(d.mul(g, d.ew("trunc", d.div(*xs))))))
_elementwise("gcd", np.gcd, {"*": "la_gcd_{S}({0}, {1})"}, properties=("commutative",),
             **_NONDIFF)
_elementwise("lcm", np.lcm, {"*": "la_lcm_{S}({0}, {1})"}, properties=("commutative",),
             **_NONDIFF)


def _power_vjp(g, y, xs, a):
    """Zero where the textbook formula says 0 * inf: d/dx at exponent 0, d/dp at base 0."""
    x, p = xs
    dx = d.where(d.compare("equal", p, 0.0), 0.0, d.mul(p, d.ew("power", x, d.sub(p, 1.0))))
    dp = d.mul(y, d.ew("log", d.where(d.compare("equal", x, 0.0), 1.0, x)))
    return d.mul(g, dx), d.mul(g, dp)


def _select_vjp(compare):
    """maximum/minimum: the cotangent goes to the selected operand, split evenly on ties (JAX)."""
    def vjp(g, y, xs, a):
        share = d.where(d.compare(compare, *xs), 1.0,
                        d.where(d.compare("equal", *xs), 0.5, 0.0, like=g))
        return d.mul(g, share), d.mul(g, d.sub(1.0, share))
    return vjp


_elementwise("power", np.power, {"f": "la_fpow_{S}({0}, {1})", "*": "la_pow_{S}({0}, {1})"},
             reference=_power_reference, domain="power", vjp=_power_vjp)
_elementwise("maximum", np.maximum, {"f": "la_max_{S}({0}, {1})", "*": "(({0}) > ({1}) ? ({0}) : ({1}))"},
             properties=_COMM_ASSOC + ("idempotent",), vjp=_select_vjp("greater"))
_elementwise("minimum", np.minimum, {"f": "la_min_{S}({0}, {1})", "*": "(({0}) < ({1}) ? ({0}) : ({1}))"},
             properties=_COMM_ASSOC + ("idempotent",), vjp=_select_vjp("less"))


def _arctan2_vjp(g, y, xs, a):
    scale = d.div(g, d.add(d.mul(xs[0], xs[0]), d.mul(xs[1], xs[1])))
    return d.mul(scale, xs[1]), d.neg(d.mul(scale, xs[0]))


_elementwise("arctan2", np.arctan2, {"f": "la_atantwo_{S}({0}, {1})"}, vjp=_arctan2_vjp)
_elementwise("hypot", np.hypot, {"f": "la_hypot_{S}({0}, {1})"}, properties=("commutative",),
             vjp=lambda g, y, xs, a: (d.mul(g, d.div(xs[0], y)), d.mul(g, d.div(xs[1], y))))
_elementwise("logaddexp", np.logaddexp, {"f": "la_logaddexp_{S}({0}, {1})"},
             properties=("commutative",),
             vjp=lambda g, y, xs, a: tuple(d.mul(g, d.ew("exp", d.sub(x, y))) for x in xs))
_elementwise("logaddexp2", np.logaddexp2, {"f": "la_logaddexp2_{S}({0}, {1})"},
             properties=("commutative",),
             vjp=lambda g, y, xs, a: tuple(d.mul(g, d.ew("exp2", d.sub(x, y))) for x in xs))
def _signbit(x):
    return d.node("signbit", (x,), (), x.shape, np.dtype(np.bool_))


# copysign(x1, x2) = |x1| with x2's sign: d/dx1 is +-1 (the sign flips where x1's sign and the
# result's differ, as JAX), d/dx2 is 0. nextafter moves by one ulp: no derivative (as JAX).
_elementwise("copysign", np.copysign, {"f": "copysign{F}({0}, {1})"},
             vjp=lambda g, y, xs, a: (d.where(d.compare("equal", _signbit(xs[0]), _signbit(y)),
                                              g, d.neg(g)), None))
_elementwise("nextafter", np.nextafter, {"f": "nextafter{F}({0}, {1})"}, **_NONDIFF)
_elementwise("signbit", np.signbit, {"f": "(signbit({0}) != 0)"}, **_NONDIFF)
# Integer comparisons may mix int64 and uint64 (NumPy 2's exact `qQ` loops): C would convert the
# signed operand to unsigned, so operands of different signs are decided by the sign first.
_SIGNS_DIFFER = "(({0} < 0) != ({1} < 0))"
for _name, _op, _mixed, _props in (
        ("equal", "==", "0", ("commutative",)), ("not_equal", "!=", "1", ("commutative",)),
        ("less", "<", "({0} < 0)", ()), ("less_equal", "<=", "({0} < 0)", ()),
        ("greater", ">", "({1} < 0)", ()), ("greater_equal", ">=", "({1} < 0)", ())):
    _int = "(" + _SIGNS_DIFFER + " ? " + _mixed + " : ({0} " + _op + " {1}))"
    _elementwise(_name, getattr(np, _name),
                 {"i": _int, "u": _int, "*": "({0} " + _op + " {1})"}, properties=_props,
                 **_NONDIFF)
_elementwise("logical_and", np.logical_and, {"*": "({0} && {1})"}, properties=_COMM_ASSOC,
             **_NONDIFF)
_elementwise("logical_or", np.logical_or, {"*": "({0} || {1})"}, properties=_COMM_ASSOC,
             **_NONDIFF)
_elementwise("logical_xor", np.logical_xor, {"*": "((!{0}) != (!{1}))"}, properties=_COMM_ASSOC,
             **_NONDIFF)
_elementwise("bitwise_and", np.bitwise_and, {"*": "(({T})({0} & {1}))"}, properties=_COMM_ASSOC,
             **_NONDIFF)
_elementwise("bitwise_or", np.bitwise_or, {"*": "(({T})({0} | {1}))"}, properties=_COMM_ASSOC,
             **_NONDIFF)
_elementwise("bitwise_xor", np.bitwise_xor, {"*": "(({T})({0} ^ {1}))"}, properties=_COMM_ASSOC,
             **_NONDIFF)
_elementwise("bitwise_left_shift", np.left_shift, {"*": "la_shl_{S}({0}, {1})"},
             domain="shift", **_NONDIFF)
_elementwise("bitwise_right_shift", np.right_shift, {"*": "la_shr_{S}({0}, {1})"},
             domain="shift", **_NONDIFF)

# --- ternary and casts -------------------------------------------------------------------------------
register(OpDef(
    name="where", kind=OpKind.ELEMENTWISE, arity=3,
    reference=_where_reference,
    # a select of bits, not `?:`: gcc masks an arm's division under `?:`, and its flag is lost
    # (runtime/c/select.py); the parentheses first: a cheap select, not a call to keep rows of
    c={"*": "(la_pick_{D}({0}, {1}, {2}))"},
    cuda={"*": "({0} ? {1} : {2})"},
    properties=frozenset({"numpy_bits"}),
    doc="where(cond: bool, x, y): x and y already share the result dtype",
    vjp=lambda g, y, xs, a: (None, d.where(xs[0], g, 0.0), d.where(xs[0], 0.0, g)),
))
register(OpDef(
    name="cast", kind=OpKind.ELEMENTWISE, arity=1,
    reference=lambda xs, a, d: semantics.cast(xs[0], d),
    c={"*": "la_cast_{S}_{D}({0})"},
    # "conversion": a float->int->float pair is rendered with a +0.0 select (runtime/c/printer.py
    # `_float_int_float`): gcc's (float)(int)x -> trunc(x) fold would give -0.0 for x in (-1, 0)
    properties=frozenset({"numpy_bits", "conversion"}),
    doc="astype: float→int truncates, 8/16 bits wrap through int32, wider as NumPy on x86-64 "
        "(graph/semantics.py)",
    vjp=lambda g, y, xs, a: (d.cast(g, xs[0].dtype) if xs[0].dtype.kind == "f" else None,),
))
