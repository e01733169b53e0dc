"""Mandelbrot set escape counts on an mgrid, iterating only the points still inside (masks)."""

SIZES = {"small": dict(xn=16, yn=12, maxiter=10), "bench": dict(xn=400, yn=300, maxiter=60)}


def inputs(rng, xn, yn, maxiter):
    return -2.25, 0.75, -1.25, 1.25, xn, yn, maxiter, 2.0


def kernel(np, xmin, xmax, ymin, ymax, xn, yn, itermax, horizon=2.0):
    Xi, Yi = np.mgrid[0:xn, 0:yn]
    Xi, Yi = Xi.astype(np.uint32), Yi.astype(np.uint32)
    X = np.linspace(xmin, xmax, xn, dtype=np.float64)[Xi]
    Y = np.linspace(ymin, ymax, yn, dtype=np.float64)[Yi]
    C = X + Y * 1j
    N_ = np.zeros(C.shape, dtype=np.int64)
    Z_ = np.zeros(C.shape, dtype=np.complex128)
    Xi.shape = Yi.shape = C.shape = xn * yn
    Z = np.zeros(C.shape, np.complex128)
    for i in range(itermax):
        if not len(Z):
            break
        np.multiply(Z, Z, Z)
        np.add(Z, C, Z)
        rem = abs(Z) > horizon
        N_[Xi[rem], Yi[rem]] = i + 1
        Z_[Xi[rem], Yi[rem]] = Z[rem]
        rem = ~rem
        Z = Z[rem]
        Xi, Yi = Xi[rem], Yi[rem]
        C = C[rem]
    return Z_.T, N_.T
