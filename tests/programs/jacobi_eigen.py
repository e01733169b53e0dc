"""Jacobi eigenvalue algorithm (cyclic sweeps), as textbooks list it: `while off > tol` on the
Frobenius norm of the strict lower triangle, per pair (p, q) `if abs(A[p, q]) > eps`, the angle
from 0-d values with np.sign and np.sqrt, a rotation matrix built by chained element writes
`J[p, p] = J[q, q] = c`, A = J.T @ A @ J and V = V @ J; eigenvalues sorted with their vectors."""

import numpy

SIZES = {"small": dict(n=4), "bench": dict(n=14)}


def inputs(rng, n):
    M = rng.standard_normal((n, n))
    return ((M + M.T) / 2,)


def kernel(np, S, tol=1e-9, max_sweeps=20):
    A = S.copy()
    n = len(A)
    V = np.eye(n)
    sweeps = 0
    off = np.sqrt(np.sum(np.tril(A, -1) ** 2))
    while off > tol and sweeps < max_sweeps:
        for p in range(n - 1):
            for q in range(p + 1, n):
                if abs(A[p, q]) > 1e-15:
                    theta = (A[q, q] - A[p, p]) / (2 * A[p, q])
                    t = np.sign(theta) / (abs(theta) + np.sqrt(theta ** 2 + 1))
                    c = 1 / np.sqrt(t ** 2 + 1)
                    s = t * c
                    J = np.eye(n)
                    J[p, p] = J[q, q] = c
                    J[p, q] = s
                    J[q, p] = -s
                    A = J.T @ A @ J
                    V = V @ J
        sweeps += 1
        off = np.sqrt(np.sum(np.tril(A, -1) ** 2))
    w = np.diag(A)
    order = np.argsort(w)
    w_ref = np.linalg.eigvalsh(S)
    V = V[:, order] * np.sign(V[0, order])
    return w[order], np.abs(V), sweeps, np.max(np.abs(w[order] - w_ref)) < 1e-8
