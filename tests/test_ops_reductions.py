"""Reductions (and cumsum, mean, var, std) against NumPy over every dtype, hypothesis-drawn shapes
(size-0 dims included), axes (None, int, negative, tuple) and keepdims.

Float results may differ from NumPy's by the rounding of a different summation order: for sums the
bound is (n + 1) * eps * sum(|x|) over the reduced elements (a bound for any order), for products
(n + 1) * eps relative, for var/std the same scaled by the squared magnitudes. Integer and bool
results must be exact (integer sums wrap modulo 2**bits in any order).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from lazyarray.runtime import available_backends
from numpy_oracle import (FAST, SUPPORTED, assert_as_numpy, assert_matches, computes_halves, draw,
                          numpy_or_its_error, without_flag_warnings)

import lazyarray as la
from sites import notes_of
from together import compile_together

# name -> (lazyarray function, NumPy function, accepts a tuple of axes)
REDUCTIONS = {
    "sum": (la.sum, np.sum, True),
    "prod": (la.prod, np.prod, True),
    "max": (la.max, np.max, True),
    "min": (la.min, np.min, True),
    "any": (la.any, np.any, True),
    "all": (la.all, np.all, True),
    "mean": (la.mean, np.mean, True),
    "var": (la.var, np.var, True),
    "std": (la.std, np.std, True),
    "argmax": (la.argmax, np.argmax, False),
    "argmin": (la.argmin, np.argmin, False),
}
# Registry ops these tests cover (test_ops_elementwise.test_registry_coverage reads it).
REDUCTION_TESTS = ("sum", "prod", "max", "min", "any", "all", "argmax", "argmin", "cumsum")


def _axis(data, ndim, allow_tuple):
    choices = [st.none()]
    if ndim:
        choices.append(st.integers(-ndim, ndim - 1))
        if allow_tuple:
            choices.append(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim)
                           .map(lambda axes: tuple(a - ndim if a % 2 else a for a in axes)))
    return data.draw(st.one_of(*choices), label="axis")


def _tolerance(name, x, axis, keepdims, want):
    """Absolute error bound per output element for a float result (see the module docstring)."""
    eps = float(np.finfo(want.dtype).eps)
    xf = np.abs(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
    n = xf.size if axis is None else math.prod(
        x.shape[a] for a in ((axis,) if isinstance(axis, int) else axis))
    with np.errstate(all="ignore"):
        if name in ("sum", "mean"):
            bound = (n + 1) * eps * np.sum(xf, axis=axis, keepdims=keepdims)
            return bound / max(n, 1) if name == "mean" else bound
        if name == "prod":  # a complex product rounds up to ~4 eps per multiplication
            scale = 4 if want.dtype.kind == "c" else 1
            return scale * (n + 1) * eps * np.abs(want.astype(want.dtype.kind == "c" and
                                                              np.complex128 or np.float64))
        if name in ("var", "std"):
            scale = np.max(xf, axis=axis, keepdims=keepdims, initial=0.0) ** 2
            bound = 8 * (n + 2) * eps * scale
            return np.sqrt(bound) if name == "std" else bound
    return 0.0


def _compare(name, got, want, x, axis, keepdims):
    want = np.asarray(want)
    if want.dtype.kind == "c":  # each component within the bound of the complex result
        with la.errstate(all="ignore"):  # as `want`: inf - inf in a sum, inf * 0 in a prod
            got_np = np.asarray(got)
        assert got_np.dtype == want.dtype and got_np.shape == want.shape
        bound = np.broadcast_to(_tolerance(name, x, axis, keepdims, want), want.shape)
        if name == "prod":  # inf components: NumPy multiplies by 1+0j once, the C backend's
            # lanes once per lane, and 1 * (inf + x j) has a nan part: both non-finite there
            special = ~np.isfinite(want)
            np.testing.assert_array_equal(~np.isfinite(got_np[special]), True)
            got_np, want = got_np[~special], want[~special]
            bound = bound[~special]
        for g, w in ((got_np.real, want.real), (got_np.imag, want.imag)):
            with np.errstate(invalid="ignore"):
                diff = np.abs(g.astype(np.float64) - w)
                ok = (g == w) | (np.isnan(g) & np.isnan(w)) | (diff <= bound + 4 * float(
                    np.finfo(want.dtype).tiny))
            assert ok.all(), f"{name}: got {g[~ok]} want {w[~ok]} (bound {bound[~ok]})"
        return
    if want.dtype.kind != "f":
        assert_matches(got, want)
        return
    with la.errstate(all="ignore"):
        got_np = np.asarray(got)
    assert got_np.dtype == want.dtype and got_np.shape == want.shape
    assert got.shape == want.shape and got.dtype == want.dtype
    bound = np.broadcast_to(_tolerance(name, x, axis, keepdims, want), want.shape)
    with np.errstate(invalid="ignore"):
        diff = np.abs(got_np.astype(np.float64) - want.astype(np.float64))
        same = (got_np == want) | (np.isnan(got_np) & np.isnan(want))
        ok = same | (diff <= bound + 4 * float(np.finfo(want.dtype).tiny))
    assert ok.all(), f"{name}: got {got_np[~ok]} want {want[~ok]} (bound {bound[~ok]})"


def _numpy(name, fn, x, axis, keepdims, **kw):
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            out = np.asarray(fn(x, axis=axis, keepdims=keepdims, **kw))
    if name in ("argmax", "argmin"):
        out = out.astype(np.int64)
    return out


@pytest.mark.parametrize("name", list(REDUCTIONS))
@FAST
@given(data=st.data(), dtype=st.sampled_from(SUPPORTED), seed=st.integers(0, 2**32 - 1),
       shape=array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5),
       keepdims=st.booleans())
def test_reduction_matches_numpy(backend, name, data, dtype, seed, shape, keepdims):
    assume(dtype != np.float16 or computes_halves(backend))
    _check_reduction(name, data, dtype, seed, shape, keepdims)


@pytest.mark.parametrize("compiled", [b for b in available_backends() if b not in ("numpy", "dask")])
@pytest.mark.parametrize("name", list(REDUCTIONS))
@settings(FAST, max_examples=4)
@given(data=st.data(), dtype=st.sampled_from(SUPPORTED), seed=st.integers(0, 2**32 - 1),
       shape=array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5),
       keepdims=st.booleans())
def test_reduction_matches_numpy_sampled(compiled, name, data, dtype, seed, shape, keepdims):
    """The fast tier's sample of the sweep above on the compiling backends (an example may
    compile a kernel): 4 examples per reduction; the 12 on C run in the exhaustive tier
    (conftest)."""
    assume(dtype != np.float16 or computes_halves(compiled))
    with la.config(backend=compiled):
        _check_reduction(name, data, dtype, seed, shape, keepdims)


def _check_reduction(name, data, dtype, seed, shape, keepdims):
    fn, np_fn, allow_tuple = REDUCTIONS[name]
    x = draw(np.random.default_rng(seed), dtype, shape)
    axis = _axis(data, len(shape), allow_tuple)
    kw = {"ddof": data.draw(st.sampled_from([0, 1]), label="ddof")} if name in ("var",
                                                                              "std") else {}
    try:
        want = _numpy(name, np_fn, x, axis, keepdims, **kw)
    except ValueError:  # NumPy: empty max/min/argmax; lazyarray raises when the op is built
        with pytest.raises(ValueError):
            fn(la.array(x), axis=axis, keepdims=keepdims)
        return
    if name in ("var", "std"):
        kw = {"correction": kw["ddof"]}
    got = fn(la.array(x), axis=axis, keepdims=keepdims, **kw)
    _compare(name, got, want, x, axis, keepdims)


_COMPILED: dict = {}  # sweeps whose C kernels are compiled in one unit (tests/together.py)
DTYPE_ARGUMENT_CASES = [(n, d) for d in ["int8", "uint16", "float32", "float64", "int64"]
                        for n in ["sum", "prod", "mean"]]


@pytest.mark.xdist_group("test_reduction_dtype_argument")
@pytest.mark.parametrize("dtype, name", [(d, n) for n, d in DTYPE_ARGUMENT_CASES])
def test_reduction_dtype_argument(backend, name, dtype):
    fn, np_fn, _ = REDUCTIONS[name]
    x = draw(np.random.default_rng(3), np.int16, (3, 4))
    compile_together(_COMPILED, ("dtype argument", backend), [
        lambda n=n, d=d: REDUCTIONS[n][0](la.array(x), axis=1, dtype=d)
        for n, d in DTYPE_ARGUMENT_CASES])
    got = fn(la.array(x), axis=1, dtype=dtype)
    with np.errstate(all="ignore"):
        want = np_fn(x, axis=1, dtype=dtype)
    _compare(name, got, want, x, 1, False)


@FAST
@given(dtype=st.sampled_from(SUPPORTED), seed=st.integers(0, 2**32 - 1),
       shape=array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5), data=st.data())
def test_cumsum_matches_numpy(backend, dtype, seed, shape, data):
    x = draw(np.random.default_rng(seed), dtype, shape)
    axis = data.draw(st.none() | (st.integers(-len(shape), len(shape) - 1) if shape else st.none()))
    with np.errstate(all="ignore"):
        want = np.cumsum(x, axis=axis)
    got = la.cumsum(la.array(x), axis=axis)
    if want.dtype.kind == "f":
        assert got.dtype == want.dtype and got.shape == want.shape
        n = x.size if axis is None else x.shape[axis]
        np.testing.assert_allclose(np.asarray(got), want, equal_nan=True, rtol=(n + 1) * 1e-7,
                                   atol=(n + 1) * float(np.finfo(want.dtype).eps)
                                   * float(np.nanmax(np.abs(x[np.isfinite(x)]), initial=0)))
    else:
        assert_matches(got, want)


def test_argmax_ties_and_nan_follow_numpy(backend):
    x = np.array([[1.0, 3.0, 3.0, np.nan], [2.0, 2.0, -1.0, -1.0], [np.nan, 0, np.nan, 5]])
    for fn, np_fn in ((la.argmax, np.argmax), (la.argmin, np.argmin)):
        for axis in (None, 0, 1, -1):
            assert_matches(fn(la.array(x), axis=axis), np.asarray(np_fn(x, axis=axis), np.int64))


def test_max_min_propagate_nan(backend):
    x = np.array([[1.0, np.nan, 3.0], [-np.inf, 0.0, np.inf]], dtype=np.float32)
    for fn, np_fn in ((la.max, np.max), (la.min, np.min)):
        assert_matches(fn(la.array(x), axis=1), np_fn(x, axis=1))
        assert_matches(fn(la.array(x)), np_fn(x))


def test_methods_forward_to_reductions(backend):
    x = draw(np.random.default_rng(0), np.float64, (3, 4))
    a = la.array(x)
    for name in ("sum", "prod", "max", "min", "mean", "var", "std", "any", "all"):
        assert_matches(getattr(a, name)(axis=0), getattr(x, name)(axis=0))
    assert_matches(a.argmax(axis=1), x.argmax(axis=1))
    assert_matches(a.argmin(), np.int64(x.argmin()))
    assert_matches(a.cumsum(axis=1), x.cumsum(axis=1))
    assert_matches(a.std(ddof=1), x.std(ddof=1))


def test_extremes_at_every_position_of_rows_around_the_lane_widths(backend):
    """C folds max/min/any/all in 16 lanes and sums in 8 (runtime/c/printer.py `lane_count`):
    the extreme (or NaN, or the one True) in every position of rows 1..40 long, vector chunks and
    tail alike."""
    for n in (1, 7, 15, 16, 17, 31, 33, 40):
        x = np.tile(np.linspace(-1, 0, n, dtype=np.float32), (n, 1))
        np.fill_diagonal(x, 2.0)
        nan = x.copy()
        np.fill_diagonal(nan, np.nan)
        a, b, flags = la.array(x), la.array(nan), la.array(x > 1.5)
        got = la.eval(la.max(a, axis=1), la.min(-a, axis=1), la.max(b, axis=1),
                      la.any(flags, axis=1), la.all(~flags, axis=1), la.max(la.astype(a, la.int8) * 3,
                                                                       axis=1))
        want = (x.max(axis=1), (-x).min(axis=1), nan.max(axis=1), (x > 1.5).any(axis=1),
                (x <= 1.5).all(axis=1), (x.astype(np.int8) * 3).max(axis=1))
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), w, err_msg=f"row length {n}")


@pytest.mark.parametrize("axis", [True, (True,), (0, True), False], ids=repr)
def test_a_bool_axis_is_refused_where_numpys_reductions_refuse_it(reference_backend, axis):
    """`np.sum(x, axis=True)` raises TypeError (NumPy's C reductions take no bool), where
    Python's True == 1 passed here as axis 1: a value NumPy never gives. NumPy's Python-level
    median and average take True as 1, and so do these."""
    x = np.arange(12.0).reshape(3, 4)
    lx = la.asarray(x)
    for name in ("sum", "prod", "max", "min", "any", "all", "mean", "var", "std", "argmax",
                 "argmin", "cumsum", "cumprod", "nansum", "ptp", "count_nonzero"):
        with pytest.raises(TypeError):
            getattr(np, name)(x, axis=axis)
        with pytest.raises(TypeError) as info:
            np.asarray(getattr(la, name)(lx, axis=axis))
        assert "test_ops_reductions.py" in notes_of(info), name
    if type(axis) is bool or axis == (True,):
        for name in ("median", "average"):
            np.testing.assert_array_equal(np.asarray(getattr(la, name)(lx, axis=axis)),
                                          getattr(np, name)(x, axis=axis))


def test_axis_arguments_are_numpys(reference_backend):
    """An axis NumPy refuses is an error here too, never a result over another axis: a list for
    a reduction, a tuple or None for one-axis functions (`np.diff(x, axis=(0, 1))` took the
    tuple's first axis), None for expand_dims, an out-of-range axis for median; and what NumPy
    takes works: a list for median and average, a 0-d integer array for argmax, None for
    take_along_axis (the flattened array)."""
    x = np.arange(24.0).reshape(2, 3, 4) - 7
    lx = la.asarray(x)
    refused = [("sum", [0, 1]), ("mean", [0, 1]), ("var", [0, 1]), ("argmax", [0]),
               ("diff", (0, 1)), ("diff", None), ("expand_dims", None), ("median", -4),
               ("unstack", (0, 1))]
    for name, axis in refused:
        with pytest.raises((TypeError, ValueError, IndexError)) as want:
            getattr(np, name)(x, axis=axis)
        with pytest.raises(want.type) as info:
            np.asarray(getattr(la, name)(lx, axis=axis))
        assert "test_ops_reductions.py" in notes_of(info), (name, axis)
    for name, axis in [("median", [0, 2]), ("average", [0, 1]), ("argmax", np.array(1)),
                       ("unstack", (1,))]:
        np.testing.assert_array_equal(np.asarray(getattr(la, name)(lx, axis=axis)),
                                      getattr(np, name)(x, axis=axis))
    idx = np.array([5, 0, 23])
    np.testing.assert_array_equal(np.asarray(la.take_along_axis(lx, la.asarray(idx), axis=None)),
                                  np.take_along_axis(x, idx, axis=None))


# NumPy's where= and initial= of the reductions (a TypeError before).
_rng = np.random.default_rng(5)
_x = _rng.standard_normal((3, 4)); _x[0, 1] = np.nan
_m = _x > -0.3
_i = _rng.integers(-9, 9, (3, 4)).astype(np.int16)
_f32 = _x.astype(np.float32)
_c = _x + 1j * _rng.standard_normal((3, 4))
_e = np.zeros((0, 3))
_WHERE_INITIAL = {
    "sum where": lambda m, A: m.sum(A(_x), where=A(_m)),
    "sum where axis": lambda m, A: m.sum(A(_x), axis=1, where=A(_m)),
    "sum where row mask": lambda m, A: m.sum(A(_x), axis=0, where=A(_m[0]), keepdims=True),
    "sum initial": lambda m, A: m.sum(A(_i), initial=100),
    "sum f32 initial np64": lambda m, A: m.sum(A(_f32), initial=np.float64(0.5)),
    "prod where initial": lambda m, A: m.prod(A(_i), axis=0, where=A(_m), initial=2),
    "max initial": lambda m, A: m.max(A(_i), initial=5),
    "max where initial": lambda m, A: m.max(A(_x), axis=1, where=A(_m), initial=-10.0),
    "min where initial int": lambda m, A: m.min(A(_i), axis=0, where=A(_m), initial=3),
    "max empty initial": lambda m, A: m.max(A(_e), axis=0, initial=-1.0),
    "max where no initial": lambda m, A: m.max(A(_x), where=A(_m)),
    "amax initial": lambda m, A: m.amax(A(_x), axis=0, initial=0.5),
    "any where": lambda m, A: m.any(A(_x) > 1, axis=1, where=A(_m)),
    "all where": lambda m, A: m.all(A(_x) > -5, where=A(_m)),
    "mean where": lambda m, A: m.mean(A(_x), axis=1, where=A(_m)),
    "mean where f32": lambda m, A: m.mean(A(_f32), axis=0, where=A(_m)),
    "mean where int": lambda m, A: m.mean(A(_i), where=A(_m)),
    "var where": lambda m, A: m.var(A(_x), axis=1, where=A(_m)),
    "std where ddof": lambda m, A: m.std(A(_x), axis=0, ddof=1, where=A(_m)),
    "var where complex": lambda m, A: m.var(A(_c), axis=1, where=A(_m)),
    "method sum where": lambda m, A: A(_x).sum(axis=1, where=A(_m)),
    "method max initial": lambda m, A: A(_i).max(initial=50),
    "where bad shape": lambda m, A: m.sum(A(_x), where=A(np.ones((2, 3, 4), bool))),
}


@pytest.mark.parametrize("name", sorted(_WHERE_INITIAL))
def test_where_and_initial_as_numpy(reference_backend, name):
    """sum/prod/max/min take NumPy's `initial` (added, multiplied, compared; an empty slice of max
    gives it) and `where` (masked-out elements, NaNs too, take no part); max/min refuse `where`
    without `initial` (NumPy's ValueError); any/all/mean/var/std take `where`, counting only the
    selected elements. These raised TypeError."""
    f = _WHERE_INITIAL[name]
    pair = numpy_or_its_error(f)
    if pair is None:
        return
    got, want = pair
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6, equal_nan=True)


_NAN_ROWS = np.array([[1.0, np.nan, 3.0, 7.0], [4.0, 5.0, 6.0, 0.5]])
_COLS = np.array([True, True, False, True])
# NumPy's positional order (out before keepdims, ddof after out), the methods', and the
# nan-reductions' out=/where=/initial=: (call, out shape, out dtype).
_POSITIONAL_OUT = {
    "sum": (lambda m, a, o: m.sum(a, 1, None, o), 2, np.float64),
    "sum keepdims": (lambda m, a, o: m.sum(a, 1, None, None, True) + o[:, None], (2, 1),
                     np.float64),
    "prod": (lambda m, a, o: m.prod(a, 0, None, o), 4, np.float64),
    "mean": (lambda m, a, o: m.mean(a, 0, None, o), 4, np.float64),
    "max": (lambda m, a, o: m.max(a, 1, o), 2, np.float64),
    "any": (lambda m, a, o: m.any(a > 4, 1, o), 2, np.bool_),
    "argmax": (lambda m, a, o: m.argmax(a, 1, o), 2, np.int64),
    "std ddof": (lambda m, a, o: m.std(a, 1, None, o, 1), 2, np.float64),
    "var ddof keepdims": (lambda m, a, o: m.var(a, 1, None, None, 1, True) + o[:, None], (2, 1),
                          np.float64),
    "method sum": (lambda m, a, o: a.sum(1, None, o), 2, np.float64),
    "method std": (lambda m, a, o: a.std(1, None, o, 1), 2, np.float64),
    "method max": (lambda m, a, o: a.max(1, o), 2, np.float64),
    "nansum": (lambda m, a, o: m.nansum(a, 1, None, o), 2, np.float64),
    "nanprod where": (lambda m, a, o: m.nanprod(a, 1, None, o, where=_COLS), 2, np.float64),
    "nanmax": (lambda m, a, o: m.nanmax(a, 0, o), 4, np.float64),
    "nanmax initial": (lambda m, a, o: m.nanmax(a, 0, o, initial=4.5), 4, np.float64),
    "nanmin all-NaN initial": (lambda m, a, o: m.nanmin(a * np.nan, 1, o, initial=2.0), 2,
                               np.float64),
    "nanmean": (lambda m, a, o: m.nanmean(a, 1, None, o), 2, np.float64),
    "nanmean where": (lambda m, a, o: m.nanmean(a, 1, out=o, where=_COLS), 2, np.float64),
    "nanstd ddof": (lambda m, a, o: m.nanstd(a, 1, None, o, 1), 2, np.float64),
    "nanvar where": (lambda m, a, o: m.nanvar(a, 1, out=o, where=_COLS), 2, np.float64),
    "ptp": (lambda m, a, o: m.ptp(a, 1, o), 2, np.float64),
}


@pytest.mark.parametrize("name", sorted(_POSITIONAL_OUT))
def test_numpy_positional_order_and_out(reference_backend, name):
    """NumPy's positional order reaches the same parameters (`np.sum(a, 1, None, out)`: out went
    to keepdims, `np.std(a, 1, None, out, 1)`: to correction) and out= is written and returned;
    the nan-reductions take NumPy's out=, where= and initial= (a TypeError before)."""
    f, shape, dtype = _POSITIONAL_OUT[name]
    want_out, got_out = np.zeros(shape, dtype), la.zeros(shape, dtype=dtype)
    with np.errstate(all="ignore"):
        want = f(np, _NAN_ROWS, want_out)
    got = f(la, la.asarray(_NAN_ROWS), got_out)
    assert (want is want_out) == (got is got_out)
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, equal_nan=True)
    np.testing.assert_allclose(np.asarray(got_out), want_out, rtol=1e-12, equal_nan=True)



