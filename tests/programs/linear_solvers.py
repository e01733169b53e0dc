"""Iterative and direct solvers as numerical-methods courses write them: conjugate gradient with
`rs_old = float(r @ r)` and `if np.sqrt(rs_new) < tol: break`, successive over-relaxation sweeping
`x[i] = (1 - omega) * x[i] + omega * (b[i] - sigma) / A[i, i]` until
np.linalg.norm(x - x_old, ord=np.inf) is small, and the Thomas algorithm for a tridiagonal system
with the forward sweep written into copies of the diagonals (the right-hand side overwritten)."""

import numpy

SIZES = {"small": dict(n=8), "bench": dict(n=120)}


def inputs(rng, n):
    M = rng.standard_normal((n, n))
    A = M @ M.T + n * numpy.eye(n)
    b = rng.standard_normal(n)
    lower = rng.random(n - 1)
    diag = 4.0 + rng.random(n)
    upper = rng.random(n - 1)
    d = rng.standard_normal(n)
    return A, b, lower, diag, upper, d


def conjugate_gradient(np, A, b, tol=1e-10):
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs_old = float(r @ r)
    for i in range(len(b)):
        Ap = A @ p
        alpha = rs_old / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = float(r @ r)
        if np.sqrt(rs_new) < tol:
            break
        p = r + (rs_new / rs_old) * p
        rs_old = rs_new
    return x, i + 1


def sor(np, A, b, omega=1.2, tol=1e-8, maxiter=200):
    n = len(b)
    x = np.zeros(n)
    for k in range(maxiter):
        x_old = x.copy()
        for i in range(n):
            sigma = A[i, :i] @ x[:i] + A[i, i + 1:] @ x_old[i + 1:]
            x[i] = (1 - omega) * x_old[i] + omega * (b[i] - sigma) / A[i, i]
        if np.linalg.norm(x - x_old, ord=np.inf) < tol:
            break
    return x, k + 1


def thomas(np, a, b, c, d):
    n = len(d)
    c_ = np.zeros(n - 1)
    d_ = np.zeros(n)
    c_[0] = c[0] / b[0]
    d_[0] = d[0] / b[0]
    for i in range(1, n):
        denom = b[i] - a[i - 1] * c_[i - 1]
        if i < n - 1:
            c_[i] = c[i] / denom
        d_[i] = (d[i] - a[i - 1] * d_[i - 1]) / denom
    x = d_
    for i in range(n - 2, -1, -1):
        x[i] -= c_[i] * x[i + 1]
    d[:] = x  # the right-hand side overwritten by the solution, as LAPACK's gtsv does
    return x


def kernel(np, A, b, lower, diag, upper, d):
    x_cg, it_cg = conjugate_gradient(np, A, b)
    x_sor, it_sor = sor(np, A, b)
    rhs = d.copy()
    x_t = thomas(np, lower, diag, upper, d)
    T = np.diag(diag) + np.diag(lower, -1) + np.diag(upper, 1)
    residual = np.linalg.norm(T @ x_t - rhs, ord=2)
    return x_cg, it_cg, x_sor, it_sor, x_t, residual, np.linalg.norm(A @ x_cg - b) < 1e-8
