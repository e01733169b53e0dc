"""Sparse matrix-vector product over CSR arrays (row pointers, column indices, values), row by
row."""

import numpy

SIZES = {"small": dict(M=10, N=12, nnz=30), "bench": dict(M=2000, N=2000, nnz=20000)}


def inputs(rng, M, N, nnz):
    rows = numpy.sort(rng.integers(0, M, nnz))
    cols = rng.integers(0, N, nnz)
    A_row = numpy.zeros(M + 1, numpy.int64)
    numpy.add.at(A_row, rows + 1, 1)
    A_row = numpy.cumsum(A_row)
    return A_row, cols.astype(numpy.int64), rng.random(nnz), rng.random(N)


def kernel(np, A_row, A_col, A_val, x):
    y = np.empty(A_row.size - 1, A_val.dtype)
    for i in range(A_row.size - 1):
        cols = A_col[A_row[i]:A_row[i + 1]]
        vals = A_val[A_row[i]:A_row[i + 1]]
        y[i] = vals @ x[cols]
    return y