@pytest.mark.parametrize("axis", [None, -1, (0, 1), 0])
def test_mean_of_an_empty_slice_warns_as_numpy(backend, backend_does, axis):
    """NumPy's mean of an empty slice warns 'Mean of empty slice' and its 0 / 0 raises the
    'invalid' flag (a RuntimeWarning, or FloatingPointError under errstate): NaN here came
    silently, `total * nan` (fuzz41). Over a non-empty axis of an empty array (axis 0 of (2, 0)):
    an empty result, no warning."""
    seen = []
    for xp in (np, la):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            out = np.asarray(xp.mean(xp.asarray(np.zeros((2, 0), np.int32)), axis=axis))
        seen.append((out.dtype, out.shape, np.isnan(out).all(),
                     sorted({str(w.message).split(" encountered")[0] for w in record})))
        with np.errstate(invalid="raise"), la.errstate(invalid="raise"), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                np.asarray(xp.mean(xp.asarray(np.zeros((2, 0))), axis=axis))
                seen.append(None)
            except FloatingPointError as exc:
                seen.append(type(exc))
    assert seen[0][3] == ([] if axis == 0 else ["Mean of empty slice", "invalid value"])
    if not backend_does("fp_errors"):  # NumPy's own warning, not the flag's (CUDA has none)
        assert seen[2] == (*seen[0][:3], without_flag_warnings(seen[0][3])) and seen[3] is None
        return
    assert seen[0] == seen[2] and seen[1] == seen[3], seen


