"""Idioms of a fourth corpus of published NumPy programs (probe54: CS231n, Karpathy's min-char-rnn,
Sutton and Barto's code, Wikipedia's algorithm examples, Project Euler, plain-NumPy image and
audio code, NumPy's reference docstrings) and probe53's open items that lazyarray answered
differently from NumPy, each against NumPy, on every backend, at the default and on the general
path (eager_size=0, the path a GPU takes)."""

import warnings

import numpy as np
import pytest

import lazyarray as la
from together import compile_together

EAGER_SIZES = [0, 4096]
_COMPILED: dict = {}  # the settings whose cases' kernels are compiled in few units (tests/together.py)


def _same_outcome(call) -> None:
    """`call(np)` and `call(la)` give the same value and dtype, or raise the same type and text
    (lazyarray's text may name the line after it)."""
    try:
        want = call(np)
    except Exception as error:  # noqa: BLE001 (NumPy's error is the expectation)
        with pytest.raises(type(error)) as got:
            call(la)
        assert str(got.value).split("\n(at ")[0] == str(error)
        return
    got = call(la)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_searchsorted_checks_its_sorter_as_numpy(backend, eager_size):
    """probe53's open item: NumPy converts `sorter` to a 1-D intp array ('could not parse sorter
    argument', 'sorter must only contain integers', 'sorter.size must equal a.size') and raises
    'Sorter index out of range.' at an entry its binary search reads, answering where it reads
    none. lazyarray took the sorter with `take`: `sorter=[0, 1, -1]` wrapped to the last element
    and answered 2 where NumPy raises, a short sorter answered, and out of range was IndexError."""
    a = np.array([0, 1, 2])
    sorters = [[0, 1, -1], [0, 1, 5], [5, 1, 2], [0, 1], [0, 1, 2, 3], [True, False, True],
               [0, 1, 2.0], [[0, 1, 2]], 5, np.array([0, 1, 2], dtype=np.uint64),
               np.array([2, 1, 0], dtype=np.int32), np.array([0, 1, 2], dtype=np.uint8)]
    with la.config(eager_size=eager_size):
        for sorter in sorters:
            for v in (1, 2, [1, 0, 2], []):
                for side in ("left", "right"):
                    _same_outcome(lambda m: m.searchsorted(m.asarray(a), v, side, sorter=sorter))
        arr = la.asarray(np.array([3.0, 1.0, 2.0]))
        got = la.searchsorted(arr, [2.5, 0.0], sorter=la.argsort(arr))  # argsort's: unchecked
        np.testing.assert_array_equal(np.asarray(got), [2, 0])
        for sorter in (la.asarray(np.array([1, 2, -3])), la.asarray(np.array([1, 2, 0])) - 1):
            _same_outcome(lambda m: m.searchsorted(m.asarray([1.0, 2.0, 3.0]), 3.0,
                                                   sorter=np.asarray(sorter) if m is np else sorter))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_fft_and_cumulative_scans_take_numpy_2s_out(backend, eager_size):
    """probe53's open item: NumPy 2's `out=` of the np.fft transforms and of cumulative_sum /
    cumulative_prod was a TypeError here. NumPy's transform into a complex64 `out` runs in double
    and casts, a float32 input into complex128 runs in double, hfft leaves `out` alone, and the
    scans accumulate in the loop of the input's and out's dtypes."""
    rng = np.random.default_rng(0)
    x, x2 = rng.random(8), rng.random((3, 4))
    z = np.fft.rfft(x)
    transforms = [("fft", x, (8,), complex), ("fft", x.astype(np.float32), (8,), complex),
                  ("fft", x, (8,), np.complex64), ("fft", x, (8,), float), ("fft", x, (7,), complex),
                  ("irfft", z, (14,), np.float32), ("hfft", z, (14,), float),
                  ("ihfft", x, (5,), complex), ("rfft2", x2, (3, 3), complex),
                  ("ifftn", x2, (3, 4), complex), ("fft2", x2, (4,), complex)]
    scans = [("cumulative_sum", dict(axis=1), np.int64), ("cumulative_sum", dict(axis=1), np.int8),
             ("cumulative_prod", dict(axis=0, include_initial=True), np.float64),
             ("cumulative_sum", dict(axis=1, dtype=np.float32), np.int64)]
    small = (np.arange(1, 7).reshape(2, 3) * 40).astype(np.int8)
    with la.config(eager_size=eager_size):
        for name, a, shape, dtype in transforms:
            for out_module in (np, la):
                _same_out(lambda m: getattr(m.fft, name), a, {}, shape, dtype, out_module)
        for name, kwargs, dtype in scans:
            shape = getattr(np, name)(small, **kwargs).shape
            for out_module in (np, la):
                _same_out(lambda m: getattr(m, name), small, kwargs, shape, dtype, out_module)


