"""Explicit finite differences for the 1-D heat equation (a lecture-notes program): a grid from
np.linspace(..., retstep=True), `u[1:-1] = u[1:-1] + r * (u[2:] - 2 * u[1:-1] + u[:-2])` in a
time loop, boundary writes, a sparse np.meshgrid for a 2-D initial condition."""

SIZES = {"small": dict(N=21, steps=30), "bench": dict(N=20001, steps=400)}


def inputs(rng, N, steps):
    return N, steps, 0.4


def kernel(np, N, steps, r):
    x, dx = np.linspace(0.0, 1.0, N, retstep=True)
    dt = r * dx ** 2
    u = np.sin(np.pi * x) + 0.1 * np.sin(5 * np.pi * x)
    for _ in range(steps):
        u[1:-1] = u[1:-1] + r * (u[2:] - 2 * u[1:-1] + u[:-2])
        u[0] = u[-1] = 0.0
    exact = np.exp(-np.pi ** 2 * dt * steps) * np.sin(np.pi * x)
    xs, ys = np.meshgrid(x[::4], x[::3], sparse=True)
    plate = np.sin(np.pi * xs) * np.sin(np.pi * ys)
    return u, dx, dt, np.abs(u - exact).max(), xs.shape, ys.shape, plate
