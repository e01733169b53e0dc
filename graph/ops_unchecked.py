"""Twins of registered ops for NumPy functions whose loops report other flags than the ufuncs
they compose: multiply, add, sum and matmul checking none (the dot loops), floor_divide and
remainder raising each other's (divmod's one loop), and power's scalar fast paths (at the end of
this module).

NumPy computes `vdot`, `einsum` (unoptimized), `correlate` and `convolve` in its dot functions
and einsum's sum-of-products loops, which never read the flags: `np.vdot([inf, 1], [0, 1])` is
NaN with no 'invalid value' warning, where `np.dot` and `np.vecdot` (ufunc loops) warn. lazyarray
composes those functions of these twins: the same values, C templates and fusion as the ops they
copy, and the property "fp_unchecked", under which the floating-point report's NumPy re-run
(runtime/interpreter.py) and the CPU's matmul call (runtime/c) compute them silently. They are
not in the registry's list (`all_ops`): the registry-generated tests cover the ops they copy,
and no name finds them; lazyarray/_dot_loops.py binds them.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from .node import Node
from .registry import OpDef, get_op

UNCHECKED = "fp_unchecked"


def _twin(name: str) -> OpDef:
    op = get_op(name)
    return replace(op, name=f"dot_{name}", properties=op.properties | {UNCHECKED},
                   doc=f"{name}, its floating-point flags unchecked (NumPy's dot loops)")


DOT_MULTIPLY, DOT_ADD = _twin("multiply"), _twin("add")
DOT_SUM, DOT_MATMUL = _twin("sum"), _twin("matmul")
DOT_CAST = _twin("cast")  # float16's dot loop: the float32 sum rounded to half, unchecked


def _divmod_twin(name: str, k: int, helper: str, properties: frozenset = frozenset()) -> OpDef:
    """numpy.divmod's output k: NumPy computes both at its line, so `divmod(a, 0.0)[1]` warns
    'divide by zero' (its quotient's) and `[0]` 'invalid' (its remainder's fmod). The reference
    is NumPy's divmod (its report names 'divmod'); the C helper raises both outputs' flags."""
    op = get_op(name)

    def reference(xs, attrs, dtype):
        return np.asarray(np.divmod(xs[0], xs[1])[k], dtype=dtype)

    own = f"la_{helper}_{{S}}({{0}}, {{1}})"
    # (signed integers: the remainder's own helper raises the quotient's INT_MIN // -1 overflow)
    return replace(op, name=f"divmod_{k}", reference=reference,
                   c={"f": own, "i": own if k == 1 else op.c["*"], "*": op.c["*"]},
                   properties=op.properties | properties, doc=f"numpy.divmod's output {k}")


# (the quotient and remainder of numpy.divmod, lazyarray/numpy_math.py). NumPy's one divmod
# call reports its flags once: the remainder reads the quotient's node as a third input that its
# template ignores, so whatever computes the remainder computes the quotient, whose re-run
# reports for both, and the remainder's own re-run is silent (under "always" the pair warned twice).
DIVMOD_FLOOR = _divmod_twin("floor_divide", 0, "divmodq")
DIVMOD_REM = _divmod_twin("remainder", 1, "divmodr", frozenset({UNCHECKED}))


def _power_twin(name: str, exponent: float) -> OpDef:
    """numpy.power of a scalar exponent its loop computes as another ufunc (2: square, -1:
    reciprocal, 0.5: sqrt, for real floats): that op's values, C template and derivative, and
    NumPy's power as the reference, so that a report names 'power' as NumPy's does. (The general
    power formula was an ulp off NumPy's `x ** 2.0` for ~1.4% of values, and 12x slower.)"""
    op = get_op(name)

    def reference(xs, attrs, dtype):
        return np.asarray(np.power(xs[0], np.dtype(dtype).type(exponent)), dtype=dtype)

    return replace(op, name=f"power_{name}", reference=reference,
                   doc=f"numpy.power(x, {exponent}) of real floats: NumPy's loop computes {name}")


# (lazyarray/elementwise.py `power`: a real float base and a scalar exponent)
POWER_FAST_PATHS = {2.0: _power_twin("square", 2.0), -1.0: _power_twin("reciprocal", -1.0),
                    0.5: _power_twin("sqrt", 0.5)}


def _power_of_fixed_exponent() -> OpDef:
    """numpy.power of a real float base to an exponent fixed over NumPy's loop (a 0-d array, or
    one element broadcast against more: its inner stride is 0), whose value is data: the loop's
    fast paths chosen per call, as NumPy's `*_power` loop does (x * x, 1 / x, sqrt for 2, -1,
    0.5), else the general power. The reference passes the exponent as a 0-d array, so NumPy's
    loop takes the same path (an exponent materialized by a cast had a stride and took pow:
    `(-inf) ** np.array(0.5, float32)` was inf, NumPy's NaN)."""
    op = get_op("power")
    general = op.c["f"]
    fast = ("(({1}) == ({T})2 ? ({0}) * ({0}) : ({1}) == ({T})-1 ? ({T})1 / ({0}) : "
            "({1}) == ({T})0.5 ? sqrt{F}({0}) : " + general + ")")

    def reference(xs, attrs, dtype):
        base, exponent = np.asarray(xs[0]), np.asarray(xs[1])
        if exponent.size:
            exponent = exponent.reshape(-1)[0].reshape(())  # (a view: NumPy's stride-0 loop)
        return np.asarray(np.power(base, exponent), dtype=dtype)

    return replace(op, name="power_fixed", reference=reference, c={**op.c, "f": fast},
                   doc="numpy.power of a real float base to an exponent fixed over the loop")


# (lazyarray/elementwise.py `power`: a real float base and a 0-d or broadcast one-element exponent)
POWER_FIXED = _power_of_fixed_exponent()


def _float_power() -> OpDef:
    """numpy.float_power of float64s: C's pow, with no fast path (`np.float_power(-inf, 0.5)` is
    inf and of -0.0 +0.0, where np.power's loop takes sqrt: NaN, -0.0), `x * x` and `1 / x` for
    2 and -1 (pow's correctly rounded values there, which the general formula missed by an ulp
    now and then), and its own name in a report ('overflow encountered in float_power')."""
    op = get_op("power")
    general = op.c["f"]
    real = ("(({1}) == ({T})2 ? ({0}) * ({0}) : ({1}) == ({T})-1 ? ({T})1 / ({0}) : "
            "({1}) == ({T})0.5 ? (({0}) == -({T})INFINITY ? ({T})INFINITY : sqrt{F}({0}) + ({T})0) : "
            + general + ")")

    def reference(xs, attrs, dtype):
        return np.asarray(np.float_power(xs[0], xs[1]), dtype=dtype)

    return replace(op, name="float_power", reference=reference, c={**op.c, "f": real},
                   doc="numpy.float_power of float64s: pow without np.power's fast paths")


# (lazyarray/numpy_math.py `float_power`: real inputs, cast to float64)
FLOAT_POWER = _float_power()


class _NamedAfter:
    """NumPy's errcall in the report's re-run (`log` mode's writer), with 'in cast' (or, with
    `old` empty, any ufunc's name) renamed."""

    def __init__(self, call, name: str, old: str = "cast") -> None:
        self.call, self.name, self.old = call, name, old

    def write(self, text: str) -> None:
        pattern = re.escape(self.old) if self.old else r"\w+"
        self.call.write(re.sub(f"encountered in {pattern}", f"encountered in {self.name}", text))

    def __call__(self, *args):
        return self.call(*args)


_NAMED: dict[tuple[str, str], OpDef] = {}


def named(op_name: str, numpy_name: str) -> OpDef:
    """A twin of `op_name` whose floating-point report names the NumPy function that computes
    it: `np.dot`'s matmul says 'overflow encountered in dot', `np.vecdot`'s multiply and sum
    'vecdot', `np.matvec`'s matmul 'matvec' (NumPy's loops are those functions; a composition
    said 'matmul', 'multiply'). Values, templates and fusion are the op's."""
    key = (op_name, numpy_name)
    if key not in _NAMED:
        op = get_op(op_name)

        def reference(xs, attrs, dtype):
            call = np.geterrcall()
            if not hasattr(call, "write"):  # (not the report's re-run: flags only)
                return op.reference(xs, attrs, dtype)
            with np.errstate(call=_NamedAfter(call, numpy_name, "")):
                return op.reference(xs, attrs, dtype)

        _NAMED[key] = replace(op, name=f"{numpy_name}_{op_name}", reference=reference,
                              doc=f"{op_name}, reported as NumPy's {numpy_name}")
    return _NAMED[key]


_OUT_CASTS: dict[str, OpDef] = {}


def out_cast(ufunc: str) -> OpDef:
    """The cast of a ufunc's real float result into a narrower `out=`: NumPy's loop casts its
    output itself and reports the cast's flags under the ufunc's name ('overflow encountered in
    add' for `np.add(x32, np.array(3e38), out=o32)`; it said 'cast', fuzz48)."""
    if ufunc not in _OUT_CASTS:
        op = get_op("cast")

        def reference(xs, attrs, dtype):
            call = np.geterrcall()
            if not hasattr(call, "write"):  # (not the report's re-run: flags only)
                return op.reference(xs, attrs, dtype)
            with np.errstate(call=_NamedAfter(call, ufunc)):
                return op.reference(xs, attrs, dtype)

        _OUT_CASTS[ufunc] = replace(op, name=f"out_cast_{ufunc}", reference=reference,
                                    doc=f"the cast of {ufunc}'s result into its out=")
    return _OUT_CASTS[ufunc]


def _ldexp_vjp(g: Node, y: Node, xs: tuple[Node, ...], attrs: tuple) -> tuple:
    """d ldexp(x, n) / dx = 2**n: the cotangent scaled the same way (exact); n is an integer."""
    return Node(LDEXP, (g, xs[1]), (), g.shape, g.dtype, site=g.site), None


def _ldexp() -> OpDef:
    """numpy.ldexp(x, n) for a real float x and an integer n (lazyarray clips it to +-2200, which
    saturates every float alike): C's scalbn, exact with one rounding (subnormal results too)
    and raising the flags the result does, and NumPy's ldexp as the reference, so that a report
    names 'ldexp' once. (A product of two power-of-two factors rounded twice into the
    subnormals, `ldexp(11 * 2.0**-1074, -3)` 1e-323 for NumPy's 5e-324, made inf from a factor
    2**1046 (`ldexp(4e-323, 2092)`) and warned 'overflow ... in multiply'; fuzz49.)"""
    op = get_op("power")

    def reference(xs, attrs, dtype):
        return np.asarray(np.ldexp(xs[0], xs[1]), dtype=dtype)

    return replace(op, name="ldexp", ufunc=np.ldexp, reference=reference,
                   c={"f": "scalbn{F}({0}, (int)({1}))"}, cuda=None, domain="any",
                   properties=frozenset({"numpy_bits"}), vjp=_ldexp_vjp,
                   doc="numpy.ldexp of a real float and an integer in [-2200, 2200]")


# (lazyarray/numpy_math.py `ldexp`)
LDEXP = _ldexp()
