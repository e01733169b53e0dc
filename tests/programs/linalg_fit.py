"""Linear algebra as analysis scripts use it: a polynomial fit by np.linalg.lstsq on a Vandermonde
matrix, normal equations with np.linalg.solve, PCA by np.linalg.eigh of the covariance, a low-rank
approximation from np.linalg.svd, det/slogdet/norm/inv checks."""

SIZES = {"small": dict(N=40, D=4), "bench": dict(N=20000, D=24)}


def inputs(rng, N, D):
    x = rng.random(N) * 4.0 - 2.0
    y = 1.5 * x ** 3 - x + 0.5 + 0.1 * rng.standard_normal(N)
    X = rng.standard_normal((N, D)) @ rng.standard_normal((D, D))
    return x, y, X


def kernel(np, x, y, X):
    V = np.vander(x, 4)
    coef, residuals, rank, sv = np.linalg.lstsq(V, y, rcond=None)
    normal = np.linalg.solve(V.T @ V, V.T @ y)
    fit = np.polyval(coef, x)
    Xc = X - X.mean(axis=0)
    cov = Xc.T @ Xc / (X.shape[0] - 1)
    evals, evecs = np.linalg.eigh(cov)
    order = np.argsort(evals)[::-1]
    explained = evals[order] / evals.sum()
    proj = Xc @ np.abs(evecs[:, order[:2]])
    U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
    k = 2
    low_rank = (U[:, :k] * s[:k]) @ Vt[:k]
    err = np.linalg.norm(Xc - low_rank) / np.linalg.norm(Xc)
    sign, logdet = np.linalg.slogdet(cov)
    check = np.allclose(np.linalg.inv(cov) @ cov, np.eye(cov.shape[0]))
    return (coef, residuals, rank, sv, normal, fit, evals, explained, np.abs(proj), s, err,
            sign, logdet, np.linalg.det(cov), check)
