"""gemver: rank-2 update of A, then two matrix-vector products, every result written into an
argument."""

SIZES = {"small": dict(N=10), "bench": dict(N=1000)}


def inputs(rng, N):
    r = lambda *s: rng.random(s)  # noqa: E731
    return 1.5, 1.2, r(N, N), r(N), r(N), r(N), r(N), r(N), r(N), r(N), r(N)


def kernel(np, alpha, beta, A, u1, v1, u2, v2, w, x, y, z):
    A += np.outer(u1, v1) + np.outer(u2, v2)
    x += beta * y @ A + z
    w += alpha * A @ x
