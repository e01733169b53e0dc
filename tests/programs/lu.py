"""LU factorization in place without pivoting (PolyBench's lu)."""

import numpy

SIZES = {"small": dict(N=8), "bench": dict(N=70)}


def inputs(rng, N):
    A = rng.random((N, N))
    return (A @ A.T + N * numpy.eye(N),)


def kernel(np, A):
    N = A.shape[0]
    for i in range(N):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[:j, j]
            A[i, j] /= A[j, j]
        for j in range(i, N):
            A[i, j] -= A[i, :i] @ A[:i, j]
