"""LU factorization and its solve: forward and back substitution (PolyBench's ludcmp)."""

import numpy

SIZES = {"small": dict(N=8), "bench": dict(N=60)}


def inputs(rng, N):
    A = rng.random((N, N))
    return A @ A.T + N * numpy.eye(N), rng.random(N)


def kernel(np, A, b):
    N = A.shape[0]
    x = np.zeros_like(b)
    y = np.zeros_like(b)
    for i in range(N):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[:j, j]
            A[i, j] /= A[j, j]
        for j in range(i, N):
            A[i, j] -= A[i, :i] @ A[:i, j]
    for i in range(N):
        y[i] = b[i] - A[i, :i] @ y[:i]
    for i in range(N - 1, -1, -1):
        x[i] = (y[i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]
    return x, y