NO_DOF_CASES = [((2, 0), {"axis": -1}), ((1,), {"ddof": 1}), ((2,), {"ddof": 3}),
                ((1, 2), {"axis": 0, "ddof": 1})]


def _no_dof_values(shape) -> np.ndarray:
    return np.arange(1.0, 1.0 + math.prod(shape)).reshape(shape) ** 2


@pytest.mark.xdist_group("test_var_with_no_degrees_of_freedom_warns_as_numpy")
@pytest.mark.parametrize("case", NO_DOF_CASES)
@pytest.mark.parametrize("name", ["var", "std"])
def test_var_with_no_degrees_of_freedom_warns_as_numpy(backend, backend_does, name, case):
    """NumPy's var/std where n - ddof <= 0 warn 'Degrees of freedom <= 0 for slice' and divide
    by 0: NaN with 'invalid' (0/0), inf with 'divide by zero'; here NaN came silently, `sq *
    nan`, and an empty var warned the mean's 'Mean of empty slice' (fuzz41). (Every case's C
    kernels in one unit, tests/together.py.)"""
    compile_together(_COMPILED, ("no degrees of freedom", backend), [
        lambda n=n, s=s, k=k: getattr(la, n)(la.asarray(_no_dof_values(s)), **k)
        for n in ("var", "std") for s, k in NO_DOF_CASES])
    shape, kwargs = case
    values = _no_dof_values(shape)
    seen = []
    for xp in (np, la):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            out = np.asarray(getattr(xp, name)(xp.asarray(values), **kwargs))
        seen.append((out.tolist(), out.dtype, sorted({str(w.message).split(" encountered")[0]
                                                      for w in record})))
    if not backend_does("fp_errors"):  # NumPy's own warning, not the flag's (CUDA has none)
        seen[0] = (*seen[0][:2], without_flag_warnings(seen[0][2]))
    assert str(seen[0]) == str(seen[1]), seen


