"""k-means (Lloyd): distances by broadcasting, argmin labels, centres as masked means, until
stable."""

SIZES = {"small": dict(N=60, D=2, K=3, T=5), "bench": dict(N=4000, D=4, K=8, T=10)}


def inputs(rng, N, D, K, T):
    centres = rng.standard_normal((K, D)) * 4.0
    pts = centres[rng.integers(0, K, N)] + rng.standard_normal((N, D))
    return pts, pts[:K].copy(), T


def kernel(np, X, C, iters):
    for _ in range(iters):
        d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
        labels = np.argmin(d, axis=1)
        new_C = np.array([X[labels == k].mean(axis=0) if np.any(labels == k) else C[k]
                          for k in range(C.shape[0])])
        if np.allclose(new_C, C):
            break
        C[:] = new_C
    return labels
