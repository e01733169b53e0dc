"""Bugs the differential fuzzer (tests/fuzz_numpy.py) found, each pinned against NumPy on every
backend with the smallest program that showed it."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy_oracle import assert_as_numpy, assert_matches

import lazyarray as la
from sites import assert_site, notes_of
from together import compile_together

_COMPILED: dict = {}  # sweeps whose C kernels are compiled in one unit (tests/together.py)


@pytest.mark.parametrize("chain", [
    lambda m, x: m.log2(m.log(m.exp(x))),  # log's value at position 2 was named `log2` ...
    lambda m, x: m.log10(m.exp(m.exp(x))),
    lambda m, x: m.exp2(m.exp(m.sin(x))),  # ... and shadowed libm's log2/exp2 after it
])
def test_values_named_like_libm_functions_do_not_shadow_them(backend, chain):
    x = np.array([0.5, 2.0, 8.0, -1.0])
    with np.errstate(all="ignore"):
        want = chain(np, x)
    assert_matches(chain(la, la.asarray(x)), want)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "int32", "int64",
                                   "float32", "complex64", "complex128"])
def test_angle_has_numpys_dtype(backend, backend_does, dtype):
    """angle(int8) is NumPy's arctan2(0, x) loop: float16, as there (it was float64)."""
    z = np.array([1, 0, 1, 0], dtype)
    if dtype.startswith("complex"):
        z = z * (1 - 2j)
    want = np.angle(z, deg=True)
    if want.dtype == np.float16 and not backend_does("half"):
        pytest.skip(f"float16 results on {backend} (conftest NEEDS['half'])")
    assert_matches(la.angle(la.asarray(z), deg=True), want)


@pytest.mark.parametrize("value", [1j, 2 - 0.5j])
@pytest.mark.parametrize("dtype", ["float64", "int8", "uint16"])
def test_storing_a_python_complex_into_a_real_array_raises_as_numpy(value, dtype):
    """NumPy: `x[0] = 1j` into a real array is TypeError (it took the real part silently)."""
    with pytest.raises(TypeError):
        np.zeros(3, dtype)[0] = value
    x = la.zeros(3, dtype=dtype)
    with pytest.raises(TypeError) as info:
        x[0] = value
    assert_site(info, "test_fuzz_regressions.py")
    with pytest.raises(TypeError) as info:
        x.at[1:].set(value)
    assert_site(info, "test_fuzz_regressions.py")


def test_storing_a_python_complex_into_a_complex_array(backend):
    x = la.zeros(3, dtype=la.complex64)
    x[1] = 2 - 0.5j
    want = np.zeros(3, np.complex64)
    want[1] = 2 - 0.5j
    assert_matches(x, want)


@pytest.mark.parametrize("value", [1e300, -1e300, float("nan"), float("inf"), -2.7, 2.7])
@pytest.mark.parametrize("dtype", ["int16", "uint8", "int64", "uint64"])
def test_full_of_a_float_into_an_integer_dtype_is_astypes_rule(backend, value, dtype):
    """la.full(n, 1e300, dtype=int16) raised OverflowError from inside NumPy (NaN: ValueError),
    naming no line; NumPy leaves these to the platform. It is astype's rule now: truncate,
    saturate, NaN -> 0 (docs/semantics.md), the same value as la.full(n, value).astype(dtype)."""
    want = np.asarray(la.full(3, value).astype(dtype))
    assert_matches(la.full(3, value, dtype=dtype), want)
    assert_matches(la.full_like(la.zeros(3, dtype=dtype), value), want)
    if np.isfinite(value) and abs(value) < 100 and (value >= 0 or dtype[0] != "u"):
        assert_matches(la.full(3, value, dtype=dtype), np.full(3, value, dtype))


def test_vecdot_of_a_0d_operand_raises_as_numpy():
    for a, b in [((), (3,)), ((3,), ())]:
        with pytest.raises(ValueError):
            np.vecdot(np.ones(a), np.ones(b))
        with pytest.raises(ValueError) as info:
            la.vecdot(la.ones(a), la.ones(b))
        assert_site(info, "test_fuzz_regressions.py")


@pytest.fixture
def dask_backend():
    pytest.importorskip("dask")
    with la.config(backend="dask"):
        yield "dask"


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
@pytest.mark.parametrize("axis", [0, 1])
def test_dask_a_reduction_then_an_array_operand(dask_backend, dtype, axis):
    """sum(x, axis) / y on the dask backend: y's block came as a copy with a stride over the
    reduced dim, and the epilogue read it there (CompileError: 'i1' undeclared). Complex mean
    divides by a 0-d complex buffer: the same."""
    x = np.arange(12.0).reshape(3, 4).astype(dtype)
    y = np.arange(1.0, 1 + x.shape[1 - axis]).astype(dtype)
    assert_matches(la.sum(la.asarray(x), axis=axis) / la.asarray(y), np.sum(x, axis=axis) / y)
    assert_matches(la.mean(la.asarray(x), axis=axis), np.mean(x, axis=axis))


@pytest.mark.parametrize("shape", [(5, 0), (0, 5), (0,), (2, 0, 3)])
def test_dask_empty_leaves(dask_backend, shape):
    """An empty NumPy leaf on the dask backend: Dask's 'auto' chunks divided by zero."""
    x = np.ones(shape, np.complex128)
    assert_matches(la.asarray(x) / 2.0, x / 2.0)
    assert_matches(la.sum(la.asarray(x), axis=-1), np.sum(x, axis=-1))
    assert_matches(la.sum(la.asarray(x).real), np.sum(x.real))


@pytest.mark.parametrize("x_dtype, lo, hi", [
    ("bool", 5, "float32"), ("bool", 2147483648, "float32"), ("bool", True, "int8"),
    ("int8", 5, "float32"), ("uint8", 2.5, None), ("bool", None, "uint8"), ("int8", "float64", 50),
])
def test_clip_promotes_x_and_both_bounds_at_once(backend, x_dtype, lo, hi):
    """np.clip(bool, 5, float32) is float32: NumPy promotes the three together. lazyarray applied
    maximum then minimum, each promoting on its own (bool with 5 is int64, then float64)."""
    x = np.array([0, 1, 1, 0], x_dtype) if x_dtype == "bool" else np.array([0, 1, 7, 100], x_dtype)

    def bound(b, m):
        return m.asarray(np.array([3], b)) if isinstance(b, str) else b

    assert_matches(la.clip(la.asarray(x), bound(lo, la), bound(hi, la)),
                   np.clip(x, bound(lo, np), bound(hi, np)))


def test_reduction_over_a_view_that_needs_its_source_stored(backend):
    """A double diagonal (reshape/slice views whose reshape cannot be strides of its input) read
    by a reduction: the planner stored the slice, then let the reduction's kernel absorb the
    group that stored it, so the reshape still read it in-kernel and NeedsBuffer escaped
    `optimize()` (found by the einsum hypothesis test: `einsum('ab,bbb', a, b)`)."""
    a, b = np.array([[2.0, 1.0], [0.0, -2.0]]), np.arange(8.0).reshape(2, 2, 2)
    A, B = la.asarray(a), la.asarray(b)  # noqa: N806
    got = la.sum(A * la.diagonal(la.diagonal(B, 0, 0, 1), 0, 0, 1)[None, :], axis=1)
    assert_matches(got, np.einsum("ab,bbb", a, b))


@pytest.mark.parametrize("fn", ["cbrt", "exp", "cosh", "log2"])
def test_an_op_over_a_flipped_read_equals_the_op_then_flipped(backend, fn):
    """NumPy's ufuncs take other loops over negative strides, which differ in the last bit
    (np.cbrt(x[::-1]) != np.cbrt(x)[::-1]); the numpy backend's executors read flipped views
    forwards, so `flip(f(x))` computed in a kernel equals `f(x)` stored and then flipped (the
    fuzzer compared them exactly: seeds 920931, 925851)."""
    x = np.abs(np.random.default_rng(1).standard_normal(512)) * 300
    f = getattr(la, fn)
    y = f(la.asarray(x))
    flipped = la.flip(y)
    la.eval(y, flipped)
    np.testing.assert_array_equal(np.asarray(flipped), np.asarray(y)[::-1])


@pytest.mark.parametrize("dtype", ["int8", "int16", "int64"])
def test_integer_power_of_a_negative_int_raises_only_for_elements(reference_backend, dtype):
    """NumPy raises 'Integers to negative integer powers' from the loop, so an empty integer
    array ** -1 is an empty array there (it raised here; fuzzer seed 932936)."""
    empty = np.zeros((0, 3), dtype)
    np.testing.assert_array_equal(np.asarray(la.asarray(empty) ** -2), empty ** -2)
    assert (la.asarray(empty) ** -2).dtype == dtype
    with pytest.raises(ValueError, match="negative integer powers"):
        la.asarray(np.ones(2, dtype)) ** -2


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logaddexp2_is_numpys_to_the_bit(backend, dtype):
    """logaddexp2 was a composition of exp2/log1p ops: on the numpy backend NumPy's SIMD exp2 and
    log1p differ from the libm ones of npy_logaddexp2, 32 ulps near cancellation
    (logaddexp2(x, expm1(x)), fuzzer seed 931744). It is an op with NumPy's algorithm now. On a
    GPU the algorithm's exp2 and log1p are CUDA's (1-2 ulp from glibc's), and near 0 the result
    is a difference of terms of the operands' size (`x + log2(1 + 2**(y - x))`): within ulps of
    the operands, not of the result (numpy_oracle.assert_as_numpy's `scale`)."""
    a = np.random.default_rng(3).standard_normal(500) * 5
    a = np.concatenate([a, [np.inf, -np.inf, np.nan, 0.0, -0.0, 3.0]]).astype(dtype)
    b = np.concatenate([np.expm1(a[:500]), [np.inf, 1.0, 0.0, 0.0, 0.0, 3.0]]).astype(dtype)
    got = np.asarray(la.logaddexp2(la.asarray(a), la.asarray(b)))
    want = np.logaddexp2(a, b)
    assert got.dtype == want.dtype
    with np.errstate(invalid="ignore"):
        assert_as_numpy(got, want, scale=np.maximum(np.abs(a), np.abs(b)))


def test_an_empty_boolean_index_is_an_empty_integer_index(reference_backend):
    """NumPy takes an empty boolean index's nonzero() without checking its shape against the
    dimensions it covers: x[:, np.array([], bool)] on (2, 3) is (2, 0), and a set through it
    changes nothing (IndexError here; fuzzer seed 962090)."""
    x = np.arange(6.0).reshape(2, 3)
    for key in [(slice(None), np.array([], bool)), (np.zeros((0, 0), bool),),
                (Ellipsis, np.array([], bool))]:
        assert np.asarray(la.asarray(x)[key]).shape == x[key].shape
        y, z = la.asarray(x), x.copy()
        y[key], z[key] = 5.0, 5.0
        np.testing.assert_array_equal(np.asarray(y), z)
    np.testing.assert_array_equal(np.asarray(la.asarray(x[0]).at[np.array([], bool)].add(1.0)),
                                  x[0])
    with pytest.raises(IndexError):
        la.asarray(x)[:, np.zeros(1, bool)]


FILLS = [("uint16", -1, "int8"), ("uint8", 300, "int64"), ("int32", 2.7, "float64"),
         ("int32", 3e10, "float64"), ("int16", np.nan, "float32"), ("bool", 7, "int64")]


@pytest.mark.xdist_group("test_a_filled_0d_value_stored_into_another_dtype_is_cast")
@pytest.mark.parametrize("how", ["set", "add"])
@pytest.mark.parametrize("target,fill,fill_dtype", FILLS)
def test_a_filled_0d_value_stored_into_another_dtype_is_cast(backend, how, target, fill,
                                                             fill_dtype):
    """Seed 1200247: `x_uint16[()] = full_like(int8_0d, -1)` retyped the scalar leaf without
    converting its value: -1 went to a uint16 kernel slot (OverflowError on every backend)."""
    compile_together(_COMPILED, ("fills", backend), [
        lambda h=h, t=t, f=f, d=d: getattr(la.asarray(np.array([1, 0, 2], t)).at[1], h)(
            la.full((), f, dtype=d)) for h in ("set", "add") for t, f, d in FILLS])
    x = np.array([1, 0, 2], target)
    v = np.full((), fill, fill_dtype)
    got = getattr(la.asarray(x).at[1], how)(la.full((), fill, dtype=fill_dtype))
    want = x.copy()
    cast = la.asarray(v).astype(target)  # astype's rule (docs/semantics.md: float -> int saturates)
    want[1] = np.asarray(cast) if how == "set" else (x[1] + np.asarray(cast)).astype(target)
    if target == "bool" and how == "add":
        want[1] = x[1] or np.asarray(cast)
    assert_matches(got, want)



