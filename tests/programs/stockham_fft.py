"""Stockham radix-R FFT (self-sorting: no bit reversal): K stages of twiddles and size-R DFTs,
each a reshape, a transpose and a matmul; the result written into the argument y."""

import numpy

SIZES = {"small": dict(R=2, K=5), "bench": dict(R=4, K=7)}


def inputs(rng, R, K):
    N = R ** K
    x = rng.random(N) + 1j * rng.random(N)
    return N, R, K, x, numpy.zeros(N, numpy.complex128)


def kernel(np, N, R, K, x, y):
    r = np.arange(R)
    dft_mat = np.exp(-2.0j * np.pi * np.outer(r, r) / R)
    X = np.reshape(x, (1, N))
    P = 1
    for _ in range(K):
        Q = X.shape[1] // R
        T = np.reshape(X, (P, R, Q))
        tw = np.exp(-2.0j * np.pi * np.outer(np.arange(P), r) / (P * R))
        T = T * tw[:, :, np.newaxis]
        T = np.reshape(np.transpose(T, (1, 0, 2)), (R, P * Q))
        X = np.reshape(dft_mat @ T, (R * P, Q))
        P *= R
    y[:] = np.reshape(X, (N,))
