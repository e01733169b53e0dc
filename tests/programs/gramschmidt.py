"""Modified Gram-Schmidt QR: A's columns are orthogonalized in place, Q and R returned."""

SIZES = {"small": dict(M=10, N=6), "bench": dict(M=120, N=100)}


def inputs(rng, M, N):
    return (rng.random((M, N)),)


def kernel(np, A):
    Q = np.zeros_like(A)
    R = np.zeros((A.shape[1], A.shape[1]), dtype=A.dtype)
    for k in range(A.shape[1]):
        nrm = np.dot(A[:, k], A[:, k])
        R[k, k] = np.sqrt(nrm)
        Q[:, k] = A[:, k] / R[k, k]
        for j in range(k + 1, A.shape[1]):
            R[k, j] = np.dot(Q[:, k], A[:, j])
            A[:, j] -= Q[:, k] * R[k, j]
    return Q, R
