"""Idioms of a fourth corpus of published NumPy programs (probe54: CS231n, Karpathy's min-char-rnn,
Sutton and Barto's code, Wikipedia's algorithm examples, Project Euler, plain-NumPy image and
audio code, NumPy's reference docstrings) and probe53's open items that lazyarray answered
differently from NumPy, each against NumPy, on every backend, at the default and on the general
path (eager_size=0, the path a GPU takes)."""

import numpy as np
import pytest

import lazyarray as la

EAGER_SIZES = [0, 4096]


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