def test_a_view_computed_from_a_buffer_is_read_before_an_in_place_store(backend):
    """Seed 1703041: a kernel storing reshape(b) and real(a), with the first store placed in a's
    storage, wrote it before real(a) (np.real: a view of a's buffer) was stored, on the numpy
    backend (and the C backend's interpreted tier): real(a) with x[.., -1] = 7 gave [-1, -1, 7]."""
    z = np.array([[-106.7673434 - 1.47998568j, 34.52385823 - 3.62411109j,
                   21.00624841 + 1.67311379j]])

    def build(m, x1, at):
        v3 = m.where(x1 != 0, x1, 7)
        v4 = m.repeat(x1, 1, axis=None)
        v8 = v3 != m.cumulative_prod(v4, axis=-1) if m is la else v3 != np.cumprod(v4)
        v21 = m.concat([v8], axis=-1) / m.angle(m.prod(v8, axis=-2)) if m is la else \
            v8 / np.angle(np.prod(v8, axis=-2))
        v23 = at(m.arcsin(m.sort(v4, axis=0)), (), -1)
        v33 = at(m.real(v3), (np.array([0, 0, 0]), -1), 7)
        return v21, m.dot(v23, v23), v33

    def np_at(x, key, v):
        y = np.array(x, copy=True)
        y[key] = v
        return y

    with np.errstate(all="ignore"):
        want = build(np, z, np_at)
    lazy = (lambda: build(la, la.asarray(z), lambda x, key, v: x.at[key].set(v)))
    np.asarray(lazy()[2])  # the same structure evaluated before, alone
    got = lazy()
    la.eval(*got)
    for g, w in zip(got, want):
        assert_matches(g, w)


@pytest.mark.parametrize("shift, axis", [
    (la.asarray(1), None), (np.int64(2), 1), ((1, 2), 0), ((1, -1), (0, 1)), (1, (0, 1)),
    (-5, -1), ([1, 2], [1, 1]), (la.asarray([1, 2]), (0, 1)), (np.array([3]), 0)])
def test_roll_takes_numpys_shifts(backend, shift, axis):
    """np.roll's rule: shift and axis broadcast, shifts of one axis add up, and any integer NumPy
    takes is a shift (la.roll(x, la.asarray(1)) raised 'iteration over a 0-d array', np.int64
    'object is not iterable'; a helper's report)."""
    a = np.arange(12.0).reshape(3, 4)
    want = np.roll(a, np.asarray(shift) if isinstance(shift, la.Array) else shift, axis)
    np.testing.assert_array_equal(np.asarray(la.roll(la.asarray(a), shift, axis=axis)), want)


def test_roll_refuses_shifts_that_do_not_broadcast(reference_backend):
    x = la.asarray(np.arange(12.0).reshape(3, 4))
    with pytest.raises(ValueError, match="same length"):
        la.roll(x, (1, 2, 3), axis=(0, 1))
    with pytest.raises(ValueError, match="1D sequences"):
        la.roll(x, [[1]], axis=0)


@pytest.mark.parametrize("key", [np.array([7]), [0, -6], (np.array([1]), np.array([4]))])
def test_an_out_of_bounds_index_array_in_at_raises_at_the_users_line(backend, key):
    """Seed 1501485: x.at[idx].set(v) (and x[idx] = v) with a concrete index array out of
    bounds raised only when the result was evaluated; NumPy raises at the line."""
    x = la.asarray(np.arange(10.0).reshape(5, 2) if isinstance(key, tuple) else np.arange(5.0))
    with pytest.raises(IndexError, match="out of bounds") as info:
        x.at[key].set(1.0)
    assert "test_fuzz_regressions.py" in notes_of(info)
    with pytest.raises(IndexError, match="out of bounds"):
        x[key] = 1.0


def _write_into_no_elements(m, x):
    b = m.zeros(3)
    b[1:1] = 1.0 / x[:1]
    return b


@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("how", [
    _write_into_no_elements,
    lambda m, x: (1.0 / x)[0:0],  # a view of no elements
    lambda m, x: m.zeros((2, 0)) + (1.0 / x)[:, None],  # a broadcast to none (this one
])  # warned before too: the kernel computed the broadcast value outside its loop)
def test_a_value_read_only_by_an_empty_result_raises_its_flags_as_numpy(backend, how):
    """The fuzzers' open class since fuzz38 (seeds 97256 ... 182659: `A[3:3] = x % 0.0 / 1e300`,
    `np.flip(t[0:0]) <= v[0] * -inf`): a lazy value that only an empty result read was fused
    into that result's loop over no elements, so it was never computed and its 'divide by
    zero' never rose; NumPy computes it at its line. The fusion planner materializes it."""
    x = np.array([0.0, 2.0])
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        want = how(np, x)
    with la.config(eager_size=0), pytest.warns(RuntimeWarning, match="divide by zero"):
        got = how(la, la.asarray(x))
        np.asarray(got)
    assert_matches(got, want)


