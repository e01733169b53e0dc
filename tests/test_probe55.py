"""Idioms of a fifth corpus of published NumPy programs (probe55: the NumPy quickstart, the
numpy.polynomial and numpy.linalg docstrings, Rosetta Code tasks, numerical-recipes classics,
finance, DSP, ML from scratch, sorting on arrays, sparse matrices by hand) that lazyarray
answered differently from NumPy, each against NumPy, on every backend, at the default and on
the general path (eager_size=0, the path a GPU takes)."""

import warnings

import numpy as np
import pytest

import lazyarray as la

EAGER_SIZES = [0, 4096]


def _same_outcome(call) -> None:
    """`call(np)` and `call(la)` give the same value, dtype and kind of result, or raise the
    same type and text (lazyarray's text may name the line after it)."""
    try:
        want = call(np)
    except Exception as error:  # noqa: BLE001 (NumPy's error is the expectation)
        with pytest.raises(type(error)) as got:
            call(la)
        assert str(got.value).split("\n(at ")[0] == str(error)
        return
    _same(call(la), want)


def _same(got, want) -> None:
    """Same value, dtype, and kind of result: NumPy's scalar or an array (0-d included)."""
    assert isinstance(want, np.generic) == (not isinstance(got, np.ndarray) and not got.ndim
                                            and got._view is False), (repr(got), repr(want))
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_round_and_nan_to_num_of_integers_are_new_arrays(backend, eager_size):
    """`np.round` of integers with decimals >= 0 and `np.nan_to_num` of integers returned their
    argument itself: `b = np.round(a); b[0] = 7` wrote into `a` (NumPy's result is a copy), and
    the 0-d array of `np.round(np.asarray(rank))` (numpy.polynomial's fit(full=True) stats, then
    rounded) printed as `array(3, dtype=int32)` where NumPy gives its scalar `np.int32(3)`."""
    with la.config(eager_size=eager_size):
        for name in ("round", "around", "nan_to_num", "method"):
            results = []
            for m in (np, la):
                a = m.arange(4, dtype=m.int16)
                b = a.round() if name == "method" else getattr(m, name)(a)
                b[0] = 7
                results.append((np.asarray(a).copy(), np.asarray(b).copy()))
            np.testing.assert_array_equal(results[1][0], results[0][0])
            np.testing.assert_array_equal(results[1][1], results[0][1])
        for make in (lambda m: m.asarray(np.int32(3)), lambda m: m.asarray(True),
                     lambda m: m.int8(-5), lambda m: 3, lambda m: m.arange(3).sum(),
                     lambda m: m.asarray(np.uint8(200))):
            for call in (lambda m, v: m.round(v), lambda m, v: m.round(v, 2),
                         lambda m, v: m.around(v, -1), lambda m, v: m.nan_to_num(v),
                         lambda m, v: m.asarray(v).round()):
                _same_outcome(lambda m: call(m, make(m)))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_nan_to_num_copy_false_writes_into_its_argument(backend, eager_size):
    """`np.nan_to_num(x, copy=False)` replaces x's NaN and infinities in x and returns x (its
    scalar where x is 0-d); lazyarray left x alone. A list or a scalar cannot be written:
    NumPy's ValueError."""
    with la.config(eager_size=eager_size):
        for values in ([np.nan, 1.0, np.inf, -np.inf], [1 + 2j, complex(np.nan, np.inf)], [1, 2]):
            got, want = la.array(values), np.array(values)
            out_got = la.nan_to_num(got, copy=False, posinf=5.0)
            out_want = np.nan_to_num(want, copy=False, posinf=5.0)
            assert out_got is got and out_want is want
            np.testing.assert_array_equal(np.asarray(got), want)
        got, want = la.array(np.nan), np.array(np.nan)
        _same(la.nan_to_num(got, copy=False), np.nan_to_num(want, copy=False))
        np.testing.assert_array_equal(np.asarray(got), want)
        for value in ([1.0, np.nan], np.float64(np.nan)):
            with pytest.raises(ValueError) as error:
                np.nan_to_num(value, copy=False)
            with pytest.raises(ValueError, match=str(error.value).split("\n")[0]):
                la.nan_to_num(value, copy=False)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_cross_of_two_2_vectors_is_a_0d_array(backend, eager_size):
    """NumPy's `np.cross([1, 2], [3, 4])` is the 0-d array `array(-2)` (with its deprecation
    warning), not a scalar: lazyarray printed `np.int64(-2)` in a tuple's repr."""
    with la.config(eager_size=eager_size), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for a, b in (([1, 2], [3, 4]), ([1.5, 2], [3, 4]), ([[1, 2]], [[3, 4]]),
                     ([1, 2], [3, 4, 5])):
            _same(la.cross(a, b), np.cross(a, b))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_qr_takes_numpys_raw_and_deprecated_modes(backend, eager_size):
    """The numpy.linalg.qr docstring's `h, tau = LA.qr(a, mode='raw')` was a ValueError with
    lazyarray's own text; NumPy's 'raw' gives LAPACK's reflectors and tau, 'full' and
    'economic' warn NumPy's DeprecationWarning, any other mode is NumPy's "Unrecognized mode"."""
    a = np.random.default_rng(0).normal(size=(2, 5, 3))
    with la.config(eager_size=eager_size):
        for x in (a, a[0], a[0].T):
            for mode in ("raw", "full", "economic", "foo", "R"):
                with warnings.catch_warnings(record=True) as want_w:
                    warnings.simplefilter("always")
                    try:
                        want = np.linalg.qr(x, mode=mode)
                    except ValueError as error:
                        with pytest.raises(ValueError) as got:
                            la.linalg.qr(la.asarray(x), mode=mode)
                        assert str(got.value).split("\n(at ")[0] == str(error)
                        continue
                with warnings.catch_warnings(record=True) as got_w:
                    warnings.simplefilter("always")
                    got = la.linalg.qr(la.asarray(x), mode=mode)
                assert [(w.category, str(w.message)) for w in got_w] == [
                    (w.category, str(w.message)) for w in want_w]
                assert all(w.filename == __file__ for w in got_w)
                for g, w in zip(got if isinstance(want, tuple) else (got,),
                                want if isinstance(want, tuple) else (want,)):
                    np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_repeat_of_one_is_a_new_writable_array(backend, eager_size):
    """`y = x.repeat(1)` (a count of 1, also per axis or as a 1-list) was a read-only broadcast
    view: `y[0] = 5` raised 'assignment destination is read-only'. NumPy's repeat is a new
    C-contiguous array whose writes leave x alone."""
    with la.config(eager_size=eager_size):
        for args in ((1,), (1, 0), (1, 1), ([1],), (np.int8(1),), (2, 1)):
            results = []
            for m in (np, la):
                x = m.arange(6).reshape(2, 3).T
                y = m.repeat(x, *args)
                y[(0,) * y.ndim] = 9
                results.append((np.asarray(x).tolist(), np.asarray(y).tolist(),
                                np.asarray(y).flags.c_contiguous))
            assert results[1] == results[0]
        x = la.arange(4)
        y = x.repeat(1)
        y[0] = 9
        assert np.asarray(x).tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_ufuncs_without_a_loop_raise_numpys_exception_type(backend, eager_size):
    """NumPy raises UFuncTypeError (a TypeError subclass; tutorials print `type(e).__name__`)
    where a ufunc has no loop for the dtypes (`np.positive(bool_array)`, `np.gcd(float, int)`);
    lazyarray raised a plain TypeError with its text. bitwise_count and frexp of other kinds
    had lazyarray's shortened text."""
    b, f, i = np.array([True, False]), np.array([1.5]), np.array([3])
    calls = [lambda m: m.positive(m.asarray(b)), lambda m: m.sign(m.asarray(b)),
             lambda m: m.gcd(m.asarray(f), m.asarray(i)), lambda m: m.asarray(f) & m.asarray(f),
             lambda m: -m.asarray(b), lambda m: m.bitwise_count(m.asarray(f)),
             lambda m: m.frexp(m.asarray(f + 1j)), lambda m: m.left_shift(m.asarray(f), 1)]
    with la.config(eager_size=eager_size):
        for call in calls:
            with pytest.raises(TypeError) as want:
                call(np)
            with pytest.raises(TypeError) as got:
                call(la)
            assert type(got.value) is type(want.value)
            assert str(got.value).split("\n(at ")[0] == str(want.value)


