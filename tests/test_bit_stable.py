"""Values the planner recomputes must have one bit pattern (issue 9).

A row-wise kernel computes its producer once for the reduction (max, sum) and again for the
elementwise use; FP contraction (a*b+c → fma in one loop only) or a vector math function that
differs from the scalar one in the loop's tail made `x - max(x)` nonzero at the max, softmax of
huge values inf/NaN and var of constant rows nonzero. Every row length 1..70 hits a different
split between vector body and scalar tail, so the sweep covers them all (the default tier a few).
Many outputs go through one `la.eval`: one plan, one compile per backend and dtype.
"""

import numpy as np
import pytest

import lazyarray as la

FEW_LENGTHS = (1, 3, 7, 8, 9, 16, 17, 31, 33, 70)
ALL_LENGTHS = tuple(range(1, 71))
DTYPES = (np.float32, np.float64)


def _rows(rng, n: int, dtype, lo: float, hi: float) -> np.ndarray:
    return rng.uniform(lo, hi, (5, n)).astype(dtype)


def _constant(rng, dtype) -> float:
    """c with c*c inexact in `dtype` (so an fma of c*c - mean sees the rounding) but with its low
    7 mantissa bits zero, so summing up to 127 copies is exact and the mean is exactly c*c:
    NumPy's var is then exactly 0 for every row length."""
    uint = np.uint32 if dtype == np.float32 else np.uint64
    c = rng.uniform(1, 3, 4096).astype(dtype)
    v = c * c
    ok = ((v.view(uint) & uint(127)) == 0) & (v.astype(np.longdouble) != c.astype(np.longdouble) ** 2)
    return dtype(c[np.argmax(ok)]) if ok.any() else _constant(rng, dtype)


def _check_recompute_patterns(lengths, dtype) -> None:
    rng = np.random.default_rng(len(lengths))
    big = 100003.7 if dtype == np.float32 else 1.2e150  # x*x far beyond exp's range
    e_hi = 88.5 if dtype == np.float32 else 709.5  # exp(x) near overflow
    cases = []
    for n in lengths:
        x = _rows(rng, n, dtype, -big, big)
        x[:, 0] = big  # the max (x*x) is in column 0 of each row
        ex = _rows(rng, n, dtype, e_hi - 4, e_hi)
        const = np.full((5, n), _constant(rng, dtype), dtype)
        a, b, c = la.array(x), la.array(ex), la.array(const)
        y = a * a
        outs = (y - la.max(y, axis=1, keepdims=True), la.exp(y - la.max(y, axis=1, keepdims=True)),
                la.nn.softmax(y, axis=1), la.nn.softmax(la.exp(b), axis=1),
                la.nn.log_softmax(la.exp(b), axis=1), la.var(c * c, axis=1),
                la.nn.logsumexp(la.exp(b), axis=1))
        cases.append((n, x, ex, const, outs))
    la.eval([o for *_, outs in cases for o in outs])
    for n, x, ex, const, outs in cases:
        shifted, e, sm, sme, lsme, var, lse = (np.asarray(o) for o in outs)
        where = f"row length {n}, {np.dtype(dtype).name}"
        y = x * x
        ey = np.exp(ex.astype(np.float64)).astype(dtype)
        assert (shifted[:, 0] == 0).all() and (shifted <= 0).all(), where
        assert (e[:, 0] == 1).all() and np.isfinite(e).all(), where
        assert np.isfinite(sm).all() and (sm[:, 0] == 1).all(), where
        assert np.isfinite(sme).all() and np.isfinite(lsme).all() and np.isfinite(lse).all(), where
        np.testing.assert_allclose(sme.sum(axis=1), 1, rtol=1e-5, err_msg=where)
        assert (lsme.max(axis=1) == 0).all(), where
        np.testing.assert_allclose(lse, ey.max(axis=1), rtol=1e-6, err_msg=where)
        assert (var == 0).all(), where
        assert (sm == np.where(y == y.max(axis=1, keepdims=True), 1, 0)).all(), where


@pytest.mark.parametrize("dtype", DTYPES)
def test_recomputed_values_agree(backend, dtype):
    _check_recompute_patterns(FEW_LENGTHS, dtype)


@pytest.mark.exhaustive
@pytest.mark.parametrize("dtype", DTYPES)
def test_recomputed_values_agree_every_length(backend, dtype):
    _check_recompute_patterns(ALL_LENGTHS, dtype)


def test_issue_example(backend):
    a = np.array([100003.7, 5.0, -3.0], np.float32)
    y = la.array(a) * la.array(a)
    assert np.asarray(la.exp(y - la.max(y))).tolist() == [1, 0, 0]
    assert np.asarray(la.nn.softmax(la.array(a) ** 2)).tolist() == [1, 0, 0]


def test_softmax_computes_exp_once_per_element():
    """The row workspace (passes/row_reuse.py): exp appears in the sum stage only, in the one loop
    that fills the row (the lane loops of the sum and the write-back read the kept row)."""
    x = la.array(np.ones((4, 8), np.float32))
    source = la.explain(la.nn.softmax(x, axis=1), backend="c").kernels[0].source
    assert source.count("la_exp_f32(") == 1  # the sum stage's row loop
    assert "malloc" in source and "free(ws" in source