@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64"])
def test_int_min_floor_divided_by_minus_one_warns_overflow_as_numpy(backend, dtype):
    """Seed 190066 (CI's worker order): the C kernels' floor_divide wrapped `INT_MIN // -1`
    (divmod's too) without NumPy's 'overflow'; only a cold cache's NumPy executor warned."""
    a = np.array([np.iinfo(dtype).min, 7, -7], dtype)
    with pytest.warns(RuntimeWarning, match="overflow"):
        want = a // -1
    with la.config(eager_size=0, background_compiles=False), \
            pytest.warns(RuntimeWarning, match="overflow encountered in floor_divide"):
        got = np.asarray(la.asarray(a) // -1)
    np.testing.assert_array_equal(got, want)


def _stored(m, dtype, key, value):
    a = m.asarray(np.arange(4).astype(dtype))
    a[key] = value
    return a


@pytest.mark.parametrize("dtype, key, value", [
    ("int64", slice(0, 2), [float("inf"), 1]),  # a list packs each item through int()
    ("int64", [0, 1], (float("nan"), 1)),
    ("int8", slice(None), [300.0, -1.0, 1, 1]),
    ("uint64", slice(0, 2), [-1.0, 2.5]),  # OverflowError: -1 out of bounds
    ("int64", 0, np.float64(np.inf)),  # a NumPy scalar through a basic key: setitem's rule
    ("int32", slice(0, 2), np.float32(np.nan)),
    ("int8", Ellipsis, np.float64(300.0)),
    ("int64", 0, np.uint64(2**64 - 1)),
])
def test_an_out_of_range_list_or_numpy_scalar_stored_into_ints_raises_as_numpy(
        reference_backend, dtype, key, value):
    """fuzz44: NumPy stores a list's items and a NumPy scalar at a basic key as its setitem
    does (`int()` of a float: NaN ValueError, inf or out of range OverflowError); lazyarray
    cast them as an array, storing saturated values silently."""
    with pytest.raises((OverflowError, ValueError)) as want:
        _stored(np, dtype, key, value)
    with pytest.raises(want.type) as info:
        _stored(la, dtype, key, value)
    assert_site(info, "test_fuzz_regressions.py")


@pytest.mark.parametrize("dtype, key, value", [
    ("uint8", 0, np.float64(-1.0)),  # int(-1.0), then C's wrap: 255 (a cast saturates to 0)
    ("uint8", slice(0, 2), np.float32(300.0)),  # 44
    ("uint64", 1, np.float64(-2.7)),  # 2**64 - 2
    ("uint8", slice(0, 2), (np.float64(-1.0), 2.5)),  # (255, 2), no warning
])
def test_a_list_or_numpy_scalar_stored_into_ints_has_numpys_values(backend, dtype, key, value):
    with np.errstate(all="raise"):
        want = _stored(np, dtype, key, value)
    with la.errstate(all="raise"):
        assert_matches(_stored(la, dtype, key, value), want)


@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("dtype", ["int64", "uint64"])
def test_a_cast_of_a_broadcast_nan_raises_invalid_as_numpy(backend, dtype):
    """fuzz44: the C cast raised 'invalid' for NaN through its ordered comparison, which gcc
    (-fno-trapping-math) made a quiet `ucomisd` once the cast of a broadcast 0-d value left
    the loop: `a[:2] = np.array(nan)` into an int array warned nothing."""
    nan = np.array(np.nan)
    with pytest.warns(RuntimeWarning, match="invalid value encountered in cast"):
        np.broadcast_to(nan, (3,)).astype(dtype)
    with la.config(eager_size=0, background_compiles=False), \
            pytest.warns(RuntimeWarning, match="invalid value encountered in cast"):
        np.asarray(la.broadcast_to(la.asarray(nan), (3,)).astype(dtype))


def test_nanvar_of_infinite_values_is_nan_as_numpy(reference_backend):
    """fuzz44 (seeds 300081, 300175): nanvar summed its squared deviations with nansum, which
    dropped inf - inf's NaN too: nanvar([inf]) was 0, nanstd([inf, 1, 2], ddof=1) inf."""
    x = np.array([[np.inf, 0.675, np.nan], [1.0, np.nan, 2.0]])
    with np.errstate(invalid="ignore"):
        want = np.nanvar(x, axis=1, ddof=1), np.nanstd(x)
    with la.errstate(invalid="ignore"):
        got = la.nanvar(la.asarray(x), axis=1, ddof=1), la.nanstd(la.asarray(x))
    assert_matches(got[0], want[0])
    assert_matches(got[1], want[1])


@pytest.mark.parametrize("fn", ["percentile", "nanquantile"])
def test_a_quantile_by_another_method_is_numpys_scalar(reference_backend, fn):
    """fuzz44 (seed 300068): a quantile by a method other than 'linear' (NumPy on the host) was
    a 0-d array, so `r *= A` raised NumPy's in-place broadcast error where NumPy's scalar
    rebinds r."""
    a = np.array([[0.0, -2.0, 3.0], [5.0, 1.0, -1.0]])
    q = 50 if fn == "percentile" else 0.5
    r = getattr(la, fn)(la.asarray(a), q, method="lower")
    r *= la.asarray(a)
    want = getattr(np, fn)(a, q, method="lower")
    want *= a
    assert_matches(r, want)


@pytest.mark.needs("fp_errors")
def test_integer_reciprocal_of_zero_warns_as_numpy(backend):
    """fuzz44: NumPy's integer reciprocal divides in double, so 1 / 0 warns 'divide by zero'
    and 'invalid' (the cast of inf); lazyarray's 0 there (docs/semantics.md) came silently."""
    x = np.array([0, 1, -1, 5], np.int8)
    with pytest.warns(RuntimeWarning) as want:
        np.reciprocal(x)
    with la.config(eager_size=0, background_compiles=False), pytest.warns(RuntimeWarning) as got:
        np.asarray(la.reciprocal(la.asarray(x)))
    assert sorted(str(w.message) for w in got) == sorted(str(w.message) for w in want)


@pytest.mark.parametrize("shape, axis", [((3, 0), 0), ((0, 3), 1)])
def test_average_with_an_empty_result_raises_as_numpy(reference_backend, shape, axis):
    """fuzz44: NumPy's unweighted average divides `a.size / avg.size` in Python, so an empty
    result raises ZeroDivisionError; lazyarray returned the empty mean."""
    with pytest.raises(ZeroDivisionError):
        np.average(np.zeros(shape), axis=axis)
    with pytest.raises(ZeroDivisionError) as info:
        la.average(la.zeros(shape), axis=axis)
    assert_site(info, "test_fuzz_regressions.py")


@pytest.mark.parametrize("fn, q", [("quantile", 0), ("nanquantile", 1),
                                   ("quantile", np.array([0, 1], np.uint8))])
def test_a_quantile_at_an_integer_q_takes_its_value_as_numpy(reference_backend, fn, q):
    """fuzz44 (seed 310184): NumPy takes the value at an integer q's index, where lazyarray
    interpolated: the lerp of -inf and -inf is NaN (`nanquantile([[-inf]], 0)` is -inf). And an
    unsigned q's neighbour index -1 wrapped to 255: q=[0, 1] of uint8 gave the minimum twice."""
    x = np.array([[-np.inf, np.inf], [np.inf, np.nan], [3.0, 5.0]])
    with np.errstate(invalid="ignore"):
        want = getattr(np, fn)(x, q, axis=0)
    with la.errstate(invalid="ignore"):
        assert_matches(getattr(la, fn)(la.asarray(x), q, axis=0), want)


@pytest.mark.parametrize("fn", ["modf", "spacing"])
def test_modf_and_spacing_of_inf_warn_nothing_as_numpy(reference_backend, fn):
    """fuzz44: modf's fraction and spacing's step of inf were `inf - inf`, whose 'invalid'
    warned; NumPy's loops give (±0, ±inf) and NaN there silently."""
    x = np.array([np.inf, -np.inf, 2.5, -0.0])
    with np.errstate(all="raise"):
        want = getattr(np, fn)(x)
    with la.errstate(all="raise"), la.config(eager_size=0, background_compiles=False):
        got = getattr(la, fn)(la.asarray(x))  # (computed at the block's exit, under its modes)
    for g, w in zip(got if fn == "modf" else [got], want if fn == "modf" else [want]):
        assert_matches(g, w)  # (NumPy's isclose: outside, la.errstate sets NumPy's modes too)


def test_rad2deg_of_float32_uses_numpys_float32_constant(reference_backend):
    """fuzz44: NumPy's float32 rad2deg multiplies by 180f / pi_f (57.295776); lazyarray's
    180 / pi rounded to float32 (57.29578) was 1 ulp off for most values (2.5: 143.23946)."""
    x = np.array([2.5, -0.1, 1e-3, 3.0e5], np.float32)
    assert_matches(la.rad2deg(la.asarray(x)), np.rad2deg(x), ulps=0)


def test_i0_computes_each_branch_on_its_own_values_as_numpy(reference_backend):
    """fuzz44: la.i0 evaluated both of NumPy's piecewise branches on every value: 32 / 0 at
    zero raised 'divide by zero' (and exp of a large value 'overflow') where NumPy's i0 is
    silent."""
    x = np.array([0, 1, 127, -128], np.int8)
    with np.errstate(all="raise"):
        want = np.i0(x)
    with la.errstate(all="raise"), la.config(eager_size=0, background_compiles=False):
        assert_matches(la.i0(la.asarray(x)), want)


def test_permute_dims_without_axes_reverses_them_as_numpy(reference_backend):
    """fuzz44: NumPy 2's permute_dims takes `axes=None` (transpose's default); lazyarray
    required axes (TypeError)."""
    x = np.arange(24).reshape(2, 3, 4)
    assert_matches(la.permute_dims(la.asarray(x)), np.permute_dims(x))


@pytest.mark.parametrize("exponent", [2, -1])
def test_complex_power_operator_by_2_or_minus_1_is_numpys_square_or_reciprocal(
        reference_backend, exponent):
    """fuzz44: NumPy's `**` takes np.square for a Python int 2 and np.reciprocal for -1 (its
    operator's fast path, complex too); lazyarray took the power: `(1e308+1e308j) ** 2` was
    nan+infj, NumPy's -inf+infj."""
    z = np.array([1e308 + 1e308j, 3e200 + 1e200j, 2.5 - 1j, complex(np.inf, 1.0)])
    with np.errstate(all="ignore"):
        want = z ** exponent
    with la.errstate(all="ignore"):
        assert_matches(la.asarray(z) ** exponent, want)


@pytest.mark.parametrize("shape, key, value", [
    ((3,), slice(0, 2), [[1, 2]]), ((3,), Ellipsis, [[1, 2, 3]]), ((2, 3), 0, [[1, 2, 3]]),
    ((2, 3), (slice(None), 0), ([1, 2],)), ((3,), slice(0, 0), [[]]),
    ((3,), slice(0, 2), [np.ones(2)]),
])
def test_a_list_deeper_than_its_basic_selection_raises_as_numpy(reference_backend, shape, key,
                                                                value):
    """fuzz45: NumPy converts a list stored through a basic key into at most the selection's
    dims (`a[:2] = [[1, 2]]` is ValueError; the array np.ones((1, 2)) broadcasts); lazyarray
    took the list as an array and dropped its leading 1."""
    with pytest.raises(ValueError, match="maximum number of dimension"):
        np.zeros(shape)[key] = value
    x = la.zeros(shape)
    with pytest.raises(ValueError, match="maximum number of dimension"):
        x[key] = value
    x[key] = np.ones((1,) + np.zeros(shape)[key].shape)  # an array's leading 1 still drops
    np.testing.assert_array_equal(np.asarray(x)[key], 1.0)


@pytest.mark.parametrize("value", [[[1, 2]], np.ones((1, 2)), np.ones((1, 1))])
def test_a_value_of_two_dims_through_a_full_mask_raises_as_numpy(reference_backend, value):
    """fuzz45: NumPy's boolean assignment (a mask of every dim) takes values of 0 or 1 dims."""
    mask = np.array([True, True, False])
    with pytest.raises(TypeError, match="0 or 1-dimensional"):
        np.zeros(3)[mask] = value
    x = la.zeros(3)
    with pytest.raises(TypeError, match="0 or 1-dimensional"):
        x[mask] = value


@pytest.mark.parametrize("make", [
    lambda m, a: a.argmax() * [1, 2], lambda m, a: [0] * a.sum(), lambda m, a: a[1] * (1,),
    lambda m, a: [7] * (a + 1)[0], lambda m, a: a.max() * [1.5] * 2,
    lambda m, a: m.asarray(2) * [1, 2],  # a 0-d array (not a scalar) multiplies elementwise
])
def test_a_numpy_int_scalar_times_a_list_repeats_it(reference_backend, make):
    """fuzz45: NumPy's scalars leave `*` by a list or tuple to Python, which repeats it by an
    integer's __index__ (`[0] * counts.sum()`); the 0-d stand-in multiplied elementwise."""
    a = np.array([3, 1, 2])
    want = make(np, a)
    got = make(la, la.asarray(a))
    assert type(got) is type(want) or isinstance(want, np.ndarray)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_a_numpy_float_scalar_times_a_list_raises_as_numpy(reference_backend):
    with pytest.raises(TypeError):
        np.float64(2.0) * [1, 2]
    with pytest.raises(TypeError):
        la.asarray(np.array([2.0])).sum() * [1, 2]


_DOT_LOOPS = {  # NumPy computes these in loops that check no floating-point flags
    "vdot": lambda m, x, y: m.vdot(x, y),
    "einsum": lambda m, x, y: m.einsum("i,i", x, y),
    "einsum_matmul": lambda m, x, y: m.einsum("ij,jk", x.reshape(10, 8), y.reshape(8, 10)),
    "correlate": lambda m, x, y: m.correlate(x, y[:5], "same"),
    "convolve_long": lambda m, x, y: m.convolve(x[:12], y),  # > SHIFTED_MAX_TAPS: a matmul
    "convolve_complex": lambda m, x, y: m.convolve(x.astype(complex), y[:3], "full"),
}


def _dot_loop_operands() -> tuple[np.ndarray, np.ndarray]:
    x = np.linspace(-2.0, 3.0, 80)
    x[[3, 40]], x[41] = np.inf, -np.inf
    return x, np.where(np.arange(80) % 7 == 0, 0.0, 1.5)


@pytest.mark.xdist_group("test_dot_loops_of_infinities_warn_nothing_as_numpy")
@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("fn", sorted(_DOT_LOOPS))
def test_dot_loops_of_infinities_warn_nothing_as_numpy(backend, fn):
    """fuzz45 (fuzz44's seeds 310295, 330xxx): np.vdot, np.einsum, np.correlate and np.convolve
    give inf - inf and inf * 0 NaN silently (NumPy's dot and sum-of-products loops read no
    flags); lazyarray's multiply and sum warned 'invalid value encountered in multiply'."""
    x, y = _dot_loop_operands()
    f = _DOT_LOOPS[fn]
    with np.errstate(all="raise"):
        want = f(np, x, y)
    with la.config(eager_size=0, background_compiles=False), la.errstate(all="raise"):
        compile_together(_COMPILED, ("dot loops", backend), [
            lambda g=g: g(la, la.asarray(x), la.asarray(y)) for g in _DOT_LOOPS.values()])
        got = f(la, la.asarray(x), la.asarray(y))
        np.asarray(got)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)
    with np.errstate(divide="warn"), pytest.warns(RuntimeWarning, match="divide by zero"):
        np.asarray(la.vdot(la.asarray(x) / 0.0, la.asarray(y)))  # its inputs' flags still warn


@pytest.mark.parametrize("fn", ["sum", "mean", "var"])
def test_a_reduction_with_where_sums_in_numpys_order(backend, fn):
    """fuzz45 (fuzz44's seeds 330009, 410016: `np.var(c, where=c != 0)`): NumPy's masked loop
    sums each run of selected elements pairwise and adds the runs in order; lazyarray summed
    `where(mask, x, 0)` pairwise, a last bit off. The op masked_sum is NumPy's own call."""
    x = np.random.default_rng(7).standard_normal((4, 3000)) * 1e3
    mask = x > -300.0
    for axis in (None, 1):
        want = getattr(np, fn)(x, axis=axis, where=mask)
        got = getattr(la, fn)(la.asarray(x), axis=axis, where=la.asarray(mask))
        assert_matches(got, want, ulps=0)


@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("k", [0, 1])
def test_one_output_of_divmod_warns_both_outputs_flags_as_numpy(backend, k):
    """fuzz45 (seed 610026: `q = np.divmod(r, np.int8(0))[0]`): NumPy's divmod computes both
    outputs in one loop, so either one alone warns 'divide by zero' and 'invalid'; lazyarray's
    unread output was never computed (`[1]`: 'invalid' only, `[0]` of 5.0 / 0: 'divide' only)."""
    a, b = np.array([7.0, -7.0, 5.0, np.nan]), np.zeros(4)
    with pytest.warns(RuntimeWarning) as want:
        expected = np.divmod(a, b)[k]
    with la.config(eager_size=0, background_compiles=False), pytest.warns(RuntimeWarning) as got:
        result = np.asarray(la.divmod(la.asarray(a), la.asarray(b))[k])
    np.testing.assert_array_equal(result, expected)
    assert ({str(w.message).split(" in ")[0] for w in got}
            == {str(w.message).split(" in ")[0] for w in want})


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_divmods_remainder_alone_warns_the_quotients_overflow(backend, backend_does, dtype):
    """`np.divmod(x, -1)[1]` of a signed x holding its minimum, `np.divmod(1e308, 1e-300)[1]`:
    NumPy's one loop warns the quotient's 'overflow encountered in divmod'; the C remainder
    raised no flag (fuzz48)."""
    import warnings

    if not backend_does("fp_errors"):
        pytest.skip("no floating-point flags on this backend")
    if dtype == "float64":
        x, d = np.array([1e308, -0.0, 5.0]), np.array(1e-300)
    else:
        x, d = np.array([np.iinfo(dtype).min, 5, -7], dtype), np.array(-1, dtype)
    got = []
    for m, a in ((np, x), (la, la.asarray(x))):
        with warnings.catch_warnings(record=True) as caught, la.config(
                eager_size=0, background_compiles=False):
            warnings.simplefilter("always")
            r = np.asarray(m.divmod(a, m.asarray(d))[1])
        got.append((r.tobytes(), [str(w.message) for w in caught]))
    assert got[1] == got[0]


