"""Issue 26's Array API table, row by row: what the conformance suite (data-apis/array-api-tests,
API 2024.12) saw fail, reproduced directly and checked against NumPy, array-api-strict (the
standard's transcription, a test-only oracle) or the standard's own special-value table, on every
backend."""

from __future__ import annotations

import ctypes
import math
import subprocess

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lazyarray as la
from lazyarray.runtime import available_backends
from lazyarray.runtime.c import prelude as c_prelude
from numpy_oracle import assert_as_numpy

xp = pytest.importorskip("array_api_strict")
xp.set_array_api_strict_flags(api_version="2024.12")

NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float32", "float64", "complex64", "complex128")


# --- dtype objects, result_type, can_cast
class _EqualityMapping:
    """The suite's lookup (array_api_tests/dtype_helpers.py): a linear scan with ==, no hashing."""

    def __init__(self, pairs):
        self.pairs = pairs

    def get(self, key, default=None):
        for k, v in self.pairs:
            if key == k:
                return v
        return default


def _standard_table():
    """(la dtype, la dtype) -> la dtype where the standard defines a result (the oracle's table)."""
    pairs = []
    for a in NAMES:
        for b in NAMES:
            try:
                want = xp.result_type(getattr(xp, a), getattr(xp, b))
            except TypeError:  # mixed kinds: the standard defines no result
                continue
            pairs.append(((getattr(la, a), getattr(la, b)), getattr(la, want._np_dtype.name)))
    return _EqualityMapping(pairs)


def test_dtype_objects_equal_dtypes_only():
    """`None == la.float64` was True (la's dtypes were np.dtype instances, whose == converts its
    other operand: np.dtype(None) is float64): a missing table entry then matched float64."""
    for name in NAMES:
        dt = getattr(la, name)
        assert dt is getattr(np, name)  # NumPy's scalar types, as in NumPy's own namespace
        assert not (dt == None) and not (None == dt) and dt != None  # noqa: E711
        assert la.ones(2, dtype=dt).dtype == dt and np.dtype(name) == dt
        assert not (dt == name)  # np.dtype(name) == name is True; NumPy's scalar type is not
        assert la.__array_namespace_info__().dtypes()[name] == dt  # NumPy's dtype, as NumPy's info
        assert la.ones(1, dtype=dt).dtype.type is dt  # a dict keyed by la.float64: x.dtype.type
    assert sum(getattr(la, a) == getattr(la, b) for a in NAMES for b in NAMES) == len(NAMES)


def test_can_cast_as_the_suite_derives_it():
    """The suite: can_cast(from, to) must be True when some other dtype promotes with `from` to
    `to` in the standard's table, looked up with == (complex64 -> float64 failed here)."""
    table = _standard_table()
    for a in NAMES:
        for b in NAMES:
            frm, to = getattr(la, a), getattr(la, b)
            if any(table.get((frm, getattr(la, o))) == to for o in NAMES):
                assert la.can_cast(frm, to), (a, b)
    assert not la.can_cast(la.complex64, la.float64)


def test_result_type_and_can_cast_every_pair():
    """The standard's table where it defines a result (array-api-strict), NumPy's (NEP 50) where
    it leaves mixed kinds open; can_cast is NumPy's casting='safe' for every pair, which includes
    every cast the standard allows."""
    for a in NAMES:
        for b in NAMES:
            got = la.result_type(getattr(la, a), getattr(la, b))
            assert got == np.result_type(np.dtype(a), np.dtype(b)), (a, b)
            try:
                assert got == xp.result_type(getattr(xp, a), getattr(xp, b))._np_dtype, (a, b)
            except TypeError:
                pass
            arrays = la.result_type(la.ones(1, dtype=getattr(la, a)), np.dtype(b))
            assert arrays == got
            cast = la.can_cast(getattr(la, a), getattr(la, b))
            assert type(cast) is bool and cast == np.can_cast(a, b, casting="safe"), (a, b)
            if xp.can_cast(getattr(xp, a), getattr(xp, b)):
                assert cast, (a, b)


