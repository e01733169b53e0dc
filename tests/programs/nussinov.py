"""Nussinov RNA folding: a dynamic-programming table filled from the diagonal out."""

import numpy

SIZES = {"small": dict(N=10), "bench": dict(N=45)}


def inputs(rng, N):
    return (rng.integers(0, 4, size=N).astype(numpy.int32),)


def match(b1, b2):
    return 1 if b1 + b2 == 3 else 0


def kernel(np, seq):
    N = seq.shape[0]
    table = np.zeros((N, N), np.int32)
    for i in range(N - 1, -1, -1):
        for j in range(i + 1, N):
            if j - 1 >= 0:
                table[i, j] = np.maximum(table[i, j], table[i, j - 1])
            if i + 1 < N:
                table[i, j] = np.maximum(table[i, j], table[i + 1, j])
            if j - 1 >= 0 and i + 1 < N:
                if i < j - 1:
                    table[i, j] = np.maximum(table[i, j],
                                             table[i + 1, j - 1] + match(seq[i], seq[j]))
                else:
                    table[i, j] = np.maximum(table[i, j], table[i + 1, j - 1])
            for k in range(i + 1, j):
                table[i, j] = np.maximum(table[i, j], table[i, k] + table[k + 1, j])
    return table