def _same_out(fn, a, kwargs, shape, dtype, out_module) -> None:
    """`fn(m)(a, out=o, **kwargs)` under NumPy and lazyarray (`o` an ndarray or an Array): the
    same error, or the same result (whether it is `o`, its values and dtype) and the same `o`."""
    o_np = np.zeros(shape, dtype)
    try:
        want = fn(np)(a, out=o_np, **kwargs)
    except Exception as error:  # noqa: BLE001 (NumPy's error is the expectation)
        with pytest.raises(type(error)) as got_error:
            fn(la)(la.asarray(a), out=out_module.zeros(shape, dtype), **kwargs)
        assert str(got_error.value).split("\n(at ")[0] == str(error)
        return
    o = out_module.zeros(shape, dtype)
    got = fn(la)(la.asarray(a), out=o, **kwargs)
    assert (got is o) == (want is o_np)
    assert np.asarray(got).dtype == want.dtype and np.asarray(o).dtype == o_np.dtype
    np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(o), o_np)


def _messages(call) -> list[str]:
    """The warnings `call()` gives, computed (an Array's value read), in order."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.asarray(call())
    return [str(w.message) for w in caught]


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_var_and_mean_of_no_elements_warn_numpys_messages(backend, eager_size):
    """probe53's open item: NumPy's var of an empty slice warns 'Degrees of freedom <= 0 for
    slice', then its mean's 0/0 'invalid value encountered in divide' (where the mean has
    elements), then the final division's; lazyarray skipped the mean's. And the final 0-d
    division of mean/var/std is NumPy's scalar divided by its intp count: 'scalar divide' for
    float64 (and int input), 'divide' where the count promotes the scalar (float16, float32,
    complex64); lazyarray said 'scalar divide' for every dtype."""
    calls = [lambda m, a: m.var(a), lambda m, a: m.std(a.reshape(0, 1) if a.size == 0 else a,
                                                      axis=0),
             lambda m, a: m.var(a, keepdims=True), lambda m, a: m.var(a[:1], ddof=1),
             lambda m, a: m.mean(a), lambda m, a: a.std()]
    dtypes = (np.float64, np.float32, np.float16, np.int64, np.complex128, np.complex64)
    with la.config(eager_size=eager_size):
        compile_together(_COMPILED, ("var and mean", backend, eager_size), [
            lambda call=call, host=np.ones(size, dtype): call(la, la.asarray(host))
            for dtype in dtypes for size in (0, 1) for call in calls])
        for dtype in dtypes:
            for size in (0, 1):
                host = np.ones(size, dtype)
                for k, call in enumerate(calls):
                    if k == 4 and dtype == np.complex128:
                        continue  # (a complex scalar's division says 'divide' here: left)
                    want = _messages(lambda: call(np, host))
                    assert _messages(lambda: call(la, la.asarray(host))) == want, (dtype, size, k)
        with la.errstate(invalid="raise"), np.errstate(invalid="raise"):
            with pytest.raises(FloatingPointError):
                np.var(np.zeros((0, 3)), axis=0)
            with pytest.raises(FloatingPointError):
                np.asarray(la.var(la.zeros((0, 3)), axis=0))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_integer_reciprocal_of_zero_is_numpys_cast_of_inf(backend, eager_size):
    """NumPy's integer reciprocal divides in double and casts: 1 / 0 is INT_MIN in int32 and
    int64 on x86-64 (as `np.array([np.inf]).astype(np.int64)`), 0 in narrower and unsigned types.
    lazyarray gave 0 for every type (a fused kernel and the at-once path alike)."""
    dtypes = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64)
    calls = (lambda m, a: m.reciprocal(a), lambda m, a: m.reciprocal(a * 1),
             lambda m, a: m.reciprocal(a[2:]) + 0)
    with la.config(eager_size=eager_size):
        compile_together(_COMPILED, ("reciprocal", backend, eager_size), [
            lambda call=call, host=_reciprocal_operand(dtype): call(la, la.asarray(host))
            for dtype in dtypes for call in calls])
        for dtype in dtypes:
            host = _reciprocal_operand(dtype)
            for call in calls:
                x = la.asarray(host)
                assert _messages(lambda: call(la, x)) == _messages(lambda: call(np, host))
                with np.errstate(all="ignore"), la.errstate(all="ignore"):
                    want, got = call(np, host), np.asarray(call(la, x))
                np.testing.assert_array_equal(got, want)
                assert got.dtype == want.dtype


def _reciprocal_operand(dtype) -> np.ndarray:
    """Zeros and small values of `dtype`, with -1 where it is signed."""
    host = np.array([0, 1, 2, 0], dtype)
    return np.append(host, -1).astype(dtype) if np.dtype(dtype).kind == "i" else host


def _written(name, *args, **kwargs):
    """`m.<name>(a, *args)` on a fresh uint8 array of m's, returning `a` (put/place/... write it)."""
    def call(m):
        a = m.asarray(np.zeros((1, 3), np.uint8))
        getattr(m, name)(a, *args, **kwargs)
        return a
    return call


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_writes_convert_python_values_and_pad_values_as_numpy(backend, eager_size):
    """NumPy's put, place, putmask, put_along_axis and insert convert Python values to the
    array's dtype (a Python int out of range: OverflowError; place casts arrays safely); its pad
    writes one or two `constant_values` as NumPy scalars (300 into uint8 is 44, a complex one
    warns) and more as Python values (OverflowError). lazyarray wrapped the first group
    silently (`np.put(uint8s, [0], 300)` wrote 44) and raised for pad's."""
    mask = np.array([[True, False, True]])
    calls = [_written("put", [0], 300), _written("put", [0, 1], [1, -1]),
             _written("put", [0], np.array([300])), _written("put", [0], [2.5]),
             _written("place", mask, [300]), _written("place", mask, np.array([300])),
             _written("place", mask, [7]), _written("putmask", mask, [300]),
             _written("putmask", mask, np.array([300])),
             _written("put_along_axis", np.array([[0]]), 300, axis=1),
             lambda m: m.insert(m.asarray(np.zeros(3, np.uint8)), 1, [1, 300]),
             lambda m: m.insert(m.asarray(np.zeros((2, 2), np.int8)), 1, 200, axis=0),
             lambda m: m.insert(m.asarray(np.zeros(3, np.uint8)), 1, np.array(300))]
    pads = [(np.uint8, 300), (np.uint8, -1), (np.uint8, [[300]]), (np.float64, 1j),
            (np.uint8, ((1, 2), (3, 300))), (np.float64, ((1, 2), (3, 1j))), (np.int64, np.nan),
            (np.int64, ((1, 2), (3, 2.5))), (np.uint8, [[300], [2]]), (np.float16, 1e6)]
    with la.config(eager_size=eager_size):
        for call in calls:
            _same_outcome(call)
        for dtype, values in pads:
            def pad(m, dtype=dtype, values=values):
                return m.pad(m.asarray(np.ones((2, 2), dtype)), ((1, 0), (1, 1)),
                             constant_values=values)
            assert _messages_or_error(lambda: pad(la)) == _messages_or_error(lambda: pad(np))
            _same_outcome(pad)