def test_an_invalid_flag_is_reported_for_each_value_of_a_plans_scalars(backend, backend_does):
    """`x % d` of a NaN-holding x: d = NaN flags 'invalid' in C but warns nothing in NumPy, so the
    plan was remembered as unconfirmed and `x % 0.0`'s 'invalid value' (the same plan, another
    scalar) was skipped; the scalars are part of that memory's key now (fuzz48)."""
    import warnings

    if not backend_does("fp_errors"):
        pytest.skip("no floating-point flags on this backend")
    x = np.array([np.nan, 1.0, -2.0, 3.0], np.float32)
    for make in (lambda d: d, lambda d: la.asarray(np.array(d, np.float32))):
        got = []
        for d in (np.nan, 0.0, np.nan, 0.0):
            with warnings.catch_warnings(record=True) as caught, la.config(
                    eager_size=0, background_compiles=False):
                warnings.simplefilter("always")
                np.asarray(la.asarray(x) % make(d))
            got.append([str(w.message) for w in caught])
        assert got == [[], ["invalid value encountered in remainder"]] * 2


@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("eager_size", [None, 0])
def test_divmod_reports_its_flags_once_as_numpys_one_call(backend, eager_size):
    """`q, r = np.divmod(a, b)` is one NumPy call, one report; under "always" lazyarray's two
    twins each re-ran np.divmod for its report and warned twice. The remainder now reads the
    quotient (an input its template ignores) and its own re-run is silent."""
    import warnings

    a = np.array([7.0, -7.0, 5.0, np.nan, 1.0, 2.0])
    settings = {} if eager_size is None else {"eager_size": eager_size}
    for lib in (np, la):
        with warnings.catch_warnings(record=True) as got, lib.errstate(all="warn"):
            warnings.simplefilter("always")
            x = lib.asarray(a)
            if lib is la:
                with la.config(background_compiles=False, **settings):
                    q, r = lib.divmod(x, x * 0)
                    q2, r2 = divmod(x, 0.0)
                    values = [np.asarray(v) for v in (q, r, r2, q2)]
            else:
                q, r = lib.divmod(x, x * 0)
                q2, r2 = divmod(x, 0.0)
                values = [q, r, r2, q2]
        if lib is np:
            want, want_values = sorted(str(w.message) for w in got), values
    assert sorted(str(w.message) for w in got) == want
    for v, w in zip(values, want_values):
        np.testing.assert_array_equal(v, w)


@pytest.mark.parametrize("fn", ["sum", "prod", "mean", "cumsum", "cumprod"])
@pytest.mark.parametrize("x, out_dtype", [
    (np.array([2**63, 2**63, 3], np.uint64), "float64"),  # seed 610093: in float64, not wrapped
    (np.array([16777216, 1, 1], np.float32), "float64"),  # in float64: 16777218
    (np.array([100, 100, 100], np.int8), "int16"), (np.array([True, True]), "int8"),
])
def test_a_reduction_into_out_computes_in_numpys_loop(reference_backend, fn, x, out_dtype):
    """fuzz45: NumPy's sum/prod/scans (and mean of floats) into `out` (no dtype=) compute in
    the loop of the input's and out's dtypes together; lazyarray computed in the input's default
    (uint64 products wrapped) and then cast into out. And `cumprod(x, dtype=)` multiplied in x's
    dtype before its cast."""
    shape = x.shape if fn.startswith("cum") else ()
    want = np.zeros(shape, out_dtype)
    getattr(np, fn)(x, out=want)
    got = la.zeros(shape, dtype=out_dtype)
    getattr(la, fn)(la.asarray(x), out=got)
    assert_matches(got, want, ulps=0)
    if fn.startswith("cum"):
        assert_matches(getattr(la, fn)(la.asarray(x), dtype=out_dtype),
                       getattr(np, fn)(x, dtype=out_dtype), ulps=0)


@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("fn", ["expm1", "cosh", "sinh"])
def test_an_overflow_past_the_clamp_warns_as_numpy(backend, fn):
    """fuzz45: the C helpers clamp the argument (expm1 to 710, cosh's and sinh's exp to 712);
    gcc folded a clamped lane's value to the constant inf, its overflow flag lost: `np.cosh([800.,
    1.])` warned nothing (710.0 itself did). A `+ zero` the compiler cannot see keeps it."""
    x = np.array([800.0, 1.0])
    with pytest.warns(RuntimeWarning, match="overflow"):
        want = getattr(np, fn)(x)
    with la.config(eager_size=0, background_compiles=False), \
            pytest.warns(RuntimeWarning, match=f"overflow encountered in {fn}"):
        got = np.asarray(getattr(la, fn)(la.asarray(x)))
    assert_matches(got, want)


def _numpy_error_cases(m):
    """Lines that raise, each run with `m` numpy or lazyarray (fuzz46's probes of the errors a
    program prints: `except ValueError as e: print(e)`)."""
    A, B, v = m.arange(12.0).reshape(3, 4), m.arange(6).reshape(2, 3), m.arange(5.0)

    def inplace_view():
        w = A[1:]
        w += v

    def inplace_slice():
        A[:, 1:3] += B

    def inplace_output():
        z = m.zeros((3, 1))
        z += A

    def matmul_inplace():
        a = m.ones((3, 4))
        a @= m.ones((4, 5))

    def fancy_assign():
        A[[0, 1]] = m.ones((3, 4))

    def mask_assign():
        a = m.arange(12.0).reshape(3, 4)
        a[a > 3] = m.ones(3)

    return [
        inplace_view, inplace_slice, inplace_output, matmul_inplace, fancy_assign, mask_assign,
        lambda: m.where(A > 0, v, 0), lambda: m.clip(A, v, 3),
        lambda: A.reshape(-1, 5), lambda: A.reshape(-1, -1), lambda: m.dot(A, B),
        lambda: m.dot(v, A), lambda: m.vdot(A, v), lambda: m.broadcast_to(v, (3, 4)),
        lambda: m.broadcast_to(A, (4,)), lambda: m.einsum("ij,jk->ik", A, B),
        lambda: m.transpose(A, (0, 0)), lambda: m.transpose(A, (0, 2)),
        lambda: A[m.array([True, False])], lambda: A[:, m.array([True, False])], lambda: A[1.5],
        lambda: m.linalg.norm(A, ord=3), lambda: m.tile(A, 2.5), lambda: m.zeros(-1),
        lambda: m.take_along_axis(A, m.array([[5]]), axis=1),
        lambda: m.take_along_axis(A, m.array([[0, 1]]), axis=0),
        lambda: m.copyto(A, B), lambda: m.add(A, 1, out=m.zeros(3)),
        lambda: m.add(A, 1, out=m.zeros((1, 4))), lambda: m.sum(A, axis=1, out=m.zeros(4)),
        lambda: m.sum(A, axis=1, out=m.zeros((3, 1))), lambda: m.add.reduce(A, out=m.zeros(3)),
        lambda: m.repeat(v, -1), lambda: m.repeat(v, [1, 2]), lambda: m.sum(A, axis=(0, 0)),
        lambda: m.mean(A, axis=(1, -1)), lambda: m.max(m.zeros((0, 3)), axis=0),
        lambda: m.argmin(m.zeros(0)), lambda: m.linalg.solve(A[:, :3], v),
        lambda: m.cross(v, v), lambda: m.percentile(v, 150), lambda: m.matmul(A, 2.0),
        lambda: m.tensordot(A, A, axes=([1], [1, 0])), lambda: m.zeros(0)[m.array([0, 0])],
        lambda: m.zeros((2, 0))[:, m.array([1])],
        lambda: m.take_along_axis(A, m.array([0]), axis=0),
    ]


def test_errors_are_numpys_type_and_text(reference_backend):
    """fuzz46: NumPy's exception type and exact text (`str(e)`; the line is a note) for shape,
    index and argument errors a program catches and prints. The in-place ones listed two
    operands (NumPy's ufunc lists the output too), shapes printed as Python tuples `(3, 4)`,
    np.dot's error was matmul's, take_along_axis named its flat gather's position and axis 0
    (and raised ValueError for NumPy's IndexError), transpose's `(0, 0)` said "axes ... don't
    match", reductions' out= had a text of their own."""
    with np.errstate(all="ignore"):
        for want_fn, got_fn in zip(_numpy_error_cases(np), _numpy_error_cases(la)):
            with pytest.raises(Exception) as want:
                want_fn()
            with pytest.raises(Exception) as got:
                result = got_fn()
                if isinstance(result, la.Array):  # (read: on the general path, eager_size=0
                    np.asarray(result)  # as cupy's, a gather's bounds fail when computed)
            assert (got.type, str(got.value)) == (want.type, str(want.value))
    a = la.arange(12.0).reshape(3, 4)  # (and NumPy's copyto drops a source's leading 1-dims)
    la.copyto(a, la.ones((1, 3, 4)))
    assert_matches(a, np.ones((3, 4)))


@pytest.mark.needs("fp_errors")
def test_a_raise_mode_error_reaches_the_try_block_at_its_line(reference_backend):
    """fuzz46: `with np.errstate(divide='raise'): try: r = a / b except FloatingPointError:` --
    NumPy raises at the line, inside the try. A pending op (above eager_size) raised at the
    block's exit instead, outside the handler; a `seterr(all='raise')` program's never reached
    its handler at all. Built on a line inside a try block under a 'raise' mode, a pending Array
    is computed there (Python's Array() and _trace.c's make_array); elsewhere it stays lazy."""
    a, b = la.ones(5000), la.zeros(5000)
    with la.config(eager_size=0), la.errstate(divide="raise", invalid="raise"):
        caught = []
        try:
            a / b
        except FloatingPointError as exc:
            caught.append(str(exc))
        try:
            la.log(a - 1)
        except FloatingPointError as exc:
            caught.append(str(exc))
        try:
            (a - 1).sum() / 0.0
        except FloatingPointError as exc:
            caught.append(str(exc))
        x = la.ones(5000)
        try:  # (NumPy's in-place ufunc writes its result, then raises: seed 720106)
            x /= 0
        except FloatingPointError as exc:
            caught.append(str(exc))
        o = la.zeros(5000)
        try:  # (and a ufunc's out=)
            la.divide(a, 0, out=o)
        except FloatingPointError as exc:
            caught.append(str(exc))
        lazy = a / b  # (not in a try block: pending until the block's exit)
        assert lazy._node.inputs
        lazy = None
    assert caught == ["divide by zero encountered in divide", "divide by zero encountered in log",
                      # (NumPy's scalar math: the sum is np.float64; stop 53, it said 'divide')
                      "invalid value encountered in scalar divide"] + 2 * [
                      "divide by zero encountered in divide"]
    assert_matches(x, np.full(5000, np.inf))
    assert_matches(o, np.full(5000, np.inf))


def test_a_caught_index_error_of_a_write_leaves_the_array_as_it_was(reference_backend):
    """fuzz46: `try: v[i] = 2.0 except IndexError:` with a pending index Array `i` (above
    eager_size, or any under eager_size=0): the write rebound `v` to the scatter, then computed
    it at the line for NumPy's IndexError, and `v` stayed bound to the failing scatter, so every
    later read of `v` raised the error again. The index is computed and its bounds checked
    before the write."""
    for size in (None, 0):
        with la.config(eager_size=size) if size is not None else la.config():
            v = la.arange(10.0)
            i = la.arange(10) * 2
            try:
                v[i] = 2.0
            except IndexError as exc:
                assert str(exc) == "index 10 is out of bounds for axis 0 with size 10"
            else:
                raise AssertionError("no IndexError")
            try:
                v[i[:6]] += 1.0
            except IndexError:
                pass
            assert_matches(v, np.arange(10.0))


def test_complex_values_of_the_wrong_shape_raise_without_the_cast_warning(reference_backend):
    """fuzz46 (seed 710000): `A[[0]] = B` of complex B into a real A whose selection B does not
    fit: NumPy's shape ValueError comes alone; lazyarray warned ComplexWarning first (the cast's
    warning before the shape check). Where the values fit, the warning stays."""
    import warnings
    for key, values in (([0], np.ones((3, 3), complex)), (slice(None), np.ones((2, 2), complex))):
        a = la.zeros(3)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(ValueError):
                a[key] = la.asarray(values)
    with pytest.warns(np.exceptions.ComplexWarning):
        a[[0, 1]] = la.asarray(np.ones(2, complex))


