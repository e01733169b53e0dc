"""Channel flow with periodic x boundaries, iterated until the velocity converges (`while udiff >
.001`)."""

import numpy

SIZES = {"small": dict(ny=8, nx=9, nit=5), "bench": dict(ny=41, nx=41, nit=10)}


def inputs(rng, ny, nx, nit):
    z = numpy.zeros((ny, nx))
    return nit, z.copy(), z.copy(), 0.01, 2.0 / (nx - 1), 2.0 / (ny - 1), z.copy(), 1.0, 0.1, 1.0


def build_up_b(np, rho, dt, dx, dy, u, v):
    b = np.zeros_like(u)
    b[1:-1, 1:-1] = (rho * (1 / dt * ((u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx)
                                      + (v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy))
                            - ((u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx)) ** 2
                            - 2 * ((u[2:, 1:-1] - u[0:-2, 1:-1]) / (2 * dy)
                                   * (v[1:-1, 2:] - v[1:-1, 0:-2]) / (2 * dx))
                            - ((v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy)) ** 2))
    # periodic boundary at x = 2
    b[1:-1, -1] = (rho * (1 / dt * ((u[1:-1, 0] - u[1:-1, -2]) / (2 * dx)
                                    + (v[2:, -1] - v[0:-2, -1]) / (2 * dy))
                          - ((u[1:-1, 0] - u[1:-1, -2]) / (2 * dx)) ** 2
                          - 2 * ((u[2:, -1] - u[0:-2, -1]) / (2 * dy)
                                 * (v[1:-1, 0] - v[1:-1, -2]) / (2 * dx))
                          - ((v[2:, -1] - v[0:-2, -1]) / (2 * dy)) ** 2))
    # periodic boundary at x = 0
    b[1:-1, 0] = (rho * (1 / dt * ((u[1:-1, 1] - u[1:-1, -1]) / (2 * dx)
                                   + (v[2:, 0] - v[0:-2, 0]) / (2 * dy))
                         - ((u[1:-1, 1] - u[1:-1, -1]) / (2 * dx)) ** 2
                         - 2 * ((u[2:, 0] - u[0:-2, 0]) / (2 * dy)
                                * (v[1:-1, 1] - v[1:-1, -1]) / (2 * dx))
                         - ((v[2:, 0] - v[0:-2, 0]) / (2 * dy)) ** 2))
    return b


def pressure_poisson_periodic(np, nit, p, dx, dy, b):
    for q in range(nit):
        pn = p.copy()
        p[1:-1, 1:-1] = (((pn[1:-1, 2:] + pn[1:-1, 0:-2]) * dy ** 2
                          + (pn[2:, 1:-1] + pn[0:-2, 1:-1]) * dx ** 2)
                         / (2 * (dx ** 2 + dy ** 2))
                         - dx ** 2 * dy ** 2 / (2 * (dx ** 2 + dy ** 2)) * b[1:-1, 1:-1])
        p[1:-1, -1] = (((pn[1:-1, 0] + pn[1:-1, -2]) * dy ** 2
                        + (pn[2:, -1] + pn[0:-2, -1]) * dx ** 2) / (2 * (dx ** 2 + dy ** 2))
                       - dx ** 2 * dy ** 2 / (2 * (dx ** 2 + dy ** 2)) * b[1:-1, -1])
        p[1:-1, 0] = (((pn[1:-1, 1] + pn[1:-1, -1]) * dy ** 2
                       + (pn[2:, 0] + pn[0:-2, 0]) * dx ** 2) / (2 * (dx ** 2 + dy ** 2))
                      - dx ** 2 * dy ** 2 / (2 * (dx ** 2 + dy ** 2)) * b[1:-1, 0])
        p[-1, :] = p[-2, :]
        p[0, :] = p[1, :]