def _messages_or_error(call) -> list[str]:
    """`_messages(call)`, or the error's type and text."""
    try:
        return _messages(call)
    except Exception as error:  # noqa: BLE001 (compared as a value)
        return [type(error).__name__, str(error).split("\\n(at ")[0]]


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_float_and_int_of_numpys_complex_scalar_warn_and_take_the_real_part(backend, eager_size):
    """`float(z[0])` of a complex array's element (NumPy's complex scalar) is its real part with
    NumPy's ComplexWarning; lazyarray raised Python's TypeError, the answer of a complex 0-d
    *array*, which stays."""
    host = np.array([1.5 + 2j, -3.25 - 1j])
    with la.config(eager_size=eager_size):
        z = la.asarray(host)
        for convert in (float, int):
            for pick in (lambda m, a: a[0], lambda m, a: a.sum(), lambda m, a: m.max(a.real) + 0j):
                with warnings.catch_warnings(record=True) as want_w:
                    warnings.simplefilter("always")
                    want = convert(pick(np, host))
                with warnings.catch_warnings(record=True) as got_w:
                    warnings.simplefilter("always")
                    got = convert(pick(la, z))
                assert type(got) is type(want) and got == want
                assert [(w.category, str(w.message)) for w in got_w] == [
                    (w.category, str(w.message)) for w in want_w]
                assert got_w[0].filename == __file__
            _same_outcome(lambda m: convert(m.asarray(np.array(1 + 2j))))
