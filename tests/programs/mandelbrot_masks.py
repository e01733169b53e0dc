"""Mandelbrot escape iterations with np.less masks over the whole grid (npbench's mandelbrot1):
`N[I] = n`, `Z[I] = Z[I]**2 + C[I]`, then `N[N == maxiter - 1] = 0`."""

SIZES = {"small": dict(xn=16, yn=12, maxiter=12), "bench": dict(xn=300, yn=200, maxiter=40)}


def inputs(rng, xn, yn, maxiter):
    return -2.25, 0.75, -1.25, 1.25, xn, yn, maxiter, 2.0


def kernel(np, xmin, xmax, ymin, ymax, xn, yn, maxiter, horizon=2.0):
    X = np.linspace(xmin, xmax, xn, dtype=np.float64)
    Y = np.linspace(ymin, ymax, yn, dtype=np.float64)
    C = X + Y[:, None] * 1j
    N = np.zeros(C.shape, dtype=np.int64)
    Z = np.zeros(C.shape, dtype=np.complex128)
    for n in range(maxiter):
        I = np.less(abs(Z), horizon)
        N[I] = n
        Z[I] = Z[I]**2 + C[I]
    N[N == maxiter - 1] = 0
    return Z, N
