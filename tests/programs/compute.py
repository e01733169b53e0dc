"""Cython tutorial's `compute` (npbench's compute): np.clip and int64 arithmetic with NumPy int64
scalars."""

import numpy

SIZES = {"small": dict(M=12, N=10), "bench": dict(M=2000, N=2000)}


def inputs(rng, M, N):
    array_1 = rng.uniform(0, 1000, size=(M, N)).astype(numpy.int64)
    array_2 = rng.uniform(0, 1000, size=(M, N)).astype(numpy.int64)
    return array_1, array_2, numpy.int64(4), numpy.int64(3), numpy.int64(9)


def kernel(np, array_1, array_2, a, b, c):
    return np.clip(array_1, 2, 10) * a + array_2 * b + c
