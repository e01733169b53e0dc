"""Row-wise updates through views: `row = A[i]; row[:] = ...`, `row += ...`, then a column via
A.T."""

SIZES = {"small": dict(N=6, M=5), "bench": dict(N=1500, M=300)}


def inputs(rng, N, M):
    return rng.random((N, M)), rng.random(M)


def kernel(np, A, w):
    for i in range(1, A.shape[0]):
        row = A[i]
        prev = A[i - 1]
        row[:] = 0.5 * row + 0.25 * prev
        row += w * 0.01
    A.T[0] = A[:, 1] - A[:, 2]
    return A.mean()