def _numpy_and_lazy(name: str, values: np.ndarray, kwargs: dict) -> list:
    """(the result's values, dtype and shape, or the error's type; the warnings' texts) of
    NumPy's and lazyarray's `name(values, **kwargs)`, each evaluated at the call's line."""
    seen = []
    for xp in (np, la):
        args = {k: (la.asarray(v) if xp is la and isinstance(v, np.ndarray) else v)
                for k, v in kwargs.items()}
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            try:
                out = np.asarray(getattr(xp, name)(xp.asarray(values), **args))
                got = (str(out.tolist()), out.dtype, out.shape)
            except (TypeError, ValueError, IndexError) as exc:
                got = (TypeError if isinstance(exc, TypeError) else type(exc),)
        seen.append((got, sorted({str(w.message).split(" encountered")[0] for w in record})))
    return seen


_NAN_SLICES = {"all NaN": np.full((2, 3), np.nan),
               "a NaN row": np.array([[1.0, np.nan, 4.0], [np.nan, np.nan, np.nan]]),
               "no NaN": np.array([[1.0, 2.0, 4.0], [3.0, 5.0, 8.0]]),
               "empty": np.zeros((0, 3)), "empty slices": np.zeros((3, 0)),
               "float32": np.array([[1.5, np.nan], [np.nan, np.nan]], np.float32)}


