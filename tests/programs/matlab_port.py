"""A MATLAB script ported line by line (column-major habits): `A(:)` as A.ravel('F'),
reshape(x, m, n) as np.reshape(x, (m, n), 'F'), preallocation with np.zeros(order='F'),
vec/unvec of a Sylvester equation solved by np.kron, and cumulative column sums."""

import numpy

SIZES = {"small": dict(n=4, m=3), "bench": dict(n=24, m=20)}


def inputs(rng, n, m):
    return rng.random((n, n)) + n * numpy.eye(n), rng.random((m, m)), rng.random((n, m))


def kernel(np, A, B, C):
    n, m = C.shape
    # A X + X B = C  <=>  (I_m kron A + B^T kron I_n) vec(X) = vec(C)
    K = np.kron(np.eye(m), A) + np.kron(B.T, np.eye(n))
    x = np.linalg.solve(K, C.ravel('F'))
    X = np.reshape(x, (n, m), 'F')
    residual = np.linalg.norm(A @ X + X @ B - C)
    G = np.zeros((n, m), order='F')
    for j in range(m):
        G[:, j] = np.cumsum(X[:, j])
    v = X.flatten('F')
    W = v.reshape((m, n), order='F').T
    Y = np.asarray(W, order='C').copy(order='F')
    Y[:, 0] = 0
    return X, residual < 1e-8, G, v[:5], W, Y, C.reshape(-1, order='F')[::2]
