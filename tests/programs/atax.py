"""atax: (A @ x) @ A."""

SIZES = {"small": dict(M=8, N=10), "bench": dict(M=2500, N=2800)}


def inputs(rng, M, N):
    return rng.random((M, N)), rng.random(N)


def kernel(np, A, x):
    return (A @ x) @ A