@pytest.mark.parametrize("values", list(_NAN_SLICES), ids=list(_NAN_SLICES))
def test_nan_functions_warn_and_answer_as_numpy(reference_backend, values):
    """NumPy's nan-functions over all-NaN and empty slices: nanmean warns 'Mean of empty slice',
    nanvar/nanstd 'Degrees of freedom <= 0 for slice.', nanmax/nanmin/nanmedian/nanquantile
    'All-NaN slice encountered', each with NaN and no 'invalid' flag (NumPy divides under
    errstate 'ignore'); an empty array's nanmedian/nanquantile is nanmean's (NaN, its warning,
    no q axis). Here the lazy 0/0 warned 'invalid' instead, the slice warnings were missing,
    and nanmedian/nanquantile of an empty array raised IndexError/ValueError (fuzz42)."""
    calls = [("nanmean", {}), ("nanmean", {"axis": 0}), ("nanvar", {"axis": -1, "ddof": 1}),
             ("nanstd", {"keepdims": True}), ("nanmax", {"axis": 1}), ("nanmin", {}),
             ("nanmedian", {"axis": 0}), ("nanquantile", {"q": [0.2, 0.7], "axis": 1}),
             ("nanpercentile", {"q": 50}), ("quantile", {"q": 0.5, "axis": 0})]
    for name, kwargs in calls:
        if name in ("nanmax", "nanmin") and not _NAN_SLICES[values].size:
            continue  # (NumPy's ValueError for a reduction with no identity: tested elsewhere)
        want, got = _numpy_and_lazy(name, _NAN_SLICES[values], kwargs)
        assert want == got, (name, kwargs, want, got)