def test_pending_index_errors_reach_the_try_block(reference_backend):
    """fuzz46 (eager_size=0): a pending 0-d index (`v[np.argmax(v) + 10]`), `np.add.at` by
    pending indices and take_along_axis's raised their IndexError at a later read, outside the
    user's try block (take_along_axis's named its flat gather's index, -6); np.put wrote
    nothing where NumPy writes the indices before the bad one, then raises."""
    def run(m):
        v, out = m.arange(5.0), []
        try:  # (each on the try block's own line: the innermost user frame's try counts)
            v[m.argmax(v) + 10]
        except IndexError as exc:
            out.append(str(exc))
        try:
            m.add.at(v, m.argsort(v) * 3, 1.0)
        except IndexError as exc:
            out.append(str(exc))
        try:
            m.take_along_axis(v[:, None], m.argsort(v)[:, None] * 3, axis=0)
        except IndexError as exc:
            out.append(str(exc))
        try:
            m.put(v, [1, 7, 2], [10.0, 20.0])
        except IndexError as exc:
            out.append(str(exc))
        return out, np.asarray(v)

    want = run(np)
    with la.config(eager_size=0):
        got = run(la)
    assert got[0] == want[0]
    assert_matches(got[1], want[1])


def test_a_python_float_past_complex64_raises_under_a_raise_mode(reference_backend):
    """fuzz46 (seeds 711088, 711231): `B * 1e308` of a complex64 B under errstate(over='raise'):
    NumPy raises 'overflow encountered in cast' at the line; the scalar's cast ran under NumPy's
    own modes (a RuntimeWarning), and the block raised 'invalid' of the product instead."""
    import warnings
    b = la.ones(3, dtype=la.complex64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with la.errstate(over="raise"), pytest.raises(FloatingPointError,
                                                      match="overflow encountered in cast"):
            b * 1e308


def test_an_in_place_op_computed_at_once_writes_before_its_raise(reference_backend):
    """fuzz46 (seed 721199): a small `w /= 0` under errstate(divide='raise'), computed at once:
    NumPy's in-place ufunc writes inf (or nan+nanj) into w, then raises; w kept its values."""
    for dtype in ("float64", "complex128"):
        w, caught = la.asarray(np.ones((3, 3), dtype)), None
        with la.errstate(divide="raise"):
            try:
                w /= 0
            except FloatingPointError as exc:
                caught = exc
        assert caught is not None
        want = np.ones((3, 3), dtype)
        with np.errstate(all="ignore"):
            want /= 0
        assert_matches(w, want)


def _error_text(fn, xp) -> str:
    try:
        fn(xp)
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
    return "no error"


def test_a_read_only_destination_raises_before_the_write_is_checked(reference_backend):
    """fuzz47 (seeds 900065, 900127): NumPy checks a destination's writeable flag before the
    write's index, shape or cast: `t[5] = 0` of a broadcast_to or diagonal raised IndexError,
    `np.copyto(t, longer)` the broadcast error, `t += 1j` the casting error; each writer's own
    text ('output array is read-only', 'put: ...', 'sort array is read-only', ...)."""
    import warnings

    def views(m):
        a = m.asarray(np.arange(9.0).reshape(3, 3)) * 0
        return a, m.broadcast_to(a, a.shape), a.diagonal()

    writers = [lambda m: views(m)[1].__setitem__(5, 0),
               lambda m: views(m)[2].__setitem__(m.array([True, False]), 0),
               lambda m: views(m)[2].__setitem__(0, m.ones(4)),
               lambda m: m.copyto(views(m)[1], m.ones(10)),
               lambda m: views(m)[1].__iadd__(m.ones(10)),
               lambda m: views(m)[2].__iadd__(1j),
               lambda m: views(m)[2].__itruediv__(0),  # (no warning first)
               lambda m: m.add(m.ones(4), 1, out=views(m)[1]),
               lambda m: m.sum(views(m)[0], axis=0, out=views(m)[2]),
               lambda m: m.putmask(views(m)[1], m.ones((2, 2), bool), 1),
               lambda m: m.put(views(m)[1], [100], 3),
               lambda m: m.fill_diagonal(views(m)[1], 3),
               lambda m: m.place(views(m)[1], np.ones((3, 3), bool), [1]),
               lambda m: m.add.at(views(m)[1], [0], 1),
               lambda m: views(m)[2].sort(),
               lambda m: views(m)[0].imag.__setitem__(9, 1)]
    for k, fn in enumerate(writers):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert _error_text(fn, la) == _error_text(fn, np), k


def test_an_outs_shape_counts_in_numpys_broadcast_shape(reference_backend):
    """fuzz47 (seed 900126): `np.add(B, 1, out=A)` with B (1, 1), A (5,): NumPy's message says
    the broadcast shape (1,5), of the inputs and the output; it said (1,1)."""
    def call(m):
        m.add(m.asarray(np.ones((3, 1))), 1, out=m.asarray(np.ones(5)))
    assert _error_text(call, la) == _error_text(call, np)


def test_complex_values_that_do_not_fit_a_mask_raise_without_a_warning(reference_backend):
    """fuzz47 (seed 900184): `I[I != 0] = A` of 5 complex values into 4 true elements of an
    int I: NumPy raises its shape error alone; the ComplexWarning came first."""
    import warnings

    def write(m):
        i = m.asarray(np.array([-3, -2, 1, 2]))
        i[i != 0] = m.zeros(5, dtype=m.complex64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _error_text(write, la) == _error_text(write, np)


def test_layout_requests_copy_the_views_numpy_copies(reference_backend):
    """fuzz47: `np.ascontiguousarray(A[:, j])` (also asfortranarray, asarray(order=), require) is
    NumPy's copy where the view's memory is not in that order: a later write to A left it as it
    was; here it was the view and followed the write. A view already in order is shared."""
    calls = [lambda m, a: m.ascontiguousarray(a[:, 1]), lambda m, a: m.ascontiguousarray(a[1]),
             lambda m, a: m.ascontiguousarray(a.T), lambda m, a: m.asfortranarray(a[:, 1]),
             lambda m, a: m.asfortranarray(a), lambda m, a: m.asarray(a[:, 1], order="C"),
             lambda m, a: m.asarray(a.T, order="F"), lambda m, a: m.asanyarray(a[::2], order="C"),
             lambda m, a: m.require(a[:, 1], requirements="C"),
             lambda m, a: m.require(a[1], requirements="O")]
    for k, call in enumerate(calls):
        got = []
        for m in (np, la):
            a = m.asarray(np.arange(12.0).reshape(3, 4)) * 1.0
            e = call(m, a)
            a[:] = a[::-1]
            got.append(np.array(e))
        np.testing.assert_array_equal(got[1], got[0], err_msg=str(k))


def test_unstack_sliding_windows_and_broadcast_arrays_are_views(reference_backend):
    """fuzz47: NumPy's `unstack`, `sliding_window_view` and `broadcast_arrays` are views of
    their argument: a later write to it reaches them (here they were copies; the windows of a
    computed array also took a write into its buffer at once: stale). The windows and the
    broadcast arrays are read-only here (NumPy's broadcast arrays warn and write)."""
    def run(m, eager):
        with la.config(eager_size=eager):
            a = m.asarray(np.arange(12.0).reshape(3, 4)) * 1.0
            pieces = m.unstack(a)
            elements = m.unstack(a[0])  # (of a vector: NumPy's scalars, copies)
            windows = m.lib.stride_tricks.sliding_window_view(a[0], 2)
            wide, _ = m.broadcast_arrays(a, m.ones(4))
            a += 10
            a[1, 1] = -5
            pieces[2][0] = -9  # (NumPy's unstack pieces write through)
            out = [np.array(v) for v in (a, *pieces, windows, wide, *elements)]
            out.append(_error_text(lambda _: windows.__setitem__(0, 1), m))
            return out
    want = run(np, 0)
    for eager in (4096, 0):
        got = run(la, eager)
        assert got[-1] == want[-1]
        for g, w in zip(got[:-1], want[:-1]):
            np.testing.assert_array_equal(g, w)


def test_a_python_scalar_that_does_not_fit_raises_numpys_text_alone(reference_backend):
    """fuzz47: `x[0] = nan` into an int x, `= 1j` into a float, `= 2**70` into int64: str(e) is
    NumPy's text ('cannot convert float NaN to integer'); it began 'cannot store nan in a int64
    array: '."""
    for dtype, value in (("int64", float("nan")), ("float32", 1j), ("int64", 2**70),
                         ("uint8", float("inf"))):
        for key in (0, slice(None), [0, 1]):
            def write(m, dtype=dtype, value=value, key=key):
                x = m.zeros(3, dtype=dtype)
                x[key] = value
            assert _error_text(write, la) == _error_text(write, np), (dtype, value, key)


def test_a_ufuncs_where_raises_no_flag_outside_the_mask(reference_backend):
    """fuzz47: `np.sqrt(x, out=y, where=x > 0)`, `np.divide(1, x, out=y, where=x != 0)`: NumPy
    computes nothing where the mask is False, so it warns nothing; they warned 'invalid value'
    and 'divide by zero' for the elements outside it."""
    import warnings
    x = np.array([-1.0, 0.0, 4.0, 2.0])

    def run(m):
        a, y, z = m.asarray(x), m.zeros(4), m.ones(4)
        m.sqrt(a, out=y, where=a > 0)
        m.divide(1.0, a, out=z, where=a != 0)
        return np.array(y), np.array(z)
    want = run(np)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = run(la)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_power_fast_paths_are_numpys_values_and_reports(backend, backend_does, dtype):
    """NumPy's power loop computes a scalar exponent 2, -1 or 0.5 as x * x, 1 / x and sqrt(x)
    (exactly), and its `**` operator a Python int 2 or -1 as np.square / np.reciprocal: the
    general power formula was an ulp off for ~1.4% (2.0) and ~1.7% (-1) of random values."""
    import warnings

    rng = np.random.default_rng(7)
    x = (rng.random(5000) * 100).astype(dtype)
    x[:7] = [0.0, -0.0, np.inf, -np.inf, np.nan, -3.5, 1e30 if dtype == np.float32 else 1e300]
    forms = [(lambda m, a, e=e: m.power(a, e)) for e in (2.0, -1.0, 0.5, 2, -1, np.float64(2.0))]
    forms += [(lambda m, a, e=e: a ** e) for e in (2.0, -1.0, 0.5, -1, 2)]
    compile_together(_COMPILED, ("power fast paths", backend, dtype), [
        lambda f=f: f(la, la.asarray(x)) for f in forms])
    for k, f in enumerate(forms):
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            want = f(np, x)
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            got = np.asarray(f(la, la.asarray(x)))
        assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True), k
        if backend_does("fp_errors"):
            # (`x ** 2`'s overflow named 'multiply', NumPy's operator 'square')
            assert sorted(str(w.message) for w in got_w) == sorted(
                str(w.message) for w in want_w), k
    if backend_does("fp_errors"):  # an element is NumPy's scalar: its report says 'scalar power'
        big = la.asarray(np.array([[np.finfo(dtype).max / 2, 0.0]], dtype=dtype)) * 1
        for i, exponent in ((0, 2.0), (1, -1.0)):  # overflow; divide by zero
            with pytest.warns(RuntimeWarning, match="in scalar power"):
                np.asarray(big[0, i] ** exponent)


def test_power_of_an_exponent_array_fixed_over_the_loop_takes_numpys_fast_paths(backend,
                                                                              backend_does):
    """An exponent that is a 0-d array or one broadcast element is at a fixed address in NumPy's
    power loop, which then computes 2, -1, 0.5 as x * x, 1 / x, sqrt(x) whatever its dtype:
    `(-inf) ** np.array(0.5, float32)` is NaN and `(-0.0) ** ...` -0.0 (it was C's pow: inf, +0.0;
    fuzz48)."""
    import warnings

    x = np.array([-np.inf, -0.0, 3.0, 1e-310, np.nan, -2.0] * 700)
    cases = [(x, np.array(0.5, np.float32)), (x.astype(np.float32), np.array([-1.0], np.float32))]
    for k, (a, e) in enumerate(cases):
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            want = np.power(a, e)
        with warnings.catch_warnings(record=True) as got_w, la.config(background_compiles=False):
            warnings.simplefilter("always")
            got = np.asarray(la.asarray(a) ** la.asarray(e))
        assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True), k
        assert np.array_equal(np.signbit(got) | np.isnan(got), np.signbit(want) | np.isnan(want)), k
        if backend_does("fp_errors"):
            assert {str(w.message) for w in got_w} == {str(w.message) for w in want_w}, k


