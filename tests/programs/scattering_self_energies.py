"""Electron-phonon scattering self-energies (npbench's scattering_self_energies): eight nested
Python loops over complex blocks, a gather through an int32 neighbour table, `@` products and
`Sigma[k, E, a] += ...` on an argument."""

import numpy

SIZES = {"small": dict(Nkz=1, NE=2, Nqz=1, Nw=2, N3D=2, NA=2, NB=2, Norb=2),
         "bench": dict(Nkz=2, NE=4, Nqz=2, Nw=2, N3D=2, NA=4, NB=2, Norb=4)}


def rng_complex(rng, shape):
    return rng.random(shape) + rng.random(shape) * 1j


def inputs(rng, Nkz, NE, Nqz, Nw, N3D, NA, NB, Norb):
    neigh_idx = rng.integers(0, NA, size=(NA, NB)).astype(numpy.int32)
    dH = rng_complex(rng, (NA, NB, N3D, Norb, Norb))
    G = rng_complex(rng, (Nkz, NE, NA, Norb, Norb))
    D = rng_complex(rng, (Nqz, Nw, NA, NB, N3D, N3D))
    Sigma = numpy.zeros((Nkz, NE, NA, Norb, Norb), dtype=numpy.complex128)
    return neigh_idx, dH, G, D, Sigma


def kernel(np, neigh_idx, dH, G, D, Sigma):
    for k in range(G.shape[0]):
        for E in range(G.shape[1]):
            for q in range(D.shape[0]):
                for w in range(D.shape[1]):
                    for i in range(D.shape[-2]):
                        for j in range(D.shape[-1]):
                            for a in range(neigh_idx.shape[0]):
                                for b in range(neigh_idx.shape[1]):
                                    if E - w >= 0:
                                        dHG = G[k, E - w, neigh_idx[a, b]] @ dH[a, b, i]
                                        dHD = dH[a, b, j] * D[q, w, a, b, i, j]
                                        Sigma[k, E, a] += dHG @ dHD