@pytest.mark.parametrize("kwargs", [{"where": np.array([[False] * 3, [True, False, True]])},
                                    {"where": np.zeros((2, 3), bool), "axis": 1},
                                    {"where": np.array([True, False, True]), "ddof": 2},
                                    {"dtype": np.int64, "ddof": 6}, {"dtype": np.int8, "axis": 0,
                                                                     "ddof": 2}])
@pytest.mark.parametrize("name", ["mean", "var", "std", "nanvar", "nanstd", "nanmean"])
def test_masked_and_integer_var_warn_as_numpy(reference_backend, name, kwargs):
    """`where=` leaving a slice empty (or with ddof or fewer elements) warns NumPy's 'Mean of
    empty slice' / 'Degrees of freedom <= 0 for slice' (from a host mask at once, from a lazy
    one with the result evaluated); var with an integer dtype= too; nanvar/nanstd/nanmean of an
    integer array with an integer dtype= are NumPy's var/std/mean (an integer result, where
    nanstd was a float). Here all four were silent or float (fuzz42)."""
    if name.startswith("mean") or name == "nanmean":
        kwargs = {k: v for k, v in kwargs.items() if k != "ddof"}
    values = np.array([[1, 2, 4], [3, 5, 8]])
    want, got = _numpy_and_lazy(name, values, kwargs)
    if "dtype" in kwargs:  # (x / 0 cast to an integer: the platform's value, not compared)
        want, got = [((r[0][1:] if len(r[0]) == 3 else r[0]), r[1]) for r in (want, got)]
    if want[0] == (TypeError,):  # (std's sqrt into an int array: refused here before var ran)
        want, got = want[0], got[0]
    assert want == got, (want, got)
    if "where" in kwargs:  # the mask pending: the same warning, the result evaluated with it
        lazy_mask = {**kwargs, "where": la.asarray(kwargs["where"]) | la.asarray(False)}
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            out = np.asarray(getattr(la, name)(la.asarray(values), **lazy_mask))
        assert str(out.tolist()) == want[0][0]
        assert sorted({str(w.message).split(" encountered")[0] for w in record}) == want[1]


