"""Correlation matrix; the data argument is centred and scaled in place (PolyBench's
correlation)."""

SIZES = {"small": dict(M=6, N=10), "bench": dict(M=400, N=500)}


def inputs(rng, M, N):
    return M, float(N), rng.random((N, M))


def kernel(np, M, float_n, data):
    mean = np.mean(data, axis=0)
    stddev = np.std(data, axis=0)
    stddev[stddev <= 0.1] = 1.0
    data -= mean
    data /= np.sqrt(float_n) * stddev
    corr = np.eye(M, dtype=data.dtype)
    for i in range(M - 1):
        corr[i + 1:M, i] = corr[i, i + 1:M] = data[:, i] @ data[:, i + 1:M]
    return corr
