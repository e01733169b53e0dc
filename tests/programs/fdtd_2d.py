"""2-D finite-difference time domain: ex, ey, hz updated in place each step (PolyBench's
fdtd-2d)."""

SIZES = {"small": dict(NX=10, NY=12, T=4), "bench": dict(NX=300, NY=300, T=20)}


def inputs(rng, NX, NY, T):
    return T, rng.random((NX, NY)), rng.random((NX, NY)), rng.random((NX, NY)), rng.random(T)


def kernel(np, TMAX, ex, ey, hz, _fict_):
    for t in range(TMAX):
        ey[0, :] = _fict_[t]
        ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])
