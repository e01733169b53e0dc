"""Conway's Game of Life on a bordered grid: neighbour counts by slices, births and survivals by
masks
written through a view (`Z[1:-1, 1:-1][birth | survive] = 1`)."""

import numpy

SIZES = {"small": dict(N=12, T=4), "bench": dict(N=250, T=40)}


def inputs(rng, N, T):
    Z = (rng.random((N, N)) < 0.3).astype(numpy.int64)
    Z[0, :] = Z[-1, :] = Z[:, 0] = Z[:, -1] = 0
    return Z, T


def kernel(np, Z, steps):
    for _ in range(steps):
        N = (Z[0:-2, 0:-2] + Z[0:-2, 1:-1] + Z[0:-2, 2:] + Z[1:-1, 0:-2] + Z[1:-1, 2:]
             + Z[2:, 0:-2] + Z[2:, 1:-1] + Z[2:, 2:])
        birth = (N == 3) & (Z[1:-1, 1:-1] == 0)
        survive = ((N == 2) | (N == 3)) & (Z[1:-1, 1:-1] == 1)
        Z[...] = 0
        Z[1:-1, 1:-1][birth | survive] = 1
    return Z.sum()