def test_only_a_unit_with_a_row_workspace_includes_stdio_and_stdlib():
    """<stdio.h> and <stdlib.h> cost a small unit's compile ~5% (runtime/c/printer.py
    `C_HEADERS`): a unit includes them only for the workspace's malloc, free and out-of-memory
    report. The kernels that use them compile: test_row_folds_read_the_kept_row."""
    from lazyarray.runtime.c.backend import translation_unit
    x = la.array(np.ones((4, 8), np.float32))
    workspace = la.explain(la.nn.softmax(x, axis=1), backend="c").kernels[0].source
    plain = la.explain(la.exp(x) * 2 + 1, backend="c").kernels[0].source
    assert "malloc(" in workspace and "malloc(" not in plain
    for source, included in ((workspace, True), (plain, False)):
        unit = translation_unit([source])
        assert ("#include <stdio.h>" in unit, "#include <stdlib.h>" in unit) == (included,) * 2
        assert "#include <math.h>" in unit and "#include <fenv.h>" in unit


def test_row_folds_read_the_kept_row(backend):
    """A reduction of a kept row value folds it back from the workspace (the row is computed in
    one full-width loop first): sums, max, argmax and var over kept values, one and two inner dims,
    row lengths around the lane width, with inf and NaN rows."""
    rng = np.random.default_rng(3)
    for n in (1, 7, 8, 9, 17):
        x = rng.uniform(-3, 3, (4, 3, n)).astype(np.float32)
        x[1, 0, 0], x[2, 1, -1], x[3] = np.inf, np.nan, 2.0
        a = la.array(x)
        t, e = la.tanh(a), la.exp(a)
        outs = (la.nn.softmax(a, axis=(1, 2)), t / la.sum(t, axis=-1, keepdims=True),
                e * la.argmax(e, axis=-1, keepdims=True), e - la.max(e, axis=-1, keepdims=True),
                la.var(e, axis=-1), e)
        with la.errstate(all="ignore"):  # exp overflows on purpose
            sm, norm, arg, shifted, var, ee = (np.asarray(o) for o in la.eval(*outs))
        where = f"row length {n}"
        with np.errstate(all="ignore"):
            ex = np.exp(x.astype(np.float64))
            xr = x.reshape(4, -1).astype(np.float64)
            ref_sm = np.exp(xr - xr.max(axis=1, keepdims=True))
            ref_sm = (ref_sm / ref_sm.sum(axis=1, keepdims=True)).reshape(x.shape)
            th = np.tanh(x.astype(np.float64))
            ref_norm = th / th.sum(axis=-1, keepdims=True)
        finite = [0, 3]  # the inf and NaN rows: la.nn.softmax shifts by 0 where the max is inf
        np.testing.assert_allclose(sm[finite], ref_sm[finite], rtol=1e-5, atol=1e-7, err_msg=where)
        np.testing.assert_allclose(norm[finite], ref_norm[finite], rtol=2e-4, atol=1e-6,
                                   err_msg=where)
        np.testing.assert_allclose(var[finite], ex.var(axis=-1)[finite], rtol=1e-4, atol=1e-5,
                                   err_msg=where)
        # exact: the same row values folded and written back
        with np.errstate(invalid="ignore"):
            np.testing.assert_array_equal(arg, ee * np.argmax(ee, axis=-1)[..., None], err_msg=where)
            np.testing.assert_array_equal(shifted, ee - ee.max(axis=-1, keepdims=True), err_msg=where)


def test_folded_function_values_are_computed_at_full_width():
    """A reduction of values that call a function computes them at full vector width before
    folding: a float32 sum (NumPy's pairwise tree, stop 50) a leaf of up to 128 at a time
    (runtime/c/printer.py `emit_leaf_values`: exp printed there and in the under-8 row's loop
    only), with NumPy's bits across its leaves; extremes and arg reductions of such values agree
    with the elementwise results."""
    if "c" not in la.runtime.available_backends():
        pytest.skip("no C compiler")
    with la.config(backend="c"):
        x = la.array(np.ones((4, 8), np.float32))
        source = la.explain(la.nn.log_softmax(x, axis=1)).kernels[0].source
        assert source.count("la_exp_f32(") == 2 and "pwv" in source
        rng = np.random.default_rng(5)
        for n in (1, 9, 1023, 1024, 1025, 2055):
            x = rng.uniform(-20, 20, (4, n)).astype(np.float32)
            x[1, n // 2], x[2, -1], x[3, 0] = 80.0, 85.0, np.nan  # extremes in later blocks
            a = la.array(x)
            e, t = np.asarray(la.exp(a)), np.asarray(la.tanh(a))  # elementwise: the same helpers
            sums, arg, argt, big, nan = (np.asarray(v) for v in la.eval(
                la.sum(la.exp(a), axis=1), la.argmax(la.exp(a), axis=1),
                la.argmin(la.tanh(a), axis=1), la.max(la.exp(a), axis=1),
                la.any(la.isnan(la.exp(a)), axis=1)))
            where = f"row length {n}"
            # NumPy's float32 pairwise tree of the same exp values (the lane order until stop 50)
            assert np.add.reduce(e[:3], axis=1).tolist() == sums[:3].tolist(), where
            np.testing.assert_array_equal(arg, np.argmax(e, axis=1), err_msg=where)
            np.testing.assert_array_equal(argt, np.argmin(t, axis=1), err_msg=where)
            np.testing.assert_array_equal(big, e.max(axis=1), err_msg=where)
            np.testing.assert_array_equal(nan, np.isnan(e).any(axis=1), err_msg=where)
