"""Numerical integration as lecture notes write it: composite trapezoid by hand and by
np.trapezoid (with x and with dx), composite Simpson from strided slices `y[1:-1:2]`, a Romberg
table filled element by element `R[i, j] = R[i, j-1] + (R[i, j-1] - R[i-1, j-1]) / (4**j - 1)`,
a cumulative trapezoid by np.cumsum, and 2-D integration by nested np.trapezoid over a mesh."""

import numpy

SIZES = {"small": dict(N=33, levels=4, G=9), "bench": dict(N=400001, levels=7, G=800)}


def inputs(rng, N, levels, G):
    c = 1.0 + rng.random(3)
    return c, N, levels, G


def f(np, x, c):
    return c[0] * np.exp(-x ** 2) + c[1] * np.sin(3 * x) + c[2] * x ** 3


def kernel(np, c, N, levels, G):
    a, b = 0.0, 2.0
    x = np.linspace(a, b, N)
    y = f(np, x, c)
    h = (b - a) / (N - 1)
    trap = h * (y[0] / 2 + y[1:-1].sum() + y[-1] / 2)
    trap_np = np.trapezoid(y, x)
    trap_dx = np.trapezoid(y, dx=h)
    simpson = h / 3 * (y[0] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum() + y[-1])
    R = np.zeros((levels, levels))
    R[0, 0] = (b - a) / 2 * (f(np, a, c) + f(np, b, c))
    for i in range(1, levels):
        hi = (b - a) / 2 ** i
        mids = a + hi * np.arange(1, 2 ** i, 2)
        R[i, 0] = R[i - 1, 0] / 2 + hi * f(np, mids, c).sum()
        for j in range(1, i + 1):
            R[i, j] = R[i, j - 1] + (R[i, j - 1] - R[i - 1, j - 1]) / (4 ** j - 1)
    cumulative = np.concatenate(([0.0], np.cumsum((y[1:] + y[:-1]) / 2 * np.diff(x))))
    gx = np.linspace(0, 1, G)
    X, Y = np.meshgrid(gx, gx, indexing="ij")
    Z = np.exp(-(X ** 2 + Y ** 2)) * c[0]
    double = np.trapezoid(np.trapezoid(Z, gx, axis=1), gx)
    c *= 1.0  # unchanged values, but an in-place op on the argument
    return trap, trap_np, trap_dx, simpson, R, R[levels - 1, levels - 1], cumulative, double
