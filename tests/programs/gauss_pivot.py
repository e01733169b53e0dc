"""Gaussian elimination with partial pivoting on an augmented matrix (rows swapped with
`A[[i, p]] = A[[p, i]]`), then back substitution: solves A x = b, the augmented argument reduced
in place."""

SIZES = {"small": dict(N=7), "bench": dict(N=120)}


def inputs(rng, N):
    return (rng.random((N, N + 1)),)


def kernel(np, Ab):
    n = Ab.shape[0]
    for i in range(n):
        p = i + int(np.argmax(np.abs(Ab[i:, i])))
        if p != i:
            Ab[[i, p]] = Ab[[p, i]]
        Ab[i] /= Ab[i, i]
        for j in range(i + 1, n):
            Ab[j] -= Ab[j, i] * Ab[i]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = Ab[i, n] - Ab[i, i + 1:n] @ x[i + 1:]
    return x
