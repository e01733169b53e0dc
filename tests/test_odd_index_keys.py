"""Index keys NumPy converts or refuses in its own way, read and written: objects with `__index__`
(a user's integer type: NumPy's `operator.index`, refused here before stop 56), ints past int64
(OverflowError) and past uint64, lists holding None or other objects (NumPy's IndexError, not a
dtype's TypeError), bools, empty lists and tuples, huge slice bounds, mixed advanced indices. The
exception's type and text and the values are NumPy's, on every backend and on the general path."""

import itertools
import warnings

import numpy as np
import pytest

import lazyarray as la


class Index:
    """A user's integer type: `__index__` only (no `__int__`, no `__array__`)."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v

    def __repr__(self):
        return f"Index({self.v})"


class SubInt(int):
    pass


KEYS = [True, False, np.True_, (True,), (0, True), (Ellipsis, None, 1), 2**63, -2**63, 2**64,
        np.uint64(2**63), np.uint64(1), np.int8(-1), Index(1), Index(-5), SubInt(2), 1.0,
        np.float64(1), slice(Index(1), Index(3)), slice(None, None, 0), slice(SubInt(1), None),
        slice(2**70, None), slice(-2**70, 2**70, 2**70), slice(None, None, -2**63),
        [0, 1], [True, False, True, False], [[0], [1]], [], (), ([],), ([], []), [[]],
        np.array([], dtype=np.int64), np.array([], dtype=float), np.array([1.0]), np.array(True),
        np.array(1), np.array([[True, False, True, False]] * 3), "a", None, (None, None, None),
        (Ellipsis, Ellipsis), (0, 0, 0), (slice(None), [0, 1], [1, 2]), ([0, 1], slice(None), [1, 2]),
        (1, [0, 2]), ([0, 2], 1), np.int64(3), np.bool_(False),
        (np.array([0, 1]), np.array([[1], [2]])), {0: 1}, [None], [0, None], (0.5,),
        (np.array(1), np.array(2)), (-4, -5), (-3, 3), (2, -4), (np.array([-4]),),
        [np.int64(1), 2], [Index(1), 1], (Index(1), Index(2)), (Index(2), slice(Index(1), None))]


def _outcome(m, key, write):
    a = m.arange(12.0).reshape(3, 4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if write:
                a[key] = -1.0
                r = np.asarray(a)
            else:
                r = np.asarray(a[key])
            return ("ok", r.dtype.str, r.shape, r.tolist(), [str(w.message) for w in caught])
        except Exception as e:
            return ("error", type(e), str(e), [str(w.message) for w in caught])


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_odd_keys_read_and_write_as_numpy(backend, eager_size):
    with la.config(eager_size=eager_size):
        for key, write in itertools.product(KEYS, (False, True)):
            assert _outcome(la, key, write) == _outcome(np, key, write), (key, write)


def test_functions_take_a_users_integer_type_as_numpy(backend):
    """`np.take(a, k)`, `np.linalg.matrix_power(m, k)` with k a user's `__index__` type: NumPy's
    operator.index (take refused it as an object dtype, matrix_power as no integer)."""
    a, m2 = np.arange(5.0), np.array([[1.0, 1.0], [0.0, 1.0]])
    assert np.asarray(la.take(la.asarray(a), Index(2))) == np.take(a, Index(2))
    assert np.array_equal(np.asarray(la.linalg.matrix_power(la.asarray(m2), Index(3))),
                          np.linalg.matrix_power(m2, Index(3)))
