"""Idioms of a third corpus of published NumPy programs (probe53: McKinney's Python for Data
Analysis ch. 4 and appendix A, Philip Mocz's simulations, Rosetta Code, Advent-of-Code grids,
finance, DSP, text I/O, the random APIs, numpy.linalg's reference examples) that lazyarray
answered differently from NumPy, each against NumPy, on every backend, at the default and on
the general path (eager_size=0, the path a GPU takes)."""

import warnings

import numpy as np
import pytest

import lazyarray as la
from together import compile_together

EAGER_SIZES = [0, 4096]
_COMPILED: dict = {}  # the settings whose cases' kernels are compiled in few units (tests/together.py)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_matrix_rank_of_a_vector_or_scalar_is_numpys_int(backend, eager_size):
    """numpy.linalg.matrix_rank's docstring runs `matrix_rank(np.zeros((4,)))` and
    `matrix_rank(1)`: NumPy answers `int(not all(A == 0))` below 2 dimensions. lazyarray raised
    LinAlgError '1-dimensional array given'."""
    cases = [np.zeros(4), np.ones(3), np.array([0.0, -0.0]), np.array([0.0, np.nan]), 1, 0,
             np.array(2.5), np.array([0, 3], dtype=np.int8), np.array([False, False])]
    with la.config(eager_size=eager_size):
        compile_together(_COMPILED, ("matrix_rank", backend, eager_size), [
            lambda arg=arg: la.linalg.matrix_rank(arg)
            for host in cases for arg in (host, la.asarray(host))])
        for host in cases:
            want = np.linalg.matrix_rank(host)
            for arg in (host, la.asarray(host)):
                got = la.linalg.matrix_rank(arg)
                assert type(got) is type(want) and got == want, host
        np.testing.assert_array_equal(np.asarray(la.linalg.matrix_rank(la.eye(3))),
                                      np.linalg.matrix_rank(np.eye(3)))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_take_of_an_int_out_of_bounds_raises_at_the_call(backend, eager_size):
    """`np.take(np.arange(3), 5)` raises IndexError at its line in NumPy. With the at-once path
    off (eager_size=0, the CuPy path) lazyarray checked a list or ndarray index at the call but
    a Python or NumPy int only at evaluation: `r = np.take(a, 5)` passed and a later `print(r)`
    raised, after the program had gone on."""
    host = np.arange(6).reshape(2, 3)
    with la.config(eager_size=eager_size):
        x = la.asarray(host)
        for index, axis in ((6, None), (-7, None), (np.int64(3), 1), (np.uint8(2), 0), (-4, 1)):
            with pytest.raises(IndexError) as want:
                np.take(host, index, axis=axis)
            with pytest.raises(IndexError) as got:
                la.take(x, index, axis=axis)  # raises here, before anything reads the result
            assert str(got.value).splitlines()[0] == str(want.value)
        for index, axis in ((5, None), (-6, None), (np.int64(2), 1), (-2, 0)):
            np.testing.assert_array_equal(np.asarray(x.take(index, axis=axis)),
                                          host.take(index, axis=axis))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_integer_power_with_a_known_negative_exponent_array_raises_numpys_error(backend,
                                                                                  eager_size):
    """NumPy's integer power loop raises 'Integers to negative integer powers are not allowed.'
    for a negative entry of an exponent array (err_texts: `np.array([1, 2]) ** -1`'s array
    form). lazyarray checked a scalar exponent only and answered `[0 3]` for an array whose values
    it held: a silent difference."""
    base = np.array([2, 3])
    with la.config(eager_size=eager_size):
        for exponent in (np.array([-1, 1]), la.asarray(np.array([-1, 1])), [1, -2],
                         la.asarray(np.array([[-1], [2]], dtype=np.int8))):
            host = np.asarray(exponent) if isinstance(exponent, la.Array) else exponent
            with pytest.raises(ValueError) as want:
                np.power(base, host)
            for call in (lambda: la.power(la.asarray(base), exponent),
                         lambda: la.asarray(base) ** exponent,
                         lambda: la.asarray(base.astype(np.uint8)) ** exponent):
                with pytest.raises(ValueError) as got:
                    call()
                assert str(got.value).splitlines()[0] == str(want.value)
        for exponent in (np.array([0, 3]), la.asarray(np.array([2, 1]))):
            host = np.asarray(exponent)
            np.testing.assert_array_equal(np.asarray(la.asarray(base) ** exponent), base ** host)
            got = la.asarray(base.astype(float)) ** la.asarray(-host)  # a float base: no error
            np.testing.assert_array_equal(np.asarray(got), base.astype(float) ** -host)


