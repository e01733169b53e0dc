"""Jacobi 2-D: five-point averages written into the other grid's interior (PolyBench's
jacobi-2d)."""

SIZES = {"small": dict(N=12, T=4), "bench": dict(N=250, T=40)}


def inputs(rng, N, T):
    return T, rng.random((N, N)), rng.random((N, N))


def kernel(np, TSTEPS, A, B):
    for t in range(1, TSTEPS):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1]
                               + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1]
                               + B[:-2, 1:-1])
