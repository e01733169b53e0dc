"""gesummv: alpha*A@x + beta*B@x, returned."""

SIZES = {"small": dict(N=10), "bench": dict(N=1200)}


def inputs(rng, N):
    return 1.5, 1.2, rng.random((N, N)), rng.random((N, N)), rng.random(N)


def kernel(np, alpha, beta, A, B, x):
    return alpha * A @ x + beta * B @ x
