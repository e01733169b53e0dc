"""Element-by-element updates written as A[i][j] = v (chained indexing), as beginners write them."""

SIZES = {"small": dict(N=6), "bench": dict(N=150)}


def inputs(rng, N):
    return rng.random((N, N)), rng.random(N)


def kernel(np, A, d):
    n = A.shape[0]
    for i in range(n):
        A[i][i] = A[i][i] + d[i]
        for j in range(i + 1, n):
            A[i][j] = 0.5 * (A[i][j] + A[j][i])
            A[j][i] = A[i][j]
    return np.trace(A)
