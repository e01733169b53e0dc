"""trmm: B = alpha * A^T B with A unit lower-triangular, row by row in place (PolyBench's trmm)."""

SIZES = {"small": dict(M=6, N=8), "bench": dict(M=100, N=120)}


def inputs(rng, M, N):
    return 1.5, rng.random((M, M)), rng.random((M, N))


def kernel(np, alpha, A, B):
    for i in range(B.shape[0]):
        for j in range(B.shape[1]):
            B[i, j] += np.dot(A[i + 1:, i], B[i + 1:, j])
    B *= alpha