def _cov_cases():
    """(args, kwargs) of numpy.cov / corrcoef calls whose answers lazyarray got wrong."""
    return [(([[1.0, 2.0]],), {"rowvar": False}),  # a (1, n) m is n variables (NumPy 2)
            (([[1.0, 2.0, 4.0]],), {"rowvar": False}),
            (([1.0, 2.0, 4.0], [1j, 2.0, 3 - 1j]), {}),  # a complex y of a real m
            (([[1.0, 2.0, 4.0]], np.array([[0.5, 2.0, 1.0]], np.complex64)), {"rowvar": True}),
            (([[1.0, 2.0], [3.0, 5.0], [4.0, 4.0]],), {"rowvar": False}),
            (([1.0, 2.0, 4.0],), {"rowvar": False})]


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_cov_and_corrcoef_take_numpys_orientation_and_dtype(backend, eager_size):
    """numpy.cov transposes a 2-D m for rowvar=False whatever its row count (NumPy 2's
    `m.ndim != 1`; lazyarray kept NumPy 1's `X.shape[0] != 1`: 0.5 where NumPy gives a 2x2 of
    NaN), and takes y's dtype into the result type (lazyarray cast a complex y to m's float64,
    dropping its imaginary parts)."""
    with la.config(eager_size=eager_size), np.errstate(all="ignore"):
        compile_together(_COMPILED, ("cov", backend, eager_size), [
            lambda name=name, args=args, kwargs=kwargs: getattr(la, name)(
                *(la.asarray(np.asarray(a)) for a in args), **kwargs)
            for args, kwargs in _cov_cases() for name in ("cov", "corrcoef")])
        for args, kwargs in _cov_cases():
            for name in ("cov", "corrcoef"):
                want = getattr(np, name)(*args, **kwargs)
                got = getattr(la, name)(*(la.asarray(np.asarray(a)) for a in args), **kwargs)
                assert got.shape == want.shape and got.dtype == want.dtype, (name, args)
                np.testing.assert_allclose(np.asarray(got), want, rtol=1e-13, atol=0)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_cov_without_degrees_of_freedom_warns_as_numpy(backend, eager_size):
    """`np.cov` of one observation (or ddof >= n) warns 'Degrees of freedom <= 0 for slice'
    and its 1/0 'divide by zero', then 0 * inf 'invalid'; lazyarray gave the NaN (or inf) with
    the last warning only."""
    calls = [(([1.0],), {}), (([1.0, 2.0],), {"ddof": 2}), (([1.0, 2.0],), {"ddof": 3}),
             (([[1.0, 2.0]],), {"rowvar": False}),
             (([1.0, 2.0],), {"fweights": [1, 1], "ddof": 2})]
    with la.config(eager_size=eager_size):
        for args, kwargs in calls:
            with warnings.catch_warnings(record=True) as want_w:
                warnings.simplefilter("always")
                want = np.cov(*args, **kwargs)
            with warnings.catch_warnings(record=True) as got_w:
                warnings.simplefilter("always")
                got = np.asarray(la.cov(*(la.asarray(np.asarray(a)) for a in args), **kwargs))
            np.testing.assert_array_equal(got, want)
            assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w], args
            assert got_w[0].filename == __file__  # NumPy's stacklevel: the caller's line
        with la.errstate(divide="ignore", invalid="ignore"), \
                warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            np.asarray(la.cov(la.asarray([1.0])))
        assert [str(w.message) for w in got_w] == ["Degrees of freedom <= 0 for slice"]


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_var_and_std_take_numpy_2s_mean_keyword(backend, eager_size):
    """NumPy 2.0's `np.std(x, axis=1, mean=x.mean(1, keepdims=True))` (the mean given, not
    recomputed): lazyarray raised TypeError 'unexpected keyword argument'."""
    host = np.array([[1.0, 2.0, 4.0], [4.0, 8.0, 9.5]])
    calls = [{"mean": np.array(2.0)}, {"axis": 1, "mean": host.mean(1, keepdims=True)},
             {"axis": 0, "ddof": 1, "mean": host.mean(0, keepdims=True)},
             {"axis": 1, "mean": np.array([[1.0], [2.0]]), "keepdims": True}]
    with la.config(eager_size=eager_size):
        compile_together(_COMPILED, ("mean keyword", backend, eager_size), [
            lambda name=name, kwargs=kwargs: getattr(la, name)(
                la.asarray(host), **dict(kwargs, mean=la.asarray(kwargs["mean"])))
            for kwargs in calls for name in ("var", "std")])
        for kwargs in calls:
            ours = dict(kwargs, mean=la.asarray(kwargs["mean"]))
            for name in ("var", "std"):
                want = getattr(np, name)(host, **kwargs)
                for got in (getattr(la, name)(la.asarray(host), **ours),
                            getattr(la.asarray(host), name)(**ours)):
                    assert got.shape == want.shape and got.dtype == want.dtype
                    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_numpys_texts_and_keywords_of_fix_diff_and_copy_false(backend, eager_size):
    """`np.array(x, copy=False)` (NumPy 1 code; NumPy 2 refuses where it must copy) raised
    another text than NumPy's, `np.diff` of a 0-d value too; `np.fix(x, out=o)` raised
    TypeError 'unexpected keyword argument'."""
    with la.config(eager_size=eager_size):
        cases = [(lambda m: m.array(m.asarray([1, 2]), copy=False, dtype=np.float64), ValueError),
                 (lambda m: m.asarray([1, 2], copy=False), ValueError),
                 (lambda m: m.asarray(m.asarray([1.5]), dtype=np.float32, copy=False), ValueError),
                 (lambda m: m.diff(m.asarray(5)), ValueError),
                 (lambda m: m.fix(m.asarray([2.5]), out=m.zeros(1, dtype=int)), TypeError)]
        for call, kind in cases:
            _raises_numpys_error(call, kind)
        host = np.array([2.5, -1.5, 3.0])
        out = la.zeros(3)
        assert la.fix(la.asarray(host), out=out) is out
        np.testing.assert_array_equal(np.asarray(out), np.fix(host))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_nanvar_nanstd_take_mean_and_correction_and_refuse_both_ddofs(backend, eager_size):
    """NumPy 2's nanvar/nanstd take `mean=` and `correction=` (lazyarray: TypeError), and var,
    std, nanvar, nanstd refuse a `correction` beside a nonzero `ddof` with NumPy's ValueError
    (lazyarray's var took ddof and answered)."""
    host = np.array([[1.0, np.nan, 3.0], [4.0, 8.0, np.nan]])
    with la.config(eager_size=eager_size):
        x = la.asarray(host)
        for name in ("nanvar", "nanstd"):
            for kwargs in ({"correction": 1}, {"axis": 1, "mean": np.array([[2.0], [6.0]])},
                           {"axis": 1, "ddof": 0, "correction": 1}):
                ours = {k: la.asarray(v) if k == "mean" else v for k, v in kwargs.items()}
                np.testing.assert_array_equal(np.asarray(getattr(la, name)(x, **ours)),
                                              getattr(np, name)(host, **kwargs))
        for name in ("var", "std", "nanvar", "nanstd"):
            with pytest.raises(ValueError) as want:
                getattr(np, name)(host, ddof=1, correction=1)
            with pytest.raises(ValueError) as got:
                getattr(la, name)(x, ddof=1, correction=1)
            assert str(got.value).split("\n(at ")[0] == str(want.value)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_python_ints_past_a_c_long_and_empty_truth_values_raise_numpys_texts(backend, eager_size):
    """`np.ones(2) .astype(int) + 2**63` raises NumPy's 'Python int too large to convert to C
    long' (CPython's conversion, for every integer dtype); lazyarray said 'Python integer
    9223372036854775808 out of bounds for int64'. `bool(empty)` is NumPy 2.2's 'The truth value
    of an empty array is ambiguous...'; lazyarray gave the more-than-one-element text."""
    calls = [(lambda m: m.ones(2, np.int64) + 2**63, OverflowError),
             (lambda m: m.ones(2, np.int8) * -2**63 * 2, OverflowError),
             (lambda m: m.full(2, 2**64, dtype=np.uint64), OverflowError),
             (lambda m: m.maximum(m.ones(2, np.int32), 2**63), OverflowError),
             (lambda m: m.logical_and(m.ones(2, bool), 2**64 - 1), OverflowError),
             (lambda m: m.ones(2, np.int32) + 2**40, OverflowError),
             (lambda m: m.ones(2, np.uint64) - (-1), OverflowError),
             (lambda m: bool(m.asarray([])), ValueError),
             (lambda m: bool(m.zeros((0, 3))), ValueError),
             (lambda m: bool(m.zeros(2)), ValueError)]
    with la.config(eager_size=eager_size):
        for call, kind in calls:
            _raises_numpys_error(call, kind)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_median_of_an_empty_slice_warns_numpys_messages(backend, eager_size):
    """`np.median(np.array([]))` (stats_resampling) warns 'Mean of empty slice' then 'invalid
    value encountered in scalar divide' (NumPy's median takes a mean without keepdims, a scalar
    division); lazyarray's keepdims mean reported '... in divide'."""
    shapes = [((0,), None), ((0, 3), None), ((0, 3), 0), ((0,), 0), ((3, 0), 1)]
    with la.config(eager_size=eager_size):
        for shape, axis in shapes:
            messages = []
            for m in (np, la):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    value = np.asarray(m.median(m.zeros(shape), axis=axis))
                messages.append(([str(w.message) for w in caught], value.shape))
                np.testing.assert_array_equal(value, np.full(value.shape, np.nan))
            assert messages[1] == messages[0], (shape, axis)


def _raises_numpys_error(call, kind) -> None:
    """`call(np)` and `call(la)` raise `kind` with the same text (lazyarray's names the line)."""
    with pytest.raises(kind) as want:
        call(np)
    with pytest.raises(kind) as got:
        call(la)
    assert str(got.value).split("\n(at ")[0] == str(want.value)
