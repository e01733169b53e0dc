"""bicg: the two products of a BiCG step, p @ A and A @ r."""

SIZES = {"small": dict(M=8, N=10), "bench": dict(M=2500, N=2800)}


def inputs(rng, M, N):
    return rng.random((N, M)), rng.random(M), rng.random(N)


def kernel(np, A, p, r):
    return r @ A, A @ p