# --- meshgrid / broadcast_arrays
def test_meshgrid_and_broadcast_arrays_return_numpys_tuples(backend):
    """NumPy 2's containers (the standard's from 2025.12): the 2024.12 list was a difference
    from NumPy in every program that did `grids = np.meshgrid(...)` with lazyarray as np (fuzz49)."""
    a, b = la.arange(3), la.arange(2.0)
    for ours, theirs in ((la.meshgrid(a, b), np.meshgrid(np.arange(3), np.arange(2.0))),
                         (la.meshgrid(a, b, indexing="ij"),
                          np.meshgrid(np.arange(3), np.arange(2.0), indexing="ij")),
                         (la.broadcast_arrays(a, b[:1]),
                          np.broadcast_arrays(np.arange(3), np.arange(1.0)))):
        assert type(ours) is type(theirs) is tuple and len(ours) == len(theirs)
        for got, want in zip(ours, theirs):
            np.testing.assert_array_equal(np.asarray(got), want)
            assert got.dtype == want.dtype
    # NumPy's own functions on Arrays (NEP 18) keep NumPy's tuple, with lazy Arrays inside
    for got in (np.meshgrid(a, b), np.meshgrid(a, b, indexing="ij"), np.broadcast_arrays(a, b[:1])):
        assert type(got) is tuple and all(isinstance(g, la.Array) for g in got)
    assert la.meshgrid() == np.meshgrid() == () and type(la.broadcast_arrays(a)) is tuple
    assert type(la.meshgrid(a, b, sparse=True)) is type(np.meshgrid(np.arange(3), sparse=True))
    assert repr(la.meshgrid(a[:2], sparse=True)) == repr(np.meshgrid(np.arange(2), sparse=True))


# --- linalg
def _stack(shape, seed, scale=1.0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * scale
    if x.shape[-1] > 1 and x.ndim >= 2:
        x[..., -1] = x[..., 0]  # rank-deficient matrices, so the cut-off matters
    return x.astype(dtype)


def test_matrix_rank_stacks_huge_values_and_array_rtol(backend):
    x = _stack((2, 3, 4, 5), 1, scale=1e300)
    np.testing.assert_array_equal(np.asarray(la.linalg.matrix_rank(la.asarray(x))),
                                  np.linalg.matrix_rank(x))
    for rtol in (np.full((2, 3), 0.3), np.linspace(0, 0.9, 3), np.float32(0.2), 0.5):
        got = la.linalg.matrix_rank(la.asarray(x), rtol=la.asarray(rtol)
                                    if isinstance(rtol, np.ndarray) else rtol)
        want = np.linalg.matrix_rank(x, rtol=rtol)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)


def test_pinv_array_rtol_broadcasts_against_the_stack(backend):
    x = _stack((2, 3, 4, 5), 2)
    for dtype in (np.float32, np.float64, np.complex128):
        xs = (x + 1j * x[..., ::-1, :]).astype(dtype) if dtype is np.complex128 else x.astype(dtype)
        for rtol in (np.full((2, 3), 0.3), np.array([0.0, 0.5, 0.9]), np.full((2, 1), 1e-3)):
            got = la.linalg.pinv(la.asarray(xs), rtol=la.asarray(rtol))
            want = np.linalg.pinv(xs, rtol=rtol)
            assert got.shape == want.shape and got.dtype == want.dtype, (dtype, rtol.shape)
            tol = 1e-4 if dtype is np.float32 else 1e-10
            np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol)
    empty = la.linalg.pinv(la.zeros((2, 0, 3)), rtol=la.asarray([0.1, 0.2]))
    assert empty.shape == np.linalg.pinv(np.zeros((2, 0, 3)), rtol=np.array([0.1, 0.2])).shape
    with pytest.raises(ValueError, match="does not broadcast"):  # NumPy: ValueError too
        la.linalg.pinv(la.asarray(x[0, 0]), rtol=la.asarray(np.full((2, 3), 0.1)))
    with pytest.raises(TypeError, match="real"):
        la.linalg.pinv(la.asarray(x), rtol=la.asarray(np.full((2, 3), 0.1j)))


_SVD_SHAPES = st.lists(st.integers(0, 3), min_size=0, max_size=2).flatmap(
    lambda batch: st.tuples(st.integers(0, 4), st.integers(0, 4)).map(lambda mn: (*batch, *mn)))


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=_SVD_SHAPES, full=st.booleans(), seed=st.integers(0, 2**16),
       scale=st.sampled_from([1.0, 1e-300, 1e300]))
def test_svd_stacked_and_empty_shapes(backend, shape, full, seed, scale):
    x = _stack(shape, seed, scale)
    want = np.linalg.svd(x, full_matrices=full)
    got = la.linalg.svd(la.asarray(x), full_matrices=full)
    assert type(got).__name__ == "SVDResult"
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
    s = got.S
    # the same LAPACK call (cuSOLVER's on a GPU, where the rank-deficient matrices' zero singular
    # value is rounding noise of the largest one's size: 2.6e-17 against NumPy's 8.7e-17)
    largest = np.max(want.S, axis=-1, keepdims=True, initial=0.0)
    assert_as_numpy(s, want.S, scale=largest)
    if s.shape[-1] >= 1:
        assert bool(la.all(s[..., :-1] >= s[..., 1:]))  # the suite's check, computed by lazyarray
    assert_as_numpy(la.linalg.svdvals(la.asarray(x)), np.linalg.svd(x, compute_uv=False),
                    scale=largest)


