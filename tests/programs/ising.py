"""Metropolis Monte Carlo for the 2-D Ising model (a statistical-physics course): single spin
flips at drawn sites with periodic neighbours by modular indexing, the energy change read as a
Python number, acceptance against pre-drawn uniforms, `spins[i, j] *= -1`, then energy and
magnetisation by np.roll."""

import numpy

SIZES = {"small": dict(L=6, sweeps=2), "bench": dict(L=40, sweeps=3)}


def inputs(rng, L, sweeps):
    spins = rng.choice(numpy.array([-1, 1], dtype=numpy.int8), size=(L, L))
    n = sweeps * L * L
    return spins, rng.integers(0, L, (n, 2)), rng.random(n), 0.45


def kernel(np, spins, sites, draws, beta):
    L = spins.shape[0]
    accepted = 0
    for k in range(sites.shape[0]):
        i, j = sites[k]
        nb = (spins[(i + 1) % L, j] + spins[i - 1, j] + spins[i, (j + 1) % L] + spins[i, j - 1])
        dE = 2 * int(spins[i, j]) * int(nb)
        if dE <= 0 or draws[k] < np.exp(-beta * dE):
            spins[i, j] *= -1
            accepted += 1
    energy = -np.sum(spins * (np.roll(spins, 1, axis=0) + np.roll(spins, 1, axis=1)))
    return accepted, energy, spins.mean(), np.abs(spins.sum(dtype=np.int64))
