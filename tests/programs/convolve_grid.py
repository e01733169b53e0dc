"""Signal and grid idioms: a moving average with np.convolve (valid / same / full), a 2-D Gaussian
from np.meshgrid and broadcasting, radial distances, np.gradient and a trapezoid integral."""

SIZES = {"small": dict(N=50, w=5, G=9), "bench": dict(N=200000, w=25, G=600)}


def inputs(rng, N, w, G):
    t = rng.random(N).cumsum()
    return rng.standard_normal(N), t, w, G


def kernel(np, signal, t, w, G):
    window = np.ones(w) / w
    smooth = np.convolve(signal, window, mode="valid")
    same = np.convolve(signal, window, mode="same")
    full = np.convolve(signal, [1.0, -2.0, 1.0])
    x = np.linspace(-2.0, 2.0, G)
    y = np.linspace(-1.0, 1.0, G // 2 + 1)
    X, Y = np.meshgrid(x, y)
    gauss = np.exp(-(X ** 2 + Y ** 2) / 0.5)
    r = np.sqrt(X[..., None] ** 2 + Y[..., None] ** 2 + x[None, None, :2] ** 2)
    xi, yj = np.meshgrid(x, y, indexing="ij")
    dsig = np.gradient(signal, t)
    area = np.trapezoid(signal, t)
    return smooth, same, full, gauss.sum(axis=0), r.max(), (xi * yj).mean(), dsig, area
