"""mvt: two matrix-vector products accumulated into their arguments (x1 += A @ y1, x2 += y2 @ A)."""

SIZES = {"small": dict(N=10), "bench": dict(N=2500)}


def inputs(rng, N):
    return rng.random(N), rng.random(N), rng.random(N), rng.random(N), rng.random((N, N))


def kernel(np, x1, x2, y_1, y_2, A):
    x1 += A @ y_1
    x2 += y_2 @ A
