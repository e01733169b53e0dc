"""Covariance matrix; the data argument is centred in place, the upper triangle mirrored by a
loop."""

SIZES = {"small": dict(M=6, N=10), "bench": dict(M=400, N=500)}


def inputs(rng, M, N):
    return M, float(N), rng.random((N, M))


def kernel(np, M, float_n, data):
    mean = np.mean(data, axis=0)
    data -= mean
    cov = np.zeros((M, M), dtype=data.dtype)
    for i in range(M):
        cov[i:M, i] = cov[i, i:M] = data[:, i] @ data[:, i:M] / (float_n - 1.0)
    return cov
