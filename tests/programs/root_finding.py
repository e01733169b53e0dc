"""Root finding as numerical-methods courses write it: Newton's method vectorised over an array
for Kepler's equation (`E -= dE` until `np.max(np.abs(dE)) < tol`), scalar Newton on a polynomial
with np.polyval and np.polyder in `while abs(fx) > tol`, bisection whose branch reads the sign of
a product of 0-d values, and the secant method keeping Python floats from float()."""

import numpy

SIZES = {"small": dict(N=20), "bench": dict(N=80000)}


def inputs(rng, N):
    M = rng.random(N) * 2 * numpy.pi
    e = 0.1 + 0.5 * rng.random(N)
    p = numpy.array([1.0, 0.0, -2.0, -5.0]) + 0.01 * rng.random(4)
    return M, e, p


def kepler(np, M, e, tol=1e-12, maxiter=50):
    E = M.copy()
    for it in range(maxiter):
        dE = (E - e * np.sin(E) - M) / (1 - e * np.cos(E))
        E -= dE
        if np.max(np.abs(dE)) < tol:
            break
    return E, it


def newton(np, p, x0, tol=1e-12):
    dp = np.polyder(p)
    x = x0
    fx = np.polyval(p, x)
    steps = 0
    while abs(fx) > tol and steps < 100:
        x = x - fx / np.polyval(dp, x)
        fx = np.polyval(p, x)
        steps += 1
    return x, steps


def bisection(np, p, a, b, tol=1e-10):
    fa = np.polyval(p, a)
    while (b - a) / 2 > tol:
        c = (a + b) / 2
        fc = np.polyval(p, c)
        if fc == 0:
            break
        if np.sign(fc) == np.sign(fa):
            a, fa = c, fc
        else:
            b = c
    return (a + b) / 2


def secant(np, p, x0, x1, tol=1e-12):
    f0, f1 = float(np.polyval(p, x0)), float(np.polyval(p, x1))
    while abs(x1 - x0) > tol:
        x0, x1 = x1, x1 - f1 * (x1 - x0) / (f1 - f0)
        f0, f1 = f1, float(np.polyval(p, x1))
    return x1


def kernel(np, M, e, p):
    E, iterations = kepler(np, M, e)
    nu = 2 * np.arctan2(np.sqrt(1 + e) * np.sin(E / 2), np.sqrt(1 - e) * np.cos(E / 2))
    root, steps = newton(np, p, 2.0)
    mid = bisection(np, p, 0.0, 3.0)
    sec = secant(np, p, 1.0, 3.0)
    M += 0.0 * nu  # the anomaly array is reused in place by the next orbit step
    return E, nu, iterations, root, steps, mid, sec
