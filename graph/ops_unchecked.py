"""Twins of multiply, add, sum and matmul whose NumPy loops check no floating-point flags.

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

from .registry import OpDef, get_op

UNCHECKED = "fp_unchecked"


def _twin(name: str) -> OpDef:
    op = get_op(name)
    return replace(op, name=f"dot_{name}", properties=op.properties | {UNCHECKED},
                   doc=f"{name}, its floating-point flags unchecked (NumPy's dot loops)")


DOT_MULTIPLY, DOT_ADD = _twin("multiply"), _twin("add")
DOT_SUM, DOT_MATMUL = _twin("sum"), _twin("matmul")
