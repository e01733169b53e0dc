"""Householder QR as numerical linear algebra notes write it: per column the reflector from a view
x = R[j:, j] (np.linalg.norm, np.sign of x[0]), `w = x / u1; w[0] = 1`, the trailing block
updated with np.outer, Q accumulated from the right; then checks against np.linalg.qr's R up to
signs, the orthogonality error and a least-squares solve by back substitution."""

import numpy

SIZES = {"small": dict(m=7, n=5), "bench": dict(m=100, n=60)}


def inputs(rng, m, n):
    return rng.standard_normal((m, n)), rng.standard_normal(m)


def householder(np, A):
    m, n = A.shape
    Q = np.eye(m)
    R = A.copy()
    for j in range(n):
        normx = np.linalg.norm(R[j:, j])
        s = -np.sign(R[j, j])
        u1 = R[j, j] - s * normx
        w = R[j:, j] / u1
        w[0] = 1
        tau = -s * u1 / normx
        R[j:, :] = R[j:, :] - np.outer(tau * w, w @ R[j:, :])
        Q[:, j:] = Q[:, j:] - np.outer(Q[:, j:] @ w, tau * w)
    return Q, R


def kernel(np, A, b):
    Q, R = householder(np, A)
    n = A.shape[1]
    orth = np.linalg.norm(Q.T @ Q - np.eye(len(Q)), ord="fro")
    recon = np.linalg.norm(Q @ R - A) / np.linalg.norm(A)
    R_ref = np.linalg.qr(A, mode="r")
    same = np.allclose(np.abs(np.triu(R[:n])), np.abs(R_ref))
    qtb = Q.T @ b
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (qtb[i] - R[i, i + 1:n] @ x[i + 1:]) / R[i, i]
    A[:, 0] = x[0]  # the caller's matrix reused as workspace
    return np.triu(R), orth < 1e-10, recon, same, x