def test_an_element_and_a_0d_array_of_another_dtype_report_numpys_ufunc_text(backend,
                                                                             backend_does):
    """An element (NumPy's scalar) and a 0-d *array* meet in NumPy's ufunc loop, whose text names
    'power' and 'floor_divide', also where the 0-d array is cast to the loop's dtype first: the
    report's re-run looked for the array's leaf only as a direct input (through the cast it took
    NumPy's scalar math, 'scalar power'; fuzz48)."""
    if not backend_does("fp_errors"):
        pytest.skip("no floating-point flags on this backend")
    cases = [(np.array([1e200, 2.0]), "**", np.array(2)),
             (np.array([1e-200 + 0j]), "**", np.array(2.0)),
             (np.array([0.0, 1.0]), "//", np.array(0.0, np.float32)),
             (np.array([1e300]), "*", np.array(1e30, np.float32))]
    for xv, op, e in cases:
        texts = []
        for m in (np, la):
            x = m.asarray(xv)
            with m.errstate(all="raise"), pytest.raises(FloatingPointError) as info:
                np.asarray(eval(f"x[0] {op} m.asarray(e)"))
            texts.append(str(info.value))
        assert texts[1] == texts[0], (xv, op, e)


def test_each_op_that_flags_warns_once_as_numpys_ufunc_calls(backend, backend_does):
    """NumPy warns once per ufunc call: `np.log(x) + np.log(y)` twice 'divide by zero' under a
    filter of "always" (and calls an errcall twice); the report kept each text once (fuzz48)."""
    import warnings

    if not backend_does("fp_errors"):
        pytest.skip("no floating-point flags on this backend")
    x, y = np.array([0.0, -1.0, np.inf]), np.array([0.0, 0.0, 2.0])
    forms = [lambda m, a, b: m.log(a) + m.log(b)]
    for k, f in enumerate(forms):
        got = []
        for m, a, b in ((np, x, y), (la, la.asarray(x), la.asarray(y))):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                np.asarray(f(m, a, b))
            got.append(sorted(str(w.message) for w in caught))
        assert got[1] == got[0], k


def test_a_view_made_in_a_try_block_under_raise_mode_stays_a_view(reference_backend):
    """Under a 'raise' floating-point mode a pending result made inside a try block is computed
    at its line (so NumPy's FloatingPointError reaches the handler); a view made there was
    computed too, into a copy, and its writes then failed: `r = A.imag; r.sort()` raised "this
    view cannot be written back to its base" (fuzz47's seeds 1000335, 1100100). A view raises
    nothing of its own: it stays a view, and its base's pending computation is what is checked."""
    rng = np.random.default_rng(3)
    a0 = rng.normal(size=(65, 66)) + 1j * rng.normal(size=(65, 66))
    for lib in (np, la):
        with lib.errstate(divide="raise"):
            A = lib.array(a0) * 2  # (a pending base on lazyarray's side)
            try:
                r = A.imag
                r.sort()
                s = A.real[::2]
                s[[0, 1]] = s[[1, 0]]
                bad = lib.array([1.0, 0.0])
                q = (bad / 0.0)[1:]
            except FloatingPointError as e:
                raised = str(e)
        if lib is np:
            want, want_raised = np.asarray(A).copy(), raised
    assert np.array_equal(np.asarray(A), want) and raised == want_raised


def test_a_reshape_of_a_read_only_view_adding_or_dropping_ones_is_read_only(reference_backend):
    """NumPy's reshape of an empty array, or one that only adds or drops 1s, is a view whatever
    the strides; of a chain the layout replay cannot follow (`sliding_window_view`) it was a
    writable copy, so `w[1:2, ::-1].reshape((1, 4, 1))[0, 0, 0] = 1.0` passed silently where
    NumPy raises "assignment destination is read-only" (fuzz seed 1100096)."""
    for lib in (np, la):
        A = lib.asarray(np.arange(12.0).reshape(3, 4))
        w = lib.lib.stride_tricks.sliding_window_view(A, 1, axis=0)
        for target, key in ((w[1:2, ::-1].reshape((1, 4, 1)), (0, 0, 0)),
                            (w[1:1, ::-1].reshape((0, 1, 1)), (0, 0, 0)),
                            (w[2].reshape(4), 1)):
            with pytest.raises(ValueError, match="assignment destination is read-only"):
                target[key] = 1.0


