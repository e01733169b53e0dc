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

from dataclasses import replace

import numpy as np

from .registry import OpDef, get_op

UNCHECKED = "fp_unchecked"


def _twin(name: str) -> OpDef:
    op = get_op(name)
    return replace(op, name=f"dot_{name}", properties=op.properties | {UNCHECKED},
                   doc=f"{name}, its floating-point flags unchecked (NumPy's dot loops)")


DOT_MULTIPLY, DOT_ADD = _twin("multiply"), _twin("add")
DOT_SUM, DOT_MATMUL = _twin("sum"), _twin("matmul")


def _divmod_twin(name: str, k: int, helper: str, properties: frozenset = frozenset()) -> OpDef:
    """numpy.divmod's output k: NumPy computes both at its line, so `divmod(a, 0.0)[1]` warns
    'divide by zero' (its quotient's) and `[0]` 'invalid' (its remainder's fmod). The reference
    is NumPy's divmod (its report names 'divmod'); the C helper raises both outputs' flags."""
    op = get_op(name)

    def reference(xs, attrs, dtype):
        return np.asarray(np.divmod(xs[0], xs[1])[k], dtype=dtype)

    return replace(op, name=f"divmod_{k}", reference=reference,
                   c={"f": f"la_{helper}_{{S}}({{0}}, {{1}})", "*": op.c["*"]},
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
