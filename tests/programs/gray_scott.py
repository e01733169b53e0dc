"""Gray-Scott reaction-diffusion (N. Rougier, "From Python to NumPy", chapter 4): the interior
views u = U[1:-1, 1:-1], v = V[1:-1, 1:-1] updated in place with `+=` each step from a
five-point Laplacian of the whole grids, so the arguments change through the views."""

import numpy

SIZES = {"small": dict(n=12, steps=4), "bench": dict(n=128, steps=40)}


def inputs(rng, n, steps):
    U = numpy.ones((n + 2, n + 2))
    V = numpy.zeros((n + 2, n + 2))
    r = max(n // 5, 1)
    c = (n + 2) // 2
    U[c - r:c + r, c - r:c + r] = 0.50
    V[c - r:c + r, c - r:c + r] = 0.25
    U[1:-1, 1:-1] += 0.05 * rng.random((n, n))
    V[1:-1, 1:-1] += 0.05 * rng.random((n, n))
    return U, V, 0.16, 0.08, 0.060, 0.062, steps


def kernel(np, U, V, Du, Dv, F, k, steps):
    u, v = U[1:-1, 1:-1], V[1:-1, 1:-1]
    for i in range(steps):
        Lu = (                  U[0:-2, 1:-1] +
              U[1:-1, 0:-2] - 4*U[1:-1, 1:-1] + U[1:-1, 2:] +
                                U[2:  , 1:-1])
        Lv = (                  V[0:-2, 1:-1] +
              V[1:-1, 0:-2] - 4*V[1:-1, 1:-1] + V[1:-1, 2:] +
                                V[2:  , 1:-1])
        uvv = u*v*v
        u += (Du*Lu - uvv + F*(1-u))
        v += (Dv*Lv + uvv - (F+k)*v)
    return V.mean(), float(V.max()), (V > 0.2).sum()
