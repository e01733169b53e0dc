"""gemm: C = alpha*A@B + beta*C written into the argument with C[:] = ..."""

SIZES = {"small": dict(NI=6, NJ=7, NK=8), "bench": dict(NI=400, NJ=420, NK=440)}


def inputs(rng, NI, NJ, NK):
    return 1.5, 1.2, rng.random((NI, NJ)), rng.random((NI, NK)), rng.random((NK, NJ))


def kernel(np, alpha, beta, C, A, B):
    C[:] = alpha * A @ B + beta * C
