"""Levinson-Durbin recursion for a Toeplitz system (PolyBench's durbin)."""

SIZES = {"small": dict(N=10), "bench": dict(N=1500)}


def inputs(rng, N):
    return (rng.random(N) / (N + 1),)


def kernel(np, r):
    y = np.empty_like(r)
    alpha = -r[0]
    beta = 1.0
    y[0] = -r[0]
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + np.dot(np.flip(r[:k]), y[:k])) / beta
        y[:k] += alpha * np.flip(y[:k])
        y[k] = alpha
    return y
