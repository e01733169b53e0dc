"""3mm: (A@B)@(C@D), returned."""

SIZES = {"small": dict(N=6), "bench": dict(N=400)}


def inputs(rng, N):
    return rng.random((N, N)), rng.random((N, N)), rng.random((N, N)), rng.random((N, N))


def kernel(np, A, B, C, D):
    return A @ B @ (C @ D)
