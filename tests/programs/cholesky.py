"""Cholesky factorization in place, row by row (PolyBench's cholesky as NumPy code writes it)."""

import numpy

SIZES = {"small": dict(N=8), "bench": dict(N=90)}


def inputs(rng, N):
    A = rng.random((N, N))
    return (A @ A.T + N * numpy.eye(N),)


def kernel(np, A):
    A[0, 0] = np.sqrt(A[0, 0])
    for i in range(1, A.shape[0]):
        for j in range(i):
            A[i, j] -= np.dot(A[i, :j], A[j, :j])
            A[i, j] /= A[j, j]
        A[i, i] -= np.dot(A[i, :i], A[i, :i])
        A[i, i] = np.sqrt(A[i, i])
