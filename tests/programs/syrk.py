"""syrk: symmetric rank-k update of C's lower triangle, row by row (PolyBench's syrk)."""

SIZES = {"small": dict(M=5, N=7), "bench": dict(M=60, N=80)}


def inputs(rng, M, N):
    return 1.5, 1.2, rng.random((N, N)), rng.random((N, M))


def kernel(np, alpha, beta, C, A):
    for i in range(A.shape[0]):
        C[i, :i + 1] *= beta
        for k in range(A.shape[1]):
            C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]