@pytest.mark.parametrize("shape", [(0, 2, 3), (1, 0, 2, 2), (2, 0, 3), (3, 0)])
def test_svd_and_qr_empty_stacks(backend, shape):
    """graph/ops_linalg.py packed results with reshape(batch + (-1,)): no -1 beside a 0 batch."""
    x = np.ones(shape)
    for ours, theirs in ((la.linalg.svd(la.asarray(x)), np.linalg.svd(x)),
                         (la.linalg.qr(la.asarray(x)), np.linalg.qr(x))):
        for g, w in zip(ours, theirs):
            assert np.asarray(g).shape == w.shape


# --- complex expm1: the standard's special values
_INF, _NAN = math.inf, math.nan
# (a, b) -> expm1(a + bj) from the standard's table (2024.12); "0", "inf": a part whose sign it
# leaves open
_EXPM1 = [((0.0, 0.0), (0.0, 0.0)), ((1.5, _INF), (_NAN, _NAN)), ((-2.0, _INF), (_NAN, _NAN)),
          ((1.5, _NAN), (_NAN, _NAN)), ((_INF, 0.0), (_INF, 0.0)), ((-_INF, 0.0), (-1.0, 0.0)),
          ((-_INF, _INF), (-1.0, "0")), ((_INF, _INF), ("inf", _NAN)),
          ((-_INF, _NAN), (-1.0, "0")), ((_INF, _NAN), ("inf", _NAN)),
          ((_NAN, 0.0), (_NAN, 0.0)), ((_NAN, 2.0), (_NAN, _NAN)), ((_NAN, _NAN), (_NAN, _NAN)),
          ((_INF, -0.0), (_INF, -0.0)), ((_NAN, -0.0), (_NAN, -0.0))]  # conj symmetry


def _check_expm1(got: np.ndarray, where: str) -> None:
    for value, (_, want) in zip(got, _EXPM1):
        for part, w in ((value.real, want[0]), (value.imag, want[1])):
            if isinstance(w, str):
                assert abs(part) == float(w), (where, value, want)
            elif math.isnan(w):
                assert math.isnan(part), (where, value, want)
            else:
                assert part == w and math.copysign(1, part) == math.copysign(1, w), \
                    (where, value, want)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_expm1_special_values(backend, dtype):
    z = np.array([complex(*a) for a, _ in _EXPM1], dtype)
    _check_expm1(np.asarray(la.expm1(la.asarray(z))), f"{backend} {dtype}")
    # off the table, NumPy's values (its own formula)
    rest = np.array([0.5 + 0.25j, -3 + 2j, 1e-9 - 1e-9j, 20 + 3j, -np.inf + 2j, np.inf + 2j], dtype)
    np.testing.assert_allclose(np.asarray(la.expm1(la.asarray(rest))), np.expm1(rest),
                               rtol=8 * np.finfo(dtype).eps)


@pytest.mark.skipif("c" not in available_backends(), reason="no C compiler")
def test_complex_expm1_special_values_in_the_cuda_text(tmp_path):
    """The CUDA dialect's `la_expmone_*` (formulas=True, the text NVRTC gets) compiled as C."""
    from lazyarray.runtime.c.compiler import find_compiler

    source = [c_prelude.complex_definitions(["expmone_c64", "expmone_c128"], "static inline",
                                    formulas=True)]
    for s in ("c64", "c128"):
        source.append(f"void run_{s}(const la_{s} *x, la_{s} *y, long n) "
                      f"{{ for (long i = 0; i < n; i++) y[i] = la_expmone_{s}(x[i]); }}")
    (tmp_path / "f.c").write_text("#include <math.h>\n" + "\n".join(source) + "\n")
    subprocess.run([*find_compiler(), "-O2", "-std=gnu11", "-fPIC", "-shared",
                    "-ffp-contract=off", str(tmp_path / "f.c"), "-o", str(tmp_path / "f.so"),
                    "-lm"], check=True)
    lib = ctypes.CDLL(str(tmp_path / "f.so"))
    for s, dtype in (("c64", np.complex64), ("c128", np.complex128)):
        z = np.array([complex(*a) for a, _ in _EXPM1], dtype)
        y = np.empty_like(z)
        getattr(lib, f"run_{s}")(z.ctypes.data_as(ctypes.c_void_p),
                                 y.ctypes.data_as(ctypes.c_void_p), ctypes.c_long(z.size))
        _check_expm1(y, f"cuda text {s}")


