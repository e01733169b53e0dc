"""Contour integral for the eigenproblem of a banded Hamiltonian (npbench's contour_integral):
per quadrature point a complex matrix polynomial, its inverse or a solve, a sign from abs(z)."""

import numpy

SIZES = {"small": dict(NR=6, NM=4, slab_per_bc=2, num_int_pts=8),
         "bench": dict(NR=60, NM=40, slab_per_bc=2, num_int_pts=32)}


def rng_complex(rng, shape):
    return rng.random(shape) + rng.random(shape) * 1j


def inputs(rng, NR, NM, slab_per_bc, num_int_pts):
    Ham = rng_complex(rng, (slab_per_bc + 1, NR, NR))
    int_pts = rng_complex(rng, (num_int_pts,)) * 1.6 - (0.3 + 0.3j)
    Y = rng_complex(rng, (NR, NM))
    return NR, NM, slab_per_bc, Ham, int_pts, Y


def kernel(np, NR, NM, slab_per_bc, Ham, int_pts, Y):
    P0 = np.zeros((NR, NM), dtype=np.complex128)
    P1 = np.zeros((NR, NM), dtype=np.complex128)
    for idx in range(int_pts.shape[0]):
        z = int_pts[idx]
        Tz = np.zeros((NR, NR), dtype=np.complex128)
        for n in range(slab_per_bc + 1):
            zz = np.power(z, slab_per_bc / 2 - n)
            Tz += zz * Ham[n]
        if NR == NM:
            X = np.linalg.inv(Tz)
        else:
            X = np.linalg.solve(Tz, Y)
        if abs(z) < 1.0:
            X = -X
        P0 += X
        P1 += z * X

    return P0, P1
