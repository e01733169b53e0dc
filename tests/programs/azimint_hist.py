"""Azimuthal integration: mean intensity per radial bin, two np.histogram calls (weighted /
counts)."""

SIZES = {"small": dict(N=1000, npt=10), "bench": dict(N=400000, npt=100)}


def inputs(rng, N, npt):
    return rng.random(N), rng.random(N), npt


def kernel(np, data, radius, npt):
    rmax = radius.max()
    histu = np.histogram(radius, npt, range=(0.0, rmax))[0]
    histw = np.histogram(radius, npt, range=(0.0, rmax), weights=data)[0]
    return histw / histu
