"""doitgen: a multiresolution kernel, A[:] = (A.reshape(NR, NQ, 1, NP) @ C4).reshape(NR, NQ, NP)."""

SIZES = {"small": dict(NR=3, NQ=4, NP=5), "bench": dict(NR=60, NQ=60, NP=128)}


def inputs(rng, NR, NQ, NP):
    return NR, NQ, NP, rng.random((NR, NQ, NP)), rng.random((NP, NP))


def kernel(np, NR, NQ, NP, A, C4):
    A[:] = (A.reshape(NR, NQ, 1, NP) @ C4).reshape(NR, NQ, NP)
