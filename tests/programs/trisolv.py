"""Lower-triangular solve by forward substitution, the solution written into x."""

import numpy

SIZES = {"small": dict(N=10), "bench": dict(N=2500)}


def inputs(rng, N):
    L = numpy.tril(rng.random((N, N))) + N * numpy.eye(N)
    return L, rng.random(N), numpy.zeros(N)


def kernel(np, L, x, b):
    for i in range(x.shape[0]):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
