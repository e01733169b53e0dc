"""Gauss-Seidel 2-D: rows updated in order, each element after its left neighbour (seidel-2d)."""

SIZES = {"small": dict(N=8, T=2), "bench": dict(N=100, T=3)}


def inputs(rng, N, T):
    return T, N, rng.random((N, N))


def kernel(np, TSTEPS, N, A):
    for t in range(0, TSTEPS - 1):
        for i in range(1, N - 1):
            A[i, 1:-1] += (A[i - 1, :-2] + A[i - 1, 1:-1] + A[i - 1, 2:] + A[i, 2:]
                           + A[i + 1, :-2] + A[i + 1, 1:-1] + A[i + 1, 2:])
            for j in range(1, N - 1):
                A[i, j] += A[i, j - 1]
                A[i, j] /= 9.0