def test_a_ravel_of_a_contiguous_read_only_view_is_that_view(reference_backend):
    """`np.broadcast_to(x, (2, n))[0].ravel()` is C-contiguous memory, so NumPy's ravel is a
    read-only view of x: a write raises and x's writes show through. It was a writable copy, as
    the layout replay stopped at broadcast_to (no write-back); fuzz48."""
    got = []
    for lib in (np, la):
        x = lib.arange(6.0)
        views = [lib.broadcast_to(x, (2, 6))[1].ravel(), lib.ravel(lib.broadcast_to(x, (1, 6))),
                 lib.broadcast_to(x, (2, 6)).ravel(), lib.broadcast_to(x[::2], (2, 3))[0].ravel()]
        x[0] = 5.0
        for w in views:
            try:
                w += 1
                error = None
            except ValueError as exc:
                error = str(exc)
            got.append((np.asarray(w).tolist(), error))
    assert got[len(got) // 2:] == got[:len(got) // 2]


def test_a_flat_write_into_a_read_only_array_raises_numpys_text(reference_backend):
    """`v.flat[0] = 1` of a read-only v: NumPy's flatiter says 'underlying array is read-only'
    and `v.flat = 1` 'array is read-only' (fuzz48: 'assignment destination is read-only')."""
    for lib in (np, la):
        v = lib.broadcast_to(lib.arange(6.0), (2, 6))
        with pytest.raises(ValueError, match="^underlying array is read-only"):
            v.flat[[0, 1]] = 1.0
        with pytest.raises(ValueError, match="^array is read-only"):
            v.flat = 3.0


def test_power_of_a_one_element_exponent_array_is_numpys_loop(backend):
    """NumPy's power loop sees a 0-d exponent array, or a one-element one that broadcasts, at
    stride 0, and takes its sqrt/square/reciprocal there (`(-0.0) ** np.array(0.5)` is -0.0,
    `(-inf) ** ...` NaN). api48: only Python and NumPy scalars took that path; an Array or NumPy
    exponent gave +0.0 and inf on the C backend."""
    base = np.array([-0.0, -np.inf, 2.0, 3.0])
    cases = [(base, np.array(0.5)), (base, np.array([0.5])), (base, np.array([[0.5]])),
             (base.astype(np.float32), np.array(0.5, np.float32)),
             (base, np.array(-1.0)), (np.array([-3, 0]), np.array(0.5))]
    for k, (a, e) in enumerate(cases):
        with np.errstate(all="ignore"):
            want = a ** e
        for exponent in (e, la.asarray(e)):
            with la.errstate(all="ignore"):
                got = np.asarray(la.asarray(a) ** exponent)
            assert got.dtype == want.dtype and got.shape == want.shape, k
            assert np.array_equal(got, want, equal_nan=True), k
            assert np.array_equal(np.signbit(got), np.signbit(want)), k


def _write_outcome(lib, base, key, value):
    """What `x[key] = value` does: (the error's type and text or the values, the warnings)."""
    import warnings

    x = lib.asarray(base.copy())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            x[key] = value
            outcome = np.asarray(x).tolist()
        except Exception as exc:  # noqa: BLE001 (the type and text are compared)
            outcome = (type(exc).__name__, str(exc))
    return outcome, [str(w.message) for w in caught]


def test_written_values_are_converted_and_checked_in_numpys_order(reference_backend):
    """NumPy converts a written Python value (a complex into floats: TypeError; "2.5" parsed;
    "a" its ValueError; `[1j]` item by item) after the key's own checks and before it
    broadcasts the index arrays, and warns ComplexWarning for an array value before an index
    array's bounds only where the arrays index every dim (no slice left: its cast is set up
    first). lazyarray raised "unsupported dtype <U1" for strings, the index arrays' broadcast
    error before the value's, wrote `x[idx] = [1j]`'s real part with a warning where NumPy
    raises, and warned before the bounds error of `x[:, [9]] = np.array([1j])`."""
    A = np.array
    base = np.zeros((3, 4))
    keys = [(A([0, 1]), 5), (A([0, 1]), A([1, 2, 3])), (A([[0], [1]]), A([1, 2, 3])),
            (A([0, 9]), A([1, 2])), (slice(None), A([9])), (A([True, False, True]), A([1, 9])),
            (Ellipsis, A([7])), (A([0, 1]), slice(None)), 1, (slice(0, 2), 1)]
    values = [1j, "a", "2.5", [1, 2, 3, 4, 5], A([1j]), [1j], A(["1"]), b"3"]
    for key in keys:
        for value in values:
            assert _write_outcome(la, base, key, value) == _write_outcome(np, base, key, value), (
                key, value)
    for dtype in ("int64", "float64", "bool", "complex128"):  # a sequence into an element
        for value in ([1, 2, 3], ["1"], (1.5,), [1j], "7", " 4 ", "1.5"):
            row = np.zeros(3, dtype)
            assert _write_outcome(la, row, 1, value) == _write_outcome(np, row, 1, value), (
                dtype, value)


def test_put_into_an_empty_array_raises_numpys_error(reference_backend):
    """`np.put(r, [0], 1)` of an empty r is NumPy's "cannot replace elements of an empty array"
    whatever the mode (lazyarray: "index 0 is out of bounds", seed 1500033); an empty index
    list puts nothing (lazyarray raised the float64 `[]`'s cast TypeError)."""
    for mode in ("raise", "wrap", "clip"):
        for ind, v in (([0], 1), ([], 1), ([0], []), ([5], 1.0)):
            outcomes = []
            for lib in (np, la):
                a = lib.zeros(0)
                try:
                    lib.put(a, ind, v, mode=mode)
                    outcomes.append(np.asarray(a).tolist())
                except Exception as exc:  # noqa: BLE001 (the type and text are compared)
                    outcomes.append((type(exc).__name__, str(exc)))
            assert outcomes[0] == outcomes[1], (mode, ind, v)


def test_fill_diagonal_of_a_scalar_matches_numpy_on_every_shape(reference_backend):
    """np.fill_diagonal of a scalar writes the diagonal by index arrays (an at-once write; the
    flat view's write took ~60 us for a (20, 20) array, NumPy 0.9): the same elements as NumPy's
    flat step, NumPy's scalar assignment (NaN into ints, 1j into floats), its tall `wrap`."""
    import warnings

    for shape in [(3, 3), (2, 5), (5, 2), (3, 3, 3), (0, 0), (1, 4)]:
        for wrap in (False, True):
            for dt in ("int8", "float64", "bool", "complex128"):
                for v in (1.5, float("nan"), 300, True, 1j, np.float32(2.5), np.array(3.0),
                          [1, 2]):
                    outcomes = []
                    for lib in (np, la):
                        a = lib.asarray(np.arange(np.prod(shape)).reshape(shape).astype(dt))
                        try:
                            with warnings.catch_warnings(record=True) as caught:
                                warnings.simplefilter("always")
                                lib.fill_diagonal(a, v, wrap=wrap)
                            outcomes.append((str(np.asarray(a).ravel().tolist()),
                                             [str(w.message) for w in caught]))
                        except Exception as exc:  # noqa: BLE001 (type and text compared)
                            outcomes.append((type(exc).__name__, str(exc)))
                    assert outcomes[0] == outcomes[1], (shape, wrap, dt, v)


def test_float_power_is_pow_without_np_powers_fast_paths(backend, backend_does):
    """np.float_power is C's pow: `float_power(-inf, 0.5)` is inf and of -0.0 +0.0, where
    np.power's loop takes sqrt (it went through lazyarray's power and its fast paths: NaN and
    -0.0), and its warning names 'float_power' (fuzz48)."""
    import warnings

    x = np.array([-np.inf, -0.0, 4.0, 1e200, -2.0, np.nan] * 700)
    got = []
    for m, a in ((np, x), (la, la.asarray(x))):
        for e in (np.array(0.5), 2.0):
            with warnings.catch_warnings(record=True) as caught, la.config(
                    background_compiles=False):
                warnings.simplefilter("always")
                r = np.asarray(m.float_power(a, m.asarray(e) if isinstance(e, np.ndarray) else e))
            got.append((r.tobytes(), [str(w.message) for w in caught]
                        if backend_does("fp_errors") else []))
    assert got[2:] == got[:2]


def test_a_ufuncs_narrower_out_reports_the_cast_as_the_ufunc(reference_backend):
    """NumPy's loop casts its output into a narrower `out=` itself, so the cast's flags name the
    ufunc: 'overflow encountered in add' for `np.add(x32, np.array(3e38), out=o32)`, also under
    'raise', and 'invalid value encountered in add' into an int out (fuzz48: '... in cast')."""
    import warnings

    x = np.array([3e38, 1.0, np.nan], np.float32)
    got = []
    for m in (np, la):
        for mode, out_dtype in (("warn", np.float32), ("raise", np.float32), ("warn", np.int32)):
            o = m.zeros(3, out_dtype)
            with warnings.catch_warnings(record=True) as caught, m.errstate(all=mode):
                warnings.simplefilter("always")
                try:
                    m.add(m.asarray(x), m.asarray(np.array(3e38)), out=o, casting="unsafe")
                    np.asarray(o)
                    got.append(sorted(str(w.message) for w in caught))
                except FloatingPointError as exc:
                    got.append(str(exc))
    assert got[3:] == got[:3]


def _where_arm_forms():
    """Forms whose result reads an arm of `where` only under a mask (each builds `where`)."""
    def copyto(m, a, b, c):
        d = m.zeros(a.shape)
        m.copyto(d, a / b, where=c)
        return d

    def putmask(m, a, b, c):
        d = m.zeros(a.shape)
        m.putmask(d, c, a / b)
        return d
    return [lambda m, a, b, c: m.where(c, a / b, 2.0),
            lambda m, a, b, c: m.where(~c, a, a / b),
            lambda m, a, b, c: m.where(c, a.astype(np.float32) / b.astype(np.float32), 2.0),
            lambda m, a, b, c: m.where(c, a.astype(np.int32) // b.astype(np.int32), 2),
            lambda m, a, b, c: m.select([c], [a / b], 3.0),
            lambda m, a, b, c: m.max(a / b, where=c, initial=0.0),
            lambda m, a, b, c: m.maximum(m.nan_to_num(m.where(c, a / b, 1.0)), 0),
            # the mask compared in the kernel itself (a k-register: gcc 12 folded the bit
            # blend of these into a masked division; stop 52, gpath51's seed 2101482)
            lambda m, a, b, c: m.where(b != 0, a / b, b),
            lambda m, a, b, c: m.where(b != 0, b / b, b),
            lambda m, a, b, c: m.where(b.astype(np.int64) != 0, b / b, 1.0),
            lambda m, a, b, c: m.where(b != 0, a.astype(np.float32) / b.astype(np.float32), 0),
            lambda m, a, b, c: m.where(a < 3, a * 1e307, a),
            copyto, putmask]


@pytest.mark.lazy_only
def test_a_where_arm_reports_its_flags_in_every_lane(backend, backend_does):
    """NumPy computes `where(c, a / b, y)`'s arms whole before it selects: `a / b` warns 'divide
    by zero' where `c` is False too. gcc (AVX-512, -fno-trapping-math) folded the C kernel's
    `c ? a / b : y` into a masked division, whose masked lanes raise nothing: the warning was
    lost on the compiled path (fuzz49; runtime/c/select.py)."""
    import warnings

    if not backend_does("fp_errors"):
        pytest.skip("no floating-point flags on this backend")
    n = 40  # vector body and scalar tail; the zero in both
    a, b = np.arange(1.0, n + 1), np.ones(n)
    b[[0, n - 1]] = 0
    c = b != 0
    with la.config(background_compiles=False):
        compile_together(_COMPILED, ("where arms", backend), [
            lambda f=f: f(la, *[la.asarray(v) for v in (a, b, c)]) for f in _where_arm_forms()])
    for k, f in enumerate(_where_arm_forms()):
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            want = f(np, a, b, c)
        for _ in range(2):  # built, then the compiled hit path
            args = [la.asarray(v) for v in (a, b, c)]
            with warnings.catch_warnings(record=True) as got_w, \
                    la.config(background_compiles=False):
                warnings.simplefilter("always")
                got = np.asarray(f(la, *args))
            assert got.dtype == want.dtype and np.array_equal(got, want), k
            assert sorted(str(w.message) for w in got_w) == sorted(
                str(w.message) for w in want_w), k


def test_ldexp_rounds_once_and_reports_as_numpys(backend, backend_does):
    """numpy.ldexp is one scaling, rounded once, and warns 'overflow encountered in ldexp' once:
    a product of two power-of-two factors rounded twice into the subnormals (11 * 2**-1074
    scaled by 2**-3: 1e-323, NumPy 5e-324), made inf of a factor 2**1046 (`ldexp(4e-323,
    2092)` is 2.2e307) and warned 'multiply' (fuzz49)."""
    import warnings

    x = np.array([11 * 2.0**-1074, 3.95252517e-323, 1e300, -0.0, np.inf, np.nan, 1.5, 3e-320])
    n = np.array([-3, 2092, 100, 5, -7, 2, -1080, 2100])
    cases = [(x, n), (x.astype(np.float32), n.astype(np.int32)), (x, np.int16(9))]
    for k, (a, e) in enumerate(cases):
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            want = np.ldexp(a, e)
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            got = np.asarray(la.ldexp(la.asarray(a), la.asarray(e)))
        assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True), k
        assert np.array_equal(np.signbit(got), np.signbit(want)), k
        if backend_does("fp_errors"):
            assert sorted(str(w.message) for w in got_w) == sorted(
                str(w.message) for w in want_w), k


def test_a_ravel_of_sliding_windows_that_do_not_overlap_is_a_read_only_view(reference_backend):
    """Windows of 1 or of a whole axis do not overlap, so NumPy's `sliding_window_view(x,
    1).ravel()` is C-contiguous: a read-only view of x, which x's later writes reach. It was a
    writable copy (the windows were a gather, no layout to ravel in place; fuzz49)."""
    got = []
    for lib in (np, la):
        swv = lib.lib.stride_tricks.sliding_window_view
        x = lib.asarray(np.arange(6.0).reshape(2, 3))
        views = [swv(x, (1, 3)).ravel(), swv(x, 1, axis=0).ravel(), swv(x, 3, axis=1).ravel(),
                 swv(x, (2, 1)).reshape(-1), swv(x, (1, 2)).ravel(), swv(x, 2, axis=1).flatten()]
        x[0, 0] = 50.0
        for w in views:
            try:
                w[0] = -1.0
                error = None
            except ValueError as exc:
                error = str(exc)
            got.append((w.shape, np.asarray(w).tolist(), error))
    assert got[len(got) // 2:] == got[:len(got) // 2]


def test_max_and_min_into_an_out_of_another_dtype_start_from_its_cast(reference_backend):
    """NumPy's max/min into `out` start each slice from its first element copied into `out`
    (cast to out's dtype), then reduce in the loop of both dtypes: `np.max(int16 [-1, 5],
    out=uint8)` is 255 and `np.min(uint64 [2**64 - 1, 0], out=int8)` -1 (fuzz49, at-once seed
    1700513: lazyarray reduced in x's dtype and then cast, 5 and 0)."""
    import warnings

    cases = [("max", np.array([-1, 5], np.int16), np.uint8),
             ("min", np.array([2**64 - 1, 0, 3], np.uint64), np.int8),
             ("max", np.array([[300, -2], [7, 1]], np.int16), np.int8),
             ("min", np.array([[300, -2], [7, 1]], np.int32), np.uint8),
             ("max", np.array([200, 5], np.uint8), np.int16)]
    for name, x, odt in cases:
        for axis in (None, 0, -1):
            got = []
            for m in (np, la):
                out = m.zeros(np.max(x, axis=axis).shape, dtype=odt)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    getattr(m, name)(m.asarray(x), axis=axis, out=out)
                got.append(np.asarray(out).tolist())
            assert got[1] == got[0], (name, x.dtype, odt, axis)


def test_an_accumulate_orders_complex_numbers_as_its_ufunc(reference_backend):
    """`maximum.accumulate` of complex numbers as `maximum`, `maximum.reduce` and `.outer`:
    NumPy's lexicographic order since stop 56 (they were all refused, and before fuzz_numpy's
    seed 1700175 the one-call accumulate computed while the others raised). Real inputs are
    NumPy's values."""
    zn = np.array([1 + 2j, 3 - 1j, 2 + 0j, 3 - 2j], np.complex64)
    z = la.asarray(zn)
    for method in (lambda u: u.accumulate(u_arg(u)), lambda u: u.reduce(u_arg(u)),
                   lambda u: u(u_arg(u), u_arg(u)[::-1]), lambda u: u.outer(u_arg(u), u_arg(u))):
        for name in ("maximum", "minimum"):
            u_arg = lambda u: z if u is getattr(la, name) else zn  # noqa: E731
            assert_matches(method(getattr(la, name)), method(getattr(np, name)))
    x = np.array([[1.0, -3.0, 2.0], [0.5, 4.0, -1.0]])
    for name in ("maximum", "minimum", "subtract", "fmax"):
        for axis in (0, 1):
            assert_matches(getattr(la, name).accumulate(la.asarray(x), axis=axis),
                           getattr(np, name).accumulate(x, axis=axis))


def test_copyto_of_a_destinations_own_memory_writes_nothing(reference_backend):
    """NumPy's copyto returns at once when src is dst's memory, strides and dtype, before it
    checks that dst is writable: `np.copyto(np.broadcast_to(x, x.shape), x)` passes, where
    lazyarray raised 'assignment destination is read-only' (fuzz49, at-once seeds 1700055,
    1700667). Any other src still raises."""
    got = []
    for lib in (np, la):
        x = lib.asarray(np.arange(6.0).reshape(2, 3))
        pairs = [(lib.broadcast_to(x, x.shape), x), (lib.broadcast_to(x, (2, 2, 3))[1], x),
                 (lib.broadcast_to(x, x.shape).T, x.T), (lib.broadcast_to(x[0], (3,)), x[0]),
                 (lib.broadcast_to(x, x.shape), x + 0), (lib.broadcast_to(x[1], (3,)), x[0]),
                 (lib.broadcast_to(x, x.shape), x[::-1]),
                 (lib.broadcast_to(x, x.shape), x.astype(np.float32))]
        for dst, src in pairs:
            try:
                lib.copyto(dst, src)
                got.append(None)
            except ValueError as exc:
                got.append(str(exc))
    assert got[len(got) // 2:] == got[:len(got) // 2]


def test_ufunc_at_writes_through_a_read_only_view_where_numpy_does(reference_backend):
    """NumPy's ufunc.at checks the writeable flag only in the iterator over its subspace (what
    the index leaves after its fancy parts), and there is none of one element: `np.add.at(v,
    [0, 0], 1)` with `v` a sliding window's ravel (read-only) writes through to the base; with
    `v[1:3]`'s two-element subspace, or a 2-D window's `[0]`, it raises. lazyarray raised for
    every read-only view (fuzz50, at-once seed 1900026)."""
    cases = [(lambda lib, b: lib.lib.stride_tricks.sliding_window_view(b, 1, axis=0).ravel(),
              idx) for idx in ([0, 0], 0, slice(1, 2), slice(1, 3), ([0, 1], [0, 0]), [1])]
    cases += [(lambda lib, b: lib.lib.stride_tricks.sliding_window_view(b, 1, axis=0), idx)
              for idx in ([0, 0], slice(1, 3), ([0, 1], [0, 0]))]
    cases += [(lambda lib, b: lib.lib.stride_tricks.sliding_window_view(b, 2, axis=0), idx)
              for idx in ([0, 0], 0)]
    # a broadcast's row (each element one of the base's) and the whole broadcast (aliased):
    # NumPy's at writes through both, an aliased element once per occurrence (seed 1900799)
    cases += [(lambda lib, b: lib.broadcast_to(b, (2, 6))[1].ravel(), [0, 0]),
              (lambda lib, b: lib.broadcast_to(b, (2, 6)), ([0, 1], [0, 0])),
              (lambda lib, b: lib.broadcast_to(b, (2, 6)), [0, 1])]
    got = []
    for lib in (np, la):
        for make, idx in cases:
            base = lib.asarray(np.arange(6.0))
            view = make(lib, base)
            try:
                lib.add.at(view, idx, 1)
                got.append((np.asarray(base).tolist(), np.asarray(view).tolist()))
            except (ValueError, IndexError) as exc:
                got.append((type(exc), str(exc)))
    assert got[len(got) // 2:] == got[:len(got) // 2]


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_copyto_into_the_imag_of_a_real_array_raises_as_numpy(reference_backend, eager_size):
    """`A.imag` of a real A is new read-only zeros in NumPy, not A's memory: `np.copyto(A.imag,
    A)` raises 'assignment destination is read-only'; lazyarray took it for A's own memory
    (fuzz49's shortcut for a copy onto itself) and passed (fuzz50, at-once seed 1900524)."""
    x = np.repeat(np.array([-np.inf, 1.5, np.inf], np.float16), 2)[::2]
    with la.config(eager_size=eager_size):
        for lib in (np, la):
            a = lib.asarray(x) if lib is np else la.eval(la.asarray(x) + 0)
            with pytest.raises(ValueError, match="assignment destination is read-only"):
                lib.copyto(a.imag, a)
        a = la.asarray(x)
        la.copyto(a[::-1][::-1], a)  # a view of its own memory: nothing to write, as NumPy


_CLIP_CALLS = [((3,), {}), ((None,), {}), ((3, None), {}), ((), {"min": 3}), ((), {"max": 3}),
               ((3,), {"a_max": 5}), ((), {"a_min": 3}), ((3,), {"max": 5}),
               ((), {"a_min": 3, "min": 2}), ((), {"a_min": 3, "a_max": 5, "min": 2}),
               ((), {"a_max": 5}), ((), {"a_min": None, "a_max": 5}), ((2, 5), {"max": 3})]


def _clip_outcome(call):
    try:
        return np.asarray(call()).tolist()
    except (TypeError, ValueError) as exc:
        return type(exc), str(exc)


@pytest.mark.parametrize("args, kwargs", _CLIP_CALLS)
def test_clip_bounds_as_numpy(args, kwargs):
    """np.clip's positional bounds are `a_min` and `a_max`, both wanted: `np.clip(x, 3)` is
    NumPy's TypeError, and `min`/`max` with `a_min`/`a_max` its ValueError. np.clip(Array)
    gave a clipped Array (the protocol renamed a_min to min; fuzz50). `la.clip(x, 3)` is the
    standard's one-bound call (docs/semantics.md), NumPy's keywords keep NumPy's rules."""
    x = np.array([1, 5, 2, 8])
    want = _clip_outcome(lambda: np.clip(x, *args, **kwargs))
    assert _clip_outcome(lambda: np.clip(la.asarray(x), *args, **kwargs)) == want
    if "a_min" in kwargs or "a_max" in kwargs:
        assert _clip_outcome(lambda: la.clip(la.asarray(x), *args, **kwargs)) == want


CAST_SOURCES, CAST_TARGETS = ["float64", "complex128", "complex64"], ["int8", "uint8", "int16",
                                                                       "uint16"]


@pytest.mark.xdist_group("test_casts_of_inf_nan_and_large_values_into_small_ints_are_numpys")
@pytest.mark.parametrize("src", CAST_SOURCES)
@pytest.mark.parametrize("dst", CAST_TARGETS)
def test_casts_of_inf_nan_and_large_values_into_small_ints_are_numpys(backend, src, dst):
    """Into 8- and 16-bit integers NumPy's cast goes through int32 (docs/semantics.md): -1.49
    into uint16 is 65535, and NaN, +-inf or a value beyond int32 is 0 -- complex -inf into int8
    too (stop 49's note said NumPy gave -128: that was tests/fuzz_numpy.py's oracle, which
    saturated; NumPy gives 0 on this machine, as lazyarray; fuzz50 seed 1900015)."""
    values = [-1.49, -0.5, 1.5, -200.7, 300.2, 70000.5, -70000.5, 3e9, -3e9, 1e30, np.inf,
              -np.inf, np.nan]
    compile_together(_COMPILED, ("casts", backend), [
        lambda s=s, d=d: la.asarray(np.array(values, s)).astype(d)
        for s in CAST_SOURCES for d in CAST_TARGETS])
    x = np.array(values, src)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = x.astype(dst)
        got = np.asarray(la.asarray(x).astype(dst))
    np.testing.assert_array_equal(got, want)


_AT_SCALARS = [("uint64", 1), ("uint64", 1.0), ("uint64", -1), ("int8", 300), ("uint8", -1),
               ("int32", 2**40), ("uint16", 2**64), ("float32", 0.1), ("float32", 1e300),
               ("float16", 1e10), ("int64", 1.5), ("int8", True), ("complex64", 1j)]


@pytest.mark.parametrize("dtype, value", _AT_SCALARS)
def test_ufunc_at_takes_a_python_scalar_as_numpy_converts_it(reference_backend, dtype, value):
    """NumPy's ufunc.at converts a Python scalar as np.asarray (int64, float64): no NEP 50 weak
    rule, so `np.add.at(uint64, [0, 0], 1)` computes in float64 (2**63 + 1 stays 2**63) and
    `np.add.at(int8, i, 300)` wraps; lazyarray took the scalar as weak (its uint64 sum, an
    OverflowError; fuzz50, at-once seed 1900669). The float64 result's cast back warns
    'overflow encountered in at', as NumPy's."""
    got = []
    for lib in (np, la):
        a = np.array([2**63 + 1 if dtype == "uint64" else 100], dtype)
        a = lib.asarray(a) if lib is la else a
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                lib.add.at(a, [0, 0], value)
                got.append((np.asarray(a).tolist(), np.asarray(a).dtype))
            except OverflowError as exc:
                got.append(str(exc))
        got.append(sorted({str(w.message) for w in caught}))
    assert got[2:] == got[:2]


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_ufunc_at_in_place_reports_its_overflow(backend, eager_size):
    """`np.add.at(a, [0], 1e308)` of a = [1e308] warns 'overflow encountered in add'. Written in
    place into a's buffer (lazyarray/eager.py), the report's re-run read the written inf and
    confirmed nothing: no warning (fuzz50). The report now replays NumPy's scatter on the
    touched elements' old values."""
    cases = [("add", [1e308, 1.0], 1e308), ("multiply", [1e308, 2.0], 10.0),
             ("add", [1e308, 1.0], np.array([1e308])), ("add", [1.0, 2.0], 1.0)]
    with la.config(eager_size=eager_size):
        for name, values, operand in cases:
            got = []
            for lib in (np, la):
                a = np.array(values) if lib is np else la.asarray(np.array(values))
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    getattr(lib, name).at(a, [0], operand)
                    got.append(np.asarray(a).tolist())
                got.append([str(w.message) for w in caught])
            assert got[2:] == got[:2], name


@pytest.mark.lazy_only
def test_jit_sort_and_partition_are_numpys_own(backend):
    """fuzz51 (seed 2100024): inside `la.jit`, np.partition and np.sort were a gather of
    argpartition's/argsort's indices (la.grad's differentiable stand-in), whose values are not
    NumPy's: partition orders its parts otherwise than argpartition (int16, float16), and sort
    places -0.0 and 0.0 otherwise than a gather of argsort's order. Compared bit for bit."""
    part = np.array([3, 1, 2, 1, 3, 0, 2, 1, 3, 2, 0, 1, 2, 3, 1, 0, 2, 2, 1], np.int16)
    zeros = np.array([0.0, -0.0, -3.0, 0.5, -0.0, 0.0, 0.0, -1.0, -0.0, 0.0, 1.0, -0.0, 0.0,
                      0.0, -0.0, 2.0, 0.0, -0.0])
    for fn, x in ((lambda m, v: m.partition(v, 5), part), (lambda m, v: m.sort(v), zeros),
                  (lambda m, v: m.sort(v[None], axis=-1), zeros)):
        want = fn(np, x)
        got = np.asarray(la.jit(lambda v: fn(la, v))(la.asarray(x)))
        assert got.dtype == want.dtype
        assert got.tobytes() == want.tobytes(), (got, want)


NAN_ROWS = np.array([[np.nan] * 3, [1.1, np.nan, 2.3], [np.nan] * 3], np.float32)
NAN_SLICES = ((NAN_ROWS, 1), (NAN_ROWS[1:], 1), (NAN_ROWS[::2], 1), (NAN_ROWS[::2], None),
              (NAN_ROWS.T, 0), (NAN_ROWS[None], (0, 2)), (NAN_ROWS[0], 0))
NAN_QUANTILES = [("nanquantile", [0.1, 0.9]), ("nanpercentile", [10, 90]), ("nanpercentile", 50),
                 ("nanquantile", np.array(0.25))]


@pytest.mark.xdist_group("test_nanquantile_dtype_follows_numpys_first_slice")
@pytest.mark.lazy_only
@pytest.mark.parametrize("fn, q", NAN_QUANTILES)
def test_nanquantile_dtype_follows_numpys_first_slice(backend, fn, q):
    """fuzz51 seed 2100630: NumPy's nanquantile of float32 with an array q is float64, except
    that it computes slice by slice and the first slice sets the dtype: an all-NaN first slice
    (or an all-NaN `a`, axis=None) makes the result float32, the other slices rounded to it.
    lazyarray was float64 throughout. (Every case's C kernels in one unit, tests/together.py.)"""
    compile_together(_COMPILED, ("nanquantile", backend), [
        lambda f=f, q=q, a=a, axis=axis: getattr(la, f)(la.asarray(a), q, axis=axis)
        for f, q in NAN_QUANTILES for a, axis in NAN_SLICES])
    for a, axis in NAN_SLICES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = getattr(np, fn)(a, q, axis=axis)
            got = getattr(la, fn)(la.asarray(a), q, axis=axis)
        assert_as_numpy(got, want)


@pytest.mark.lazy_only
@pytest.mark.parametrize("kwargs", [{"axis": 1, "initial": 5.1},
                                    {"axis": (0, 1), "initial": 1.7, "keepdims": True}])
def test_a_column_sum_computed_in_the_kernel_adds_rows_in_order(backend, kwargs):
    """The lead's eager_size=0 run (test_initial_starts_the_fold_as_numpys[numpy-sum]): NumPy
    adds a column sum's rows one after another; the numpy backend summed them pairwise where its
    kernel had computed the summed value (here `initial` folded into the first row by a where)
    in its own space, rows contiguous: last bits off."""
    x = np.random.default_rng(7).standard_normal((6, 40, 3)) * 100
    want = np.sum(x, **kwargs)
    assert_as_numpy(la.sum(la.asarray(x), **kwargs), want, scale=np.sum(np.abs(x), **kwargs))


@pytest.mark.lazy_only
@pytest.mark.parametrize("name", ["max", "min"])
def test_max_of_an_empty_array_with_initial_is_numpys_scalar(backend, name):
    """fuzz51 at-once seed 2101386: `r = np.max(empty, initial=5)` is NumPy's scalar, so
    `r += c` rebinds r (to c's dtype and shape) and `u = r` keeps 5; lazyarray's 0-d result was a
    view of its broadcast initial: the in-place add raised UFuncTypeError (complex into int8)."""
    c = np.ones((2, 0), np.int8)
    results = []
    for m in (np, la):
        r = getattr(m, name)(m.asarray(c), axis=None, initial=5)
        u = r
        r += np.ones((2, 0), complex)
        results.append((np.asarray(r), np.asarray(u)))
    for got, want in zip(results[1], results[0]):
        assert got.dtype == want.dtype and got.shape == want.shape and got.tolist() == want.tolist()
