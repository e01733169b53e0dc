"""Classical Runge-Kutta (RK4) for the Lorenz system, as numerical-methods notes write it: the
right-hand side unpacks the state (`x, y, z = state`) and builds np.array([...]) from 0-d values,
a preallocated trajectory written row by row (`Y[i + 1] = ...`), a time grid from np.linspace and
h = t[1] - t[0]; then an energy-like diagnostic and the step-doubling error estimate."""

import numpy

SIZES = {"small": dict(n=6), "bench": dict(n=150)}


def inputs(rng, n):
    return numpy.array([1.0, 1.0, 1.0]) + 0.1 * rng.random(3), n


def lorenz(np, t, state, sigma=10.0, rho=28.0, beta=8.0 / 3.0):
    x, y, z = state
    return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])


def rk4(np, f, y0, t0, t1, n):
    t = np.linspace(t0, t1, n + 1)
    h = t[1] - t[0]
    Y = np.empty((n + 1, len(y0)))
    Y[0] = y0
    for i in range(n):
        k1 = f(np, t[i], Y[i])
        k2 = f(np, t[i] + h / 2, Y[i] + h / 2 * k1)
        k3 = f(np, t[i] + h / 2, Y[i] + h / 2 * k2)
        k4 = f(np, t[i] + h, Y[i] + h * k3)
        Y[i + 1] = Y[i] + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return t, Y


def kernel(np, y0, n):
    t, Y = rk4(np, lorenz, y0, 0.0, 0.5, n)
    _, Y2 = rk4(np, lorenz, y0, 0.0, 0.5, 2 * n)
    error = np.linalg.norm(Y[-1] - Y2[-1]) / 15
    radius = np.sqrt((Y ** 2).sum(axis=1))
    y0 += 0.0 * y0  # scripts often "reset" the state in place
    return t, Y, error, radius.max(), Y[:, 2].argmax()
