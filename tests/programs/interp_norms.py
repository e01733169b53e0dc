"""Small numerical idioms scripts mix: np.interp with left/right and a period, np.polyval with
Horner's loop beside it, np.cumprod of growth factors, np.linalg.norm with ord and axis (1, 2,
inf, -inf, 'fro', 'nuc', keepdims), np.outer, np.kron of small blocks, np.trace with offset, and
np.vander / np.polyfit round trips."""

import numpy

SIZES = {"small": dict(N=20, M=5), "bench": dict(N=100000, M=120)}


def inputs(rng, N, M):
    xp = numpy.sort(rng.random(12)) * 10
    fp = numpy.sin(xp)
    x = rng.random(N) * 12 - 1
    coeffs = rng.standard_normal(6)
    rates = 1 + 0.01 * rng.standard_normal(N)
    A = rng.standard_normal((M, M))
    return xp, fp, x, coeffs, rates, A


def horner(coeffs, x):
    result = 0.0
    for c in coeffs:
        result = result * x + c
    return result


def kernel(np, xp, fp, x, coeffs, rates, A):
    yi = np.interp(x, xp, fp)
    yi_lr = np.interp(x, xp, fp, left=-1.0, right=2.0)
    yi_per = np.interp(x, xp, fp, period=5.0)
    p1 = np.polyval(coeffs, x)
    p2 = horner(coeffs, x)
    growth = np.cumprod(rates)
    norms = (np.linalg.norm(A), np.linalg.norm(A, 'fro'), np.linalg.norm(A, 1),
             np.linalg.norm(A, np.inf), np.linalg.norm(A, -np.inf), np.linalg.norm(A, 2),
             np.linalg.norm(A, 'nuc'))
    rows = np.linalg.norm(A, axis=1)
    cols = np.linalg.norm(A, ord=1, axis=0)
    cols_inf = np.linalg.norm(A, ord=np.inf, axis=0, keepdims=True)
    v = A[0]
    vnorms = (np.linalg.norm(v, 0), np.linalg.norm(v, 1), np.linalg.norm(v, 3),
              np.linalg.norm(v, -np.inf))
    O = np.outer(v, A[1])
    K = np.kron(np.eye(2), A[:3, :3])
    K2 = np.kron(A[:2, :2], np.ones((2, 3)))
    tr = (np.trace(A), np.trace(A, offset=1), np.trace(A, offset=-2), np.trace(O))
    V = np.vander(x[:8], 4)
    fit = np.polyfit(x[:8], p1[:8], 3)
    rates /= growth[-1] ** (1 / len(rates))
    return (yi, yi_lr, yi_per, p1, p2, growth, norms, rows, cols, cols_inf, vnorms, O, K, K2,
            tr, V, fit)