def kernel(np, nit, u, v, dt, dx, dy, p, rho, nu, F):
    udiff = 1
    stepcount = 0
    while udiff > .001 and stepcount < 60:
        un = u.copy()
        vn = v.copy()
        b = build_up_b(np, rho, dt, dx, dy, u, v)
        pressure_poisson_periodic(np, nit, p, dx, dy, b)
        u[1:-1, 1:-1] = (un[1:-1, 1:-1]
                         - un[1:-1, 1:-1] * dt / dx * (un[1:-1, 1:-1] - un[1:-1, 0:-2])
                         - vn[1:-1, 1:-1] * dt / dy * (un[1:-1, 1:-1] - un[0:-2, 1:-1])
                         - dt / (2 * rho * dx) * (p[1:-1, 2:] - p[1:-1, 0:-2])
                         + nu * (dt / dx ** 2 * (un[1:-1, 2:] - 2 * un[1:-1, 1:-1] + un[1:-1, 0:-2])
                                 + dt / dy ** 2 * (un[2:, 1:-1] - 2 * un[1:-1, 1:-1]
                                                   + un[0:-2, 1:-1])) + F * dt)
        v[1:-1, 1:-1] = (vn[1:-1, 1:-1]
                         - un[1:-1, 1:-1] * dt / dx * (vn[1:-1, 1:-1] - vn[1:-1, 0:-2])
                         - vn[1:-1, 1:-1] * dt / dy * (vn[1:-1, 1:-1] - vn[0:-2, 1:-1])
                         - dt / (2 * rho * dy) * (p[2:, 1:-1] - p[0:-2, 1:-1])
                         + nu * (dt / dx ** 2 * (vn[1:-1, 2:] - 2 * vn[1:-1, 1:-1] + vn[1:-1, 0:-2])
                                 + dt / dy ** 2 * (vn[2:, 1:-1] - 2 * vn[1:-1, 1:-1]
                                                   + vn[0:-2, 1:-1])))
        # periodic boundaries: columns -1 and 0 from their wrapped neighbours
        u[1:-1, -1] = (un[1:-1, -1] - un[1:-1, -1] * dt / dx * (un[1:-1, -1] - un[1:-1, -2])
                       - vn[1:-1, -1] * dt / dy * (un[1:-1, -1] - un[0:-2, -1])
                       - dt / (2 * rho * dx) * (p[1:-1, 0] - p[1:-1, -2])
                       + nu * (dt / dx ** 2 * (un[1:-1, 0] - 2 * un[1:-1, -1] + un[1:-1, -2])
                               + dt / dy ** 2 * (un[2:, -1] - 2 * un[1:-1, -1] + un[0:-2, -1]))
                       + F * dt)
        u[1:-1, 0] = (un[1:-1, 0] - un[1:-1, 0] * dt / dx * (un[1:-1, 0] - un[1:-1, -1])
                      - vn[1:-1, 0] * dt / dy * (un[1:-1, 0] - un[0:-2, 0])
                      - dt / (2 * rho * dx) * (p[1:-1, 1] - p[1:-1, -1])
                      + nu * (dt / dx ** 2 * (un[1:-1, 1] - 2 * un[1:-1, 0] + un[1:-1, -1])
                              + dt / dy ** 2 * (un[2:, 0] - 2 * un[1:-1, 0] + un[0:-2, 0]))
                      + F * dt)
        v[1:-1, -1] = (vn[1:-1, -1] - un[1:-1, -1] * dt / dx * (vn[1:-1, -1] - vn[1:-1, -2])
                       - vn[1:-1, -1] * dt / dy * (vn[1:-1, -1] - vn[0:-2, -1])
                       - dt / (2 * rho * dy) * (p[2:, -1] - p[0:-2, -1])
                       + nu * (dt / dx ** 2 * (vn[1:-1, 0] - 2 * vn[1:-1, -1] + vn[1:-1, -2])
                               + dt / dy ** 2 * (vn[2:, -1] - 2 * vn[1:-1, -1] + vn[0:-2, -1])))
        v[1:-1, 0] = (vn[1:-1, 0] - un[1:-1, 0] * dt / dx * (vn[1:-1, 0] - vn[1:-1, -1])
                      - vn[1:-1, 0] * dt / dy * (vn[1:-1, 0] - vn[0:-2, 0])
                      - dt / (2 * rho * dy) * (p[2:, 0] - p[0:-2, 0])
                      + nu * (dt / dx ** 2 * (vn[1:-1, 1] - 2 * vn[1:-1, 0] + vn[1:-1, -1])
                              + dt / dy ** 2 * (vn[2:, 0] - 2 * vn[1:-1, 0] + vn[0:-2, 0])))
        u[0, :] = 0
        u[-1, :] = 0
        v[0, :] = 0
        v[-1, :] = 0
        udiff = (np.sum(u) - np.sum(un)) / np.sum(u)
        stepcount += 1
    return stepcount
