"""Idioms of published NumPy programs (probe48: NumPy's quickstart, Project-Euler-style integer
code) that lazyarray answered differently from NumPy, each against NumPy on the reference backend."""

import numpy as np
import pytest

import lazyarray as la


def test_a_range_indexes_as_numpys_integer_array(reference_backend):
    """NumPy takes a `range` (a non-tuple sequence) as an integer index array: the quickstart's
    `data[ind, range(data.shape[1])]`. lazyarray raised 'only integers, slices ...'."""
    host = np.sin(np.arange(20.0)).reshape(5, 4)
    ind = host.argmax(axis=0)
    x = la.asarray(host)
    for key in (range(3), (ind, range(4)), (1, range(1, 4, 2)), (range(4, -1, -2), slice(1, None)),
                range(0), (Ellipsis, range(2))):
        got, want = x[key], host[key]
        assert got.shape == want.shape and got.dtype == want.dtype, key
        np.testing.assert_array_equal(np.asarray(got), want)
    ours, theirs = la.asarray(host), host.copy()
    ours[range(2)] = -1.0
    theirs[range(2)] = -1.0
    ours[4, range(0, 4, 3)] += 10
    theirs[4, range(0, 4, 3)] += 10
    np.testing.assert_array_equal(np.asarray(ours), theirs)
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 5"):
        x[range(6)]


def test_errstate_and_seterr_govern_numpys_own_scalars():
    """`la.int64` is NumPy's type: `np.int64(2**62) * 4` under `with np.errstate(over='raise')`
    is NumPy's scalar arithmetic, which warned where NumPy raises; `np.float64(3) / 0` under
    errstate(divide='ignore') warned where NumPy is silent."""
    before = np.geterr()
    with la.errstate(over="raise"):
        with pytest.raises(FloatingPointError, match="overflow encountered in scalar multiply"):
            la.int64(2 ** 62) * 4
    with la.errstate(divide="ignore"):
        with np.testing.assert_no_warnings():
            assert la.float64(3.0) / 0 == np.inf
    assert np.geterr() == before
    old = la.seterr(divide="raise")
    try:
        with pytest.raises(FloatingPointError, match="divide by zero"):
            np.float64(1.0) / 0
    finally:
        la.seterr(**old)
    assert np.geterr() == before


def test_several_boolean_masks_are_numpys_nonzero_index_arrays(reference_backend):
    """NumPy's quickstart indexes `a[b1, b2]` with two masks: each becomes its nonzero()'s integer
    arrays, broadcast together (a read and a write). lazyarray refused any second mask."""
    host = np.arange(24).reshape(2, 3, 4)
    b1, b2, b3 = np.array([False, True]), np.array([True, False, True]), np.array([1, 0, 0, 1], bool)
    x = la.asarray(host)
    for key in ((b1, b2), (b1, b2, b3[::-1]), (b1, ..., b3), (slice(None), b2, [0, 3]),
                (b1, la.asarray(b2)), (b1, np.zeros(3, bool))):
        got, want = x[key], host[key]
        assert got.shape == want.shape and got.dtype == want.dtype, key
        np.testing.assert_array_equal(np.asarray(got), want)
    ours, theirs = la.asarray(host), host.copy()
    ours[b1, b2] = -5
    theirs[b1, b2] = -5
    ours[:, b2, b3] += 100
    theirs[:, b2, b3] += 100
    np.testing.assert_array_equal(np.asarray(ours), theirs)
    with pytest.raises(IndexError, match="along axis 2; size of axis is 4 but size of "
                       "corresponding boolean axis is 3"):
        x[b1, b2, b2]
