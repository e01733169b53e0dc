"""Subnormal inputs through every unary float op and the operations that compare or scale them, on
every backend: NumPy keeps subnormals, so a result of 0 where NumPy's is not (or the reverse) is a
flush, whatever the ulp distance (one ulp of 1e-45 is 1e-45).

Found on a GPU (stop 37): CuPy's RawModule compiled every kernel with -ftz=true (runtime/cuda/
modules.py), and the C/CUDA expm1 formulas halved a subnormal and lost its last bit (expm1(1e-45) was
0 in float32, expm1(5e-324) 0 in float64), so tanh(x) / expm1(x) gave inf for NumPy's 1."""

from __future__ import annotations

import numpy as np
import pytest
from lazyarray.graph import OpKind
from lazyarray.graph.registry import all_ops
from numpy_oracle import backend_ulps

import lazyarray as la

VALUES = {np.float32: [1e-45, -1e-45, 3e-45, -7e-45, 1e-42, -1e-40, 5e-39, -1.1e-38, 1.2e-38, -0.0],
          np.float64: [5e-324, -5e-324, 1.5e-323, 1e-320, -1e-315, 1e-310, -2.2e-308, 2.3e-308,
                       -0.0]}
UNARY = sorted(op.name for op in all_ops()
               if op.kind is OpKind.ELEMENTWISE and op.arity == 1
               and isinstance(getattr(np, op.name, None), np.ufunc) and hasattr(la, op.name))


def _assert_kept(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.dtype == want.dtype, what
    if want.dtype.kind != "f":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=what)
    both = ~np.isnan(want)
    g, w = got[both], want[both]
    np.testing.assert_array_equal(g == 0, w == 0, err_msg=f"{what}: zeros (a flush)")
    np.testing.assert_array_equal(np.signbit(g), np.signbit(w), err_msg=f"{what}: signs")
    finite = np.isfinite(w)
    spacing = np.spacing(np.abs(w[finite])).astype(np.float64)
    ulps = np.abs(g[finite].astype(np.float64) - w[finite]) / spacing
    assert (ulps <= max(2, backend_ulps(0))).all(), f"{what}: {ulps.max()} ulps"


def test_unary_ops_keep_subnormals(backend):
    """All ops of a dtype in one evaluation (one compile on C: an op each cost the fast tier ~20 s
    of kernel builds); every op's mismatch is reported."""
    problems = []
    for dtype, values in VALUES.items():
        x = np.array(values, dtype)
        cases = []
        with np.errstate(all="ignore"), la.errstate(all="ignore"):
            for name in UNARY:
                try:
                    want = getattr(np, name)(x)
                except TypeError:
                    continue  # no loop for this dtype (bitwise ops)
                cases.append((name, want, getattr(la, name)(la.asarray(x))))
            got = la.eval(*[c[2] for c in cases])
        for (name, want, _), g in zip(cases, got):
            try:
                _assert_kept(np.asarray(g), want, f"{name}({dtype.__name__})")
            except AssertionError as exc:
                problems.append(f"{name}({dtype.__name__}): {' '.join(str(exc).split())[:400]}")
    assert not problems, "\n".join(problems)


def test_compares_products_and_scalings_keep_subnormals(backend):
    for dtype, values in VALUES.items():
        x = np.array(values, dtype)
        a = la.asarray(x)
        with np.errstate(all="ignore"), la.errstate(all="ignore"):
            cases = {"x == 0": (a == 0, x == 0), "x * 2": (a * 2, x * 2),
                     "x / 2": (a / 2, x / 2), "x / x": (a / a, x / x),
                     "ldexp(x, 3)": (la.ldexp(a, 3), np.ldexp(x, 3)),
                     "x.astype(float64)": (a.astype(np.float64), x.astype(np.float64)),
                     "sum(x)": (la.sum(a), np.sum(x))}
            for what, (got, want) in cases.items():
                _assert_kept(np.asarray(got), np.asarray(want), f"{what} ({dtype.__name__})")