def _kind(r) -> str:
    """'scalar' for NumPy's scalar (lazyarray's 0-d stand-in for one), 'array<ndim>' for an
    array, else the Python type's name (np.real(3) is the int 3)."""
    if isinstance(r, np.generic) or (isinstance(r, la.Array) and not r.ndim
                                     and r._view is False):
        return "scalar"
    if isinstance(r, (np.ndarray, la.Array)):
        return f"array{r.ndim}"
    return type(r).__name__


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_functions_give_numpys_scalar_or_0d_array(backend, eager_size):
    """Which of NumPy's scalar, its 0-d array or a Python number a function gives shows in
    reprs (a tuple or a list prints `np.float64(2.5)` or `array(2.5)`) and in `t += 1` (a 0-d
    array's writes reach every name bound to it). np.real/np.imag of a number are its `.real`
    (a Python int for 3), iscomplex of a real 0-d input and einsum's and choose's 0-d results are
    NumPy's scalars; i0 and isin of a 0-d input are 0-d arrays; isreal(3) is Python's True."""
    makers = [lambda m: m.asarray(np.int64(3)), lambda m: m.asarray(2.5), lambda m: m.int64(3),
              lambda m: m.float64(2.5), lambda m: m.complex128(1 + 2j), lambda m: 3,
              lambda m: 2.5, lambda m: True, lambda m: m.asarray(np.array([2.5, 1.0]))[0]]
    calls = [lambda m, v: m.real(v), lambda m, v: m.imag(v), lambda m, v: m.iscomplex(v),
             lambda m, v: m.isreal(v), lambda m, v: m.i0(m.real(v)), lambda m, v: m.isin(v, [3]),
             lambda m, v: m.einsum("->", m.asarray(v)), lambda m, v: m.choose(0, [m.asarray(v)])]
    with la.config(eager_size=eager_size):
        for make in makers:
            for call in calls:
                want, got = call(np, make(np)), call(la, make(la))
                assert _kind(got) == _kind(want), (repr(got), repr(want))
                np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-15)  # (i0:
                # C's exp within docs/semantics.md's bounds)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_choose_is_a_new_writable_array(backend, eager_size):
    """np.choose's result is a new array; lazyarray's was a read-only broadcast view, so
    `r = np.choose(idx, [a, b]); r[0] = 7` raised 'assignment destination is read-only'."""
    with la.config(eager_size=eager_size):
        for idx in ([0, 1, 0], 0, [[0], [1]]):
            results = []
            for m in (np, la):
                a = m.arange(3)
                r = m.choose(idx, [a, a * 10])
                r[(0,) * r.ndim] = 7
                results.append((np.asarray(r).tolist(), np.asarray(a).tolist()))
            assert results[1] == results[0]


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_conj_method_of_a_real_array_is_the_array(backend, eager_size):
    """NumPy's `a.conj()` / `a.conjugate()` of a real array is `a` itself (writes into the
    result reach `a`); lazyarray's was a copy. The ufunc np.conj and complex arrays copy."""
    with la.config(eager_size=eager_size):
        for dtype in (np.int64, np.float32, np.complex128):
            for call in (lambda a: a.conj(), lambda a: a.conjugate(), lambda a: np.conj(a)
                         if isinstance(a, np.ndarray) else la.conj(a)):
                results = []
                for m in (np, la):
                    a = m.arange(4).astype(dtype)
                    r = call(a)
                    r[0] = 7
                    results.append((np.asarray(a).tolist(), np.asarray(r).tolist(), r is a))
                assert results[1] == results[0]


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_partition_names_an_out_of_bounds_kth_as_numpy(backend, eager_size):
    """NumPy's text names a negative kth after adding the length (`kth=-5` of 3 elements:
    'kth(=-2) out of bounds (3)'); lazyarray named -5."""
    with la.config(eager_size=eager_size):
        for kth in (-5, 5, 3, -4, [0, -5], [1, 7]):
            for name in ("partition", "argpartition"):
                with pytest.raises(ValueError) as want:
                    getattr(np, name)(np.arange(3), kth)
                with pytest.raises(ValueError) as got:
                    getattr(la, name)(la.arange(3), kth)
                assert str(got.value).split("\n(at ")[0] == str(want.value)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_len_of_numpys_scalar_has_pythons_text(backend, eager_size):
    """`len(x.sum())`: NumPy's scalar says "object of type 'numpy.float64' has no len()", its
    0-d array "len() of unsized object"; lazyarray's stand-in for the scalar said the latter."""
    makers = [lambda m: m.ones(3).sum(), lambda m: m.arange(3, dtype=m.int8)[1],
              lambda m: m.asarray(2.5), lambda m: m.ones(2) == m.ones(2).max()]
    with la.config(eager_size=eager_size):
        for make in makers:
            with pytest.raises(TypeError) as want:
                len(make(np).all() if make is makers[-1] else make(np))
            with pytest.raises(TypeError) as got:
                len(make(la).all() if make is makers[-1] else make(la))
            assert str(got.value) == str(want.value)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_cholesky_upper_reads_the_upper_triangle(backend, eager_size):
    """NumPy's `cholesky(a, upper=True)` is LAPACK's 'U' factor, which reads a's upper triangle;
    lazyarray conjugate-transposed the lower-read factor: another answer for a matrix that is
    not Hermitian, and -0 imaginary parts (numpy.linalg's docstring printed `1.-0.j`)."""
    rng = np.random.default_rng(1)
    x = rng.normal(size=(3, 3)) + 1j * rng.normal(size=(3, 3))
    hermitian = x @ x.conj().T + 3 * np.eye(3)
    lopsided = np.triu(hermitian) + 0.25 * np.tril(np.ones((3, 3)), -1)
    with la.config(eager_size=eager_size):
        for a in (np.array([[4.0, 2.0], [0.0, 3.0]]), np.array([[1, -2j], [2j, 5]]),
                  hermitian, lopsided, lopsided.real, np.stack([hermitian, lopsided])):
            for upper in (False, True):
                want = np.linalg.cholesky(a, upper=upper)
                got = np.asarray(la.linalg.cholesky(la.asarray(a), upper=upper))
                np.testing.assert_array_equal(got, want)
                np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_a_scalar_results_item_assignment_writes_it_as_the_array_apis(backend, eager_size):
    """`t = x.sum(); t[...] = 5`: NumPy's scalar raises TypeError, but the Array API's 0-d arrays
    take the write and SciPy's array-api-extra relies on it (`xpx.at(r, mask).set(nan)` in
    stats.pearsonr), so lazyarray writes it (docs/numpy_coverage.md); a 0-d array as NumPy's."""
    makers = [lambda m: m.arange(6).sum(), lambda m: m.arange(3.0).max(), lambda m: m.asarray(3)]
    with la.config(eager_size=eager_size):
        for make in makers:
            for key in ((), Ellipsis):
                t = make(la)
                t[key] = 5
                assert np.asarray(t).tolist() == 5 and t.shape == ()
