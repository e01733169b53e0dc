"""Power iteration for the dominant eigenpair, stopping when the Rayleigh quotient settles
(`if abs(lam - lam_old) < tol: break`: an evaluation inside the loop)."""

SIZES = {"small": dict(N=8, T=40), "bench": dict(N=500, T=300)}


def inputs(rng, N, T):
    M = rng.standard_normal((N, N))
    return M + M.T, rng.random(N), T


def kernel(np, A, v, maxiter, tol=1e-10):
    v /= np.linalg.norm(v)
    lam = 0.0
    for it in range(maxiter):
        w = A @ v
        lam_new = v @ w
        v[:] = w / np.linalg.norm(w)
        if abs(lam_new - lam) < tol * abs(lam_new):
            lam = lam_new
            break
        lam = lam_new
    return lam, it
