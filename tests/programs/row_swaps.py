"""Swaps as NumPy code writes them: bubble sort with `a[j], a[j + 1] = a[j + 1], a[j]` on
elements read in `if` tests, a row swap by fancy index `A[[i, k]] = A[[k, i]]`, and the row swap
through views `B[0], B[1] = B[1], B[0]` (NumPy's aliasing: both rows end up the old row 1)."""

SIZES = {"small": dict(N=8, M=4), "bench": dict(N=120, M=100)}


def inputs(rng, N, M):
    return rng.random(N), rng.random((N, M)), rng.random((N, M))


def kernel(np, a, A, B):
    n = a.shape[0]
    for i in range(n):
        for j in range(n - i - 1):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    for i in range(A.shape[0]):
        k = i + np.argmax(np.abs(A[i:, 0]))
        if k != i:
            A[[i, k]] = A[[k, i]]
    B[0], B[1] = B[1], B[0]
    B[2], B[3] = B[3].copy(), B[2].copy()
    B[:, [0, -1]] = B[:, [-1, 0]]
    return a[0], A[:, 0]
