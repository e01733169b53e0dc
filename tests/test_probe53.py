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
