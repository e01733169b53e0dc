"""In-place updates where source and destination share memory, as NumPy resolves them: `A +=
A.T`, `a[1:] = a[:-1]`, writes through ravel() (a view) but not flatten() (a copy), through .real
and .imag, np.fill_diagonal, diag/triu index tuples, np.ix_, put_along_axis, put, putmask,
a.flat, clip(out=) and cumsum(out=) into the argument."""

SIZES = {"small": dict(N=5), "bench": dict(N=1500)}


def inputs(rng, N):
    return (rng.random((N, N)), rng.random(3 * N), rng.random(N) + 1j * rng.random(N),
            rng.random((N, N)))


def kernel(np, A, a, z, B):
    n = A.shape[0]
    A += A.T
    a[1:] = a[:-1]
    a[:-2] += a[2:]
    A.ravel()[::n + 2] = -1.0
    flat = A.flatten()
    flat[:] = 0.0
    z.real[...] = np.abs(z)
    z.imag *= -1
    np.fill_diagonal(B, 2.0)
    B[np.diag_indices(n)] += 1.0
    B[np.triu_indices(n, 1)] = 0.0
    rows = np.array([0, n - 1])
    B[np.ix_(rows, rows)] *= 10.0
    order = np.argsort(A, axis=1)[:, :1]
    np.put_along_axis(A, order, 5.0, axis=1)
    np.put(a, [0, 2, 2], [7.0, 8.0, 9.0])
    np.putmask(a, a > 0.9, a - 1.0)
    a.flat[3:6] = 4.0
    np.clip(A, 0.0, 2.0, out=A)
    np.cumsum(a[:n], out=a[n:2 * n])
    return A.sum(), flat.sum()
