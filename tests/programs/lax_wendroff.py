"""Lax-Wendroff for 1-D linear advection on a periodic grid (np.roll), the state updated in
place."""

import numpy

SIZES = {"small": dict(N=32, T=5), "bench": dict(N=50000, T=100)}


def inputs(rng, N, T):
    x = numpy.linspace(0.0, 1.0, N, endpoint=False)
    return numpy.exp(-200.0 * (x - 0.3) ** 2) + 0.01 * rng.random(N), T, 0.8


def kernel(np, u, nsteps, c):
    for _ in range(nsteps):
        up = np.roll(u, -1)
        um = np.roll(u, 1)
        u[:] = u - 0.5 * c * (up - um) + 0.5 * c * c * (up - 2.0 * u + um)
    return u.sum()
