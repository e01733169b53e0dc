"""Elementwise ops against NumPy, generated from the op registry.

Every registered elementwise op with a ufunc is tested through the namespace function of the same
name: over every input dtype combination NumPy has a loop for (exhaustively, on fixed broadcasting
shapes), over hypothesis-drawn broadcastable shapes (0-d, size-0 and size-1 dims included) and
dtypes, and with Python scalars (weak, NEP 50) on either side. Inputs come from the op's `domain`.
A new registry entry is picked up here automatically; `test_registry_coverage` fails for any op
that no test covers.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes
from lazyarray.graph import OpKind, all_ops
from lazyarray.runtime import available_backends
from numpy_oracle import (
    FAST,
    SUPPORTED,
    accepted_dtypes,
    assert_matches,
    backend_dtypes,
    computes_halves,
    draw,
    numpy_loop,
    numpy_result,
)

import lazyarray as la

UFUNC_OPS = [op for op in all_ops() if op.kind is OpKind.ELEMENTWISE and op.ufunc is not None]
UNARY = [op for op in UFUNC_OPS if op.arity == 1]
BINARY = [op for op in UFUNC_OPS if op.arity == 2]
ids = [op.name for op in UFUNC_OPS]


def _api(op):
    fn = getattr(la, op.name, None)
    assert fn is not None, f"registry op {op.name!r} has no namespace function la.{op.name}"
    return fn


def _inputs(op, dtypes, shapes, seed):
    rng = np.random.default_rng(seed)
    return tuple(draw(rng, dt, shape, op.domain, k)
                 for k, (dt, shape) in enumerate(zip(dtypes, shapes)))


# Ops whose result cancels: logaddexp(a, b) = max(a, b) + log1p(exp(-|a - b|)) near 0 carries a few
# ulps of its inputs, not of its result (NumPy's own error there is thousands of result ulps, against
# the exact value; the C backend's own exp/log1p round differently from libm's). Their results are
# compared at ULPS of max(|a|, |b|, |result|) instead.
_INPUT_SCALED = {"logaddexp", "logaddexp2"}


def _assert_op_matches(op, got, arrays):
    want = numpy_result(op.ufunc, arrays)
    if op.name == "power" and np.asarray(want).dtype.kind == "c":
        with la.errstate(all="ignore"):  # (as numpy_result: the drawn specials overflow)
            got = _without_unknown_phases(np.asarray(got), want, arrays)
    if op.name not in _INPUT_SCALED or np.asarray(want).dtype.kind != "f":
        assert_matches(got, want)
        return
    got_np, want = np.asarray(got), np.asarray(want)
    assert got_np.dtype == want.dtype and got_np.shape == want.shape
    scale = np.abs(want)
    for a in arrays:
        scale = np.maximum(scale, np.abs(np.asarray(a, want.dtype)))
    finite = np.isfinite(want)
    np.testing.assert_array_equal(np.isnan(got_np), np.isnan(want))
    np.testing.assert_array_equal(got_np[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)])
    err = np.abs(got_np[finite] - want[finite])
    bound = 4 * np.finfo(want.dtype).eps * scale[finite] + np.finfo(want.dtype).tiny
    assert (err <= bound).all(), f"{op.name}: error {err.max()} over {bound[err.argmax()]}"


def _without_unknown_phases(got, want, arrays):
    """Complex a**b is exp(b log a): where b log a's imaginary part, the phase, is so large that one
    ulp of it is a sizeable angle (1e30 * arg(a) in complex64), the directions of an infinite or
    finite result are rounding noise of the library's log and sin/cos (the GPU's differ from
    glibc's by an ulp: (-3.9+1.4j)**1e30 gave -inf+infj against NumPy's inf-infj). There only the
    magnitude's class is compared (finite, inf, nan), and NumPy's value is taken for the rest."""
    a, b = (np.asarray(x).astype(np.complex128) for x in arrays)
    with np.errstate(all="ignore"):
        phase = np.abs((b * np.log(a)).imag)
    unknown = np.broadcast_to(phase * np.finfo(want.dtype).eps > 0.1, want.shape)
    if not unknown.any():
        return got
    with np.errstate(all="ignore"):
        g, w = np.abs(got[unknown]), np.abs(want[unknown])
    np.testing.assert_array_equal(np.isinf(g), np.isinf(w), err_msg="power: infinite magnitudes")
    np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg="power: nan magnitudes")
    got = got.copy()
    got[unknown] = want[unknown]
    return got


def _check(op, arrays):
    got = _api(op)(*(la.array(a) for a in arrays))
    _assert_op_matches(op, got, arrays)


@pytest.mark.parametrize("op", UFUNC_OPS, ids=ids)
def test_every_accepted_dtype_combination(backend, op):
    """All dtype combinations at once, in one graph per op (cheap), on broadcasting shapes."""
    combos = accepted_dtypes(op.ufunc, half=computes_halves(backend))
    assert combos, f"{op.name}: NumPy accepts none of lazyarray's dtypes"
    shapes = [(2, 1, 5), (3, 1)][: op.arity] if op.arity == 2 else [(2, 3, 5)]
    cases = [_inputs(op, dts, shapes, seed) for seed, dts in enumerate(combos)]
    with la.errstate(all="ignore"):  # as numpy_result: the drawn specials overflow etc.
        results = la.eval(*[_api(op)(*(la.array(a) for a in arrays)) for arrays in cases])
    for arrays, got in zip(cases, results if len(cases) > 1 else [results]):
        _assert_op_matches(op, got, arrays)


@pytest.mark.parametrize("op", UFUNC_OPS, ids=ids)
def test_unsupported_dtypes_raise_type_error(op):
    """A dtype combination NumPy has no loop for raises TypeError when the op is built, with
    NumPy's resolver text (naming NumPy's ufunc: 'invert' for bitwise_invert)."""
    supported = set(accepted_dtypes(op.ufunc))
    rejected = [c for c in _all_combos(op.arity) if c not in supported]
    for dts in rejected[:5]:
        with pytest.raises(TypeError, match=op.ufunc.__name__):
            _api(op)(*(la.array(np.zeros(2, dt)) for dt in dts))


def _all_combos(arity):
    combos = [()]
    for _ in range(arity):
        combos = [c + (d,) for c in combos for d in SUPPORTED]
    return combos


@pytest.mark.parametrize("op", UFUNC_OPS, ids=ids)
@FAST
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_shapes_and_dtypes(backend, op, data, seed):
    dtypes = data.draw(st.sampled_from(accepted_dtypes(op.ufunc, half=computes_halves(backend))),
                       label="dtypes")
    shapes, _ = data.draw(mutually_broadcastable_shapes(num_shapes=op.arity, min_dims=0,
                                                        max_dims=3, min_side=0, max_side=4),
                          label="shapes")
    _check(op, _inputs(op, dtypes, shapes, seed))


@pytest.mark.parametrize("compiled", [b for b in available_backends() if b not in ("numpy", "dask")])
@pytest.mark.parametrize("op", UFUNC_OPS, ids=ids)
@settings(FAST, max_examples=1)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_shapes_and_dtypes_sampled(compiled, op, data, seed):
    """The fast tier's sample of the sweep above on the compiling backends: 3 drawn cases per op,
    evaluated together (one compile: a compile per case was most of this test's time, and the
    kernels are the same); the full sweep on C runs in the exhaustive tier (conftest)."""
    cases = []
    for k in range(3):
        dtypes = data.draw(st.sampled_from(accepted_dtypes(op.ufunc, computes_halves(compiled))),
                           label=f"dtypes {k}")
        shapes, _ = data.draw(mutually_broadcastable_shapes(num_shapes=op.arity, min_dims=0,
                                                            max_dims=3, min_side=0, max_side=4),
                              label=f"shapes {k}")
        cases.append(_inputs(op, dtypes, shapes, (seed + k) % 2**32))
    with la.config(backend=compiled), la.errstate(all="ignore"):  # as assert_matches
        results = la.eval(*[_api(op)(*(la.array(a) for a in arrays)) for arrays in cases])
    for arrays, got in zip(cases, results):
        _assert_op_matches(op, got, arrays)


def _weak_scalar(kind, op, dtype, rng, position):
    """A Python scalar of `kind` that fits `dtype` (NEP 50 raises on out-of-range ints)."""
    if kind is bool:
        return bool(rng.random() < 0.5)
    if kind is float:
        return float(draw(rng, np.float64, (), op.domain, position))
    if kind is complex:
        return complex(draw(rng, np.complex128, (), op.domain, position))
    source = dtype if dtype.kind in "iu" else np.dtype(np.int16)
    return int(draw(rng, source, (), op.domain, position))


@pytest.mark.parametrize("op", BINARY, ids=[op.name for op in BINARY])
@pytest.mark.parametrize("kind", [bool, int, float, complex])
def test_python_scalar_operands_are_weak(backend, op, kind):
    """array OP scalar and scalar OP array, for every array dtype: NumPy 2's NEP 50 result."""
    rng = np.random.default_rng(7)
    checked = 0
    for dt in backend_dtypes(backend):
        for scalar_pos in (0, 1):
            operands = [draw(rng, dt, (2, 3), op.domain, 1 - scalar_pos)]
            operands.insert(scalar_pos, _weak_scalar(kind, op, dt, rng, scalar_pos))
            lazy = [la.array(o) if isinstance(o, np.ndarray) else o for o in operands]
            if numpy_loop(op.ufunc, tuple(operands)) is None:
                with pytest.raises(TypeError):
                    _api(op)(*lazy)
                checked += 1
                continue
            _assert_op_matches(op, _api(op)(*lazy), tuple(operands))
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_floor_division_by_a_signed_zero_keeps_its_sign(backend, dtype):
    """`x // -0.0` is -inf for a positive x, inf for a negative one, NaN for 0 and NaN (NumPy
    divides there): on the GPU, NVRTC took the template's `b == 0` test as b being +0 and
    `int8(-26) // float32(-0.0)` gave -inf (H200, stop 51); divmod's quotient is the same rule."""
    a = np.array([-26.0, 26.0, 0.0, -0.0, np.inf, -np.inf, np.nan], dtype)
    for b in (np.array(-0.0, dtype), np.array(0.0, dtype)):
        for x, y in ((a, np.broadcast_to(b, a.shape).copy()), (a[0], b), (a[1], b)):
            with np.errstate(all="ignore"):
                want = np.floor_divide(x, y)
                want_q = np.divmod(x, y)[0]
            with la.errstate(all="ignore"):
                got = la.floor_divide(la.array(x), la.array(y))
                got_q = la.divmod(la.array(x), la.array(y))[0]
            for g, w in ((got, want), (got_q, want_q)):
                g = np.asarray(g)
                np.testing.assert_array_equal(g, w)
                keep = ~np.isnan(w)
                np.testing.assert_array_equal(np.signbit(g)[keep], np.signbit(w)[keep])