# --- floor_divide with infinities: NumPy's values (a deliberate deviation from the standard) ------
def test_floor_divide_with_infinities_keeps_numpy_values(backend):
    v = np.array([np.inf, -np.inf, 3.5, -3.5, 0.0, -0.0, np.nan, 1e308])
    a, b = np.meshgrid(v, v)
    with np.errstate(all="ignore"):
        want = np.floor_divide(a, b)
        fwant = a // b
    for got in (la.floor_divide(la.asarray(a), la.asarray(b)), la.asarray(a) // la.asarray(b)):
        got = np.asarray(got)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    np.testing.assert_array_equal(want, fwant)


# --- x == None, round of integers with negative decimals (the gaps issue 26 lists)
def test_comparison_with_none_is_elementwise_as_numpy(backend):
    for x in (np.arange(3.0), np.zeros((2, 0), np.int8), np.array(True), np.ones((2, 3), "c8")):
        a = la.asarray(x)
        for got, want in ((a == None, x == None), (a != None, x != None),  # noqa: E711
                          (None == a, None == x), (None != a, None != x)):  # noqa: E711
            assert isinstance(got, la.Array) and got.shape == np.shape(want)
            assert got.dtype == np.asarray(want).dtype
            np.testing.assert_array_equal(np.asarray(got), want)


_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), decimals=st.integers(-20, 2))
def test_round_integers_with_negative_decimals_is_numpys(backend, data, decimals):
    """NumPy divides by 10**-decimals in float64, rounds half to even and casts back: every
    integer dtype, values whose rounded result fits the dtype (beyond it NumPy's cast is the
    platform's; lazyarray's saturates, as astype: docs/semantics.md)."""
    name = data.draw(st.sampled_from(_INTS))
    info = np.iinfo(name)
    drawn = data.draw(st.lists(st.integers(int(info.min), int(info.max)), min_size=1, max_size=6))
    extra = [0, 5, 15, 25, 35, 45, 50, 150, 250] + ([-15, -25, -35] if info.min else [])
    x = np.concatenate([np.array(drawn, name), np.array(extra, np.int64).astype(name)])
    with np.errstate(all="ignore"):
        rounded = np.round(x.astype(np.float64), decimals)  # NumPy's float64 step
    x = x[(rounded >= float(info.min)) & (rounded <= float(info.max)) & (rounded < 2.0**63)]
    want = np.round(x, decimals)
    got = la.round(la.asarray(x), decimals)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)


def test_round_issue_example_every_int_dtype(backend):
    for name in _INTS:
        x = np.array([15, 25, -35] if name[0] == "i" else [15, 25, 35], name)
        for d in (-1, -2):
            np.testing.assert_array_equal(np.asarray(la.round(la.asarray(x), d)), np.round(x, d))


def test_complex_expm1_cuda_kernel_compiles_under_nvrtc():
    """The same text as a whole CUDA kernel, as the cupy backend would launch it (no GPU here)."""
    from lazyarray.runtime.cuda import nvrtc

    if nvrtc.unavailable_reason() is not None:
        pytest.skip("NVRTC unavailable")
    for dtype in ("complex64", "complex128"):
        report = la.explain(la.expm1(la.asarray(np.ones(4, dtype))) * 2, backend="cupy")
        (kernel,) = report.kernels
        assert f"la_expmone_c{64 if dtype == 'complex64' else 128}(" in kernel.source
        assert "isinf(a.re) && !isfinite(a.im)" in kernel.source
        assert nvrtc.compile_cuda(kernel.source).resources


@pytest.mark.parametrize("other", [np.zeros(0), np.zeros(0, np.float32), np.float32(1.0),
                                   np.int8(3), np.zeros((2, 2), np.int16)],
                         ids=["f64[0]", "f32[0]", "f32-scalar", "i8-scalar", "i16[2,2]"])
def test_result_type_takes_numpy_arrays_and_scalars_as_numpy(other):
    """numpy.result_type takes arrays and NumPy scalars; la.histogram's bin edges ask it with a
    lazy 0-d bound beside a NumPy array (the corpus's azimuthal integration)."""
    for x in (la.asarray(np.ones(3, np.float32)), la.asarray(np.ones(3, np.int32))):
        assert la.result_type(x, other) == np.result_type(np.asarray(x), other)
