"""Jacobi 1-D: two arrays updated in turn through slices, in place (PolyBench's jacobi-1d)."""

SIZES = {"small": dict(N=30, T=5), "bench": dict(N=20000, T=400)}


def inputs(rng, N, T):
    return T, rng.random(N), rng.random(N)


def kernel(np, TSTEPS, A, B):
    for t in range(1, TSTEPS):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])