def test_registry_coverage():
    """Every registered op is exercised by some test module (generated here, or named there)."""
    from test_array_api_functions import SORTING_TESTS
    from test_fft import FFT_TESTS
    from test_linalg import LINALG_TESTS
    from test_ops_reductions import REDUCTION_TESTS
    from test_random import RANDOM_TESTS
    from test_shapes_indexing import STRUCTURE_TESTS

    covered = {op.name for op in UFUNC_OPS} | set(REDUCTION_TESTS) | set(STRUCTURE_TESTS)
    covered |= set(LINALG_TESTS) | set(RANDOM_TESTS) | set(FFT_TESTS) | set(SORTING_TESTS)
    covered |= {"where", "cast", "input", "scalar"}  # test_where_cast.py; leaves: everywhere
    covered |= {"stop_gradient"}  # test_autodiff.py
    covered |= {"contiguous"}  # test_result_layout.py (copies in NumPy's layout: C-ordered ones)
    covered |= {"real", "imag"}  # test_complex.py (no ufunc: their dtype rule is the API's)
    covered |= {"complex"}  # test_round_reshape_repr.py (complex round builds from the parts)
    covered |= {"erf", "erfc"}  # test_math_functions.py (no NumPy ufunc: mpmath, math.erf)
    covered |= {"sorted_rows"}  # test_numpy_functions.py (median and the quantiles by partition)
    covered |= {"accumulate"}  # test_ufuncs.py (ufunc.accumulate of the associative ufuncs)
    covered |= {"einsum_loop"}  # test_einsum.py, test_probe57.py (NumPy's einsum loop's order)
    covered |= {"dot_nd"}  # test_probe57.py (N-d dot in NumPy's loop)
    covered |= {"masked_sum"}  # test_fuzz_regressions.py (sum, mean, var with where=)
    covered |= {"sort"}  # test_numpy_protocols.py (NumPy's kinds, signed zeros), test_array_api_functions.py
    covered |= {"partition", "argpartition"}  # test_sort_ties.py (NumPy's order in the parts)
    missing = [op.name for op in all_ops() if op.name not in covered]
    assert not missing, f"registered ops without tests: {missing}"
