"""symm: C = alpha*A*B + beta*C with A symmetric, only its lower triangle read (PolyBench's
symm)."""

SIZES = {"small": dict(M=6, N=8), "bench": dict(M=60, N=80)}


def inputs(rng, M, N):
    return 1.5, 1.2, rng.random((M, N)), rng.random((M, M)), rng.random((M, N))


def kernel(np, alpha, beta, C, A, B):
    temp2 = np.empty((C.shape[1], ), dtype=C.dtype)
    C *= beta
    for i in range(C.shape[0]):
        for j in range(C.shape[1]):
            C[:i, j] += alpha * B[i, j] * A[i, :i]
            temp2[j] = B[:i, j] @ A[i, :i]
        C[i, :] += alpha * B[i, :] * A[i, i] + alpha * temp2
