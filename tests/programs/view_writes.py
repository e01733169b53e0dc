"""In-place writes through views of the arguments: `a[::2] += 1`, `x.T[...] = ...`, a column
view, np.add(..., out=a[1:]) with overlap, np.multiply(out=) on a slice, a reshaped view, a
negative-step view and np.copyto with a where mask."""

SIZES = {"small": dict(N=6, M=5), "bench": dict(N=600, M=500)}


def inputs(rng, N, M):
    return rng.random(2 * N), rng.random((N, M)), rng.random((M, N)), rng.random(N * M)


def kernel(np, a, X, Y, flat):
    a[::2] += 1
    a[1::2] *= a[::2]
    X.T[...] = Y + X.T
    col = X[:, 1]
    col -= col.mean()
    np.add(a[:-1], a[1:], out=a[1:])
    np.multiply(X[0], 2.0, out=X[-1])
    grid = flat.reshape(X.shape)
    grid[1:, :] += grid[:-1, :]
    r = a[::-1]
    r[:3] = 0.0
    np.copyto(Y, 0.0, where=Y > 0.5)
    np.negative(Y[0], out=Y[0])
    Y.T[1] = X[1]
    return a.sum(), X.mean(axis=0), grid, Y
