"""Idioms of a third corpus of published NumPy programs (probe53: McKinney's Python for Data
Analysis ch. 4 and appendix A, Philip Mocz's simulations, Rosetta Code, Advent-of-Code grids,
finance, DSP, text I/O, the random APIs, numpy.linalg's reference examples) that lazyarray
answered differently from NumPy, each against NumPy, on every backend, at the default and on
the general path (eager_size=0, the path a GPU takes)."""

import numpy as np
import pytest

import lazyarray as la

EAGER_SIZES = [0, 4096]


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_matrix_rank_of_a_vector_or_scalar_is_numpys_int(backend, eager_size):
    """numpy.linalg.norm's reference page runs `LA.matrix_rank(np.zeros((4,)))` and
    `matrix_rank(1)`: NumPy answers `int(not all(A == 0))` below 2 dimensions. lazyarray raised
    LinAlgError '1-dimensional array given'."""
    cases = [np.zeros(4), np.ones(3), np.array([0.0, -0.0]), np.array([0.0, np.nan]), 1, 0,
             np.array(2.5), np.array([0, 3], dtype=np.int8), np.array([False, False])]
    with la.config(eager_size=eager_size):
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