@pytest.mark.parametrize("call", ["np.quantile(x, 0)", "np.nanquantile(x, [0, 1], axis=0)",
                                  "np.quantile(x, True, axis=1)", "np.quantile(f, np.int64(1))",
                                  "np.nanquantile(g, np.float32(0.3), axis=0)",
                                  "np.nanpercentile(g, np.float32(37.0), axis=1)",
                                  "np.percentile(f, np.array([5.0, 95.0]), method='lower')",
                                  "np.nanquantile(g, np.array([0.2, 0.9]), 0, method='higher')"])
def test_quantiles_of_integer_float32_and_array_q_as_numpy(reference_backend, call):
    """NumPy's quantile with an integer q (0, 1, True, int arrays) picks a value: the input's
    dtype (it was float64, or int64 by promotion with q); a float32 q keeps nanquantile's virtual
    index in float32 (computed in float64 here: values a float32 rounding apart); a q that is an
    Array, with a method NumPy runs on the host, came back through NumPy's dispatch
    (RecursionError). fuzz42's sweep."""
    rng = np.random.default_rng(42)
    x = rng.integers(-50, 50, (7, 5)).astype(np.int32)
    f = rng.standard_normal((65, 6)) * 40  # (counts past 7: float32 rounds (n - 1) * q)
    g = np.where(f > 0, f, np.nan)
    got = eval(call.replace("np.array", "la.asarray"), {"np": la, "la": la, "x": la.asarray(x),
                                                           "f": la.asarray(f), "g": la.asarray(g)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = eval(call, {"np": np, "x": x, "f": f, "g": g})
    got = np.asarray(got)
    assert got.dtype == np.asarray(want).dtype and np.array_equal(got, want, equal_nan=True)


@pytest.mark.parametrize("kwargs", [{"axis": None, "initial": 5.1}, {"axis": 0, "initial": 0.1},
                                    {"axis": (0, 1), "initial": 1.7, "keepdims": True},
                                    {"axis": 0, "initial": 3, "where": "x > 0"}])
@pytest.mark.parametrize("name", ["sum", "prod"])
def test_initial_starts_the_fold_as_numpys(backend, name, kwargs):
    """NumPy's multiply.reduce folds in order from `initial`, and its add.reduce over leading
    axes too (over the last axis it adds `initial` to the pairwise sum): `initial` multiplied or
    added after the fold differed in the last bits (fuzz42's sweep: `np.prod(A, axis=(0, -1),
    initial=5)`, `np.sum(A, axis=0, initial=0.1)`)."""
    if name == "sum" and kwargs["axis"] is None:
        kwargs = {**kwargs, "axis": 1}  # (over every axis: initial + the pairwise sum, as here)
    x = np.random.default_rng(7).standard_normal((6, 40, 3)) * 100
    got_kwargs = {k: (la.asarray(x) > 0 if v == "x > 0" else v) for k, v in kwargs.items()}
    want = getattr(np, name)(x, **{k: (x > 0 if v == "x > 0" else v) for k, v in kwargs.items()})
    got = np.asarray(getattr(la, name)(la.asarray(x), **got_kwargs))
    assert got.dtype == want.dtype and got.shape == want.shape
    # (on a GPU within its ulps of the terms' size: another order of the fold)
    magnitude = getattr(np, name)(np.abs(x), **{k: (x > 0 if v == "x > 0" else abs(v) if
                                                    k == "initial" else v) for k, v in kwargs.items()})
    assert_as_numpy(got, want, scale=magnitude)


@pytest.mark.parametrize("name", ["mean", "var", "std", "nanmean", "nanvar"])
def test_a_bool_axis_of_mean_and_var_counts_first_as_numpy(reference_backend, name):
    """NumPy's mean/var count the items before they sum: `np.mean(x1d, axis=True)` is its
    AxisError (True is past a 1-D array's dims), a 2-D array's TypeError (the fuzzer, seed
    190028: lazyarray raised TypeError for both)."""
    for shape in [(3,), (0,), (2, 3)]:
        x = np.ones(shape)
        with pytest.raises(Exception) as want:
            getattr(np, name)(x, axis=True)
        with pytest.raises(type(want.value)):
            getattr(la, name)(la.asarray(x), axis=True)


def test_sums_on_both_sides_of_a_kept_axis_are_numpys_bits_on_the_numpy_backend():
    """`axis=(0, 2)` of a 3-D array: NumPy sums each row's trailing block pairwise and adds the
    blocks row after row; the numpy backend's kernel rows summed the lot pairwise (a last bit
    off for ~1 in 3 values; runtime/kernel_numpy.py `_blocks_then_rows`). (C: documented.)"""
    rng = np.random.default_rng(11)
    with la.config(backend="numpy", eager_size=0):
        for dtype in (np.float32, np.float64):
            x = (rng.standard_normal((20, 6, 150)) * 10 + 3).astype(dtype)
            for name in ("sum", "mean", "var"):
                got = np.asarray(getattr(la, name)(la.array(x), axis=(0, 2)))
                assert np.array_equal(got, getattr(np, name)(x, axis=(0, 2))), (name, dtype)


# complex128 and complex64 fold in the same sequential loop on C (a compile per row and path,
# ~0.7 s of CPU a dtype in these two tests): complex64's C instances are exhaustive (stop 52)
_COMPLEX_PRODUCT_DTYPES = ["complex128", pytest.param("complex64",
                                                      marks=pytest.mark.exhaustive_on("c"))]


@pytest.mark.needs("numpy_fold_order")  # (a block tree's order makes other NaN parts)
@pytest.mark.parametrize("dtype", _COMPLEX_PRODUCT_DTYPES)
def test_complex_products_with_infinite_parts_are_numpys(backend, dtype):
    """NumPy's multiply.reduce starts from 1 + 0j and multiplies in order: `prod([2, inf + 1j])`
    is inf+nanj. C's sequential fold had it, then multiplied its seven idle lanes' identity in
    (1 + 0j) * z, NaN in both parts where a part of z is infinite: nan+nanj."""
    rng = np.random.default_rng(3)
    rows = [[2, np.inf + 1j], [np.inf + 1j], [np.inf + 1j, 2], [1, -np.inf * 1j, 3],
            [np.nan + 1j, 2]]
    for _ in range(12):
        a = rng.standard_normal(int(rng.integers(1, 20))) + 1j * rng.standard_normal(1)
        hit = rng.random(a.shape) < 0.2
        a[hit] = rng.choice([np.inf, -np.inf], int(hit.sum())) + 0.5j
        rows.append(list(a))
    for row in rows:
        a = np.array(row, dtype)
        for lazy in (False, True):
            with la.config(**({"eager_size": 0} if lazy else {})), la.errstate(all="ignore"):
                x = la.asarray(a)
                got = [la.prod(x), la.prod(x.reshape(1, -1), axis=1),
                       la.prod(x.reshape(-1, 1), axis=0, keepdims=True)]
                got = [np.asarray(g) for g in got]
            with np.errstate(all="ignore"):
                want = [np.prod(a), np.prod(a.reshape(1, -1), axis=1),
                        np.prod(a.reshape(-1, 1), axis=0, keepdims=True)]
            for g, w in zip(got, want):
                assert g.dtype == w.dtype and g.tobytes() == w.tobytes(), (row, g, w)


@pytest.mark.needs("numpy_fold_order")
@pytest.mark.parametrize("dtype", _COMPLEX_PRODUCT_DTYPES)
def test_complex_products_over_outer_axes_are_numpys_rows(backend, dtype):
    """NumPy multiplies whole rows (its binary loop's FMA form) where a kept dim is innermost in
    memory, and one value after another (its reduce loop's plain form) where a reduced dim is:
    `prod(z, axis=0)` of a (3, 8) matrix was a last bit off NumPy's on 4 of 8 outputs
    (graph/ops_columns.py)."""
    rng = np.random.default_rng(8)
    base = (rng.standard_normal((6, 20)) + 1j * rng.standard_normal((6, 20))).astype(dtype)
    views = [(lambda b: b[:3, :8], 0), (lambda b: b[:5, :12].reshape(5, 4, 3), 1),
             (lambda b: b[:2, :12].reshape(2, 3, 4), 0), (lambda b: b[:, ::2], 0),
             (lambda b: b.T, 0), (lambda b: b.T, 1), (lambda b: b[:4, :6], 1),
             (lambda b: b[:2, :12].reshape(2, 3, 4), (0, 1)), (lambda b: b[:3, :1], 0),
             (lambda b: (b * 2).T, 0)]
    for view, axis in views:
        want = np.prod(view(base), axis=axis)
        for lazy in (False, True):
            with la.config(**({"eager_size": 0} if lazy else {})):
                got = np.asarray(la.prod(view(la.asarray(base)), axis=axis))
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (want.shape, axis)
