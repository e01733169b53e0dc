"""syr2k: symmetric rank-2k update of C's lower triangle, row by row (PolyBench's syr2k)."""

SIZES = {"small": dict(M=5, N=7), "bench": dict(M=50, N=70)}


def inputs(rng, M, N):
    return 1.5, 1.2, rng.random((N, N)), rng.random((N, M)), rng.random((N, M))


def kernel(np, alpha, beta, C, A, B):
    for i in range(A.shape[0]):
        C[i, :i + 1] *= beta
        for k in range(A.shape[1]):
            C[i, :i + 1] += (A[:i + 1, k] * alpha * B[i, k] + B[:i + 1, k] * alpha * A[i, k])
